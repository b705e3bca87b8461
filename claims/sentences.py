"""Sentences with their spans: line breaks and bullets first, then pysbd (Sadvilkar & Neumann
2020, "PySBD: Pragmatic Sentence Boundary Disambiguation") with that language's rules, then the
full-width marks 。！？ for text pysbd leaves whole. A boundary inside a web address
(``claims.facets.identifiers``) ends no sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import pysbd
from pysbd.utils import TextSpan

from claims.facets.identifiers import identifiers
from claims.types import odd_input

__all__ = ["split_sentences"]

# Hard breaks between sentences: line breaks, a wiki section mark "[ edit ]", a footnote caret.
_HARD_BREAK = re.compile(r"[\n\r]+|\[\s*edit\s*\]|(?:^|\s)\^(?=\s|$)", re.IGNORECASE)
_SENT_END = re.compile(r"[^。！？]+[。！？]*|[。！？]+")
_BULLET = re.compile(r"\s*(?:[-*\u2022\u25cf\u25aa\u2013\u2014>]+|\(?\d{1,3}[.)]|\(?[a-z]\))\s+")


class _Segmenter(pysbd.Segmenter):  # type: ignore[misc]
    """pysbd's segmenter, its sentences located with ``str.find``: pysbd compiles one regex per
    sentence (the escaped sentence and the whitespace after it), which overflows ``re``'s cache
    and cost a sixth of the decomposition. Same spans: the first non-overlapping occurrence,
    with the whitespace after it, that ends past the previous sentence."""

    def sentences_with_char_spans(self, sentences: list[str]) -> list[Any]:
        if not all(sentences):  # an empty sentence matches anywhere: pysbd's own rules
            return super().sentences_with_char_spans(sentences)  # type: ignore[no-any-return]
        text, spans, prior = self.original_text, [], 0
        for sent in sentences:
            pos = text.find(sent)
            while pos >= 0:
                end = pos + len(sent)
                while end < len(text) and text[end].isspace():
                    end += 1
                if end > prior:
                    spans.append(TextSpan(text[pos:end], pos, end))
                    prior = end
                    break
                pos = text.find(sent, end)
        return spans


@lru_cache(maxsize=32)
def _segmenter(language: str = "en") -> pysbd.Segmenter:
    from pysbd.languages import LANGUAGE_CODES

    return _Segmenter(language=language if language in LANGUAGE_CODES else "en", clean=False)


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


#: month names (and common abbreviations) in English, German, French, Spanish, Italian,
#: Portuguese, Dutch and the Scandinavian languages, for the "12. Mai" rule below
_MONTH_NAMES = (  # noqa: SIM905 - one word list reads and extends more easily
    "january february march april may june july august september october november december "
    "januar februar märz maerz mai juni juli oktober dezember jänner "
    "janvier février fevrier mars avril juin juillet août aout septembre octobre novembre décembre "
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre "
    "gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre "
    "janeiro fevereiro março maio junho julho setembro outubro dezembro "
    "januari februari maart mei augustus desember maj augusti "
    "jan feb mar apr jun jul aug sep sept okt oct nov dez dec"
).split()
_DAY_DOT = re.compile(r"(?:^|[\s(])\d{1,2}\.$")
#: abbreviations before a number that end no sentence: "dates from c. 1491-1510", "b. 1950"
_ABBREVIATION_END = re.compile(r"(?:^|[\s(])(?:c|ca|approx|est|fl)\.$|\((?:b|d)\.$")
#: a piece that opens with a number, signed or in a currency ("approx. -5 °C", "approx. $50")
_NUMBER_START = re.compile(r"[-−–+$€£¥]?\s?\d")
_MONTH_ALT = "|".join(sorted(set(_MONTH_NAMES), key=len, reverse=True))
#: a month name that opens the next piece; an English one only before a number ("12. May
#: 1998"), since "He scored 12. May was ..." is two sentences
_MONTH_START = re.compile(
    r"(?:(?!(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)"
    r"(?:" + _MONTH_ALT + r")\b|(?:" + _MONTH_ALT + r")\.?\s+\d)",
    re.I,
)


def split_sentences(text: str, *, language: str = "en") -> list[tuple[int, int]]:
    """Sentence spans of ``text``: ``[(start, end), ...]`` in order, blanks and bullet marks
    stripped, ``0 <= start < end <= len(text)``.

    Line breaks end a sentence (bullets and list items are one sentence each); inside a line
    pysbd splits (with its rules for ``language``, an ISO 639-1 code; English rules for a
    language pysbd does not know), then the full-width marks 。！？ split further.
    """
    spans: list[tuple[int, int]] = []
    bounds = [0]
    for brk in _HARD_BREAK.finditer(text):
        bounds += [brk.start(), brk.end()]
    bounds.append(len(text))
    for k in range(0, len(bounds), 2):
        ls, le = _strip_span(text, bounds[k], bounds[k + 1])
        m = _BULLET.match(text, ls, le)
        if m and m.end() < le:
            ls = m.end()
        if ls < le:
            spans += _line_sentences(text, ls, le, language)
    return spans


def _line_sentences(text: str, ls: int, le: int, language: str) -> list[tuple[int, int]]:
    """Sentence spans of the line ``text[ls:le]`` (see ``split_sentences``)."""
    chunk = text[ls:le]
    cursor = 0
    segmenter = _segmenter(language)  # a broken pysbd install raises, not taken for odd input
    try:
        pieces = segmenter.segment(chunk)
    except Exception as exc:  # pysbd fails on some pathological input; keep the line whole
        if not odd_input(exc):  # a time limit or out of memory: not the line's
            raise
        pieces = [chunk]
    found: list[tuple[int, int]] = []
    # a web address's "?" or "." ends no sentence ("https://example.org/guide?utm_source=x")
    addresses = [(i.start, i.end) for i in identifiers(chunk)]
    for piece in pieces:
        piece = piece.strip()
        pos = chunk.find(piece, cursor) if piece else -1
        if pos < 0:
            continue
        cursor = pos + len(piece)
        # "am 12. Mai 1998": a day number with a dot before a month name ends no sentence, nor
        # does an abbreviation before a number ("dates from c. 1491-1510")
        if found and (
            (_DAY_DOT.search(chunk, found[-1][0], found[-1][1]) and _MONTH_START.match(piece))
            or (_ABBREVIATION_END.search(chunk, found[-1][0], found[-1][1]) and _NUMBER_START.match(piece))
            or any(s < found[-1][1] < e for s, e in addresses)
        ):
            found[-1] = (found[-1][0], cursor)
        else:
            found.append((pos, cursor))
    spans: list[tuple[int, int]] = []
    for pos, end in found:
        for sm in _SENT_END.finditer(chunk, pos, end):
            s, e = _strip_span(text, ls + sm.start(), ls + sm.end())
            if s < e:
                spans.append((s, e))
    return spans
