"""What the quantity recognisers share: the spans already taken, and approximation.

A recogniser (``Recogniser``) finds one kind of value in a text, skips the character spans
an earlier recogniser took (``overlaps``, ``free``) and takes its own (``take``).
``is_loose`` tells an approximate or bounded value by the words before it ("about 40",
"before 1492").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from claims.facets.types import Quantity


def overlaps(s: int, e: int, taken: list[tuple[int, int]]) -> bool:
    return any(s < te and ts < e for ts, te in taken)


def free(pattern: re.Pattern[str], text: str, taken: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """Matches of ``pattern`` in ``text`` that overlap no span already taken."""
    for m in pattern.finditer(text):
        if not overlaps(m.start(), m.end(), taken):
            yield m


def take(out: list[Quantity], taken: list[tuple[int, int]], q: Quantity) -> None:
    out.append(q)
    taken.append((q.start, q.end))


_APPROX_BEFORE = re.compile(
    r"\b(?:around|circa|c\.|ca\.|about|approximately|approx\.|nearly|almost|roughly|some|over|under|"
    r"more than|less than|fewer than|up to|at least|at most|beyond|estimated|as many as|as few as)"
    r"[\s-]*$",
    re.I,
)
_YEAR_BOUND_BEFORE = re.compile(
    r"\b(?:before|after|until|till|since|by|from|between|and|to|early|late|mid|pre|post|within|the)[\s-]*$",
    re.I,
)


def is_loose(text: str, start: int, *, year: bool = False) -> bool:
    before = text[max(0, start - 25) : start]
    if _APPROX_BEFORE.search(before):
        return True
    return year and _YEAR_BOUND_BEFORE.search(before) is not None


#: a recogniser finds one kind of value in a text, skipping the spans already taken and
#: taking its own (so the order decides which reading of a span wins)
Recogniser = Callable[[str, list[tuple[int, int]]], list[Quantity]]
