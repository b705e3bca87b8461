"""Near-duplicate claims of one document merged into one (the first is kept, ``duplicates``
counts the rest): rapidfuzz ``token_sort_ratio`` >= ``DEDUP_RATIO`` with the same numbers, the
same negations and the same content words, unless one is the converse of the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from rapidfuzz import fuzz, utils

from claims.facets.tokens import content_tokens
from claims.types import Claim, ClaimKind

__all__ = ["DEDUP_RATIO", "Candidate", "dedupe"]

#: rapidfuzz ``token_sort_ratio`` (0-100, after lower-casing and dropping punctuation) at or
#: above which two claims of one document with the same numbers and negations are one claim.
DEDUP_RATIO = 95.0

_NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor|without)\b|n't\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


class Candidate(Protocol):
    """A claim before deduplication (``claims.decompose``'s raw claims)."""

    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def kind(self) -> ClaimKind: ...
    @property
    def ambiguous(self) -> bool: ...


def _signature(text: str) -> tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]:
    """What two duplicates share exactly: their numbers, negations and content words (a long
    claim that differs only in "higher" / "lower" or "Pfizer" / "Moderna" is no duplicate, however
    close its spelling)."""
    numbers = tuple(sorted(_NUMBER.findall(text)))
    return numbers, tuple(sorted(m.lower() for m in _NEGATION.findall(text))), frozenset(content_tokens(text))


#: the most split points ``_swapped_around`` tries (each costs one comparison of the claim)
_SWAP_MAX_TOKENS = 64


def _swapped_around(a: str, b: str) -> bool:
    """The content words of ``b`` are those of ``a`` with the words before and after a middle
    run traded ("Poverty leads to crime" / "Crime leads to poverty", "Smoking causes lung
    cancer" / "Lung cancer causes smoking"): the converse, no duplicate however alike the
    words (``token_sort_ratio`` ignores their order)."""
    x, y = content_tokens(a), content_tokens(b)
    if x == y or sorted(x) != sorted(y):
        return False
    n = len(x)
    # y starts with x[j:] and ends with x[:i]: only those split points can work (linear for
    # distinct words; a claim repeating its words is checked up to _SWAP_MAX_TOKENS)
    starts = [j for j in range(2, n) if x[j] == y[0]]
    ends = [i for i in range(1, n - 1) if x[i - 1] == y[-1]]
    if len(starts) * len(ends) > _SWAP_MAX_TOKENS:
        return False
    return any(i < j and y == x[j:] + x[i:j] + x[:i] for j in starts for i in ends)


def dedupe(raw: Iterable[Candidate]) -> list[Claim]:
    """Claims of ``raw`` in order, near-duplicates merged: a candidate whose ``token_sort_ratio``
    with a kept one of the same kind is at least ``DEDUP_RATIO`` and whose numbers, negations
    and content words are the same (and not the converse) counts as that one's ``duplicates``;
    ``position`` is 0..n-1 over the kept ones."""
    kept: list[Candidate] = []
    procs: list[str] = []
    sigs: list[tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]] = []
    dups: list[int] = []
    for r in raw:
        p = utils.default_process(r.text)
        sig = _signature(r.text)
        for i, (kp, ks) in enumerate(zip(procs, sigs, strict=True)):
            if (
                ks == sig
                and kept[i].kind is r.kind
                and fuzz.token_sort_ratio(p, kp) >= DEDUP_RATIO
                and not _swapped_around(r.text, kept[i].text)
            ):
                dups[i] += 1
                break
        else:
            kept.append(r)
            procs.append(p)
            sigs.append(sig)
            dups.append(0)
    return [
        Claim(
            text=r.text,
            start=r.start,
            end=r.end,
            kind=r.kind,
            position=i,
            duplicates=d,
            ambiguous=r.ambiguous,
        )
        for i, (r, d) in enumerate(zip(kept, dups, strict=True))
    ]
