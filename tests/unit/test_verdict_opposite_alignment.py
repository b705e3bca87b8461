"""Kinds of the opposite gap (``claims.verdict.counterparts._opposite_gap`` through ``judge``):
a claim's word that the reference claim it leans on does not state, while that claim states an
opposite of it, is not supported. Every row is written for this test (no dev example); the
expected verdicts come from the lexicon (``claims/data/lexicon.tsv``: which words are
opposites) and from what the reference says:

- the reference claim states a degree of the opposite ("the deepest lake" for "shallow"): the
  claim's word is not stated, its other pole is, of the same subject -> not supported;
- the reference claim that supports the rest of the claim states an opposite from WordNet's
  similar-to pairs ("optimal" / "worst"), looser than a direct antonym, and never the
  claim's word -> not supported (elsewhere such pairs do not count: too loose);
- a reference claim says the opposite of the claim's subject ("The brightest pulsar") while
  another supports the rest -> not supported;
- the claim's own word stated, the opposite said of another subject -> supported;
- invariance: a comparison told from its other side with the converse ("shallower than" /
  "deeper than", sides swapped) and a negated complementary opposite ("not closed" / "open")
  keep their support.

Rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide.
"""

from __future__ import annotations

import pytest

from claims.verdict.alike import is_form_of, said_of_subject
from tests.unit.verdict_rows import C, Row, S, U, check_row

#: the reference states the opposite (or a degree of it) and not the claim's word: not supported
GAPS: list[Row] = [
    # "shallow" / "deep" (hand pair); "deepest" is the superlative of the opposite; the rule
    # engine read "Lake Orsa is ... lake" as support of "Lake Orsa is shallow"
    ("Lake Orsa is shallow.", "Lake Orsa is the deepest lake in the county.", {U, C}),
    # "worst" / "optimal" (WordNet similar-to): the supporting claim says "an optimal route",
    # an attributive adjective, so the counterpart is not stated alike (no contradiction)
    (
        "The solver returns the worst route through the network.",
        "The solver returns an optimal route through the network.",
        {U, C},
    ),
    # "dullest" / "brightest" (WordNet pair, superlatives): the claim's subject is supported by
    # one claim; another says "brightest" of the same noun ("The brightest pulsar")
    (
        "Pulsars are among the dullest sources in the galaxy.",
        [
            "Pulsars are rotating neutron stars in the galaxy.",
            "The brightest pulsar in the sky is the Crab pulsar.",
        ],
        {U, C},
    ),
]

#: the evidence also states the claim's word, or tells the claim from its other side: supported
KEPT: list[Row] = [
    # the claim's word "rose" is stated; "fell" is said of another subject
    (
        "Prices of wool rose in 1851.",
        ["Prices of wool rose in 1851.", "Prices of grain fell in 1851."],
        {S},
    ),
    # "shallower" / "deeper" are converse comparatives (hand rows): the same relation
    ("Lake Orsa is shallower than Lake Siljan.", "Lake Siljan is deeper than Lake Orsa.", {S}),
    # "closed" / "open" are complementary: "not closed" states "open"
    ("The Orsa ferry is not closed in winter.", "The Orsa ferry is open in winter.", {S}),
]


@pytest.mark.parametrize("row", GAPS + KEPT, ids=lambda r: f"{r[0]} / {r[1]}")
def test_opposite_gap_kinds(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(
    ("token", "word", "want"),
    [
        ("deepest", "deep", True),  # superlative
        ("larger", "large", True),  # -e dropped
        ("bigger", "big", True),  # consonant doubled
        ("happiest", "happy", True),  # -y to -i
        ("deeply", "deep", True),  # derived adverb: the same stem (``stem_of``)
        ("shallower", "deep", False),  # another word
        ("older", "young", False),
    ],
)
def test_is_form_of_degrees(token: str, word: str, want: bool) -> None:
    # the regular degrees of English adjectives (spelling rules of -er / -est)
    assert is_form_of(token, word) is want


def test_said_of_subject() -> None:
    # "brightest" modifies the claim's subject "quasar" in the reference
    assert said_of_subject("Quasars are dim objects.", "The brightest quasar is 3C 273.", "bright")
    # said of another noun: no
    assert not said_of_subject("Quasars are dim objects.", "The brightest star is Sirius.", "bright")
