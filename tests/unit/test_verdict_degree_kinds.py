"""Kinds of fault in degree: quantifiers, superlatives and ranks, and the office a title names,
on the demo, the shared cases and the Factcheck-GPT refutations, one table per kind.

Each table mixes rows that must flip with rows that must not; the rows use the cosine ``HIGH``
(0.93, tests/unit/verdict_rows.py) so that only the checks decide, and the expected verdicts follow
from the rule each table's comment names.
"""

from __future__ import annotations

import pytest

from claims.types import Verdict
from tests.unit.verdict_rows import INF, C, Q, Row, S, U, check_row

# quantifiers and degree (claims.verdict.degree, claims/data/quantifiers.tsv): none
# is `supported` on the same words. Few/rarely exclude many/most/often/usually (a conflict); a
# universal claim against a weaker quantifier drops the reference's qualification; "most" against
# "some" and a superlative the reference does not grade are missing. A weaker claim is entailed,
# and quantifiers of different words are not compared. Factcheck-GPT: "Compressed air is the most
# common ... gas mixture" against a passage that calls it common (gold: irrelevant).
QUANTIFIERS_AND_DEGREE: list[Row] = [
    ("Most voters supported the plan.", "Few voters supported the plan.", {C}),
    ("He rarely walks to work.", "He usually walks to work.", {C}),
    ("All employees received a bonus.", "Some employees received a bonus.", {Q}),
    ("The museum is always open on Mondays.", "The museum is sometimes open on Mondays.", {Q}),
    ("The team always wins at home.", "The team usually wins at home.", {Q}),
    ("Most of the voters supported the plan.", "Some voters supported the plan.", {U}),
    (
        "The drug is the most effective treatment for migraines.",
        "The drug is an effective treatment for migraines.",
        {U},
    ),
    ("Oslo is the largest city in Norway.", "Oslo is a large city in Norway.", {U}),
    # "one of the largest" limits "the largest" (a qualification), not the other way round
    ("Oslo is the largest city in Norway.", "Oslo is one of the largest cities in Norway.", {Q}),
    ("The drug is the most effective treatment.", "The drug is among the most effective treatments.", {Q}),
    ("Oslo is one of the largest cities in Norway.", "Oslo is the largest city in Norway.", {S}),
    # entailed or stated: no finding
    ("Some employees received a bonus.", "All employees received a bonus.", {S}),
    ("He sometimes walks to work.", "He always walks to work.", {S}),
    ("Oslo is the largest city in Norway.", "Oslo is the largest city in Norway.", {S}),
    ("The drug is the most effective treatment.", "The drug is the most effective treatment.", {S}),
    # another word quantified: not compared ("most voters" / "few members ... voted")
    (
        "Most voters supported the plan.",
        "Most voters supported the plan, though few members of the council did.",
        {S},
    ),
]


@pytest.mark.parametrize("row", QUANTIFIERS_AND_DEGREE, ids=[r[0] for r in QUANTIFIERS_AND_DEGREE])
def test_quantifiers_and_degree(row: Row) -> None:
    check_row(row)


def test_claim_without_quantifier_leaves_the_reference_unparsed() -> None:
    # a claim with no quantifier word has no quantifier finding whatever the reference says, so
    # the reference's clause is not parsed for one (52 of the 146 single parses of
    # the bench workload's 300 audits); the reverse still compares
    from claims import parses
    from claims.verdict.degree import compare_quantifiers, quantifiers

    reference = "Most residents of the Varga valley own two cars."
    parses.clear()
    quantifiers.cache_clear()  # its own cache would answer without a parse
    assert compare_quantifiers("Residents of the Varga valley own two cars.", reference) is None
    assert parses._get(reference) is None
    found = compare_quantifiers("Few residents of the Varga valley own two cars.", reference)
    assert found is not None and found[0] == "conflict"
    assert parses._get(reference) is not None


# antonyms never judged supported (claims/data/antonyms.tsv, section "results, durations, ...");
# another rank of the same superlative conflicts (claims.verdict.degree.superlative_rank), while
# "one of the largest" still only limits "the largest"
ANTONYMS_AND_RANKS: list[Row] = [
    ("The company reported a loss of $5 million.", "The company reported a profit of $5 million.", {C}),
    ("The exhibition is temporary.", "The exhibition is permanent.", {C}),
    ("The lake is shallow.", "The lake is deep.", {C}),
    ("The pilot survived the crash.", "The pilot died in the crash.", {C}),
    ("The court upheld the ruling.", "The court overturned the ruling.", {C}),
    ("The company reported a profit of $5 million.", "The company reported a profit of $5 million.", {S}),
    ("Vossa is the largest city in Norland.", "Vossa is the second largest city in Norland.", {C}),
    ("Vossa is the second-largest city in Norland.", "Vossa is the largest city in Norland.", {C}),
    ("Vossa is the second-largest city in Norland.", "Vossa is the second largest city in Norland.", {S}),
    (
        "Vossa is the largest city in Norland.",
        "Vossa is one of the largest cities in Norland.",
        {Verdict.QUALIFICATION_DROPPED},
    ),
]


@pytest.mark.parametrize("row", ANTONYMS_AND_RANKS, ids=[r[0] for r in ANTONYMS_AND_RANKS])
def test_antonyms_and_ranks(row: Row) -> None:
    check_row(row)


# the office a title names (claims.verdict.offices, claims/data/office_modifiers.tsv;
# a kind of the Factcheck-GPT refutations: "sworn in as president" / "sworn in as vice president" is
# not supported, nor is the reverse): another office ("vice", "deputy", "lieutenant") is a flip,
# a qualification of the reference's office that the claim drops ("acting", "interim", "co-")
# drops a qualification, one the claim adds is missing; a text naming both forms, two
# qualifications of one office, a word that is no title, and an office said now against one said
# then ("until 2016", test_flip_controls) are no finding
OFFICES: list[Row] = [
    ("Lopez is the president of the firm.", "Lopez is the vice president of the firm.", {C}),
    ("Lopez is the vice president of the firm.", "Lopez is the president of the firm.", {C}),
    ("Maria Lopez was the deputy mayor of Oslo.", "Maria Lopez was the mayor of Oslo.", {C}),
    ("Lopez is the vice president of the firm.", "Lopez is the vice president of the firm.", {S}),
    ("Maria Lopez is the CEO of the company.", "Maria Lopez is the acting CEO of the company.", {Q}),
    ("Steve Wozniak is the founder of Apple.", "Steve Wozniak is a co-founder of Apple.", {Q}),
    ("Maria Lopez is the acting CEO of the company.", "Maria Lopez is the CEO of the company.", {U}),
    (
        "Joe Biden was sworn in as president in 2021.",
        "Joe Biden was sworn in as president and Kamala Harris as vice president in 2021.",
        {S},
    ),
    ("Her career began in 1990.", "Her acting career began in 1990.", {S}),
    # the title said of another holder, scope or time: the claim's office is
    # not stated (neither contradicted nor supported)
    ("Smith is the president of the club.", "Smith's wife is the vice president of the club.", {U}),
    (
        "Mark Smith is the chairman of Acme.",
        "Mark Smith is the deputy chairman of Acme's audit committee.",
        {U},
    ),
    (
        "The manager reports to the president.",
        "The manager reports to the vice president of operations.",
        {U},
    ),
    ("Alvarez is the mayor of Springfield.", "Alvarez was deputy mayor of Springfield.", {U}),
    # ranks of one office: the first against a qualified one is another office; a bare title
    # is stated by the first ("a head coach is a coach")
    ("Lee is the head coach of the team.", "Lee is the assistant coach of the team.", {C}),
    ("Anna Roberts is the chief justice.", "Anna Roberts is an associate justice.", {C}),
    ("Lee is the coach of the team.", "Lee is the head coach of the team.", {S}),
]


@pytest.mark.parametrize("row", OFFICES, ids=[r[0] for r in OFFICES])
def test_offices(row: Row) -> None:
    check_row(row)


# a first rank against a lower place in the same ranking (claims.verdict.degree._placed;
# Factcheck-GPT: "Georgia is the largest producer of peaches" against "ranked third in peach
# production" was supported): the noun the superlative ranks must be the reference's measure, so
# another measure ("for tourism") or no ranked noun is no finding
PLACES: list[Row] = [
    (
        "Georgia is the largest producer of peaches in the United States.",
        "Georgia ranked third in United States peach production in 2012.",
        {C},
    ),
    ("Bergen is the largest city in the region.", "Bergen ranks second among the cities of the region.", {C}),
    ("The city is the largest in the region.", "The city ranked third in the region for tourism.", {S, U}),
    ("Georgia is a major producer of peaches.", "Georgia ranked third in peach production.", {S, INF, U}),
    # a first place anywhere, a stated other measure, a count ("placed 5
    # orders"), and a reference that states the superlative itself are no other rank
    (
        "Kenya is the largest exporter of tea.",
        "Kenya ranks third in tea production but first in tea exports.",
        {S, U},
    ),
    (
        "The tower is the tallest building in the world.",
        "The tower ranks 12th among buildings by floor area.",
        {S, U},
    ),
    ("Amazon is the largest online retailer.", "The largest online retailer placed 5 orders.", {S, U}),
    (
        "Johnson was the fastest qualifier.",
        "Johnson, the fastest qualifier, finished second in the final.",
        {S, U},
    ),
]


@pytest.mark.parametrize("row", PLACES, ids=[r[0] for r in PLACES])
def test_first_rank_against_a_lower_place(row: Row) -> None:
    check_row(row)
