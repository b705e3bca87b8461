"""Features of the learned decision (``claims.decision``): one row of ``FEATURE_NAMES`` per
material response claim, from the cosines of the claim with the reference claims, the word and
value coverage of the claim by the evidence, negation, names and the rule verdict.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from rapidfuzz import fuzz

from claims.decision_guards import date_stated, find_digits
from claims.facets import (
    UNITS,
    Facets,
    TokenSet,
    content_tokens,
    extract,
    quantity_matches,
)
from claims.labels import embedding_text
from claims.types import Claim, Judgement, ReferenceClaim, Verdict

__all__ = [
    "FEATURE_NAMES",
    "NEAR_COSINE",
    "RULE_VERDICTS",
    "TOP_K",
    "VALUE_TOP_K",
    "ReferenceIndex",
    "feature_matrix",
    "indexed_features",
    "missing_tokens",
    "reference_index",
    "surface_word",
]

#: Rule verdicts encoded one-hot (outside_scope claims are never scored).
RULE_VERDICTS = (
    Verdict.SUPPORTED,
    Verdict.INFERRED,
    Verdict.CONTRADICTED,
    Verdict.QUALIFICATION_DROPPED,
    Verdict.UNSUPPORTED,
)

#: The columns of ``feature_matrix``, in order; the model file names them too.
FEATURE_NAMES: tuple[str, ...] = (
    "cos1",  # best cosine with any reference claim
    "cos2",  # second best cosine
    "cos_margin",  # cos1 - cos2
    "cov_best",  # share of the claim's content words found in the best reference claim
    "cov_top3",  # ... in the three best reference claims together
    "cov_doc",  # ... anywhere in the references
    "missing_doc",  # content words found nowhere in the references (count, capped at 5)
    "has_value",  # the claim states a number or a date (claims.facets)
    "value_cov",  # share of its numbers and dates stated by one of the VALUE_TOP_K nearest reference
    # claims, compared as facets (units, scales, number words, time formats); 1 when it has none
    "value_cov_any",  # share of its numbers and dates found as above, or as digits anywhere in the
    # references (1 when it has none)
    "neg_mismatch",  # the claim and its best reference claim differ in negation
    "log_len",  # log(1 + number of content words)
    "fuzz_best",  # rapidfuzz token_set_ratio with the best reference claim, in [0, 1]
    "cos_x_cov",  # cos1 * cov_best
    "name_cov",  # share of the claim's capitalised names found in the references
    "ambiguous",  # an unresolved pronoun
    "cov_lex",  # best coverage of the claim's content words by any one reference claim
    "cos_lex",  # cosine with that (lexically best) reference claim
    "prec_best",  # share of the best reference claim's content words found in the claim
    "log_near",  # log(1 + number of reference claims with cosine >= NEAR_COSINE)
    "log_refs",  # log(1 + number of reference claims)
    *(f"rule_{v.value}" for v in RULE_VERDICTS),
)

TOP_K = 3
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
#: how many nearest reference claims (by cosine) are searched for the claim's values
VALUE_TOP_K = 8
#: cosine at which a reference claim counts as "near" the claim (the calibrated support
#: threshold's plateau, docs/CALIBRATION.md)
NEAR_COSINE = 0.6
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nobody|nothing|neither|nor|without|false|longer)\b|n't\b", re.IGNORECASE
)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z\u00C0-\u024F'’-]+")


@dataclass(frozen=True, slots=True)
class ReferenceIndex:
    """Per-audit precomputation over the reference claims and texts (``reference_index``):
    each reference claim's content tokens, the sorted content tokens of all references, their
    text joined by newlines (as is and lower-cased) and the digit runs in it (commas removed)."""

    claim_tokens: list[list[str]]
    doc_tokens: list[str]
    doc_lower: str
    doc_numbers: frozenset[str]
    doc: str


def reference_index(
    reference_claims: Sequence[ReferenceClaim], reference_texts: Sequence[str] | None
) -> ReferenceIndex:
    """The ``ReferenceIndex`` of an audit's reference claims; ``reference_texts`` are the whole
    references (None or empty: the reference claims' texts stand for them)."""
    claim_tokens = [content_tokens(rc.claim.text) for rc in reference_claims]
    texts = list(reference_texts) if reference_texts else [rc.claim.text for rc in reference_claims]
    doc = "\n".join(texts)
    return ReferenceIndex(
        claim_tokens=claim_tokens,
        doc_tokens=sorted(set(content_tokens(doc))),
        doc_lower=doc.lower(),
        doc_numbers=frozenset(m.replace(",", "") for m in _NUMBER.findall(doc)),
        doc=doc,
    )


@lru_cache(maxsize=16384)
def _facets(text: str) -> Facets:
    return extract(text)


def _value_coverage(
    text: str, near: Sequence[str], doc_numbers: frozenset[str]
) -> tuple[float, float, float]:
    """(has_value, value_cov, value_cov_any) of a claim: its numbers and dates stated by one of the
    texts ``near`` (compared as facets), and stated there or written as digits in ``doc_numbers``."""
    f = _facets(text)
    values = len(f.quantities) + len(f.dates)
    if not values:
        return 0.0, 1.0, 1.0
    others = [_facets(t) for t in near]
    near_q = [any(quantity_matches(q, o) for g in others for o in g.quantities) for q in f.quantities]
    near_d = [any(date_stated(d, e) for g in others for e in g.dates) for d in f.dates]
    texts = [q.text for q in f.quantities] + [d.text for d in f.dates]
    digits = [find_digits(t) <= doc_numbers for t in texts]
    found = [a or b for a, b in zip(near_q + near_d, digits, strict=True)]
    return 1.0, sum(near_q + near_d) / values, sum(found) / values


def coverage_of(tokens: Sequence[str], other: Iterable[str]) -> float:
    """Share of ``tokens`` that ``claims.facets.token_match`` some token of ``other`` (1 if none)."""
    if not tokens:
        return 1.0
    found = TokenSet(other)
    return sum(1 for t in tokens if t in found) / len(tokens)


def missing_tokens(tokens: Sequence[str], doc_tokens: Iterable[str]) -> list[str]:
    """The ``tokens`` that match no token of ``doc_tokens``, in order."""
    found = TokenSet(doc_tokens)
    return [t for t in tokens if t not in found]


def surface_word(text: str, token: str) -> str:
    """The word of ``text`` that the stemmed content token ``token`` came from (else ``token``)."""
    for m in re.finditer(r"[\w'’-]+", text):
        if token in content_tokens(m.group(0)):
            return m.group(0)
    return token


def _lexical_best(tokens: Sequence[str], claim_tokens: Sequence[Sequence[str]]) -> tuple[int, float]:
    """(index, coverage) of the reference claim that covers most of ``tokens`` (first on ties)."""
    best, best_cov = 0, -1.0
    for k, other in enumerate(claim_tokens):
        if other:
            cov = coverage_of(tokens, other)
            if cov > best_cov:
                best, best_cov = k, cov
    return best, max(best_cov, 0.0)


def _rule_onehot(verdict: Verdict) -> list[float]:
    return [1.0 if verdict is v else 0.0 for v in RULE_VERDICTS]


def _claim_row(
    text: str,
    ambiguous: bool,
    sims: np.ndarray,
    judgement: Judgement,
    refs: Sequence[ReferenceClaim],
    idx: ReferenceIndex,
) -> list[float]:
    order = np.argsort(-sims)[:TOP_K] if sims.size else np.zeros(0, dtype=np.int64)
    cos1 = float(sims[order[0]]) if order.size else 0.0
    cos2 = float(sims[order[1]]) if order.size > 1 else 0.0
    tokens = content_tokens(text)
    best_tokens = idx.claim_tokens[int(order[0])] if order.size else []
    top_tokens = [t for j in order for t in idx.claim_tokens[int(j)]]
    best_text = refs[int(order[0])].claim.text if order.size else ""
    cov_best = coverage_of(tokens, best_tokens)
    near = np.argsort(-sims)[:VALUE_TOP_K] if sims.size else np.zeros(0, dtype=np.int64)
    has_value, value_cov, value_cov_any = _value_coverage(
        text, [refs[int(k)].claim.text for k in near], idx.doc_numbers
    )
    names = [m.lower() for m in _NAME.findall(text) if m.lower() not in UNITS]  # "EUR" is a unit, not a name
    lex = _lexical_best(tokens, idx.claim_tokens)
    return [
        cos1,
        cos2,
        cos1 - cos2,
        cov_best,
        coverage_of(tokens, top_tokens),
        coverage_of(tokens, idx.doc_tokens)
        if len(idx.doc_tokens) < 20000
        else coverage_of(tokens, top_tokens),
        float(min(5, len(missing_tokens(tokens, idx.doc_tokens)))),
        has_value,
        value_cov,
        value_cov_any,
        float(bool(_NEGATION.search(text)) != bool(_NEGATION.search(best_text))),
        math.log1p(len(tokens)),
        fuzz.token_set_ratio(text, best_text) / 100.0,
        cos1 * cov_best,
        (sum(n in idx.doc_lower for n in names) / len(names)) if names else 1.0,
        1.0 if ambiguous else 0.0,
        lex[1],
        float(sims[lex[0]]) if sims.size else 0.0,
        coverage_of(best_tokens, tokens) if best_tokens else 0.0,
        math.log1p(int((sims >= NEAR_COSINE).sum())),
        math.log1p(sims.size),
        *_rule_onehot(judgement.verdict),
    ]


def feature_matrix(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    reference_texts: Sequence[str] | None = None,
) -> np.ndarray:
    """Features of every judgement's claim: float64 of shape ``(len(judgements), len(FEATURE_NAMES))``.

    ``similarity`` is the cosine matrix of response claims (rows) by reference claims (columns);
    ``judgements`` are the rule engine's (``claims.verdict.judge``), indexing ``response_claims``.
    Columns are described next to ``FEATURE_NAMES``.
    """
    return indexed_features(
        response_claims,
        reference_claims,
        similarity,
        judgements,
        reference_index(reference_claims, reference_texts),
    )


def indexed_features(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    idx: ReferenceIndex,
) -> np.ndarray:
    """``feature_matrix`` with the references' ``ReferenceIndex`` built once by the caller."""
    rows = []
    for j in judgements:
        c = response_claims[j.response_index]
        sims = similarity[j.response_index] if similarity.shape[1] else np.zeros(0, dtype=np.float32)
        rows.append(_claim_row(embedding_text(c.text), bool(c.ambiguous), sims, j, reference_claims, idx))
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(FEATURE_NAMES))
