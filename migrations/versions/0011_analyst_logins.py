"""Analysts in SQL: tenant-bound read-only logins, fail-closed row-level security, analyst views.

Roles (cluster-wide, created when missing, never dropped by a downgrade):

``claimaudit_service``  NOLOGIN group of the deployment's own logins (API, workers, beat,
                        migrations, CLI). A member sees every tenant's rows while no tenant is
                        bound, and only the tenant of ``claimaudit.tenant_id`` once one is
                        (``db.tenancy.bind_tenant``). Superusers bypass row-level security anyway.
``claimaudit_analyst``  NOLOGIN group of the analysts' logins: ``SELECT`` on the analyst tables
                        and views (``ANALYST_RELATIONS``), nothing else.

Who sees what (policy ``tenant_isolation`` of every table of tenant data, now fail-closed): a
member of ``claimaudit_service`` as above; any other role sees the rows of the tenant its role
name is bound to in ``sql_logins`` (not revoked), else none; ``claimaudit.tenant_id`` is ignored
for it, so no ``SET``, ``RESET``, ``set_config`` or ``SET ROLE`` widens what it sees. The
binding is read through ``current_user`` by ``claimaudit_session_tenant()``; ``sql_logins`` is
written only by its owner (row-level security with a ``SELECT``-only policy, not forced), through
the ``SECURITY DEFINER`` functions ``claimaudit_create_sql_login`` and
``claimaudit_revoke_sql_login`` that only ``claimaudit_service`` may call. The shared tables
``tenants``, ``llm_cache`` and ``embedding_cache`` are visible to ``claimaudit_service`` only.

Upgrade path: every existing role (not a superuser) that may ``INSERT`` into ``audits`` joins
``claimaudit_service``, so deployments whose API or workers connect as such a role keep working
(before this revision any role that bound no tenant saw every row). A role that could only read
sees nothing from now on: make it a login with ``claimaudit sql-logins create``.

Also: ``documents.source_id`` / ``source_url`` / ``source_title`` (a reference sent as
``{"text", "id"?, "url"?, "title"?}``), ``run_claim_changes`` (the claims whose verdict changed
against the previous finished run, paired as ``claims.run_diff.pair_claims`` pairs them; written
when a run finishes), a GIN index on ``audits.metadata``, ``claim_verdicts`` with run, metadata
and spans, the views ``run_claim_flips``, ``audits_daily`` and ``reference_verdicts``, and the
daily views' day renamed ``day_utc``.

Revision ID: 0011_analyst_logins
Revises: 0010_audit_ended_notify
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision: str = "0011_analyst_logins"
down_revision: str | None = "0010_audit_ended_notify"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SERVICE_ROLE = "claimaudit_service"
ANALYST_ROLE = "claimaudit_analyst"

#: Every table under ``tenant_isolation`` (0005, 0008, 0009 and this revision).
TENANT_TABLES = (
    "audits", "documents", "claims", "verdicts", "evidence", "scores", "llm_usage", "llm_judgements",
    "api_keys", "canaries", "second_audits", "second_audit_claims", "corrections", "claim_labels",
    "suites", "runs", "run_items", "webhook_deliveries", "run_claim_changes",
)  # fmt: skip
#: Shared tables without a tenant: the deployment's roles only.
SERVICE_TABLES = ("tenants", "llm_cache", "embedding_cache")
#: What an analyst login may read (``SELECT``). Not: api_keys, tenants, caches, suites (webhook
#: secrets), webhook_deliveries, sql_logins (each role reads its own row), alembic_version.
ANALYST_TABLES = (
    "audits", "documents", "claims", "verdicts", "evidence", "scores", "llm_usage", "llm_judgements",
    "runs", "run_items", "run_claim_changes",
    "canaries", "second_audits", "second_audit_claims", "corrections", "claim_labels",
)  # fmt: skip
ANALYST_VIEWS = (
    "claim_verdicts", "audit_scores", "llm_usage_daily", "run_audits", "run_summaries",
    "run_claim_flips", "audits_daily", "reference_verdicts",
    "canary_results", "canary_detection", "canary_detection_daily", "label_agreement",
)  # fmt: skip
ANALYST_RELATIONS = (*ANALYST_TABLES, *ANALYST_VIEWS)
#: Daily views whose ``day`` becomes ``day_utc``.
DAILY_VIEWS = ("llm_usage_daily", "canary_detection_daily")

#: Create a group role unless it exists (roles are cluster-wide: another database's migration
#: may have made it, perhaps at the same moment).
CREATE_GROUP = """
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '{role}') THEN
        CREATE ROLE {role} NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$
"""

#: Roles that could write audits before this revision (the deployment's) join the service group.
ADOPT_WRITERS = """
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT rolname FROM pg_catalog.pg_roles
        WHERE NOT rolsuper AND rolname !~ '^pg_' AND rolname NOT IN ('{service}', '{analyst}')
          AND has_table_privilege(oid, '{schema}.audits', 'INSERT')
          AND NOT pg_has_role(oid, '{service}', 'MEMBER')
    LOOP
        EXECUTE format('GRANT {service} TO %I', r.rolname);
    END LOOP;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE EXCEPTION 'cannot make the deployment''s roles members of {service}'
        USING HINT = 'run the migration as a superuser or as the role that created {service}';
END $$
"""

SQL_LOGINS = """
CREATE TABLE sql_logins (
    id          bigserial PRIMARY KEY,
    role_name   text NOT NULL CONSTRAINT ck_sql_logins_role_name CHECK (role_name ~ '^ca_[a-z0-9_]{{1,60}}$'),
    tenant_id   text NOT NULL CONSTRAINT fk_sql_logins_tenant_id_tenants REFERENCES tenants (id),
    name        text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE UNIQUE INDEX uq_sql_logins_role_name ON sql_logins (role_name) WHERE revoked_at IS NULL;
CREATE INDEX ix_sql_logins_tenant_id ON sql_logins (tenant_id);
ALTER TABLE sql_logins ENABLE ROW LEVEL SECURITY;
REVOKE ALL ON sql_logins FROM PUBLIC;
GRANT SELECT ON sql_logins TO PUBLIC;
"""
#: Not forced: its owner (the migrations' role, and the SECURITY DEFINER functions) writes it;
#: everybody else reads at most its own row and writes nothing (no write policy).
SQL_LOGINS_POLICY = """
CREATE POLICY own_login ON sql_logins FOR SELECT
    USING (role_name = current_user::text OR (SELECT claimaudit_is_service()))
"""

#: Search path of every function: the catalog, then this schema, temporary objects last (a
#: session's temporary table named ``sql_logins`` must never stand in for the real one).
_PATH = "SET search_path = pg_catalog, {schema}, pg_temp"
SESSION_FUNCTIONS = (
    f"""
CREATE FUNCTION claimaudit_is_service() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE {_PATH} AS $$
    SELECT pg_has_role(current_user, '{{service}}', 'USAGE')
$$""",
    f"""
CREATE FUNCTION claimaudit_sees_every_tenant() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE {_PATH} AS $$
    SELECT pg_has_role(current_user, '{{service}}', 'USAGE')
       AND coalesce(current_setting('claimaudit.tenant_id', true), '') = ''
$$""",
    f"""
CREATE FUNCTION claimaudit_session_tenant() RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE {_PATH} AS $$
    SELECT CASE
        WHEN pg_has_role(current_user, '{{service}}', 'USAGE')
            THEN nullif(current_setting('claimaudit.tenant_id', true), '')
        ELSE (SELECT l.tenant_id FROM {{schema}}.sql_logins l
              WHERE l.role_name = current_user::text AND l.revoked_at IS NULL)
    END
$$""",
)

CREATE_LOGIN = f"""
CREATE FUNCTION claimaudit_create_sql_login(p_tenant text, p_role text, p_verifier text, p_name text)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER {_PATH} AS $$
DECLARE
    bound text := nullif(current_setting('claimaudit.tenant_id', true), '');
BEGIN
    IF bound IS NOT NULL AND bound IS DISTINCT FROM p_tenant THEN
        RAISE EXCEPTION 'a session bound to tenant % cannot make a login of tenant %', bound, p_tenant
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_role IS NULL OR p_role !~ '^ca_[a-z0-9_]{{{{1,60}}}}$' THEN
        RAISE EXCEPTION 'login name %: ca_ and 1-60 of a-z, 0-9, _', p_role USING ERRCODE = 'invalid_name';
    END IF;
    IF p_verifier IS NULL OR p_verifier !~ '^SCRAM-SHA-256\\$' THEN
        RAISE EXCEPTION 'the password must come as a SCRAM-SHA-256 verifier, never in clear'
            USING ERRCODE = 'invalid_password';
    END IF;
    INSERT INTO {{schema}}.tenants (id) VALUES (p_tenant) ON CONFLICT DO NOTHING;
    INSERT INTO {{schema}}.sql_logins (role_name, tenant_id, name)
        VALUES (p_role, p_tenant, coalesce(p_name, ''));
    EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS '
                   'INHERIT CONNECTION LIMIT 10 PASSWORD %L', p_role, p_verifier);
    EXECUTE format('GRANT {ANALYST_ROLE} TO %I', p_role);
END
$$"""

REVOKE_LOGIN = f"""
CREATE FUNCTION claimaudit_revoke_sql_login(p_role text, p_tenant text)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER {_PATH} AS $$
DECLARE
    bound text := nullif(current_setting('claimaudit.tenant_id', true), '');
    owner text;
BEGIN
    UPDATE {{schema}}.sql_logins SET revoked_at = now()
    WHERE role_name = p_role AND revoked_at IS NULL
      AND (p_tenant IS NULL OR tenant_id = p_tenant) AND (bound IS NULL OR tenant_id = bound)
    RETURNING tenant_id INTO owner;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = p_role) THEN
        EXECUTE format('ALTER ROLE %I NOLOGIN', p_role);
        EXECUTE format('REVOKE {ANALYST_ROLE} FROM %I', p_role);
        BEGIN
            PERFORM pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = p_role;
            EXECUTE format('DROP ROLE %I', p_role);
        EXCEPTION WHEN OTHERS THEN
            NULL;  -- left NOLOGIN, without privileges and unbound: it sees nothing
        END;
    END IF;
    RETURN owner;
END
$$"""

#: Fail-closed: the deployment's roles as before; any other role its login's tenant, or nothing.
POLICY = """
CREATE POLICY tenant_isolation ON {table}
    USING ((SELECT claimaudit_sees_every_tenant()) OR tenant_id = (SELECT claimaudit_session_tenant()))
    WITH CHECK ((SELECT claimaudit_sees_every_tenant()) OR tenant_id = (SELECT claimaudit_session_tenant()))
"""
SERVICE_POLICY = """
CREATE POLICY service_only ON {table}
    USING ((SELECT claimaudit_is_service())) WITH CHECK ((SELECT claimaudit_is_service()))
"""
#: The policy of 0005_tenants (restored by the downgrade).
OLD_POLICY = """
CREATE POLICY tenant_isolation ON {table}
    USING (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
    WITH CHECK (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
"""

#: ``claims.verdict.reasons._where``: "reference N, chars S–E" (en dash) in a verdict's reason.
CITED_SPAN = r"reference (\d{1,9}), chars (\d{1,9})–(\d{1,9})"

CLAIM_VERDICTS_VIEW = f"""
CREATE VIEW claim_verdicts WITH (security_invoker = true) AS
SELECT
    a.tenant_id,
    r.suite,
    r.id               AS run_id,
    r.label            AS run_label,
    ri.item_id,
    a.id               AS audit_id,
    a.created_at       AS audit_created_at,
    a.status           AS audit_status,
    a.metadata,
    c.id               AS claim_id,
    c.position         AS claim_position,
    c.text             AS claim_text,
    c.kind             AS claim_kind,
    c.char_start       AS claim_start,
    c.char_end         AS claim_end,
    v.verdict,
    v.reason,
    v.change,
    v.confidence,
    rc.id              AS evidence_claim_id,
    rd.position        AS evidence_reference,
    rc.text            AS evidence_text,
    rc.char_start      AS evidence_start,
    rc.char_end        AS evidence_end,
    substr(rd.text, rc.char_start + 1, rc.char_end - rc.char_start) AS evidence_source_text,
    ev.similarity      AS evidence_similarity,
    cf.reference       AS conflict_reference,
    cf.span_start      AS conflict_start,
    cf.span_end        AS conflict_end,
    substr(cd.text, cf.span_start + 1, cf.span_end - cf.span_start) AS conflict_text
FROM verdicts v
JOIN claims c  ON c.id = v.claim_id
JOIN audits a  ON a.id = v.audit_id
LEFT JOIN run_items ri ON ri.audit_id = a.id
LEFT JOIN runs r       ON r.id = ri.run_id
LEFT JOIN evidence ev  ON ev.verdict_id = v.id AND ev.rank = 0
LEFT JOIN claims rc    ON rc.id = ev.reference_claim_id
LEFT JOIN documents rd ON rd.id = rc.document_id
LEFT JOIN LATERAL (
    SELECT m[1]::int AS reference, m[2]::int AS span_start, m[3]::int AS span_end
    FROM regexp_match(v.reason, '{CITED_SPAN}') AS m
    WHERE v.verdict IN ('contradicted', 'qualification_dropped') AND m IS NOT NULL
) cf ON true
LEFT JOIN documents cd ON cd.audit_id = v.audit_id AND cd.role = 'reference' AND cd.position = cf.reference
"""

RUN_CLAIM_FLIPS_VIEW = """
CREATE VIEW run_claim_flips WITH (security_invoker = true) AS
SELECT
    f.tenant_id, r.suite, f.run_id, f.previous_run_id, f.item_id,
    c.position  AS claim_position,
    c.text      AS claim_text,
    pc.text     AS previous_claim_text,
    pv.verdict  AS previous_verdict,
    v.verdict,
    f.similarity
FROM run_claim_changes f
JOIN runs r        ON r.id = f.run_id
JOIN run_items ri  ON ri.run_id = f.run_id AND ri.item_id = f.item_id
JOIN claims c      ON c.audit_id = ri.audit_id AND c.role = 'response' AND c.position = f.position
JOIN verdicts v    ON v.claim_id = c.id
JOIN run_items pri ON pri.run_id = f.previous_run_id AND pri.item_id = f.item_id
JOIN claims pc     ON pc.audit_id = pri.audit_id AND pc.role = 'response'
                  AND pc.position = f.previous_position
JOIN verdicts pv   ON pv.claim_id = pc.id
"""

_VERDICT_SUMS = ",\n".join(
    f"    coalesce(sum(s.{v}), 0)::bigint AS {v}"
    for v in (
        "supported",
        "inferred",
        "contradicted",
        "qualification_dropped",
        "unsupported",
        "outside_scope",
    )
)
AUDITS_DAILY_VIEW = f"""
CREATE VIEW audits_daily WITH (security_invoker = true) AS
SELECT
    a.tenant_id,
    (a.created_at AT TIME ZONE 'UTC')::date AS day_utc,
    count(*)                                   AS audits,
    count(*) FILTER (WHERE a.status = 'done')   AS done,
    count(*) FILTER (WHERE a.status = 'failed') AS failed,
    coalesce(sum(s.response_claims), 0)::bigint AS response_claims,
{_VERDICT_SUMS},
    percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.finished_at - a.created_at))
        FILTER (WHERE a.status = 'done') AS p50_latency_s,
    percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM a.finished_at - a.created_at))
        FILTER (WHERE a.status = 'done') AS p95_latency_s
FROM audits a
LEFT JOIN scores s ON s.audit_id = a.id AND a.status = 'done'
GROUP BY 1, 2
"""

_EVIDENCE_COUNTS = ",\n".join(
    f"    count(*) FILTER (WHERE v.verdict = '{v}') AS {v}"
    for v in ("supported", "inferred", "contradicted", "qualification_dropped", "unsupported")
)
REFERENCE_VERDICTS_VIEW = f"""
CREATE VIEW reference_verdicts WITH (security_invoker = true) AS
SELECT
    d.tenant_id,
    d.sha256        AS reference_sha256,
    d.source_id     AS reference_id,
    d.source_url    AS reference_url,
    d.source_title  AS reference_title,
    count(DISTINCT d.audit_id) AS audits,
    count(*)        AS claims,
{_EVIDENCE_COUNTS}
FROM documents d
JOIN claims rc   ON rc.document_id = d.id
JOIN evidence e  ON e.reference_claim_id = rc.id AND e.rank = 0
JOIN verdicts v  ON v.id = e.verdict_id
WHERE d.role = 'reference'
GROUP BY d.tenant_id, d.sha256, d.source_id, d.source_url, d.source_title
"""

NEW_VIEWS = (
    ("run_claim_flips", RUN_CLAIM_FLIPS_VIEW),
    ("audits_daily", AUDITS_DAILY_VIEW),
    ("reference_verdicts", REFERENCE_VERDICTS_VIEW),
)


def _schema() -> str:
    return str(op.get_bind().execute(sa.text("SELECT current_schema()")).scalar_one())


def _sql(template: str, schema: str) -> str:
    return template.format(schema=schema, service=SERVICE_ROLE, analyst=ANALYST_ROLE)


def upgrade() -> None:
    schema = _schema()
    for role in (SERVICE_ROLE, ANALYST_ROLE):
        op.execute(CREATE_GROUP.format(role=role))
    op.execute(_sql(ADOPT_WRITERS, schema))
    _columns_and_tables()
    op.execute(_sql(SQL_LOGINS, schema))
    for function in (*SESSION_FUNCTIONS, CREATE_LOGIN, REVOKE_LOGIN):
        op.execute(_sql(function, schema))
    for name in (
        "claimaudit_create_sql_login(text, text, text, text)",
        "claimaudit_revoke_sql_login(text, text)",
    ):
        op.execute(f"REVOKE ALL ON FUNCTION {name} FROM PUBLIC")
        op.execute(f"GRANT EXECUTE ON FUNCTION {name} TO {SERVICE_ROLE}")
    op.execute(SQL_LOGINS_POLICY)
    _policies()
    _views()
    for relation in ANALYST_RELATIONS:
        op.execute(f"GRANT SELECT ON {relation} TO {ANALYST_ROLE}")


def _columns_and_tables() -> None:
    for column in ("source_id", "source_url", "source_title"):
        op.add_column("documents", sa.Column(column, sa.Text(), nullable=True))
    op.create_index("ix_audits_metadata", "audits", ["metadata"], postgresql_using="gin")
    op.create_table(
        "run_claim_changes",
        sa.Column("run_id", sa.UUID(), nullable=False),
        sa.Column("item_id", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("tenant_id", sa.Text(), server_default="default", nullable=False),
        sa.Column("previous_run_id", sa.UUID(), nullable=False),
        sa.Column("previous_position", sa.Integer(), nullable=False),
        sa.Column("similarity", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_claim_changes_run_id_runs"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["previous_run_id"],
            ["runs.id"],
            name=op.f("fk_run_claim_changes_previous_run_id_runs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("run_id", "item_id", "position", name=op.f("pk_run_claim_changes")),
    )
    op.create_index(
        op.f("ix_run_claim_changes_previous_run_id"), "run_claim_changes", ["previous_run_id"], unique=False
    )


def _policies() -> None:
    for table in TENANT_TABLES:
        op.execute(f"DROP POLICY IF EXISTS tenant_isolation ON {table}")
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(POLICY.format(table=table))
    for table in SERVICE_TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(SERVICE_POLICY.format(table=table))


def _views() -> None:
    op.execute("DROP VIEW claim_verdicts")
    op.execute(CLAIM_VERDICTS_VIEW)
    for _, view in NEW_VIEWS:
        op.execute(view)
    for view in DAILY_VIEWS:
        op.execute(f"ALTER VIEW {view} RENAME COLUMN day TO day_utc")


def _sibling(filename: str) -> ModuleType:
    """Another revision file of this folder, loaded as a module (for its view texts)."""
    path = Path(__file__).with_name(filename)
    spec = importlib.util.spec_from_file_location(f"_claimaudit_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Revoke this database's logins (dropped, or left without LOGIN when they cannot be dropped):
#: the policies restored below show every row to a role that binds no tenant. Members of
#: ``claimaudit_analyst`` made by hand lose its grants here (``REVOKE`` below), so they read nothing.
DROP_LOGINS = """
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT role_name FROM sql_logins WHERE revoked_at IS NULL LOOP
        PERFORM claimaudit_revoke_sql_login(r.role_name, NULL);
    END LOOP;
END $$
"""


def downgrade() -> None:
    v5 = _sibling("0005_tenants.py")
    op.execute(DROP_LOGINS)
    for relation in ANALYST_RELATIONS:
        op.execute(f"REVOKE SELECT ON {relation} FROM {ANALYST_ROLE}")
    for view in DAILY_VIEWS:
        op.execute(f"ALTER VIEW {view} RENAME COLUMN day_utc TO day")
    for name, _ in reversed(NEW_VIEWS):
        op.execute(f"DROP VIEW IF EXISTS {name}")
    op.execute("DROP VIEW claim_verdicts")
    op.execute(v5.CLAIM_VERDICTS_VIEW)
    for table in SERVICE_TABLES:
        op.execute(f"DROP POLICY IF EXISTS service_only ON {table}")
        op.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    op.drop_table("run_claim_changes")
    for table in TENANT_TABLES[:-1]:
        op.execute(f"DROP POLICY IF EXISTS tenant_isolation ON {table}")
        op.execute(OLD_POLICY.format(table=table))
    op.drop_table("sql_logins")
    for function in (
        "claimaudit_create_sql_login(text, text, text, text)",
        "claimaudit_revoke_sql_login(text, text)",
        "claimaudit_session_tenant()",
        "claimaudit_sees_every_tenant()",
        "claimaudit_is_service()",
    ):
        op.execute(f"DROP FUNCTION IF EXISTS {function}")
    op.drop_index("ix_audits_metadata", table_name="audits", postgresql_using="gin")
    for column in ("source_title", "source_url", "source_id"):
        op.drop_column("documents", column)
