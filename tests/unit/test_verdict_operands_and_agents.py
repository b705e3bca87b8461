"""Two kinds of the order and opposite checks, each as a table of rows written for these tests
(no dev example; every name, formula and person is invented or textbook):

- the operands of a formula in any of its wordings (``claims.verdict.operands``): "A divided
  by B" whatever the parser makes of A, "A over B" / "A per B" stated as what the subject is,
  "the ratio of A to B", "subtract A from B" in any form of the verb, "B minus A". Swapped
  operands are contradicted, across wordings too ("time over distance" / "distance divided by
  time"); the same order in another wording is no conflict, and nor are two formulas of two
  things ("Pace is minutes per kilometre" / "Speed is kilometres per minute"); "over" and "per"
  that are no quotient ("the bridge over the river", "Kelby over Orm") state no order;
- an agent noun with an adjective against its verb with an adverb (``claims.verdict.agentive``):
  "a poor conductor" / "conducts ... well" is contradicted, "a good singer" / "sings well" is
  not; nor is a reference whose verb has another adjunct ("sings badly when she is ill") or
  whose opposite word is no adverb of the verb ("writes for old readers").

Rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide.
"""

from __future__ import annotations

import pytest

from claims.verdict.agentive import adverb_of, restatement
from claims.verdict.order import relations
from tests.unit.verdict_rows import INF, C, Row, S, U, check_row

SWAPPED_OPERANDS: list[Row] = [
    # the parser tags "mass" an adverb before "divided" after a copula
    ("Density is volume divided by mass.", "Density is mass divided by volume.", {C}),
    ("Efficiency is input over output.", "Efficiency is output over input.", {C}),
    ("Speed is time over distance.", "Speed is distance divided by time.", {C}),
    ("Density is volume per unit mass.", "Density is mass divided by volume.", {C}),
    (
        "The Kel index is the ratio of exports to imports.",
        "The Kel index is imports divided by exports.",
        {C},
    ),  # fmt: skip
    (
        "The margin is computed by subtracting revenue from cost.",
        "The margin is computed by subtracting cost from revenue.",
        {C},
    ),
    # the parser reads "cost" as a verb here
    ("The margin is cost minus revenue.", "The margin is revenue minus cost.", {C}),
    ("The margin is cost minus revenue.", "The margin is found by subtracting cost from revenue.", {C}),
]

SAME_ORDER: list[Row] = [
    ("Speed is distance over time.", "Speed is distance divided by time.", {S, INF}),
    ("Density is mass per unit volume.", "Density is mass divided by volume.", {S, INF}),
    ("The margin is revenue minus cost.", "The margin is found by subtracting cost from revenue.", {S, INF}),
    (
        "The Kel index is the ratio of exports to imports.",
        "The Kel index is exports divided by imports.",
        {S, INF},
    ),  # fmt: skip
]

AGENT_NOUNS: list[Row] = [
    ("Copper is a poor conductor.", "Copper conducts electricity well.", {C}),
    ("Copper is a good conductor of electricity.", "Copper conducts electricity poorly.", {C}),
    ("Lena Dahl is a fast runner.", "Lena Dahl runs slowly.", {C}),
    ("Tom Vik is a good singer.", "Tom Vik sings badly.", {C}),
    ("Anna Berg was a careful writer.", "Anna Berg wrote carelessly.", {C}),
    (
        "The Kessel turbine is an efficient generator of power.",
        "The Kessel turbine generates power inefficiently.",
        {C},
    ),  # fmt: skip
    # the same statement in the other wording is no conflict
    ("Tom Vik is a good singer.", "Tom Vik sings well.", {S, INF}),
    ("Copper is a poor conductor of electricity.", "Copper conducts electricity poorly.", {S, INF}),
    # a negated claim is the negation check's, never read as its restatement's opposite
    ("Copper is not a poor conductor.", "Copper conducts electricity well.", {S, INF, U}),
]


NOT_THE_SAME_FORMULA: list[Row] = [
    # two formulas of two things: the operands are compared only under one name
    ("Pace is minutes per kilometre.", "Speed is kilometres per minute.", {U, S, INF}),
    ("Density is mass per volume.", "Specific volume is volume per mass.", {U, S, INF}),
    # "divided into" puts the sides the other way round: it is no "divided by"
    ("Speed is distance over time.", "Speed is time divided into distance.", {U, S, INF}),
]

NOT_A_MANNER: list[Row] = [
    # the reference's adjective or adverb is no manner of the verb said of the same subject in general
    ("Kari Moe is a young writer.", "Kari Moe writes for old readers.", {S, INF, U}),
    ("Kari Moe is a poor farmer.", "Kari Moe farms rich soil.", {S, INF, U}),
    ("Kari Moe is a good singer.", "Kari Moe sings badly when she is ill.", {S, INF, U}),
    ("Lena Dahl is a fast runner.", "Lena Dahl runs slowly uphill.", {S, INF, U}),
    ("Kari Moe is a public speaker.", "Kari Moe speaks privately to clients.", {S, INF, U}),
]

ALL_ROWS = SWAPPED_OPERANDS + SAME_ORDER + AGENT_NOUNS + NOT_THE_SAME_FORMULA + NOT_A_MANNER


@pytest.mark.parametrize("row", ALL_ROWS, ids=lambda r: f"{r[0]} / {r[1]}")
def test_operands_and_agent_nouns(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(
    "text",
    [
        "The bridge over the river is old.",
        "The ferry sails over the fjord every day.",
        "The price per ticket is high.",
        "Tom Vik won over half of the votes.",
        "The final result was Kelby over Orm.",
    ],
)
def test_over_and_per_that_are_no_quotient_state_no_order(text: str) -> None:
    assert not [r for r in relations(text) if r.key.startswith("op:divide")]


def test_every_wording_of_division_has_one_key() -> None:
    texts = ("Speed is x divided by y.", "Speed is distance over time.", "Speed is the ratio of x to y.")
    keys = {r.key for t in texts for r in relations(t)}
    assert keys == {"op:divide:speed"}


@pytest.mark.parametrize(
    ("adjective", "adverb"),
    [("poor", "poorly"), ("good", "well"), ("fast", "fast"), ("happy", "happily"), ("simple", "simply"),
     ("basic", "basically"), ("full", "fully"), ("careful", "carefully"), ("true", "truly")],
)  # fmt: skip
def test_adverb_of_follows_the_spelling_rules(adjective: str, adverb: str) -> None:
    assert adverb_of(adjective) == adverb


def test_restatement_uses_the_references_verb_and_keeps_the_object() -> None:
    r = restatement("Glass is a poor conductor of heat at room temperature.", "Glass conducts heat well.")
    assert r is not None
    assert r.text == "Glass conducts heat poorly at room temperature."
    assert (r.said, r.adverb, r.text[r.start : r.end]) == ("poor conductor", "poorly", "poorly")


def test_no_restatement_without_the_verb_in_the_reference() -> None:
    # "Tom Vik studied hard": "student" is no agent noun in "-er"/"-or"; "teacher" has no verb here
    assert restatement("Tom Vik was a poor student.", "Tom Vik studied hard.") is None
    assert restatement("Tom Vik is a good teacher.", "Tom Vik sings well.") is None
