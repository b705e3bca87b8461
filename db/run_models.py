"""Models of runs, suites and webhook deliveries (migration ``0006_runs``).

suites              a named set of audit items: optional cron schedule, source, sample size,
                    per-suite audit config, webhook URL + secret, quality gate
runs                one execution of a suite: label, source, created/sealed/finished, the summary
                    frozen at finish (counts by status, aggregate scores, verdict mix)
run_items           the items of a run: the caller's item id and the audit it became
webhook_deliveries  signed POSTs sent (or being sent) when a run finishes: status, attempts, errors

Every table holds tenant data and has ``tenant_id TEXT NOT NULL DEFAULT 'default'``, set
to the caller's tenant. A run's audits live in ``audits``; ``run_items.audit_id`` is
set NULL when retention deletes an audit, and the run keeps its ``summary``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import Mapped, mapped_column

from db.models import Base

__all__ = [
    "SOURCE_KINDS",
    "DELIVERY_STATUSES",
    "RUN_TABLES",
    "Suite",
    "Run",
    "RunItem",
    "RunRejection",
    "RunBaseline",
    "WebhookDelivery",
]

#: Tables under the ``tenant_isolation`` policy (migrations ``0009_runs_row_security``,
#: ``0012_run_baselines``).
RUN_TABLES: tuple[str, ...] = (
    "suites",
    "runs",
    "run_items",
    "webhook_deliveries",
    "run_rejections",
    "run_baselines",
)

#: ``suites.source_kind``: ``jsonl`` (a file path or an http(s) URL of JSONL lines
#: ``{id, references, response, question?, metadata?, config?}``) or ``sql`` (a read-only query
#: returning the columns id, question, response, references).
SOURCE_KINDS: tuple[str, ...] = ("jsonl", "sql")
DELIVERY_STATUSES: tuple[str, ...] = ("pending", "delivered", "failed")


class Suite(Base):
    __tablename__ = "suites"
    __table_args__ = (
        UniqueConstraint("tenant_id", "name"),
        CheckConstraint("source_kind IS NULL OR source_kind IN ('jsonl', 'sql')", name="source_kind"),
        CheckConstraint("sample_size IS NULL OR sample_size > 0", name="sample_size"),
        CheckConstraint("canaries IS NULL OR canaries > 0", name="canaries"),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    tenant_id: Mapped[str] = mapped_column(Text, default="default", server_default=sql_text("'default'"))
    name: Mapped[str] = mapped_column(Text)
    #: Five-field cron expression in UTC (``0 2 * * *``); NULL: runs only when submitted.
    cron: Mapped[str | None] = mapped_column(Text)
    source_kind: Mapped[str | None] = mapped_column(String(8))
    #: A path or URL (jsonl) or a SQL query (sql).
    source: Mapped[str | None] = mapped_column(Text)
    #: Audit at most this many items per run (a deterministic sample seeded by the run label).
    sample_size: Mapped[int | None] = mapped_column(Integer)
    #: Canaries per fault kind per run: the run's first N items each get one of every kind
    #: (``service.checks``, migration 0008_method_checks); NULL: none.
    canaries: Mapped[int | None] = mapped_column(Integer)
    #: Audit config applied to every item that has none of its own.
    config: Mapped[dict[str, Any]] = mapped_column(
        JSONB, default=dict, server_default=sql_text("'{}'::jsonb")
    )
    webhook_url: Mapped[str | None] = mapped_column(Text)
    #: HMAC-SHA256 key of the webhook signature (never returned by the API).
    webhook_secret: Mapped[str | None] = mapped_column(Text)
    #: Quality gate against the previous run, e.g. ``{"contradicted_share_rise": 2.0}`` (points).
    gate: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default=sql_text("'{}'::jsonb"))
    enabled: Mapped[bool] = mapped_column(default=True, server_default=sql_text("true"))
    #: The latest cron slot a run was started for (the scheduler claims a slot by raising it).
    last_slot_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(server_default=func.now())


class Run(Base):
    __tablename__ = "runs"
    __table_args__ = (
        UniqueConstraint("tenant_id", "suite", "label"),
        Index("ix_runs_tenant_id_suite_created_at", "tenant_id", "suite", "created_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    tenant_id: Mapped[str] = mapped_column(Text, default="default", server_default=sql_text("'default'"))
    suite: Mapped[str] = mapped_column(Text)
    label: Mapped[str] = mapped_column(Text)
    #: Where the items came from: ``api``, ``cli``, ``schedule:<path, URL or 'sql'>``.
    source: Mapped[str] = mapped_column(Text)
    #: The cron slot a scheduled run was started for (NULL for submitted runs).
    scheduled_for: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
    #: Set when no more items will come; a run finishes once sealed and every audit is terminal.
    sealed_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    #: Why the run could not start (source unreadable, ...); the run is finished with no items.
    error: Mapped[str | None] = mapped_column(Text)
    #: Frozen at finish (``db.runs.run_summary``): counts, scores, verdicts, previous run, gate.
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSONB)


class RunItem(Base):
    __tablename__ = "run_items"

    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    #: The caller's id of the item (the line id); items of two runs are matched by it.
    item_id: Mapped[str] = mapped_column(Text, primary_key=True)
    tenant_id: Mapped[str] = mapped_column(Text, default="default", server_default=sql_text("'default'"))
    audit_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("audits.id", ondelete="SET NULL"), index=True
    )
    #: SHA-256 of the item's canonical request (a resubmission with other content is refused).
    request_sha256: Mapped[str] = mapped_column(String(64))
    position: Mapped[int] = mapped_column(Integer)


class RunRejection(Base):
    """An input line of a run that was not audited, and why (``0012_run_baselines``)."""

    __tablename__ = "run_rejections"
    __table_args__ = (UniqueConstraint("run_id", "key"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    tenant_id: Mapped[str] = mapped_column(Text, default="default", server_default=sql_text("'default'"))
    #: The item id when the line had one, else ``line N``: one row per line of a resumed batch.
    key: Mapped[str] = mapped_column(Text)
    #: 1-based line number in the input file (NULL: items sent without line numbers).
    line: Mapped[int | None] = mapped_column(Integer)
    item_id: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class RunBaseline(Base):
    """The run a suite's later runs are compared with, pinned (``claimaudit runs baseline``)."""

    __tablename__ = "run_baselines"

    tenant_id: Mapped[str] = mapped_column(Text, primary_key=True)
    suite: Mapped[str] = mapped_column(Text, primary_key=True)
    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    pinned_at: Mapped[datetime] = mapped_column(server_default=func.now())


class WebhookDelivery(Base):
    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        CheckConstraint("status IN ('pending', 'delivered', 'failed')", name="status"),
        Index("ix_webhook_deliveries_run_id", "run_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(Text, default="default", server_default=sql_text("'default'"))
    run_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    #: ``run.finished`` or ``run.quality_drop`` (a finished run that crossed its suite's gate).
    event: Mapped[str] = mapped_column(Text)
    url: Mapped[str] = mapped_column(Text)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    last_status_code: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
    delivered_at: Mapped[datetime | None]
