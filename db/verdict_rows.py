"""Verdicts, evidence and scores of audits: replaced as a whole per audit (idempotent).

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from claims.types import (
    COUNT_NAMES,
    SCORE_NAMES,
    AuditResult,
)
from db.models import (
    EvidenceRow,
    ScoreRow,
    VerdictRow,
)
from db.statements import chunks


@dataclass(frozen=True, slots=True)
class NewVerdict:
    """A verdict to store: response claim id; evidence as (reference claim id, similarity), best
    first; ``confidence`` the calibrated probability in [0, 1] that the verdict is right, or None;
    ``best_similarity`` and ``substitute_claim_id`` the claim's part of the audit's
    ``claims.score.MatchSummary`` (best cosine over the material reference claims; the reference
    claim id the edit script substitutes for it), or None."""

    claim_id: int
    verdict: str
    reason: str
    change: str | None
    evidence: Sequence[tuple[int, float]] = ()
    confidence: float | None = None
    best_similarity: float | None = None
    substitute_claim_id: int | None = None


_INSERT_EVIDENCE = text(
    "INSERT INTO evidence (verdict_id, rank, audit_id, reference_claim_id, similarity) "
    "SELECT * FROM unnest(CAST(:v AS bigint[]), CAST(:r AS int[]), CAST(:a AS uuid[]), "
    "CAST(:c AS bigint[]), CAST(:s AS float8[]))"
)


def replace_verdicts(session: Session, audit_id: uuid.UUID, verdicts: Sequence[NewVerdict]) -> None:
    """Delete the audit's evidence, verdicts and scores, insert ``verdicts`` in two batches."""
    replace_verdicts_of(session, {audit_id: verdicts})


def replace_verdicts_of(
    session: Session, verdicts_by_audit: Mapping[uuid.UUID, Sequence[NewVerdict]]
) -> None:
    """:func:`replace_verdicts` of several audits in four statements (a bundle's stage)."""
    ids = list(verdicts_by_audit)
    if not ids:
        return
    session.execute(delete(ScoreRow).where(ScoreRow.audit_id.in_(ids)))
    # evidence first, in one statement: the rollup trigger of ``reference_verdicts`` (migration
    # 0019) then runs once, not once per verdict as the cascade would run it
    session.execute(delete(EvidenceRow).where(EvidenceRow.audit_id.in_(ids)))
    session.execute(delete(VerdictRow).where(VerdictRow.audit_id.in_(ids)))
    pairs = [(aid, v) for aid, verdicts in verdicts_by_audit.items() for v in verdicts]
    if not pairs:
        return
    rows = [
        {
            "audit_id": aid,
            "claim_id": v.claim_id,
            "verdict": v.verdict,
            "reason": v.reason,
            "change": v.change,
            "confidence": None if v.confidence is None else float(v.confidence),
            "best_similarity": None if v.best_similarity is None else float(v.best_similarity),
            "substitute_claim_id": v.substitute_claim_id,
        }
        for aid, v in pairs
    ]
    by_claim: dict[int, int] = {}
    for chunk in chunks(rows):  # bind parameters: 8 per row
        stmt = insert(VerdictRow).values(list(chunk)).returning(VerdictRow.id, VerdictRow.claim_id)
        by_claim.update({claim_id: vid for vid, claim_id in session.execute(stmt).all()})
    evidence = [
        (by_claim[v.claim_id], rank, aid, ref_id, float(sim))
        for aid, v in pairs
        for rank, (ref_id, sim) in enumerate(v.evidence)
    ]
    if evidence:
        # one statement (arrays, unnested): one run of the rollup trigger of ``reference_verdicts``
        # (migration 0019), where an executemany would run it once per row
        columns = list(zip(*evidence, strict=True))
        session.execute(
            _INSERT_EVIDENCE,
            {"v": list(columns[0]), "r": list(columns[1]), "a": list(columns[2]), "c": list(columns[3]),
             "s": list(columns[4])},
        )  # fmt: skip


def upsert_scores(
    session: Session, audit_id: uuid.UUID, result: AuditResult, *, threshold: float, embedding_model: str
) -> None:
    """Insert or replace the audit's score row (``ON CONFLICT (audit_id) DO UPDATE``)."""
    upsert_scores_of(session, {audit_id: NewScore(result, threshold, embedding_model)})


@dataclass(frozen=True, slots=True)
class NewScore:
    """A score row to store: the engine's result, the cosine threshold and the embedding model."""

    result: AuditResult
    threshold: float
    embedding_model: str


def upsert_scores_of(session: Session, scores: Mapping[uuid.UUID, NewScore]) -> None:
    """:func:`upsert_scores` of several audits in one statement (a bundle's stage)."""
    if not scores:
        return
    rows = [{"audit_id": aid, **_score_values(new)} for aid, new in scores.items()]
    stmt = pg_insert(ScoreRow).values(rows)
    updated = {k: stmt.excluded[k] for k in rows[0] if k != "audit_id"}
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=[ScoreRow.audit_id], set_={**updated, "created_at": func.now()}
        )
    )


def _score_values(new: NewScore) -> dict[str, Any]:
    result = new.result
    values: dict[str, Any] = {name: getattr(result.scores, name) for name in SCORE_NAMES}
    values.update({name: int(result.counts.get(name, 0)) for name in COUNT_NAMES})
    values["threshold"] = float(new.threshold)
    values["embedding_model"] = new.embedding_model
    values["edit_script"] = [
        {
            "op": op.op,
            "response_claim": op.response_claim,
            "reference_claim": op.reference_claim,
            "reason": op.reason,
        }
        for op in result.edit_script
    ]
    return values
