"""One audit, every step in memory: decompose -> embed -> match -> judge -> decide -> score.

The spine runs the same steps as a Celery chain with Postgres in between. Both compose the step
functions of this module (``similarity_step``, ``judge_step``, ``score_step``), so the in-memory
path (``audit_texts``, used by ``tools/inprocess_batch.py``, the CLI's ``--offline`` and the unit
tests) and the workers cannot drift; ``report_to_dict`` builds the result document both emit
(the ``GET /audits/{id}`` document minus its database fields).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from claims import parses
from claims.decision import decide, decide_one
from claims.decision_features import reference_index
from claims.decompose import decompose_many
from claims.embed import Embedder, default_embedder
from claims.labels import embedding_text
from claims.lazy_references import evidence_references
from claims.match import cosine_matrix
from claims.options import AuditOptions
from claims.polarity_probe import FlipSimilarity, probe
from claims.review import Judge, second_opinion
from claims.score import score_audit
from claims.types import (
    COUNT_NAMES,
    AuditResult,
    Claim,
    ClaimKind,
    Judgement,
    MatchSummary,
    ReferenceClaim,
    Role,
    Verdict,
)
from claims.verdict import judge as rule_verdicts

__all__ = [
    "AuditReport",
    "audit_texts",
    "prefetch",
    "evidence_mask",
    "similarity_step",
    "ScoredClaims",
    "judge_step",
    "flip_similarity_of",
    "score_step",
    "report_to_dict",
    "validate_inputs",
    "judgeable",
    "COUNT_NAMES",
]


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


@dataclass(frozen=True)
class ScoredClaims:
    """What the result document shows of a scored audit: claims, verdicts and scores, without
    the similarity matrix (an audit read back from the store renders from this; nothing is
    recomputed)."""

    response_claims: list[Claim]
    reference_claims: list[ReferenceClaim]
    judgements: list[Judgement]
    result: AuditResult


def validate_inputs(response: object, references: object) -> tuple[str, list[str]]:
    """Check audit inputs; return them typed.

    An empty or whitespace-only reference among others is kept (an empty document with no
    claims, so reference indices stay those of the input); only all-blank references are an error.

    Raises
    ------
    ValueError
        ``response`` is not a string; ``references`` is not a non-empty list of strings;
        every reference is empty or whitespace only; a text holds a lone surrogate. The message
        names the field.
    """
    if not isinstance(response, str):
        raise ValueError("response: must be a string")
    if not isinstance(references, list | tuple) or not references:
        raise ValueError("references: must be a non-empty list of strings")
    _check_text(response, "response")
    refs: list[str] = []
    for i, r in enumerate(references):
        if not isinstance(r, str):
            raise ValueError(f"references[{i}]: must be a string")
        _check_text(r, f"references[{i}]")
        refs.append(r)
    if not any(r.strip() for r in refs):
        raise ValueError("references: every reference is empty or whitespace only (at least one needs text)")
    return response, refs


def _check_text(value: str, field: str) -> None:
    """``ValueError`` naming ``field`` when ``value`` holds a lone surrogate (valid in a JSON
    string, ``"\\ud800"``, but not Unicode text: no parser or store can take it)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{field}: must not contain lone surrogates (\\ud800-\\udfff)") from None


def similarity_step(response_vectors: np.ndarray, reference_vectors: np.ndarray) -> np.ndarray:
    """The cosine matrix of an audit, float32 ``(n_response, n_reference)``, computed once per stage.

    Either side may be empty (shape ``(0, d)`` or ``(0, 0)``): the result is then all-empty of the
    right shape.
    """
    n, m = int(response_vectors.shape[0]), int(reference_vectors.shape[0])
    if n == 0 or m == 0:
        return np.zeros((n, m), dtype=np.float32)
    return cosine_matrix(response_vectors, reference_vectors)


def judge_step(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    *,
    options: AuditOptions,
    reference_texts: Sequence[str],
    flip_similarity: FlipSimilarity,
) -> list[Judgement]:
    """Rule verdicts (``claims.verdict.judge``), the calibrated decision (``claims.decision.decide``),
    then the polarity probe (``claims.polarity_probe.probe``; ``flip_similarity``: the cosines of
    other texts with the reference claims, as ``similarity`` holds the claims' own).

    Returns one ``Judgement`` per response claim, in order, each with its ``confidence``
    (None while the decision is the placeholder, and for a claim the probe made unsupported).
    A judge, when the audit asks for one, runs after this step
    (``workers.components.review_judgements``).
    """
    rules = rule_verdicts(
        list(response_claims),
        list(reference_claims),
        similarity,
        threshold=options.threshold,
        reference_texts=list(reference_texts),
        decider=decide_one,
    )
    idx = reference_index(reference_claims, reference_texts)
    decided = decide(
        response_claims, reference_claims, similarity, rules, reference_texts=reference_texts, index=idx
    )
    return probe(
        decided,
        response_claims,
        reference_claims,
        similarity,
        flip_similarity,
        doc_tokens=idx.doc_tokens,
        doc_lower=idx.doc_lower,
    )


def flip_similarity_of(embedder: Embedder, reference_vectors: np.ndarray) -> FlipSimilarity:
    """``judge_step``'s ``flip_similarity``: texts embedded by ``embedder`` (its cache, if any,
    keeps them), then their cosines with ``reference_vectors`` (float32 ``(n_reference, dim)``)."""

    def cosines(texts: Sequence[str]) -> np.ndarray:
        return similarity_step(embedder.embed(list(texts)), reference_vectors)

    return cosines


def score_step(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
    similarity: np.ndarray | MatchSummary,
    *,
    response_text: str,
    reference_texts: Sequence[str],
    options: AuditOptions,
) -> AuditResult:
    """Every score of the audit (``claims.score.score_audit``) with the audit's options;
    ``similarity``: the cosine matrix or the match stage's stored ``MatchSummary`` of it."""
    return score_audit(
        list(response_claims),
        list(reference_claims),
        list(judgements),
        similarity,
        response_text=response_text,
        reference_texts=list(reference_texts),
        threshold=options.threshold,
        case_insensitive=options.case_insensitive,
        remove_punctuation=options.remove_punctuation,
    )


def prefetch(
    audits: Sequence[tuple[str, Sequence[str]]], embedder: Embedder, *, lazy: Sequence[bool] | None = None
) -> int:
    """Decompose and embed the texts of several audits at once (the responses first, then the
    references that ``evidence_mask`` keeps), so that ``audit_texts`` on each
    of them finds its claims and vectors cached: one ``nlp.pipe`` over the sentences of all the
    texts (``decompose_many``, whose cache keeps the claims) and one model call over every claim
    text not yet embedded (in batches sorted by length), instead of one small call per audit.

    ``audits`` are ``(response, references)`` pairs; ``lazy`` says for each whether its options
    decompose the candidate evidence only (``AuditOptions.lazy_references``; default: none of
    them); ``embedder`` must cache what it embeds
    (a ``claims.embed.CachedEmbedder`` whose cache holds at least the batch), or the vectors
    are computed twice. Returns the number of claim texts sent to ``embedder`` (distinct, in
    order of first use). Verdicts and scores are those of ``audit_texts`` alone: the cache
    changes where work happens, not its result (a text's vector can differ from a per-audit
    call's in the 7th digit, as padding in a batch does; ``tools/compare_outputs.py``).
    """
    flags = list(lazy) if lazy is not None else [False] * len(audits)
    valid = [(r, list(refs), f) for (r, refs), f in zip(audits, flags, strict=True) if isinstance(r, str)]
    answers = decompose_many([r for r, _, _ in valid], roles=Role.RESPONSE)
    kept = [
        [
            t
            for t, keep in zip(refs, evidence_mask(claims, refs, lazy=f), strict=True)
            if keep and isinstance(t, str)
        ]
        for (_, refs, f), claims in zip(valid, answers, strict=True)
    ]
    claims_of = iter(decompose_many([t for texts in kept for t in texts], roles=Role.REFERENCE))
    # the claims in the order of the texts (each audit's response, then its references), so that
    # the model's batches, and with them the vectors to the last digit, do not depend on the
    # response having been decomposed first
    decomposed = [
        c
        for answer, texts in zip(answers, kept, strict=True)
        for c in (answer, *(next(claims_of) for _ in texts))
    ]
    parses.parse_many(c.text for claims in decomposed for c in claims)  # what the verdict checks read
    claim_texts = list(dict.fromkeys(embedding_text(c.text) for claims in decomposed for c in claims))
    if claim_texts:
        embedder.embed(claim_texts)
    return len(claim_texts)


def evidence_mask(response_claims: Sequence[Claim], references: Sequence[str], *, lazy: bool) -> list[bool]:
    """Whether to decompose each of ``references``: all True unless ``lazy`` (the audit's
    ``references`` option is ``evidence``), then ``claims.lazy_references.evidence_references``
    over the material response claims (still all True in an audit with few references)."""
    if not lazy:
        return [True] * len(references)
    material_texts = [c.text for c in response_claims if c.kind is ClaimKind.MATERIAL]
    chosen = evidence_references(material_texts, references)
    return [chosen is None or k in chosen for k in range(len(references))]


def audit_texts(
    response: str,
    references: Sequence[str],
    *,
    embedder: Embedder | None = None,
    options: AuditOptions | None = None,
    threshold: float | None = None,
    case_insensitive: bool | None = None,
    remove_punctuation: bool | None = None,
    judge: Judge | None = None,
) -> AuditReport:
    """Audit ``response`` against ``references`` claim by claim, all in memory.

    Parameters
    ----------
    response : str
        The text under audit (may be empty: zero claims).
    references : sequence of str
        Reference texts; at least one not blank (blank ones are kept as empty documents).
    embedder : Embedder, optional
        Default: ``claims.embed.default_embedder()``.
    options : AuditOptions, optional
        The audit's options (``AuditOptions.from_config``); default ``AuditOptions()``.
    threshold, case_insensitive, remove_punctuation : optional
        Shorthands that override the same fields of ``options``.
    judge : claims.review.Judge, optional
        A second opinion on the offline verdicts, asked as ``options.judge`` says (``"llm"``:
        every material claim; ``"auto"``: the uncertain band; ``"none"``, the default: never).

    Raises
    ------
    ValueError
        Invalid input (see ``validate_inputs``) or threshold (see ``AuditOptions.from_config``).
    claims.types.ModelUnavailable
        A local model could not be loaded (``claims.decompose.decompose_many``): a broken
        install, never an audit scored without it.
    """
    response, refs = validate_inputs(response, list(references))
    opts = _with_overrides(options or AuditOptions(), threshold, case_insensitive, remove_punctuation)
    emb = embedder or default_embedder()
    # the response first: its claims choose the references to decompose in an audit with many
    # (claims.lazy_references); one parser pass over those (decompose_many batches nlp.pipe); the
    # references' headings that state something are claims too
    response_claims = decompose_many([response], roles=Role.RESPONSE)[0]
    mask = evidence_mask(response_claims, refs, lazy=opts.lazy_references)
    per_reference = decompose_many(
        [r if m else "" for r, m in zip(refs, mask, strict=True)], roles=Role.REFERENCE
    )
    reference_claims = [
        ReferenceClaim(reference=i, claim=c) for i, claims in enumerate(per_reference) for c in claims
    ]
    # a label-style claim ("HQ: Bergen") is embedded as the sentence it states (claims.labels)
    texts = [embedding_text(c.text) for c in response_claims] + [
        embedding_text(rc.claim.text) for rc in reference_claims
    ]
    vectors = emb.embed(texts) if texts else np.zeros((0, emb.dim), dtype=np.float32)
    n = len(response_claims)
    similarity = similarity_step(vectors[:n], vectors[n:])
    judgements = judge_step(
        response_claims,
        reference_claims,
        similarity,
        options=opts,
        reference_texts=refs,
        flip_similarity=flip_similarity_of(emb, vectors[n:]),
    )
    judgements = second_opinion(judge, opts, response_claims, reference_claims, similarity, judgements)
    result = score_step(
        response_claims,
        reference_claims,
        judgements,
        similarity,
        response_text=response,
        reference_texts=refs,
        options=opts,
    )
    return AuditReport(response_claims, reference_claims, judgements, similarity, result, opts.threshold)


def _with_overrides(
    options: AuditOptions,
    threshold: float | None,
    case_insensitive: bool | None,
    remove_punctuation: bool | None,
) -> AuditOptions:
    overrides = {
        "threshold": threshold,
        "case_insensitive": case_insensitive,
        "remove_punctuation": remove_punctuation,
    }
    set_ = {k: v for k, v in overrides.items() if v is not None}
    if not set_:
        return options
    checked = AuditOptions.from_config(set_)
    return replace(options, **{k: getattr(checked, k) for k in set_})


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
        "confidence": None,
        "reason": None,
        "evidence": [],
    }


def _judged(d: dict[str, Any], j: Judgement) -> dict[str, Any]:
    """Fill a response claim's verdict, confidence, reason and evidence from ``j``."""
    d["verdict"] = j.verdict.value
    d["confidence"] = None if j.confidence is None else round(float(j.confidence), 6)
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
    return d


def judgeable(claims: Sequence[Claim], judgements: Sequence[Judgement]) -> int:
    """How many response claims an LLM judge could be asked about: material claims whose verdict
    is not ``outside_scope`` (the denominator of ``usage.llm_judged_share``)."""
    verdicts = {j.response_index: j.verdict for j in judgements}
    return sum(
        1
        for i, c in enumerate(claims)
        if c.kind is ClaimKind.MATERIAL
        and verdicts.get(i, Verdict.OUTSIDE_SCOPE) is not Verdict.OUTSIDE_SCOPE
    )


def report_to_dict(
    report: AuditReport | ScoredClaims, references: Sequence[str], response: str
) -> dict[str, Any]:
    """The result document of an audit (API contract, minus ``id`` and the DB fields); reads
    neither the similarity matrix nor the threshold.

    Keys: ``status`` ("done"), ``error`` (None), ``scores`` (9 scores, None when undefined),
    ``counts`` (8 counts), ``claims`` (response claims then reference claims, each with
    role/reference/position/text/start/end/kind/duplicates/ambiguous/verdict/confidence/reason/
    evidence; ``confidence`` is the calibrated probability in [0, 1] that the verdict is right,
    or None, and always None on reference claims), ``edit_script`` (op, response_claim
    text|None, reference_claim text|None, reason) and ``usage`` (no LLM calls in memory: zero
    counts, ``llm_judged_share`` 0.0, or None when no claim could have been judged).
    """
    del references, response  # part of the signature for symmetry with the spine; texts live in claims
    result = report.result
    by_index = {j.response_index: j for j in report.judgements}
    claims: list[dict[str, Any]] = []
    for i, c in enumerate(report.response_claims):
        d = _claim_dict(c, Role.RESPONSE, None)
        claims.append(_judged(d, by_index[i]) if i in by_index else d)
    claims += [_claim_dict(rc.claim, Role.REFERENCE, rc.reference) for rc in report.reference_claims]
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
    share = 0.0 if judgeable(report.response_claims, report.judgements) else None
    return {
        "status": "done",
        "error": None,
        "scores": result.scores.as_dict(),
        "counts": counts,
        "claims": claims,
        "edit_script": edit_script,
        "usage": {"llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "llm_judged_share": share},
    }


def material(claims: Sequence[Claim]) -> list[Claim]:
    """The claims of kind ``material`` (the ones every denominator counts)."""
    return [c for c in claims if c.kind is ClaimKind.MATERIAL]
