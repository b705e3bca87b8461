"""Alignment of (possibly paraphrased) claims back to character spans of their source text.

An LLM decomposer returns claim *texts* only; the engine needs a locator ``[start, end)`` in
the source for every claim. ``align_span`` finds it: an exact (case- and blank-insensitive)
occurrence when the model copied the words, otherwise the best fuzzy alignment inside the
best-matching sentence: the stretch from the first to the last of the claim's content words
found there (words compared with RapidFuzz ``ratio``), widened to word boundaries.

Pure: stdlib + rapidfuzz + ``claims.decompose.split_sentences``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from claims.decompose import split_sentences

__all__ = ["SpanAlignment", "align_span", "align_spans"]

_WORD = re.compile(r"\w", re.UNICODE)


@dataclass(frozen=True, slots=True)
class SpanAlignment:
    """Result of aligning one claim to its source.

    ``start``/``end``: span ``[start, end)`` in the source (code points, ``0 <= start <= end
    <= len(source)``). ``score``: RapidFuzz similarity in [0, 100] of the claim to the span
    (100 = exact occurrence). ``method``: ``"exact"``, ``"partial"`` (sub-sentence fuzzy
    alignment), ``"sentence"`` (best whole sentence) or ``"empty"`` (empty source or claim).
    """

    start: int
    end: int
    score: float
    method: str


def _normalise(text: str) -> tuple[str, list[int]]:
    """Lower-case ``text`` and collapse blank runs to one space; return the index map back."""
    out: list[str] = []
    index: list[int] = []
    prev_space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            if prev_space:
                continue
            out.append(" ")
            prev_space = True
        else:
            out.append(ch.lower())
            prev_space = False
        index.append(i)
    return "".join(out), index


def _exact(source: str, claim: str, hint: int) -> tuple[int, int] | None:
    norm_src, index = _normalise(source)
    norm_claim, _ = _normalise(claim.strip())
    norm_claim = norm_claim.rstrip(" .;,")
    if not norm_claim:
        return None
    # prefer an occurrence at or after the hint (claims come in reading order)
    hint_norm = next((j for j, i in enumerate(index) if i >= hint), len(index))
    pos = norm_src.find(norm_claim, hint_norm)
    if pos < 0:
        pos = norm_src.find(norm_claim)
    if pos < 0:
        return None
    return index[pos], index[pos + len(norm_claim) - 1] + 1


def widen(source: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
    """Extend ``[start, end)`` to whole words, staying inside ``[lo, hi)``; strip blanks."""
    while start > lo and _WORD.match(source[start - 1]) and _WORD.match(source[start]):
        start -= 1
    while end < hi and end > 0 and _WORD.match(source[end - 1]) and _WORD.match(source[end]):
        end += 1
    while start < end and source[start].isspace():
        start += 1
    while end > start and source[end - 1].isspace():
        end -= 1
    return start, end


_TOKEN = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset(
    {
        *("a", "an", "the", "of", "in", "on", "at", "to", "by", "for", "with", "from", "and", "or"),
        *("but", "is", "are", "was", "were", "be", "been", "being", "it", "its", "that", "this"),
        *("these", "those", "as", "which", "who", "whom", "whose", "has", "have", "had", "do"),
        *("does", "did"),
    }
)

#: RapidFuzz ``ratio`` (0-100) at or above which two words of 6+ letters are the same word
#: (absorbs spelling variants); shorter words must match exactly or share a stem (below).
TOKEN_RATIO = 90.0

#: Share of the claim's content words that must be found in a sentence for a sub-sentence
#: span; below it the whole sentence is the locator.
MIN_COVERAGE = 0.5


def _content_tokens(text: str) -> list[str]:
    return [t for t in (m.group(0).lower() for m in _TOKEN.finditer(text)) if t not in _STOP]


def _same_word(a: str, b: str) -> bool:
    """Equal, or one inflects the other ("prize"/"prizes", "chair"/"chaired"), or near-equal."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and long_.startswith(short[: max(4, len(short) - 1)]):
        return True
    return min(len(a), len(b)) >= 6 and fuzz.ratio(a, b) >= TOKEN_RATIO


def _window(source: str, s: int, e: int, words: Sequence[str]) -> tuple[float, int, int]:
    """Coverage in [0, 1] of ``words`` in ``source[s:e]`` and the span of the found words."""
    if not words:
        return 0.0, s, e
    found = 0
    lo, hi = e, s
    spans = [(m.start() + s, m.end() + s, m.group(0).lower()) for m in _TOKEN.finditer(source[s:e])]
    for w in dict.fromkeys(words):
        hits = [(a, b) for a, b, t in spans if _same_word(t, w)]
        if hits:
            found += 1
            lo = min(lo, hits[0][0])
            hi = max(hi, hits[0][1])
    coverage = found / len(dict.fromkeys(words))
    return coverage, lo, hi


def align_span(source: str, claim: str, *, hint: int = 0) -> SpanAlignment:
    """Find the character span of ``source`` that ``claim`` states.

    Parameters
    ----------
    source : str
        The document the claim was decomposed from.
    claim : str
        The claim text, verbatim or paraphrased.
    hint : int, keyword-only
        Among equally good matches the first one starting at or after ``hint`` wins (claims
        come in reading order; ``align_spans`` passes one past the previous claim's start).

    Returns
    -------
    SpanAlignment
        Always a valid span: the exact occurrence (``"exact"``, score 100); else, in the
        sentence sharing most of the claim's content words, the shortest stretch from the
        first to the last shared word (``"partial"``, score = percentage of the claim's
        content words found, at least ``MIN_COVERAGE``); else that whole sentence
        (``"sentence"``). ``(0, 0)`` with method ``"empty"`` when ``source`` or ``claim``
        is blank.

    Examples
    --------
    >>> src = "In 2004 the cellist Ines Marlow won. It rained."
    >>> a = align_span(src, "it rained")
    >>> (a.start, a.end, a.method)
    (37, 46, 'exact')
    >>> a = align_span(src, "Ines Marlow won in 2004.")
    >>> (src[a.start:a.end], a.method)
    ('2004 the cellist Ines Marlow won', 'partial')
    """
    if not source.strip() or not claim.strip():
        return SpanAlignment(0, 0, 0.0, "empty")
    exact = _exact(source, claim, hint)
    if exact is not None:
        return SpanAlignment(exact[0], exact[1], 100.0, "exact")
    sentences = split_sentences(source) or [(0, len(source))]
    words = _content_tokens(claim)
    needle = claim.strip().lower()
    best: tuple[tuple[float, float, int], int, int, int, int] | None = None
    for s, e in sentences:
        coverage, lo, hi = _window(source, s, e, words)
        key = (coverage, fuzz.token_set_ratio(needle, source[s:e].lower()), 1 if s >= hint else 0)
        if best is None or key > best[0]:
            best = (key, s, e, lo, hi)
    assert best is not None
    (coverage, ratio, _), s, e, lo, hi = best
    if coverage >= MIN_COVERAGE and lo < hi:
        start, end = widen(source, lo, hi, s, e)
        if start < end:
            return SpanAlignment(start, end, round(100.0 * coverage, 6), "partial")
    return SpanAlignment(s, e, float(ratio), "sentence")


def align_spans(source: str, claims: Sequence[str]) -> list[SpanAlignment]:
    """Align every claim of ``claims`` (in reading order) to ``source``; see ``align_span``."""
    out: list[SpanAlignment] = []
    hint = 0
    for claim in claims:
        al = align_span(source, claim, hint=hint)
        out.append(al)
        if al.method != "empty":
            hint = al.start + 1  # a repeated claim text maps to its next occurrence
    return out
