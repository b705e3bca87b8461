"""Kinds of the order and scope checks (``claims.verdict.order``, ``claims.verdict.degree``), each
as a table of rows written for these tests (no dev example):

- a path whose "from" hangs on the verb's object in one text and on the verb in the other
  ("moved its headquarters from Munich to Berlin") is one path of the verb: reversed, it is
  contradicted;
- a round trip ("from A to B and back") holds both directions: its legs are no reversal;
- a single end of a path ("moved to Lyon") against the other end of the same verb's path
  ("moved from Lyon") is contradicted; the same end, or another subject, is not;
- numbers are operands ("4 divided by 12" / "12 divided by 4");
- a quantified subject read on the square of opposition: "No X" against "Some X ... not" is not
  entailed (unsupported), "No X" / "Some X", "All X" / "Some X ... not", "All X" / "Not all X"
  exclude each other (contradicted).

Rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide.
"""

from __future__ import annotations

import pytest

from claims.verdict.degree import scope_forms
from claims.verdict.order import endpoint_conflict, relations
from tests.unit.verdict_rows import C, Row, S, U, check_row

PATHS: list[Row] = [
    # "from" under the object in one parse, under the verb in the other
    (
        "The company moved its headquarters from Munich to Berlin.",
        "The company moved its headquarters from Berlin to Munich in 2015.",
        {C},
    ),
    (
        "The studio moved its archive from Leeds to York.",
        "The studio moved its archive from York to Leeds in 1998.",
        {C},
    ),
    (
        "The company moved its headquarters from Berlin to Munich.",
        "The company moved its headquarters from Berlin to Munich in 2015.",
        {S},
    ),
]

ROUND_TRIPS: list[Row] = [
    ("She flew from Rome to Paris.", "She flew from Paris to Rome and back.", {S, U}),
    ("The ferry sailed from Kiel to Oslo.", "The ferry sailed from Oslo to Kiel and back in June.", {S, U}),
    ("He drove from Bonn to Cologne and back.", "He drove from Bonn to Cologne and back.", {S}),
]

ENDPOINTS: list[Row] = [
    ("The firm moved to Lyon.", "The firm moved from Lyon in 2010.", {C}),
    ("The firm moved from Lyon.", "The firm moved to Lyon in 2010.", {C}),
    ("The bank moved its office to Porto.", "The bank moved its office from Porto to Braga.", {C}),
    ("The firm moved to Lyon.", "The firm moved to Lyon in 2010.", {S}),
    ("The firm moved to Lyon.", "The firm moved from Paris to Lyon in 2010.", {S}),
]

OPERANDS: list[Row] = [
    ("The result is 4 divided by 12.", "The result is 12 divided by 4.", {C}),
    ("The result is 12 divided by 4.", "The result is 12 divided by 4.", {S}),
]

SCOPES: list[Row] = [
    ("No birds can fly.", "Some birds cannot fly.", {U}),
    ("No birds can fly.", "Some birds can fly.", {C}),
    ("All birds can fly.", "Some birds cannot fly.", {C}),
    ("All birds can fly.", "Not all birds can fly.", {C}),
    ("Some birds can fly.", "All birds can fly.", {S}),
    ("None of the students passed the exam.", "Some students passed the exam.", {C}),
    ("No students passed the exam.", "None of the students passed the exam.", {S}),
]


@pytest.mark.parametrize(
    "row", PATHS + ROUND_TRIPS + ENDPOINTS + OPERANDS + SCOPES, ids=lambda r: f"{r[0]} / {r[1]}"
)
def test_paths_operands_and_scope(row: Row) -> None:
    check_row(row)


def test_endpoint_needs_the_same_verb_and_subject() -> None:
    # another verb, another subject: no end of the same path
    assert endpoint_conflict("The firm moved to Lyon.", "The firm hired staff from Lyon.") is None
    assert endpoint_conflict("The firm moved to Lyon.", "Its rival moved from Lyon.") is None
    found = endpoint_conflict("The firm moved to Lyon.", "The firm moved from Lyon.")
    assert found is not None and (found[0].side, found[1].side) == ("to", "from")


def test_round_trip_holds_both_orders() -> None:
    pairs = {(r.first, r.second) for r in relations("She flew from Paris to Rome and back.")}
    assert {("pari", "rome"), ("rome", "pari")} <= pairs
    one_way = {(r.first, r.second) for r in relations("She flew from Paris to Rome.")}
    assert one_way == {("pari", "rome")}


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("All birds can fly.", "A"),
        ("No birds can fly.", "E"),
        ("Some birds can fly.", "I"),
        ("Some birds cannot fly.", "O"),
        ("Not all birds can fly.", "O"),
    ],
)
def test_scope_forms(text: str, form: str) -> None:
    assert [f for f, _ in scope_forms(text)] == [form]
