"""Slot comparison of quantities: which values may be compared, and when one states another.

``slots_compatible`` (same slot, or counted nouns that match), ``values_equal`` (up to
floating error), ``year_matches`` / ``year_overlaps`` (years and year ranges),
``quantity_matches`` (a claim's value stated by a reference's; loose values within 5 %).
"""

from __future__ import annotations

import math
from dataclasses import replace

from claims.facets.rounding import converts_to, rounds_to
from claims.facets.tokens import content_tokens, token_match
from claims.facets.types import Quantity
from claims.facets.vocabulary import data_lines


def values_equal(a: float, b: float) -> bool:
    """Equal up to floating error (relative 1e-6)."""
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


def slots_compatible(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities fill the same slot (and so may conflict); an ordinal ("3rd
    floor") and a count ("4 floors") never do."""
    if not a.slot or not b.slot or a.ordinal != b.ordinal:
        return False
    if a.slot == b.slot:
        return True
    if a.slot.startswith("n:") and b.slot.startswith("n:"):
        # the counted noun is the head of the phrase after the number: "four motorway lanes"
        # counts lanes like "four lanes of the E39 motorway"
        na, nb = a.slot[2:], b.slot[2:]
        return (
            token_match(na, nb)
            or any(token_match(na, x) for x in b.nouns)
            or any(token_match(nb, x) for x in a.nouns)
            or _people(na, nb)
            or _people(nb, na)
        )
    return False


#: stems of the nouns that count people (``claims/data/person_nouns.txt``) and of "people"
_PERSON_NOUNS = frozenset(content_tokens(" ".join(line for _, line in data_lines("person_nouns.txt"))))
_PEOPLE = frozenset(content_tokens("people persons individuals"))


def _people(a: str, b: str) -> bool:
    """``a`` is "people" and ``b`` a noun that counts people ("employs 12,000 people" / "12,000
    employees")."""
    return a in _PEOPLE and any(token_match(b, x) for x in _PERSON_NOUNS)


def span_of(q: Quantity) -> tuple[float, float]:
    return (q.lo, q.hi) if q.lo is not None and q.hi is not None else (q.raw, q.raw)


def year_matches(a: Quantity, b: Quantity) -> bool:
    """Year ``a`` (the claim's) is stated by ``b`` (the reference's): the same year or range;
    ``b`` inside the range ``a`` ("in the 16th century" is stated by "in 1570"); a point year
    that starts or ends the range ``b`` ("from 1939" by "1939–1975"); or a point year inside
    a range of at most two calendar years (a season such as "1992–93")."""
    (alo, ahi), (blo, bhi) = span_of(a), span_of(b)
    if (alo, ahi) == (blo, bhi):
        return True
    if alo < ahi and alo <= blo and bhi <= ahi:
        return True
    if alo == ahi and alo in (blo, bhi):
        return True
    return alo == ahi and bhi - blo <= 1 and blo <= alo <= bhi


def year_overlaps(a: Quantity, b: Quantity) -> bool:
    """The two years or ranges share at least one year (then they never conflict)."""
    (alo, ahi), (blo, bhi) = span_of(a), span_of(b)
    return alo <= bhi and blo <= ahi


_UPPER = ("below", "upto")
_LOWER = ("above", "atleast")


def opposite_bounds(a: Quantity, b: Quantity) -> bool:
    """``a`` and ``b`` bound the same slot from opposite sides with no value in common: "over
    18" / "under 18", "exceeds 80 °C" / "below 80 °C", "at least 10" / "fewer than 10" (but
    "at least 18" / "at most 18" share 18). Slot-less values bound any slot."""
    if (
        a.interval is None
        or b.interval is None
        or {a.bound, b.bound} not in ({x, y} for x in _UPPER for y in _LOWER)
    ):
        return False
    if a.slot and b.slot and not slots_compatible(a, b):
        return False
    low, high = (a, b) if a.bound in _LOWER else (b, a)
    floor, ceiling = _values(low, high)
    if not values_equal(floor, ceiling):
        return floor > ceiling
    return low.bound == "above" or high.bound == "below"


def _values(a: Quantity, b: Quantity) -> tuple[float, float]:
    """The two values in the slot's base unit ("over 1 km" / "under 900 m"), or as written when
    one has no slot."""
    return (a.value, b.value) if a.slot and b.slot else (a.raw, b.raw)


def _tighter_bound(a: Quantity, b: Quantity) -> bool:
    """``b`` bounds from the same side as ``a`` and at least as tightly: "more than 600 people"
    states "over 500 people", "under 40 °C" states "below 50 °C" (never the other way)."""
    if a.slot and b.slot and not slots_compatible(a, b):
        return False
    mine, theirs = _values(a, b)
    if a.bound in _LOWER and b.bound in _LOWER:
        return theirs > mine or (values_equal(theirs, mine) and (a.bound == "atleast" or b.bound == "above"))
    if a.bound in _UPPER and b.bound in _UPPER:
        return theirs < mine or (values_equal(theirs, mine) and (a.bound == "upto" or b.bound == "below"))
    return False


def quantity_matches(a: Quantity, b: Quantity) -> bool:
    """``a`` is stated by ``b``: same value, and same slot when both have one
    (a slot-less number matches an equal value in any slot except years). Loose
    (approximate) values match within 5 %, a rounded value ("2.1 million") the values it
    rounds. An exact point is never stated by a range or a
    bound ("5 hours" is not stated by "between 4 and 6 hours" nor by "up to 6 hours")."""
    if (b.bound and not a.bound and not a.loose) or a.ordinal != b.ordinal or opposite_bounds(a, b):
        return False
    if a.bound in ("above", "atleast", "below") and not b.bound and a.interval is not None:
        # a bound is stated by a point inside it ("over $10 million" by "$12 million"), and
        # never by one past it, however close ("$9.8 million")
        lo, hi = a.interval
        inside = lo < b.value < hi if a.bound in ("above", "below") else lo <= b.value <= hi
        return inside and (slots_compatible(a, b) or not b.slot)
    if a.interval is not None and b.interval is not None and _tighter_bound(a, b):
        return True
    if {a.bound, b.bound} in ({x, y} for x in _UPPER for y in _LOWER):
        return False  # bounds from opposite sides state nothing of each other ("at least 18" / "at most 18")
    if (a.slot.startswith("of:") or b.slot.startswith("of:")) and not slots_compatible(a, b):
        # a slot after "<noun> of" only sets rivals apart ("a capacity of 50,000" is stated by
        # "a capacity of 50,000 seats"): otherwise the number counts as slot-less
        a = replace(a, slot="") if a.slot.startswith("of:") else a
        b = replace(b, slot="") if b.slot.startswith("of:") else b
    if (a.loose or b.loose) and a.slot not in ("year", "time") and b.slot not in ("year", "time"):
        if a.slot and b.slot and not slots_compatible(a, b):
            return False
        return math.isclose(a.value, b.value, rel_tol=0.05) or math.isclose(a.raw, b.raw, rel_tol=0.05)
    if a.slot == "time" or b.slot == "time":
        return a.slot == b.slot and values_equal(a.value, b.value)
    if a.slot and b.slot:
        if slots_compatible(a, b):
            return values_equal(a.value, b.value) or rounds_to(a, b) or converts_to(a, b)
        return False
    if a.slot == "year" or b.slot == "year":
        return a.slot == b.slot == "year" and values_equal(a.raw, b.raw)
    return values_equal(a.raw, b.raw) or values_equal(a.value, b.value) or rounds_to(a, b)
