"""Check: a value of the claim set against every statement of its slot in the whole evidence
("made his debut in 1991" / "..., who joined Leeds in 1990, made his debut there in 1993").

Part of ``claims.verdict`` (its docstring: the method). The pairwise checks compare a claim
with its nearest reference claims as wholes; a changed value lowers that similarity, and a long
sentence stating the slot among other facts is rarely nearest. This reads every material one:

1. the claim's values (``claim_values``): years, calendar dates, numbers with a slot (unit or
   counted noun), ordinals, and names (spaCy entities of the types in ``NAME_TYPES``);
2. prefilter (numpy, all reference claims at once): a value of the same type (a year, a digit,
   a month, an ordinal, a capitalised word), the claim's words other than its values covered to
   ``MIN_CONTEXT`` by the reference claim's, the claim's other names all in it;
3. slot (``claims.parses.parse``): the word the value depends on (its preposition's head, the
   noun it counts or orders, its verb with that verb's object or complement) must be a word of
   the reference clause holding its value; for a name also the same role;
4. decision (``slot_conflict``): the slot stated with the claim's value anywhere (after
   normalisation: units, rounding, number words, date precision, a year range) -> no conflict;
   several values for the slot (a list or range in one clause, different values in different
   statements: "visited in 2003 and 2005") -> none; exactly one other point value -> conflict.

Not conflicts by construction: an approximation or a range on either side ("about 40", "around
1900", "1992–93"), a bound against a point or a bound of another word ("before 1492" / "in
1490"; "since 1938" / "since 1941" is a conflict), a number bound to another year than the
claim's (``values._bound_year``) and a year of a count that differs (another measurement), a
place name after a preposition of place (a place is stated at several granularities: "born in
Kansas" / "born in Wichita"), names that share a word ("Kansas" / "Kansas City") or that the
evidence writes as one name ("Daniel" / "LaRusso": "Daniel LaRusso"; ``slot_names``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

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
from claims.parses import parse
from claims.spacy_pipeline import entity_type
from claims.types import ClaimKind, ReferenceClaim
from claims.verdict.findings import _Conflict
from claims.verdict.slot_names import one_name
from claims.verdict.text import _clauses, subject_heads
from claims.verdict.values import _bound_year, _date_conflict, _date_states, _is_dateline, _value_kind

#: least share of the claim's words other than its values that a reference claim must hold
#: (its own values left out) to state the same statement with another value
MIN_CONTEXT = 0.75
#: a name's statement must hold every other word of the claim's clause (the same statement of
#: another name, as the entity swap of ``roles`` asks)
MIN_CONTEXT_NAME = 1.0
#: the most words a name of a slot may have (longer spans are table rows and titles)
MAX_NAME_WORDS = 5
#: roles a name fills as an argument; a name modifying a noun ("the FIFA world cup") has no slot
_NAME_ROLES = frozenset({"subj", "obj", "attr", "appos", "dative", "agent"})
#: roles of a year or date that name an event ("the 2003 Oslo marathon", "the 1932 Grand Prix"):
#: another year there is another event, not another value
_EVENT_ROLES = frozenset({"nummod", "compound", "amod", "poss", "nmod"})
#: the spaCy entity types read as names
NAME_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT"})
#: names of places: after a preposition of place a place may be named at any granularity
_PLACE_TYPES = frozenset({"GPE", "LOC", "FAC"})
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

_YEAR = re.compile(r"\b(?:1[0-9]|20)\d\d\b")
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
_YEAR_BOUND = re.compile(
    r"\b(before|after|until|till|since|by|from|between|pre|post|within|over|under|at least|at most)[\s-]*$",
    re.I,
)
_PREFILTER = {"year": _YEAR, "date": _MONTH, "number": _DIGIT, "ordinal": _ORDINAL, "name": _CAPITAL}


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
    #: an approximation or a range ("about 40", "around 1900", "1992–93"): never a conflict
    loose: bool = False
    #: the word of a bound before it ("since", "before"; "" for a point): a bound conflicts only
    #: with a bound of the same word
    bound: str = ""


def _inside(s: int, e: int, spans: Sequence[DateFacet]) -> bool:
    return any(d.start <= s and e <= d.end for d in spans)


def _fact_values(f: Facets) -> list[Value]:
    """The years, dates with a month, numbers with a slot and ordinals of ``f`` (points only)."""
    out = [Value("date", d.text, d.start, d.end, d=d) for d in f.dates if d.month is not None]
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
            loose = q.lo is not None or season or _YEAR_APPROX.search(before) is not None
            bound = m.group(1).lower() if (m := _YEAR_BOUND.search(before)) else ""
            out.append(Value("year", q.text, q.start, q.end, q=q, loose=loose, bound=bound))
        elif q.ordinal:
            out.append(Value("ordinal", q.text, q.start, q.end, q=q))
        elif q.slot:
            out.append(Value("number", q.text, q.start, q.end, q=q, loose=q.loose or bool(q.bound)))
    return out


def _names(text: str) -> list[Value]:
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
    return sorted(_fact_values(extract(text)) + _names(text), key=lambda v: v.start)


@lru_cache(maxsize=65536)
def _values_of(text: str, kind: str) -> tuple[Value, ...]:
    """The values of one kind in a reference claim (names only when asked for: a parse)."""
    if kind == "name":
        return tuple(_names(text))
    return tuple(v for v in _fact_values(extract(text)) if v.kind == kind)


def _masked_text(text: str, values: Sequence[Value]) -> str:
    """``text`` with the spans of ``values`` blanked (same length, so offsets hold)."""
    chars = list(text)
    for v in values:
        chars[v.start : v.end] = " " * (v.end - v.start)
    return "".join(chars)


def _masked_tokens(text: str, values: Sequence[Value]) -> list[str]:
    """The content tokens of ``text`` outside the spans of ``values``."""
    return content_tokens(_masked_text(text, values))


def _token_at(doc: Any, start: int, end: int) -> Any | None:
    """The token that heads the characters ``start:end`` in the parse (None: no token there)."""
    toks = [t for t in doc if t.idx < end and t.idx + len(t) > start]
    ids = {t.i for t in toks}
    return next((t for t in toks if t.head.i not in ids or t.head.i == t.i), None)


def _stems(tok: Any) -> set[str]:
    return set(content_tokens(tok.text))


@lru_cache(maxsize=65536)
def _slot_of(text: str, start: int, end: int) -> tuple[str, frozenset[str]] | None:
    """The role of the value at ``start:end`` of ``text`` ("subj", "obj", "prep:in", or the
    dependency label) and the stems of the words it depends on: the head of its preposition,
    the noun it counts or orders, the verb it is an argument of; a verb adds its object or
    complement ("made his debut in 1991": made, debut), a noun the verb or noun it belongs
    to when that noun is its object or complement ("won its seventh trophy"). None when the
    parse gives the value no head."""
    doc = parse(text)
    tok = _token_at(doc, start, end) if doc is not None else None
    while tok is not None and tok.dep_ == "conj" and tok.head.i != tok.i:
        tok = tok.head  # "in 2003 and 2005": the list's first value holds the slot
    if tok is None or tok.head.i == tok.i:
        return None
    role, head = _ROLES.get(tok.dep_, tok.dep_), tok.head
    if tok.dep_ == "pobj" and head.head.i != head.i:
        role, head = f"prep:{head.lower_}", head.head
    anchors = _stems(head)
    if head.pos_ in ("VERB", "AUX"):
        for k in head.children:
            if k.dep_ in ("dobj", "attr", "acomp", "oprd", "nsubjpass") and k.i != tok.i:
                anchors |= _stems(k)
    elif head.dep_ in ("dobj", "attr") and head.head.i != head.i:
        anchors |= _stems(head.head)  # "won its seventh trophy": win, trophy
    return (role, frozenset(anchors)) if anchors else None


def _same_slot(v: Value, a: tuple[str, frozenset[str]], b: tuple[str, frozenset[str]]) -> bool:
    """Two values fill the same slot: a word they depend on in common and, for a name, the same
    role (a subject is not an object; "born in X" / "died in X" have no word in common)."""
    if v.kind == "name" and a[0] != b[0]:
        return False
    theirs = TokenSet(b[1])
    return any(t in theirs for t in a[1])


@lru_cache(maxsize=65536)
def _context(text: str) -> TokenSet:
    """The content tokens of a reference claim outside its years, dates and numbers."""
    return TokenSet(_masked_tokens(text, _fact_values(extract(text))))


def _coverage(tokens: Sequence[str], texts: Sequence[str]) -> np.ndarray:
    """Share of ``tokens`` held by each text's masked context (``_context``): shape
    ``(len(texts),)``, float64 in [0, 1]."""
    if not tokens or not texts:
        return np.zeros(len(texts))
    held = np.array([[t in _context(x) for t in tokens] for x in texts], dtype=bool)
    out: np.ndarray = held.mean(axis=1)
    return out


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
def _reference_values(text: str, kind: str) -> tuple[Value, ...]:
    """The values of a reference claim that may state a claim's value of ``kind``: a year is
    stated by a year or a date's year, a date by a date or a year (to its precision)."""
    if kind == "name":
        return tuple(_names(text))
    found = _fact_values(extract(text))
    out = [v for v in found if v.kind == kind]
    if kind == "year":
        out += [y for v in found if v.kind == "date" and (y := _as_year(v)) is not None]
    elif kind == "date":
        out += [d for v in found if v.kind == "year" and (d := _as_date(v)) is not None]
    return tuple(out)


def _words(text: str) -> set[str]:
    return set(content_tokens(text))


def _agrees(v: Value, o: Value) -> bool:
    """``o`` states ``v``'s value after normalisation (units, rounding, number words, date
    precision, a year inside a range), or may state it (an approximation, a bound)."""
    if v.kind == "name":
        return bool(_words(v.text) & _words(o.text))
    if v.kind == "date":
        assert v.d is not None and o.d is not None
        return _date_conflict(v.d, o.d) is None or _date_states(v.d, o.d)
    assert v.q is not None and o.q is not None
    if v.loose or o.loose or v.bound != o.bound:
        return True
    if v.kind == "year":
        return year_matches(v.q, o.q) or year_overlaps(v.q, o.q)
    if o.q.interval is not None:
        return True
    if v.kind == "number" and not slots_compatible(v.q, o.q):
        return True
    return quantity_matches(v.q, o.q) or quantity_matches(o.q, v.q)


def _another_event(claim: Facets, v: Value, text: str, o: Value) -> bool:
    """A number bound to another year than the claim's; a year or date of a count that differs
    ("120 staff in 2020" / "450 staff in 2023"), or of the claim's second or later event."""
    if v.kind in ("year", "date"):
        mine, theirs = _fact_values(claim), _fact_values(extract(text))
        later = [x for x in mine if x.kind == "ordinal" and x.q and x.q.value >= 2]  # "her second son"
        if later and not any(_agrees(x, y) for x in later for y in theirs if y.kind == "ordinal"):
            return True
        pairs = [(x, y) for x in mine for y in theirs if x.kind == y.kind == "number"]
        return any(x.q and y.q and slots_compatible(x.q, y.q) and not _agrees(x, y) for x, y in pairs)
    if v.kind != "number" or v.q is None or o.q is None:
        return False
    mine, theirs = (
        _clause_years(claim.text, v),
        _clause_years(text, o) or list(_reference_values(text, "year")),
    )
    if mine and not any(_agrees(x, y) for x in mine for y in theirs):  # "10 trophies between 1989
        return True  # and 2005" / "58 trophies"; "In 1995, he scored 12 goals" dates every clause
    a, b = _bound_year(claim, v.q), _bound_year(extract(text), o.q)
    return a is not None and b is not None and a != b


def _clause_years(text: str, v: Value) -> list[Value]:
    """The years of the clause of ``text`` that holds ``v`` (those of its dates too)."""
    a, b = next(((s, e) for s, e in _clauses(text) if s <= v.start < e), (0, len(text)))
    return [y for y in _reference_values(text, "year") if a <= y.start < b]


def _listed(text: str, o: Value, kind: str) -> bool:
    """``o`` is one of several values of one slot: coordinated in the parse ("in 2003 and 2005",
    "Lyon, Lille and Nantes"), the end of a range ("from 4 to 6 km", "1992–93"), or next to
    another value of its kind in the same slot in its clause."""
    if o.q is not None and (o.q.bound == "range" or o.q.lo is not None):
        return True
    doc = parse(text)
    tok = _token_at(doc, o.start, o.end) if doc is not None else None
    if tok is not None and (tok.dep_ == "conj" or any(k.dep_ == "conj" for k in tok.children)):
        return True
    slot = _slot_of(text, o.start, o.end)
    a, b = next(((s, e) for s, e in _clauses(text) if s <= o.start < e), (0, len(text)))
    for x in _reference_values(text, kind):
        other = _slot_of(text, x.start, x.end) if a <= x.start < b and x.text != o.text else None
        if other is not None and slot is not None and _same_slot(o, slot, other):
            return True
    return False


def _place(text: str, v: Value, slot: tuple[str, frozenset[str]]) -> bool:
    """A place name after a preposition of place: stated at any granularity."""
    return v.kind == "name" and v.label in _PLACE_TYPES and slot[0].removeprefix("prep:") in _PLACE_PREPS


@dataclass(frozen=True)
class _Statement:
    """A reference claim ``j`` (context coverage ``cov``) stating the slot of a claim's value with ``o``."""

    j: int
    o: Value
    cov: float
    listed: bool


def _statements(claim: Facets, v: Value, texts: dict[int, str], cov: dict[int, float]) -> list[_Statement]:
    """Every statement of ``v``'s slot among the candidate reference claims ``texts``."""
    mine = _slot_of(claim.text, v.start, v.end)
    if mine is None or _place(claim.text, v, mine) or _names_event_or_modifies(v, mine):
        return []
    out = []
    for j, text in texts.items():
        if v.kind == "name" and _names_it(text, v):
            # its own name in its slot states the claim's value ("A is 30 m tall. B is 30 m tall.")
            own = [o for o in _reference_values(text, "name") if _words(o.text) & _words(v.text)]
            slots = [(o, _slot_of(text, o.start, o.end)) for o in own]
            out += [_Statement(j, o, cov[j], False) for o, sl in slots if sl and _same_slot(v, mine, sl)]
            continue
        for o in _reference_values(text, v.kind):
            theirs = _slot_of(text, o.start, o.end)
            if theirs is None or not _same_slot(v, mine, theirs) or _another_event(claim, v, text, o):
                continue
            out.append(_Statement(j, o, cov[j], _listed(text, o, v.kind)))
    return out


def _names_it(text: str, v: Value) -> bool:
    """The reference claim names ``v`` itself: how its names relate there (a symmetric relation,
    swapped roles, a second name in another role) is for the role checks (``roles``,
    ``counterparts``), not a rival value of the slot."""
    return any(_words(o.text) & _words(v.text) for o in _reference_values(text, "name"))


def _names_event_or_modifies(v: Value, slot: tuple[str, frozenset[str]]) -> bool:
    """A year or date that names an event (``_EVENT_ROLES``), a name that is no argument
    (``_NAME_ROLES``): neither has a slot of its own."""
    if v.kind in ("year", "date"):
        return slot[0] in _EVENT_ROLES
    if v.kind == "name":
        return not (slot[0] in _NAME_ROLES or slot[0].startswith("prep:"))
    return False


def _decide(v: Value, found: list[_Statement]) -> _Statement | None:
    """The statement that contradicts ``v``: none states ``v``'s value, none lists several
    values, and all give one and the same other value (a single-valued slot)."""
    if not found or any(_agrees(v, s.o) or s.listed for s in found):
        return None
    values = {s.o.text.lower() for s in found}
    if len(values) > 1 and not all(_agrees(found[0].o, s.o) for s in found[1:]):
        return None
    return max(found, key=lambda s: s.cov)


def _local_tokens(claim: Facets, v: Value, values: list[Value]) -> tuple[list[str], tuple[str, ...]]:
    """The words the statement of ``v``'s slot must share with the claim: the content tokens of
    the claim's clause that holds ``v`` (``text._clauses``), its years, dates and numbers and
    ``v`` itself masked, with the claim's subject (``subject_heads``; empty when ``v`` is in the
    subject)."""
    a, b = next(((s, e) for s, e in _clauses(claim.text) if s <= v.start < e), (0, len(claim.text)))
    masked = _masked_text(claim.text, [v] + [o for o in values if o.kind != "name"])
    subject = tuple(t for t in subject_heads(claim.text) if t not in _words(v.text))
    if len(subject) < len(subject_heads(claim.text)):
        subject = ()
    return list(dict.fromkeys(content_tokens(masked[a:b]) + list(subject))), subject


def _candidates(claim: Facets, v: Value, values: list[Value], refs: dict[int, str]) -> dict[int, float]:
    """The reference claims (index -> masked context coverage) that may state ``v``'s slot:
    a value of its kind (``_PREFILTER``), ``MIN_CONTEXT`` of the claim's words around it
    (``_local_tokens``), the claim's subject, its other names and its codes ("OB-17")."""
    pattern = _PREFILTER[v.kind]
    ids = [j for j, t in refs.items() if pattern.search(t)]
    tokens, subject = _local_tokens(claim, v, values)
    if not ids or len(tokens) < 2:
        return {}
    cov = _coverage(tokens, [refs[j] for j in ids])
    names = [_words(o.text) for o in values if o.kind == "name" and o is not v]
    # codes name the subject exactly: "OB-17" / "OB-71", "U-30" / "UB-30"
    codes = [e.lower() for e, _, _ in claim.entities if any(ch.isdigit() for ch in e)]
    keep = {}
    for j, c in zip(ids, cov, strict=True):
        if c < (MIN_CONTEXT_NAME if v.kind == "name" else MIN_CONTEXT):
            continue
        words = TokenSet(content_tokens(refs[j]))
        if (
            all(code in refs[j].lower() for code in codes)
            and all(all(t in words for t in n) for n in names)
            and (not subject or any(t in words for t in subject))
        ):
            keep[j] = float(c)
    return keep


def slot_conflict(claim: Facets, reference_claims: Sequence[ReferenceClaim]) -> tuple[int, _Conflict] | None:
    """The reference claim (index into ``reference_claims``) that states the slot of one of the
    claim's values with another, single value, and the conflict (span of that value in the
    reference claim's text); None when there is none (module docstring). ``claim`` is the
    claim's facets (``claims.facets.extract``); a negated claim is never compared. Needs spaCy."""
    if claim.negated:
        return None
    values = claim_values(claim.text)
    if not values:
        return None
    refs = {
        j: rc.claim.text
        for j, rc in enumerate(reference_claims)
        if rc.claim.kind is ClaimKind.MATERIAL and not _is_dateline(rc.claim.text)
    }
    best: tuple[float, int, _Conflict] | None = None
    for v in values:
        cov = _candidates(claim, v, values, refs)
        if not cov:
            continue
        s = _decide(v, _statements(claim, v, {j: refs[j] for j in cov}, cov))
        s = None if s is not None and v.kind == "name" and one_name(v.text, s.o.text, refs.values()) else s
        if s is not None and (best is None or s.cov > best[0]):
            kind = {"name": "entity", "number": _value_kind(v.q, s.o.q) if v.q and s.o.q else "number"}.get(
                v.kind, v.kind
            )
            unit_only = v.kind == "number" and v.q is not None and s.o.q is not None and v.q.raw == s.o.q.raw
            best = (s.cov, s.j, _Conflict(kind, v.text, s.o.text, s.o.start, s.o.end, unit_only))
    return (best[1], best[2]) if best else None
