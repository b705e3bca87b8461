"""Given names and their nicknames, and a point year against a closed year range.

The sentences are written for this test (invented people and things, not from the dev sets).

* Nicknames (``claims.verdict.slot_names.given_names_one``): a given name and its nickname in
  ``claims/data/nicknames.tsv`` (the PyPI ``nicknames`` list) may name one person, so one
  surname under both is no rival name; two given names the name sources know as names of their
  own ("Jon" / "Jonas": "Jon" is listed as a nickname of John and Jonathan only; both are
  census first names) are two people, even where one spells the first letters of the other.
* Year ranges (``claims.verdict.value_slots.reading.year_range_and_point``): "between 1995 and
  2000", "from 1995 to 2000" and "the 1990s" are closed ranges; a point year of the same slot
  inside the range is no conflict, one outside it is.
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.facets import extract
from claims.types import Verdict
from claims.verdict.slot_names import given_names_one, other_given_name

NICKNAMES = [
    ("Bill", "William"),
    # short forms the census gives to the other sex stay (clipped, or no full name of the list)
    ("Alex", "Alexandra"),
    ("Sam", "Samantha"),
    ("Andy", "Andrea"),
    ("Bob", "Robert"),
    ("Liz", "Elizabeth"),
    ("Jim", "James"),
    ("Peggy", "Margaret"),
]
OTHER_NAMES = [
    ("Jon", "Jonas"),
    ("Dan", "Dana"),
    ("Jim", "Tim"),
    ("Maria", "Marit"),
    # the nickname list pairs these full names with their feminine forms; the census gives
    # them to different sexes: two people
    ("William", "Wilma"),
    ("Andrew", "Andrea"),
    ("Louis", "Louise"),
    ("Frederick", "Frederica"),
]


@pytest.mark.parametrize(("short", "full"), NICKNAMES)
def test_a_nickname_and_its_name_may_be_one_person(short: str, full: str) -> None:
    assert given_names_one(short, full) and given_names_one(full.upper(), short)
    assert not other_given_name(f"{short} Halvorsen", f"{full} Halvorsen")


@pytest.mark.parametrize(("a", "b"), OTHER_NAMES)
def test_known_names_of_their_own_are_two_people(a: str, b: str) -> None:
    assert not given_names_one(a, b)
    assert other_given_name(f"{a} Halvorsen", f"{b} Halvorsen")


def test_an_unknown_short_form_falls_back_to_its_first_letters() -> None:
    # neither "Sigis" nor "Sigismundo" is in the nickname list or the census first names
    assert given_names_one("Sigis", "Sigismundo")


NICKNAME_AUDITS = [
    ("Bill Halvorsen founded Kestrel Labs.", "William Halvorsen founded Kestrel Labs."),
    ("Liz Brekke chaired the jury in 2004.", "Elizabeth Brekke chaired the jury in 2004."),
    ("Jim Sandvik coached the club.", "James Sandvik coached the club."),
    ("Robert Aasen wrote the score.", "Bob Aasen wrote the score."),
]
OTHER_PERSON_AUDITS = [
    ("Jon Halvorsen wrote the report.", "Jonas Halvorsen wrote the report."),
    ("Dan Brekke chaired the jury.", "Dana Brekke chaired the jury."),
    ("William Hart built the kiln.", "Wilma Hart built the kiln."),
]


@pytest.mark.parametrize(("claim", "reference"), NICKNAME_AUDITS)
def test_a_nickname_is_not_contradicted(claim: str, reference: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict is not Verdict.CONTRADICTED, j.reason


@pytest.mark.parametrize(("claim", "reference"), OTHER_PERSON_AUDITS)
def test_another_given_name_is_not_supported(claim: str, reference: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict is not Verdict.SUPPORTED, j.reason


def test_between_two_years_is_one_range() -> None:
    (q,) = [q for q in extract("The dam was built between 1995 and 2000.").quantities if q.slot == "year"]
    assert (q.lo, q.hi) == (1995.0, 2000.0)
    # "and" without "between" joins two years, not a range
    assert (
        len([q for q in extract("The dam was built in 1995 and 2000.").quantities if q.slot == "year"]) == 2
    )


INSIDE = [
    ("The Orrefoss dam was built between 1995 and 2000.", "The Orrefoss dam was built in May 1998."),
    ("The Orrefoss dam was built from 1995 to 2000.", "The Orrefoss dam was built in 1997."),
    ("The Orrefoss dam was built in the 1990s.", "The Orrefoss dam was built in 1993."),
    ("The Orrefoss dam was built between 1985 and 1990.", "The Orrefoss dam was built in 1990."),
    # a decade after a bound's word is a bound, not a closed range: 1975 is after the 1960s
    ("The Orrefoss dam was built after the 1960s.", "The Orrefoss dam was built in 1975."),
]
OUTSIDE = [
    ("The Orrefoss dam was built between 1995 and 2000.", "The Orrefoss dam was built in 2004."),
    ("The Orrefoss dam was built from 1995 to 2000.", "The Orrefoss dam was built in March 1991."),
    ("The Orrefoss dam was built in the 1990s.", "The Orrefoss dam was built in 2006."),
]


@pytest.mark.parametrize(("claim", "reference"), INSIDE)
def test_a_point_inside_the_range_is_no_conflict(claim: str, reference: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict is not Verdict.CONTRADICTED, j.reason


@pytest.mark.parametrize(("claim", "reference"), OUTSIDE)
def test_a_point_outside_the_range_conflicts(claim: str, reference: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict is Verdict.CONTRADICTED, j.reason


def test_the_same_range_stays_supported() -> None:
    claim = "The Orrefoss dam was built between 1995 and 2000 by Vassdrag AS."
    (j,) = audit_texts(claim, ["Vassdrag AS built the Orrefoss dam between 1995 and 2000."]).judgements
    assert j.verdict is Verdict.SUPPORTED, j.reason
