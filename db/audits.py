"""Audits: create (idempotent by key), read, list with filters, statuses, done and failed.

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from claims.types import (
    SCORE_NAMES,
)
from db.models import (
    DEFAULT_TENANT,
    TERMINAL_STATUSES,
    Audit,
    ClaimRow,
    Document,
    EvidenceRow,
    ScoreRow,
    VerdictRow,
)

#: Keys of a reference sent as an object: its text and, optionally, the caller's id, URL and
#: title of the source document (stored in ``documents.source_id`` / ``source_url`` / ``source_title``).
REFERENCE_KEYS: tuple[str, ...] = ("text", "id", "url", "title")


def is_reference(value: object) -> bool:
    """A string, or an object of ``REFERENCE_KEYS`` with string values and a ``text``."""
    if isinstance(value, str):
        return True
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("text"), str)
        and set(value) <= set(REFERENCE_KEYS)
        and all(isinstance(v, str) for v in value.values())
    )


def reference_parts(value: str | Mapping[str, Any]) -> tuple[str, str | None, str | None, str | None]:
    """``(text, id, url, title)`` of a reference (``is_reference``); None where not given."""
    if isinstance(value, str):
        return value, None, None, None
    return value["text"], value.get("id"), value.get("url"), value.get("title")


@dataclass(frozen=True, slots=True)
class NewAudit:
    """A validated request: stored with its documents in one statement group. Each reference is
    its text or an object ``{"text", "id"?, "url"?, "title"?}`` (``is_reference``)."""

    response: str
    references: Sequence[str | Mapping[str, Any]]
    request_sha256: str
    question: str | None = None
    metadata: dict[str, Any] | None = None
    config: dict[str, Any] = field(default_factory=dict)
    idempotency_key: str | None = None
    #: The caller's tenant (``api_keys.tenant_id``); its documents and claims inherit it.
    tenant_id: str = DEFAULT_TENANT


def _sha256(text_: str) -> str:
    import hashlib

    return hashlib.sha256(text_.encode("utf-8")).hexdigest()


def create_audit(session: Session, new: NewAudit) -> tuple[Audit, bool]:
    """Insert an audit (status ``queued``) and its documents; return ``(audit, created)``.

    With an idempotency key the tenant already stored, nothing is inserted and the existing audit
    comes back with ``created=False`` (``INSERT ... ON CONFLICT (tenant_id, idempotency_key) DO
    NOTHING``; a concurrent insert of the same key waits for the other transaction). Keys are
    unique per tenant: another tenant's audit under the same key is never returned. The caller
    compares ``audit.request_sha256`` to detect a conflicting body.
    """
    audit_id = uuid.uuid4()
    stmt = (
        pg_insert(Audit)
        .values(
            id=audit_id,
            tenant_id=new.tenant_id,
            status="queued",
            question=new.question,
            metadata_=new.metadata,
            config=dict(new.config),
            idempotency_key=new.idempotency_key,
            request_sha256=new.request_sha256,
        )
        .on_conflict_do_nothing(index_elements=[Audit.tenant_id, Audit.idempotency_key])
        .returning(Audit.id)
    )
    inserted = session.execute(stmt).scalar_one_or_none()
    if inserted is None:
        existing = find_audit_by_key(session, new.idempotency_key or "", tenant_id=new.tenant_id)
        if existing is None:  # pragma: no cover - the conflicting row was deleted meanwhile
            raise RuntimeError("idempotency key conflict but no audit found")
        return existing, False
    texts: list[tuple[str, int, tuple[str, str | None, str | None, str | None]]]
    texts = [("response", 0, reference_parts(new.response))]
    texts += [("reference", i, reference_parts(r)) for i, r in enumerate(new.references)]
    docs = [
        {
            "audit_id": audit_id,
            "role": role,
            "position": pos,
            "text": t,
            "sha256": _sha256(t),
            "source_id": source_id,
            "source_url": url,
            "source_title": title,
        }
        for role, pos, (t, source_id, url, title) in texts
    ]
    session.execute(insert(Document), docs)
    audit = session.get(Audit, audit_id)
    assert audit is not None
    return audit, True


def get_audit(session: Session, audit_id: uuid.UUID) -> Audit | None:
    """The audit row of any tenant, or None (workers and internal callers; the API reads through
    :func:`get_tenant_audit`)."""
    return session.get(Audit, audit_id, populate_existing=True)


def get_audits(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str | None = None
) -> list[Audit]:
    """The audit rows of ``audit_ids`` that exist, of any tenant or only of ``tenant_id`` (one
    query; order not kept)."""
    if not audit_ids:
        return []
    stmt = select(Audit).where(Audit.id.in_(list(audit_ids)))
    if tenant_id is not None:
        stmt = stmt.where(Audit.tenant_id == tenant_id)
    return list(session.scalars(stmt.execution_options(populate_existing=True)).all())


def get_tenant_audit(
    session: Session, audit_id: uuid.UUID, *, tenant_id: str = DEFAULT_TENANT
) -> Audit | None:
    """The audit row when it belongs to ``tenant_id``, else None (another tenant's audit is "not found")."""
    audit = get_audit(session, audit_id)
    return audit if audit is not None and audit.tenant_id == tenant_id else None


def find_audit_by_key(
    session: Session, idempotency_key: str, *, tenant_id: str = DEFAULT_TENANT
) -> Audit | None:
    """The tenant's audit stored under ``idempotency_key``, or None."""
    return session.scalars(
        select(Audit).where(Audit.tenant_id == tenant_id, Audit.idempotency_key == idempotency_key)
    ).one_or_none()


@dataclass(frozen=True, slots=True)
class AuditFilters:
    """Filters of ``list_audits`` (each None: no filter); every one given must hold.

    ``since <= created_at < until``; ``verdict``: at least one response claim has it;
    ``score`` (a name of ``SCORE_NAMES``) with ``score_min <= value <= score_max`` (either bound
    may be None; an audit without that score, or whose score is null, never matches);
    ``metadata_key``: the audit's metadata has that top-level key, and with ``metadata_value``
    its value, as text, equals it.
    """

    status: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    verdict: str | None = None
    score: str | None = None
    score_min: float | None = None
    score_max: float | None = None
    metadata_key: str | None = None
    metadata_value: str | None = None


def _audit_conditions(f: AuditFilters) -> list[ColumnElement[bool]]:
    conds: list[ColumnElement[bool]] = []
    if f.status is not None:
        conds.append(Audit.status == f.status)
    if f.since is not None:
        conds.append(Audit.created_at >= f.since)
    if f.until is not None:
        conds.append(Audit.created_at < f.until)
    if f.verdict is not None:
        conds.append(
            select(VerdictRow.id)
            .where(VerdictRow.audit_id == Audit.id, VerdictRow.verdict == f.verdict)
            .exists()
        )
    if f.score is not None and (f.score_min is not None or f.score_max is not None):
        if f.score not in SCORE_NAMES:
            raise ValueError(f"unknown score {f.score!r}; choose from {', '.join(SCORE_NAMES)}")
        column = getattr(ScoreRow, f.score)
        bounds = [ScoreRow.audit_id == Audit.id, column.is_not(None)]
        if f.score_min is not None:
            bounds.append(column >= f.score_min)
        if f.score_max is not None:
            bounds.append(column <= f.score_max)
        conds.append(select(ScoreRow.audit_id).where(*bounds).exists())
    if f.metadata_key is not None:
        conds.append(Audit.metadata_.has_key(f.metadata_key))
        if f.metadata_value is not None:
            conds.append(Audit.metadata_[f.metadata_key].astext == f.metadata_value)
    return conds


def list_audits(
    session: Session,
    *,
    status: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = 50,
    offset: int = 0,
    filters: AuditFilters | None = None,
    tenant_id: str = DEFAULT_TENANT,
) -> tuple[list[Audit], int]:
    """The tenant's audits newest first, filtered by status and ``since <= created_at < until``
    (or by ``filters``, which then replaces those three); and their total before ``limit``/``offset``.

    Raises ``ValueError`` for a score name not in ``SCORE_NAMES``.
    """
    f = filters or AuditFilters(status=status, since=since, until=until)
    conds = [Audit.tenant_id == tenant_id, *_audit_conditions(f)]
    total = session.scalar(select(func.count()).select_from(Audit).where(*conds)) or 0
    rows = session.scalars(
        select(Audit).where(*conds).order_by(Audit.created_at.desc(), Audit.id).limit(limit).offset(offset)
    ).all()
    return list(rows), int(total)


def score_rows(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str
) -> dict[uuid.UUID, ScoreRow]:
    """The score rows (scores, verdict counts) of those of the given audits of ``tenant_id`` that
    have one, by audit id (other tenants' audits are absent)."""
    if not audit_ids:
        return {}
    stmt = (
        select(ScoreRow)
        .join(Audit, Audit.id == ScoreRow.audit_id)
        .where(ScoreRow.audit_id.in_(list(audit_ids)), Audit.tenant_id == tenant_id)
    )
    return {r.audit_id: r for r in session.scalars(stmt).all()}


def audit_statuses(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str
) -> list[dict[str, Any]]:
    """``id``, ``status``, ``stage``, ``error``, ``finished_at`` of each audit of ``tenant_id`` in
    ``audit_ids`` (one primary-key lookup of the ``audits`` table; unknown ids and other
    tenants' audits are absent), in no order."""
    if not audit_ids:
        return []
    stmt = select(Audit.id, Audit.status, Audit.stage, Audit.error, Audit.finished_at).where(
        Audit.id.in_(list(audit_ids)), Audit.tenant_id == tenant_id
    )
    return [dict(row._mapping) for row in session.execute(stmt)]


def mark_done(session: Session, audit_id: uuid.UUID) -> None:
    """``status = done``, ``finished_at`` = the wall clock now (only from a running stage).

    ``clock_timestamp()``, not ``now()``: ``now()`` is the start of the transaction, and the
    score stage marks the audit done at the end of the transaction that scored it.
    """
    session.execute(
        update(Audit)
        .where(Audit.id == audit_id, Audit.status.not_in(TERMINAL_STATUSES))
        .values(
            status="done",
            stage=None,
            error=None,
            finished_at=func.clock_timestamp(),
            attempt=None,
            lease_expires_at=None,
        )
        .execution_options(synchronize_session=False)
    )


def mark_failed(session: Session, audit_id: uuid.UUID, error: str) -> bool:
    """``status = failed`` with ``error`` unless already finished; ``stage`` keeps the failing stage.

    Returns True when the row changed.
    """
    result = session.execute(
        update(Audit)
        .where(Audit.id == audit_id, Audit.status.not_in(TERMINAL_STATUSES))
        .values(
            status="failed",
            error=error[:4000],
            finished_at=func.clock_timestamp(),
            attempt=None,
            lease_expires_at=None,
        )
        .returning(Audit.id)
        .execution_options(synchronize_session=False)
    )
    return result.scalar_one_or_none() is not None


def count_rows(session: Session, audit_id: uuid.UUID) -> dict[str, int]:
    """Row counts of one audit per table (documents, claims, verdicts, evidence, scores)."""
    out = {}
    for name, model in (
        ("documents", Document),
        ("claims", ClaimRow),
        ("verdicts", VerdictRow),
        ("evidence", EvidenceRow),
        ("scores", ScoreRow),
    ):
        out[name] = int(
            session.scalar(select(func.count()).select_from(model).where(model.audit_id == audit_id)) or 0
        )
    return out


def ping(session: Session) -> None:
    """``SELECT 1`` (raises when the database is unreachable)."""
    session.execute(text("SELECT 1"))


def audits_by_status(session: Session, tenant_id: str | None = None) -> dict[str, int]:
    """``{status: number of stored audits}`` of every tenant, or of ``tenant_id`` (one ``GROUP BY``
    over the status index; for /metrics)."""
    stmt = select(Audit.status, func.count()).group_by(Audit.status)
    if tenant_id is not None:
        stmt = stmt.where(Audit.tenant_id == tenant_id)
    rows = session.execute(stmt).all()
    return {str(status): int(n) for status, n in rows}
