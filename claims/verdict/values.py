"""Value helpers: dates part by part, years bound to numbers, value words, datelines, range membership.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from functools import lru_cache

from claims.facets import (
    DateFacet,
    Facets,
    Quantity,
    content_tokens,
    dimension_stems,
    extract,
    quantity_matches,
    slots_compatible,
    year_matches,
)
from claims.parses import parse
from claims.verdict.text import clause_spans
from claims.verdict.thresholds import T


def year_like(q: Quantity) -> bool:
    return q.slot == "year"


def date_states(d: DateFacet, e: DateFacet) -> bool:
    return all(
        getattr(d, part) is None or getattr(d, part) == getattr(e, part) for part in ("year", "month", "day")
    )


def date_conflict(d: DateFacet, e: DateFacet) -> str | None:
    """Name of the first date part where both have a value and they differ (None: no conflict)."""
    if d.year is not None and e.year is not None and d.year != e.year:
        return "year"
    if d.month is not None and e.month is not None and d.month != e.month:
        if d.year is not None and e.year is not None or d.day is not None and e.day is not None:
            return "month"
        return None
    if d.day is not None and e.day is not None and d.day != e.day and d.month == e.month:
        return "day"
    return None


def value_kind(q: Quantity, o: Quantity) -> str:
    """Readable name of the slot of a value conflict ("number of employees", "percentage")."""
    kind = q.slot if q.slot in ("age", "time", "score") else "number"
    if q.slot.startswith("n:"):
        kind = f"number of {o.unit or q.unit}" if (o.unit or q.unit) else "number"
    elif q.slot == "percent":
        kind = "percentage"
    elif q.slot == "pp":
        kind = "percentage points"
    elif q.slot.startswith("currency"):
        kind = "amount"
    if q.slot.startswith(("length", "mass", "volume", "area", "speed", "data", "duration", "temperature")):
        kind = q.slot.split("_")[0]
    return kind


def bound_year(f: Facets, q: Quantity) -> float | None:
    """The year a number belongs to: the nearest point year (or dated year) in the same clause
    ("120 employees in 2020 and 450 employees in 2023" binds 120 to 2020, 450 to 2023).
    None when the clause has no year or the number is not bound to one (a fronted "In 2020,"
    is another clause and then applies to every number)."""
    for a, b in clause_spans(f.text):
        if a <= q.start and q.end <= b:
            years = [(y.start, y.end, y.raw) for y in f.quantities if year_like(y) and y.lo is None]
            years += [(d.start, d.end, float(d.year)) for d in f.dates if d.year]
            inside = [(s, e, v) for s, e, v in years if a <= s and e <= b]
            if not inside:
                return None
            s, e, v = min(inside, key=lambda t: min(abs(t[0] - q.end), abs(q.start - t[1])))
            return v
    return None


def _value_tokens(f: Facets) -> set[str]:
    """The content tokens of ``f``'s values: its numbers and dates (with their month names)."""
    values = [q.text for q in f.quantities if not ordinal_word(q)] + [d.text for d in f.dates]
    return set(content_tokens(" ".join(values)))


def ordinal_word(q: Quantity) -> bool:
    """An ordinal in words ("second", "first"): compared as a value where the reference states it
    (so "2nd" is "second"), otherwise as a word; never missing, never a conflict."""
    return q.ordinal and q.text[:1].isalpha()


def noun_ordinals(f: Facets) -> list[Quantity]:
    """The ordinals of ``f`` that order a noun ("its eighth consecutive trophy", "the 2nd
    album"): not a capitalised word of a name ("First Division", "Second Vatican Council"), not
    an adverb of its verb ("first reached", "came second"; spaCy's part of speech or an adverbial
    dependency), not a part of a hyphenated word ("first-class cricket", "second-hand"). Needs
    spaCy (none without a parse)."""
    t = f.text
    ordinals = [
        q
        for q in f.quantities
        if q.ordinal
        and not q.text[:1].isupper()
        and "-" not in (t[q.start - 1 : q.start] + t[q.end : q.end + 1])
    ]
    doc = parse(f.text) if ordinals else None
    if doc is None:
        return []
    out = []
    for q in ordinals:
        toks = [t for t in doc if t.idx < q.end and t.idx + len(t) > q.start]
        if not any(t.pos_ == "ADV" or t.dep_ in ("advmod", "npadvmod") for t in toks):
            out.append(q)
    return out


def word_tokens(r: Facets) -> list[str]:
    """The claim's content tokens other than its values: values are compared as facets, not
    as words."""
    values = _value_tokens(r)
    return [t for t in r.tokens if t not in values] or r.tokens


def stated_dimensions(r: Facets, c: Facets) -> list[str]:
    """The claim's words that name the dimension of a value ``c`` states in that dimension
    ("temperatures" is stated by "between -20 °C and 50 °C"; ``claims/data/dimension_words.tsv``)."""
    dims: set[str] = set()
    for o in c.quantities:
        dims |= dimension_stems(o.slot)
    return sorted({t for t in r.tokens if t in dims and t not in c.tokens})


RELATIVE_YEAR = re.compile(
    r"\b(?:(?:last|next|previous|following|coming|past)\s+(?:year|season|decade)|years?\s+(?:ago|earlier|later|before)"
    r"|the\s+year\s+(?:before|after))\b",
    re.I,
)
_DATELINE_WORDS = frozenset(
    content_tokens("monday tuesday wednesday thursday friday saturday sunday am pm gmt utc")
)
#: a citation's access date ("Retrieved 23 October 2009.", "Accessed 5 May 2020", "Viewed ...")
#: dates a visit to a page, not the report
_ACCESS_DATE = re.compile(r"^\W*(?:retrieved|accessed|viewed|visited)\b", re.I)


@lru_cache(maxsize=65536)
def is_dateline(text: str) -> bool:
    """A calendar date with at most one other word besides weekdays and times ("May 20, 2019",
    "Updated: Friday 23 March 2018 10:15 AM", "Published 2018-03-07T07:25"): the date of the
    report it heads, not of an event ("The treaty was signed on 3 March 1921" is no dateline),
    and no finite verb (``has_finite_verb``: "He was released in April 2010" is no dateline);
    nor is a citation's access date ("Retrieved 23 October 2009.", "Viewed 5 May 2020"). Cached:
    every response claim is compared with the same reference claims."""
    if _ACCESS_DATE.match(text):
        return False
    c = extract(text)
    if not any(e.year is not None and e.month is not None for e in c.dates):
        return False
    values = _value_tokens(c)
    words = [t for t in c.tokens if t not in values and t not in _DATELINE_WORDS and not re.search(r"\d", t)]
    return len(words) <= 1 and not has_finite_verb(text)


#: tags of a finite verb; a past form (VBD) counts with a nominal subject or as an auxiliary
#: ("Last updated 12 May 2020" is read as "Last" subject of "updated": no event)
_FINITE_TAGS = frozenset({"VBZ", "VBP", "MD"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})


def has_finite_verb(text: str) -> bool:
    """``text`` has a finite verb in the parse (``claims.parses.parse``): a present or modal
    form, an auxiliary ("He was released in April 2010"), or a past form with a noun or pronoun
    subject ("It rained in April 2010"). A dateline has none ("Posted on March 3, 2018")."""
    doc = parse(text)
    for t in doc if doc is not None else ():
        if t.tag_ in _FINITE_TAGS or (t.tag_ == "VBD" and t.dep_ in ("aux", "auxpass")):
            return True
        if t.tag_ == "VBD" and any(
            k.dep_ in _SUBJECTS and k.tag_.startswith(("NN", "PRP")) for k in t.children
        ):
            return True
    return False


def _inside(v: float, lo: float, hi: float) -> bool:
    eps = T.range_tolerance * max(1.0, abs(v))
    return lo - eps <= v <= hi + eps


def range_relation(q: Quantity, c: Facets) -> tuple[str, Quantity | None]:
    """How the claim's value ``q`` relates to the ranges and bounds the reference states in the
    same slot (``Quantity.interval``): ``("inside", o)`` when it lies in one of them,
    ``("outside", o)`` when it lies in none, ``("", None)`` when there is none or the claim's
    value is only approximate ("about 70 °C").

    A point, an end of a claimed range and a reached maximum ("up to 70 °C") must lie inside;
    another bound ("at least 18", "more than 500") is outside only when the two sets of
    values do not meet."""
    ranged = [o for o in c.quantities if o.interval is not None and slots_compatible(q, o)]
    if not ranged or (q.loose and not q.bound):
        return "", None
    for o in ranged:
        lo, hi = o.interval or (0.0, 0.0)
        if q.bound in ("", "range", "upto"):
            if _inside(q.value, lo, hi):
                return "inside", o
        elif q.interval is not None and q.interval[0] <= hi and lo <= q.interval[1]:
            return "inside", o
    return "outside", ranged[0]


def range_span(c: Facets, o: Quantity) -> tuple[int, int]:
    """Span in ``c.text`` of the range or bound ``o`` belongs to (both ends of a range, and the
    word that opens it: "between -20 °C and 50 °C", "up to 60 °C")."""
    ends = [x for x in c.quantities if x.interval == o.interval and x.bound == o.bound]
    start, end = min(x.start for x in ends), max(x.end for x in ends)
    m = re.search(
        r"(?:between|from|up to|at most|at least|more than|less than|over|under)\s+$", c.text[:start], re.I
    )
    return (m.start() if m else start), end


def shares_value(r: Facets, c: Facets) -> bool:
    """The claim and the reference claim share a value: a year, a quantity, or a date (one in
    the claim's year: a dateline can give the year of "November 2")."""
    years = [q for q in c.quantities if q.slot == "year"]
    for q in r.quantities:
        if q.slot == "year":
            if any(year_matches(q, y) for y in years) or any(d.year == q.raw for d in c.dates):
                return True
        elif any(quantity_matches(q, o) for o in c.quantities if o.slot != "year"):
            return True
    # a calendar date in the claim's year (a dateline can give the year of "November 2")
    return any(
        date_states(d, e) or (d.year is not None and e.year == d.year and e.month is not None)
        for d in r.dates
        for e in c.dates
    )
