"""One audit, every step in memory: decompose -> embed -> match -> judge -> score.

The spine runs the same steps as a Celery chain with Postgres in between; this module is the
reference composition (used by ``tools/inprocess_batch.py`` and the unit tests), and
``report_to_dict`` builds the result document both emit (``/tmp/api_contract.md``: the
``GET /audits/{id}`` document minus its database fields).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from claims.decompose import decompose_many
from claims.embed import Embedder, default_embedder
from claims.match import DEFAULT_THRESHOLD, cosine_matrix
from claims.score import score_audit
from claims.types import COUNT_NAMES, AuditResult, Claim, ClaimKind, Judgement, ReferenceClaim, Role
from claims.verdict import judge

__all__ = ["AuditReport", "audit_texts", "report_to_dict", "validate_inputs", "COUNT_NAMES"]


@dataclass(frozen=True, slots=True)
class AuditReport:
    """Everything one in-memory audit produced.

    ``similarity`` is float32 of shape ``(len(response_claims), len(reference_claims))``
    (cosines of every response claim with every reference claim, all kinds included).
    """

    response_claims: list[Claim]
    reference_claims: list[ReferenceClaim]
    judgements: list[Judgement]
    similarity: np.ndarray
    result: AuditResult
    threshold: float


def validate_inputs(response: object, references: object) -> tuple[str, list[str]]:
    """Check audit inputs; return them typed.

    Raises
    ------
    ValueError
        ``response`` is not a string; ``references`` is not a non-empty list of strings;
        a reference is empty or whitespace only. The message names the field.
    """
    if not isinstance(response, str):
        raise ValueError("response: must be a string")
    if not isinstance(references, list | tuple) or not references:
        raise ValueError("references: must be a non-empty list of strings")
    refs: list[str] = []
    for i, r in enumerate(references):
        if not isinstance(r, str):
            raise ValueError(f"references[{i}]: must be a string")
        if not r.strip():
            raise ValueError(f"references[{i}]: must not be empty or whitespace only")
        refs.append(r)
    return response, refs


def audit_texts(
    response: str,
    references: Sequence[str],
    *,
    embedder: Embedder | None = None,
    threshold: float | None = None,
    case_insensitive: bool = False,
    remove_punctuation: bool = False,
) -> AuditReport:
    """Audit ``response`` against ``references`` claim by claim, all in memory.

    Parameters
    ----------
    response : str
        The text under audit (may be empty: zero claims).
    references : sequence of str
        At least one non-blank reference text.
    embedder : Embedder, optional
        Default: ``claims.embed.default_embedder()``.
    threshold : float, optional
        Cosine threshold; default ``claims.match.DEFAULT_THRESHOLD``.
    case_insensitive, remove_punctuation : bool
        Options of the Levenshtein scores (seed SDK).

    Raises
    ------
    ValueError
        Invalid input (see ``validate_inputs``).
    """
    response, refs = validate_inputs(response, list(references))
    thr = DEFAULT_THRESHOLD if threshold is None else float(threshold)
    emb = embedder or default_embedder()
    # one parser pass over the sentences of all texts (decompose_many batches nlp.pipe)
    response_claims, *per_reference = decompose_many([response, *refs])
    reference_claims = [
        ReferenceClaim(reference=i, claim=c) for i, claims in enumerate(per_reference) for c in claims
    ]
    texts = [c.text for c in response_claims] + [rc.claim.text for rc in reference_claims]
    vectors = emb.embed(texts) if texts else np.zeros((0, emb.dim), dtype=np.float32)
    n = len(response_claims)
    similarity = cosine_matrix(vectors[:n], vectors[n:])
    judgements = judge(response_claims, reference_claims, similarity, threshold=thr, reference_texts=refs)
    result = score_audit(
        response_claims,
        reference_claims,
        judgements,
        similarity,
        response_text=response,
        reference_texts=refs,
        threshold=thr,
        case_insensitive=case_insensitive,
        remove_punctuation=remove_punctuation,
    )
    return AuditReport(response_claims, reference_claims, list(judgements), similarity, result, thr)


def _claim_dict(c: Claim, role: Role, reference: int | None) -> dict[str, Any]:
    return {
        "role": role.value,
        "reference": reference,
        "position": c.position,
        "text": c.text,
        "start": c.start,
        "end": c.end,
        "kind": c.kind.value,
        "duplicates": c.duplicates,
        "ambiguous": c.ambiguous,
        "verdict": None,
        "reason": None,
        "evidence": [],
    }


def report_to_dict(report: AuditReport, references: Sequence[str], response: str) -> dict[str, Any]:
    """The result document of an audit (API contract, minus ``id`` and the DB fields).

    Keys: ``status`` ("done"), ``error`` (None), ``scores`` (9 scores, None when undefined),
    ``counts`` (8 counts), ``claims`` (response claims then reference claims, each with
    role/reference/position/text/start/end/kind/duplicates/ambiguous/verdict/reason/evidence),
    ``edit_script`` (op, response_claim text|None, reference_claim text|None, reason) and
    ``usage`` (zeros: no LLM calls in memory).
    """
    del references, response  # part of the signature for symmetry with the spine; texts live in claims
    result = report.result
    claims: list[dict[str, Any]] = []
    by_index = {j.response_index: j for j in report.judgements}
    for i, c in enumerate(report.response_claims):
        d = _claim_dict(c, Role.RESPONSE, None)
        j = by_index.get(i)
        if j is not None:
            d["verdict"] = j.verdict.value
            d["reason"] = j.reason
            d["evidence"] = [
                {
                    "reference": e.reference,
                    "start": e.start,
                    "end": e.end,
                    "text": e.text,
                    "similarity": round(float(e.similarity), 6),
                }
                for e in j.evidence
            ]
        claims.append(d)
    for rc in report.reference_claims:
        claims.append(_claim_dict(rc.claim, Role.REFERENCE, rc.reference))
    counts = {name: 0 for name in COUNT_NAMES}
    counts.update({k: int(v) for k, v in result.counts.items()})
    edit_script = [
        {
            "op": op.op,
            "response_claim": None
            if op.response_claim is None
            else report.response_claims[op.response_claim].text,
            "reference_claim": (
                None if op.reference_claim is None else report.reference_claims[op.reference_claim].claim.text
            ),
            "reason": op.reason,
        }
        for op in result.edit_script
    ]
    return {
        "status": "done",
        "error": None,
        "scores": result.scores.as_dict(),
        "counts": counts,
        "claims": claims,
        "edit_script": edit_script,
        "usage": {"llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0},
    }


def material(claims: Sequence[Claim]) -> list[Claim]:
    """The claims of kind ``material`` (the ones every denominator counts)."""
    return [c for c in claims if c.kind is ClaimKind.MATERIAL]
