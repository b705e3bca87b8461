"""Verdict kinds: antonyms from WordNet 3.0, and flat denials; antonyms
of two occasions, converse relations, centuries and decades (tables ``OCCASIONS``,
``CONVERSE``, ``PERIODS``).

**WordNet antonyms** (rows of source "wordnet" in ``claims/data/lexicon.tsv``, built by
``tools/build_lexicon.py``; "antonym and predicate relations from a licensed lexical
resource"), read by the antonym check (``claims.verdict.lexical.antonym_flip``). The rule: a word
of the claim whose WordNet antonym, and not the word itself, is in the reference's covering clause
is a flip (``contradicted``) when both say it of the same thing: adjectives that describe nouns
of one stem, one of them as a predicate; verbs that share an agent or a patient and differ in
neither (agent: an active verb's subject or a passive one's "by" phrase); never between two
different values. A verb pair whose agents are each the other's other party, with the same
patient, tells one event from its two sides and is no flip (this also holds for the hand-written
pairs: "bought" / "sold").

**Flat denials** (check: polarity; ``claims.verdict.clause_checks.check_polarity``). The rule: a
reference claim that denies the claim's verb, whose every content word is the claim's, with no
modal or future on either side and in the same tense, denies it whatever its agent ("by the
storm") or extent ("over time"), so those words are not needed for the flip (``contradicted``);
every other adjunct may narrow the scope and is still needed. A denial of the claim's verb that
states another adjunct is no flip but no support either (``unsupported``;
``text.verb_adjunct_tokens``). Without the rule, "Honey spoils over time" against "Honey does not
spoil" and "The bridge was damaged by the storm" against "The bridge was not damaged by the
flood" are `supported`.

The cosines are ``HIGH`` (0.93, as in tests/unit/test_verdict_checks.py) so that only the checks
decide; each table mixes rows that must flip with rows that must not.
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.facets.vocabulary import WORDNET_ANTONYMS, data_lines
from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.text import verb_adjunct_tokens

C, S, U = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED
HIGH = 0.93
Row = tuple[str, str, set[Verdict]]


def data_lines_of(name: str) -> list[str]:
    return [line for _, line in data_lines(name)]


def _verdict(response: str, reference: str) -> tuple[Verdict, str]:
    rcs = [ReferenceClaim(0, Claim(reference, 0, len(reference)))]
    sim = np.full((1, 1), HIGH, dtype=np.float32)
    j = judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=[reference])[0]
    return j.verdict, j.reason


def _check(row: Row) -> None:
    response, reference, allowed = row
    got, reason = _verdict(response, reference)
    assert got in allowed, f"{response!r} vs {reference!r} -> {got.value} ({reason})"


# verbs: WordNet's pair with the same agent or patient flips; without the WordNet pairs
# each of these is `supported` (a cosine of 0.8-0.9 and every other word stated)
VERBS: list[Row] = [
    ("The experiment failed.", "The experiment succeeded.", {C}),
    ("The plane left Paris at noon.", "The plane arrived in Paris at noon.", {C}),
    ("The new law complicated the tax code.", "The new law simplified the tax code.", {C}),
    ("The minister criticized the report.", "The minister praised the report.", {C}),
    ("The council abolished the tax in 1990.", "The council established the tax in 1990.", {C}),
    # another subject: the antonym is said of something else
    ("The experiment failed.", "The funding succeeded.", {U, S}),
    # the same verb in both: nothing to flip
    ("The plane arrived in Paris at noon.", "The plane left Oslo at 9 and arrived in Paris at noon.", {S}),
    # negated antonym: "did not fail" states what "succeeded" states
    ("The experiment did not fail.", "The experiment succeeded.", {S, U}),
]

# adjectives: WordNet's pair describing the same noun flips
ADJECTIVES: list[Row] = [
    ("Water is scarce in the region.", "Water is abundant in the region.", {C}),
    ("The tumour was malignant.", "The tumour was benign.", {C}),
    # pairs that are adjectives and verbs both (read as verbs only they would be `supported`)
    ("The water is dirty.", "The water is clean.", {C}),
    ("The answer is wrong.", "The answer is right.", {C}),
    ("The species is terrestrial.", "The species is aquatic.", {C}),
    # the antonym describes another noun: no flip
    ("The river is wide.", "The narrow bridge crosses the wide river.", {S}),
    ("The new bridge is wide.", "The new bridge replaced a narrow ferry crossing.", {U, S}),
]

# one event from its two sides: each verb's subject is the other's other party (hand-written
# "bought" / "sold" was `contradicted` before; WordNet's "lent" / "borrowed" never flips)
TWO_SIDES: list[Row] = [
    ("Acme bought the factory from the company.", "The company sold the factory to Acme.", {S}),
    ("The company sold the factory to Acme.", "Acme bought the factory from the company.", {S}),
    ("Bo borrowed the car from Ann.", "Ann lent Bo the car.", {S}),
    # the same buyer on both sides: a flip
    ("Acme sold the factory.", "Acme bought the factory.", {C}),
    # another thing changed hands: two events, never one told from two sides; the
    # two agents differ, so no flip either (`lexical._other_agents`)
    ("The company bought the rival from Acme.", "Acme sold the company to the rival.", {C, U}),
    # one agent in either voice is one side, not two (these must not turn supported)
    ("The bill was accepted by the Senate.", "The Senate rejected the bill.", {C}),
    ("Smith was fired by the company.", "The company hired Smith.", {C}),
    ("The report was criticized by the minister.", "The minister praised the report.", {C}),
    ("The factory was sold by the company to Acme.", "Acme bought the factory from the company.", {S}),
]

# WordNet pairs said of two things, or with two values, are no flip
TWO_THINGS: list[Row] = [
    ("The secondary tumour was in the lung.", "The primary tumour was in the lung.", {U}),
    ("The junior doctor approved the plan.", "The senior doctor approved the plan.", {U}),
    ("Water freezes at 0 degrees Celsius.", "Water boils at 100 degrees Celsius.", {U}),
    (
        "The government included farmers in the scheme.",
        "The government excluded fishermen from the scheme.",
        {U, S},  # the objects are not compared here (a known gap); no flip
    ),
]

# stances and the fates of laws (claims/data/antonyms.tsv): never supported
HAND_PAIRS: list[Row] = [
    ("The senator voted for the bill.", "The senator voted against the bill.", {C}),
    ("The law was enacted in 2010.", "The law was repealed in 2010.", {C}),
    ("The proposal was rejected.", "The proposal was adopted.", {C}),
    # won/lost, gained/lost (not `unsupported`, "another action"),
    # improved/worsened; one match told from both sides, and another object, are no flip
    ("The company won the lawsuit in 2015.", "The company lost the lawsuit in 2015.", {C}),
    ("The opposition gained 12 seats in the election.", "The opposition lost 12 seats in the election.", {C}),
    ("Her condition improved after surgery.", "Her condition worsened after surgery.", {C}),
    ("Brazil won the final against Germany.", "Germany lost the final to Brazil.", {S, U}),
    # two agents of one match: no flip (never `contradicted`)
    ("Federer won the final.", "Nadal lost the final to Federer.", {S, U}),
    ("The challenger won the election.", "The incumbent lost the election to the challenger.", {S, U}),
    ("The team lost its coach in 2019.", "The team won the cup in 2019.", {U}),
]

# two lengths that name two measures are two quantities (``rivals.other_measure``): before,
# "30 km long" / "45 km wide" was `contradicted` (one slot, length)
MEASURES: list[Row] = [
    ("The lake is 30 km long.", "The lake is 45 km wide.", {U}),
    ("The tower is 300 metres tall.", "The tower is 330 metres wide at its base.", {U}),
    ("The well is 40 m deep.", "The well has a diameter of 2 m.", {U}),
    # the same measure, in other words: a conflict as before
    ("The tower is 300 metres tall.", "The tower has a height of 330 metres.", {C}),
    ("The river is 500 km long.", "The river is 600 km in length.", {C}),
    ("The lake is 30 km long.", "The lake is 45 km long.", {C}),
]

# two approximations too far apart to approximate one value conflict like two points
# (``claims.facets.rounding.approximations_apart``: each allows its rounding step or 10 %)
APPROXIMATIONS: list[Row] = [
    ("The city has about 20 million inhabitants.", "The city has about 2 million inhabitants.", {C}),
    ("The lake is about 30 km long.", "The lake is about 45 km long.", {C}),
    ("The project cost around 5 million dollars.", "The project cost roughly 5.2 million dollars.", {S}),
    ("About 40% of voters backed the plan.", "About 45% of voters backed the plan.", {U, S}),
    # a small whole number allows its last digit (not `contradicted`)
    ("The trip takes about 4 hours.", "The trip takes about 3 hours.", {U, S}),
]


def test_wordnet_table_is_typed_and_apart_from_the_hand_list() -> None:
    """Verb pairs come in their inflected forms (WordNet 3.0: succeed / fail is a direct antonym of
    the first senses); a pair that is both adjectives and verbs keeps both; the file shares no
    pair with the hand list (the builder leaves those out: rebuild after editing either)."""
    assert WORDNET_ANTONYMS["succeeded"]["failed"] == {"verb"}
    assert WORDNET_ANTONYMS["fails"]["succeeds"] == {"verb"}
    assert WORDNET_ANTONYMS["scarce"]["abundant"] == {"adj"}
    assert WORDNET_ANTONYMS["clean"]["dirty"] == {"adj", "verb"}
    # adjectives with a negative prefix of negative_prefixes.tsv are the negative-prefix check's
    assert "unable" not in WORDNET_ANTONYMS.get("able", {})
    assert WORDNET_ANTONYMS["abnormal"]["normal"] == {"adj"}
    rows = [r.split("\t") for r in data_lines_of("lexicon.tsv")]
    wordnet = [r for r in rows if r[2] == "antonym" and r[5].startswith("wordnet")]
    hand = {frozenset(r.split("\t")[:2]) for r in data_lines_of("antonyms.tsv")}
    assert wordnet and not [r for r in wordnet if frozenset(r[:2]) in hand]


FLAT_DENIALS: list[Row] = [
    # a flat denial covers the verb's agent and extent
    ("Honey spoils over time.", "Honey does not spoil.", {C}),
    ("The bridge was damaged by the storm.", "The bridge was not damaged.", {C}),
    # other adjuncts may narrow the scope and are still needed: no flip ("by train" is a means,
    # but "approved for adults", "closed during the pandemic" would be a scope)
    ("He travelled to Paris by train.", "He did not travel to Paris.", {U}),
    ("The drug is approved for adults.", "The drug is not approved.", {U}),
    # a frame, a condition, a modal or another tense is no flat denial
    ("Honey spoils over time.", "It is a myth that honey does not spoil.", {U, S}),
    ("Honey spoils over time.", "If stored properly, honey does not spoil.", {U}),
    ("Honey spoils over time.", "Honey may not spoil.", {U, Verdict.QUALIFICATION_DROPPED}),
    ("The bridge was damaged by the storm.", "The bridge is not damaged.", {U}),
    # a future is no flat statement (not `contradicted`)
    ("The bridge will be damaged by the storm.", "The bridge was not damaged.", {U}),
    # the plain flip
    ("Honey spoils.", "Honey does not spoil.", {C}),
    # a dated or named circumstance may be another event: not stated, no flip
    ("Honey spoils over two years.", "Honey does not spoil.", {U}),
    # the denial names another circumstance: no flip, and no support
    ("The bridge was damaged by the storm.", "The bridge was not damaged by the flood.", {U}),
    ("The drug is used for pain.", "The drug is not used for children.", {U}),
    # the claim denies, the reference affirms: absence of the adjunct is no denial of it
    ("Honey does not spoil over time.", "Honey spoils.", {U}),
    # both affirm: support as before
    ("The bridge was damaged by the storm.", "The bridge was damaged by the storm.", {S}),
]


@pytest.mark.parametrize(
    ("text", "tokens", "expected"),
    [
        ("Honey spoils over time.", ["honey", "spoil", "time"], {"time"}),
        ("The bridge was damaged by the storm.", ["bridge", "damage", "storm"], {"storm"}),
        # a number, a month or a name keeps the phrase: another time or place
        ("The bridge was damaged in 2019.", ["bridge", "damage", "2019"], set()),
        ("The bridge was damaged in May.", ["bridge", "damage", "may"], set()),
        ("He studied in Paris.", ["study", "paris"], set()),
        # a prepositional phrase on the object is no adjunct of the verb
        (
            "The museum charges admission for exhibitions.",
            ["museum", "charge", "admission", "exhibition"],
            set(),
        ),
        # no verb at the root
        ("A storm in May.", ["storm", "may"], set()),
    ],
)
def test_verb_adjunct_tokens(text: str, tokens: list[str], expected: set[str]) -> None:
    assert set(verb_adjunct_tokens(text, tokens)) == expected


# two occasions (``lexical._other_occasion``): antonymous verbs that each say when,
# where or how in words the other text lacks, or whose success or failure is of another verb,
# may both be true: another action (`unsupported`), not a flip. Without the rule the first
# three are `contradicted`
OCCASIONS: list[Row] = [
    ("The rash disappeared after a week.", "The rash appeared after two days.", {U}),
    ("The team failed in the final.", "The team succeeded in reaching the final.", {U}),
    ("The troops arrived in the spring.", "The troops departed in the autumn.", {U}),
    ("The shop opened in the morning.", "The shop closed in the evening.", {U}),
    # one occasion: the same circumstance, or the same complement verb
    ("The shop opened in the morning.", "The shop closed in the morning.", {C}),
    ("The plane left Paris at noon.", "The plane arrived in Paris at noon.", {C}),
    ("The team failed to reach the final.", "The team succeeded in reaching the final.", {C}),
    # amounts of a change are no occasion, and a number or date counts as its value however it
    # is written (never `unsupported`)
    ("The stock rose by 5% on Monday.", "The stock fell by 3% on Monday.", {C}),
    ("Sales rose to $5 million in 2020.", "Sales fell to $3 million in 2020.", {C}),
    ("The price rose from $10 to $12.", "The price fell from $10 to $8.", {C}),
    ("The museum opened on 5 May 1990.", "The museum closed on May 5th, 1990.", {C}),
    ("Jobs increased by 10,000 in May.", "Jobs decreased by ten thousand in May.", {C}),
    ("The rash appeared after 2 days.", "The rash disappeared after two days.", {C}),
    # other dates, other times of trading: two occasions
    ("The museum opened on 5 May 1990.", "The museum closed on 7 June 1990.", {U}),
    ("Shares rose in early trading.", "Shares fell in late trading.", {U}),
    # each text has a word the other lacks, wherever the parse hangs it
    ("The party gained support among young voters.", "The party lost support among older voters.", {U}),
]

# converse relations (``roles.converse_relation``): the claim's subject and object
# traded around a verb that is neither one-way nor symmetric; both directions may be true, but
# the reference states only the other one (`unsupported`, a finding the learned decision does
# not overturn). Without the rule each of the first five is `supported` at cosine 0.98-0.99
CONVERSE: list[Row] = [
    ("Smoking causes lung cancer.", "Lung cancer causes smoking.", {U}),
    ("Poverty leads to crime.", "Crime leads to poverty.", {U}),
    ("The officer praised the firefighter.", "The firefighter praised the officer.", {U}),
    ("The mayor sued the newspaper.", "The mayor was sued by the newspaper.", {U}),
    ("The virus triggers the immune response.", "The immune response triggers the virus.", {U}),
    ("Smoking caused lung cancer.", "Lung cancer causes smoking.", {U}),  # tenses: one verb
    ("The group owns the brand.", "The brand owns the group.", {U}),
    # reciprocal verbs are symmetric (never `unsupported`)
    ("The candidate debated the senator.", "The senator debated the candidate.", {S}),
    ("The road intersects the railway.", "The railway intersects the road.", {S}),
    # the same direction, in the passive, or stated both ways: support
    ("The mayor sued the newspaper.", "The newspaper was sued by the mayor.", {S}),
    ("Smoking causes lung cancer.", "Smoking causes lung cancer, and lung cancer causes coughing.", {S}),
    # symmetric relations say the same both ways; one-way ones contradict (roles swapped)
    ("Germany played Brazil in the final.", "Brazil played Germany in the final.", {S}),
    ("Copper displaces iron.", "Iron displaces copper.", {C}),
]

# centuries and decades: year ranges with definite ends, compared like years: two
# that share no year conflict; a year inside the range is not stated by it (the range is wider).
# They are not approximations, which never conflict (`unsupported`)
PERIODS: list[Row] = [
    ("The bridge was built in the 19th century.", "The bridge was built in the 18th century.", {C}),
    ("The band was popular in the 1990s.", "The band was popular in the 1980s.", {C}),
    ("The bridge was built in 1850.", "The bridge was built in the 18th century.", {C}),
    ("The bridge was built in 1850.", "The bridge was built in the 19th century.", {U}),
    ("The band formed in 1995.", "The band formed in the 1990s.", {U}),
    # bounds, approximations, parts and descriptions are no definite range; a year at a range's
    # edge is counted either way (never `contradicted`)
    ("The bridge was built before the 19th century.", "The bridge was built in 1750.", {U, S}),
    ("The decline began after the 1960s.", "The decline began in 1975.", {U, S}),
    ("The novel was written by a 19th-century author.", "The novel was written in 1905.", {U, S}),
    ("The bridge was built in 1800.", "The bridge was built in the 19th century.", {U}),
    # only that year: a decade's neighbours and a century's far end conflict
    ("The band formed in 1989.", "The band formed in the 1990s.", {C}),
    ("The bridge was built in 1901.", "The bridge was built in the 19th century.", {C}),
    # a period that opens the sentence is its time, not a description
    ("The bridge was built in 1975.", "The 1960s saw the bridge built.", {C}),
]

#: every table above, by the kind it tests
TABLES: dict[str, list[Row]] = {
    "wordnet_verb_antonyms": VERBS,
    "wordnet_adjective_antonyms": ADJECTIVES,
    "one_event_from_its_two_sides": TWO_SIDES,
    "wordnet_pairs_of_two_things": TWO_THINGS,
    "hand_pairs_of_stances_and_laws": HAND_PAIRS,
    "approximations_apart": APPROXIMATIONS,
    "flat_denials": FLAT_DENIALS,
    "two_measures_of_a_length": MEASURES,
    "antonyms_of_two_occasions": OCCASIONS,
    "converse_relations": CONVERSE,
    "centuries_and_decades": PERIODS,
}


@pytest.mark.parametrize(
    "row", [pytest.param(r, id=f"{kind}: {r[0]} / {r[1]}") for kind, rows in TABLES.items() for r in rows]
)
def test_kind(row: Row) -> None:
    _check(row)


def test_converse_is_a_standing_finding() -> None:
    """The learned decision overturns an `unsupported` rule verdict at a high cosine unless its
    finding stands (``claims.decision.STANDING_FINDINGS``); the converse at cosine 0.99 must stand."""
    from claims.decision import STANDING_FINDINGS

    rcs = [ReferenceClaim(0, Claim("Lung cancer causes smoking.", 0, 27))]
    j = judge([Claim("Smoking causes lung cancer.", 0, 27)], rcs, np.full((1, 1), 0.99))[0]
    assert (j.verdict, j.finding) == (U, "converse")
    assert "converse" in STANDING_FINDINGS
    assert j.reason.startswith("the reference states the converse: 'Lung cancer causes smoking'")


# a passive with an irregular participle is the same predicate as its active (WordNet 3.0's
# verb.exc, tools/build_irregular_verbs.py): the roles are compared; without those rows
# "beaten" was no form of "beat" and each swap below was `supported` at a cosine of 0.9+
IRREGULAR_PASSIVES: list[Row] = [
    ("Chelsea was beaten by Arsenal in the 2002 final.", "Chelsea beat Arsenal in the 2002 final.", {C}),
    ("Chelsea was beaten by Arsenal in the 2002 final.", "Arsenal beat Chelsea in the 2002 final.", {S}),
    ("The novel was written by Ana Ruiz in 1987.", "Ana Ruiz wrote the novel in 1987.", {S}),
]


@pytest.mark.parametrize("row", IRREGULAR_PASSIVES, ids=lambda r: r[0])
def test_a_passive_with_an_irregular_participle_keeps_its_roles(row: Row) -> None:
    _check(row)


def test_the_irregular_forms_come_from_wordnet_and_leave_out_nouns_and_verbs() -> None:
    rows = dict(line.split("\t") for line in data_lines_of("irregular_verbs.tsv"))
    assert rows["beaten"] == "beat" and rows["went"] == "go" and rows["won"] == "win"
    assert not {"left", "found", "saw", "felt", "ground"} & rows.keys()  # nouns or verbs themselves
