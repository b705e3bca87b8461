"""Years and dates bounded from one side, and years told relative to another event.

A bound ("before 1998", "after 2001", "by 1990", "no later than May 2003", "no earlier than
1990", "not before 2011", "did not open until 2006"; ``claims.facets.dates.time_bound``) is
compared with the other text's point years and dates of the same slot: a point inside it
states it ("before 2000" / "in May 1998"), a point outside it conflicts ("before 1998" / "in
May 1998": May 1998 is no year before 1998). The comparison is at the bound's precision: a
year bound by a year, a month bound by year and month ("no later than May 2003" / "in
September 2003" conflicts, / "in March 2003" states it, / "in 2003" is not known).

A year told relative to another event ("two years after the trials began", "three years
later", "the following year"; ``RELATIVE_TIME``) is no point of the year slot: the text's
absolute years may be the other event's, so a year of the other text that differs from them
is no conflict, and a claim's relative time is stated only by a reference that tells one too.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from claims.facets import DateFacet, Quantity, content_tokens
from claims.facets.dates import time_bound
from claims.facets.vocabulary import MONTH_RE, MONTHS
from claims.verdict.context import Context
from claims.verdict.events import event_coverage
from claims.verdict.findings import (
    Conflict,
    Finding,
    FindingKind,
    Pair,
    Stance,
    conflict_finding,
    stated,
    unstated,
)

#: a time told relative to another event or to the report: "two years after the trials
#: began", "three years later", "a year earlier", "the following year", "the same year",
#: "the next season", "last year", "the year before"
RELATIVE_TIME = re.compile(
    r"\b(?:(?:[\w-]+|\d+)\s+(?:years?|months?|decades?|weeks?|days?|seasons?)\s+"
    r"(?:after|later|before|earlier|afterwards?|ago|prior)"
    r"|(?:the\s+|that\s+)?(?:following|next|previous|preceding|same|subsequent|succeeding)\s+"
    r"(?:year|month|season|decade|spring|summer|autumn|fall|winter)"
    r"|(?:last|past|coming)\s+(?:year|season|decade)|the\s+year\s+(?:before|after))\b",
    re.I,
)

#: the words of a time bound itself ("no earlier than", "prior to"), not a verb inside one
#: ("did not reopen until")
_BOUND_WORDS = frozenset(content_tokens("earlier sooner later prior latest earliest before after until till"))

#: the parts of a year or date, most significant first, up to its precision: (1998,), (2003, 5)
Parts = tuple[int, ...]


@dataclass(frozen=True)
class TimePoint:
    """A year or date of a text: its ``parts`` (``Parts``; a year range gives ``last``, the
    parts of its last year), its span and its bound kind (``time_bound``; ``""`` a point)."""

    parts: Parts
    text: str
    start: int
    end: int
    bound: str = ""
    last: Parts | None = None


def date_parts(d: DateFacet) -> Parts:
    """The parts of ``d`` down to its precision ((year,), (year, month), (year, month, day));
    () for a date without a year."""
    out: list[int] = []
    for part in (d.year, d.month, d.day):
        if part is None:
            break
        out.append(part)
    return tuple(out)


def time_points(text: str, quantities: Iterable[Quantity], dates: Iterable[DateFacet]) -> list[TimePoint]:
    """The years (``quantities`` of the slot "year"; a range's two ends) and dates with a year
    of ``text``, each with its bound kind."""
    out = []
    for q in quantities:
        if q.slot != "year":
            continue
        lo, hi = (q.lo, q.hi) if q.lo is not None and q.hi is not None else (q.raw, q.raw)
        last = (int(hi),) if hi != lo else None
        out.append(TimePoint((int(lo),), q.text, q.start, q.end, time_bound(text, q.start)[0], last))
    for d in dates:
        if d.year is not None:
            out.append(TimePoint(date_parts(d), d.text, d.start, d.end, time_bound(text, d.start)[0]))
    return out


#: the first month of a month range before the date that ends it: "from March to June 2004",
#: "March–June 2004", "between March and June 2004", "March 2003 to June 2004" ("and" only
#: after "between": "in March and June 2004" are two months)
_MONTH_RANGE = re.compile(
    r"(?:\b(?P<w>from|between)\s+)?\b(?P<mon>" + MONTH_RE + r")(?:,?\s+(?P<y>\d{4}))?"
    r"\s*(?P<to>[–—-]|\bto\b|\buntil\b|\btill\b|\bthrough\b|\band\b)\s*$",
    re.I,
)


def month_range(text: str, d: DateFacet) -> TimePoint | None:
    """The month range of ``text`` that the month ``d`` ("June 2004", no day) ends, as a point
    from its first month to ``d`` (``parts`` to ``last``, span from its first word); None when
    ``d`` ends none or the range runs backwards."""
    if d.year is None or d.month is None or d.day is not None:
        return None
    m = _MONTH_RANGE.search(text, max(0, d.start - 40), d.start)
    if m is None or (m.group("to").lower() == "and" and not m.group("w")):
        return None
    mon = MONTHS.get(m.group("mon").rstrip(".").lower())
    if mon is None or (m.group("mon").lower() == "may" and m.group("mon") != "May"):
        return None
    first = (int(m.group("y")) if m.group("y") else d.year, mon)
    if first >= (d.year, d.month):
        return None
    return TimePoint(first, text[m.start() : d.end], m.start(), d.end, last=(d.year, d.month))


def month_ranges(text: str, dates: Iterable[DateFacet]) -> list[TimePoint]:
    """The month ranges of ``text`` (``month_range``) among its ``dates``."""
    return [r for d in dates if (r := month_range(text, d)) is not None]


def in_range(r: TimePoint, point: Parts) -> bool | None:
    """Whether ``point`` lies in the range ``r`` (``parts`` to ``last``); None when it is too
    coarse to tell ("2004" against March to June 2004)."""
    a, b = _order(point, r.parts), _order(point, r.last or r.parts)
    if a is None or b is None:
        return None
    return a >= 0 and b <= 0


def month_range_check(
    x: Context, d: DateFacet, points: list[DateFacet]
) -> tuple[list[DateFacet], Conflict | None]:
    """The claim's date ``d`` against the reference claim's month ranges (``month_range``) among
    its ``points``: the points left to compare part by part (a range's months are none of them)
    and the range conflict. A month inside a range ("in May 2004" / "from March to June 2004")
    leaves no point to compare: the slot's value is found, not stated; a month outside every
    range conflicts ("in August 2004"). A claim's range with a reference month inside it
    leaves no point either; one with none inside is compared by its last month."""
    ranges = month_ranges(x.c.text, points)
    left = [e for e in points if not any(r.start <= e.start and e.end <= r.end for r in ranges)]
    own = month_range(x.r.text, d)
    if own is not None:
        if any(in_range(own, date_parts(e)) for e in left) or any(
            in_range(own, r.parts) or in_range(r, own.parts) for r in ranges
        ):
            return [], None
        return left, None
    found = [in_range(r, date_parts(d)) for r in ranges]
    if True in found:
        return [], None
    if found and all(f is False for f in found):
        r = ranges[0]
        return left, Conflict("range", d.text, r.text, r.start, r.end)
    return left, None


def _order(point: Parts, bound: Parts) -> int | None:
    """-1, 0 or 1 as ``point`` lies before, within or after the unit that ``bound`` names (a
    year, a month, a day); None when the point is too coarse to tell ("2003" against May 2003)."""
    for a, b in zip(point, bound, strict=False):
        if a != b:
            return -1 if a < b else 1
    return 0 if len(point) >= len(bound) else None


_INSIDE = {"below": (-1,), "above": (1,), "upto": (-1, 0), "atleast": (0, 1)}


def relation(kind: str, bound: Parts, point: Parts, last: Parts | None = None) -> str | None:
    """Whether the point ``point`` (to ``last`` for a range) lies "inside" or "outside" a
    bound of ``kind`` (``time_bound``) at ``bound``; None when it cannot be told (a coarser
    point, a range across the bound).

    >>> relation("below", (1998,), (1998, 5)), relation("below", (2000,), (1998, 5))
    ('outside', 'inside')
    >>> relation("upto", (2003, 5), (2003,)) is None
    True
    """
    ends = [_order(point, bound), _order(last, bound) if last is not None else _order(point, bound)]
    if None in ends:
        return None
    inside = [e in _INSIDE[kind] for e in ends]
    if all(inside):
        return "inside"
    return "outside" if not any(inside) else None


def _bound_text(text: str, start: int, end: int) -> str:
    """The bound as written: its words and value ("before 1998", "no later than May 2003")."""
    return text[time_bound(text, start)[1] : end]


def covered_words(x: Context, own: set[str]) -> list[Finding]:
    """The claim's words ``own`` of a bound ("exceeds", "more than", "no earlier than") were
    compared as the bound: they are no predicate word the reference lacks ("exceeds 80 °C" /
    "stays below 80 °C"). One ``WORDS`` finding (``key``: the words, sorted, joined by spaces);
    ``pairs.fold`` counts the pair's coverage and predicate coverage again without them."""
    own = own & set(x.r_tokens)
    return [Finding(FindingKind.WORDS, Stance.AGREE, key=" ".join(sorted(own)))] if own else []


def recount_coverage(x: Context, covered: frozenset[str], own: frozenset[str]) -> tuple[float, float, int]:
    """The pair's coverage, predicate coverage and predicate size (``event_coverage``) once the
    claim's words ``own`` count as ``covered`` (``covered_words``); each in [0, 1], the size in
    words."""
    coverage = sum(t in covered for t in x.r_tokens) / len(x.r_tokens)
    names = set(content_tokens(" ".join(e for e, _, _ in x.r.entities)))
    predicate = [t for t in x.r_tokens if t not in names and t not in own]
    return (coverage, *event_coverage(predicate, x.c_stems))


_SIDE = {"below": "early", "upto": "early", "above": "late", "atleast": "late"}


def _states_bound(mine: TimePoint, p: TimePoint) -> bool:
    """The reference's bound ``p`` states the claim's bound ``mine``: the same bound ("by 2030"
    / "by 2030"), or a tighter one from the same side ("before 1990" states "by 1995")."""
    if not p.bound or _SIDE[p.bound] != _SIDE[mine.bound]:
        return False
    return (p.bound, p.parts) == (mine.bound, mine.parts) or relation(
        mine.bound, mine.parts, p.parts
    ) == "inside"


def check_time_bound(x: Context, mine: TimePoint, key: str) -> list[Finding]:
    """Check: the claim's bounded year or date ``mine`` against the reference claim's point
    years and dates (a dateline's excepted: the report's date, not the event's). One inside,
    or the same or a tighter bound (``_states_bound``), states it (a ``VALUE`` agreeing on ``key``,
    ``Pair.stated``); a single one outside conflicts ("bound"); several points of which none
    is inside may be other events' (missing). The bound's words were compared as the bound
    (``covered_words``)."""
    points = [
        p for p in time_points(x.c.text, x.c.quantities, () if x.dateline else x.c.dates) if not p.bound
    ]
    bound_words = x.r.text[time_bound(x.r.text, mine.start)[1] : mine.start]
    words = covered_words(x, set(content_tokens(bound_words)) & _BOUND_WORDS)
    found = [relation(mine.bound, mine.parts, p.parts, p.last) for p in points]
    if "inside" in found or any(
        _states_bound(mine, p) for p in time_points(x.c.text, x.c.quantities, x.c.dates)
    ):
        return [*words, stated(FindingKind.VALUE, key, mine.text)]
    distinct = {(p.parts, p.last) for p in points}
    if len(distinct) == 1 and found and found[0] == "outside" and not relative_time(x):
        p = points[0]
        bound = Conflict("bound", _bound_text(x.r.text, mine.start, mine.end), p.text, p.start, p.end)
        return [*words, conflict_finding(FindingKind.VALUE, bound)]
    return [*words, unstated(FindingKind.VALUE, _bound_text(x.r.text, mine.start, mine.end))]


def reference_bound_conflict(x: Context, mine: TimePoint) -> Conflict | None:
    """The claim's point year or date ``mine`` against the reference claim's bounded ones
    ("opened in 1999" / "opened before 1998"): a conflict when it lies outside one and inside
    none (the reason names the reference's bound), else None."""
    bounds = [p for p in time_points(x.c.text, x.c.quantities, x.c.dates) if p.bound]
    found = [relation(p.bound, p.parts, mine.parts, mine.last) for p in bounds]
    if not bounds or "inside" in found or "outside" not in found or relative_time(x):
        return None
    p = bounds[found.index("outside")]
    return Conflict("range", mine.text, _bound_text(x.c.text, p.start, p.end), p.start, p.end)


def bounded_in_reference(x: Context, start: int) -> bool:
    """The reference claim's year or date at ``start`` is bounded (``time_bound``): it states
    no point year ("opened before 1998" does not state "opened in 1998")."""
    return bool(time_bound(x.c.text, start)[0])


def relative_time(x: Context) -> bool:
    """The claim or the reference claim tells a time relative to another event
    (``RELATIVE_TIME``): its absolute years may be that event's."""
    return RELATIVE_TIME.search(x.c.text) is not None or RELATIVE_TIME.search(x.r.text) is not None


def check_relative_time(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: the claim's relative time ("the following year", "three years later") is stated
    only by a reference claim that tells a relative time too (then its words compare as
    words); an absolute year is another slot, so without one the claim's is missing."""
    m = RELATIVE_TIME.search(x.r.text)
    if m is not None and RELATIVE_TIME.search(x.c.text) is None:
        return (unstated(FindingKind.VALUE, m.group(0)),)
    return ()
