"""A pro-form coordinated with a noun ("a bad season in 2011 and a good one in 2012") is read as
that noun (``claims.verdict.value_slots.reading.slot_of``): its value is a second statement of the
noun's slot, so a claim that gives that value ("a good season in 2012") is no conflict. Without it the pro-form's value had
no slot of the noun and the noun's first value was read as the only one ("year 2012 ≠ 2011").
Sentences written for these tests; each expected pair is (the claim's value, the value the
reference states first for the noun)."""

from __future__ import annotations

import pytest

from claims.verdict.value_slots.reading import slot_of
from tests.unit.verdict_rows import slot_pair

_SEASONS = "The Kesh club had a bad season in 2011 and a good one in 2012."
_BRIDGES = "The Orm firm built a large bridge in 1985 and a small one in 1990."
_CARS = "Ida Marr bought a blue car in 1998 and red ones in 2001 and 2004."


def test_a_pro_form_fills_its_nouns_slot() -> None:
    at = _SEASONS.index("2012")
    assert slot_of(_SEASONS, at, at + 4) == slot_of(
        _SEASONS, _SEASONS.index("2011"), _SEASONS.index("2011") + 4
    )


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The Kesh club had a good season in 2012.", _SEASONS),
        ("The Orm firm built a small bridge in 1990.", _BRIDGES),
        ("Ida Marr bought a red car in 2001.", _CARS),
        ("Ida Marr bought a red car in 2004.", _CARS),
    ],
)
def test_a_value_of_the_pro_form_is_no_conflict(claim: str, evidence: str) -> None:
    assert slot_pair(claim, evidence) is None


def test_a_one_that_is_no_pro_form_keeps_its_slot() -> None:
    """ "one" counting ("one of its best seasons") is no pro-form of a coordinated noun."""
    text = "The Kesh club had a bad season in 2011 and won one of its cups in 2012."
    at = text.index("2012")
    assert slot_of(text, at, at + 4) != slot_of(text, text.index("2011"), text.index("2011") + 4)
