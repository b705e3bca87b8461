"""Reference cache: the decomposition of a reference text, stored once per tenant and engine.

``reference_cache`` holds the claims (text, span, kind, position, duplicates, ambiguous) that
the offline decomposer made of a reference text, keyed by the tenant, the SHA-256 of the text
and the engine version (``claims.engine_version``: a content hash of the engine, so a new
engine never reads an old one's claims). The decompose stage reads it before decomposing a
reference and writes what it decomposed (``db.reference_cache``). Tenant data: forced row-level
security with the fail-closed ``tenant_isolation`` policy of ``0011_analyst_logins``; analyst
logins get no grant on it.

Revision ID: 0017_reference_cache
Revises: 0015_backlog
Create Date: 2026-12-05 12:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0017_reference_cache"
down_revision: str | None = "0015_backlog"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The policy of ``0011_analyst_logins`` (its functions exist from that revision on).
POLICY = """
CREATE POLICY tenant_isolation ON reference_cache
    USING ((SELECT claimaudit_sees_every_tenant()) OR tenant_id = (SELECT claimaudit_session_tenant()))
    WITH CHECK ((SELECT claimaudit_sees_every_tenant()) OR tenant_id = (SELECT claimaudit_session_tenant()))
"""


def upgrade() -> None:
    op.create_table(
        "reference_cache",
        sa.Column("tenant_id", sa.Text(), nullable=False, server_default="default"),
        sa.Column("text_sha256", sa.String(64), nullable=False),
        sa.Column("engine_version", sa.String(64), nullable=False),
        sa.Column("claims", postgresql.JSONB(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.PrimaryKeyConstraint("tenant_id", "text_sha256", "engine_version", name="pk_reference_cache"),
    )
    op.execute("ALTER TABLE reference_cache ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE reference_cache FORCE ROW LEVEL SECURITY")
    op.execute(POLICY)


def downgrade() -> None:
    op.drop_table("reference_cache")
