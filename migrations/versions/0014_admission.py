"""Admission: the ``operator`` scope (a key that reads the deployment-wide ``/metrics``).

``api_keys.scopes`` may hold ``operator`` besides ``audits:write``, ``audits:read`` and ``admin``.
Only ``claimaudit keys create`` grants it (a tenant's ``POST /admin/keys`` cannot). No new table.

Revision ID: 0014_admission
Revises: 0013_llm_formats
Create Date: 2026-12-05 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014_admission"
down_revision: str | None = "0013_llm_formats"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = "scopes <@ ARRAY['audits:write', 'audits:read', 'admin']::text[]"
_NEW = "scopes <@ ARRAY['audits:write', 'audits:read', 'admin', 'operator']::text[]"


def upgrade() -> None:
    op.drop_constraint(op.f("ck_api_keys_scopes"), "api_keys", type_="check")
    op.create_check_constraint(op.f("ck_api_keys_scopes"), "api_keys", _NEW)


def downgrade() -> None:
    op.execute("UPDATE api_keys SET scopes = array_remove(scopes, 'operator')")
    op.drop_constraint(op.f("ck_api_keys_scopes"), "api_keys", type_="check")
    op.create_check_constraint(op.f("ck_api_keys_scopes"), "api_keys", _OLD)
