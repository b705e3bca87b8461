"""Numbers: digits, number words, ordinals, ratios, fractions and factor verbs.

Recognises numbers in digits with their sign, magnitude ("5 million", "$460M"), unit or
counted noun, currency symbol or ISO code, and European grouping ("4.500.000,50");
spelled-out numbers (``number_parser.parse_number``: "twenty-three" = 23); ordinal words
("third floor"); ratios in words ("one in four" = 0.25); fractions in words ("two thirds");
and multiplicative verbs ("doubled" = 2 times). Ages ("aged 17", "17-year-old", "at 17") get
the slot ``age``. Word lists are in ``claims.facets.vocabulary``.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from claims.facets.dates import _is_year
from claims.facets.spans import _free, _loose, _overlaps, _take
from claims.facets.types import Quantity
from claims.facets.vocabulary import (
    _CURRENCY_CODE_BEFORE,
    _DECIMAL_COMMA,
    _ENTITY_STOP,
    _ORDINAL_CENTURY,
    _SCALE_WORDS,
    CURRENCY_SYMBOLS,
    FRACTION_WORDS,
    MONTHS,
    NUMBER_WORDS,
    SCALES,
    STOPWORDS,
    UNITS,
    _currency_slot,
    _data_rows,
    _stem,
)
from claims.types import ModelUnavailable, passing_fault

_EURO_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+")


def _to_float(s: str) -> float | None:
    if _EURO_GROUPED.fullmatch(s) or re.fullmatch(r"\d+,\d{1,2}", s):
        # European grouping: dots group thousands, a comma marks decimals ("4.500.000,50")
        s = s.replace(".", "").replace(",", ".")
    s = s.replace(",", "").replace(" ", "")
    try:
        value = float(s)
    except ValueError:
        return None
    return value if math.isfinite(value) else None  # past 1.8e308: no value to compare


@lru_cache(maxsize=4096)
def _parse_number_words(phrase: str) -> float | None:
    from number_parser import parse_number

    try:
        v = parse_number(phrase, language="en")
    except ImportError as exc:  # its language data loads lazily: a broken install, not odd input
        raise ModelUnavailable(f"number_parser's English data could not be loaded: {exc!r}") from exc
    except Exception as exc:  # pragma: no cover - library edge cases: no value
        if passing_fault(exc):  # a time limit or out of memory: not the text's, never cached
            raise
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
_AGE_AFTER = re.compile(
    r"\s?-?\s?(?:years?|yrs?)[\s-]?old\b|\s?-?\s?year-old\b|\s+years?\s+of\s+age\b|\s+(?:años|ans|anni|anos|jahre)\s+(?:de\s+edad|alt)\b",
    re.I,
)
#: "at 17" ends a clause or is followed by a person's clause: an age ("signed at 17, he ...")
_AT_AGE_BEFORE = re.compile(r"\bat\s+$", re.I)
_AT_AGE_AFTER = re.compile(r"\s*(?:[,.;:)]|$|\s*(?:when|after|before|he|she|they|in|with|and)\b)", re.I)


_AGE_BEFORE = re.compile(r"\b(?:aged|age of|age)\s*$", re.I)


def _nouns_after(text: str, end: int) -> tuple[str, ...]:
    """Stems of up to three lower-case non-stopwords right after ``end`` (the noun phrase)."""
    out: list[str] = []
    for w in re.findall(r"[A-Za-z][A-Za-z\-]*|\S", text[end : end + 60])[:3]:
        lw = w.lower()
        if not w.isalpha() or w[0].isupper() or lw in STOPWORDS:
            break
        out.append(_stem(lw))
    return tuple(out)


_CJK_CHAR = re.compile(r"\s?([\u3040-\u30ff\u4e00-\u9fff])")


def _cjk_slot(text: str, end: int) -> tuple[str, str, float, int] | None:
    """The slot of a number followed by a CJK character (Chinese, Japanese), or an age in any
    language ("aged 17", "17 years of age", "17歳"); None otherwise. A CJK unit of ``UNITS``
    is left to the unit pattern, 年 after a four-digit number is a year (slot ""), any other
    character a counter (a counted noun)."""
    m = _AGE_AFTER.match(text, end)
    if m:
        return "age", "years old", 1.0, m.end()
    m = _CJK_CHAR.match(text, end)
    if m is None or _UNIT_RE.match(text, end):
        return None
    ch = m.group(1)
    if ch in "歳岁":
        return "age", "years old", 1.0, m.end()
    if ch == "年":
        return (
            ("", "", 1.0, end)
            if re.search(r"(?<!\d)\d{4}$", text[:end])
            else ("duration", "years", 31556952.0, m.end())
        )
    if ch in "月日号時时分秒":
        return None
    return "n:" + ch, ch, 1.0, m.end()


def _noun_after_name(text: str, at: int, before: str) -> str:
    """The lower-case noun after the capitalised words at ``at`` ("Michelin stars" -> "stars"),
    after a count that is no year; "" when none follows."""
    if re.search(r"\d{4}$", before):
        return ""
    m = re.match(r"(?:\s+[A-Z][\w-]*)*\s+([a-z][a-z]+)\b", text[at:])
    if m is None:
        # a name that ends in a plural counts it: "two Nobel Prizes" -> "prizes"
        run = re.match(r"(?:\s+[A-Z][\w-]*)*", text[at:])
        words = (run.group(0) if run else "").split() or text[max(0, at - 40) : at].split()[-1:]
        return words[-1].lower() if words and re.fullmatch(r"[A-Z][a-z]{2,}s", words[-1]) else ""
    return "" if m.group(1) in STOPWORDS else m.group(1)


#: function words that mark a German text, where every noun is capitalised
_GERMAN_TEXT = re.compile(r"\b(?:der|das|und|ist|hat|wurde|wurden|nicht|eine|einen|mit|sind)\b")


#: the counted noun after a number: the next whole word (letters of any script, so "eröffnet"
#: is one word, never "er"), after at most one lower-case word
_COUNTED = re.compile(r"[\s-]+(?:[a-z][a-z\-]*\s+){0,1}?(?P<noun>[^\W\d_][^\W\d_]+)(?![^\W\d_])")


def _slot_after(text: str, end: int) -> tuple[str, str, float, int]:
    """Unit or counted noun right after a number ending at ``end``.

    Returns (slot, display unit, factor, end of the unit); slot ``""`` when none.
    """
    cjk = _cjk_slot(text, end)
    if cjk is not None:
        return cjk
    if re.match(r"s\b", text[end:]) and re.search(r"\d{4}$", text[:end]):
        return "decade", "s", 1.0, end + 1
    m = _UNIT_RE.match(text, end)
    if m:
        unit = m.group("unit").lower()
        # single letters are units only when glued or clearly abbreviations ("5 m", "5m")
        if unit in ("in", "m", "t", "s", "h", "g", "l", "w", "v", "min", "mi", "ha") and m.group(
            0
        ).startswith(" "):
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
    m = _COUNTED.match(text, end)
    if m:
        words = re.findall(r"[^\W\d_][^\W\d_\-]*(?:-[^\W\d_]+)*", text[end : m.end()])
        for w in words:
            lw = w.lower()
            if lw in STOPWORDS or lw in SCALES:
                return "", "", 1.0, end
            if lw in UNITS:
                continue
            if _GERMAN_TEXT.search(text):
                # German nouns are capitalised: "4 Etagen" counts floors, "1921 gebaut" nothing
                return ("n:" + _stem(lw), lw, 1.0, end) if w[0].isupper() else ("", "", 1.0, end)
            if w[0].isupper():
                # "two Michelin stars", "five Grand Slam titles" count stars and titles;
                # "2006 Announced", "3 Musketeers" count nothing
                noun = _noun_after_name(text, m.end(), text[:end])
                return ("n:" + _stem(noun), noun, 1.0, end) if noun else ("", "", 1.0, end)
            return "n:" + _stem(lw), lw, 1.0, end
    return "", "", 1.0, end


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


def _fraction_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Fractions in words as shares (slot ``percent``): "half" = 0.5, "two thirds"."""
    out: list[Quantity] = []
    for m in _free(_FRACTION_RE, text, taken):
        v = FRACTION_WORDS[m.group(0).lower()]
        quantity = Quantity(
            v, v, "percent", "fraction", m.group(0), m.start(), m.end(), loose=_loose(text, m.start())
        )
        _take(out, taken, quantity)
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


_NOUN_OF = re.compile(r"\b([a-z]{3,})\s+of\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|some\s+)?$")


#: a sentence "The <noun> [of/in ... ] is N" or "X's <noun> is N": the subject's head noun is
#: the number's slot ("The population of Vossa is 3.4 million" -> ``of:population``)
_COPULA_SUBJECT = re.compile(
    r"(?:^|[.;!?]\s+)(?:the\s+)?(?:[\w-]+['’]s\s+)?(?:[a-z-]+\s+)?([a-z]{3,})"
    r"(?:\s+(?:of|in|at|for|on)\s+[^,;.!?]{1,60}?)?\s+(?:is|was|are|were|stands\s+at|stood\s+at)\s+"
    r"(?:about\s+|around\s+|roughly\s+|nearly\s+|some\s+|approximately\s+)?$",
    re.IGNORECASE,
)


def _of_slot(before: str) -> str:
    """The slot of a bare number after "<noun> of" ("a capacity of 50,000" -> ``of:capacity``),
    or after "is" with that noun as the subject ("The capacity of the stadium is 50,000"), so
    that "a capacity of 5,000" is a rival; "" when none."""
    m = _NOUN_OF.search(before) or _COPULA_SUBJECT.search(before[-200:])
    if m is None or m.group(1).lower() in STOPWORDS:
        return ""
    return "of:" + _stem(m.group(1).lower())


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
    elif slot == "":
        slot = _of_slot(text[:qs])
    value = raw * factor
    if not math.isfinite(value):
        return None  # a magnitude past what a float holds ("9e307 billion"): not compared
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


#: "one" that counts nothing: "one of", "one another", "one day", "one who"
_ONE_NOT_COUNTED = re.compile(r"\s+(?:of|another|day|who|that|which)\b", re.I)
#: the distributive "from one generation to the next", "from one cell to another": no count
_DISTRIBUTIVE = re.compile(r"\s+[\w-]+\s+to\s+(?:the\s+next|the\s+other|another|the\s+following)\b", re.I)
_FROM = re.compile(r"\bfrom\s+$", re.I)
#: "no one" is "nobody", a negation (claims.facets.polarity), not a count of one
_NO_ONE = re.compile(r"\bno\s+$", re.I)


def _distributive(text: str, start: int, end: int) -> bool:
    """ "one" at ``text[start:end]`` in "from one X to the next / another": it counts nothing
    ("one kilometre to the next village" still counts)."""
    return bool(_FROM.search(text[:start]) and _DISTRIBUTIVE.match(text, end))


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
            low == "one"
            and (_ONE_NOT_COUNTED.match(text[e:]) or _distributive(text, s, e) or _NO_ONE.search(text[:s]))
        ):
            continue
        slot, unit, factor, uend = _slot_after(text, e)
        if slot == "" and _AGE_BEFORE.search(text[:s]):
            slot, unit = "age", "years old"
        q = Quantity(wv * factor, wv, slot, unit, text[s:uend].strip(), s, uend, loose=_loose(text, s),
                     nouns=_nouns_after(text, e))  # fmt: skip
        _take(out, taken, q)
    return out


_GERMAN_NUMBERS = {w: float(v) for w, v in _data_rows("number_words_de.tsv", 2)}
_GERMAN_RE = re.compile(r"\b(?:" + "|".join(_GERMAN_NUMBERS) + r")\b", re.I)


def _german_number_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """German number words ("vier Etagen"; ``claims/data/number_words_de.tsv``), slotted by the
    noun after them like English ones."""
    out: list[Quantity] = []
    for m in _free(_GERMAN_RE, text, taken):
        v = _GERMAN_NUMBERS[m.group(0).lower()]
        slot, unit, factor, uend = _slot_after(text, m.end())
        q = Quantity(v * factor, v, slot, unit, text[m.start() : uend].strip(), m.start(), uend,
                     nouns=_nouns_after(text, m.end()))  # fmt: skip
        _take(out, taken, q)
    return out


_PAIR_RE = re.compile(r"\b(?:a|one|the)\s+pair\s+of\b", re.I)


def _pair_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """ "a pair of" counts two: "a pair of merging black holes" states the "two black holes" of
    a claim ("a couple of" is vaguer, and is no value)."""
    out: list[Quantity] = []
    for m in _free(_PAIR_RE, text, taken):
        if re.match(
            r"\s*(?:jeans|trousers|pants|shorts|tights|scissors|glasses|spectacles|pliers|tongs|binoculars)\b",
            text[m.end() :],
            re.I,
        ):
            continue  # one item: "a pair of jeans"
        slot, unit, factor, uend = _slot_after(text, m.end())
        q = Quantity(2.0 * factor, 2.0, slot, unit, text[m.start() : uend].strip(), m.start(), uend,
                     nouns=_nouns_after(text, m.end()))  # fmt: skip
        _take(out, taken, q)
    return out


def _factor_verbs(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Multiplicative verbs are numbers: "doubled" = 2 times, "tripled" = 3, "halved" = 0.5."""
    out: list[Quantity] = []
    for m in _free(_FACTOR_VERB_RE, text, taken):
        f = _FACTOR_VERBS[m.group(1).lower()]
        _take(out, taken, Quantity(f, f, "n:" + _stem("times"), "times", m.group(0), m.start(), m.end()))
    return out
