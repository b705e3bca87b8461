"""The slot of a number: the unit or counted noun right after it, an age ("aged 17", "17-year-old",
"at 17"), a CJK counter ("1958年", "17歳"), or the noun of "a capacity of 50,000" and "The
capacity of the stadium is 50,000". Read by the recognisers of ``claims.facets.numbers`` and
``claims.facets.number_words``.
"""

from __future__ import annotations

import re

from claims.facets.vocabulary import (
    SCALES,
    STOPWORDS,
    UNITS,
    stem_of,
)

_UNIT_KEYS = sorted(UNITS, key=len, reverse=True)
_UNIT_RE = re.compile(
    r"\s?-?\s?(?P<unit>" + "|".join(re.escape(u) for u in _UNIT_KEYS) + r")(?![A-Za-z\d])", re.I
)
_AGE_AFTER = re.compile(
    r"\s?-?\s?(?:years?|yrs?)[\s-]?old\b|\s?-?\s?year-old\b|\s+years?\s+of\s+age\b|\s+(?:años|ans|anni|anos|jahre)\s+(?:de\s+edad|alt)\b",
    re.I,
)
#: "at 17" ends a clause or is followed by a person's clause: an age ("signed at 17, he ...")
AT_AGE_BEFORE = re.compile(r"\bat\s+$", re.I)
AT_AGE_AFTER = re.compile(r"\s*(?:[,.;:)]|$|\s*(?:when|after|before|he|she|they|in|with|and)\b)", re.I)


AGE_BEFORE = re.compile(r"\b(?:aged|age of|age)\s*$", re.I)


def nouns_after(text: str, end: int) -> tuple[str, ...]:
    """Stems of up to three lower-case non-stopwords right after ``end`` (the noun phrase)."""
    out: list[str] = []
    for w in re.findall(r"[A-Za-z][A-Za-z\-]*|\S", text[end : end + 60])[:3]:
        lw = w.lower()
        if not w.isalpha() or w[0].isupper() or lw in STOPWORDS:
            break
        out.append(stem_of(lw))
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


def slot_after(text: str, end: int) -> tuple[str, str, float, int]:
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
                return ("n:" + stem_of(lw), lw, 1.0, end) if w[0].isupper() else ("", "", 1.0, end)
            if w[0].isupper():
                # "two Michelin stars", "five Grand Slam titles" count stars and titles;
                # "2006 Announced", "3 Musketeers" count nothing
                noun = _noun_after_name(text, m.end(), text[:end])
                return ("n:" + stem_of(noun), noun, 1.0, end) if noun else ("", "", 1.0, end)
            return "n:" + stem_of(lw), lw, 1.0, end
    return "", "", 1.0, end


_NOUN_OF = re.compile(r"\b([a-z]{3,})\s+of\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|some\s+)?$")


#: a sentence "The <noun> [of/in ... ] is N" or "X's <noun> is N": the subject's head noun is
#: the number's slot ("The population of Vossa is 3.4 million" -> ``of:population``)
_COPULA_SUBJECT = re.compile(
    r"(?:^|[.;!?]\s+)(?:the\s+)?(?:[\w-]+['’]s\s+)?(?:[a-z-]+\s+)?([a-z]{3,})"
    r"(?:\s+(?:of|in|at|for|on)\s+[^,;.!?]{1,60}?)?\s+(?:is|was|are|were|stands\s+at|stood\s+at)\s+"
    r"(?:about\s+|around\s+|roughly\s+|nearly\s+|some\s+|approximately\s+)?$",
    re.IGNORECASE,
)


def of_slot(before: str) -> str:
    """The slot of a bare number after "<noun> of" ("a capacity of 50,000" -> ``of:capacity``),
    or after "is" with that noun as the subject ("The capacity of the stadium is 50,000"), so
    that "a capacity of 5,000" is a rival; "" when none."""
    m = _NOUN_OF.search(before) or _COPULA_SUBJECT.search(before[-200:])
    if m is None or m.group(1).lower() in STOPWORDS:
        return ""
    return "of:" + stem_of(m.group(1).lower())
