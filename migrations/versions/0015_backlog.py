"""Backlog: indexes for the admission bounds (``service.backlog``) and the drain rate.

``ix_audits_unfinished`` covers the unfinished audits only (status not done, failed or
rejected) by ``(created_at, tenant_id)``: the deployment's and a tenant's queued audits and the
oldest one's age are read from it without touching the finished rows. ``ix_audits_finished_at``
serves the drain rate (audits finished in the last minute).

Revision ID: 0015_backlog
Revises: 0014_admission
Create Date: 2026-12-05 09:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_backlog"
down_revision: str | None = "0014_admission"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNFINISHED = "status NOT IN ('done', 'failed', 'rejected')"


def upgrade() -> None:
    op.create_index(
        "ix_audits_unfinished",
        "audits",
        ["created_at", "tenant_id"],
        postgresql_where=sa.text(UNFINISHED),
    )
    op.create_index("ix_audits_finished_at", "audits", ["finished_at"])


def downgrade() -> None:
    op.drop_index("ix_audits_finished_at", table_name="audits")
    op.drop_index("ix_audits_unfinished", table_name="audits")
