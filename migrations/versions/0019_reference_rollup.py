"""``reference_verdicts`` reads a rollup kept at write time instead of aggregating the history.

The view of ``0011_analyst_logins`` joined every rank-0 evidence row of a tenant with its
reference claim, document and verdict, then counted distinct audits per reference document:
2.5 to 3.3 s for a tenant of 240,000 such rows (``make bench-store``, 1M claims). From this
revision the table ``reference_verdict_audits`` holds, per audit and reference document key
(``sha256, source_id, source_url, source_title``), the counts of the response claims whose best
evidence came from that document: ``claims`` and one column per verdict. The view sums it per
tenant and key; ``audits`` is the number of its rows (one per audit and key), so the view's
columns and values are the old aggregate's.

Kept at write time, in the writing transaction: statement-level triggers on ``evidence``
(insert, update, delete, cascades included), ``verdicts`` (update) and ``documents`` (update)
recompute the rows of every audit the statement touched (``claimaudit_reference_rollup``: one
indexed aggregate over that audit's evidence). Recomputing instead of adding deltas keeps the
rows right whatever order cascades delete claims, verdicts and evidence in: the last statement
that touches an audit's evidence leaves the rows of its final state. The triggers run as the
writer under the table's forced row-level security (policy ``tenant_isolation``, as every
tenant table), so a writer bound to a tenant reads and writes that tenant's rows only; analyst
logins read it (``SELECT``) through the same policy. ``claimaudit_service`` may write it, so
the deployment's logins (its members) need no new grant. ``claimaudit_reference_rollup_rebuild()``
recomputes every visible row: the backfill here, and after a bulk load with triggers off
(``session_replication_role = replica``, ``tools/bench_store_load.py``).

Revision ID: 0019_reference_rollup
Revises: 0018_private_channels
Create Date: 2026-12-05 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0019_reference_rollup"
down_revision: str | None = "0018_private_channels"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ANALYST_ROLE = "claimaudit_analyst"
SERVICE_ROLE = "claimaudit_service"
TABLE = "reference_verdict_audits"
VERDICTS = ("supported", "inferred", "contradicted", "qualification_dropped", "unsupported")
KEY = "tenant_id, reference_sha256, reference_id, reference_url, reference_title"

_COLUMNS = ",\n".join(f"    {v:16} bigint NOT NULL" for v in VERDICTS)
CREATE_TABLE = f"""
CREATE TABLE {TABLE} (
    tenant_id        text NOT NULL,
    audit_id         uuid NOT NULL,
    reference_sha256 varchar(64) NOT NULL,
    reference_id     text,
    reference_url    text,
    reference_title  text,
    claims           bigint NOT NULL,
{_COLUMNS}
)
"""
POLICY = f"""
CREATE POLICY tenant_isolation ON {TABLE}
    USING ((SELECT claimaudit_sees_every_tenant()) OR tenant_id = (SELECT claimaudit_session_tenant()))
    WITH CHECK ((SELECT claimaudit_sees_every_tenant()) OR tenant_id = (SELECT claimaudit_session_tenant()))
"""

_COUNTS = ",\n".join(f"        count(*) FILTER (WHERE v.verdict = '{v}')" for v in VERDICTS)
_AGGREGATE = f"""
    INSERT INTO {TABLE} (tenant_id, audit_id, reference_sha256, reference_id, reference_url,
                         reference_title, claims, {", ".join(VERDICTS)})
    SELECT d.tenant_id, d.audit_id, d.sha256, d.source_id, d.source_url, d.source_title,
        count(*),
{_COUNTS}
    FROM evidence e
    JOIN claims rc   ON rc.id = e.reference_claim_id
    JOIN documents d ON d.id = rc.document_id
    JOIN verdicts v  ON v.id = e.verdict_id
    WHERE e.rank = 0 AND d.role = 'reference'{{where}}
    GROUP BY d.tenant_id, d.audit_id, d.sha256, d.source_id, d.source_url, d.source_title;
"""
_PATH = "SET search_path = pg_catalog, {schema}, pg_temp"
ROLLUP_FUNCTION = f"""
CREATE FUNCTION claimaudit_reference_rollup(audit_ids uuid[]) RETURNS void
LANGUAGE sql VOLATILE {_PATH} AS $$
    DELETE FROM {TABLE} WHERE audit_id = ANY(audit_ids);
{_AGGREGATE.format(where=" AND e.audit_id = ANY(audit_ids) AND d.audit_id = ANY(audit_ids)")}
$$"""
REBUILD_FUNCTION = f"""
CREATE FUNCTION claimaudit_reference_rollup_rebuild() RETURNS void
LANGUAGE sql VOLATILE {_PATH} AS $$
    DELETE FROM {TABLE};
{_AGGREGATE.format(where="")}
$$"""
#: One trigger function for every statement trigger: the audits of the rows the statement
#: inserted, updated or deleted (transition tables ``new_rows`` / ``old_rows``); an evidence row
#: of rank > 0 inserted or deleted changes no count. The evidence rows of a statement are
#: handled at once, so writers insert and delete an audit's evidence in one statement
#: (``db.verdict_rows``, ``db.claim_rows``), not row by row or through the cascade.
TRIGGER_FUNCTION = f"""
CREATE FUNCTION claimaudit_reference_rollup_trigger() RETURNS trigger
LANGUAGE plpgsql {_PATH} AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM claimaudit_reference_rollup(ARRAY(SELECT DISTINCT audit_id FROM new_rows WHERE rank = 0));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM claimaudit_reference_rollup(ARRAY(SELECT DISTINCT audit_id FROM old_rows WHERE rank = 0));
    ELSE
        PERFORM claimaudit_reference_rollup(ARRAY(
            SELECT audit_id FROM new_rows UNION SELECT audit_id FROM old_rows));
    END IF;
    RETURN NULL;
END
$$"""
#: (trigger name, table, event, REFERENCING clause).
_BOTH = "OLD TABLE AS old_rows NEW TABLE AS new_rows"
TRIGGERS = (
    ("trg_evidence_reference_rollup_insert", "evidence", "INSERT", "NEW TABLE AS new_rows"),
    ("trg_evidence_reference_rollup_update", "evidence", "UPDATE", _BOTH),
    ("trg_evidence_reference_rollup_delete", "evidence", "DELETE", "OLD TABLE AS old_rows"),
    ("trg_verdicts_reference_rollup_update", "verdicts", "UPDATE", _BOTH),
    ("trg_documents_reference_rollup_update", "documents", "UPDATE", _BOTH),
)  # fmt: skip

_SUMS = ",\n".join(f"    sum({v})::bigint AS {v}" for v in VERDICTS)
VIEW = f"""
CREATE OR REPLACE VIEW reference_verdicts WITH (security_invoker = true) AS
SELECT
    {KEY},
    count(*)           AS audits,
    sum(claims)::bigint AS claims,
{_SUMS}
FROM {TABLE}
GROUP BY {KEY}
"""
_OLD_COUNTS = ",\n".join(f"    count(*) FILTER (WHERE v.verdict = '{v}') AS {v}" for v in VERDICTS)
#: The view of ``0011_analyst_logins`` (restored by the downgrade; the rollup's definition).
OLD_VIEW = f"""
CREATE OR REPLACE VIEW reference_verdicts WITH (security_invoker = true) AS
SELECT
    d.tenant_id,
    d.sha256        AS reference_sha256,
    d.source_id     AS reference_id,
    d.source_url    AS reference_url,
    d.source_title  AS reference_title,
    count(DISTINCT d.audit_id) AS audits,
    count(*)        AS claims,
{_OLD_COUNTS}
FROM documents d
JOIN claims rc   ON rc.document_id = d.id
JOIN evidence e  ON e.reference_claim_id = rc.id AND e.rank = 0
JOIN verdicts v  ON v.id = e.verdict_id
WHERE d.role = 'reference'
GROUP BY d.tenant_id, d.sha256, d.source_id, d.source_url, d.source_title
"""


def _schema() -> str:
    import sqlalchemy as sa

    return str(op.get_bind().execute(sa.text("SELECT current_schema()")).scalar_one())


def upgrade() -> None:
    schema = _schema()
    op.execute(CREATE_TABLE)
    op.execute(f"CREATE INDEX ix_{TABLE}_audit_id ON {TABLE} (audit_id)")
    op.execute(f"CREATE INDEX ix_{TABLE}_tenant_id ON {TABLE} (tenant_id)")
    op.execute(f"ALTER TABLE {TABLE} ENABLE ROW LEVEL SECURITY")
    op.execute(f"ALTER TABLE {TABLE} FORCE ROW LEVEL SECURITY")
    op.execute(POLICY)
    for function in (ROLLUP_FUNCTION, REBUILD_FUNCTION, TRIGGER_FUNCTION):
        op.execute(function.format(schema=schema))
    for name, table, event, referencing in TRIGGERS:
        op.execute(
            f"CREATE TRIGGER {name} AFTER {event} ON {table} REFERENCING {referencing} "
            "FOR EACH STATEMENT EXECUTE FUNCTION claimaudit_reference_rollup_trigger()"
        )
    op.execute("SELECT claimaudit_reference_rollup_rebuild()")
    op.execute(f"GRANT SELECT ON {TABLE} TO {ANALYST_ROLE}")
    # every writer of evidence writes it (through the triggers): the deployment's roles hold it
    # through their group, so a login granted table privileges before this revision keeps working
    op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {TABLE} TO {SERVICE_ROLE}")
    op.execute(VIEW)


def downgrade() -> None:
    op.execute(OLD_VIEW)
    for name, table, _, _ in TRIGGERS:
        op.execute(f"DROP TRIGGER {name} ON {table}")
    op.execute("DROP FUNCTION claimaudit_reference_rollup_trigger()")
    op.execute("DROP FUNCTION claimaudit_reference_rollup_rebuild()")
    op.execute("DROP FUNCTION claimaudit_reference_rollup(uuid[])")
    op.execute(f"DROP TABLE {TABLE}")
