"""Value edit kinds of the behavioural suite (``tools/contrast_suite.py``): numbers, years, dates,
units, ordinals and names, registered with ``contrast_edits.edit_kind`` like the word kinds.

Values are placed in the claim with the project's facet reader (``claims.facets.extract``:
quantities with their unit and slot, dates part by part) and spaCy's entities (ordinals, names,
cardinals). Each contrast kind (the value changes; the verdict must not be ``supported``) is
made only where the evidence states the original value, so that the edit contradicts a stated
value; the new value is one the evidence does not hold. The invariance kinds (the same value
written otherwise; the verdict must stay) need no evidence.

Contrast: ``number_swap`` (a number, not a year, date or ordinal, to another), ``year_swap``,
``day_month_swap`` (the day of a date, or its month where it has no day), ``unit_swap`` (the
unit to another of its dimension, the number kept: "12 km" -> "12 miles"), ``ordinal_swap``
("second" -> "third"), ``name_swap`` (a name to another name of the same spaCy entity type in
the same evidence). Invariance: ``unit_conversion`` ("12 km" -> "7.46 miles": three significant
figures), ``about_rounding`` ("1,234" -> "about 1,200"), ``date_format`` ("12 May 1998" <->
"May 12, 1998"), ``number_words`` ("three" <-> "3", two to twenty).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from contrast_edits import Edit, Skip, _nlp, _replace, edit_kind

from claims.facets import NUMBER_WORDS, ORDINAL_WORDS, UNITS, Quantity, extract, values_equal

__all__ = ["SWAP_UNITS", "ordinal_text"]

#: a unit word -> the unit it is swapped with (same dimension, another size); both ways
SWAP_UNITS: dict[str, str] = {}
for _a, _b in (
    ("km", "miles"),
    ("kilometres", "miles"),
    ("kilometers", "miles"),
    ("kilometre", "mile"),
    ("kilometer", "mile"),
    ("metres", "feet"),
    ("meters", "feet"),
    ("m", "ft"),
    ("metre", "foot"),
    ("meter", "foot"),
    ("cm", "inches"),
    ("centimetres", "inches"),
    ("centimeters", "inches"),
    ("kg", "pounds"),
    ("kilograms", "pounds"),
    ("kilogram", "pound"),
    ("grams", "ounces"),
    ("litres", "gallons"),
    ("liters", "gallons"),
    ("hectares", "acres"),
    ("square kilometres", "square miles"),
    ("square kilometers", "square miles"),
    ("km2", "sq mi"),
    ("km²", "sq mi"),
):
    SWAP_UNITS.setdefault(_a, _b)
    SWAP_UNITS.setdefault(_b, _a)

#: the spaCy entity types of names (``name_swap``)
NAME_TYPES = frozenset(["PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT"])
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
YEAR = re.compile(r"(?<![\d.,])(1[5-9]\d\d|20\d\d)(?![\d.,]\d)")
_SMALL = {w: i for i, w in enumerate(NUMBER_WORDS[:21]) if i >= 2}
_BY_VALUE = {i: w for w, i in _SMALL.items()}


@lru_cache(maxsize=256)
def evidence_at(text: str) -> Any:
    """The evidence's facets and spaCy parse (the first 20,000 characters), cached."""
    return extract(text), _nlp()(text[:20000])


def find_digits(q: Quantity) -> re.Match[str] | None:
    """The number written in digits inside a quantity's text."""
    return _NUMBER.search(q.text)


def _as_float(s: str) -> float:
    return float(s.replace(",", ""))


def _written(v: float, like: str) -> str:
    """``v`` written as ``like`` is (thousands commas, decimals)."""
    decimals = len(like.split(".")[1]) if "." in like else 0
    text = f"{v:,.{decimals}f}" if "," in like else f"{v:.{decimals}f}"
    return text


def _stated_numbers(evidence: str) -> set[float]:
    """Every number written in digits in the evidence."""
    out = set()
    for m in _NUMBER.finditer(evidence):
        try:
            out.add(_as_float(m.group()))
        except ValueError:
            continue
    return out


def _quantities(doc: Any, *, years: bool = False) -> list[Quantity]:
    """The claim's point quantities in digits (years only with ``years``; no ordinals, no
    bounds or approximations)."""
    f = extract(doc.text)
    return [
        q
        for q in f.quantities
        if (q.slot == "year") == years and not q.ordinal and not q.loose and q.lo is None and find_digits(q)
    ]


def _in_date(doc: Any, start: int, end: int) -> bool:
    """Whether the characters lie in a date the facets read (day or month given)."""
    return any(d.start <= start and end <= d.end for d in extract(doc.text).dates if d.month is not None)


def _other(old: float, taken: set[float], steps: tuple[float, ...]) -> float | None:
    """The first of ``old`` + step that is not ``old`` and not among ``taken``."""
    for step in steps:
        new = old + step
        if new > 0 and new != old and new not in taken:
            return new
    return None


# ---------------------------------------------------------------------------- contrast kinds


@edit_kind("number_swap", "contrast", evidence=True)
def number_swap(doc: Any, evidence: str) -> Edit | Skip:
    """A number (not a year, date or ordinal) the evidence states changed to one it does not
    ("112 patients" -> "168 patients": half as much again, or the next free integer)."""
    qs = [q for q in _quantities(doc) if not _in_date(doc, q.start, q.end)]
    if not qs:
        return Skip("no number in digits")
    stated = _stated_numbers(evidence)
    for q in qs:
        m = find_digits(q)
        assert m is not None
        old = _as_float(m.group())
        if old not in stated:
            continue
        step = max(1.0, round(old * 0.5)) if old == int(old) else round(old * 0.5, 2) or 0.1
        new = _other(old, stated, (step, 1.0, 2.0, 3.0, 7.0))
        if new is None:
            continue
        at = q.start + m.start()
        text = _replace(doc, [(at, at + len(m.group()), _written(new, m.group()))])
        return Edit(text, f"{m.group()} -> {_written(new, m.group())}")
    return Skip("value not in evidence")


@edit_kind("year_swap", "contrast", evidence=True)
def year_swap(doc: Any, evidence: str) -> Edit | Skip:
    """A year the evidence states changed to one it does not ("1998" -> "2001")."""
    years = list(YEAR.finditer(doc.text))
    if not years:
        return Skip("no year")
    stated = {int(m.group()) for m in YEAR.finditer(evidence)}
    points = [m for m in years if not _in_range_or_decade(doc.text, m)]
    if not points:
        return Skip("year in a range or decade")
    for m in points:
        old = int(m.group())
        if old not in stated:
            continue
        new = _other(old, {float(y) for y in stated}, (3, -3, 5, -5, 11))
        if new is None:
            continue
        text = _replace(doc, [(m.start(), m.end(), str(int(new)))])
        return Edit(text, f"{old} -> {int(new)}")
    return Skip("value not in evidence")


#: a year that ends or opens a range ("1904-05", "2018–19", "1939-1975") or names a decade
#: ("the 1940s"): one end changed makes a malformed value ("1907-1905") or another kind of
#: statement, not a changed point value
_RANGE_AFTER = re.compile(r"^(?:s\b|'s\b|\s*[-–—]\s*\d)")
_RANGE_BEFORE = re.compile(r"\d\s*[-–—]\s*$")


def _in_range_or_decade(text: str, m: re.Match[str]) -> bool:
    """The year ``m`` of ``text`` is one end of a range or a decade (``_RANGE_AFTER``)."""
    return bool(_RANGE_AFTER.match(text[m.end() :]) or _RANGE_BEFORE.search(text[: m.start()]))


def _stated_dates(evidence: str) -> set[tuple[int | None, int, int | None]]:
    return {(d.year, d.month, d.day) for d in extract(evidence).dates if d.month is not None}


@edit_kind("day_month_swap", "contrast", evidence=True)
def day_month_swap(doc: Any, evidence: str) -> Edit | Skip:
    """In a date the evidence states, the day changed ("12 May 1998" -> "15 May 1998"), or the
    month where the date has no day ("May 1998" -> "August 1998"); month names only."""
    dates = [d for d in extract(doc.text).dates if d.month is not None]
    if not dates:
        return Skip("no date with a month")
    stated = _stated_dates(evidence)
    for d in dates:
        if not any(
            m == d.month and (d.day is None or day == d.day) and (d.year is None or y in (None, d.year))
            for y, m, day in stated
        ):
            continue
        month = re.search(r"[A-Z][a-z]+\.?", d.text)
        if month is None:
            return Skip("numeric date")
        day = re.search(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?(?!\d)", d.text)
        if d.day is not None and day is not None:
            taken = {float(dd) for _, m, dd in stated if m == d.month and dd is not None}
            new = _other(float(d.day), taken, (3, -3, 7, -7))
            if new is None or new > 28:
                new = _other(float(d.day), taken, (-3, -7, -10))
            if new is None:
                continue
            at = d.start + day.start(1)
            text = _replace(doc, [(at, at + len(day.group(1)), str(int(new)))])
            return Edit(text, f"day {d.day} -> {int(new)}")
        mo = d.month or 0
        taken_months = {m for y, m, _ in stated if d.year is None or y in (None, d.year)}
        new_month = next(
            (mo + k for k in (3, -3, 5, -5, 1) if 1 <= mo + k <= 12 and mo + k not in taken_months), None
        )
        if new_month is None:
            continue
        name = _MONTHS[new_month - 1]
        at = d.start + month.start()
        text = _replace(doc, [(at, at + len(month.group()), name)])
        return Edit(text, f"{month.group()} -> {name}")
    return Skip("value not in evidence")


def _unit_at(doc: Any, q: Quantity) -> tuple[int, int, str] | None:
    """(start, end, unit word) of a swappable unit right after the quantity's number."""
    m = find_digits(q)
    if m is None:
        return None
    rest = doc.text[q.start + m.end() :]
    for unit in sorted(SWAP_UNITS, key=len, reverse=True):
        got = re.match(rf"[\s\u00a0-]?({re.escape(unit)})\b", rest)
        if got:
            at = q.start + m.end() + got.start(1)
            return at, at + len(unit), unit
    return None


@edit_kind("unit_swap", "contrast", evidence=True)
def unit_swap(doc: Any, evidence: str) -> Edit | Skip:
    """The unit of a quantity the evidence states changed, the number kept ("12 km" -> "12
    miles"; the pairs of ``SWAP_UNITS``)."""
    found = [(q, u) for q in _quantities(doc) if (u := _unit_at(doc, q))]
    if not found:
        return Skip("no quantity with a swappable unit")
    stated = extract(evidence).quantities
    for q, (start, end, unit) in found:
        if not any(o.slot == q.slot and values_equal(o.value, q.value) for o in stated):
            continue
        new = SWAP_UNITS[unit]
        return Edit(_replace(doc, [(start, end, new)]), f"{unit} -> {new}")
    return Skip("value not in evidence")


def ordinal_text(value: int, like: str) -> str:
    """``value`` as an ordinal written as ``like`` is ("third" / "3rd")."""
    if like[:1].isdigit():
        suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
        return f"{value}{suffix}"
    word = next(w for w, v in ORDINAL_WORDS.items() if v == value)
    return word.capitalize() if like[:1].isupper() else word


def _ordinal_value(text: str) -> int | None:
    low = text.lower()
    if low in ORDINAL_WORDS:
        return ORDINAL_WORDS[low]
    m = re.fullmatch(r"(\d{1,3})(?:st|nd|rd|th)", low)
    return int(m.group(1)) if m else None


@edit_kind("ordinal_swap", "contrast", evidence=True)
def ordinal_swap(doc: Any, evidence: str) -> Edit | Skip:
    """An ordinal the evidence states (spaCy's ORDINAL entity, "second", "3rd"; not an adverb
    before its verb: "first reached") changed to the next one it does not state ("second" -> "third")."""
    ords = [(t, v) for t in doc if t.ent_type_ == "ORDINAL" and (v := _ordinal_value(t.text)) is not None]
    if not ords:
        return Skip("no ordinal")
    ords = [(t, v) for t, v in ords if not (t.pos_ == "ADV" and t.head.pos_ == "VERB" and t.i < t.head.i)]
    if not ords:
        return Skip("ordinal used as an adverb")  # "Arsenal first reached ..."
    stated = {v for t in evidence_at(evidence)[1] if (v := _ordinal_value(t.text)) is not None}
    for tok, value in ords:
        if value not in stated:
            continue
        new = next((n for n in (value + 1, value - 1, value + 2) if 1 <= n <= 12 and n not in stated), None)
        if new is None:
            continue
        text = _replace(doc, [(tok.idx, tok.idx + len(tok), ordinal_text(new, tok.text))])
        return Edit(text, f"{tok.text} -> {ordinal_text(new, tok.text)}")
    return Skip("value not in evidence")


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _conjuncts(tok: Any) -> set[int]:
    """Token indices of the coordination ``tok`` belongs to ("South Carolina, Georgia and
    California")."""
    head = tok
    while head.dep_ == "conj" and head.head is not head:
        head = head.head
    return {head.i} | {t.i for t in head.subtree if t.dep_ == "conj"}


def _listed_with(ev: Any, name: str) -> set[int]:
    """Roots of the names the evidence coordinates with ``name`` anywhere: they share its slot
    (several values), so replacing one by the other need not change what the claim states."""
    out: set[int] = set()
    for e in ev.ents:
        if e.text == name:
            out |= _conjuncts(e.root)
    return out


def _slot(ent: Any) -> tuple[str, str]:
    """The lemma of the word a name depends on (the head of its preposition, else its head) and
    its role there ("won by Lena Holm" -> ("win", "by"), "Lena Holm founded" -> ("found", "nsubj"))."""
    root, head = ent.root, ent.root.head
    role = str(root.dep_)
    if root.dep_ == "pobj" and head.head is not head:
        role, head = str(head.lower_), head.head
    return str(head.lemma_).lower(), role


def _linked(ev: Any, other: Any, slot: tuple[str, str]) -> bool:
    """The evidence links ``other`` to the original's slot: a mention of it depends on the same
    word in the same role ("peaches are grown in Georgia" / "... grown in California": both
    fill the slot; "Maria Lind finished second, behind Anna Berg" does not link Anna Berg to
    the finisher's slot)."""
    return any(e.text == other.text and _slot(e) == slot for e in ev.ents)


def _clean_name(e: Any) -> bool:
    """A name as spaCy's span gives it, capitalised throughout but for connectors ("West
    Germany de" is no clean name)."""
    words = e.text.split()
    return bool(words) and words[0][:1].isupper() and words[-1][:1].isupper()


#: place types: a place after a preposition of place is stated at any granularity ("Kansas" /
#: "the United States"), so swapping it need not make the claim false
_PLACES = frozenset({"GPE", "LOC", "FAC"})
_PLACE_PREPS = frozenset({"in", "at", "near", "from", "to", "into", "across", "within", "throughout"})
#: the dependencies of a name that fills an argument of its clause (a subject, an object, the
#: object of a preposition, a complement); a name modifying a noun ("Epigenetic inheritance",
#: "Obama's mother") is left alone: its swap is often no sentence ("China computing")
_ARGUMENTS = frozenset(
    {"nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "dative", "agent", "oprd", "conj"}
)


def _rival(doc: Any, ent: Any, ev: Any, claim_words: set[str]) -> Any | None:
    """The first clean name of the same type in the evidence that shares no word with the
    claim's names and that the evidence does not put in the original's slot (``_linked``)."""
    listed = _listed_with(ev, ent.text)
    slot = _slot(ent)
    for e in ev.ents:
        if e.label_ != ent.label_ or not _words(e.text) or _words(e.text) & claim_words:
            continue
        if e.root.i in listed or not _clean_name(e) or _linked(ev, e, slot):
            continue
        return e
    return None


@edit_kind("name_swap", "contrast", evidence=True)
def name_swap(doc: Any, evidence: str) -> Edit | Skip:
    """A name the evidence states replaced by another name of the same spaCy entity type from
    the same evidence (``_rival``: a clean name sharing no word with any name of the claim, not
    coordinated with the original there, never in the original's slot there: ``_linked``); only
    a name that fills an argument (``_ARGUMENTS``), and no place after a preposition of place
    ("Lyon" -> "Marseille")."""
    names = [e for e in doc.ents if e.label_ in NAME_TYPES]
    if not names:
        return Skip("no name")
    ev = evidence_at(evidence)[1]
    claim_words = set().union(*(_words(e.text) for e in names))
    stated = [e for e in names if e.text in evidence]
    if not stated:
        return Skip("value not in evidence")
    arguments = [e for e in stated if e.root.dep_ in _ARGUMENTS]
    if not arguments:
        return Skip("no name as an argument")
    swappable = [
        e
        for e in arguments
        if not (e.label_ in _PLACES and e.root.dep_ == "pobj" and e.root.head.lower_ in _PLACE_PREPS)
    ]
    if not swappable:
        return Skip("only places after a preposition of place")
    for ent in swappable:
        other = _rival(doc, ent, ev, claim_words)
        if other is not None:
            text = _replace(doc, [(ent.start_char, ent.end_char, other.text)])
            return Edit(text, f"{ent.text} -> {other.text} ({ent.label_})")
    typed = any(
        e.label_ == n.label_ and _words(e.text) and not _words(e.text) & claim_words
        for n in swappable
        for e in ev.ents
    )
    return Skip(
        "another name of the type only in the slot" if typed else "no other name of the type in evidence"
    )


# ---------------------------------------------------------------------------- invariance kinds


def _significant(v: float, digits: int = 3) -> str:
    """``v`` to ``digits`` significant figures, without trailing zeros ("7.46", "1,240")."""
    if v == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(v)))
    r = round(v, places)
    text = f"{r:,.{max(places, 0)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@edit_kind("unit_conversion", "invariance")
def unit_conversion(doc: Any) -> Edit | Skip:
    """A quantity converted to the other unit of ``SWAP_UNITS`` with its value (three
    significant figures: "12 km" -> "7.46 miles")."""
    for q in _quantities(doc):
        found = _unit_at(doc, q)
        m = find_digits(q)
        if found is None or m is None:
            continue
        _start, end, unit = found
        new_unit = SWAP_UNITS[unit]
        old_key = unit if unit in UNITS else unit.lower()
        if old_key not in UNITS or new_unit not in UNITS:
            continue
        value = _as_float(m.group()) * UNITS[old_key][1] / UNITS[new_unit][1]
        new = f"{_significant(value)} {new_unit}"
        at = q.start + m.start()
        return Edit(_replace(doc, [(at, end, new)]), f"{doc.text[at:end]} -> {new}")
    return Skip("no quantity with a convertible unit")


@edit_kind("about_rounding", "invariance")
def about_rounding(doc: Any) -> Edit | Skip:
    """A number of three or more significant figures rounded to two, with "about" ("1,234" ->
    "about 1,200"; "37.6" -> "about 38"); years and dates left out."""
    for q in _quantities(doc):
        m = find_digits(q)
        if m is None or _in_date(doc, q.start, q.end):
            continue
        old = _as_float(m.group())
        digits = m.group().replace(",", "").replace(".", "").strip("0")
        if len(digits) < 3 or old < 10:
            continue
        new = _significant(old, 2)
        if "," not in m.group():
            new = new.replace(",", "")
        at = q.start + m.start()
        before = doc.text[q.start : at]  # "$" before the digits
        start = q.start if before.strip() in ("$", "€", "£") else at
        text = _replace(doc, [(at, at + len(m.group()), new), (start, start, "about ")])
        return Edit(text, f"{m.group()} -> about {new}")
    return Skip("no number to round")


_DMY = re.compile(r"\b(\d{1,2}) (" + "|".join(_MONTHS) + r"),? (\d{4})\b")
_MDY = re.compile(r"\b(" + "|".join(_MONTHS) + r") (\d{1,2}),? (\d{4})\b")


@edit_kind("date_format", "invariance")
def date_format(doc: Any) -> Edit | Skip:
    """A full date in the other order ("12 May 1998" <-> "May 12, 1998")."""
    m = _DMY.search(doc.text)
    if m:
        new = f"{m.group(2)} {m.group(1)}, {m.group(3)}"
    elif m := _MDY.search(doc.text):
        new = f"{m.group(2)} {m.group(1)} {m.group(3)}"
    else:
        return Skip("no full date with a month name")
    return Edit(_replace(doc, [(m.start(), m.end(), new)]), f"{m.group()} -> {new}")


@edit_kind("number_words", "invariance")
def number_words(doc: Any) -> Edit | Skip:
    """A cardinal from two to twenty in the other spelling ("three" <-> "3"): spaCy's CARDINAL
    (or QUANTITY / MONEY) tokens outside dates."""
    for tok in doc:
        if tok.ent_type_ not in ("CARDINAL", "QUANTITY", "MONEY") or _in_date(
            doc, tok.idx, tok.idx + len(tok)
        ):
            continue
        near = {doc[i].text for i in (tok.i - 1, tok.i + 1) if 0 <= i < len(doc)}
        if near & {"-", ".", ",", "/"}:
            continue  # "2-3", "3.5", "1,200"
        low = tok.lower_
        if low in _SMALL:
            new = str(_SMALL[low])
        elif tok.text.isdigit() and int(tok.text) in _BY_VALUE:
            new = _BY_VALUE[int(tok.text)]
            new = new.capitalize() if tok.i == 0 else new
        else:
            continue
        return Edit(_replace(doc, [(tok.idx, tok.idx + len(tok), new)]), f"{tok.text} -> {new}")
    return Skip("no number from two to twenty")
