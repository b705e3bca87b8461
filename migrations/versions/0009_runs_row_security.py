"""Row-level security for the runs tables (``0006_runs`` left them to the code's tenant filters).

``suites``, ``runs``, ``run_items`` and ``webhook_deliveries`` get the forced ``tenant_isolation``
policy of ``0005_tenants`` (a session bound to a tenant sees and writes only its rows; an unbound
session, the workers' scheduler and webhook sender, sees all), and the views ``run_audits`` and
``run_summaries`` become ``security_invoker`` so they apply it to their readers. Their
``tenant_id`` is set by the code (a run's items and deliveries take the run's tenant).

Revision ID: 0009_runs_row_security
Revises: 0008_method_checks
Create Date: 2026-11-30 12:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009_runs_row_security"
down_revision: str | None = "0008_method_checks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Must match ``db.run_models.RUN_TABLES``.
TABLES = ("suites", "runs", "run_items", "webhook_deliveries")
VIEWS = ("run_audits", "run_summaries")
#: Word for word the policy of ``0005_tenants``.
POLICY = """
CREATE POLICY tenant_isolation ON {table}
    USING (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
    WITH CHECK (coalesce(current_setting('claimaudit.tenant_id', true), '') IN ('', tenant_id))
"""


def upgrade() -> None:
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(POLICY.format(table=table))
    for view in VIEWS:
        op.execute(f"ALTER VIEW {view} SET (security_invoker = true)")


def downgrade() -> None:
    for view in VIEWS:
        op.execute(f"ALTER VIEW {view} RESET (security_invoker)")
    for table in TABLES:
        op.execute(f"DROP POLICY IF EXISTS tenant_isolation ON {table}")
        op.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
