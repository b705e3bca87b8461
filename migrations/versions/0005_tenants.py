"""Tenants and API keys: ``tenants``, ``api_keys``, ``tenant_id`` on every table of audit data
(existing rows: tenant ``default``), idempotency keys unique per tenant, the views with
``tenant_id`` (and ``security_invoker``, so row-level security applies through them), a trigger
that copies an audit's tenant into its rows, and row-level security as the backstop.

Revision ID: 0005_tenants
Revises: 0003_confidence (the lead re-chains after 0004_reliability at merge)
Create Date: 2026-11-30 09:00:00
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005_tenants"
down_revision: str | None = "0003_confidence"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Must match ``db.models.TENANT_CHILD_TABLES`` at this revision.
CHILD_TABLES = ("documents", "claims", "verdicts", "evidence", "scores", "llm_usage", "llm_judgements")
TABLES = ("audits", *CHILD_TABLES)
#: Tables under the ``tenant_isolation`` policy (``db.models.TENANT_TABLES`` and ``api_keys``).
RLS_TABLES = (*TABLES, "api_keys")

TENANT_FROM_AUDIT = """
CREATE FUNCTION tenant_from_audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    owner text;
BEGIN
    IF NEW.audit_id IS NOT NULL THEN
        SELECT a.tenant_id INTO owner FROM audits a WHERE a.id = NEW.audit_id;
        IF FOUND THEN
            NEW.tenant_id := owner;
        END IF;
    END IF;
    RETURN NEW;
END
$$
"""

#: Rows of the tenant bound by ``db.tenancy.bind_tenant``; every row when no tenant is bound
#: (workers, migrations, the CLI). ``current_setting(..., true)`` is NULL before the first
#: ``set_config`` of a connection and '' after a transaction-local one ended.
POLICY = """
CREATE POLICY tenant_isolation ON {table}
    USING (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
    WITH CHECK (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
"""

CLAIM_VERDICTS_VIEW = """
CREATE VIEW claim_verdicts WITH (security_invoker = true) AS
SELECT
    a.tenant_id,
    a.id               AS audit_id,
    a.created_at       AS audit_created_at,
    a.status           AS audit_status,
    c.id               AS claim_id,
    c.position         AS claim_position,
    c.text             AS claim_text,
    c.kind             AS claim_kind,
    v.verdict,
    v.reason,
    v.change,
    v.confidence,
    rc.id              AS evidence_claim_id,
    rd.position        AS evidence_reference,
    rc.text            AS evidence_text,
    rc.char_start      AS evidence_start,
    rc.char_end        AS evidence_end,
    ev.similarity      AS evidence_similarity
FROM verdicts v
JOIN claims c  ON c.id = v.claim_id
JOIN audits a  ON a.id = v.audit_id
LEFT JOIN evidence ev ON ev.verdict_id = v.id AND ev.rank = 0
LEFT JOIN claims rc   ON rc.id = ev.reference_claim_id
LEFT JOIN documents rd ON rd.id = rc.document_id
"""

AUDIT_SCORES_VIEW = """
CREATE VIEW audit_scores WITH (security_invoker = true) AS
SELECT
    a.tenant_id,
    a.id AS audit_id, a.status, a.created_at, a.finished_at, a.question, a.metadata, a.config,
    s.claim_overlap, s.claim_similarity, s.claim_precision, s.claim_recall, s.claim_f1,
    s.claim_edit_distance, s.normalized_claim_edit_distance,
    s.levenshtein_similarity, s.normalized_levenshtein_distance,
    s.response_claims, s.reference_claims, s.supported, s.inferred, s.contradicted,
    s.qualification_dropped, s.unsupported, s.outside_scope, s.threshold, s.embedding_model
FROM audits a
LEFT JOIN scores s ON s.audit_id = a.id
"""

LLM_USAGE_DAILY_VIEW = """
CREATE VIEW llm_usage_daily WITH (security_invoker = true) AS
SELECT
    tenant_id,
    (created_at AT TIME ZONE 'UTC')::date AS day,
    stage,
    model,
    count(DISTINCT audit_id)                AS audits,
    sum(calls)::bigint                      AS calls,
    sum(failed_calls)::bigint               AS failed_calls,
    sum(cache_hits)::bigint                 AS cache_hits,
    sum(prompt_tokens)::bigint              AS prompt_tokens,
    sum(completion_tokens)::bigint          AS completion_tokens,
    sum(prompt_tokens + completion_tokens)::bigint AS total_tokens,
    count(fallback)::bigint                 AS fallbacks
FROM llm_usage
GROUP BY 1, 2, 3, 4
"""

VIEWS = ("claim_verdicts", "audit_scores", "llm_usage_daily")


def _create_auth_tables() -> None:
    op.create_table(
        "tenants",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("daily_token_budget", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint("id ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'", name=op.f("ck_tenants_id")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tenants")),
    )
    op.execute("INSERT INTO tenants (id) VALUES ('default')")
    op.create_table(
        "api_keys",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("tenant_id", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), server_default="", nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("key_sha256", sa.String(length=64), nullable=False),
        sa.Column("scopes", postgresql.ARRAY(sa.Text()), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("requests_per_second", sa.Integer(), nullable=True),
        sa.Column("audits_per_minute", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "scopes <@ ARRAY['audits:write', 'audits:read', 'admin']::text[]", name=op.f("ck_api_keys_scopes")
        ),
        sa.CheckConstraint(
            "requests_per_second IS NULL OR requests_per_second >= 0", name=op.f("ck_api_keys_rps")
        ),
        sa.CheckConstraint(
            "audits_per_minute IS NULL OR audits_per_minute >= 0", name=op.f("ck_api_keys_apm")
        ),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_api_keys_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_sha256", name=op.f("uq_api_keys_key_sha256")),
    )
    op.create_index(op.f("ix_api_keys_tenant_id"), "api_keys", ["tenant_id"], unique=False)


def upgrade() -> None:
    _create_auth_tables()
    for view in VIEWS:
        op.execute(f"DROP VIEW IF EXISTS {view}")
    for table in TABLES:
        # A constant default: Postgres 11+ adds it without rewriting the table.
        op.add_column(table, sa.Column("tenant_id", sa.Text(), server_default="default", nullable=False))
    op.drop_constraint(op.f("uq_audits_idempotency_key"), "audits", type_="unique")
    op.create_unique_constraint(
        op.f("uq_audits_tenant_id_idempotency_key"), "audits", ["tenant_id", "idempotency_key"]
    )
    op.create_index("ix_audits_tenant_id_created_at", "audits", ["tenant_id", "created_at"], unique=False)
    op.create_index(
        "ix_claims_tenant_id_embedding_model", "claims", ["tenant_id", "embedding_model"], unique=False
    )
    op.create_index(
        "ix_llm_usage_tenant_id_created_at", "llm_usage", ["tenant_id", "created_at"], unique=False
    )
    op.execute(TENANT_FROM_AUDIT)
    for table in CHILD_TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_tenant_from_audit BEFORE INSERT ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION tenant_from_audit()"
        )
    for table in RLS_TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(POLICY.format(table=table))
    op.execute(CLAIM_VERDICTS_VIEW)
    op.execute(AUDIT_SCORES_VIEW)
    op.execute(LLM_USAGE_DAILY_VIEW)


def _sibling(filename: str) -> ModuleType:
    """Another revision file of this folder, loaded as a module (for its view texts)."""
    path = Path(__file__).with_name(filename)
    spec = importlib.util.spec_from_file_location(f"_claimaudit_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    v1 = _sibling("0001_initial.py")
    v2 = _sibling("0002_llm.py")
    v3 = _sibling("0003_confidence.py")
    for view in VIEWS:
        op.execute(f"DROP VIEW IF EXISTS {view}")
    for table in RLS_TABLES:
        op.execute(f"DROP POLICY IF EXISTS tenant_isolation ON {table}")
        op.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    for table in CHILD_TABLES:
        op.execute(f"DROP TRIGGER IF EXISTS {table}_tenant_from_audit ON {table}")
    op.execute("DROP FUNCTION IF EXISTS tenant_from_audit()")
    op.drop_index("ix_llm_usage_tenant_id_created_at", table_name="llm_usage")
    op.drop_index("ix_claims_tenant_id_embedding_model", table_name="claims")
    op.drop_index("ix_audits_tenant_id_created_at", table_name="audits")
    op.drop_constraint(op.f("uq_audits_tenant_id_idempotency_key"), "audits", type_="unique")
    # Keys of several tenants may collide once the tenant is gone: keep the oldest audit's key.
    op.execute(
        "UPDATE audits a SET idempotency_key = NULL WHERE idempotency_key IS NOT NULL AND EXISTS "
        "(SELECT 1 FROM audits b WHERE b.idempotency_key = a.idempotency_key AND b.created_at < a.created_at)"
    )
    op.create_unique_constraint(op.f("uq_audits_idempotency_key"), "audits", ["idempotency_key"])
    for table in TABLES:
        op.drop_column(table, "tenant_id")
    op.execute(v3.CLAIM_VERDICTS_VIEW)
    op.execute(v1.AUDIT_SCORES_VIEW)
    op.execute(v2.LLM_USAGE_DAILY_VIEW)
    op.drop_index(op.f("ix_api_keys_tenant_id"), table_name="api_keys")
    op.drop_table("api_keys")
    op.drop_table("tenants")
