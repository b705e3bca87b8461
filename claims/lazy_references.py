"""Lazy reference decomposition: in an audit with many references, only the references that can
be evidence for a response claim are decomposed, embedded and judged against.

A retrieval-augmented answer cites dozens of passages, and a WiCE audit gives one reference per
evidence sentence (119.5 on average in its dev set, up to 1,131). Decomposing and embedding every
one of them costs more than the audit: on one core the embedding model takes about 200 texts a
second and the parser about 600 sentences, against about 120 reference claims an audit
(docs/PERFORMANCE.md, "Reference-heavy audits"). Yet the verdict of a claim reads only its most
relevant reference claims (``claims.verdict``: the top 8 by cosine plus lexical overlap, and a
few that state one of its numbers).

:func:`evidence_references` picks, before anything is parsed or embedded, the references that a
response claim can draw on: for each material response claim the ``PER_CLAIM`` references that
rank highest by Okapi BM25 over content tokens (Robertson & Zaragoza 2009, "The Probabilistic
Relevance Framework: BM25 and Beyond", with their ``k1 = 1.2``, ``b = 0.75``), and up to
``VALUE_EXTRA`` more that state one of its numbers (a year in another sentence). The selection
reads only texts, so the in-memory path (``claims.audit``) and the workers' decompose stage pick
the same references. A reference is decomposed whole or not at all (pronouns keep their
antecedents), and a reference left out keeps its index with no claims.

Audits with fewer than ``LAZY_MIN_REFERENCES`` references (a ground truth, a handful of passages)
decompose every reference: their recall over reference claims stays what it was. In a lazy audit,
the scores over reference claims (``claim_recall``, ``claim_f1``, the edit script's insertions)
count the decomposed references only.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from claims.facets import content_tokens

__all__ = ["LAZY_MIN_REFERENCES", "PER_CLAIM", "VALUE_EXTRA", "evidence_references"]

#: Audits with at least this many references are decomposed lazily. The hand-written cases have
#: at most 3 references and Factcheck-GPT one: unchanged. WiCE's audits have 119.5 on average.
LAZY_MIN_REFERENCES = 20
#: References kept per material response claim, best BM25 first: more than the verdict's 8
#: candidates (``claims.verdict.thresholds``), as lexical rank and cosine rank differ.
PER_CLAIM = 16
#: References kept in addition per claim that state one of its numbers (the verdict's 4
#: value candidates, ``FACET_CANDIDATES``).
VALUE_EXTRA = 4
#: BM25 parameters (Robertson & Zaragoza 2009, section 3.2)
K1, B = 1.2, 0.75

_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers(text: str) -> frozenset[str]:
    return frozenset(m.replace(",", "") for m in _DIGITS.findall(text))


def _bm25(query: Sequence[str], docs: Sequence[Counter[str]], lengths: Sequence[int]) -> list[float]:
    """BM25 score of each document for ``query`` (content tokens); IDF with the +1 inside the
    logarithm (never negative, Lucene's form)."""
    n = len(docs)
    avg = (sum(lengths) / n) or 1.0
    scores = [0.0] * n
    for term in set(query):
        df = sum(1 for d in docs if term in d)
        if not df:
            continue
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
        for k, d in enumerate(docs):
            tf = d.get(term, 0)
            if tf:
                scores[k] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[k] / avg))
    return scores


def evidence_references(claims: Sequence[str], references: Sequence[str]) -> frozenset[int] | None:
    """The indices of the references to decompose, or None: all of them.

    Parameters
    ----------
    claims : sequence of str
        The texts of the response's material claims (``ClaimKind.MATERIAL``), in order.
    references : sequence of str
        The audit's reference texts (blank ones included: they keep their index).

    Returns
    -------
    frozenset of int or None
        None when ``len(references) < LAZY_MIN_REFERENCES`` (decompose all). Otherwise, for each
        claim, the ``PER_CLAIM`` non-blank references of highest BM25 score (ties: the earlier
        reference), and up to ``VALUE_EXTRA`` more of the rest, in the same order, that write one
        of the claim's digit runs (commas removed); the union over the claims, each index in
        ``[0, len(references))``. Empty when ``claims`` is empty.
    """
    if len(references) < LAZY_MIN_REFERENCES:
        return None
    live = [k for k, text in enumerate(references) if text.strip()]
    tokens = [content_tokens(references[k]) for k in live]
    docs = [Counter(t) for t in tokens]
    lengths = [len(t) for t in tokens]
    numbers = [_numbers(references[k]) for k in live]
    keep: set[int] = set()
    for claim in claims:
        scores = _bm25(content_tokens(claim), docs, lengths)
        order = sorted(range(len(live)), key=lambda i: (-scores[i], i))
        keep.update(live[i] for i in order[:PER_CLAIM])
        values = _numbers(claim)
        if values:
            extra = [i for i in order[PER_CLAIM:] if values & numbers[i]]
            keep.update(live[i] for i in extra[:VALUE_EXTRA])
    return frozenset(keep)
