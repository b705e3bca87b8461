"""Checks on numbers: values, years, ranges and bounds of the claim against the reference claim
(``check_quantities``, one of ``compare.PAIR_CHECKS``). Each check returns its findings.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re

from claims.facets import (
    Facets,
    Quantity,
    content_spans,
    content_tokens,
    opposite_bounds,
    quantity_matches,
    slots_compatible,
    token_match,
    values_equal,
    year_matches,
    year_overlaps,
)
from claims.verdict.context import Context
from claims.verdict.findings import Conflict, Finding, FindingKind, Pair, conflict_finding, stated, unstated
from claims.verdict.rivals import approximation_rival, both_currencies, ordinal_rival, other_measure
from claims.verdict.time_bounds import (
    bounded_in_reference,
    check_time_bound,
    covered_words,
    reference_bound_conflict,
    relative_time,
    time_points,
)
from claims.verdict.values import (
    bound_year,
    ordinal_word,
    range_relation,
    range_span,
    value_kind,
    year_like,
)


def years_of(c: Facets) -> list[Quantity]:
    """The reference claim's years: year quantities and the years of its dates."""
    return [q for q in c.quantities if year_like(q)] + [
        Quantity(float(d.year), float(d.year), "year", "", d.text, d.start, d.end) for d in c.dates if d.year
    ]


def _check_year(x: Context, q: Quantity, c_years: list[Quantity]) -> list[Finding]:
    """Check: year. A year bounded from one side ("before 1998") is compared by
    ``time_bounds.check_time_bound``. Else stated by the same year or range (not by a bounded
    one: "before 1998" states no year 1998); a point outside a bound of the reference conflicts
    (``time_bounds.reference_bound_conflict``); only point years conflict, only with point
    years that share no year with it, and not where either claim tells a time relative to
    another event (``time_bounds.relative_time``)."""
    mine = time_points(x.r.text, [q], ())[0]
    if mine.bound:
        return check_time_bound(x, mine, "q:" + q.text.lower())
    c_years = [y for y in c_years if not bounded_in_reference(x, y.start)]
    if any(year_matches(q, y) for y in c_years):
        found = [stated(FindingKind.VALUE, "q:" + q.text.lower(), q.text)]
        if x.dateline and any(e.year == q.raw and e.month is not None for e in x.c.dates):
            found.append(stated(FindingKind.DATELINE, "q:" + q.text.lower(), q.text))
        return found
    past = None if q.loose else reference_bound_conflict(x, mine)
    if past is not None:
        return [conflict_finding(FindingKind.VALUE, past)]
    rivals = [
        y for y in c_years if not q.loose and not y.loose and not year_overlaps(q, y) and not _at_edge(q, y)
    ]
    if rivals and not any(year_overlaps(q, y) for y in c_years) and not relative_time(x):
        y = rivals[0]
        return [conflict_finding(FindingKind.VALUE, Conflict("year", q.text, y.text, y.start, y.end))]
    return [unstated(FindingKind.VALUE, q.text)]


def _at_edge(a: Quantity, b: Quantity) -> bool:
    """A point year that one of the two ways of counting puts in the other's century: the year
    before its first ("1800" / "the 19th century", 1801-1900: "the 1800s"), or for a century
    BCE the year after its last ("400 BC" / "the 5th century BC", -500 to -401)."""
    for point, span in ((a, b), (b, a)):
        lo, hi = span.lo, span.hi
        if point.lo is not None or lo is None or hi is None or hi - lo != 99:
            continue
        if (lo % 100 == 1 and point.raw == lo - 1) or (hi % 100 == 99 and point.raw == hi + 1):
            return True
    return False


_ONE_SIDED = frozenset({"above", "below", "atleast", "upto"})


def _check_range(x: Context, q: Quantity) -> list[Finding] | None:
    """Check: range membership (``range_relation``). The findings when it decided the value
    (inside a stated range it is missing: not stated, not contradicted; outside it
    conflicts), else None."""
    relation, o = range_relation(q, x.c)
    if relation == "outside" and o is not None and q.bound in _ONE_SIDED and o.bound in _ONE_SIDED:
        # two bounds: compared by ``_check_opposite_bound`` alone (a bound of another scope,
        # ``_other_scope``, is not stated, never outside)
        return [unstated(FindingKind.VALUE, q.text)]
    if relation == "inside":
        return [unstated(FindingKind.VALUE, q.text)]
    if relation == "outside" and o is not None:
        s, e = range_span(x.c, o)
        return [conflict_finding(FindingKind.VALUE, Conflict("range", q.text, x.c.text[s:e], s, e))]
    return None


#: the words of a bound right before its value ("over", "fewer than"), for the reason
_BOUND_WORDS = re.compile(
    r"\b(up to|at most|no more than|(?:a )?maximum of|less than|fewer than|under|below|at least|"
    r"(?:a )?minimum of|more than|over|above|in excess of|exceed(?:s|ed|ing)?)\s*$",
    re.I,
)


def _bound_words(text: str, q: Quantity) -> str:
    """The bound as written: its words and value ("over 18", "fewer than 500 patients")."""
    words = _BOUND_WORDS.search(text, 0, q.start)
    return f"{words.group(1)} {q.text}" if words else q.text


def _check_opposite_bound(x: Context, q: Quantity) -> list[Finding] | None:
    """Check: a bound of the claim against a bound of the reference from the other side with no
    value in common ("over 18" / "under 18"; ``opposite_bounds``). The findings when it found
    one, else None."""
    o = next((o for o in x.c.quantities if not year_like(o) and opposite_bounds(q, o)), None)
    if o is None or _other_scope(x, q, o):
        return None
    if not q.slot and not o.slot:
        # "fans over 18" / "fans under 18": bounds of a bare number name groups, and both may
        # hold ("Tickets are sold to fans over 18" and "... under 18"): not stated, no conflict
        return [unstated(FindingKind.VALUE, q.text)]
    bounds = Conflict("bounds", _bound_words(x.r.text, q), _bound_words(x.c.text, o), o.start, o.end)
    return [conflict_finding(FindingKind.VALUE, bounds), *_cover_bound_words(x, q)]


def _other_scope(x: Context, q: Quantity, o: Quantity) -> bool:
    """The reference's bound ``o`` is said of another scope than the claim's bound ``q``: a
    content word of the reference claim that is none of the claim's, or one of the claim's that
    is none of the reference claim's, outside the bounds' own words ("fewer than 5,000 people in Europe" /
    "over 10,000 people"; "Drivers going over 30 mph are fined" / "The speed limit is under 30
    mph"). A bound limits exactly what it is said of, so another scope or
    subject is no conflict (a point value keeps the looser test of ``subject_agrees``)."""
    mine, theirs = [*x.r.tokens, *x.r_tokens], content_tokens(x.c.text)
    own, own_r = _own_words(x.c.text, o), _own_words(x.r.text, q)
    if any(t not in own and not any(token_match(t, m) for m in mine) for t in theirs):
        return True
    # and the other way: "under 500 people in Europe" / "over 500 people" counts a part
    return any(t not in own_r and not any(token_match(t, b) for b in theirs) for t in x.r.tokens)


def _own_words(text: str, q: Quantity) -> set[str]:
    """The content words of the bound right before ``q`` in ``text`` ("exceeds", "fewer")."""
    words = _BOUND_WORDS.search(text, 0, q.start)
    return set(content_tokens(words.group(1))) if words else set()


def _cover_bound_words(x: Context, q: Quantity) -> list[Finding]:
    """The words of the claim's bound ("exceeds", "more than") were compared as the bound: they
    are no predicate word the reference lacks ("exceeds 80 °C" / "stays below 80 °C")."""
    return covered_words(x, _own_words(x.r.text, q))


def _narrower(x: Context, q: Quantity, o: Quantity) -> bool:
    """The reference counts a narrower kind than the claim: a word between its number and the
    claim's counted noun that the claim lacks ("18 gold medals" against "over 20 medals")."""
    if not q.slot.startswith("n:"):
        return False
    words = content_spans(x.c.text[o.end : o.end + 60])
    noun = next((k for k, (t, _, _) in enumerate(words) if token_match(t, q.slot[2:])), None)
    return noun is not None and any(t not in x.r_tokens for t, _, _ in words[:noun])


def _check_bound(x: Context, q: Quantity) -> list[Finding] | None:
    """Check: a bound of the claim ("over $10 million", "fewer than 500 patients") against the
    reference's point values of the same slot. A point past the bound conflicts ("$9.8
    million"); one inside is no conflict (``quantity_matches`` states "over"/"below"/"at least"
    by it, not "up to", which also says the most there can be). The findings when it found a
    conflict, else None."""
    if q.bound not in ("above", "atleast", "below", "upto") or q.interval is None:
        return None
    points = [
        o
        for o in x.c.quantities
        if not o.bound
        and not year_like(o)
        and (not o.slot or slots_compatible(q, o) or both_currencies(q, o))
    ]
    if not points:
        return None
    lo, hi = q.interval
    strict = q.bound in ("above", "below")
    inside = [o for o in points if (lo < o.value < hi if strict else lo <= o.value <= hi)]
    if inside or len(points) > 1 or _narrower(x, q, points[0]):
        # several values, or a narrower count, may be parts of the total ("over 20 medals" /
        # "18 gold medals and 7 silver medals")
        return None
    o = points[0]
    bound = Conflict("bound", _bound_words(x.r.text, q), o.text, o.start, o.end)
    # "at least" is the bound, no predicate word the reference lacks
    return [conflict_finding(FindingKind.VALUE, bound), *_cover_bound_words(x, q)]


def _check_year_binding(x: Context, q: Quantity, q_year: float) -> list[Finding]:
    """Check: a value bound to a year. The value is there but bound to another year: the
    number of that year in the reference (same slot) conflicts; without one the claim's
    pairing is not stated."""
    c = x.c
    bound = [
        o for o in c.quantities if not year_like(o) and slots_compatible(q, o) and bound_year(c, o) == q_year
    ]
    if bound and not q.loose and not bound[0].loose:
        o = bound[0]
        kind = value_kind(q, o)
        other = Conflict(kind, f"{q.text} in {q_year:g}", f"{o.text} in {q_year:g}", o.start, o.end)
        return [conflict_finding(FindingKind.VALUE, other)]
    return [unstated(FindingKind.VALUE, f"{q.text} in {q_year:g}")]


def _check_value(x: Context, q: Quantity) -> list[Finding]:
    """Check: quantity (not a year). Stated by an equal value of the slot (bound to the same
    year); else a range decides (``_check_range``); else another exact value of the slot
    conflicts; else the value is missing. An ordinal is compared only where the reference
    states an ordinal, and an ordinal word only ever states (``ordinal_word``)."""
    c = x.c
    if q.ordinal and not any(o.ordinal for o in c.quantities):
        return []
    same = [o for o in c.quantities if not year_like(o) and quantity_matches(q, o)]
    rival = None if same or not q.ordinal else ordinal_rival(x.r.text, q, c)
    if rival is not None:
        return [
            conflict_finding(
                FindingKind.VALUE, Conflict("ordinal", q.text, rival.text, rival.start, rival.end)
            )
        ]
    if ordinal_word(q) and not same:
        return []
    decided = None if same else _check_opposite_bound(x, q)
    decided = decided if decided is not None else _check_bound(x, q)
    decided = decided if decided is not None or same else _check_range(x, q)
    if decided is not None:
        return decided
    q_year = bound_year(x.r, q)
    if same and (q_year is None or any(bound_year(c, o) in (None, q_year) for o in same)):
        both_bounds = q.bound and any(o.bound for o in same)
        return [
            stated(FindingKind.VALUE, "q:" + q.text.lower(), q.text),
            *(_cover_bound_words(x, q) if both_bounds else ()),
        ]
    if same and q_year is not None:
        return _check_year_binding(x, q, q_year)
    rivals = [
        o
        for o in c.quantities
        if (slots_compatible(q, o) or q.slot == o.slot == "time" or both_currencies(q, o))
        and ((not q.loose and not o.loose) or approximation_rival(x.r.text, q, x.c.text, o))
        and not other_measure(x.r.text, q, x.c.text, o)
    ]
    zero = None if rivals else _zero_subject(x, q)
    if rivals:
        o = rivals[0]
        unit_only = values_equal(q.raw, o.raw) and q.unit != o.unit
        other = Conflict(value_kind(q, o), q.text, o.text, o.start, o.end, unit_only=unit_only)
        return [conflict_finding(FindingKind.VALUE, other)]
    if zero is not None:
        return [
            conflict_finding(
                FindingKind.VALUE, Conflict("number", q.text, zero.group(0), zero.start(), zero.end())
            )
        ]
    return [unstated(FindingKind.VALUE, q.text)]


#: a subject that counts nobody: "No one was injured", "Nobody survived", "None of the
#: passengers ...", "No passengers were hurt"
_ZERO = re.compile(
    r"^\s*(?:no\s+one|no-one|nobody|none(?:\s+of\s+the\s+\w+)?|no\s+(?!longer\b|more\b|doubt\b|matter\b|other\b|single\b|further\b|additional\b)\w+)(?=\s)"
    r"(?!\s+(?:else|other|more|further|additional)\b)",
    re.I,
)


def _zero_subject(x: Context, q: Quantity) -> re.Match[str] | None:
    """The reference claim's subject that counts nobody ("No one was killed in the fire")
    against the claim's count of its subject ("Two firefighters were killed in the fire"):
    the count opens the claim (after an article or "only") and is at least one, a noun after
    "No" is the claim's counted noun ("No passengers", not "No residents"), the verb after the
    subject is a word of the claim, and the rest of the claim's words are the reference's
    (checked by ``subject_agrees`` on the conflict)."""
    if (
        q.bound
        or q.value < 1
        or not re.fullmatch(r"\s*(?:(?:the|only|just|a|an|at\s+least)\s+)?", x.r.text[: q.start], re.I)
    ):
        return None
    zero = _ZERO.match(x.c.text)
    if zero is None:
        return None
    counted = content_tokens(x.r.text[q.end : q.end + 30])[:1]
    named = content_tokens(zero.group(0))  # "No passengers" names its noun, "No one" nobody
    if named and not (counted and token_match(named[-1], counted[0])):
        return None  # "No residents were injured" says nothing of firefighters
    # the verb after the subject is the claim's ("were injured" / "were injured", not "failed")
    verb = re.match(r"\s+(?:(?:was|were|is|are|has|have|had|been|be)\s+)*([\w-]+)", x.c.text[zero.end() :])
    stem = content_tokens(verb.group(1)) if verb else []
    if not stem or not any(token_match(stem[0], t) for t in x.r.tokens):
        return None
    # the rest of the two claims is one statement: "developed a rash" / "developed a fever",
    # "were fired" / "were fired last year" say different things
    mine = content_tokens(x.r.text[q.end :])[1:] if counted else content_tokens(x.r.text[q.end :])
    theirs = content_tokens(x.c.text[zero.end() :])
    same = all(any(token_match(a, b) for b in theirs) for a in mine) and all(
        any(token_match(b, a) for a in mine) for b in theirs
    )
    return zero if same else None


def check_quantities(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: quantities and years, one per value of the claim (``_check_year``,
    ``_check_value``), in the claim's order."""
    c_years = years_of(x.c)
    found: list[Finding] = []
    for q in x.r.quantities:
        found.extend(_check_year(x, q, c_years) if year_like(q) else _check_value(x, q))
    return tuple(found)
