"""A count or rate whose claim gives a year in another clause ("In May 2012, she was the only
board member who voted against raising the fee by 19%"): that year dates the other clause, not
the count, so a reference that states the count without a year is compared
(``claims.verdict.value_slots.align``); a year of the count's own clause ("the club won four
titles in 2005") still asks the reference for that year.
Sentences written for these tests; each expected value is the one the reference states."""

from __future__ import annotations

import pytest

from tests.unit.verdict_rows import slot_pair

_FEE = "The board of the Tinden Harbour Authority raised the mooring fee of the harbour by 12 percent."


@pytest.mark.parametrize(
    ("claim", "evidence", "want"),
    [
        (
            "In May 2012, she was the only member of the Tinden Harbour Authority who voted against "
            "raising the mooring fee of the harbour by 19%.",
            _FEE,
            ("19%", "12 percent"),
        ),
        (
            "She was the only member of the Tinden Harbour Authority who voted against raising the "
            "mooring fee of the harbour by 19%.",
            _FEE,
            ("19%", "12 percent"),
        ),
    ],
)
def test_a_count_dated_in_another_clause_conflicts(claim: str, evidence: str, want: tuple[str, str]) -> None:
    assert slot_pair(claim, evidence) == want


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the same rate in other words
        (
            "In May 2012, she was the only member of the Tinden Harbour Authority who voted against "
            "raising the mooring fee of the harbour by 12%.",
            _FEE,
        ),
        # a year in the count's own clause: another period
        (
            "The Tinden Harbour Authority raised the mooring fee of the harbour by 19% in 2012.",
            _FEE,
        ),
        # an approximation that may round the stated rate
        (
            "In May 2012, she was the only member of the Tinden Harbour Authority who voted against "
            "raising the mooring fee of the harbour by about 10%.",
            _FEE,
        ),
    ],
)
def test_noslot_pair(claim: str, evidence: str) -> None:
    assert slot_pair(claim, evidence) is None


_ALL_TIME = (
    "The club has won 11 national titles (including one unbeaten season), a record 14 cups and "
    "two league cups."
)


def test_a_count_dated_by_a_fronted_range_asks_for_its_years() -> None:
    """The fronted range is cut into clauses at its comma and its "and": it still dates the
    count, and a count of all time is another period; undated, the two counts conflict."""
    assert slot_pair("Between 2001 and 2009, Tinden won five national titles.", _ALL_TIME) is None
    assert slot_pair("Tinden won five national titles.", _ALL_TIME) == ("five", "11")
