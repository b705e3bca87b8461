"""Rounded values: "2.1 million" is 2,148,271 rounded to the precision it is written with.

``rounding_step`` is the precision of a value written with a magnitude word ("2.1 million": a
step of 100,000; "3 billion": 1,000,000,000), in the slot's base unit; ``rounds_to`` says a
value lies within half a step of another ("2.1 million" / 2,148,271 agree; "2.1 million" /
2,348,271 do not). ``approximation_misses`` says an approximate value ("about 3.4 million")
is too far from a stated point value to be its approximation: more than a whole step and
more than ``APPROX_TOLERANCE`` of it away. ``converts_to`` says two values in units of two
systems are one value converted ("300 metres" / "984 feet").
"""

from __future__ import annotations

import math
import re

from claims.facets.types import Quantity

#: how far (relative) an approximation ("about 40") may lie from the value it approximates
APPROX_TOLERANCE = 0.1
#: how far (relative) a value converted into a unit of another system may lie from the original:
#: conversions are rounded by habit ("300 m (1,000 ft)" is 1.6 % off, "6 ft" / "1.8 m" 1.6 %,
#: "3 miles" / "5 km" 3.4 %, "1.2 miles" / "2 km" 3.4 %); a 9 % gap ("10 lb" / "5 kg") or 11 %
#: ("300 m" / "1,100 ft") is another value
CONVERSION_TOLERANCE = 0.05
_LITERAL = re.compile(r"\d[\d,]*(?:\.(\d+))?")
#: words that make a value an approximation, not a bound ("about", not "more than")
APPROX_WORDS = re.compile(
    r"\b(?:around|circa|c\.|ca\.|about|approximately|approx\.|nearly|almost|roughly|some|"
    r"estimated|an estimated|close to|just over|just under)[\s-]*$",
    re.I,
)


def rounding_step(q: Quantity) -> float | None:
    """The precision of ``q`` in its slot's base unit when it is written with a magnitude word
    ("2.1 million" -> 100,000); None for a value written in full or a year."""
    m = _LITERAL.search(q.text)
    if m is None or q.slot in ("year", "time", "score") or q.ordinal:
        return None
    literal = float(m.group(0).replace(",", ""))
    if literal <= 0 or q.raw <= literal * 1.5:
        return None  # no magnitude word: "2,148,271" is exact
    decimals = len(m.group(1) or "")
    scale = q.raw / literal
    ratio = q.value / q.raw if q.raw else 1.0
    return 10.0 ** (-decimals) * scale * ratio


def rounds_to(a: Quantity, b: Quantity) -> bool:
    """``a`` ("2.1 million") is ``b`` (2,148,271) rounded to ``a``'s precision, or the other way;
    a share in words against a percentage rounded to its digits ("two thirds" / "67%")."""
    for x, y in ((a, b), (b, a)):
        step = rounding_step(x)
        if step is not None and abs(x.value - y.value) <= step / 2 * (1 + 1e-9):
            return True
        if x.unit == "%" and y.unit == "fraction":
            decimals = len(m.group(1) or "") if (m := _LITERAL.search(x.text)) else 0
            if abs(x.value - y.value) <= 0.01 * 10.0 ** (-decimals) / 2 * (1 + 1e-9):
                return True
    return False


def is_approximation(text: str, q: Quantity) -> bool:
    """``q`` is written as an approximation ("about 3.4 million"), not a bound or a point."""
    return not q.bound and APPROX_WORDS.search(text[max(0, q.start - 25) : q.start]) is not None


def approximation_misses(approx: Quantity, point: Quantity) -> bool:
    """The point value lies outside what the approximation allows: more than its rounding step
    and more than ``APPROX_TOLERANCE`` away ("about 3.4 million" / 2,148,271), or a point
    rounded with a magnitude word as finely as the approximation (or more finely) and a whole
    step away from it
    ("about 1.3 million" / "1.2 million": two values rounded alike that name different ones;
    "about 1.2 million" / 1,215,000, "about 1.2 million" / "1.25 million" and "about 1,200
    million" / "1,234 million" agree)."""
    if point.loose or point.bound or not approx.value:
        return False
    gap = abs(approx.value - point.value)
    step = rounding_step(approx) or 0.0
    theirs = rounding_step(point)
    coarse = step * _trailing_zeros(approx)  # "about 1,200 million": to the hundred million
    if coarse and theirs is not None and theirs <= coarse * (1 + 1e-9) and gap >= coarse * (1 - 1e-9):
        return True
    return gap > step and not math.isclose(approx.value, point.value, rel_tol=APPROX_TOLERANCE)


def _trailing_zeros(q: Quantity) -> float:
    """10 to the number of trailing zeros of a whole literal ("1,200 million" -> 100; "1.3
    million", "1,234 million" -> 1): the precision an approximation is written to."""
    m = _LITERAL.search(q.text)
    if m is None or m.group(1):
        return 1.0
    digits = m.group(0).replace(",", "")
    return 10.0 ** (len(digits) - len(digits.rstrip("0")))


def approximations_apart(a: Quantity, b: Quantity) -> bool:
    """Two approximations too far apart to approximate one value ("about 2 million" / "about 20
    million", "about 30 km" / "about 45 km"): each allows its rounding step or
    ``APPROX_TOLERANCE`` of its value, whichever is larger (a whole number under 10 its last
    digit), and the two allowances do not meet ("about 30 km" / "roughly 32 km" do). Bounds,
    ranges and zeros are never apart.

    >>> from claims.facets import extract
    >>> two, twenty = (extract(f"a population of about {n} million").quantities[0] for n in (2, 20))
    >>> approximations_apart(two, twenty), approximations_apart(two, two)
    (True, False)
    """
    if a.bound or b.bound or not a.value or not b.value:
        return False

    def allowance(q: Quantity) -> float:
        # a small whole number allows its last digit ("about 3 hours" / "about 4 hours")
        last_digit = abs(q.value / q.raw) if q.raw and q.raw == int(q.raw) and abs(q.raw) < 10 else 0.0
        return max(rounding_step(q) or 0.0, APPROX_TOLERANCE * abs(q.value), last_digit)

    return abs(a.value - b.value) > allowance(a) + allowance(b)


def converts_to(a: Quantity, b: Quantity) -> bool:
    """``a`` and ``b`` are one value written in units of two systems ("300 metres" / "984 feet",
    "100 km" / "62 miles", "5 kg" / "11 lb"): within ``CONVERSION_TOLERANCE`` of each other.
    False for one unit under two names ("$" / "USD"), units of one system whose ratio is a power
    of ten or a duration ("1.4 km" / "1,400 m" and "1 hour" / "60 minutes" are exact: a plain
    comparison decides), temperatures (no common factor), values in words, and years, times,
    scores, shares (percent) and ordinals."""
    if a.slot in _EXACT_SLOTS or a.ordinal or b.ordinal or not a.raw or not b.raw:
        return False  # shares and ratios are exact: "three out of ten" is 30 %, not about 40 %
    if not (_LITERAL.search(a.text) and _LITERAL.search(b.text)):
        return False  # a value in words ("a dozen") has no written precision
    ratio = (a.value / a.raw) / (b.value / b.raw)
    if ratio <= 0 or math.isclose(math.log10(ratio), round(math.log10(ratio)), abs_tol=1e-9):
        return False  # one unit, or metric prefixes of one unit: compared exactly
    return abs(a.value - b.value) <= CONVERSION_TOLERANCE * max(abs(a.value), abs(b.value))


#: slots whose values are never converted approximately (see ``converts_to``)
_EXACT_SLOTS = frozenset({"year", "time", "score", "percent", "duration", "temperature"})
