"""Numbers in digits: their sign, magnitude ("5 million", "$460M"), unit or counted noun (the
slot, ``claims.facets.number_slots``), currency symbol or ISO code, and European grouping
("4.500.000,50"). Numbers in words are ``claims.facets.number_words``'s.
"""

from __future__ import annotations

import math
import re

from claims.facets.dates import era, is_year
from claims.facets.number_slots import (
    AGE_BEFORE,
    AT_AGE_AFTER,
    AT_AGE_BEFORE,
    nouns_after,
    of_slot,
    slot_after,
)
from claims.facets.spans import is_loose, overlaps, take
from claims.facets.types import Quantity
from claims.facets.vocabulary import (
    CURRENCY_CODE_BEFORE,
    CURRENCY_SYMBOLS,
    DECIMAL_COMMA,
    ENTITY_STOP,
    MONTHS,
    SCALE_WORDS,
    SCALES,
    currency_slot,
)

_EURO_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+")
#: Digits grouped by a no-break, narrow no-break or thin space (SI and French style: "1\u00a0420",
#: "4\u202f500\u202f000,50"); the decimal mark after them may be a point or a comma.
_SPACE_GROUP = "[\u00a0\u202f\u2009]"
_SPACE_GROUPED = re.compile(r"\d{1,3}(?:" + _SPACE_GROUP + r"\d{3})+(?:[.,]\d+)?")


def _to_float(s: str) -> float | None:
    if _SPACE_GROUPED.fullmatch(s):
        s = re.sub(_SPACE_GROUP, "", s).replace(",", ".")
    elif _EURO_GROUPED.fullmatch(s) or re.fullmatch(r"\d+,\d{1,2}", s):
        # European grouping: dots group thousands, a comma marks decimals ("4.500.000,50")
        s = s.replace(".", "").replace(",", ".")
    s = s.replace(",", "").replace(" ", "")
    try:
        value = float(s)
    except ValueError:
        return None
    return value if math.isfinite(value) else None  # past 1.8e308: no value to compare


_NUM_RE = re.compile(
    r"(?P<cur>[$€£¥])?\s?(?:(?<![A-Za-z0-9_.\-/])|(?<=[\s(\[][-−])|(?<=\d[-–—]))(?P<num>"
    + DECIMAL_COMMA
    + "|"
    + _SPACE_GROUPED.pattern
    + r"|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+"
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?![\d])"
)
_SCALE_RE = re.compile(
    r"\s?(?P<scale>thousand|millionen|million|milliarden|milliarde|billion|trillion|tausend|mio|mrd|bn|mn|k|m|b|tn)(?![A-Za-z])",
    re.I,
)


def _sign(text: str, m: re.Match[str]) -> bool | None:
    """Whether the digits of ``m`` are negative ("-5 °C" after a space or bracket; not "3 - 5"
    or "1992-93"); None when they belong to a code or a model name ("OB-17", "A380", "Kite
    14", "Windows 95"; but "Gigantour 2006" is a year and "USD 640" an amount)."""
    s, e = m.start("num"), m.end("num")
    before = text[max(0, s - 1) : s]
    negative = False
    if before and ((before.isascii() and before.isalpha()) or before in "-−/_#") and not m.group("cur"):
        if before not in "-−" or (s >= 2 and text[s - 2].isalpha()):
            return None
        negative = s >= 2 and text[s - 2] in " ([" and not re.search(r"\d\s*$", text[: s - 1])
    if re.match(r"[A-Za-z]", text[e : e + 1] or " ") and not _GLUED_SUFFIX.match(text, e):
        return None
    prev = re.search(r"([A-Z][A-Za-z]+)\s$", text[max(0, s - 30) : s])
    if (
        _currency_code(text, m) is None
        and era(text, s, e) is None
        and prev
        and prev.group(1) not in ENTITY_STOP
        and prev.group(1).lower() not in MONTHS
        and not re.fullmatch(r"1[89]\d{2}|20\d{2}", m.group("num"))
    ):
        return None
    return negative


_GLUED_SUFFIX = re.compile(
    r"(?:k|m|bn|mn|b|tn|km|kg|cm|mm|ft|lb|lbs|mg|ml|gb|mb|tb|kb|st|nd|rd|th|s)\b", re.I
)


def _currency_code(text: str, m: re.Match[str]) -> re.Match[str] | None:
    """The ISO code written before the digits of ``m`` ("USD 640"), when no symbol is."""
    s = m.start("num")
    return None if m.group("cur") else CURRENCY_CODE_BEFORE.search(text[max(0, s - 5) : s])


def _magnitude(text: str, m: re.Match[str], raw: float) -> tuple[float, int, bool]:
    """The number times its magnitude word ("5 million", "$460M"), where that ends, and
    whether the number is an ordinal ("3rd")."""
    end = m.end("num")
    ordinal = re.match(r"(?:st|nd|rd|th)\b", text[end:], re.I) is not None
    if ordinal:
        end += 2
    sm = _SCALE_RE.match(text, end)
    if sm and (sm.group("scale").lower() in SCALE_WORDS or m.group("cur") or not sm.group(0).startswith(" ")):
        return raw * SCALES[sm.group("scale").lower()], sm.end(), ordinal
    return raw, end, ordinal


def _digit_slot(text: str, m: re.Match[str], s: int, end: int) -> tuple[str, str, float, int, int]:
    """(slot, unit, factor, start, end) of a number: its unit or counted noun, an age ("aged
    17", "at 17"), a currency symbol or code before it; ``start`` includes that symbol."""
    slot, unit, factor, uend = slot_after(text, end)
    if slot == "" and AGE_BEFORE.search(text[:s]):
        slot, unit = "age", "years old"
    if slot == "" and AT_AGE_BEFORE.search(text[:s]) and AT_AGE_AFTER.match(text, uend):
        slot, unit = "age", "years old"
    code = _currency_code(text, m)
    if m.group("cur"):
        return CURRENCY_SYMBOLS[m.group("cur")], m.group("cur"), 1.0, m.start(), uend
    if code is not None:
        return currency_slot(code.group("code")), code.group("code"), 1.0, max(0, s - 5) + code.start(), uend
    return slot, unit, factor, s, uend


def _digit_quantity(text: str, m: re.Match[str]) -> Quantity | None:
    """The quantity of one run of digits (see ``_sign``, ``_magnitude``, ``_digit_slot``)."""
    negative = _sign(text, m)
    raw = _to_float(m.group("num"))
    if negative is None or raw is None:
        return None
    s, e = m.start("num"), m.end("num")
    if negative:
        raw, s = -raw, s - 1
    raw, end, ordinal = _magnitude(text, m, raw)
    slot, unit, factor, qs, uend = _digit_slot(text, m, s, end)
    if is_year(text, m.group("num"), s, slot, unit):
        slot, unit, uend = "year", "", max(uend, e)
        written = era(text, s, e)
        if written is not None and written.start() >= e:  # "476 AD", "44 BC": the era is the year's
            uend = written.end()
            if written.group("era").startswith("B"):
                raw = -raw
    elif slot == "":
        slot = of_slot(text[:qs])
    value = raw * factor
    if not math.isfinite(value):
        return None  # a magnitude past what a float holds ("9e307 billion"): not compared
    if slot == "temperature_f":  # one slot for temperatures, in °C
        value = (raw - 32.0) * 5.0 / 9.0
    if slot.startswith("temperature"):
        slot = "temperature"
    loose = is_loose(text, qs, year=slot == "year")
    nouns = nouns_after(text, uend)
    return Quantity(
        value, raw, slot, unit, text[qs:uend].strip(), qs, uend, loose=loose, nouns=nouns, ordinal=ordinal
    )


def find_digits(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Numbers in digits with their magnitude, unit or counted noun, sign and currency."""
    out: list[Quantity] = []
    for m in _NUM_RE.finditer(text):
        if overlaps(m.start("num"), m.end("num"), taken):
            continue
        q = _digit_quantity(text, m)
        if q is not None:
            take(out, taken, q)
    return out
