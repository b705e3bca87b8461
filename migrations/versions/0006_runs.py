"""Runs: suites (schedule, source, webhook, gate), runs, run_items, webhook_deliveries, and the
``run_audits`` / ``run_summaries`` views.

Revision ID: 0006_runs
Revises: 0003_confidence (the lead re-chains at merge)
Create Date: 2026-11-30 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006_runs"
down_revision: str | None = "0005_tenants"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: One row per run item: the run, the item id, its audit's status and scores (null until done).
RUN_AUDITS_VIEW = """
CREATE VIEW run_audits AS
SELECT
    r.id AS run_id, r.tenant_id, r.suite, r.label, r.created_at AS run_created_at,
    ri.item_id, ri.position, ri.audit_id,
    a.status AS audit_status, a.error AS audit_error, a.finished_at AS audit_finished_at,
    s.claim_precision, s.claim_recall, s.claim_f1, s.claim_overlap, s.response_claims,
    s.supported, s.inferred, s.contradicted, s.qualification_dropped, s.unsupported, s.outside_scope
FROM runs r
JOIN run_items ri ON ri.run_id = r.id
LEFT JOIN audits a ON a.id = ri.audit_id
LEFT JOIN scores s ON s.audit_id = a.id AND a.status = 'done'
"""

#: One row per run, aggregated live from its audits (``runs.summary`` keeps the frozen copy).
RUN_SUMMARIES_VIEW = """
CREATE VIEW run_summaries AS
SELECT
    r.id AS run_id, r.tenant_id, r.suite, r.label, r.source, r.created_at, r.finished_at,
    EXTRACT(EPOCH FROM r.finished_at - r.created_at) AS duration_s,
    count(ra.item_id) AS items,
    count(ra.item_id) FILTER (WHERE ra.audit_status = 'done') AS done,
    count(ra.item_id) FILTER (WHERE ra.audit_status = 'failed') AS failed,
    count(ra.item_id) FILTER (WHERE ra.audit_status NOT IN ('done', 'failed', 'rejected')) AS pending,
    avg(ra.claim_precision) AS mean_precision,
    avg(ra.claim_recall) AS mean_recall,
    avg(ra.claim_f1) AS mean_f1,
    coalesce(sum(ra.response_claims), 0) AS response_claims,
    coalesce(sum(ra.supported), 0) AS supported,
    coalesce(sum(ra.inferred), 0) AS inferred,
    coalesce(sum(ra.contradicted), 0) AS contradicted,
    coalesce(sum(ra.qualification_dropped), 0) AS qualification_dropped,
    coalesce(sum(ra.unsupported), 0) AS unsupported,
    coalesce(sum(ra.outside_scope), 0) AS outside_scope,
    sum(ra.contradicted)::float8 / NULLIF(sum(ra.response_claims), 0) AS contradicted_share
FROM runs r
LEFT JOIN run_audits ra ON ra.run_id = r.id
GROUP BY r.id
"""


def _tenant() -> sa.Column:
    return sa.Column("tenant_id", sa.Text(), server_default=sa.text("'default'"), nullable=False)


def _created() -> sa.Column:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
    )


def _jsonb(name: str, default: str | None) -> sa.Column:
    server_default = None if default is None else sa.text(f"'{default}'::jsonb")
    return sa.Column(
        name, postgresql.JSONB(astext_type=sa.Text()), server_default=server_default, nullable=default is None
    )


def upgrade() -> None:
    _suites()
    _runs()
    _deliveries()
    op.execute(RUN_AUDITS_VIEW)
    op.execute(RUN_SUMMARIES_VIEW)


def _suites() -> None:
    jsonb_defaults = [_jsonb("config", "{}"), _jsonb("gate", "{}")]
    op.create_table(
        "suites",
        sa.Column("id", sa.UUID(), nullable=False),
        _tenant(),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("cron", sa.Text(), nullable=True),
        sa.Column("source_kind", sa.String(length=8), nullable=True),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("sample_size", sa.Integer(), nullable=True),
        jsonb_defaults[0],
        sa.Column("webhook_url", sa.Text(), nullable=True),
        sa.Column("webhook_secret", sa.Text(), nullable=True),
        jsonb_defaults[1],
        sa.Column("enabled", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("last_slot_at", sa.DateTime(timezone=True), nullable=True),
        _created(),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "source_kind IS NULL OR source_kind IN ('jsonl', 'sql')", name=op.f("ck_suites_source_kind")
        ),
        sa.CheckConstraint("sample_size IS NULL OR sample_size > 0", name=op.f("ck_suites_sample_size")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suites")),
        sa.UniqueConstraint("tenant_id", "name", name=op.f("uq_suites_tenant_id_name")),
    )


def _runs() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.UUID(), nullable=False),
        _tenant(),
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("scheduled_for", sa.DateTime(timezone=True), nullable=True),
        _created(),
        sa.Column("sealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        _jsonb("summary", None),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runs")),
        sa.UniqueConstraint("tenant_id", "suite", "label", name=op.f("uq_runs_tenant_id_suite_label")),
    )
    op.create_index("ix_runs_tenant_id_suite_created_at", "runs", ["tenant_id", "suite", "created_at"])
    op.create_table(
        "run_items",
        sa.Column("run_id", sa.UUID(), nullable=False),
        sa.Column("item_id", sa.Text(), nullable=False),
        _tenant(),
        sa.Column("audit_id", sa.UUID(), nullable=True),
        sa.Column("request_sha256", sa.String(length=64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_run_items_audit_id_audits"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_items_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("run_id", "item_id", name=op.f("pk_run_items")),
    )
    op.create_index(op.f("ix_run_items_audit_id"), "run_items", ["audit_id"])


def _deliveries() -> None:
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        _tenant(),
        sa.Column("run_id", sa.UUID(), nullable=True),
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("payload", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="pending", nullable=False),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        _created(),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'delivered', 'failed')", name=op.f("ck_webhook_deliveries_status")
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_webhook_deliveries_run_id_runs"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
    )
    op.create_index("ix_webhook_deliveries_run_id", "webhook_deliveries", ["run_id"])


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS run_summaries")
    op.execute("DROP VIEW IF EXISTS run_audits")
    op.drop_index("ix_webhook_deliveries_run_id", table_name="webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_index(op.f("ix_run_items_audit_id"), table_name="run_items")
    op.drop_table("run_items")
    op.drop_index("ix_runs_tenant_id_suite_created_at", table_name="runs")
    op.drop_table("runs")
    op.drop_table("suites")
