"""Contracted negations written out ("didn't" -> "did not"), so that the checks of
``claims.verdict.counterparts`` read a contracted denial as they read a written-out one."""

from __future__ import annotations

import re

__all__ = ["expand_contractions"]

#: contracted negations whose verb changes when written out ("won't" -> "will not")
_IRREGULAR_CONTRACTIONS = {
    "won't": "will not",
    "can't": "can not",
    "cannot": "can not",
    "shan't": "shall not",
}
_CONTRACTION = re.compile(r"\b(?:won't|can't|cannot|shan't|(\w+)n't)\b", re.IGNORECASE)


def expand_contractions(text: str) -> str:
    """``text`` with its contracted negations written out ("didn't" -> "did not", "won't" ->
    "will not", "cannot" -> "can not"; curly apostrophes read as straight ones), so that a
    contracted denial and a written-out one give the same counterparts."""

    def full(m: re.Match[str]) -> str:
        word = m.group(0)
        if m.group(1) is not None:
            return f"{m.group(1)} not"
        out = _IRREGULAR_CONTRACTIONS[word.lower()]
        return out[0].upper() + out[1:] if word[0].isupper() else out

    return _CONTRACTION.sub(full, text.replace("\u2019", "'"))
