"""Word lists and unit tables of the facet recognisers.

What is here: month names (English, and the German ones that differ) and their regex; units
by slot family with the factor to the family's base unit (``UNITS``); currency symbols and
ISO 4217 codes; scale words ("million", "bn", German "Milliarden"); number, ordinal, fraction
and century-ordinal words; stopwords and entity stopwords; antonym pairs and dimension words;
and the crude stemmer the word lists are stored in.

Sources: the tables written in this module, and the data files under ``claims/data/`` (written
for claimaudit, Apache-2.0; see each file's header): ``stopwords.txt``,
``entity_stopwords.txt``, ``antonyms.tsv`` and ``dimension_words.tsv``, read by
``_data_words`` / ``data_rows``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources


def _data_words(name: str) -> list[str]:
    """The words of ``claims/data/<name>``, one per line (``#`` starts a comment)."""
    return [row[0] for row in data_rows(name, 1)]


def data_lines(name: str) -> list[tuple[int, str]]:
    """(line number, text) of each line of ``claims/data/<name>`` that is not blank once its
    ``#`` comment is cut off, stripped."""
    text = resources.files("claims").joinpath("data", name).read_text(encoding="utf-8")
    lines = ((n, line.split("#", 1)[0].strip()) for n, line in enumerate(text.splitlines(), 1))
    return [(n, line) for n, line in lines if line]


def data_rows(name: str, width: int) -> list[tuple[str, ...]]:
    """Rows of the tab-separated word list ``claims/data/<name>`` (``#`` starts a comment;
    blank lines skipped). Each row has exactly ``width`` fields; raises ValueError otherwise."""
    rows = []
    for n, line in data_lines(name):
        row = tuple(x.strip() for x in line.split("\t"))
        if len(row) != width:
            raise ValueError(f"claims/data/{name}:{n}: expected {width} tab-separated fields")
        rows.append(row)
    return rows


#: irregular past forms -> their base ("won" -> "win"; ``claims/data/irregular_verbs.tsv``)
_IRREGULAR_VERBS: dict[str, str] = dict(data_rows("irregular_verbs.tsv", 2))  # type: ignore[arg-type]


@lru_cache(maxsize=1 << 16)
def stem_of(w: str) -> str:
    """Crude stem of a word (the form the word lists and content tokens are compared in):
    lower-cased, a possessive and one suffix dropped, at least three characters kept
    ("enrolled" -> "enroll", "studies" -> "study"). A plural "-es" goes only after a sibilant
    ("boxes" -> "box", "churches" -> "church") and after "o" in a longer word ("heroes" ->
    "hero", "potatoes" -> "potato"; "shoes" -> "shoe"); elsewhere only its "s"
    ("genes" -> "gene", "rates" -> "rate": the singular's own "e" stays, so "rates" is not "rat").
    An irregular past form is its base ("won" -> "win", ``_IRREGULAR_VERBS``), and a short
    verb keeps the "e" its "-ed" or "-ing" dropped ("voted" -> "vote", "filing" -> "file"; "rats"
    stays "rat"). Pure, so its results are cached (the checks ask for the same words again and
    again)."""
    w = w.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if w in _IRREGULAR_VERBS:
        return _IRREGULAR_VERBS[w]
    for suf, rep in (("ies", "y"), ("ied", "y"), ("ing", ""), ("edly", ""), ("ed", ""), ("es", ""),
                     ("ly", ""), ("s", "")):  # fmt: skip
        if suf == "es" and not w.endswith(_SIBILANT_ES) and not (w.endswith("oes") and len(w) >= 6):
            continue
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            stem = w[: len(w) - len(suf)] + rep
            # "voted", "filing": a short consonant-vowel-consonant stem lost its "e" ("vote", "file")
            if suf in ("ed", "ing") and len(stem) == 3 and _CVC.fullmatch(stem):
                stem += "e"
            return stem
    return w


_CVC = re.compile(r"[^aeiouy][aeiou][^aeiouwxy]")
#: plural endings whose "-es" is a suffix of its own ("boxes", "churches", "classes")
_SIBILANT_ES = ("sses", "xes", "zes", "ches", "shes")


MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
    # German month names that differ from the English ones (April, August, September, November
    # are the same)
    "januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "mai": 5, "juni": 6, "juli": 7,
    "oktober": 10, "okt": 10, "dezember": 12, "dez": 12,
}  # fmt: skip
MONTH_RE = (
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
_units("length", "µm|μm|micrometre|micrometres|micrometer|micrometers|micron|microns", 1e-6, "micrometres")
_units("length", "nm|nanometre|nanometres|nanometer|nanometers", 1e-9, "nanometres")
_units("length", "ft|foot|feet", 0.3048, "feet")
_units("length", "in|inch|inches", 0.0254, "inches")
_units("length", "yd|yard|yards", 0.9144, "yards")
_units("length", "mi|mile|miles", 1609.344, "miles")
_units("length", "nautical mile|nautical miles|nmi", 1852.0, "nautical miles")
_units("mass", "kg|kilogram|kilograms|kilo|kilos", 1.0, "kg")
_units("mass", "g|gram|grams|gramme|grammes", 0.001, "grams")
_units("mass", "mg|milligram|milligrams", 1e-6, "milligrams")
_units("mass", "µg|μg|mcg|microgram|micrograms", 1e-9, "micrograms")
_units("mass", "t|tonne|tonnes|ton|tons", 1000.0, "tonnes")
# a ton with its system named: "265 metric tons (261 long tons)"; a bare "ton" is read as metric
_units("mass", "metric ton|metric tons|metric tonne|metric tonnes", 1000.0, "tonnes")
_units("mass", "long ton|long tons", 1016.0469088, "long tons")
_units("mass", "short ton|short tons", 907.18474, "short tons")
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
_units("frequency", "hz|hertz", 1.0, "Hz")
_units("frequency", "khz|kilohertz", 1e3, "kHz")
_units("frequency", "mhz|megahertz", 1e6, "MHz")
_units("frequency", "ghz|gigahertz", 1e9, "GHz")
_units("resolution", "mp|megapixel|megapixels", 1.0, "megapixels")
# power, energy and voltage ("15 watts" / "15 W" is a value, not an entity)
_units("power", "w|watt|watts", 1.0, "watts")
_units("power", "kw|kilowatt|kilowatts", 1e3, "kW")
_units("power", "mw|megawatt|megawatts", 1e6, "MW")
_units("power", "gw|gigawatt|gigawatts", 1e9, "GW")
_units("power", "hp|horsepower", 745.699872, "horsepower")
_units("energy", "wh|watt-hour|watt-hours", 3600.0, "Wh")
_units("energy", "kwh|kilowatt-hour|kilowatt-hours|kilowatt hours", 3.6e6, "kWh")
_units("energy", "mwh|megawatt-hour|megawatt-hours|megawatt hours", 3.6e9, "MWh")
_units("voltage", "v|volt|volts", 1.0, "volts")
_units("voltage", "kv|kilovolt|kilovolts", 1e3, "kV")
_units("speed", "km/h|kph|kmh", 1 / 3.6, "km/h")
_units("speed", "mph", 0.44704, "mph")
_units("speed", "m/s", 1.0, "m/s")
_units("speed", "knot|knots", 0.514444, "knots")  # not "kn": kN is a kilonewton
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
# the same units as Spanish, French, Italian, Portuguese, Chinese and Japanese write them (German
# "Meter", "Kilometer" are the English spellings above); CJK units follow the digits unspaced
_units("length", "metro|metros|mètre|mètres|metri|米|メートル", 1.0, "metres")
_units(
    "length",
    "kilómetro|kilómetros|kilomètre|kilomètres|chilometri|quilômetros|公里|千米|キロメートル",
    1000.0,
    "kilometres",
)
_units("length", "厘米|センチメートル|センチ", 0.01, "centimetres")
_units("mass", "kilogramo|kilogramos|kilogramme|kilogrammes|公斤|千克|キログラム", 1.0, "kg")
_units("mass", "gramo|gramos|grammi|克|グラム", 0.001, "grams")
_units("mass", "tonelada|toneladas|吨|トン", 1000.0, "tonnes")
_units("duration", "año|años|ans|anni|anos|jahre|jahren", 31556952.0, "years")
_units("duration", "minutos|minuti|分钟|分間", 60.0, "minutes")
_units("duration", "horas|heures|ore|stunden|小时|時間", 3600.0, "hours")
_units("duration", "días|jours|giorni|tage|tagen|天|日間", 86400.0, "days")
_units("currency_usd", "dólares|dollari|美元|ドル", 1.0, "dollars")
_units("currency_eur", "欧元|ユーロ", 1.0, "euros")
_units("currency_jpy", "円|日元", 1.0, "yen")
_units("currency_cny", "元|人民币", 1.0, "CNY")
_units("percent", "por ciento|pour cent|per cento|％|パーセント", 0.01, "%")

CURRENCY_SYMBOLS = {"$": "currency_usd", "€": "currency_eur", "£": "currency_gbp", "¥": "currency_jpy"}
#: ISO 4217 codes written before an amount ("USD 640,000,000", "EUR 4.500.000")
CURRENCY_CODE_BEFORE = re.compile(r"\b(?P<code>USD|US\$|EUR|GBP|JPY|CHF|CAD|AUD|NOK|SEK|DKK|CNY|INR)\s?$")


def currency_slot(code: str) -> str:
    """``"USD"`` -> ``"currency_usd"`` (``"US$"`` too)."""
    return "currency_" + code.replace("US$", "USD").lower()


SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
    "trillion": 1e12, "tn": 1e12, "crore": 1e7, "lakh": 1e5,
    # German (and Dutch/Scandinavian-like) scale words; German "Billion" (10^12) is left out
    # because it collides with English "billion"
    "tausend": 1e3, "millionen": 1e6, "mio": 1e6, "milliarde": 1e9, "milliarden": 1e9, "mrd": 1e9,
}  # fmt: skip
SCALE_WORDS = ("thousand", "million", "billion", "trillion", "bn", "mn", "tausend", "millionen", "mio",
                "milliarde", "milliarden", "mrd")  # fmt: skip
#: a decimal comma ("3,5 Millionen", "12,50 €", "4,2 %"): one or two digits after the comma,
#: read as decimals only before a scale word, a currency or a percent sign
#: a decimal comma ("2,4 %", "1,2 Kilometer"): one or two digits after the comma, before a
#: magnitude, currency, percent or unit (a comma before three digits groups thousands)
DECIMAL_COMMA = (
    r"\d+,\d{1,2}(?=\s?(?i:thousand|million|billion|tausend|millionen|milliarden?|mio|mrd|euros?|eur"
    r"|dollars?|usd|prozent|percent|"
    + "|".join(re.escape(u) for u in sorted((u for u in UNITS if len(u) > 1), key=len, reverse=True))
    + r")\b|\s?[€$£%])"
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

#: ordinal words up to 21 -> value (centuries: "fifteenth century"; ordinals: "third floor")
ORDINAL_CENTURY = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "twenty-first": 21,
}  # fmt: skip


STOPWORDS: frozenset[str] = frozenset(_data_words("stopwords.txt"))


#: the rows of the project's lexicon ``claims/data/lexicon.tsv`` (built by
#: ``tools/build_lexicon.py``; read through ``claims.lexicon``): word, other, relation, part of
#: speech, kind, source
LEXICON_ROWS: list[tuple[str, ...]] = data_rows("lexicon.tsv", 6)


def _load_antonyms() -> dict[str, frozenset[str]]:
    """The opposites written for claimaudit (``claims/data/antonyms.tsv``, rows of source "hand"
    in ``claims/data/lexicon.tsv``), both directions, with their kinds."""
    table: dict[str, frozenset[str]] = {}
    for a, b, relation, _, kind, source in LEXICON_ROWS:
        if relation != "antonym" or source != "hand":
            continue
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
        fam: frozenset(stem_of(w) for w in words.split())
        for fam, words in data_rows("dimension_words.tsv", 2)
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


def _load_wordnet_antonyms() -> dict[str, dict[str, frozenset[str]]]:
    """WordNet 3.0's direct antonyms of adjectives and verbs (rows of source "wordnet" in
    ``claims/data/lexicon.tsv``, built by ``tools/build_lexicon.py``): word form -> {antonym form:
    its parts of speech, "adj" and/or "verb" ("clean" / "dirty" is both)}, both directions."""
    table: dict[str, dict[str, frozenset[str]]] = {}
    for a, b, relation, pos, _, source in LEXICON_ROWS:
        if relation != "antonym" or source != "wordnet" or pos not in ("adj", "verb"):
            continue
        for x, y in ((a, b), (b, a)):
            row = table.setdefault(x, {})
            row[y] = row.get(y, frozenset()) | {pos}
    return table


#: WordNet's antonyms by word form (``_load_wordnet_antonyms``): read only by the antonym check
#: (``claims.verdict.lexical``), which asks that both words say something of the same noun
WORDNET_ANTONYMS: dict[str, dict[str, frozenset[str]]] = _load_wordnet_antonyms()

ENTITY_STOP: frozenset[str] = frozenset(_data_words("entity_stopwords.txt"))
