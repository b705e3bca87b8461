"""Stage services: glue between the repository and the claim engine, one function per stage.

Each takes a ``Session`` and an audit id, reads what the previous stage stored, computes, and
writes this stage's rows. Services never commit (the Celery task owns the transaction) and are
idempotent: re-running one replaces its own rows (see ``db.repository``), so a redelivered task
creates no duplicates. Vectors are read from and written to Postgres, never passed around.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sqlalchemy.orm import Session, sessionmaker

from claims.audit import evidence_mask, flip_similarity_of, judge_step, score_step, similarity_step
from claims.decompose import decompose
from claims.embed import CachedEmbedder
from claims.labels import embedding_text
from claims.options import AuditOptions
from claims.polarity_probe import flip_texts
from claims.score import match_summary
from claims.types import Claim, ClaimKind, Judgement, MatchSummary, Role
from db import repository as repo
from db.models import Document
from service.settings import get_settings
from workers import components, reference_cache

__all__ = [
    "PermanentStageError",
    "options_of",
    "claim_rows",
    "evidence_documents",
    "decompose_audit",
    "embed_audit",
    "match_audit",
    "score_audit_stage",
    "score_of",
    "model_of",
    "similarity_of",
    "verdict_rows",
    "offline_judgements",
]

log = logging.getLogger(__name__)


class PermanentStageError(RuntimeError):
    """The audit cannot proceed (missing rows, inconsistent embeddings); retrying will not help."""


def options_of(config: Mapping[str, Any] | None) -> AuditOptions:
    """The audit's options: its stored ``config`` over this process's settings.

    Raises ``PermanentStageError`` when the stored config is invalid (the API validated it, so
    only a hand-edited row gets here).
    """
    try:
        return AuditOptions.from_config(config, get_settings())
    except ValueError as exc:
        raise PermanentStageError(str(exc)) from exc


def _state(
    session: Session,
    audit_id: uuid.UUID,
    *,
    verdicts: bool = True,
    scores: bool = True,
    vectors: bool = True,
) -> repo.AuditState:
    state = repo.load_audit_states(
        session, [audit_id], verdicts=verdicts, scores=scores, vectors=vectors
    ).get(audit_id)
    if state is None:
        raise PermanentStageError(f"audit {audit_id} does not exist")
    return state


def decompose_audit(
    session: Session, audit_id: uuid.UUID, *, factory: sessionmaker[Session] | None = None
) -> int:
    """Decompose every document of the audit into claims; replace the audit's claims. Returns the count."""
    audit = repo.get_audit(session, audit_id)
    if audit is None:
        raise PermanentStageError(f"audit {audit_id} does not exist")
    docs = {audit.id: evidence_documents(repo.get_documents(session, audit_id), audit.config)}
    known = reference_cache.cached_references(session, [audit], docs)
    cached = known.get(audit.id, {})
    todo = [d for d in docs[audit.id] if d.text not in cached]
    components.prepare_decomposition([d.text for d in todo], audit.config, roles=[d.role for d in todo])
    rows = claim_rows(docs[audit.id], audit.config, audit_id=audit_id, factory=factory, known=cached)
    reference_cache.remember_references(session, [audit], docs, known)
    repo.replace_claims(session, audit_id, rows)
    return len(rows)


def evidence_documents(docs: Sequence[Document], config: Mapping[str, Any] | None) -> list[Document]:
    """The documents of an audit to decompose, in their order: all of ``docs``, unless the audit
    decomposes offline and its options ask for the candidate evidence only (``references`` =
    ``evidence``); then the response and the references ``claims.audit.evidence_mask`` keeps,
    read off the response's claims (decomposed here; the process cache keeps them), as the
    in-memory path does. A reference left out gets no claims and keeps its position. An invalid
    config decomposes all documents (``claims.options.AuditOptions.from_config`` is the later
    stages' to apply)."""
    docs = list(docs)
    # read leniently: an invalid config fails in the stage that reads the option it breaks (the
    # match stage for a threshold), for this audit alone, not here for a whole bundle
    lazy = (config or {}).get("references") == "evidence"
    if not lazy or not components.offline_decomposer(config or {}):
        return docs
    response = next((d for d in docs if d.role == Role.RESPONSE.value), None)
    refs = sorted((d for d in docs if d.role == Role.REFERENCE.value), key=lambda d: d.position)
    claims = decompose(response.text, role=Role.RESPONSE) if response is not None else []
    mask = evidence_mask(claims, [d.text for d in refs], lazy=True)
    left_out = {d.id for d, keep in zip(refs, mask, strict=True) if not keep}
    return [d for d in docs if d.id not in left_out]


def claim_rows(
    docs: Sequence[Document],
    config: Mapping[str, Any],
    *,
    audit_id: uuid.UUID,
    factory: sessionmaker[Session] | None = None,
    known: Mapping[str, Sequence[Claim]] | None = None,
) -> list[dict[str, Any]]:
    """The claim rows of an audit's documents (``repo.replace_claims``); ``known``: claims of
    reference texts already decomposed (the reference cache), by text. Raises
    ``PermanentStageError`` for a span outside its document."""
    rows: list[dict[str, Any]] = []
    for doc in docs:
        named = {"role": doc.role, "position": doc.position}
        cached = (known or {}).get(doc.text) if doc.role == Role.REFERENCE.value else None
        claims = (
            cached
            if cached is not None
            else components.decompose_text(
                doc.text, config, audit_id=audit_id, factory=factory, document=named
            )
        )
        for claim in claims:
            if not 0 <= claim.start <= claim.end <= len(doc.text):
                raise PermanentStageError(
                    f"decomposer returned span [{claim.start}, {claim.end}) outside "
                    f"{doc.role} {doc.position} of length {len(doc.text)}"
                )
            rows.append(
                {
                    "document_id": doc.id,
                    "role": doc.role,
                    "position": claim.position,
                    "text": claim.text,
                    "char_start": claim.start,
                    "char_end": claim.end,
                    "kind": claim.kind.value,
                    "duplicates": claim.duplicates,
                    "ambiguous": claim.ambiguous,
                }
            )
    return rows


def embed_audit(
    session: Session, audit_id: uuid.UUID, *, factory: sessionmaker[Session] | None = None
) -> str:
    """Embed every claim of the audit (through the shared ``embedding_cache``); returns the model name.

    With an endpoint's embedder the polarity probe's flipped claims
    (``claims.polarity_probe.flip_texts``) go into the cache in the same request, so that the
    match stage finds them there and an audit costs one embeddings request."""
    audit = repo.get_audit(session, audit_id)
    if audit is None:
        raise PermanentStageError(f"audit {audit_id} does not exist")
    inner = components.embedder_for(audit.config, audit_id=audit_id, factory=factory)
    embedder = CachedEmbedder(inner, repo.PgEmbeddingCache(session))
    rows = repo.list_claims(session, audit_id)
    texts = [embedding_text(r.text) for r in rows]
    if rows and not components.local_embedder(audit.config):
        references = [d.text for d in repo.get_documents(session, audit_id) if d.role == Role.REFERENCE.value]
        material = [
            r.text for r in rows if r.role == Role.RESPONSE.value and r.kind == ClaimKind.MATERIAL.value
        ]
        if any(r.role == Role.REFERENCE.value for r in rows):  # the probe reads no audit without them
            texts += flip_texts(material, references)
    vectors = embedder.embed(texts)[: len(rows)] if rows else np.zeros((0, inner.dim), np.float32)
    repo.set_embeddings(session, [r.id for r in rows], vectors, model=embedder.model_name, dim=embedder.dim)
    return embedder.model_name


def model_of(state: repo.AuditState) -> str | None:
    """The embedding model of the audit's claims (None without claims); raises
    ``PermanentStageError`` for claims without a vector or with vectors of two models."""
    models = {r.embedding_model for r in state.response_rows + state.reference_rows}
    if None in models:
        raise PermanentStageError("some claims have no embedding (the embed stage did not run)")
    if len(models) > 1:
        raise PermanentStageError(
            f"claims embedded with different models {sorted(str(m) for m in models)}; "
            "matching never mixes models"
        )
    return next(iter(models), None)


def similarity_of(state: repo.AuditState) -> tuple[np.ndarray, str | None]:
    """The audit's cosine matrix ``(n_response, n_reference)`` float32 and its embedding model;
    raises ``PermanentStageError`` as :func:`model_of`."""
    model = model_of(state)
    return similarity_step(state.vectors(Role.RESPONSE.value), state.vectors(Role.REFERENCE.value)), model


def match_audit(
    session: Session, audit_id: uuid.UUID, *, factory: sessionmaker[Session] | None = None
) -> int:
    """Judge every response claim against the reference claims; replace the audit's verdicts.

    Steps: the cosine matrix (an exact scan of this audit's stored vectors, computed once: only
    here), the rule verdicts and the calibrated decision (``claims.audit.judge_step``), then the
    LLM judge when the audit asks for one (``judge = llm``: every claim; ``auto``: the uncertain
    ones). Each verdict row carries its claim's part of the ``claims.score.MatchSummary``, what
    the score stage reads instead of the matrix. Returns the number of verdicts.
    """
    state = _state(session, audit_id, verdicts=False, scores=False)  # this stage replaces both
    options = options_of(state.audit.config)
    similarity, _model = similarity_of(state)
    judgements = offline_judgements(state, similarity, options, session)
    judgements = components.review_judgements(
        session,
        state.audit,
        options,
        state.response_claims,
        state.reference_claims,
        similarity,
        judgements,
        factory=factory,
    )
    verdicts = verdict_rows(state, judgements, similarity)
    repo.replace_verdicts(session, audit_id, verdicts)
    return len(verdicts)


def offline_judgements(
    state: repo.AuditState, similarity: np.ndarray, options: AuditOptions, session: Session | None = None
) -> list[Judgement]:
    """The rule verdicts, the calibrated decision and the polarity probe of every response claim
    (``claims.audit.judge_step``), before any LLM review. The probe's flipped claims are embedded
    by the audit's own embedder (``components.embedder_for``: the model of the stored vectors),
    an endpoint's through the shared ``embedding_cache`` of ``session`` (``embed_audit`` put them
    there)."""
    embedder = components.embedder_for(state.audit.config, audit_id=state.audit.id)
    if session is not None and not components.local_embedder(state.audit.config):
        embedder = CachedEmbedder(embedder, repo.PgEmbeddingCache(session))
    references = state.vectors(Role.REFERENCE.value)
    return judge_step(
        state.response_claims,
        state.reference_claims,
        similarity,
        options=options,
        reference_texts=state.reference_texts,
        flip_similarity=flip_similarity_of(embedder, references),
    )


def verdict_rows(
    state: repo.AuditState, judgements: Sequence[Judgement], similarity: np.ndarray
) -> list[repo.NewVerdict]:
    """The verdict rows of an audit's final judgements (``repo.replace_verdicts``), each with its
    claim's part of the audit's ``claims.score.match_summary`` (from ``similarity``)."""
    summary = match_summary(state.response_claims, state.reference_claims, judgements, similarity)
    return [
        repo.NewVerdict(
            claim_id=state.response_rows[j.response_index].id,
            verdict=j.verdict.value,
            reason=j.reason,
            change=j.change,
            evidence=[(state.reference_rows[e.claim_index].id, float(e.similarity)) for e in j.evidence],
            confidence=j.confidence,
            best_similarity=summary.best[j.response_index],
            substitute_claim_id=_substitute_id(state, summary, j.response_index),
        )
        for j in judgements
    ]


def _substitute_id(state: repo.AuditState, summary: MatchSummary, index: int) -> int | None:
    column = summary.substitutes.get(index)
    return None if column is None else state.reference_rows[column].id


def score_audit_stage(session: Session, audit_id: uuid.UUID) -> None:
    """Score the audit from its stored claims, verdicts and match summary (the vectors are not
    read); upsert its score row."""
    state = _state(session, audit_id, scores=False, vectors=False)  # this stage replaces the score row
    repo.upsert_scores_of(session, {audit_id: score_of(state)})


def score_of(state: repo.AuditState) -> repo.NewScore:
    """The score row of an audit from its stored claims and verdicts, with the match summary the
    match stage stored beside them (``state.match_summary``): the cosine matrix is not computed
    again. Verdicts stored without a summary (matched before it was stored) are scored from the
    matrix of the stored vectors, with the same result. Raises ``PermanentStageError`` when the
    match stage stored no verdicts, or as :func:`model_of`."""
    if state.judgements is None and state.response_claims:
        raise PermanentStageError("no verdicts stored (the match stage did not run)")
    options = options_of(state.audit.config)
    model = model_of(state)
    cosines: np.ndarray | MatchSummary | None = state.match_summary
    if cosines is None:
        cosines, model = similarity_of(state)
    result = score_step(
        state.response_claims,
        state.reference_claims,
        state.judgements or [],
        cosines,
        response_text=state.response_text,
        reference_texts=state.reference_texts,
        options=options,
    )
    return repo.NewScore(result, options.threshold, model or "")
