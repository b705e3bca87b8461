"""The audit method's own checks: canaries, second audits, corrections, human labels, and views.

Tables: ``canaries``, ``second_audits``, ``second_audit_claims``, ``corrections``,
``claim_labels`` (``db.check_models``). Views: ``canary_results`` (one row per canary: detected,
exactly detected, the verdicts of the claims over the fault), ``canary_detection`` (per audit and
fault kind), ``canary_detection_daily`` (per day, tenant and kind: the metric to alert on),
``label_agreement`` (one row per labelled response claim, with the auditor's verdict). Suites
get ``canaries`` (canaries per fault kind per run, ``service.checks``).

Tenants as in ``0005_tenants``: every table carries ``tenant_id``, copied by trigger from the
audit (``tenant_of_check_audit``; ``second_audit_claims`` from its second audit; an audit the
session cannot see is refused), under the same forced ``tenant_isolation`` policy; the views
are ``security_invoker``.

Revision ID: 0008_method_checks
Revises: 0007_reliability
Create Date: 2026-11-30 08:51:04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008_method_checks"
down_revision: str | None = "0007_reliability"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: A canary is detected when a material response claim over its fault span is not accepted.
CANARY_RESULTS_VIEW = """
CREATE VIEW canary_results WITH (security_invoker = true) AS
SELECT
    k.id              AS canary_id,
    k.tenant_id,
    k.audit_id,
    k.canary_audit_id,
    k.kind,
    k.expected,
    k.change,
    k.created_at,
    a.status          AS canary_status,
    CASE WHEN a.status = 'done' THEN coalesce(h.detected, false) END AS detected,
    CASE WHEN a.status = 'done' THEN coalesce(h.exact, false) END    AS exact,
    h.verdicts
FROM canaries k
JOIN audits a ON a.id = k.canary_audit_id
LEFT JOIN LATERAL (
    SELECT bool_or(v.verdict IN ('contradicted', 'qualification_dropped', 'unsupported')) AS detected,
           bool_or(v.verdict = k.expected)                                              AS exact,
           string_agg(v.verdict, ',' ORDER BY c.position)                               AS verdicts
    FROM claims c
    JOIN verdicts v ON v.claim_id = c.id
    WHERE c.audit_id = k.canary_audit_id AND c.role = 'response' AND c.kind = 'material'
      AND c.char_start < k.fault_end AND c.char_end > k.fault_start
) h ON true
"""
#: Rates are NULL while no canary of the group is done (never NaN).
_RATES = """
    count(*)                                  AS canaries,
    count(detected)                           AS done,
    count(*) FILTER (WHERE detected)          AS detected,
    count(*) FILTER (WHERE exact)             AS exact,
    (count(*) FILTER (WHERE detected))::float / nullif(count(detected), 0) AS detection_rate,
    (count(*) FILTER (WHERE exact))::float / nullif(count(detected), 0)    AS exact_rate
FROM canary_results
"""
CANARY_DETECTION_VIEW = (
    "CREATE VIEW canary_detection WITH (security_invoker = true) AS\nSELECT tenant_id, audit_id, kind,"
    + _RATES
    + "GROUP BY 1, 2, 3"
)
CANARY_DETECTION_DAILY_VIEW = (
    "CREATE VIEW canary_detection_daily WITH (security_invoker = true) AS\n"
    "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, tenant_id, kind," + _RATES + "GROUP BY 1, 2, 3"
)
LABEL_AGREEMENT_VIEW = """
CREATE VIEW label_agreement WITH (security_invoker = true) AS
SELECT
    l.id             AS label_id,
    l.tenant_id,
    l.audit_id,
    l.claim_position,
    l.claim_type,
    l.reviewer,
    l.label,
    v.verdict,
    (l.label = v.verdict) AS agrees,
    c.text           AS claim_text,
    l.created_at
FROM claim_labels l
JOIN claims c ON c.audit_id = l.audit_id AND c.role = 'response' AND c.position = l.claim_position
LEFT JOIN verdicts v ON v.claim_id = c.id
WHERE l.claim_position IS NOT NULL
"""
#: Tables whose ``tenant_id`` the trigger ``tenant_of_check_audit`` copies from the audit.
AUDIT_CHILD_TABLES = ("canaries", "second_audits", "corrections", "claim_labels")
#: Every table of this revision under the ``tenant_isolation`` policy.
RLS_TABLES = (*AUDIT_CHILD_TABLES, "second_audit_claims")
#: Same form as ``0005_tenants.POLICY``.
POLICY = """
CREATE POLICY tenant_isolation ON {table}
    USING (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
    WITH CHECK (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
"""
#: Like ``0005_tenants.TENANT_FROM_AUDIT``, but an audit the session cannot see (another tenant's,
#: hidden by row-level security) is refused instead of leaving the row the writer's tenant: a
#: label, canary, second audit or correction is always its audit's tenant's.
TENANT_OF_AUDIT = """
CREATE FUNCTION tenant_of_check_audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    owner text;
BEGIN
    SELECT a.tenant_id INTO owner FROM audits a WHERE a.id = NEW.audit_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'audit % is not visible to this session (row-level security)', NEW.audit_id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.tenant_id := owner;
    RETURN NEW;
END
$$
"""
TENANT_FROM_SECOND_AUDIT = """
CREATE FUNCTION tenant_from_second_audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    owner text;
BEGIN
    SELECT s.tenant_id INTO owner FROM second_audits s WHERE s.id = NEW.second_audit_row_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'second audit % is not visible to this session (row-level security)',
            NEW.second_audit_row_id USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.tenant_id := owner;
    RETURN NEW;
END
$$
"""

VIEWS = (
    ("canary_results", CANARY_RESULTS_VIEW),
    ("canary_detection", CANARY_DETECTION_VIEW),
    ("canary_detection_daily", CANARY_DETECTION_DAILY_VIEW),
    ("label_agreement", LABEL_AGREEMENT_VIEW),
)


def upgrade() -> None:
    op.create_table(
        "canaries",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.Text(), server_default="default", nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("canary_audit_id", sa.UUID(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("expected", sa.String(length=32), nullable=False),
        sa.Column("original", sa.Text(), nullable=False),
        sa.Column("change", sa.Text(), nullable=False),
        sa.Column("reference", sa.Integer(), nullable=False),
        sa.Column("fault_start", sa.Integer(), nullable=False),
        sa.Column("fault_end", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "kind IN ('number', 'date', 'negation', 'entity', 'roles', 'addition', 'qualifier')",
            name=op.f("ck_canaries_kind"),
        ),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_canaries_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["canary_audit_id"],
            ["audits.id"],
            name=op.f("fk_canaries_canary_audit_id_audits"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_canaries")),
        sa.UniqueConstraint("canary_audit_id", name=op.f("uq_canaries_canary_audit_id")),
    )
    op.create_index(op.f("ix_canaries_audit_id"), "canaries", ["audit_id"], unique=False)
    op.create_table(
        "claim_labels",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.Text(), server_default="default", nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("claim_position", sa.Integer(), nullable=True),
        sa.Column("label", sa.String(length=32), nullable=False),
        sa.Column("reviewer", sa.Text(), server_default="", nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("claim_type", sa.String(length=16), nullable=True),
        sa.Column("source", sa.String(length=16), server_default="api", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "(claim_position IS NULL AND label IN ('support', 'partial', 'not_supported', 'refute')) OR "
            "(claim_position >= 0 AND label IN ('supported', 'inferred', 'contradicted', "
            "'qualification_dropped', 'unsupported', 'outside_scope'))",
            name=op.f("ck_claim_labels_label"),
        ),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_claim_labels_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claim_labels")),
        sa.UniqueConstraint(
            "audit_id",
            "claim_position",
            "reviewer",
            name=op.f("uq_claim_labels_audit_id_claim_position_reviewer"),
            postgresql_nulls_not_distinct=True,
        ),
    )
    op.create_index(op.f("ix_claim_labels_audit_id"), "claim_labels", ["audit_id"], unique=False)
    op.create_table(
        "corrections",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.Text(), server_default="default", nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("corrected_audit_id", sa.UUID(), nullable=True),
        sa.Column("corrected_text", sa.Text(), nullable=False),
        sa.Column(
            "edits",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column("passes", sa.Boolean(), nullable=True),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_corrections_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["corrected_audit_id"],
            ["audits.id"],
            name=op.f("fk_corrections_corrected_audit_id_audits"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_corrections")),
        sa.UniqueConstraint("audit_id", name=op.f("uq_corrections_audit_id")),
        sa.UniqueConstraint("corrected_audit_id", name=op.f("uq_corrections_corrected_audit_id")),
    )
    op.create_table(
        "second_audits",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.Text(), server_default="default", nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("second_audit_id", sa.UUID(), nullable=False),
        sa.Column("config", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("claims", sa.Integer(), nullable=True),
        sa.Column("agreed", sa.Integer(), nullable=True),
        sa.Column("kappa", sa.Float(), nullable=True),
        sa.Column("confusion", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_second_audits_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["second_audit_id"],
            ["audits.id"],
            name=op.f("fk_second_audits_second_audit_id_audits"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_second_audits")),
        sa.UniqueConstraint("second_audit_id", name=op.f("uq_second_audits_second_audit_id")),
    )
    op.create_index(op.f("ix_second_audits_audit_id"), "second_audits", ["audit_id"], unique=False)
    op.create_table(
        "second_audit_claims",
        sa.Column("tenant_id", sa.Text(), server_default="default", nullable=False),
        sa.Column("second_audit_row_id", sa.BigInteger(), nullable=False),
        sa.Column("claim_position", sa.Integer(), nullable=False),
        sa.Column("second_position", sa.Integer(), nullable=True),
        sa.Column("claim_type", sa.String(length=16), nullable=False),
        sa.Column("claim_text", sa.Text(), nullable=False),
        sa.Column("verdict", sa.String(length=32), nullable=False),
        sa.Column("second_verdict", sa.String(length=32), nullable=True),
        sa.Column("agrees", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["second_audit_row_id"],
            ["second_audits.id"],
            name=op.f("fk_second_audit_claims_second_audit_row_id_second_audits"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("second_audit_row_id", "claim_position", name=op.f("pk_second_audit_claims")),
    )
    op.add_column("suites", sa.Column("canaries", sa.Integer(), nullable=True))
    op.create_check_constraint(op.f("ck_suites_canaries"), "suites", "canaries IS NULL OR canaries > 0")
    _tenancy()
    for _, view in VIEWS:
        op.execute(view)


def _tenancy() -> None:
    op.execute(TENANT_OF_AUDIT)
    for table in AUDIT_CHILD_TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_tenant_of_audit BEFORE INSERT ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION tenant_of_check_audit()"
        )
    op.execute(TENANT_FROM_SECOND_AUDIT)
    op.execute(
        "CREATE TRIGGER second_audit_claims_tenant_from_second_audit BEFORE INSERT ON second_audit_claims "
        "FOR EACH ROW EXECUTE FUNCTION tenant_from_second_audit()"
    )
    for table in RLS_TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(POLICY.format(table=table))


def downgrade() -> None:
    for name, _ in reversed(VIEWS):
        op.execute(f"DROP VIEW IF EXISTS {name}")
    op.drop_constraint(op.f("ck_suites_canaries"), "suites", type_="check")
    op.drop_column("suites", "canaries")
    op.drop_table("second_audit_claims")  # its policy and trigger go with it
    op.execute("DROP FUNCTION IF EXISTS tenant_from_second_audit()")
    op.drop_index(op.f("ix_second_audits_audit_id"), table_name="second_audits")
    op.drop_table("second_audits")
    op.drop_table("corrections")
    op.drop_index(op.f("ix_claim_labels_audit_id"), table_name="claim_labels")
    op.drop_table("claim_labels")
    op.drop_index(op.f("ix_canaries_audit_id"), table_name="canaries")
    op.drop_table("canaries")
    op.execute("DROP FUNCTION IF EXISTS tenant_of_check_audit()")
