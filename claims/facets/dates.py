"""Dates, years and times of day.

Recognises calendar dates ("14 July 1867", "July 14, 1867", "July 1867", German "14. Juli
1867"; ISO ``1867-07-14`` and numeric ``14/07/1867`` parsed by ``dateparser``), centuries
("15th century" = 1401-1500, BCE negative), decades ("1990s"), year ranges ("1992–93",
"1939 to 1975"), times of day in minutes after midnight ("8 pm", "20:00", "noon"), and
decides when a four-digit number is a year (``is_year``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from claims.facets.spans import free, overlaps, take
from claims.facets.types import DateFacet, Quantity
from claims.facets.vocabulary import MONTH_RE, MONTHS, ORDINAL_CENTURY
from claims.types import ModelUnavailable, passing_fault

#: a determiner or possessive before a year used as a modifier ("the 2011 album", "its 1993 tour")
_DET_BEFORE = re.compile(r"(?:\b(?:the|a|an|its|his|her|their|our|this|that)|['’]s)\s+$", re.I)


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
        + MONTH_RE
        + r")(?:,?\s+(?P<y>\d{3,4}))?\b"
    ),
    # July 14, 1867 / July 14th 1867 / July 14
    re.compile(
        r"\b(?P<mon>" + MONTH_RE + r")\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?![\d:])(?:,?\s+(?P<y>\d{3,4}))?\b"
    ),
    # July 1867
    re.compile(r"\b(?P<mon>" + MONTH_RE + r"),?\s+(?P<y>\d{4})\b"),
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
    except ImportError as exc:  # its language data loads lazily: a broken install, not odd input
        raise ModelUnavailable(f"dateparser's English data could not be loaded: {exc!r}") from exc
    except Exception as exc:  # pragma: no cover - library edge cases: no date
        if passing_fault(exc):  # a time limit or out of memory: not the text's, never cached
            raise
        return None
    if d is None:
        return None
    return d.year, d.month, d.day


def find_dates(text: str, taken: list[tuple[int, int]]) -> list[DateFacet]:
    out: list[DateFacet] = []
    for pat in _DATE_PATTERNS:
        for m in pat.finditer(text):
            if overlaps(m.start(), m.end(), taken):
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


_YEAR_RANGE = re.compile(
    r"(?<![\w.,-])(?P<a>1\d{3}|20\d{2})\s*(?:[–—-]|to|until)\s*(?P<b>1\d{3}|20\d{2}|\d{2})(?![\w%]|[.,]\d)"
    # "between 1995 and 2000": "and" joins two years as a range only after "between" ("in 1995
    # and 2000" are two years)
    r"|(?<=\bbetween\s)(?P<a2>1\d{3}|20\d{2})\s+and\s+(?P<b2>1\d{3}|20\d{2})(?![\w%]|[.,]\d)",
    re.I,
)


_TEMPORAL_BEFORE = re.compile(
    r"\b(?:in|since|before|after|until|till|by|from|during|of|early|late|mid|circa|year|c\.)[\s-]*$", re.I
)


_CENTURY_RE = re.compile(
    r"\b(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<w>"
    + "|".join(sorted(ORDINAL_CENTURY, key=len, reverse=True))
    + r"))[\s-]+century\b(?P<bce>\s*(?:BCE|BC|B\.C\.)\b)?",
    re.I,
)
_DECADE_RE = re.compile(r"(?<![\w.,-])(?P<y>1\d{3}|20\d{2})['’]?s\b")


#: an era written with a year ("AD 476", "476 AD", "44 BC", "711 CE"): before it, after it
_ERA_BEFORE = re.compile(r"\b(?:AD|A\.D\.)\s*$")
_ERA_AFTER = re.compile(r"\s*(?P<era>AD|A\.D\.|CE|C\.E\.|BCE|B\.C\.E\.|BC|B\.C\.)(?![A-Za-z])")
#: words right before a three-digit number that make it a year ("in 711", "before 476",
#: "circa 865"; not "by 300", "from 200": a change or a range of counts)
_YEAR_WORD_BEFORE = re.compile(
    r"\b(?:in|since|before|after|until|till|during|circa|c\.|ca\.|year|around)\s+$", re.I
)
#: words right before a four-digit number that make it a count or a measure, not a year ("a
#: population of 1500", "The army numbered 1800", "limited to 1800", "stood at 2000")
_COUNT_BEFORE = re.compile(
    r"\b(?:(?:population|total|number|count|crowd|attendance|capacity|tally|sum|budget|score|price|cost"
    r"|height|elevation|altitude|depth|length|distance|weight|salary|strength|workforce)\s+of"
    r"|number(?:ed|ing|s)|totall?(?:ed|ing|s)|amount(?:ed|ing|s)?\s+to|limited\s+to|capped\s+at"
    r"|st(?:ood|ands?)\s+at|(?:rose|risen|fell|fallen|grew|grown|increased|decreased|dropped|declined)\s+to"
    r"|scored|weigh(?:s|ed)|measur(?:es|ed))"
    r"\s+(?:(?:about|around|roughly|nearly|almost|some|only|just|over|under)\s+)?$",
    re.I,
)


def era(text: str, start: int, end: int) -> re.Match[str] | None:
    """The era written after the number at ``start:end`` ("476 AD", "44 BC"), else one written
    before it ("AD 476"); None without one."""
    after = _ERA_AFTER.match(text, end)
    if after is not None:
        return after
    return _ERA_BEFORE.search(text, 0, start)


def is_year(text: str, num: str, start: int, slot: str, noun: str) -> bool:
    """A four-digit number 1000-2100 without a unit is a year: alone ("in 2011"), after a
    temporal word before a noun ("in 2006 Announced"), or as a modifier after a determiner
    ("the 2011 album", "Low Tide's 1993 tour"; but "the 2000 runners", a round number before a
    plural noun, is a count); never after the words of a count or a measure (``_COUNT_BEFORE``:
    "a population of 1500", "numbered 1800"). A whole number of one to four digits with an era
    ("AD 476", "44 BC") and a three-digit one without a unit right after a temporal word ("in
    711", ``_YEAR_WORD_BEFORE``) are years too."""
    if "," in num or "." in num:
        return False
    end = start + len(num)
    if slot == "" and era(text, start, end) is not None and re.fullmatch(r"[1-9]\d{0,3}", num):
        return True
    if slot == "" and re.fullmatch(r"[1-9]\d{2}", num):
        return _YEAR_WORD_BEFORE.search(text, max(0, start - 12), start) is not None and not re.match(
            r"\s*(?:of\b|%|[-–—]\d|to\s+\d|and\s+\d)", text[end:]
        )
    if re.fullmatch(r"1\d{3}|20\d{2}|2100", num) is None:
        return False
    if _COUNT_BEFORE.search(text, max(0, start - 40), start):
        return False
    if slot == "":
        return True
    if not slot.startswith("n:"):
        return False
    if _TEMPORAL_BEFORE.search(text[max(0, start - 12) : start]):
        return True
    plural = noun.endswith("s") and not noun.endswith("ss")
    return bool(_DET_BEFORE.search(text[max(0, start - 8) : start])) and not (plural and int(num) % 100 == 0)


#: words right before a year or date that bound it from one side, by kind (as
#: ``Quantity.bound``): "before 1998" (``below``), "after 2001" (``above``), "by 1990", "no
#: later than May 2003" (``upto``: that year or earlier), "no earlier than", "not before", "not
#: ... until" (``atleast``: that year or later); "since", "until", "from" are left loose
_TIME_BOUNDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p + r"\s+(?:(?:the\s+)?(?:year|end|close)\s+(?:of\s+)?)?$", re.I), kind)
    for p, kind in [
        (r"\b(?:no|not|never)\s+(?:earlier|sooner)\s+than|\bnot\s+(?:\S+\s+){0,4}?(?:before|until|till)"
         r"|n['’]t\s+(?:\S+\s+){0,4}?(?:before|until|till)|\bat\s+the\s+earliest\s+in", "atleast"),
        (r"\b(?:no|not)\s+later\s+than|\bat\s+the\s+latest\s+(?:in|by)|(?<!\bnot\s)\bby", "upto"),
        (r"\b(?:before|prior\s+to|earlier\s+than|pre-)", "below"),
        (r"\b(?:after|later\s+than|post-)", "above"),
    ]
]  # fmt: skip


def time_bound(text: str, start: int) -> tuple[str, int]:
    """How the words right before the year or date at ``start`` bound it: ``"below"`` ("before
    1998": an earlier year), ``"above"`` ("after 2001"), ``"upto"`` ("by 1990", "no later than
    May 2003": that one or earlier), ``"atleast"`` ("no earlier than 1990", "not before 2011",
    "did not open until 2006": that one or later), or ``""`` (a point, or a word such as
    "since", "until", "from" that says no side). A negated bound is read before the bound it
    negates ("not before 2011" is ``atleast``, not ``below``). A year that modifies a noun
    ("after 2003's debut album") is no bound of the year. Returns (kind, where the bound's words
    start); ("", start) for none."""
    if re.match(r"\d+['’]s\b", text[start:]):
        return "", start
    lo = max(0, start - 40)
    for pat, kind in _TIME_BOUNDS:
        m = pat.search(text, lo, start)
        if m is not None:
            return kind, m.start()
    return "", start


#: words before a century or decade that make it a bound, an approximation or a part of it
#: ("before the 19th century", "around the 10th century", "the late 1990s", "mid-20th century")
_PERIOD_LOOSE_BEFORE = re.compile(
    r"\b(?:before|after|until|till|since|by|from|between|pre|post|within|early|late|mid|around|circa|c\.|"
    r"ca\.|about|approximately|roughly|nearly|almost|end|start|beginning|turn|middle)[\s-]+(?:(?:of\s+)?the[\s-]+)?$",
    re.I,
)


def _period_loose(text: str, start: int, end: int) -> bool:
    """A century or decade that is no definite range: after a bound, approximation or part word
    (``_PERIOD_LOOSE_BEFORE``), or a hyphenated century describing a noun ("a 19th-century
    author": the noun's period, not the time of the event)."""
    if _PERIOD_LOOSE_BEFORE.search(text[max(0, start - 30) : start]):
        return True
    return (
        re.search(r"-century$", text[start:end], re.I) is not None
        and re.match(r"\s+[a-z]", text[end:]) is not None
    )


def find_centuries(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Centuries as year ranges: "15th century" = 1401-1500, "the sixteenth century", BCE negative
    (definite ends: two centuries that share no year conflict; ``loose`` only as
    ``_period_loose`` says)."""
    out: list[Quantity] = []
    for m in free(_CENTURY_RE, text, taken):
        n = int(m.group("n")) if m.group("n") else ORDINAL_CENTURY[m.group("w").lower()]
        lo, hi = (n - 1) * 100 + 1, n * 100
        if m.group("bce"):
            lo, hi = -hi, -lo
        take(
            out,
            taken,
            Quantity(
                float(lo),
                float(lo),
                "year",
                "",
                m.group(0),
                m.start(),
                m.end(),
                float(lo),
                float(hi),
                _period_loose(text, m.start(), m.end()),
            ),
        )
    return out


def find_decades(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Decades and centuries written as years: "1990s" = 1990-1999, "1500s" = 1500-1599 (definite
    ends, as ``find_centuries``)."""
    out: list[Quantity] = []
    for m in free(_DECADE_RE, text, taken):
        y = int(m.group("y"))
        hi = y + (99 if y % 100 == 0 else 9)
        take(
            out,
            taken,
            Quantity(
                float(y),
                float(y),
                "year",
                "",
                m.group(0),
                m.start(),
                m.end(),
                float(y),
                float(hi),
                _period_loose(text, m.start(), m.end()),
            ),
        )
    return out


def year_ranges(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Year ranges: "1992–93", "1898-1980", "1939 to 1975", "between 1995 and 2000" (never
    backwards)."""
    out: list[Quantity] = []
    for m in free(_YEAR_RANGE, text, taken):
        a, b = int(m.group("a") or m.group("a2")), m.group("b") or m.group("b2")
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
            take(out, taken, q)
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


def times_of_day(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Times of day in minutes after midnight (slot ``time``): "8 pm" = 1200, "20:00", "noon"."""
    out: list[Quantity] = []
    for m in free(_TIME_RE, text, taken):
        minutes = _minutes(m)
        if minutes is not None:
            take(
                out,
                taken,
                Quantity(float(minutes), float(minutes), "time", "", m.group(0), m.start(), m.end()),
            )
    return out
