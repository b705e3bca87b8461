"""A point year of the claim's slot beside a bound the parse hangs on the same word ("returned
to Oslo in 2014, after serving ... since 2006"): the bound is no statement of the point's slot,
so the point decides (``claims.verdict.value_slots.reading.decide``). Sentences written for
these tests; each expected value is the point year the reference states in the claim's slot."""

from __future__ import annotations

import pytest

from tests.unit.verdict_rows import slot_pair

_RETURN = "She returned to the Halden Museum in 2014, after working as a curator in Bergen since 2006."


@pytest.mark.parametrize(
    ("claim", "evidence", "want"),
    [
        ("In 2011 she returned to the Halden Museum.", _RETURN, ("2011", "2014")),
        ("She returned to the Halden Museum in 2009.", _RETURN, ("2009", "2014")),
        # the bound is another predicate's ("working ... since 2006"): no statement of the return
        ("In 2006 she returned to the Halden Museum.", _RETURN, ("2006", "2014")),
    ],
)
def test_the_point_beside_a_bound_conflicts(claim: str, evidence: str, want: tuple[str, str]) -> None:
    assert slot_pair(claim, evidence) == want


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the point itself
        ("In 2014 she returned to the Halden Museum.", _RETURN),
        # the claim's own bound against a point
        ("She has worked at the Halden Museum since 2012.", "She returned to the Halden Museum in 2014."),
        # two points of the slot: two returns
        (
            "She returned to the Halden Museum in 2011.",
            "She returned to the Halden Museum in 2009 and again in 2014, after working in Bergen "
            "since 2006.",
        ),
        # a range of the slot holding the claim's year
        (
            "She returned to the Halden Museum in 2011.",
            "She returned to the Halden Museum between 2010 and 2012, after working in Bergen since 2006.",
        ),
    ],
)
def test_noslot_pair(claim: str, evidence: str) -> None:
    assert slot_pair(claim, evidence) is None
