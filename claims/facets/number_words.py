"""Numbers in words: spelled-out numbers (``number_parser.parse_number``: "twenty-three" = 23,
German "vier"), ordinal words ("third floor"), ratios ("one in four" = 0.25), fractions ("two
thirds"), "a pair of", and multiplicative verbs ("doubled" = 2 times). Each is slotted by the
noun after it (``claims.facets.number_slots``). Word lists are in ``claims.facets.vocabulary``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from claims.facets.number_slots import AGE_BEFORE, nouns_after, slot_after
from claims.facets.spans import free, is_loose, overlaps, take
from claims.facets.types import Quantity
from claims.facets.vocabulary import (
    FRACTION_WORDS,
    NUMBER_WORDS,
    ORDINAL_CENTURY,
    SCALE_WORDS,
    data_rows,
    stem_of,
)
from claims.types import ModelUnavailable, passing_fault


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
    r"\b(?:" + "|".join(sorted(ORDINAL_CENTURY, key=len, reverse=True)) + r")\b", re.I
)


def find_ordinal_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Ordinal words ("second", "twenty-first") as ordinal quantities, slotted by the noun after
    them like digit ordinals ("third floor" -> ``n:floor``); "finished second" has no slot."""
    out: list[Quantity] = []
    for m in _ORDINAL_WORD_RE.finditer(text):
        if overlaps(m.start(), m.end(), taken) or re.match(r"[\s-]+century\b", text[m.end() :], re.I):
            continue
        n = float(ORDINAL_CENTURY[m.group(0).lower()])
        slot, unit, _, _ = slot_after(text, m.end())
        if not slot.startswith("n:"):
            slot, unit = "", ""
        out.append(Quantity(n, n, slot, unit, m.group(0), m.start(), m.end(), ordinal=True))
        taken.append((m.start(), m.end()))
    return out


def find_ratios(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Ratios in words, as a share in the ``percent`` slot: "one in four" = 0.25, "3 out of 10"
    = 0.3, "one of every five" = 0.2. The denominator is at least 2 and at least the
    numerator; a year ("3 in 2020") is never a denominator (at most three digits)."""
    out: list[Quantity] = []
    for m in _RATIO_RE.finditer(text):
        if overlaps(m.start(), m.end(), taken):
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
                loose=is_loose(text, m.start()),
            )
        )
        taken.append((m.start(), m.end()))
    return out


def fraction_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Fractions in words as shares (slot ``percent``): "half" = 0.5, "two thirds"."""
    out: list[Quantity] = []
    for m in free(_FRACTION_RE, text, taken):
        v = FRACTION_WORDS[m.group(0).lower()]
        quantity = Quantity(
            v, v, "percent", "fraction", m.group(0), m.start(), m.end(), loose=is_loose(text, m.start())
        )
        take(out, taken, quantity)
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


def find_number_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Spelled-out numbers ("three floors", "twenty-three years old"; number-parser)."""
    out: list[Quantity] = []
    for m in _NUM_WORD_RE.finditer(text):
        s, e = m.start(), m.end()
        low = m.group(0).strip().lower()
        if not low or overlaps(s, e, taken) or low in SCALE_WORDS or low == "hundred":
            continue
        wv = _parse_number_words(low)
        if wv is None or (
            low == "one"
            and (_ONE_NOT_COUNTED.match(text[e:]) or _distributive(text, s, e) or _NO_ONE.search(text[:s]))
        ):
            continue
        slot, unit, factor, uend = slot_after(text, e)
        if slot == "" and AGE_BEFORE.search(text[:s]):
            slot, unit = "age", "years old"
        q = Quantity(wv * factor, wv, slot, unit, text[s:uend].strip(), s, uend, loose=is_loose(text, s),
                     nouns=nouns_after(text, e))  # fmt: skip
        take(out, taken, q)
    return out


_GERMAN_NUMBERS = {w: float(v) for w, v in data_rows("number_words_de.tsv", 2)}
_GERMAN_RE = re.compile(r"\b(?:" + "|".join(_GERMAN_NUMBERS) + r")\b", re.I)


def german_number_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """German number words ("vier Etagen"; ``claims/data/number_words_de.tsv``), slotted by the
    noun after them like English ones."""
    out: list[Quantity] = []
    for m in free(_GERMAN_RE, text, taken):
        v = _GERMAN_NUMBERS[m.group(0).lower()]
        slot, unit, factor, uend = slot_after(text, m.end())
        q = Quantity(v * factor, v, slot, unit, text[m.start() : uend].strip(), m.start(), uend,
                     nouns=nouns_after(text, m.end()))  # fmt: skip
        take(out, taken, q)
    return out


_PAIR_RE = re.compile(r"\b(?:a|one|the)\s+pair\s+of\b", re.I)


def pair_words(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """ "a pair of" counts two: "a pair of merging black holes" states the "two black holes" of
    a claim ("a couple of" is vaguer, and is no value)."""
    out: list[Quantity] = []
    for m in free(_PAIR_RE, text, taken):
        if re.match(
            r"\s*(?:jeans|trousers|pants|shorts|tights|scissors|glasses|spectacles|pliers|tongs|binoculars)\b",
            text[m.end() :],
            re.I,
        ):
            continue  # one item: "a pair of jeans"
        slot, unit, factor, uend = slot_after(text, m.end())
        q = Quantity(2.0 * factor, 2.0, slot, unit, text[m.start() : uend].strip(), m.start(), uend,
                     nouns=nouns_after(text, m.end()))  # fmt: skip
        take(out, taken, q)
    return out


def factor_verbs(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Multiplicative verbs are numbers: "doubled" = 2 times, "tripled" = 3, "halved" = 0.5."""
    out: list[Quantity] = []
    for m in free(_FACTOR_VERB_RE, text, taken):
        f = _FACTOR_VERBS[m.group(1).lower()]
        take(out, taken, Quantity(f, f, "n:" + stem_of("times"), "times", m.group(0), m.start(), m.end()))
    return out
