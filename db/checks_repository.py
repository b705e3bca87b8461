"""SQL of the audit method's checks (canaries, second audits, corrections, human labels).

Like ``db.repository``: functions take a ``Session`` and never commit. Every function that reads
check rows for a caller takes a required keyword ``tenant_id`` and filters on it; rows are
written without one (the triggers of ``0008_method_checks`` copy the audit's tenant), and derived
audits are created in their parent audit's tenant. Functions without ``tenant_id`` serve the
workers (by an id the worker already holds).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from db import repository as repo
from db.check_models import (
    CanaryRow,
    ClaimLabelRow,
    CorrectionRow,
    SecondAuditClaimRow,
    SecondAuditRow,
)
from db.models import Audit, ClaimRow, VerdictRow

__all__ = [
    "create_derived_audit",
    "add_canaries",
    "canary_results",
    "canary_rates",
    "canary_outcome",
    "canary_detection",
    "check_role",
    "add_second_audit",
    "second_audits_of",
    "second_audit_row",
    "store_second_agreement",
    "second_audit_claims",
    "second_audit_claims_since",
    "add_correction",
    "correction_for",
    "corrections_for",
    "correction_by_audit",
    "set_correction_result",
    "response_claims",
    "upsert_labels",
    "labelled_claims",
    "audit_labels",
    "run_canaries_for",
    "run_canary_detection",
]


# --------------------------------------------------------------------------- derived audits


def create_derived_audit(
    session: Session,
    parent: Audit,
    *,
    response: str,
    references: Sequence[str],
    config: Mapping[str, Any],
    metadata: Mapping[str, Any],
    key: str,
) -> tuple[Audit, bool]:
    """Store an audit made from ``parent`` (a canary, a second audit, a corrected answer): same
    question, the given texts, config and metadata, under idempotency key ``key``; returns
    ``(audit, created)`` (``created`` False: the key existed, nothing stored)."""
    body = {
        "response": response,
        "references": list(references),
        "question": parent.question,
        "metadata": dict(metadata),
        "config": dict(config),
    }
    sha = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    new = repo.NewAudit(
        response=response,
        references=list(references),
        request_sha256=sha,
        question=parent.question,
        metadata=dict(metadata),
        config=dict(config),
        idempotency_key=key,
        tenant_id=parent.tenant_id,
    )
    return repo.create_audit(session, new)


def check_role(session: Session, audit_id: uuid.UUID) -> str | None:
    """What check ``audit_id`` is: ``canary``, ``second_audit``, ``correction``, or None (an
    ordinary audit)."""
    for role, column in (
        ("canary", CanaryRow.canary_audit_id),
        ("second_audit", SecondAuditRow.second_audit_id),
        ("correction", CorrectionRow.corrected_audit_id),
    ):
        if session.scalar(select(func.count()).where(column == audit_id)):
            return role
    return None


# --------------------------------------------------------------------------- canaries


def add_canaries(session: Session, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert canary rows (audit_id, canary_audit_id, kind, expected, original, change, reference,
    fault_start, fault_end, seed); a canary audit already recorded is left as it is."""
    if rows:
        session.execute(pg_insert(CanaryRow).values([dict(r) for r in rows]).on_conflict_do_nothing())


def canary_results(session: Session, audit_id: uuid.UUID, *, tenant_id: str) -> list[dict[str, Any]]:
    """One row per canary of ``audit_id`` from the ``canary_results`` view, oldest first: canary_id,
    canary_audit_id, kind, expected, change, canary_status, detected/exact (None until done),
    verdicts (comma-separated verdicts of the claims over the fault)."""
    rows = session.execute(
        text(
            "SELECT canary_id, canary_audit_id, kind, expected, change, canary_status, detected, exact, "
            "verdicts FROM canary_results WHERE audit_id = :a AND tenant_id = :t ORDER BY canary_id"
        ),
        {"a": audit_id, "t": tenant_id},
    ).mappings()
    return [dict(r) for r in rows]


def canary_outcome(session: Session, canary_audit_id: uuid.UUID) -> tuple[str, bool] | None:
    """``(kind, detected)`` of done canary audit ``canary_audit_id``; None: not a canary, not done."""
    row = session.execute(
        text("SELECT kind, detected FROM canary_results WHERE canary_audit_id = :c AND detected IS NOT NULL"),
        {"c": canary_audit_id},
    ).first()
    return None if row is None else (str(row[0]), bool(row[1]))


def canary_rates(session: Session, *, since: datetime | None = None, tenant_id: str) -> list[dict[str, Any]]:
    """Rows of the ``canary_detection_daily`` view (day: its ``day_utc``, kind, canaries, done,
    detected, exact, detection_rate, exact_rate; rates None when nothing is done), newest day first."""
    rows = session.execute(
        text(
            "SELECT day_utc AS day, kind, canaries, done, detected, exact, detection_rate, exact_rate "
            "FROM canary_detection_daily WHERE tenant_id = :t AND (CAST(:s AS timestamptz) IS NULL "
            "OR day_utc >= (CAST(:s AS timestamptz) AT TIME ZONE 'UTC')::date) ORDER BY day_utc DESC, kind"
        ),
        {"t": tenant_id, "s": since},
    ).mappings()
    return [dict(r) for r in rows]


# --------------------------------------------------------------------------- second audits


def add_second_audit(
    session: Session,
    audit_id: uuid.UUID,
    second_audit_id: uuid.UUID,
    *,
    config: Mapping[str, Any],
    reason: str,
) -> None:
    """Record that ``second_audit_id`` re-audits ``audit_id`` with ``config`` (idempotent)."""
    stmt = pg_insert(SecondAuditRow).values(
        audit_id=audit_id,
        second_audit_id=second_audit_id,
        config=dict(config),
        reason=reason,
    )
    session.execute(stmt.on_conflict_do_nothing())


def second_audits_of(session: Session, audit_id: uuid.UUID, *, tenant_id: str) -> list[SecondAuditRow]:
    """The second audits of ``audit_id``, oldest first."""
    stmt = (
        select(SecondAuditRow)
        .where(SecondAuditRow.audit_id == audit_id, SecondAuditRow.tenant_id == tenant_id)
        .order_by(SecondAuditRow.id)
    )
    return list(session.scalars(stmt).all())


def second_audit_row(session: Session, second_audit_id: uuid.UUID) -> SecondAuditRow | None:
    """The row recording ``second_audit_id`` as a second audit, or None."""
    return session.scalars(
        select(SecondAuditRow).where(SecondAuditRow.second_audit_id == second_audit_id)
    ).first()


def store_second_agreement(
    session: Session,
    row_id: int,
    claims: Sequence[Mapping[str, Any]],
    *,
    agreed: int,
    kappa: float | None,
    confusion: Mapping[str, Any],
) -> None:
    """Replace the per-claim rows of second audit ``row_id`` and set its agreement figures."""
    session.execute(delete(SecondAuditClaimRow).where(SecondAuditClaimRow.second_audit_row_id == row_id))
    if claims:
        session.execute(insert(SecondAuditClaimRow), [{**c, "second_audit_row_id": row_id} for c in claims])
    session.execute(
        update(SecondAuditRow)
        .where(SecondAuditRow.id == row_id)
        .values(
            claims=len(claims), agreed=agreed, kappa=kappa, confusion=dict(confusion), computed_at=func.now()
        )
    )


def second_audit_claims(session: Session, row_id: int) -> list[SecondAuditClaimRow]:
    """Per-claim rows of one second audit, by claim position."""
    stmt = (
        select(SecondAuditClaimRow)
        .where(SecondAuditClaimRow.second_audit_row_id == row_id)
        .order_by(SecondAuditClaimRow.claim_position)
    )
    return list(session.scalars(stmt).all())


def second_audit_claims_since(
    session: Session, *, since: datetime | None = None, tenant_id: str
) -> list[SecondAuditClaimRow]:
    """Per-claim rows of every computed second audit (created at or after ``since``)."""
    stmt = (
        select(SecondAuditClaimRow)
        .join(SecondAuditRow, SecondAuditRow.id == SecondAuditClaimRow.second_audit_row_id)
        .where(SecondAuditRow.tenant_id == tenant_id)
    )
    if since is not None:
        stmt = stmt.where(SecondAuditRow.created_at >= since)
    return list(session.scalars(stmt).all())


# --------------------------------------------------------------------------- corrections


def add_correction(
    session: Session,
    audit_id: uuid.UUID,
    *,
    corrected_audit_id: uuid.UUID | None,
    corrected_text: str,
    edits: Sequence[Mapping[str, Any]],
) -> None:
    """Record the correction of ``audit_id`` (one per audit: a second call leaves the first)."""
    stmt = pg_insert(CorrectionRow).values(
        audit_id=audit_id,
        corrected_audit_id=corrected_audit_id,
        corrected_text=corrected_text,
        edits=[dict(e) for e in edits],
        passes=None if corrected_audit_id is not None else True,
        checked_at=None if corrected_audit_id is not None else func.now(),
    )
    session.execute(stmt.on_conflict_do_nothing())


def correction_for(session: Session, audit_id: uuid.UUID, *, tenant_id: str) -> CorrectionRow | None:
    """The correction of ``audit_id``, or None."""
    stmt = select(CorrectionRow).where(
        CorrectionRow.audit_id == audit_id, CorrectionRow.tenant_id == tenant_id
    )
    return session.scalars(stmt).first()


def corrections_for(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str
) -> dict[uuid.UUID, CorrectionRow]:
    """:func:`correction_for` of each of ``audit_ids`` that has one, in one query."""
    stmt = select(CorrectionRow).where(
        CorrectionRow.audit_id.in_(list(audit_ids)), CorrectionRow.tenant_id == tenant_id
    )
    out: dict[uuid.UUID, CorrectionRow] = {}
    for row in session.scalars(stmt).all():
        out.setdefault(row.audit_id, row)
    return out


def correction_by_audit(session: Session, corrected_audit_id: uuid.UUID) -> CorrectionRow | None:
    """The correction whose re-audit is ``corrected_audit_id``, or None."""
    return session.scalars(
        select(CorrectionRow).where(CorrectionRow.corrected_audit_id == corrected_audit_id)
    ).first()


def set_correction_result(session: Session, correction_id: int, *, passes: bool) -> None:
    """Store whether the re-audit of a correction passes."""
    session.execute(
        update(CorrectionRow)
        .where(CorrectionRow.id == correction_id)
        .values(passes=passes, checked_at=func.now())
    )


# --------------------------------------------------------------------------- human labels


def response_claims(session: Session, audit_id: uuid.UUID) -> dict[int, tuple[str, str | None]]:
    """``{position: (text, verdict)}`` of the audit's response claims (verdict None before matching)."""
    rows = session.execute(
        select(ClaimRow.position, ClaimRow.text, VerdictRow.verdict)
        .outerjoin(VerdictRow, VerdictRow.claim_id == ClaimRow.id)
        .where(ClaimRow.audit_id == audit_id, ClaimRow.role == "response")
    ).all()
    return {int(p): (t, v) for p, t, v in rows}


def upsert_labels(session: Session, rows: Sequence[Mapping[str, Any]]) -> int:
    """Insert or replace labels (audit_id, claim_position|None, label, reviewer, note, claim_type,
    source); the key is (audit_id, claim_position, reviewer). Returns the number of rows written."""
    if not rows:
        return 0
    stmt = pg_insert(ClaimLabelRow).values([dict(r) for r in rows])
    stmt = stmt.on_conflict_do_update(
        constraint="uq_claim_labels_audit_id_claim_position_reviewer",
        set_={
            "label": stmt.excluded.label,
            "note": stmt.excluded.note,
            "claim_type": stmt.excluded.claim_type,
            "source": stmt.excluded.source,
            "updated_at": func.now(),
        },
    )
    session.execute(stmt)
    return len(rows)


def labelled_claims(
    session: Session,
    *,
    reviewer: str | None = None,
    since: datetime | None = None,
    tenant_id: str,
) -> list[dict[str, Any]]:
    """Rows of the ``label_agreement`` view (audit_id, claim_position, claim_type, reviewer, label,
    verdict, agrees, claim_text), optionally one reviewer's / labelled since a time."""
    rows = session.execute(
        text(
            "SELECT audit_id, claim_position, claim_type, reviewer, label, verdict, agrees, claim_text "
            "FROM label_agreement WHERE tenant_id = :t AND (CAST(:r AS text) IS NULL OR reviewer = :r) "
            "AND (CAST(:s AS timestamptz) IS NULL OR created_at >= :s) ORDER BY audit_id, claim_position"
        ),
        {"t": tenant_id, "r": reviewer, "s": since},
    ).mappings()
    return [dict(r) for r in rows]


def audit_labels(
    session: Session,
    *,
    reviewer: str | None = None,
    since: datetime | None = None,
    tenant_id: str,
) -> list[dict[str, Any]]:
    """Labels of whole audits with the audit's status and its response-claim verdicts:
    audit_id, reviewer, label, status, verdicts (list, empty before matching)."""
    rows = session.execute(
        text(
            "SELECT l.audit_id, l.reviewer, l.label, a.status, "
            "coalesce(array_agg(v.verdict) FILTER (WHERE v.verdict IS NOT NULL), '{}') AS verdicts "
            "FROM claim_labels l JOIN audits a ON a.id = l.audit_id "
            "LEFT JOIN claims c ON c.audit_id = l.audit_id AND c.role = 'response' "
            "LEFT JOIN verdicts v ON v.claim_id = c.id "
            "WHERE l.claim_position IS NULL AND l.tenant_id = :t "
            "AND (CAST(:r AS text) IS NULL OR l.reviewer = :r) "
            "AND (CAST(:s AS timestamptz) IS NULL OR l.created_at >= :s) "
            "GROUP BY l.id, l.audit_id, l.reviewer, l.label, a.status ORDER BY l.id"
        ),
        {"t": tenant_id, "r": reviewer, "s": since},
    ).mappings()
    return [dict(r) for r in rows]


def canary_detection(session: Session, audit_id: uuid.UUID, *, tenant_id: str) -> list[dict[str, Any]]:
    """Rows of the ``canary_detection`` view for one audit: kind, canaries, done, detected, exact,
    detection_rate, exact_rate (rates None while none of the kind is done)."""
    rows = session.execute(
        text(
            "SELECT kind, canaries, done, detected, exact, detection_rate, exact_rate FROM canary_detection "
            "WHERE audit_id = :a AND tenant_id = :t"
        ),
        {"a": audit_id, "t": tenant_id},
    ).mappings()
    return [dict(r) for r in rows]


# --------------------------------------------------------------------------- runs (suites' ``canaries``)


def run_canaries_for(session: Session, audit_id: uuid.UUID) -> int:
    """How many canaries per fault kind ``audit_id`` gets as a run item: 1 when it is among the
    first ``suites.canaries`` items (by position) of a run of a suite that sets ``canaries``, else 0."""
    hit = session.execute(
        text(
            "SELECT 1 FROM run_items ri JOIN runs r ON r.id = ri.run_id "
            "JOIN suites s ON s.tenant_id = r.tenant_id AND s.name = r.suite "
            "WHERE ri.audit_id = :a AND s.canaries IS NOT NULL AND ri.position < s.canaries LIMIT 1"
        ),
        {"a": audit_id},
    ).first()
    return 1 if hit is not None else 0


def run_canary_detection(session: Session, run_id: uuid.UUID, *, tenant_id: str) -> list[dict[str, Any]]:
    """Detection per fault kind over the canaries of run ``run_id``'s audits (``canary_results``):
    kind, canaries, done, detected, exact, detection_rate, exact_rate (rates None while none is done)."""
    rows = session.execute(
        text(
            "SELECT kind, count(*) AS canaries, count(detected) AS done, "
            "count(*) FILTER (WHERE detected) AS detected, count(*) FILTER (WHERE exact) AS exact, "
            "(count(*) FILTER (WHERE detected))::float / nullif(count(detected), 0) AS detection_rate, "
            "(count(*) FILTER (WHERE exact))::float / nullif(count(detected), 0) AS exact_rate "
            "FROM canary_results k WHERE k.tenant_id = :t AND k.audit_id IN "
            "(SELECT ri.audit_id FROM run_items ri WHERE ri.run_id = :r AND ri.tenant_id = :t) "
            "GROUP BY kind ORDER BY kind"
        ),
        {"r": run_id, "t": tenant_id},
    ).mappings()
    return [dict(r) for r in rows]
