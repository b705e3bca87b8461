"""Match scores ("won the final 7-1", "a 3–2 defeat", "drew 2–2"): one value in the slot
``score``, so that "7-0" and "7-1" are two values of the same slot (a conflict), never two loose
numbers. A pair of numbers of at most three digits joined by a dash is a score when
the sentence has a word of ``claims/data/score_words.txt`` and no unit or counted noun follows
the pair ("4-6 hours" stays a range). The value ignores the order of the two sides: "lost 1-3"
and "lost 3-1" state one result.
"""

from __future__ import annotations

import re

from claims.facets.spans import free, take
from claims.facets.types import Quantity
from claims.facets.vocabulary import STOPWORDS, UNITS, data_lines

_SCORE_WORDS = frozenset(line.lower() for _, line in data_lines("score_words.txt"))
_SCORE_RE = re.compile(
    r"(?<![\w.,:/–—-])(?<!\d[.,])(\d{1,3})\s?[-–—]\s?(\d{1,3})(?![.,]\d|[\w:/–—%°-]|\s?(?:[ap]\.?m\b|%))"
)
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)")


_SUFFIXES = ("", "s", "es", "d", "ed", "ing", "ning", "ting", "ner", "ners", "ly")


def _has_score_word(text: str) -> bool:
    """A word of the list in the text, or one of its inflections ("won", "wins", "winning")."""
    words = re.findall(r"[a-z][a-z-]*", text.lower())
    return any(w.endswith(x) and w[: len(w) - len(x)] in _SCORE_WORDS for w in words for x in _SUFFIXES)


def _unit_after(text: str, end: int) -> bool:
    m = _NEXT_WORD.match(text, end)
    word = m.group(1).lower() if m else ""
    return word in UNITS and word not in STOPWORDS  # "in" is a preposition, not inches


def score_value(a: int, b: int) -> float:
    """One number for a score, whatever the order of its sides (7-1 and 1-7 are 7001)."""
    hi, lo = max(a, b), min(a, b)
    return float(hi * 1000 + lo)


def find_scores(text: str, taken: list[tuple[int, int]]) -> list[Quantity]:
    """Scores of ``text`` (module docstring); none when the sentence has no score word."""
    out: list[Quantity] = []
    if not _has_score_word(text):
        return out
    for m in free(_SCORE_RE, text, taken):
        if _unit_after(text, m.end()):
            continue
        v = score_value(int(m.group(1)), int(m.group(2)))
        take(out, taken, Quantity(v, v, "score", "", m.group(0), m.start(), m.end()))
    return out
