"""Rounded values: "2.1 million" is 2,148,271 rounded to the precision it is written with.

``rounding_step`` is the precision of a value written with a magnitude word ("2.1 million": a
step of 100,000; "3 billion": 1,000,000,000), in the slot's base unit; ``rounds_to`` says a
value lies within half a step of another ("2.1 million" / 2,148,271 agree; "2.1 million" /
2,348,271 do not). ``approximation_misses`` says an approximate value ("about 3.4 million")
is too far from a stated point value to be its approximation: more than a whole step and
more than ``APPROX_TOLERANCE`` of it away.
"""

from __future__ import annotations

import math
import re

from claims.facets.types import Quantity

#: how far (relative) an approximation ("about 40") may lie from the value it approximates
APPROX_TOLERANCE = 0.1
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
    """``a`` ("2.1 million") is ``b`` (2,148,271) rounded to ``a``'s precision, or the other way."""
    for x, y in ((a, b), (b, a)):
        step = rounding_step(x)
        if step is not None and abs(x.value - y.value) <= step / 2 * (1 + 1e-9):
            return True
    return False


def is_approximation(text: str, q: Quantity) -> bool:
    """``q`` is written as an approximation ("about 3.4 million"), not a bound or a point."""
    return not q.bound and APPROX_WORDS.search(text[max(0, q.start - 25) : q.start]) is not None


def approximation_misses(approx: Quantity, point: Quantity) -> bool:
    """The point value lies outside what the approximation allows: more than its rounding step
    and more than ``APPROX_TOLERANCE`` away ("about 3.4 million" / 2,148,271)."""
    if point.loose or point.bound or not approx.value:
        return False
    gap = abs(approx.value - point.value)
    step = rounding_step(approx) or 0.0
    return gap > step and not math.isclose(approx.value, point.value, rel_tol=APPROX_TOLERANCE)
