"""Content tokens of a claim and the match of two tokens.

``content_tokens`` lower-cases and crudely stems the words of a text (``vocabulary._stem``),
dropping stopwords (``claims/data/stopwords.txt``), numbers, number and scale words and unit
words; ``token_match`` says when two such tokens are the same word.
"""

from __future__ import annotations

import re

from claims.facets.vocabulary import NUMBER_WORDS, SCALES, STOPWORDS, UNITS, _stem

_WORD = re.compile(
    r"[A-Za-z\u00C0-\u024F][A-Za-z\u00C0-\u024F'’\-]*|\d+(?:[.,]\d+)*|[\u3040-\u30ff\u4e00-\u9fff]"
)


_NON_CONTENT = (
    frozenset(NUMBER_WORDS)
    | frozenset(SCALES)
    | frozenset(u for u in UNITS if " " not in u and u != "in")
    | frozenset({"year-old", "years-old", "half", "third", "quarter", "thirds", "quarters", "percent", "old"})
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
    out: list[str] = []
    for m in _WORD.finditer(text):
        w = m.group(0)
        if w[0].isdigit():
            continue
        lw = _ELISION.sub("", w.lower().replace("’", "'"))
        if lw in _NON_CONTENT:
            continue
        if lw in STOPWORDS or lw.rstrip("'s") in STOPWORDS or len(lw) == 1 and lw.isascii():
            continue
        if "\u3040" <= lw[0] <= "\u309f":  # a hiragana: a particle or an ending
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
