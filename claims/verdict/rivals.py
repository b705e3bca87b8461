"""Rival values of a claim's value in a reference claim: another ordinal in the same position,
another currency for the same amount, an approximation too far from a point value.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re

from claims.facets import STOPWORDS, Facets, Quantity, slots_compatible, values_equal
from claims.facets.rounding import approximation_misses, approximations_apart, is_approximation


def _ordinal_neighbours(text: str, start: int, end: int) -> set[str]:
    """The nearest content words before and after the span (lower case, stopwords skipped:
    "came 2nd in the medal table" and "finished first in the medal table" share "medal")."""

    def content(s: str) -> list[str]:
        return [w.lower() for w in re.findall(r"[^\W\d_]+", s) if w.lower() not in STOPWORDS]

    return set(content(text[:start])[-1:] + content(text[end:])[:1])


def ordinal_rival(r_text: str, q: Quantity, c: Facets) -> Quantity | None:
    """Another ordinal of ``c`` in the same position as the claim's ordinal ``q`` (words or
    digits: "finished second" / "finished 3rd", "the third largest" / "the second largest"):
    the same slot, or the same content word next to it. None when there is none."""
    near = _ordinal_neighbours(r_text, q.start, q.end)
    for o in c.quantities:
        if not o.ordinal or values_equal(o.value, q.value):
            continue
        if (q.slot and slots_compatible(q, o)) or near & _ordinal_neighbours(c.text, o.start, o.end):
            return o
    return None


def both_currencies(q: Quantity, o: Quantity) -> bool:
    """Two amounts of money in different currencies ("$45" / "€45"): the same slot, the price,
    so another currency conflicts like another value (``_check_value``)."""
    return q.slot.startswith("currency") and o.slot.startswith("currency") and q.slot != o.slot


def approximation_rival(r_text: str, q: Quantity, c_text: str, o: Quantity) -> bool:
    """An approximation on one side too far from a point value on the other to approximate
    it ("about 3.4 million" / 2,148,271), or from an approximation on the other ("about 2
    million" / "about 20 million"): a conflict like two points (``approximation_misses``,
    ``approximations_apart``)."""
    if is_approximation(r_text, q) and is_approximation(c_text, o):
        return approximations_apart(q, o)
    if is_approximation(r_text, q) and not o.loose:
        return approximation_misses(q, o)
    return not q.loose and is_approximation(c_text, o) and approximation_misses(o, q)


#: words that say which measure of a length a value gives ("30 km long", "the height of 40 m")
_MEASURES = {
    "long": "length", "length": "length", "wide": "width", "width": "width", "across": "width",
    "broad": "width", "high": "height", "height": "height", "tall": "height", "altitude": "height",
    "elevation": "height", "deep": "depth", "depth": "depth", "thick": "thickness",
    "thickness": "thickness", "diameter": "diameter", "radius": "radius",
}  # fmt: skip
_WORDS = re.compile(r"[a-z]+")
_BEFORE = re.compile(r"\b([a-z]+)\s+of\s+(?:about\s+|around\s+|some\s+|nearly\s+)?$")


def _measure(text: str, q: Quantity) -> str | None:
    """The measure a length gives: a word right after the value or its unit ("30 km long",
    "45 metres in height") or "<measure> of" right before it ("a depth of 12 m"); None when
    the text names none."""
    after = [w for w in _WORDS.findall(text[q.end : q.end + 30].lower()) if w != "in"][:2]
    measure = next((_MEASURES[w] for w in after if w in _MEASURES), None)
    if measure is not None:
        return measure
    before = _BEFORE.search(text[max(0, q.start - 30) : q.start].lower())
    return _MEASURES.get(before.group(1)) if before is not None else None


def other_measure(r_text: str, q: Quantity, c_text: str, o: Quantity) -> bool:
    """Two lengths that name two measures ("The lake is 30 km long" / "The lake is 45 km wide"):
    two values of two quantities, never rivals."""
    ours, theirs = _measure(r_text, q), _measure(c_text, o)
    return ours is not None and theirs is not None and ours != theirs
