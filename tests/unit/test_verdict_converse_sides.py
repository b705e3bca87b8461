"""Kinds of the order check (``claims.verdict.order``, ``claims.verdict.contradictions``,
``claims.verdict.counterparts``), each as a table of rows written for these tests (no dev
example, none of the contrast suite's):

- a converse word with the two sides exchanged is one relation told from its other side and
  agrees ("A lies east of B" / "B lies west of A", "A is above B" / "B is below A", "A came
  after B" / "B came before A"); the same converse word with the sides kept, or the other word
  with the sides kept, conflicts;
- a denied comparison holds the affirmed one the other way round: "A is no wider than B" and "A
  is not as long as B" agree with "B is wider / longer than A" and conflict with "A is wider /
  longer than A";
- an opposite of the claim's word that a reference claim states alike of the same subject
  (``claims.verdict.alike.stated_alike``, ``said_of_subject``) is a conflict;
- an amount compared with "than" ("more nurses than") agrees with "fewer"/"less" of the same
  noun and verb with the sides exchanged;
- invariance: the same relation in the same words, and a negated claim whose comparison is not
  read, keep their verdicts.

Rule rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide; the relation rows read the parse alone.
"""

from __future__ import annotations

import pytest

from claims.verdict.order import order_conflict, relations, told_conversely
from tests.unit.verdict_rows import INF, C, Q, Row, S, U, check_row

AGREE = {S, INF}

CONVERSE_SIDES: list[Row] = [
    ("Lyon lies east of Bordeaux.", "Bordeaux lies west of Lyon.", AGREE),
    ("The attic is above the kitchen.", "The kitchen is below the attic.", AGREE),
    ("The concert came after the dinner.", "The dinner came before the concert.", AGREE),
    ("Bordeaux lies east of Lyon.", "Bordeaux lies west of Lyon.", {C}),
    ("The concert came before the dinner.", "The concert came after the dinner.", {C}),
    # invariance: the same relation in the same words
    ("Lyon lies east of Bordeaux.", "Lyon lies east of Bordeaux.", {S}),
]

DENIED_COMPARISONS: list[Row] = [
    ("The Elbe is not as long as the Danube.", "The Danube is longer than the Elbe.", AGREE),
    ("The Rhine is no wider than the Volga.", "The Volga is wider than the Rhine.", AGREE),
    ("The Elbe is no longer than the Danube.", "The Elbe is longer than the Danube.", {C}),
    ("The Elbe is not as long as the Danube.", "The Elbe is longer than the Danube.", {C}),
    # the sides exchanged without a denial is still a swap
    ("The Elbe is longer than the Danube.", "The Danube is longer than the Elbe.", {C}),
    # a denial of another kind than a comparison keeps its flip
    ("The ratio of boys to girls is not 4 to 3.", "The ratio of boys to girls is 4 to 3.", {C}),
]

#: an amount compared ("more nurses than") told from its other side ("fewer", "less"), with the
#: noun and the verb of the relation kept
AMOUNT_COMPARISONS: list[Row] = [
    ("Quenby employs more nurses than Mirth.", "Mirth employs fewer nurses than Quenby.", AGREE),
    ("Quenby has more parks than Mirth.", "Mirth has less parks than Quenby.", AGREE),
    # the sides exchanged with the same word, or the word turned with the sides kept: a conflict
    ("Quenby employs more nurses than Mirth.", "Mirth employs more nurses than Quenby.", {C}),
    ("Quenby employs more nurses than Mirth.", "Quenby employs fewer nurses than Mirth.", {C}),
    # not read as a relation (the other checks decide): an amount with a number, a denied or a
    # hedged amount ("no fewer", "hardly", "may")
    ("Quenby employs 40 more nurses than Mirth.", "Mirth employs 25 fewer nurses than Quenby.", {C}),
    ("Quenby employs more nurses than Mirth.", "Mirth does not employ fewer nurses than Quenby.", {C, U}),
    ("Quenby employs more nurses than Mirth.", "Mirth employs no fewer nurses than Quenby.", {C, U}),
    # the same way round, "no more" / "no fewer" deny the claim
    ("Quenby employs more nurses than Mirth.", "Quenby employs no more nurses than Mirth.", {C}),
    ("Mirth employs fewer nurses than Quenby.", "Mirth employs no fewer nurses than Quenby.", {C}),
    ("Quenby employs more nurses than Mirth.", "Mirth hardly employs fewer nurses than Quenby.", {C, U}),
    ("Quenby employs more nurses than Mirth.", "Mirth may employ fewer nurses than Quenby.", {C, U, Q}),
    # names that are not the comparison's sides still conflict
    (
        "For Arden, Hale scored more goals than Vance, while Brisk signed Orla.",
        "For Brisk, Vance scored fewer goals than Hale, while Arden signed Orla.",
        {C, U},
    ),
]

OPPOSITE_OF_SUBJECT: list[Row] = [
    ("The river flows slowly past the town.", "The river flows rapidly through the town.", {C}),
    ("The engine runs quietly at low speed.", "The engine runs loudly, especially at low speed.", {C}),
    # a time limit the claim lacks may be another occasion: not read as a conflict
    ("The board approved the plan unanimously.", "The board rejected the plan after a vote.", {U, C}),
]


@pytest.mark.parametrize(
    "row",
    CONVERSE_SIDES + DENIED_COMPARISONS + AMOUNT_COMPARISONS + OPPOSITE_OF_SUBJECT,
    ids=lambda r: f"{r[0]} / {r[1]}",
)
def test_converse_sides_and_denied_comparisons(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(
    ("claim", "reference", "conversely"),
    [
        ("Lyon lies east of Bordeaux.", "Bordeaux lies west of Lyon.", True),
        ("Lyon lies east of Bordeaux.", "Lyon lies east of Bordeaux.", False),
        ("Quenby employs more nurses than Mirth.", "Mirth employs fewer nurses than Quenby.", True),
        # another noun is another relation
        ("Quenby employs more nurses than Mirth.", "Mirth employs fewer doctors than Quenby.", False),
        ("The Rhine is no wider than the Volga.", "The Volga is wider than the Rhine.", True),
        ("The Rhine is not as wide as the Volga.", "The Volga is wider than the Rhine.", True),
        ("The Rhine is narrower than the Volga.", "The Volga is wider than the Rhine.", True),
        ("The Rhine is wider than the Volga.", "The Volga is wider than the Rhine.", False),
    ],
)
def test_told_conversely(claim: str, reference: str, conversely: bool) -> None:
    assert told_conversely(claim, reference) is conversely


def test_affirmed_as_wide_as_states_no_order() -> None:
    """Equality ("as wide as") orders nothing; its denial orders the sides the other way round."""
    assert relations("The Rhine is as wide as the Volga.") == []
    (denied,) = relations("The Rhine is not as wide as the Volga.")
    # the key names the pair's first word first: read as "the Rhine is narrower than the Volga"
    assert (denied.key, denied.first, denied.second) == ("cmp:narrower|wider", "rhine", "volga")
    assert order_conflict("The Rhine is no wider than the Volga.", "The Rhine is wider than the Volga.")
