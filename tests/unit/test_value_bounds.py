"""Bounds, relative years, three-digit years and given names against the reference's values,
over the hand-made pairs of ``tests/data/value_bounds.jsonl``.

Provenance: every pair was written for this test (invented places and people), none is taken
from the dev sets or the shared cases. Each row's ``expected`` verdicts follow from the rule in
its ``why``:

* ``bound_point``: a point of the slot inside a bound states it, one outside conflicts
  (``claims.verdict.time_bounds``, ``quantity_checks._check_bound``); a point inside a bound
  of the reference is not stated by it; a year alone cannot place a month bound.
* ``negated_bound``: "no earlier than", "no sooner than", "not before", "not ... until" are
  bounds (that year or later), never a denial (``claims.facets.polarity.negation_of``).
* ``relative_year``: a year told relative to another event ("four years after work began",
  "the following year") is no point of the year slot, so the text's absolute years (the
  other event's) never conflict, and an absolute year does not state a relative one.
* ``three_digit_year`` / ``not_a_year``: "in 854", "AD 800", "480 BC" are years
  (``claims.facets.dates.is_year``); "numbered 1400", "a population of 1200" are counts.
* ``given_name``: one surname with two given names is two people ("Ingrid Dahl" / "Sigrid
  Dahl": not supported); the surname alone, the given name alone, an initial or the full name
  of the same person agree (``claims.verdict.slot_names.other_given_name``).

The rows use the cosine ``HIGH`` (tests/unit/verdict_rows.py) so that only the checks decide.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims.facets import extract
from claims.facets.dates import time_bound
from claims.types import Verdict
from claims.verdict.slot_names import other_given_name
from claims.verdict.time_bounds import relation
from tests.unit.verdict_rows import judge_claim

ROWS = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data/value_bounds.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]


#: kinds the engine misses today, kept as strict expected failures
KNOWN_MISSES: set[str] = set()
PARAMS = [
    pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=r["why"])) if r["kind"] in KNOWN_MISSES else r
    for r in ROWS
]


@pytest.mark.parametrize(
    "row", PARAMS, ids=[f"{r['kind']}: {r['response']} / {r['reference']}" for r in ROWS]
)
def test_value_bound_rows(row: dict) -> None:
    got, reason = judge_claim(row["response"], [row["reference"]])
    allowed = {Verdict(v) for v in row["expected"]}
    assert got in allowed, (
        f"{row['response']!r} vs {row['reference']!r} -> {got.value} ({reason}); {row['why']}"
    )
    if row["kind"] == "not_a_year":
        assert not reason.startswith("year"), reason


def test_every_kind_has_a_conflict_and_an_agreement() -> None:
    """Each kind mixes rows that must conflict with rows that must not (a test that can fail
    both ways)."""
    for kind in {r["kind"] for r in ROWS} - {"relative_year", "not_a_year"} - KNOWN_MISSES:
        expected = [set(r["expected"]) for r in ROWS if r["kind"] == kind]
        assert any(e == {"contradicted"} or "contradicted" in e for e in expected), kind
        assert any("contradicted" not in e for e in expected), kind


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        # the kinds follow the meaning of the words (``Quantity.bound``): before = earlier only,
        # by / no later than = that one or earlier, no earlier than / not until = that one or later
        ("The mill closed before 1921.", "1921", "below"),
        ("The mill closed after 1921.", "1921", "above"),
        ("The mill had closed by 1921.", "1921", "upto"),
        ("The mill closed no later than March 1921.", "March", "upto"),
        ("The mill closed no earlier than 1921.", "1921", "atleast"),
        ("The mill closed not before 1921.", "1921", "atleast"),
        ("The mill didn't close until 1921.", "1921", "atleast"),
        ("The mill closed in 1921.", "1921", ""),
        ("The mill was open since 1921.", "1921", ""),
        ("The mill was open until 1921.", "1921", ""),
    ],
)
def test_time_bound_kinds(text: str, value: str, kind: str) -> None:
    assert time_bound(text, text.index(value))[0] == kind


def test_bound_relation_at_the_bound_precision() -> None:
    # a month bound by year and month: "no later than May 2003" holds for March 2003, not for
    # September 2003; the year 2003 alone cannot tell
    assert relation("upto", (2003, 5), (2003, 3)) == "inside"
    assert relation("upto", (2003, 5), (2003, 9)) == "outside"
    assert relation("upto", (2003, 5), (2003,)) is None
    # a range across the bound is neither ("before 1950" / "1948-1952")
    assert relation("below", (1950,), (1948,), (1952,)) is None


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("The abbey burned in 793.", 793.0),
        ("The abbey burned in AD 793.", 793.0),
        ("The abbey burned in 793 AD.", 793.0),
        ("The treaty dates from 221 BC.", -221.0),
        ("The abbey burned in 1093.", 1093.0),
    ],
)
def test_years_of_three_and_four_digits(text: str, year: float) -> None:
    years = [q.value for q in extract(text).quantities if q.slot == "year"]
    assert years == [year]


@pytest.mark.parametrize(
    "text",
    [
        "The garrison numbered 1400.",
        "The village had a population of 1200.",
        "Attendance was limited to 1800.",
        "The abbey lies in 300 acres of forest.",
        "Sales rose by 300.",
        "He scored in 700 games.",
    ],
)
def test_counts_are_no_years(text: str) -> None:
    assert not [q for q in extract(text).quantities if q.slot == "year"]


def test_other_given_name() -> None:
    assert other_given_name("Ingrid Dahl", "Sigrid Dahl")
    assert not other_given_name("Dahl", "Ingrid Dahl")
    assert not other_given_name("Ingrid", "Ingrid Dahl")
    assert not other_given_name("I. Dahl", "Ingrid Dahl")
    assert not other_given_name("Ingrid Dahl", "Ingrid M. Dahl")
    assert not other_given_name("Ingrid Dahl", "Ingrid Moe")  # another surname: not this rule's
    # designators, acronyms and capitals are no given names ("FA Cup" / "League Cup")
    assert not other_given_name("FA Cup", "Football League Cup")
    assert not other_given_name("Georg Parrot", "Send PARROT")
