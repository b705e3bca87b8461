"""Years and months against ranges and bounds of the same event, and datelines.

The sentences are written for this test (invented places and things, not from the dev sets or
the contrast suite).

* A point year against a closed year range of the reference ("between 1901 and 1905", "from
  1901 to 1905", "1901–1905"; ``claims.verdict.value_slots.reading.year_range_and_point``): inside
  is no conflict, outside conflicts, in the same slot only (another event stays unsupported), and
  only where the range is the one value of its slot in the reference claim (two ranges of the
  slot conflict with nothing; a year of another event beside the range leaves it the one value).
* Month ranges ("from March to June 2004", "March–June 2004", "between March and June 2004";
  ``claims.verdict.time_bounds.month_range``): a month inside is no conflict, a month outside
  conflicts.
* Bounds against points (``claims.verdict.time_bounds``): "before 1998" / "on 12 May 1998"
  conflicts; "after 1995" / "in 1998" and "no earlier than 1998" / "in 1998" do not.
* Datelines (``claims.verdict.values.is_dateline``): a date with a finite verb is no dateline,
  nor is a citation's access date ("Retrieved 23 October 2009."), which dates no inference.
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.facets import extract
from claims.types import Verdict
from claims.verdict.time_bounds import month_range
from claims.verdict.values import is_dateline

OUTSIDE = [
    ("The Hallsberg bridge was built in 1890.", "The Hallsberg bridge was built between 1901 and 1905."),
    ("The Hallsberg bridge was built in 1890.", "The Hallsberg bridge was built from 1901 to 1905."),
    ("The Hallsberg bridge was built in 1890.", "The Hallsberg bridge was built 1901–1905."),
    ("The Vestre mill was restored in 2011.", "The Vestre mill was restored between 1996 and 1999."),
    (
        "The Lunde museum was renovated in August 2004.",
        "The Lunde museum was renovated from March to June 2004.",
    ),
    ("The Lunde museum was renovated in August 2004.", "The Lunde museum was renovated March–June 2004."),
    (
        "The Lunde museum was renovated in January 2004.",
        "The Lunde museum was renovated between March and June 2004.",
    ),
    ("The Brekke station opened before 1998.", "The Brekke station opened on 12 May 1998."),
    # a year of another event beside the range leaves the range the one value of its slot
    (
        "The Hallsberg tower was raised in 1790.",
        "The Hallsberg tower was raised between 1801 and 1806, after a fire in 1790.",
    ),
]
NO_CONFLICT = [
    ("The Hallsberg bridge was built in 1903.", "The Hallsberg bridge was built between 1901 and 1905."),
    ("The Hallsberg bridge was built in 1905.", "The Hallsberg bridge was built 1901–1905."),
    # two ranges of the slot, or a range and a year of another event: the range is not the
    # slot's one value (``lone_range``), so no year conflicts with it alone
    (
        "The Hallsberg ferry ran in 1999.",
        "The Hallsberg ferry ran from 1990 to 1994 and from 1998 to 2002.",
    ),
    (
        "The Hallsberg ferry ran in 2000.",
        "The Hallsberg ferry ran to Oslo from 1995 to 1998 and to Kiel from 1999 to 2001.",
    ),
    # another event in the range: no slot of the claim
    (
        "The Hallsberg bridge was built in 1890.",
        "The Hallsberg chapel was consecrated between 1901 and 1905.",
    ),
    (
        "The Lunde museum was renovated in May 2004.",
        "The Lunde museum was renovated from March to June 2004.",
    ),
    ("The Lunde museum was renovated in April 2004.", "The Lunde museum was renovated March–June 2004."),
    (
        "The Lunde museum was renovated in June 2004.",
        "The Lunde museum was renovated between March and June 2004.",
    ),
    (
        "The Lunde museum was renovated from March to June 2004.",
        "The Lunde museum was renovated in April 2004.",
    ),
    ("The Brekke station opened after 1995.", "The Brekke station opened in 1998."),
    ("The Brekke station opened no earlier than 1998.", "The Brekke station opened in 1998."),
]


@pytest.mark.parametrize(("claim", "reference"), OUTSIDE)
def test_a_point_outside_the_range_or_bound_conflicts(claim: str, reference: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict is Verdict.CONTRADICTED, j.reason


@pytest.mark.parametrize(("claim", "reference"), NO_CONFLICT)
def test_a_point_inside_or_another_event_is_no_conflict(claim: str, reference: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict is not Verdict.CONTRADICTED, j.reason


def test_the_same_month_range_is_supported() -> None:
    claim = "The Lunde museum was renovated from March to June 2004."
    (j,) = audit_texts(claim, ["The Lunde museum was renovated between March and June 2004."]).judgements
    assert j.verdict is Verdict.SUPPORTED, j.reason


RANGES = [
    ("renovated from March to June 2004", (2004, 3), (2004, 6)),
    ("renovated March–June 2004", (2004, 3), (2004, 6)),
    ("renovated between March and June 2004", (2004, 3), (2004, 6)),
    ("renovated from November 2003 to February 2004", (2003, 11), (2004, 2)),
    ("renovated in March and June 2004", None, None),  # two months, no range
    ("renovated from June to March 2004", None, None),  # backwards: no range
]


@pytest.mark.parametrize(("text", "first", "last"), RANGES)
def test_month_ranges(text: str, first: tuple[int, int] | None, last: tuple[int, int] | None) -> None:
    f = extract(text)
    found = [r for d in f.dates if (r := month_range(text, d)) is not None]
    assert [(r.parts, r.last) for r in found] == ([(first, last)] if first else [])


DATELINES = [
    ("May 20, 2019", True),
    ("Updated: Friday 23 March 2018 10:15 AM", True),
    ("Posted on March 3, 2018", True),
    ("Tuesday, 4 May 2021", True),
    ("He was released in April 2010.", False),
    ("It rained in April 2010.", False),
    ("She resigned in March 2015.", False),
    # a citation's access date dates a visit to a page, not the report
    ("Retrieved 23 October 2009.", False),
    ("Viewed 5 May 2020.", False),
]


@pytest.mark.parametrize(("text", "dateline"), DATELINES)
def test_a_dateline_has_no_finite_verb(text: str, dateline: bool) -> None:
    assert is_dateline(text) is dateline


@pytest.mark.parametrize(
    ("dateline", "verdicts"),
    [
        ("23 October 2009", {Verdict.INFERRED}),  # a dateline dates the report's event
        ("Retrieved 23 October 2009.", {Verdict.UNSUPPORTED}),  # an access date dates nothing
    ],
)
def test_an_access_date_gives_no_year_to_an_inference(dateline: str, verdicts: set[Verdict]) -> None:
    claim = "The Orm Otters won the Kelby Cup in 2009."
    headline = "The Orm Otters savour their Kelby Cup win as the club ends its drought."
    (j,) = audit_texts(claim, [dateline, headline]).judgements
    assert j.verdict in verdicts, j.reason


def test_a_sentence_with_a_date_conflicts_as_an_event() -> None:
    (j,) = audit_texts("He was released in May 2010.", ["He was released in April 2010."]).judgements
    assert j.verdict is Verdict.CONTRADICTED, j.reason


@pytest.mark.xfail(
    strict=True,
    reason="the claim's 'surveyed' is aligned with the reference's 'built' slot, whose range is "
    "that slot's one value; the survey's own year beside it is another slot (a known miss: slot "
    "alignment across a verb and its noun)",
)
def test_a_year_the_reference_gives_another_predicate_of_is_no_conflict() -> None:
    (j,) = audit_texts(
        "The Hallsberg tower was surveyed in 1890.",
        ["The Hallsberg tower was built between 1901 and 1905, after a survey carried out in 1890."],
    ).judgements
    assert j.verdict is not Verdict.CONTRADICTED, j.reason
