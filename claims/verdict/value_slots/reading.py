"""Reading the values of a text for the value-slot check: the values (years, dates, numbers,
ordinals, names), the slot each fills in the parse, whether two values agree after normalisation,
whether a reference value is one of several, and the decision over the statements of a slot.

Part of ``claims.verdict.value_slots`` (its docstring: the method).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from claims.facets import (
    DateFacet,
    Facets,
    Quantity,
    TokenSet,
    content_tokens,
    extract,
    quantity_matches,
    slots_compatible,
    year_matches,
    year_overlaps,
)
from claims.facets.rounding import approximation_misses, is_approximation
from claims.parses import parse
from claims.spacy_pipeline import entity_type
from claims.verdict.slot_names import other_given_name
from claims.verdict.text import clause_spans
from claims.verdict.time_bounds import TimePoint, date_parts, in_range, month_ranges
from claims.verdict.values import bound_year, date_conflict, date_states

MAX_NAME_WORDS = 5
#: roles a name fills as an argument; a name modifying a noun ("the FIFA world cup") has no slot
_NAME_ROLES = frozenset({"subj", "obj", "attr", "appos", "dative", "agent"})
#: roles of a year or date that name an event ("the 2003 Oslo marathon", "the 1932 Grand Prix"):
#: another year there is another event, not another value
_EVENT_ROLES = frozenset({"nummod", "compound", "amod", "poss", "nmod"})
#: the spaCy entity types read as names
NAME_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT"})
#: names of places: after a preposition of place a place may be named at any granularity
PLACE_TYPES = frozenset({"GPE", "LOC", "FAC"})
_PLACE_PREPS = frozenset(
    {"in", "at", "near", "from", "to", "into", "across", "within", "outside", "throughout"}
)
#: dependency labels of a name's role (subject, object, complement, apposition)
_ROLES = {
    "nsubj": "subj",
    "nsubjpass": "obj",
    "dobj": "obj",
    "attr": "attr",
    "appos": "appos",
    "poss": "poss",
}

YEAR = re.compile(r"\b(?:1[0-9]|20)\d\d\b")
_DIGIT = re.compile(r"\d")
_MONTH = re.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\b\.?", re.I)
_ORDINAL = re.compile(
    r"\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
    r"|eleventh|twelfth|\w+teenth|\w+tieth)\b",
    re.I,
)
_CAPITAL = re.compile(r"\b[A-Z]")
#: a name as spaCy's span should read: capitalised words (an article first), no digits ("the
#: 306th", "F-15J" are no names of a slot here)
_CLEAN_NAME = re.compile(r"^(?:[Tt]he\s+)?[A-Z][^\d]*$")
#: words before a year that make it an approximation ("around 1900", "the early 1990s") and
#: that make it a bound ("before 1492", "since 1938": compared only with a bound of the same
#: word); the facets also count "the" and "and" ("the 2003 marathon" is a point here)
_YEAR_APPROX = re.compile(
    r"\b(?:around|circa|c\.|ca\.|about|approximately|nearly|almost|roughly|some|early|late|mid|estimated)[\s-]*$",
    re.I,
)
_ARTICLE_END = re.compile(r"\bthe\s+$", re.I)
_YEAR_BOUND = re.compile(
    r"\b(before|after|until|till|since|by|from|between|pre|post|within|over|under|at least|at most)[\s-]*$",
    re.I,
)
PREFILTER = {"year": YEAR, "date": _MONTH, "number": _DIGIT, "ordinal": _ORDINAL, "name": _CAPITAL}


@dataclass(frozen=True)
class Value:
    """A value of a claim text: ``kind`` one of "year", "date", "number", "ordinal", "name";
    ``text`` as written at ``start:end``; the facet it is (``q`` a quantity, ``d`` a date) or,
    for a name, its spaCy entity type ``label``."""

    kind: str
    text: str
    start: int
    end: int
    q: Quantity | None = None
    d: DateFacet | None = None
    label: str = ""
    #: an approximation or a range ("about 40", "around 1900", "1992–93"): a conflict only as
    #: ``approx`` allows
    loose: bool = False
    #: a number written as an approximation ("about 1.3 million"): it conflicts with a point
    #: value it cannot approximate (``rounding.approximation_misses``)
    approx: bool = False
    #: the word of a bound before it ("since", "before"; "" for a point): a bound conflicts only
    #: with a bound of the same word
    bound: str = ""
    #: a month that ends a month range ("from March to June 2004"): the range (``month_range``)
    span: TimePoint | None = None


def _inside(s: int, e: int, spans: Sequence[DateFacet]) -> bool:
    return any(d.start <= s and e <= d.end for d in spans)


def fact_values(f: Facets) -> list[Value]:
    """The years, dates with a month (a month range as its last month), numbers with a slot
    and ordinals of ``f`` (points only)."""
    ranges = month_ranges(f.text, f.dates)
    out = [
        Value("date", d.text, d.start, d.end, d=d, span=next((r for r in ranges if r.end == d.end), None))
        for d in f.dates
        if d.month is not None and not any(r.start <= d.start and d.end < r.end for r in ranges)
    ]
    for d in f.dates:
        if d.month is None and d.year is not None:
            q = Quantity(float(d.year), float(d.year), "year", "", d.text, d.start, d.end)
            out.append(Value("year", d.text, d.start, d.end, q=q))
    for q in f.quantities:
        if _inside(q.start, q.end, f.dates):
            continue
        if q.slot == "year":
            before = f.text[max(0, q.start - 25) : q.start]
            season = re.match(r"[/–-]\d\d\b", f.text[q.end : q.end + 3]) is not None  # "1992/93"
            approx = season or _YEAR_APPROX.search(before) is not None
            # "after the 1960s": the bound's word may stand before an article
            bound = m.group(1).lower() if (m := _YEAR_BOUND.search(_ARTICLE_END.sub("", before))) else ""
            if q.lo is not None and q.hi is not None and bound in ("from", "between"):
                bound = ""  # both ends given: a closed range ("from 1995 to 2000"), no bound
            loose = q.lo is not None or approx
            out.append(Value("year", q.text, q.start, q.end, q=q, loose=loose, approx=approx, bound=bound))
        elif q.ordinal:
            out.append(Value("ordinal", q.text, q.start, q.end, q=q))
        elif q.slot:
            approx = is_approximation(f.text, q)
            out.append(
                Value("number", q.text, q.start, q.end, q=q, loose=q.loose or bool(q.bound), approx=approx)
            )
    return out


def names(text: str) -> list[Value]:
    """The names of ``text`` (spaCy entities of ``NAME_TYPES``)."""
    doc = parse(text)
    if doc is None or not len(doc):
        return []
    entity_type(doc[0])  # runs the recogniser on this parse
    return [
        Value("name", e.text, e.start_char, e.end_char, label=e.label_)
        for e in doc.ents
        if e.label_ in NAME_TYPES and _CLEAN_NAME.match(e.text) and len(e.text.split()) <= MAX_NAME_WORDS
    ]


def claim_values(text: str) -> list[Value]:
    """Every value of ``text`` the check compares (module docstring), in text order."""
    return sorted(fact_values(extract(text)) + names(text), key=lambda v: v.start)


def masked_text(text: str, values: Sequence[Value]) -> str:
    """``text`` with the spans of ``values`` blanked (same length, so offsets hold)."""
    chars = list(text)
    for v in values:
        chars[v.start : v.end] = " " * (v.end - v.start)
    return "".join(chars)


def token_at(doc: Any, start: int, end: int) -> Any | None:
    """The token that heads the characters ``start:end`` in the parse (None: no token there)."""
    toks = [t for t in doc if t.idx < end and t.idx + len(t) > start]
    ids = {t.i for t in toks}
    return next((t for t in toks if t.head.i not in ids or t.head.i == t.i), None)


def _stems(tok: Any) -> set[str]:
    return set(content_tokens(tok.text))


@lru_cache(maxsize=65536)
def slot_of(text: str, start: int, end: int) -> tuple[str, frozenset[str]] | None:
    """The role of the value at ``start:end`` of ``text`` ("subj", "obj", "prep:in", or the
    dependency label; the agent of a passive, "painted by X", is "subj" as in the active, its
    subject "obj") and the stems of the words it depends on: the head of its preposition,
    the noun it counts or orders, the verb it is an argument of; a verb adds its object or
    complement ("made his debut in 1991": made, debut), a noun the verb or noun it belongs
    to when that noun is its object or complement ("won its seventh trophy"). None when the
    parse gives the value no head."""
    doc = parse(text)
    tok = token_at(doc, start, end) if doc is not None else None
    while tok is not None and tok.dep_ == "conj" and tok.head.i != tok.i:
        tok = tok.head  # "in 2003 and 2005": the list's first value holds the slot
    if tok is None or tok.head.i == tok.i:
        return None
    role, head = _ROLES.get(tok.dep_, tok.dep_), tok.head
    if tok.dep_ == "pobj" and head.dep_ == "agent" and head.head.i != head.i:
        role, head = "subj", head.head  # the agent of a passive is the active's subject
    elif tok.dep_ == "pobj" and head.head.i != head.i:
        role, head = f"prep:{head.lower_}", head.head
    anchors = _stems(head)
    if head.pos_ in ("VERB", "AUX"):
        for k in head.children:
            if k.dep_ in ("dobj", "attr", "acomp", "oprd", "nsubjpass") and k.i != tok.i:
                anchors |= _stems(k)
    elif head.dep_ in ("dobj", "attr") and head.head.i != head.i:
        anchors |= _stems(head.head)  # "won its seventh trophy": win, trophy
    return (role, frozenset(anchors)) if anchors else None


def _agent_verb(noun: Any) -> set[str]:
    """The stem of the verb an agent noun is made from ("founder" -> found, "painter" -> paint,
    "creator" -> create): the noun less "-er"/"-or" read as that verb's past tense; empty for a
    word of another shape."""
    w = noun.lower_
    if noun.pos_ != "NOUN" or len(w) < 5 or w[-2:] not in ("er", "or"):
        return set()
    return set(content_tokens(w[:-2] + "ed")) - set(content_tokens(w))


@lru_cache(maxsize=65536)
def agent_slot(text: str, start: int, end: int) -> tuple[str, frozenset[str]] | None:
    """The slot a name fills through an agent noun in apposition, either way round ("the firm's
    founder, Jonas Berg" / "Jonas Berg, the founder of the firm"): the subject ("subj") of the
    noun's verb, anchored on that verb alone (found), as in "Jonas Berg founded the firm": the
    noun's possessor ("the board's member") is no anchor, so a noun that is no agent noun gives
    no slot a verb of the claim shares. None without such a noun."""
    doc = parse(text)
    tok = token_at(doc, start, end) if doc is not None else None
    if tok is None:
        return None
    nouns = [tok.head] if tok.dep_ == "appos" and tok.head.i != tok.i else []
    nouns += [k for k in tok.children if k.dep_ == "appos"]
    for noun in nouns:
        verb = _agent_verb(noun)
        if not verb:
            continue
        return "subj", frozenset(verb)
    return None


def slots_of(text: str, start: int, end: int) -> list[tuple[str, frozenset[str]]]:
    """Every slot of the value at ``start:end``: its ``slot_of`` and its ``agent_slot``."""
    return [sl for sl in (slot_of(text, start, end), agent_slot(text, start, end)) if sl is not None]


def same_slot(v: Value, a: tuple[str, frozenset[str]], b: tuple[str, frozenset[str]]) -> bool:
    """Two values fill the same slot: a word they depend on in common and, for a name, the same
    role (a subject is not an object; "born in X" / "died in X" have no word in common)."""
    if v.kind == "name" and a[0] != b[0]:
        return False
    theirs = TokenSet(b[1])
    return any(t in theirs for t in a[1])


@lru_cache(maxsize=65536)
def context(text: str) -> TokenSet:
    """The content tokens of a reference claim outside its years, dates and numbers."""
    return TokenSet(content_tokens(masked_text(text, fact_values(extract(text)))))


def _as_year(v: Value) -> Value | None:
    """A date's year as a year value ("3 May 1993" -> 1993), None without a year."""
    d = v.d
    if d is None or d.year is None:
        return None
    q = Quantity(float(d.year), float(d.year), "year", "", d.text, d.start, d.end)
    return Value("year", d.text, d.start, d.end, q=q)


def _as_date(v: Value) -> Value | None:
    """A point year as a date of that year only (its precision), None for a range."""
    q = v.q
    if q is None or v.loose or v.bound:
        return None
    return Value("date", v.text, v.start, v.end, d=DateFacet(int(q.raw), None, None, v.text, v.start, v.end))


@lru_cache(maxsize=65536)
def reference_values(text: str, kind: str) -> tuple[Value, ...]:
    """The values of a reference claim that may state a claim's value of ``kind``: a year is
    stated by a year or a date's year, a date by a date or a year (to its precision)."""
    if kind == "name":
        return tuple(names(text))
    found = fact_values(extract(text))
    out = [v for v in found if v.kind == kind]
    if kind == "year":
        out += [y for v in found if v.kind == "date" and (y := _as_year(v)) is not None]
    elif kind == "date":
        out += [d for v in found if v.kind == "year" and (d := _as_date(v)) is not None]
    return tuple(out)


def words(text: str) -> set[str]:
    return set(content_tokens(text))


def two_people(v: Value, o: Value) -> bool:
    """Two names with one surname and two given names (``slot_names.other_given_name``:
    "Maria Olsen" / "Marit Olsen"), one of which spaCy reads as a person (it may call the other
    an ORG: "Sigrid Dahl"); names of no person ("West Africa" / "North Africa") are left to the
    other checks."""
    return "PERSON" in (v.label, o.label) and other_given_name(v.text, o.text)


#: the span (last year less first) of a century ("the 19th century": 1801-1900): a range that
#: wide is counted in two ways ("1800" may be in the 19th century) and is left to the year
#: check (``quantity_checks``); narrower ranges (a decade, "from 1995 to 2000") are compared
CENTURY_SPAN = 99


def year_range_and_point(v: Value, o: Value) -> bool | None:
    """A closed year range against a point year, either way round ("between 1995 and 2000",
    "from 1995 to 2000", "the 1990s" / "in May 1998"): whether they share a year (a point
    inside the range is no conflict, a point outside it is one). None when the two are not
    such a pair: a range written as an approximation or a season ("the late 1990s",
    "1992–93"), a bound ("before 1998"), a century (``CENTURY_SPAN``), two points or two
    ranges. A month range ("from March to June 2004", ``Value.span``) against a month is
    compared the same way (None where the month is too coarse to place)."""

    def closed(x: Value) -> bool:
        q = x.q
        return bool(
            q is not None and q.lo is not None and q.hi is not None and not x.approx and not x.bound
            and q.hi - q.lo < CENTURY_SPAN
        )  # fmt: skip

    def point(x: Value) -> bool:
        return x.q is not None and not x.loose and not x.bound

    for a, b in ((v, o), (o, v)):
        if closed(a) and point(b):
            assert a.q is not None and b.q is not None
            return year_overlaps(a.q, b.q)
    for a, b in ((v, o), (o, v)):
        if a.span is not None and b.d is not None and b.span is None:
            return in_range(a.span, date_parts(b.d))
    return None


def agrees(v: Value, o: Value) -> bool:
    """``o`` states ``v``'s value after normalisation (units, rounding, number words, date
    precision, a year inside a range), or may state it (an approximation, a bound)."""
    if v.kind == "name":
        # one surname with two given names is two people ("Maria Olsen" / "Marit Olsen")
        return bool(words(v.text) & words(o.text)) and not two_people(v, o)
    if v.kind == "date":
        assert v.d is not None and o.d is not None
        if (inside := year_range_and_point(v, o)) is not None:
            return inside
        if v.span is not None or o.span is not None:
            return True  # two ranges, or a point too coarse to place: no conflict
        return date_conflict(v.d, o.d) is None or date_states(v.d, o.d)
    assert v.q is not None and o.q is not None
    if v.kind == "number" and v.approx != o.approx and slots_compatible(v.q, o.q):
        a, p = (v, o) if v.approx else (o, v)  # "about 1.3 million" / "1.2 million"
        assert a.q is not None and p.q is not None
        return p.loose or not approximation_misses(a.q, p.q)
    if v.kind == "year" and (closed := year_range_and_point(v, o)) is not None:
        return closed
    if v.loose or o.loose or v.bound != o.bound:
        return True
    if v.kind == "year":
        return year_matches(v.q, o.q) or year_overlaps(v.q, o.q)
    if o.q.interval is not None:
        return True
    if v.kind == "number" and not slots_compatible(v.q, o.q):
        return True
    return quantity_matches(v.q, o.q) or quantity_matches(o.q, v.q)


def another_event(claim: Facets, v: Value, text: str, o: Value) -> bool:
    """A number bound to another year than the claim's; a year or date of a count that differs
    ("120 staff in 2020" / "450 staff in 2023"), or of the claim's second or later event."""
    if v.kind in ("year", "date"):
        mine, theirs = fact_values(claim), fact_values(extract(text))
        later = [x for x in mine if x.kind == "ordinal" and x.q and x.q.value >= 2]  # "her second son"
        if later and not any(agrees(x, y) for x in later for y in theirs if y.kind == "ordinal"):
            return True
        pairs = [(x, y) for x in mine for y in theirs if x.kind == y.kind == "number"]
        return any(x.q and y.q and slots_compatible(x.q, y.q) and not agrees(x, y) for x, y in pairs)
    if v.kind != "number" or v.q is None or o.q is None:
        return False
    mine, theirs = (
        _clause_years(claim.text, v),
        _clause_years(text, o) or list(reference_values(text, "year")),
    )
    if mine and not any(agrees(x, y) for x in mine for y in theirs):  # "10 trophies between 1989
        return True  # and 2005" / "58 trophies"; "In 1995, he scored 12 goals" dates every clause
    a, b = bound_year(claim, v.q), bound_year(extract(text), o.q)
    return a is not None and b is not None and a != b


def _clause_years(text: str, v: Value) -> list[Value]:
    """The years of the clause of ``text`` that holds ``v`` (those of its dates too)."""
    a, b = next(((s, e) for s, e in clause_spans(text) if s <= v.start < e), (0, len(text)))
    return [y for y in reference_values(text, "year") if a <= y.start < b]


def lone_range(text: str, o: Value, kind: str) -> bool:
    """``o`` is a range (years, or months: ``Value.span``) and ``text`` holds no other value of
    ``kind`` outside it in its slot (``same_slot``; one whose slot is unread counts), so a point
    outside contradicts it: not two ranges of one slot ("from 1990 to 1994 and from 1998 to
    2002"), but a range beside a year of another event ("after a fire in 1790")."""
    if o.span is not None:
        lo, hi = o.span.start, o.span.end
    elif o.q is not None and (o.q.bound == "range" or o.q.lo is not None):
        lo, hi = o.start, o.end
    else:
        return False
    slot = slot_of(text, o.start, o.end)
    others = [slot_of(text, x.start, x.end) for x in reference_values(text, kind) if not lo <= x.start < hi]
    return not any(slot is None or t is None or same_slot(o, slot, t) for t in others)


def listed(text: str, o: Value, kind: str) -> bool:
    """``o`` is one of several values of one slot: coordinated in the parse ("in 2003 and 2005",
    "Lyon, Lille and Nantes", "in 2009 and again in 2011"), the end of a range ("from 4 to 6
    km", "1992–93"), or next to another value of its kind in the same slot in its clause."""
    if o.q is not None and (o.q.bound == "range" or o.q.lo is not None):
        return True
    doc = parse(text)
    tok = token_at(doc, o.start, o.end) if doc is not None else None
    prep = tok.head if tok is not None and tok.dep_ == "pobj" else None  # "in 2009 and again in 2011"
    for t in (tok, prep):
        if t is not None and (t.dep_ == "conj" or any(k.dep_ == "conj" for k in t.children)):
            return True
    slot = slot_of(text, o.start, o.end)
    a, b = next(((s, e) for s, e in clause_spans(text) if s <= o.start < e), (0, len(text)))
    for x in reference_values(text, kind):
        other = slot_of(text, x.start, x.end) if a <= x.start < b and x.text != o.text else None
        if other is not None and slot is not None and same_slot(o, slot, other):
            return True
    return False


def place_slot(text: str, v: Value, slot: tuple[str, frozenset[str]]) -> bool:
    """A place name after a preposition of place: stated at any granularity."""
    return v.kind == "name" and v.label in PLACE_TYPES and slot[0].removeprefix("prep:") in _PLACE_PREPS


@dataclass(frozen=True)
class Statement:
    """A reference claim ``j`` (context coverage ``cov``) stating the slot of a claim's value with
    ``o``; ``listed``: ``o`` is one of several values (``listed``); ``lone``: ``o`` is a range and
    the only value of its kind in the reference claim (``lone_range``)."""

    j: int
    o: Value
    cov: float
    listed: bool
    lone: bool = False


def names_event_or_modifies(v: Value, slot: tuple[str, frozenset[str]]) -> bool:
    """A year or date that names an event (``_EVENT_ROLES``), a name that is no argument
    (``_NAME_ROLES``): neither has a slot of its own."""
    if v.kind in ("year", "date"):
        return slot[0] in _EVENT_ROLES
    if v.kind == "name":
        return not (slot[0] in _NAME_ROLES or slot[0].startswith("prep:"))
    return False


def decide(v: Value, found: list[Statement]) -> Statement | None:
    """The statement that contradicts ``v``: none states ``v``'s value, none lists several
    values, and all give one and the same other value (a single-valued slot); a bound ("since
    2006") is no statement of a point claim's slot unless it holds the claim's year."""
    found = [s for s in found if v.bound or not s.o.bound or (v.q and s.o.q and v.q.value == s.o.q.value)]
    if not found or any(
        agrees(v, s.o) or (s.listed and (not s.lone or year_range_and_point(v, s.o) is None)) for s in found
    ):
        return None
    values = {s.o.text.lower() for s in found}
    if len(values) > 1 and not all(agrees(found[0].o, s.o) for s in found[1:]):
        return None
    return max(found, key=lambda s: s.cov)
