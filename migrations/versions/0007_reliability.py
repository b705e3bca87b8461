"""Stage leases and fencing: ``audits.attempt``, ``audits.lease_expires_at``, ``audits.stage_runs``.

``attempt`` is the fencing token of the stage run that holds the audit (NULL while the next stage
waits in the queue), ``lease_expires_at`` the deadline after which the sweeper hands the audit to
the queue again from its current stage, ``stage_runs`` how many runs of the current stage started
(the sweeper fails an audit whose stage keeps dying). A partial index serves the sweeper's scan.

Revision ID: 0007_reliability
Revises: 0006_runs
Create Date: 2026-11-30 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007_reliability"
down_revision: str | None = "0006_runs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ACTIVE = "status NOT IN ('done', 'failed', 'rejected')"


def upgrade() -> None:
    op.add_column("audits", sa.Column("attempt", postgresql.UUID(as_uuid=True), nullable=True))
    op.add_column("audits", sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("audits", sa.Column("stage_runs", sa.Integer(), server_default="0", nullable=False))
    op.create_index(
        "ix_audits_active_lease", "audits", ["lease_expires_at"], postgresql_where=sa.text(_ACTIVE)
    )
    # audits already queued or running when the migration runs: due for the sweeper at once
    op.execute(f"UPDATE audits SET lease_expires_at = now() WHERE {_ACTIVE}")


def downgrade() -> None:
    op.drop_index("ix_audits_active_lease", table_name="audits", postgresql_where=sa.text(_ACTIVE))
    op.drop_column("audits", "stage_runs")
    op.drop_column("audits", "lease_expires_at")
    op.drop_column("audits", "attempt")
