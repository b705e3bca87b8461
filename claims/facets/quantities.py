"""Every quantity of a text: the recognisers run in order, then ranges and bounds.

``QUANTITY_RECOGNISERS`` lists the value recognisers (``claims.facets.dates``,
``claims.facets.numbers``, ``claims.facets.number_words``); ``find_quantities`` runs them in
that order, each skipping the spans an earlier one took. ``with_intervals`` then marks
ranges ("between 4 and 6 hours", "4-6 hours") and bounds ("up to 60 °C", "at least 18", "more
than 500") with ``bound`` and ``interval``; a change ("rose from 5% to 8%") is no range.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from claims.facets.dates import find_centuries, find_decades, times_of_day, year_ranges
from claims.facets.number_words import (
    factor_verbs,
    find_number_words,
    find_ordinal_words,
    find_ratios,
    fraction_words,
    german_number_words,
    pair_words,
)
from claims.facets.numbers import find_digits
from claims.facets.spans import Recogniser
from claims.facets.types import Quantity
from claims.facets.vocabulary import SCALE_WORDS, SCALES

_BOUND_BEFORE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p + r"\s*$", re.I), kind)
    for p, kind in [
        (r"\b(?:up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|(?:a\s+)?maximum\s+of|max\."
         r"|as\s+(?:high|much|many|long|far)\s+as)", "upto"),
        (r"\b(?:at\s+least|not?\s+less\s+than|not?\s+fewer\s+than|(?:a\s+)?minimum\s+of|min\.)", "atleast"),
        (r"\b(?:less\s+than|fewer\s+than|under|below|lower\s+than)", "below"),
        (r"\b(?:more\s+than|over|above|greater\s+than|upwards\s+of|in\s+excess\s+of"
         r"|exceed(?:s|ed|ing)?)", "above"),
    ]
]  # fmt: skip
_RANGE_OPEN = re.compile(r"\b(?:between|from|range\s+of|ranges?\s+from)\s+$", re.I)
#: a change between two values is no range ("rose from 5% to 8%")
_CHANGE_BEFORE = re.compile(
    r"\b(?:rose|ris\w*|fell|fall\w*|increas\w*|decreas\w*|grew|grow\w*|drop\w*|declin\w*|went|go(?:es)?"
    r"|chang\w*|climb\w*|jump\w*|moved?|rais\w*|cut|reduc\w*|expand\w*|shr[aiu]nk\w*|surg\w*|soar\w*"
    r"|plung\w*|slid\w*|slump\w*|improv\w*|boost\w*|lower\w*|up|down)\b(?:\s+[\w'’%$€£.,]+){0,3}\s+from\s+$",
    re.I,
)
_RANGE_JOIN = re.compile(r"\s*(?:and|to|until|[-–—])\s*", re.I)
_NO_INTERVAL_SLOTS = ("year", "time", "decade")


def _rescaled(q: Quantity, like: Quantity) -> Quantity:
    """The slot-less ``q`` read in the unit of ``like`` (the other end of its range: "between 4
    and 6 hours" gives 4 hours, "between 2 and 3 million dollars" 2 million dollars)."""
    raw = q.raw
    scale = next((w for w in SCALE_WORDS if re.search(rf"\b{w}\b", like.text, re.I)), None)
    if scale and not re.search(rf"\b{scale}\b", q.text, re.I):
        raw *= SCALES[scale]
    if like.unit == "°F":
        value = (raw - 32.0) * 5.0 / 9.0
    else:
        value = raw * (like.value / like.raw if like.raw else 1.0)
    return replace(q, value=value, raw=raw, slot=like.slot, unit=like.unit, nouns=like.nouns)


def with_intervals(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """Mark ranges ("between 4 and 6 hours", "from -20 °C to 50 °C", "4-6 hours") and bounds
    ("up to 60 °C", "at least 18 years", "more than 500 people") with ``bound`` and ``interval``
    (see ``Quantity``); a number without a slot only by a strict bound ("over 18", "under 18").
    Years, decades and times of day are left as they are (year ranges have ``lo``/``hi``).
    ``quantities`` is sorted by ``start``."""
    out = list(quantities)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if a.slot in _NO_INTERVAL_SLOTS or b.slot in _NO_INTERVAL_SLOTS or not b.slot or a.bound:
            continue
        join = _RANGE_JOIN.fullmatch(text, a.end, b.start)
        opened = _RANGE_OPEN.search(text[: a.start])
        if join is None or (join.group(0).strip().lower() == "and" and not opened):
            continue
        if _CHANGE_BEFORE.search(text[max(0, a.start - 60) : a.start]):
            continue
        if not a.slot:
            a = _rescaled(a, b)
        if a.slot != b.slot:
            continue
        span = (min(a.value, b.value), max(a.value, b.value))
        out[i] = replace(a, bound="range", interval=span, loose=True)
        out[i + 1] = replace(b, bound="range", interval=span, loose=True)
    for i, q in enumerate(out):
        if q.bound or q.slot in _NO_INTERVAL_SLOTS:
            continue
        before = text[max(0, q.start - 25) : q.start]
        kind = next((k for pat, k in _BOUND_BEFORE if pat.search(before)), "")
        if kind and (q.slot or kind in ("above", "below")):  # a bare number: "over 18", "under 18"
            inf = math.inf
            span = (-inf, q.value) if kind in ("upto", "below") else (q.value, inf)
            out[i] = replace(q, bound=kind, interval=span, loose=True)
    return out


#: the value recognisers, run in this order by ``find_quantities``
QUANTITY_RECOGNISERS: tuple[Recogniser, ...] = (
    find_centuries,
    find_decades,
    year_ranges,
    times_of_day,
    find_ratios,
    fraction_words,
    find_digits,
    find_ordinal_words,
    find_number_words,
    german_number_words,
    pair_words,
    factor_verbs,
)


def find_quantities(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Every quantity of ``text``: the recognisers of ``QUANTITY_RECOGNISERS`` in turn, then
    durations told in two units joined into one ("2 hours 30 minutes" = 2.5 hours)."""
    out: list[Quantity] = []
    for recognise in QUANTITY_RECOGNISERS:
        out.extend(recognise(text, taken))
    return _joined_durations(text, out)


_DURATION_JOIN = re.compile(r"\s*(?:,\s*|and\s+)?")


def _joined_durations(text: str, found: list[Quantity]) -> list[Quantity]:
    """ "2 hours 30 minutes", "3 years and 6 months": a duration right after a duration of a
    larger unit is part of it (one quantity, the sum, in the first one's unit); else as found."""
    ordered = sorted(found, key=lambda q: q.start)
    out: list[Quantity] = []
    for q in ordered:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.slot == q.slot == "duration"
            and not prev.bound
            and prev.raw > 0
            and q.raw > 0
            and prev.value / prev.raw > q.value / q.raw
            and _DURATION_JOIN.fullmatch(text, prev.end, q.start) is not None
        ):
            per_unit = prev.value / prev.raw
            out[-1] = replace(
                prev,
                value=prev.value + q.value,
                raw=prev.raw + q.value / per_unit,
                text=text[prev.start : q.end],
                end=q.end,
            )
            continue
        out.append(q)
    return out if len(out) < len(found) else found
