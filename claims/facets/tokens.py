"""Content tokens of a claim and the match of two tokens.

``content_tokens`` lower-cases and crudely stems the words of a text (``vocabulary.stem_of``),
dropping stopwords (``claims/data/stopwords.txt``), numbers, number and scale words and unit
words; ``token_match`` says when two such tokens are the same word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from claims.facets.vocabulary import NUMBER_WORDS, SCALES, STOPWORDS, UNITS, data_rows, stem_of

_WORD = re.compile(
    # a digit ordinal is one word: the "st" of "1st" is no content word
    r"[A-Za-z\u00C0-\u024F][A-Za-z\u00C0-\u024F'’\-]*|\d+(?:[.,]\d+)*(?:(?:st|nd|rd|th)(?![A-Za-z]))?|[\u3040-\u30ff\u4e00-\u9fff]"
)


_NON_CONTENT = (
    frozenset(NUMBER_WORDS)
    | frozenset(SCALES)
    | frozenset(u for u in UNITS if " " not in u and u != "in")
    | frozenset({"year-old", "years-old", "half", "third", "quarter", "thirds", "quarters", "percent", "old"})
    | frozenset(w for w, _ in data_rows("number_words_de.tsv", 2))
)


#: an elided article, pronoun or particle glued to the next word (French, Italian): "l'usine",
#: "n'ouvre", "qu'il", "dell'anno"
_ELISION = re.compile(r"^(?:l|d|n|j|m|t|s|c|qu|dell|all|nell|sull|un)'(?=[a-zà-ÿ])")


def content_tokens(text: str) -> list[str]:
    """Lower-cased, crudely stemmed content words of ``text`` (stopwords and numbers dropped;
    CJK characters are single tokens).

    >>> content_tokens("The Halvorsen Museum does not open on Mondays.")
    ['halvorsen', 'museum', 'open', 'monday']
    """
    if len(text) > CACHED_CHARS:
        return [t for t, _, _ in _scan(text)]
    return list(_tokens(text))


#: texts up to this long (a claim, a sentence) are tokenised once and cached; a whole document is
#: not kept (the caches hold at most 65,536 texts each)
CACHED_CHARS = 1000


@lru_cache(maxsize=65536)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(t for t, _, _ in _spans(text))


def content_spans(text: str) -> list[tuple[str, int, int]]:
    """``content_tokens`` with the character span of the word each token comes from
    (``text[start:end]``; the parts of a hyphenated word share its span).

    >>> content_spans("Iron displaces copper.")
    [('iron', 0, 4), ('displace', 5, 14), ('copper', 15, 21)]
    """
    return list(_spans(text) if len(text) <= CACHED_CHARS else _scan(text))


@lru_cache(maxsize=65536)
def _spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """``content_spans``, cached: a claim's text is tokenised for every candidate it meets."""
    return _scan(text)


def _scan(text: str) -> tuple[tuple[str, int, int], ...]:
    out: list[tuple[str, int, int]] = []
    for m in _WORD.finditer(text):
        w = m.group(0)
        if w[0].isdigit():
            continue
        lw = _ELISION.sub("", w.lower().replace("’", "'"))
        if lw in _NON_CONTENT:
            continue
        if lw in STOPWORDS or lw.rstrip("'s") in STOPWORDS or len(lw) == 1 and lw.isascii():
            continue
        if lw.endswith("n't"):  # "didn't", "wasn't": an auxiliary and its negation, as "did not"
            continue
        if "\u3040" <= lw[0] <= "\u309f":  # a hiragana: a particle or an ending
            continue
        for part in lw.split("-"):
            if part and part not in STOPWORDS:
                out.append((stem_of(part), m.start(), m.end()))
    return tuple(out)


def token_match(a: str, b: str) -> bool:
    """Two stemmed tokens match: equal, or share a prefix of 5+ characters (enrol/enrolled,
    certification/certified) or one is a 4+ character prefix of the other."""
    if a == b:
        return True
    if len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5]:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long_.startswith(short)


class TokenSet:
    """Tokens to test with ``token_match`` in one look-up: ``t in TokenSet(other)`` equals
    ``any(token_match(t, o) for o in other)``. Every match other than equality needs both tokens
    to have four or more characters and to share the first four (``token_match``'s prefix
    rules), so only the tokens in ``t``'s four-character bucket are compared."""

    __slots__ = ("_buckets", "_exact")

    def __init__(self, tokens: Iterable[str]) -> None:
        self._exact = set(tokens)
        self._buckets: dict[str, list[str]] = {}
        for o in self._exact:
            if len(o) >= 4:
                self._buckets.setdefault(o[:4], []).append(o)

    def __contains__(self, t: object) -> bool:
        if t in self._exact:
            return True
        if not isinstance(t, str) or len(t) < 4:
            return False
        return any(token_match(t, o) for o in self._buckets.get(t[:4], ()))

    def matches(self, t: str) -> list[str]:
        """The tokens ``o`` of the set with ``token_match(t, o)``."""
        out = [t] if t in self._exact else []
        if len(t) >= 4:
            out += [o for o in self._buckets.get(t[:4], ()) if o != t and token_match(t, o)]
        return out
