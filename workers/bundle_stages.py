"""What each stage does for a bundle of audits (``workers.bundle_tasks``): load, compute, write.

A stage of a bundle is three steps, each over every audit the run holds:

- ``load(session, ids)``: read the audits' rows in a fixed number of queries and do the work that
  crosses audits at once: one parser pass over all documents (decompose), one model call over
  all claim texts through the shared embedding cache (embed), one parser pass over all claims
  (match);
- ``compute(loaded, id)``: one audit's new rows, without the database; raises ``OwnRun`` for an
  audit that must run the single-audit service instead (an LLM component configured on the
  worker since submission), any other error fails that audit only;
- ``write(session, rows_by_audit)``: every audit's rows in a fixed number of statements.

The rows are those of the single-audit services (``workers.services``), which build them with the
same functions (``claim_rows``, ``verdict_rows``, ``score_of``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from claims import parses
from claims.embed import CachedEmbedder, Embedder, text_key
from claims.labels import embedding_text
from claims.types import Claim
from db import repository as repo
from db.models import Audit, Document
from workers import components, reference_cache, services

__all__ = ["OwnRun", "BundleStage", "STAGES"]


class OwnRun(Exception):
    """This audit runs the single-audit service of the stage, not the bundle's steps."""


@dataclass(frozen=True, slots=True)
class BundleStage:
    """The three steps of one stage for a bundle (see the module docstring)."""

    load: Callable[[Session, Sequence[uuid.UUID]], Any]
    compute: Callable[[Any, uuid.UUID], Any]
    write: Callable[[Session, Mapping[uuid.UUID, Any]], None]


@dataclass(frozen=True, slots=True)
class _Documents:
    audits: dict[uuid.UUID, Audit]
    docs: dict[uuid.UUID, list[Document]]
    #: Claims of reference texts found in the reference cache, by audit and text.
    known: dict[uuid.UUID, dict[str, list[Claim]]]


def _load_documents(session: Session, ids: Sequence[uuid.UUID]) -> _Documents:
    audits = {a.id: a for a in repo.get_audits(session, ids) if components.offline_decomposer(a.config)}
    docs: dict[uuid.UUID, list[Document]] = {aid: [] for aid in audits}
    for doc in repo.get_documents_of(session, list(audits)):
        docs[doc.audit_id].append(doc)
    docs = {aid: services.evidence_documents(ds, audits[aid].config) for aid, ds in docs.items()}
    known = reference_cache.cached_references(session, audits.values(), docs)
    todo = [d for aid, ds in docs.items() for d in ds if d.text not in known.get(aid, {})]
    components.prepare_decomposition(
        [d.text for d in todo], {"decomposer": "offline"}, roles=[d.role for d in todo]
    )
    reference_cache.remember_references(session, audits.values(), docs, known)
    return _Documents(audits, docs, known)


def _claims(loaded: _Documents, aid: uuid.UUID) -> list[dict[str, Any]]:
    if aid not in loaded.audits:
        raise OwnRun(aid)
    return services.claim_rows(
        loaded.docs[aid], loaded.audits[aid].config, audit_id=aid, known=loaded.known.get(aid, {})
    )


@dataclass(frozen=True, slots=True)
class _Vectors:
    claims: dict[uuid.UUID, list[tuple[int, str]]]
    vectors: dict[str, np.ndarray]


def _local() -> Embedder:
    return components.embedder_for({"embedder": "local"})  # the process-wide local model


def _load_vectors(session: Session, ids: Sequence[uuid.UUID]) -> _Vectors:
    local = [a.id for a in repo.get_audits(session, ids) if components.local_embedder(a.config)]
    claims: dict[uuid.UUID, list[tuple[int, str]]] = {aid: [] for aid in local}
    for row in repo.list_claims_of(session, local):
        claims[row.audit_id].append((row.id, embedding_text(row.text)))
    embedder = CachedEmbedder(_local(), repo.PgEmbeddingCache(session))
    texts = list(dict.fromkeys(t for rows in claims.values() for _, t in rows))
    vectors = embedder.embed(texts) if texts else np.zeros((0, embedder.dim), np.float32)
    return _Vectors(claims, {text_key(t): v for t, v in zip(texts, vectors, strict=True)})


def _embeddings(loaded: _Vectors, aid: uuid.UUID) -> list[tuple[int, np.ndarray]]:
    if aid not in loaded.claims:
        raise OwnRun(aid)
    return [(cid, loaded.vectors[text_key(t)]) for cid, t in loaded.claims[aid]]


def _write_embeddings(session: Session, rows: Mapping[uuid.UUID, list[tuple[int, np.ndarray]]]) -> None:
    pairs = [pair for audit_rows in rows.values() for pair in audit_rows]
    if not pairs:
        return
    model = _local()
    vectors = np.stack([v for _, v in pairs]).astype(np.float32, copy=False)
    repo.set_embeddings(session, [cid for cid, _ in pairs], vectors, model=model.model_name, dim=model.dim)


def _state(states: Mapping[uuid.UUID, repo.AuditState], aid: uuid.UUID) -> repo.AuditState:
    state = states.get(aid)
    if state is None:
        raise services.PermanentStageError(f"audit {aid} does not exist")
    return state


def _load_states_to_judge(session: Session, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, repo.AuditState]:
    """The audits' states, with their claims parsed in one pass (``parses.parse_many``): the
    verdict checks of every audit then find the parses they ask for."""
    states = repo.load_audit_states(session, ids, verdicts=False, scores=False)  # the stage replaces both
    parses.parse_many(
        text
        for state in states.values()
        for text in (
            *(c.text for c in state.response_claims),
            *(rc.claim.text for rc in state.reference_claims),
        )
    )
    return states


def _verdicts(states: Mapping[uuid.UUID, repo.AuditState], aid: uuid.UUID) -> list[repo.NewVerdict]:
    state = _state(states, aid)
    options = services.options_of(state.audit.config)
    if options.judge != "none":
        raise OwnRun(aid)  # the LLM judge reviews through the single-audit service
    if not components.local_embedder(state.audit.config):
        raise OwnRun(aid)  # the probe's flips of an endpoint's embedder are in the session's cache
    similarity, _model = services.similarity_of(state)
    return services.verdict_rows(state, services.offline_judgements(state, similarity, options), similarity)


#: The bundle steps of each stage (``db.models.STAGES`` names).
STAGES: dict[str, BundleStage] = {
    "decomposing": BundleStage(_load_documents, _claims, repo.replace_claims_of),
    "embedding": BundleStage(_load_vectors, _embeddings, _write_embeddings),
    "matching": BundleStage(_load_states_to_judge, _verdicts, repo.replace_verdicts_of),
    "scoring": BundleStage(
        # the stage replaces the score rows; it reads the match summary, not the vectors
        partial(repo.load_audit_states, scores=False, vectors=False),
        lambda states, aid: services.score_of(_state(states, aid)),
        repo.upsert_scores_of,
    ),
}
