"""Contracted negations written out ("didn't" -> "did not"), so that the counterparts of a claim
(``claims.verdict.opposed``) and the affirmation of a denial (``claims.verdict.affirmed``) read a
contracted denial as they read a written-out one."""

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
#: a direct quotation in straight or curly double quotes: its words are the speaker's, kept as written
_QUOTED = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d')


def expand_contractions(text: str) -> str:
    """``text`` with its contracted negations written out ("didn't" -> "did not", "won't" ->
    "will not", "cannot" -> "can not"; curly apostrophes read as straight ones), so that a
    contracted denial and a written-out one give the same counterparts. A direct quotation
    (in double quotes) is kept as written: its denial is the speaker's wording, which the
    reference quotes the same way."""

    def full(m: re.Match[str]) -> str:
        word = m.group(0)
        if m.group(1) is not None:
            return f"{m.group(1)} not"
        out = _IRREGULAR_CONTRACTIONS[word.lower()]
        return out[0].upper() + out[1:] if word[0].isupper() else out

    text = text.replace("\u2019", "'")
    parts, last = [], 0
    for q in _QUOTED.finditer(text):
        parts += [_CONTRACTION.sub(full, text[last : q.start()]), q.group(0)]
        last = q.end()
    return "".join([*parts, _CONTRACTION.sub(full, text[last:])])
