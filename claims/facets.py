"""Facets of a claim and the slot comparison that decides contradictions.

A *facet* is a checkable value in a claim: a quantity (number with its unit or counted noun,
spelled-out numbers, magnitudes, percentages and fractions), a date (any of its parts), a time
of day, a named entity, negation, a hedge/qualifier, a comparative. Embedding cosine cannot
tell "debut in 1991" from "debut in 1993" (all-MiniLM-L6-v2 scores them about 0.9); the
facets can.

Parsing uses well-kept libraries where they serve: ``number_parser.parse_number`` for
spelled-out numbers ("twenty-three" = 23) and ``dateparser`` for numeric date formats
(ISO ``1867-07-14``, ``14/07/1867``). The *slot* logic (which value may be compared with which)
is ours and explicit:

* quantities compare within a slot: a unit family (length, mass, volume, area, currency,
  data, duration, speed, ``temperature`` in °C, °F converted by (F - 32) * 5/9), ``percent``
  (values as fractions: 50 % = 0.5 = half), ``pp`` (percentage points, also "points"; not
  percent), ``age``, ``year``, ``time`` (minutes after midnight), or the counted noun ("112
  patients"; any noun of the phrase after the number counts: "four motorway lanes" counts
  lanes); multiplicative verbs are numbers ("doubled" = 2 times, "halved" = 0.5 times), a minus
  after a space is a sign ("-5 °C"), and digits glued to CJK text are numbers ("1958年");
  a quantity with no slot only matches an equal value and never conflicts;
* dates compare part by part (year, month, day) where both sides have the part;
* entities are capitalised word sequences and codes (``OB-17``, ``Kite 14``).

Everything here is pure (stdlib + dateparser + number-parser) and deterministic.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources

__all__ = [
    "Quantity",
    "DateFacet",
    "Facets",
    "extract",
    "is_weak_entity",
    "squash_abbreviations",
    "content_tokens",
    "token_match",
    "STOPWORDS",
    "ANTONYMS",
    "antonym_kind",
]

# ---------------------------------------------------------------- vocabulary


def _data_words(name: str) -> list[str]:
    """The words of ``claims/data/<name>``, one per line (``#`` starts a comment)."""
    return [row[0] for row in _data_rows(name, 1)]


def _data_rows(name: str, width: int) -> list[tuple[str, ...]]:
    """Rows of the tab-separated word list ``claims/data/<name>`` (``#`` starts a comment;
    blank lines skipped). Each row has exactly ``width`` fields; raises ValueError otherwise."""
    text = resources.files("claims").joinpath("data", name).read_text(encoding="utf-8")
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        row = tuple(x.strip() for x in line.split("\t"))
        if len(row) != width:
            raise ValueError(f"claims/data/{name}:{n}: expected {width} tab-separated fields")
        rows.append(row)
    return rows


MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
    # German month names that differ from the English ones (April, August, September, November
    # are the same)
    "januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "mai": 5, "juni": 6, "juli": 7,
    "oktober": 10, "okt": 10, "dezember": 12, "dez": 12,
}  # fmt: skip
_MONTH_RE = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Januar|Jänner|Februar|März|Maerz|Mai|Juni|Juli|Oktober|Dezember|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Okt|Nov|Dec|Dez)\.?"
)

#: unit word -> (slot/family, factor to the family's base unit, display name)
UNITS: dict[str, tuple[str, float, str]] = {}


def _units(family: str, names: str, factor: float, display: str) -> None:
    for n in names.split("|"):
        UNITS[n] = (family, factor, display)


_units("length", "m|metre|metres|meter|meters", 1.0, "metres")
_units("length", "km|kilometre|kilometres|kilometer|kilometers", 1000.0, "kilometres")
_units("length", "cm|centimetre|centimetres|centimeter|centimeters", 0.01, "centimetres")
_units("length", "mm|millimetre|millimetres|millimeter|millimeters", 0.001, "millimetres")
_units("length", "ft|foot|feet", 0.3048, "feet")
_units("length", "in|inch|inches", 0.0254, "inches")
_units("length", "yd|yard|yards", 0.9144, "yards")
_units("length", "mi|mile|miles", 1609.344, "miles")
_units("mass", "kg|kilogram|kilograms|kilo|kilos", 1.0, "kg")
_units("mass", "g|gram|grams|gramme|grammes", 0.001, "grams")
_units("mass", "mg|milligram|milligrams", 1e-6, "milligrams")
_units("mass", "t|tonne|tonnes|ton|tons", 1000.0, "tonnes")
_units("mass", "lb|lbs|pound|pounds", 0.45359237, "pounds")
_units("mass", "oz|ounce|ounces", 0.028349523125, "ounces")
_units("volume", "l|litre|litres|liter|liters", 0.001, "litres")
_units("volume", "ml|millilitre|millilitres|milliliter|milliliters", 1e-6, "millilitres")
_units("volume", "gallon|gallons", 0.003785411784, "gallons")
_units("volume", "cubic metres|cubic metre|cubic meters|cubic meter|m3|m³", 1.0, "cubic metres")
_units("area", "square metres|square metre|square meters|square meter|m2|m²|sq m", 1.0, "square metres")
_units("area", "square kilometres|square kilometre|square kilometers|square kilometer|km2|km²", 1e6, "km²")
_units("area", "hectare|hectares|ha", 1e4, "hectares")
_units("area", "acre|acres", 4046.8564224, "acres")
_units("area", "square miles|square mile|sq mi", 2589988.110336, "square miles")
_units("area", "square feet|square foot|sq ft", 0.09290304, "square feet")
_units("data", "kb|kilobyte|kilobytes", 1e3, "KB")
_units("data", "mb|megabyte|megabytes", 1e6, "MB")
_units("data", "gb|gigabyte|gigabytes", 1e9, "GB")
_units("data", "tb|terabyte|terabytes", 1e12, "TB")
_units("duration", "second|seconds|sec|secs|s", 1.0, "seconds")
_units("duration", "minute|minutes|min|mins", 60.0, "minutes")
_units("duration", "hour|hours|hr|hrs|h", 3600.0, "hours")
_units("duration", "day|days", 86400.0, "days")
_units("duration", "week|weeks", 604800.0, "weeks")
_units("duration", "month|months", 2629746.0, "months")
_units("duration", "year|years", 31556952.0, "years")
_units("duration", "decade|decades", 315569520.0, "decades")
_units("duration", "century|centuries", 3155695200.0, "centuries")
_units("speed", "km/h|kph|kmh", 1 / 3.6, "km/h")
_units("speed", "mph", 0.44704, "mph")
_units("speed", "m/s", 1.0, "m/s")
_units("temperature_c", "°c|degrees celsius|celsius|degrees c|° c", 1.0, "°C")
_units("temperature_f", "°f|degrees fahrenheit|fahrenheit|degrees f", 1.0, "°F")
_units("currency_usd", "dollar|dollars|usd|us dollars", 1.0, "dollars")
_units("currency_eur", "euro|euros|eur|€", 1.0, "euros")
_units("currency_gbp", "pound sterling|pounds sterling|gbp", 1.0, "pounds sterling")
_units("currency_jpy", "yen|jpy", 1.0, "yen")
for _code in ("chf", "cad", "aud", "nok", "sek", "dkk", "cny", "inr"):
    _units("currency_" + _code, _code, 1.0, _code.upper())
_units("percent", "%|percent|per cent|prozent", 0.01, "%")
# percentage points are not percent: a slot of their own; "points" after a number says the same
_units("pp", "percentage points|percentage point|pp|points|point", 1.0, "percentage points")

CURRENCY_SYMBOLS = {"$": "currency_usd", "€": "currency_eur", "£": "currency_gbp", "¥": "currency_jpy"}
#: ISO 4217 codes written before an amount ("USD 640,000,000", "EUR 4.500.000")
_CURRENCY_CODE_BEFORE = re.compile(r"\b(?P<code>USD|US\$|EUR|GBP|JPY|CHF|CAD|AUD|NOK|SEK|DKK|CNY|INR)\s?$")


def _currency_slot(code: str) -> str:
    """``"USD"`` -> ``"currency_usd"`` (``"US$"`` too)."""
    return "currency_" + code.replace("US$", "USD").lower()


SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
    "trillion": 1e12, "tn": 1e12, "crore": 1e7, "lakh": 1e5,
    # German (and Dutch/Scandinavian-like) scale words; German "Billion" (10^12) is left out
    # because it collides with English "billion"
    "tausend": 1e3, "millionen": 1e6, "mio": 1e6, "milliarde": 1e9, "milliarden": 1e9, "mrd": 1e9,
}  # fmt: skip
_SCALE_WORDS = ("thousand", "million", "billion", "trillion", "bn", "mn", "tausend", "millionen", "mio",
                "milliarde", "milliarden", "mrd")  # fmt: skip
#: a decimal comma ("3,5 Millionen", "12,50 €", "4,2 %"): one or two digits after the comma,
#: read as decimals only before a scale word, a currency or a percent sign
_DECIMAL_COMMA = (
    r"\d+,\d{1,2}(?=\s?(?i:thousand|million|billion|tausend|millionen|milliarden?|mio|mrd|euros?|eur"
    r"|dollars?|usd|prozent|percent)\b|\s?[€$£%])"
)

NUMBER_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "billion",
    "trillion",
    "dozen",
]
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip
FRACTION_WORDS = {
    "half": 0.5, "one half": 0.5, "a half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "two thirds": 2 / 3,
    "two-thirds": 2 / 3, "a quarter": 0.25, "one quarter": 0.25, "three quarters": 0.75,
    "three-quarters": 0.75, "one fifth": 0.2, "a fifth": 0.2, "a tenth": 0.1, "one tenth": 0.1,
}  # fmt: skip

STOPWORDS: frozenset[str] = frozenset(_data_words("stopwords.txt"))

NEGATIONS = frozenset({"not", "no", "never", "none", "nor", "neither", "without", "cannot", "n't", "nobody",
                       "nothing", "nowhere",
                       # German: nicht, nie(mals), nichts, kein- in every case ending
                       "nicht", "nie", "niemals", "nichts", "kein", "keine", "keinen", "keinem",
                       "keiner", "keines"})  # fmt: skip
_NEG_PHRASES = re.compile(
    r"\b(?:fail(?:s|ed)? to|no longer|refus(?:e|es|ed) to|den(?:y|ies|ied)|lack(?:s|ed)?|unable to)\b",
    re.I,
)

#: hedge phrase regex -> label. Applies to the reference side (qualification_dropped).
HEDGES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.I), label)
    for p, label in [
        (
            r"\b(?:plan(?:s|ned|ning)?|aim(?:s|ed|ing)?|intend(?:s|ed|ing)?|expect(?:s|ed|ing)?|"
            r"schedul(?:e|es|ed)|propos(?:e|es|ed)|hop(?:e|es|ed)|seek(?:s)?|sought|want(?:s|ed)?|set|going|"
            r"tr(?:y|ies|ied)|attempt(?:s|ed)?|is|are|was|were|projected|designed|meant)\s+to\s+(?=[a-z])"
            r"|\b(?:proposed|projected|prospective|upcoming|planned|would)\b",
            "planned",
        ),
        (
            r"\b(?:reportedly|allegedly|purportedly|supposedly|rumou?red|is said to|are said to|was said to|"
            r"were said to|is believed to|are believed to|is thought to|claimed|claims)\b",
            "reportedly",
        ),
        (
            r"\b(?:(?-i:may)(?!\s+\d)|might|could|possibly|probably|likely|perhaps|potentially|unconfirmed)\b",
            "may",
        ),
        (
            r"\b(?:about|approximately|approx\.|around|roughly|nearly|almost|some|circa|c\.|up to|as many as|"
            r"an estimated|estimated|more than|over|fewer than|less than|under|at least|at most)"
            r"\s+(?=[\d$€£¥]|"
            r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|hundred|"
            r"a hundred|a thousand|dozen)\b)",
            "about",
        ),
        (
            r"\b(?:in (?:one|a single|some|certain|several|a few|parts of|part of)|partly|partially|in part|"
            r"mostly|mainly|largely|primarily|some of|pilot)\b",
            "limited",
        ),
        (
            r"\b(?:suggest(?:s|ed)?|indicat(?:e|es|ed)|preliminary|early results?|appear(?:s|ed)? to|"
            r"seem(?:s|ed)? to|tend(?:s|ed)? to)\b",
            "suggests",
        ),
    ]
]


def _load_antonyms() -> dict[str, frozenset[str]]:
    """Antonym pairs from ``claims/data/antonyms.tsv`` (both directions; see that file)."""
    table: dict[str, frozenset[str]] = {}
    for a, b, kind in _data_rows("antonyms.tsv", 3):
        table[a] = table.get(a, frozenset()) | {b}
        table[b] = table.get(b, frozenset()) | {a}
        ANTONYM_KINDS[frozenset((a, b))] = kind
    return table


#: unordered antonym pair -> its kind in ``claims/data/antonyms.tsv`` ("comparative",
#: "direction", "state", "outcome"); filled by ``_load_antonyms``
ANTONYM_KINDS: dict[frozenset[str], str] = {}


def antonym_kind(a: str, b: str) -> str | None:
    """The kind of the antonym pair ``a`` / ``b`` (lower-case word forms), None if not a pair."""
    return ANTONYM_KINDS.get(frozenset((a, b)))


def _load_dimension_words() -> dict[str, frozenset[str]]:
    """Slot family -> stems of the words naming it (``claims/data/dimension_words.tsv``)."""
    return {
        fam: frozenset(_stem(w) for w in words.split()) for fam, words in _data_rows("dimension_words.tsv", 2)
    }


#: slot family ("temperature", "currency", ...) -> stems of words that name that dimension
DIMENSION_WORDS: dict[str, frozenset[str]] = {}


def dimension_stems(slot: str) -> frozenset[str]:
    """Stems of the words that name the dimension of ``slot`` ("currency_usd" -> cost, price,
    ...); empty for a counted noun or an unknown slot."""
    if not DIMENSION_WORDS:
        DIMENSION_WORDS.update(_load_dimension_words())
    return DIMENSION_WORDS.get(slot.split("_")[0], frozenset())


#: antonym word -> its antonyms (comparatives, directions, states, outcomes), both directions.
ANTONYMS: dict[str, frozenset[str]] = _load_antonyms()

_ENTITY_STOP: frozenset[str] = frozenset(_data_words("entity_stopwords.txt"))


# ---------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number in a claim.

    ``value`` is in the slot's base unit (metres, kg, seconds, fraction for percent, minutes
    after midnight for ``time``); ``raw`` the number as written (after magnitude words);
    ``slot`` the comparison slot (see module docstring; ``""`` = no slot); ``unit`` a display
    unit; ``start``/``end`` the span in the claim text. ``lo``/``hi`` bound a year range
    ("1992–93", "1898–1980"; ``value`` is then ``lo``). ``loose`` marks a value that is not a
    point: a bound or approximation ("before 1492", "since 1998", "about 40", "more than 5");
    a loose value is never called a conflict.
    """

    value: float
    raw: float
    slot: str
    unit: str
    text: str
    start: int
    end: int
    lo: float | None = None
    hi: float | None = None
    loose: bool = False
    #: stems of the words of the noun phrase after the number ("four motorway lanes":
    #: ("motorway", "lane")); a counted noun matches any of them (the head is the last)
    nouns: tuple[str, ...] = ()
    #: how the value is bounded: ``""`` a point; ``"range"`` an end of a stated range ("between 4
    #: and 6 hours", "from 5 to 8 km", "4-6 hours"); ``"upto"`` a maximum that is reached ("up
    #: to 60 °C", "at most", "a maximum of"); ``"below"`` ("less than", "under"); ``"atleast"``
    #: ("at least", "a minimum of"); ``"above"`` ("more than", "over")
    bound: str = ""
    #: the values the text allows, in the slot's base unit (``-inf``/``inf`` for an open end);
    #: None for a point
    interval: tuple[float, float] | None = None
    #: an ordinal ("2nd", "second"): it matches an ordinal of the same value and slot; a claim's
    #: ordinal is only compared where the reference states an ordinal (else its word is)
    ordinal: bool = False


@dataclass(frozen=True, slots=True)
class DateFacet:
    """A calendar date or part of one (any of ``year``/``month``/``day`` may be None)."""

    year: int | None
    month: int | None
    day: int | None
    text: str
    start: int
    end: int

    def describe(self) -> str:
        return self.text


@dataclass(slots=True)
class Facets:
    """All facets of one claim text (see ``extract``)."""

    text: str
    quantities: list[Quantity] = field(default_factory=list)
    dates: list[DateFacet] = field(default_factory=list)
    entities: list[tuple[str, int, int]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)  # content tokens, normalised
    negated: bool = False
    negation_cue: str = ""
    hedges: list[tuple[str, str, int, int]] = field(default_factory=list)  # (label, surface, start, end)
    words: frozenset[str] = frozenset()  # lower-case words (for comparatives)


# ---------------------------------------------------------------- tokens

_WORD = re.compile(
    r"[A-Za-z\u00C0-\u024F][A-Za-z\u00C0-\u024F'’\-]*|\d+(?:[.,]\d+)*|[\u3040-\u30ff\u4e00-\u9fff]"
)


def _stem(w: str) -> str:
    w = w.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    for suf, rep in (("ies", "y"), ("ied", "y"), ("ing", ""), ("edly", ""), ("ed", ""), ("es", ""),
                     ("ly", ""), ("s", "")):  # fmt: skip
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            return w[: len(w) - len(suf)] + rep
    return w


_NON_CONTENT = (
    frozenset(NUMBER_WORDS)
    | frozenset(SCALES)
    | frozenset(u for u in UNITS if " " not in u and u != "in")
    | frozenset({"year-old", "years-old", "half", "third", "quarter", "thirds", "quarters", "percent", "old"})
)


def content_tokens(text: str) -> list[str]:
    """Lower-cased, crudely stemmed content words of ``text`` (stopwords and numbers dropped;
    CJK characters are single tokens).

    >>> content_tokens("The Halvorsen Museum does not open on Mondays.")
    ['halvorsen', 'museum', 'open', 'monday']
    """
    out: list[str] = []
    for m in _WORD.finditer(text):
        w = m.group(0)
        if w[0].isdigit():
            continue
        lw = w.lower().replace("’", "'")
        if lw in _NON_CONTENT:
            continue
        if lw in STOPWORDS or lw.rstrip("'s") in STOPWORDS or len(lw) == 1 and lw.isascii():
            continue
        for part in lw.split("-"):
            if part and part not in STOPWORDS:
                out.append(_stem(part))
    return out


def token_match(a: str, b: str) -> bool:
    """Two stemmed tokens match: equal, or share a prefix of 5+ characters (enrol/enrolled,
    certification/certified) or one is a 4+ character prefix of the other."""
    if a == b:
        return True
    if len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5]:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long_.startswith(short)


# ---------------------------------------------------------------- numbers


_EURO_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+")


def _to_float(s: str) -> float | None:
    if _EURO_GROUPED.fullmatch(s) or re.fullmatch(r"\d+,\d{1,2}", s):
        # European grouping: dots group thousands, a comma marks decimals ("4.500.000,50")
        s = s.replace(".", "").replace(",", ".")
    s = s.replace(",", "").replace(" ", "")
    try:
        return float(s)
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def _parse_number_words(phrase: str) -> float | None:
    from number_parser import parse_number

    try:
        v = parse_number(phrase, language="en")
    except Exception:  # pragma: no cover - library edge cases
        return None
    return None if v is None else float(v)


_NUM_WORD_RE = re.compile(
    r"\b(?:(?:"
    + "|".join(NUMBER_WORDS)
    + r")(?:[\s-]+(?:and\s+)?(?=(?:"
    + "|".join(NUMBER_WORDS)
    + r")\b))?)+"
    r"(?:" + "|".join(NUMBER_WORDS) + r")?\b",
    re.I,
)
_FRACTION_ALT = "|".join(sorted(map(re.escape, FRACTION_WORDS), key=len, reverse=True))
_FRACTION_RE = re.compile(r"\b(?:" + _FRACTION_ALT + r")\b",
                          re.I)  # fmt: skip
_NUM_RE = re.compile(
    r"(?P<cur>[$€£¥])?\s?(?:(?<![A-Za-z0-9_.\-/])|(?<=[\s(\[][-−])|(?<=\d[-–—]))(?P<num>"
    + _DECIMAL_COMMA
    + r"|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+"
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?![\d])"
)
_UNIT_KEYS = sorted(UNITS, key=len, reverse=True)
_UNIT_RE = re.compile(
    r"\s?-?\s?(?P<unit>" + "|".join(re.escape(u) for u in _UNIT_KEYS) + r")(?![A-Za-z\d])", re.I
)
_SCALE_RE = re.compile(
    r"\s?(?P<scale>thousand|millionen|million|milliarden|milliarde|billion|trillion|tausend|mio|mrd|bn|mn|k|m|b|tn)(?![A-Za-z])",
    re.I,
)
_AGE_AFTER = re.compile(r"\s?-?\s?(?:years?|yrs?)[\s-]?old\b|\s?-?\s?year-old\b|\s+years?\s+of\s+age\b", re.I)
#: "at 17" ends a clause or is followed by a person's clause: an age ("signed at 17, he ...")
_AT_AGE_BEFORE = re.compile(r"\bat\s+$", re.I)
_AT_AGE_AFTER = re.compile(r"\s*(?:[,.;:)]|$|\s*(?:when|after|before|he|she|they|in|with|and)\b)", re.I)
#: a determiner or possessive before a year used as a modifier ("the 2011 album", "its 1993 tour")
_DET_BEFORE = re.compile(r"(?:\b(?:the|a|an|its|his|her|their|our|this|that)|['’]s)\s+$", re.I)
_AGE_BEFORE = re.compile(r"\b(?:aged|age of|age)\s*$", re.I)
_TIME_RE = re.compile(
    r"\b(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ap>a\.?\s?m\.?|p\.?\s?m\.?)(?![A-Za-z])"
    r"|\b(?P<h24>[01]?\d|2[0-3])[:h](?P<m24>[0-5]\d)\b"
    r"|\b(?P<word>noon|midday|midnight)\b",
    re.I,
)
_DATE_PATTERNS = [
    # 14 July 1867, 14th of July, 1867, 4 July, 14. Juli 1867 (German)
    re.compile(
        r"\b(?P<d>\d{1,2})(?:st|nd|rd|th|\.)?\s+(?:of\s+)?(?P<mon>"
        + _MONTH_RE
        + r")(?:,?\s+(?P<y>\d{3,4}))?\b"
    ),
    # July 14, 1867 / July 14th 1867 / July 14
    re.compile(
        r"\b(?P<mon>" + _MONTH_RE + r")\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?![\d:])(?:,?\s+(?P<y>\d{3,4}))?\b"
    ),
    # July 1867
    re.compile(r"\b(?P<mon>" + _MONTH_RE + r"),?\s+(?P<y>\d{4})\b"),
    # ISO 1867-07-14 (also opening a timestamp, 2018-03-07T07:25) and numeric 14/07/1867,
    # 07/14/1867 (dateparser decides)
    re.compile(r"\b(?P<iso>\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{4})(?:\b|(?=T\d))"),
]
_YEAR_RE = re.compile(
    r"(?<![A-Za-z0-9_.,$€£¥-])(?P<y>1[0-9]{3}|20[0-9]{2}|2100)(?:s)?(?![A-Za-z0-9_%]|[.,]\d)"
)  # ASCII classes: a year glued to CJK text ("1958年") is still a year


@lru_cache(maxsize=1024)
def _dateparser_parse(s: str) -> tuple[int, int, int] | None:
    import dateparser

    settings = {"PREFER_DAY_OF_MONTH": "first", "DATE_ORDER": "DMY" if re.match(r"\d{1,2}[/.]", s) else "YMD"}
    try:
        d = dateparser.parse(s, languages=["en"], settings=settings)
    except Exception:  # pragma: no cover
        return None
    if d is None:
        return None
    return d.year, d.month, d.day


def _find_dates(text: str, taken: list[tuple[int, int]]) -> list[DateFacet]:
    out: list[DateFacet] = []
    for pat in _DATE_PATTERNS:
        for m in pat.finditer(text):
            if _overlaps(m.start(), m.end(), taken):
                continue
            gd = m.groupdict()
            if gd.get("iso"):
                ymd = _dateparser_parse(gd["iso"])
                if ymd is None:
                    continue
                y, mo, d = ymd
                out.append(DateFacet(y, mo, d, m.group(0), m.start(), m.end()))
            else:
                mon = MONTHS.get(gd["mon"].rstrip(".").lower())
                if mon is None:
                    continue
                if gd["mon"].rstrip(".").lower() == "may" and not gd.get("d") and not gd.get("y"):
                    continue
                day = int(gd["d"]) if gd.get("d") else None
                if day is not None and not 1 <= day <= 31:
                    continue
                year = int(gd["y"]) if gd.get("y") else None
                out.append(DateFacet(year, mon, day, m.group(0), m.start(), m.end()))
            taken.append((m.start(), m.end()))
    return out


def _overlaps(s: int, e: int, taken: list[tuple[int, int]]) -> bool:
    return any(s < te and ts < e for ts, te in taken)


def _nouns_after(text: str, end: int) -> tuple[str, ...]:
    """Stems of up to three lower-case non-stopwords right after ``end`` (the noun phrase)."""
    out: list[str] = []
    for w in re.findall(r"[A-Za-z][A-Za-z\-]*|\S", text[end : end + 60])[:3]:
        lw = w.lower()
        if not w.isalpha() or w[0].isupper() or lw in STOPWORDS:
            break
        out.append(_stem(lw))
    return tuple(out)


def _slot_after(text: str, end: int) -> tuple[str, str, float, int]:
    """Unit or counted noun right after a number ending at ``end``.

    Returns (slot, display unit, factor, end of the unit); slot ``""`` when none.
    """
    m = _AGE_AFTER.match(text, end)
    if m:
        return "age", "years old", 1.0, m.end()
    if re.match(r"s\b", text[end:]) and re.search(r"\d{4}$", text[:end]):
        return "decade", "s", 1.0, end + 1
    m = _UNIT_RE.match(text, end)
    if m:
        unit = m.group("unit").lower()
        # single letters are units only when glued or clearly abbreviations ("5 m", "5m")
        if unit in ("in", "m", "t", "s", "h", "g", "l", "min", "mi", "ha") and m.group(0).startswith(" "):
            nxt = text[m.end() : m.end() + 1]
            if unit == "in" or (nxt.isalpha() if nxt else False):
                pass
            else:
                fam, fac, disp = UNITS[unit]
                return fam, disp, fac, m.end()
        else:
            fam, fac, disp = UNITS[unit]
            return fam, disp, fac, m.end()
    # counted noun: skip up to two adjectives? we take the next content word
    m = re.compile(r"[\s-]+(?:[a-z][a-z\-]*\s+){0,1}?(?P<noun>[A-Za-z][a-z]+)").match(text, end)
    if m:
        words = re.findall(r"[A-Za-z][A-Za-z\-]*", text[end : m.end()])
        for w in words:
            lw = w.lower()
            if lw in STOPWORDS or lw in SCALES:
                return "", "", 1.0, end
            if lw in UNITS:
                continue
            if w[0].isupper():
                return "", "", 1.0, end  # "2006 Announced", "3 Musketeers": not a counted noun
            return "n:" + _stem(lw), lw, 1.0, end
    return "", "", 1.0, end


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
_YEAR_RANGE = re.compile(
    r"(?<![\w.,-])(?P<a>1\d{3}|20\d{2})\s*(?:[–—-]|to|until)\s*(?P<b>1\d{3}|20\d{2}|\d{2})(?![\w%]|[.,]\d)"
)


_TEMPORAL_BEFORE = re.compile(
    r"\b(?:in|since|before|after|until|till|by|from|during|of|early|late|mid|circa|year|c\.)[\s-]*$", re.I
)


_ORDINAL_CENTURY = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "twenty-first": 21,
}  # fmt: skip
_CENTURY_RE = re.compile(
    r"\b(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<w>"
    + "|".join(sorted(_ORDINAL_CENTURY, key=len, reverse=True))
    + r"))[\s-]+century\b(?P<bce>\s*(?:BCE|BC|B\.C\.)\b)?",
    re.I,
)
_DECADE_RE = re.compile(r"(?<![\w.,-])(?P<y>1\d{3}|20\d{2})['’]?s\b")


def _loose(text: str, start: int, *, year: bool = False) -> bool:
    before = text[max(0, start - 25) : start]
    if _APPROX_BEFORE.search(before):
        return True
    return year and _YEAR_BOUND_BEFORE.search(before) is not None


#: verbs that state a factor (a number): the value is the factor, in the slot of "N times".
_FACTOR_VERBS = {"doubl": 2.0, "tripl": 3.0, "trebl": 3.0, "quadrupl": 4.0, "quintupl": 5.0, "halv": 0.5}
_FACTOR_VERB_RE = re.compile(r"\b(" + "|".join(_FACTOR_VERBS) + r")(?:e|es|ed|ing)\b", re.I)


_SMALL_NUMBER = r"\d{1,3}|" + "|".join(NUMBER_WORDS[:21]) + "|hundred|a hundred|thousand|a thousand"
_RATIO_RE = re.compile(
    rf"\b(?P<a>{_SMALL_NUMBER})\s+(?:in|out\s+of|of\s+every)\s+(?P<b>{_SMALL_NUMBER})\b(?!\s*(?:%|percent|per\s+cent))",
    re.I,
)


def _ratio_term(term: str) -> float | None:
    low = term.lower().removeprefix("a ")
    return float(low) if low.isdigit() else _parse_number_words(low)


_ORDINAL_WORD_RE = re.compile(
    r"\b(?:" + "|".join(sorted(_ORDINAL_CENTURY, key=len, reverse=True)) + r")\b", re.I
)


def _find_ordinal_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Ordinal words ("second", "twenty-first") as ordinal quantities, slotted by the noun after
    them like digit ordinals ("third floor" -> ``n:floor``); "finished second" has no slot."""
    out: list[Quantity] = []
    for m in _ORDINAL_WORD_RE.finditer(text):
        if _overlaps(m.start(), m.end(), taken) or re.match(r"[\s-]+century\b", text[m.end() :], re.I):
            continue
        n = float(_ORDINAL_CENTURY[m.group(0).lower()])
        slot, unit, _, _ = _slot_after(text, m.end())
        if not slot.startswith("n:"):
            slot, unit = "", ""
        out.append(Quantity(n, n, slot, unit, m.group(0), m.start(), m.end(), ordinal=True))
        taken.append((m.start(), m.end()))
    return out


def _find_ratios(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Ratios in words, as a share in the ``percent`` slot: "one in four" = 0.25, "3 out of 10"
    = 0.3, "one of every five" = 0.2. The denominator is at least 2 and at least the
    numerator; a year ("3 in 2020") is never a denominator (at most three digits)."""
    out: list[Quantity] = []
    for m in _RATIO_RE.finditer(text):
        if _overlaps(m.start(), m.end(), taken):
            continue
        a, b = _ratio_term(m.group("a")), _ratio_term(m.group("b"))
        if a is None or b is None or b < 2 or a > b:
            continue
        out.append(
            Quantity(
                a / b,
                a / b,
                "percent",
                "ratio",
                m.group(0),
                m.start(),
                m.end(),
                loose=_loose(text, m.start()),
            )
        )
        taken.append((m.start(), m.end()))
    return out


_BOUND_BEFORE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p + r"\s*$", re.I), kind)
    for p, kind in [
        (r"\b(?:up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|(?:a\s+)?maximum\s+of|max\."
         r"|as\s+(?:high|much|many|long|far)\s+as)", "upto"),
        (r"\b(?:less\s+than|fewer\s+than|under|below|lower\s+than)", "below"),
        (r"\b(?:at\s+least|no\s+less\s+than|no\s+fewer\s+than|(?:a\s+)?minimum\s+of|min\.)", "atleast"),
        (r"\b(?:more\s+than|over|above|greater\s+than|upwards\s+of|in\s+excess\s+of)", "above"),
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
    scale = next((w for w in _SCALE_WORDS if re.search(rf"\b{w}\b", like.text, re.I)), None)
    if scale and not re.search(rf"\b{scale}\b", q.text, re.I):
        raw *= SCALES[scale]
    if like.unit == "°F":
        value = (raw - 32.0) * 5.0 / 9.0
    else:
        value = raw * (like.value / like.raw if like.raw else 1.0)
    return replace(q, value=value, raw=raw, slot=like.slot, unit=like.unit, nouns=like.nouns)


def _with_intervals(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """Mark ranges ("between 4 and 6 hours", "from -20 °C to 50 °C", "4-6 hours") and bounds
    ("up to 60 °C", "at least 18", "more than 500") with ``bound`` and ``interval`` (see
    ``Quantity``). Years, decades and times of day are left as they are (year ranges have
    ``lo``/``hi``). ``quantities`` is sorted by ``start``."""
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
        if q.bound or not q.slot or q.slot in _NO_INTERVAL_SLOTS:
            continue
        before = text[max(0, q.start - 25) : q.start]
        kind = next((k for pat, k in _BOUND_BEFORE if pat.search(before)), "")
        if kind:
            inf = math.inf
            span = (-inf, q.value) if kind in ("upto", "below") else (q.value, inf)
            out[i] = replace(q, bound=kind, interval=span, loose=True)
    return out


def _is_year(text: str, num: str, start: int, slot: str, noun: str) -> bool:
    """A four-digit number 1000-2100 without a unit is a year: alone ("in 2011"), after a
    temporal word before a noun ("in 2006 Announced"), or as a modifier after a determiner
    ("the 2011 album", "Low Tide's 1993 tour"; but "the 2000 runners", a round number before a
    plural noun, is a count)."""
    if "," in num or "." in num or re.fullmatch(r"1\d{3}|20\d{2}|2100", num) is None:
        return False
    if slot == "":
        return True
    if not slot.startswith("n:"):
        return False
    if _TEMPORAL_BEFORE.search(text[max(0, start - 12) : start]):
        return True
    plural = noun.endswith("s") and not noun.endswith("ss")
    return bool(_DET_BEFORE.search(text[max(0, start - 8) : start])) and not (plural and int(num) % 100 == 0)


def _free(pattern: re.Pattern[str], text: str, taken: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """Matches of ``pattern`` in ``text`` that overlap no span already taken."""
    for m in pattern.finditer(text):
        if not _overlaps(m.start(), m.end(), taken):
            yield m


def _take(out: list[Quantity], taken: list[tuple[int, int]], q: Quantity) -> None:
    out.append(q)
    taken.append((q.start, q.end))


def _centuries(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Centuries as year ranges: "15th century" = 1401-1500, "the sixteenth century", BCE negative."""
    out: list[Quantity] = []
    for m in _free(_CENTURY_RE, text, taken):
        n = int(m.group("n")) if m.group("n") else _ORDINAL_CENTURY[m.group("w").lower()]
        lo, hi = (n - 1) * 100 + 1, n * 100
        if m.group("bce"):
            lo, hi = -hi, -lo
        _take(
            out,
            taken,
            Quantity(
                float(lo), float(lo), "year", "", m.group(0), m.start(), m.end(), float(lo), float(hi), True
            ),
        )
    return out


def _decades(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Decades and centuries written as years: "1990s" = 1990-1999, "1500s" = 1500-1599."""
    out: list[Quantity] = []
    for m in _free(_DECADE_RE, text, taken):
        y = int(m.group("y"))
        hi = y + (99 if y % 100 == 0 else 9)
        _take(
            out,
            taken,
            Quantity(
                float(y), float(y), "year", "", m.group(0), m.start(), m.end(), float(y), float(hi), True
            ),
        )
    return out


def _year_ranges(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Year ranges: "1992–93", "1898-1980", "1939 to 1975" (never backwards)."""
    out: list[Quantity] = []
    for m in _free(_YEAR_RANGE, text, taken):
        a, b = int(m.group("a")), m.group("b")
        hi = int(b) if len(b) == 4 else (a // 100) * 100 + int(b)
        if hi >= a:
            q = Quantity(
                float(a),
                float(a),
                "year",
                "",
                m.group(0),
                m.start(),
                m.end(),
                float(a),
                float(hi),
                loose=True,
            )
            _take(out, taken, q)
    return out


def _minutes(m: re.Match[str]) -> int | None:
    """Minutes after midnight of a time of day match (None for an impossible 12-hour time)."""
    if m.group("word"):
        return 0 if m.group("word").lower() == "midnight" else 720
    if m.group("h") is None:
        return int(m.group("h24")) * 60 + int(m.group("m24"))
    h, mi = int(m.group("h")), int(m.group("m") or 0)
    if not (1 <= h <= 12 and mi < 60):
        return None
    return (h % 12 + (12 if m.group("ap").lower().startswith("p") else 0)) * 60 + mi


def _times_of_day(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Times of day in minutes after midnight (slot ``time``): "8 pm" = 1200, "20:00", "noon"."""
    out: list[Quantity] = []
    for m in _free(_TIME_RE, text, taken):
        minutes = _minutes(m)
        if minutes is not None:
            _take(
                out,
                taken,
                Quantity(float(minutes), float(minutes), "time", "", m.group(0), m.start(), m.end()),
            )
    return out


def _fraction_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Fractions in words as shares (slot ``percent``): "half" = 0.5, "two thirds"."""
    out: list[Quantity] = []
    for m in _free(_FRACTION_RE, text, taken):
        v = FRACTION_WORDS[m.group(0).lower()]
        _take(out, taken, Quantity(v, v, "percent", "fraction", m.group(0), m.start(), m.end()))
    return out


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
        and prev
        and prev.group(1) not in _ENTITY_STOP
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
    return None if m.group("cur") else _CURRENCY_CODE_BEFORE.search(text[max(0, s - 5) : s])


def _magnitude(text: str, m: re.Match[str], raw: float) -> tuple[float, int, bool]:
    """The number times its magnitude word ("5 million", "$460M"), where that ends, and
    whether the number is an ordinal ("3rd")."""
    end = m.end("num")
    ordinal = re.match(r"(?:st|nd|rd|th)\b", text[end:], re.I) is not None
    if ordinal:
        end += 2
    sm = _SCALE_RE.match(text, end)
    if sm and (
        sm.group("scale").lower() in _SCALE_WORDS or m.group("cur") or not sm.group(0).startswith(" ")
    ):
        return raw * SCALES[sm.group("scale").lower()], sm.end(), ordinal
    return raw, end, ordinal


def _digit_slot(text: str, m: re.Match[str], s: int, end: int) -> tuple[str, str, float, int, int]:
    """(slot, unit, factor, start, end) of a number: its unit or counted noun, an age ("aged
    17", "at 17"), a currency symbol or code before it; ``start`` includes that symbol."""
    slot, unit, factor, uend = _slot_after(text, end)
    if slot == "" and _AGE_BEFORE.search(text[:s]):
        slot, unit = "age", "years old"
    if slot == "" and _AT_AGE_BEFORE.search(text[:s]) and _AT_AGE_AFTER.match(text, uend):
        slot, unit = "age", "years old"
    code = _currency_code(text, m)
    if m.group("cur"):
        return CURRENCY_SYMBOLS[m.group("cur")], m.group("cur"), 1.0, m.start(), uend
    if code is not None:
        return _currency_slot(code.group("code")), code.group("code"), 1.0, max(0, s - 5) + code.start(), uend
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
    if _is_year(text, m.group("num"), s, slot, unit):
        slot, unit, uend = "year", "", max(uend, e)
    value = raw * factor
    if slot == "temperature_f":  # one slot for temperatures, in °C
        value = (raw - 32.0) * 5.0 / 9.0
    if slot.startswith("temperature"):
        slot = "temperature"
    loose = _loose(text, qs, year=slot == "year")
    nouns = _nouns_after(text, uend)
    return Quantity(
        value, raw, slot, unit, text[qs:uend].strip(), qs, uend, loose=loose, nouns=nouns, ordinal=ordinal
    )


def _digits(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Numbers in digits with their magnitude, unit or counted noun, sign and currency."""
    out: list[Quantity] = []
    for m in _NUM_RE.finditer(text):
        if _overlaps(m.start("num"), m.end("num"), taken):
            continue
        q = _digit_quantity(text, m)
        if q is not None:
            _take(out, taken, q)
    return out


def _number_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Spelled-out numbers ("three floors", "twenty-three years old"; number-parser)."""
    out: list[Quantity] = []
    for m in _NUM_WORD_RE.finditer(text):
        s, e = m.start(), m.end()
        low = m.group(0).strip().lower()
        if not low or _overlaps(s, e, taken) or low in _SCALE_WORDS or low == "hundred":
            continue
        wv = _parse_number_words(low)
        if wv is None or (
            low == "one" and re.match(r"\s+(?:of|another|day|who|that|which)\b", text[e:], re.I)
        ):
            continue
        slot, unit, factor, uend = _slot_after(text, e)
        if slot == "" and _AGE_BEFORE.search(text[:s]):
            slot, unit = "age", "years old"
        q = Quantity(wv * factor, wv, slot, unit, text[s:uend].strip(), s, uend, loose=_loose(text, s),
                     nouns=_nouns_after(text, e))  # fmt: skip
        _take(out, taken, q)
    return out


def _factor_verbs(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Multiplicative verbs are numbers: "doubled" = 2 times, "tripled" = 3, "halved" = 0.5."""
    out: list[Quantity] = []
    for m in _free(_FACTOR_VERB_RE, text, taken):
        f = _FACTOR_VERBS[m.group(1).lower()]
        _take(out, taken, Quantity(f, f, "n:tim", "times", m.group(0), m.start(), m.end()))
    return out


#: a recogniser finds one kind of value in a text, skipping the spans already taken and
#: taking its own (so the order decides which reading of a span wins)
Recogniser = Callable[[str, list[tuple[int, int]]], list[Quantity]]

#: the value recognisers, run in this order by ``_find_quantities``
QUANTITY_RECOGNISERS: tuple[Recogniser, ...] = (
    _centuries,
    _decades,
    _year_ranges,
    _times_of_day,
    _find_ratios,
    _fraction_words,
    _digits,
    _find_ordinal_words,
    _number_words,
    _factor_verbs,
)


def _find_quantities(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Every quantity of ``text``: the recognisers of ``QUANTITY_RECOGNISERS`` in turn."""
    out: list[Quantity] = []
    for recognise in QUANTITY_RECOGNISERS:
        out.extend(recognise(text, taken))
    return out


_ENTITY_RE = re.compile(
    r"(?:[A-Z](?:\.[A-Z])+\.?|[A-Z][\w'’\-]*[#+]*\d*|[A-Z]{2,}[\w\-]*)(?:\s+(?:of|de|del|da|van|von|der|di|la|le|the|&)?\s*"
    r"(?:[A-Z]\.(?=\s+[A-Z])|[A-Z][\w'’\-]*[#+]*|\d+[A-Za-z]?(?![\d,.]|[-–]\d))){0,5}"
)


def _find_entities(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for m in _ENTITY_RE.finditer(text):
        s, e = m.start(), m.end()
        surface = m.group(0)
        if text[max(0, s - 1) : s] == "°":
            continue  # the F of "100 °F" is a unit
        toks = surface.split()
        # drop leading stopword-like capitalised words ("The", "In", ...)
        while toks and (
            toks[0].strip("'’") in _ENTITY_STOP or toks[0].lower() in MONTHS or toks[0].isdigit()
        ):
            s = text.index(toks[0], s) + len(toks[0])
            toks = toks[1:]
            while s < e and text[s].isspace():
                s += 1
        while toks and toks[-1].lower() in (
            "of",
            "de",
            "the",
            "and",
            "&",
            "van",
            "von",
            "der",
            "la",
            "le",
            "di",
        ):
            toks = toks[:-1]
        if not toks:
            continue
        toks[-1] = re.sub(r"['’]s?$", "", toks[-1])
        surface = " ".join(t for t in toks if t)
        if (
            not surface
            or surface.lower() in UNITS
            or surface.lower().rstrip(".") in MONTHS
            or re.fullmatch(r"\d+", surface)
        ):
            continue
        out.append((surface, s, s + len(surface)))
    return out


def squash_abbreviations(text: str) -> str:
    """``"U.S."`` -> ``"US"``, ``"U.K"`` -> ``"UK"`` (dotted capitals joined), for matching."""
    return re.sub(r"\b((?:[A-Z]\.){1,}[A-Z])\.?", lambda m: m.group(1).replace(".", ""), text)


def is_weak_entity(text: str, entity: tuple[str, int, int]) -> bool:
    """A single capitalised word that opens a sentence ("Half", "Speaks") may be an ordinary
    word: such an entity is not required for support and never swapped."""
    surface, start, _ = entity
    if " " in surface or re.search(r"\d|[#+]|[A-Z].*[A-Z]", surface):
        return False
    before = text[:start].rstrip()
    return before == "" or before.endswith((".", "!", "?", ":", ";", "\n", '"', "(", "-", "•", "*"))


#: sentence frames that deny the clause they introduce ("It is false that X", "There is no
#: evidence that X", "It is not true that X"); their words are the frame, not the claim's content
_NEGATION_FRAME = re.compile(
    r"\b(?:it\s+(?:is|was|'s)\s+(?:not\s+true|false|untrue|incorrect|wrong|a\s+myth|not\s+the\s+case)"
    r"|there\s+(?:is|was|are|were)\s+no\s+(?:evidence|proof|record|indication|sign)"
    r"|no\s+(?:evidence|proof|record)\s+(?:shows|suggests|indicates))\s+(?:that|of)\b",
    re.I,
)


def negation_frame(text: str) -> tuple[int, int] | None:
    """Span of a denying frame in ``text`` ("It is false that", "There is no evidence that"),
    or None."""
    m = _NEGATION_FRAME.search(text)
    return (m.start(), m.end()) if m else None


def _negation(text: str) -> tuple[bool, str]:
    """Whether ``text`` is negated, and the cue. "not only", "not until" / "not ... until"
    (a time, not a denial) and "no doubt" do not negate; a denying frame ("It is false that")
    does."""
    frame = _NEGATION_FRAME.search(text)
    if frame:
        return True, frame.group(0)
    low = text.lower().replace("’", "'")
    for m in re.finditer(
        r"\b(?:not|never|no|none|nor|neither|without|cannot|nobody|nothing|nowhere"
        r"|nicht|nie|niemals|nichts|kein(?:e|en|em|er|es)?)\b|n't\b",
        low,
    ):
        after = low[m.end() : m.end() + 60]
        if m.group(0) in ("not", "n't") and re.match(r"\s*(?:only|just|merely)\b", after):
            continue
        if m.group(0) == "nicht" and re.match(r"\s*(?:nur|erst|bis)\b", after):
            continue  # "nicht nur" = "not only", "nicht erst/bis" = "not until"
        if m.group(0) in ("not", "n't", "never") and re.match(
            r"(?:\s+\S+){0,5}?\s+(?:until|till|before)\b", after
        ):
            continue
        if m.group(0) == "no" and re.match(r"\s*(?:doubt|longer)\b", after) and "longer" not in after[:8]:
            continue
        return True, text[m.start() : m.end()]
    m2 = _NEG_PHRASES.search(text)
    if m2:
        return True, m2.group(0)
    return False, ""


def _hedges(text: str) -> list[tuple[str, str, int, int]]:
    out: list[tuple[str, str, int, int]] = []
    for pat, label in HEDGES:
        for m in pat.finditer(text):
            g = m.group(0)
            s0 = m.start() + len(g) - len(g.lstrip())
            out.append((label, g.strip(), s0, s0 + len(g.strip())))
    return out


def _without_frame(text: str) -> str:
    """``text`` with a denying frame blanked out (its words are not the claim's content)."""
    span = negation_frame(text)
    return text if span is None else text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


@lru_cache(maxsize=65536)
def extract(text: str) -> Facets:
    """All facets of ``text`` (cached; the result must be treated as read-only).

    >>> f = extract("The Geneva accord was signed on 14 July 1867 by four delegations.")
    >>> [(d.year, d.month, d.day) for d in f.dates], [(q.value, q.slot) for q in f.quantities]
    ([(1867, 7, 14)], [(4.0, 'n:delegation')])

    Markdown emphasis ("**12 million**", "_about 40_", backticks) is ignored for analysis; the
    spans of the facets stay exact in ``text``.
    """
    plain, at = _without_emphasis(text)
    if plain == text:
        return _extract_plain(text)
    return _remap(_extract_plain(plain), text, at)


#: markdown emphasis: runs of asterisks or backticks, double/triple underscores, and a single
#: underscore at a word's edge (never inside snake_case)
_EMPHASIS = re.compile(r"\*+|`+|_{2,3}|(?<!\w)_(?=\w)|(?<=\w)_(?!\w)")


def _without_emphasis(text: str) -> tuple[str, list[int]]:
    """``text`` without markdown emphasis markers, and for every character of the result (and
    its end) the index it came from in ``text``."""
    keep: list[int] = []
    pos = 0
    for m in _EMPHASIS.finditer(text):
        keep.extend(range(pos, m.start()))
        pos = m.end()
    keep.extend(range(pos, len(text)))
    return "".join(text[i] for i in keep), keep + [len(text)]


def _remap(f: Facets, text: str, at: list[int]) -> Facets:
    """Facets of the emphasis-free text with their spans moved back into ``text``."""

    def span(s: int, e: int) -> tuple[int, int]:
        return at[s], (at[e - 1] + 1 if e > s else at[s])

    quantities = [
        replace(q, start=span(q.start, q.end)[0], end=span(q.start, q.end)[1]) for q in f.quantities
    ]
    dates = [replace(d, start=span(d.start, d.end)[0], end=span(d.start, d.end)[1]) for d in f.dates]
    entities = [(t, *span(s, e)) for t, s, e in f.entities]
    hedges = [(label, surface, *span(s, e)) for label, surface, s, e in f.hedges]
    return Facets(
        text=text,
        quantities=quantities,
        dates=dates,
        entities=entities,
        tokens=f.tokens,
        negated=f.negated,
        negation_cue=f.negation_cue,
        hedges=hedges,
        words=f.words,
    )


def _extract_plain(text: str) -> Facets:
    """``extract`` of a text without markdown emphasis."""
    taken: list[tuple[int, int]] = []
    dates = _find_dates(text, taken)
    quantities = _find_quantities(text, taken)
    neg, cue = _negation(text)
    words = frozenset(w.lower() for w in re.findall(r"[A-Za-z]+", text))
    return Facets(
        text=text,
        quantities=_with_intervals(text, sorted(quantities, key=lambda q: q.start)),
        dates=dates,
        entities=_find_entities(text),
        tokens=content_tokens(_without_frame(text)),
        negated=neg,
        negation_cue=cue,
        hedges=_hedges(text),
        words=words,
    )


# ---------------------------------------------------------------- comparisons


def values_equal(a: float, b: float) -> bool:
    """Equal up to floating error (relative 1e-6)."""
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


def slots_compatible(a: Quantity, b: Quantity) -> bool:
    """Whether two quantities fill the same slot (and so may conflict); an ordinal ("3rd
    floor") and a count ("4 floors") never do."""
    if not a.slot or not b.slot or a.ordinal != b.ordinal:
        return False
    if a.slot == b.slot:
        return True
    if a.slot.startswith("n:") and b.slot.startswith("n:"):
        # the counted noun is the head of the phrase after the number: "four motorway lanes"
        # counts lanes like "four lanes of the E39 motorway"
        na, nb = a.slot[2:], b.slot[2:]
        return (
            token_match(na, nb)
            or any(token_match(na, x) for x in b.nouns)
            or any(token_match(nb, x) for x in a.nouns)
        )
    return False


def _span(q: Quantity) -> tuple[float, float]:
    return (q.lo, q.hi) if q.lo is not None and q.hi is not None else (q.raw, q.raw)


def year_matches(a: Quantity, b: Quantity) -> bool:
    """Year ``a`` (the claim's) is stated by ``b`` (the reference's): the same year or range;
    ``b`` inside the range ``a`` ("in the 16th century" is stated by "in 1570"); a point year
    that starts or ends the range ``b`` ("from 1939" by "1939–1975"); or a point year inside
    a range of at most two calendar years (a season such as "1992–93")."""
    (alo, ahi), (blo, bhi) = _span(a), _span(b)
    if (alo, ahi) == (blo, bhi):
        return True
    if alo < ahi and alo <= blo and bhi <= ahi:
        return True
    if alo == ahi and alo in (blo, bhi):
        return True
    return alo == ahi and bhi - blo <= 1 and blo <= alo <= bhi


def year_overlaps(a: Quantity, b: Quantity) -> bool:
    """The two years or ranges share at least one year (then they never conflict)."""
    (alo, ahi), (blo, bhi) = _span(a), _span(b)
    return alo <= bhi and blo <= ahi


def quantity_matches(a: Quantity, b: Quantity) -> bool:
    """``a`` is stated by ``b``: same value, and same slot when both have one
    (a slot-less number matches an equal value in any slot except years). Loose
    (approximate) values match within 5 %. An exact point is never stated by a range or a
    bound ("5 hours" is not stated by "between 4 and 6 hours" nor by "up to 6 hours")."""
    if (b.bound and not a.bound and not a.loose) or a.ordinal != b.ordinal:
        return False
    if (a.loose or b.loose) and a.slot not in ("year", "time") and b.slot not in ("year", "time"):
        if a.slot and b.slot and not slots_compatible(a, b):
            return False
        return math.isclose(a.value, b.value, rel_tol=0.05) or math.isclose(a.raw, b.raw, rel_tol=0.05)
    if a.slot == "time" or b.slot == "time":
        return a.slot == b.slot and values_equal(a.value, b.value)
    if a.slot and b.slot:
        if slots_compatible(a, b):
            return values_equal(a.value, b.value)
        return False
    if a.slot == "year" or b.slot == "year":
        return a.slot == b.slot == "year" and values_equal(a.raw, b.raw)
    return values_equal(a.raw, b.raw) or values_equal(a.value, b.value)
