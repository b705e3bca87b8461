"""LLM formats: the structured-output format each endpoint and model accepts, and what each usage
row used.

``llm_formats`` has one row per (base URL, chat model): the format the server accepts
(``json_schema`` | ``json_object`` | ``prompted``; ``workers.adapters.formats``), the rejection
that led there, and when it was negotiated. ``llm_usage`` gains ``response_format`` (the format of
the row's chat requests) and ``scope`` (the claims a fallback affects).

Revision ID: 0013_llm_formats
Revises: 0010_audit_ended_notify
Create Date: 2026-12-05 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013_llm_formats"
down_revision: str | None = "0010_audit_ended_notify"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "llm_formats",
        sa.Column("base_url", sa.Text(), nullable=False),
        sa.Column("model", sa.Text(), nullable=False),
        sa.Column("response_format", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column(
            "negotiated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
        ),
        sa.PrimaryKeyConstraint("base_url", "model", name=op.f("pk_llm_formats")),
    )
    op.add_column("llm_usage", sa.Column("response_format", sa.Text(), nullable=True))
    op.add_column("llm_usage", sa.Column("scope", postgresql.JSONB(astext_type=sa.Text()), nullable=True))


def downgrade() -> None:
    op.drop_column("llm_usage", "scope")
    op.drop_column("llm_usage", "response_format")
    op.drop_table("llm_formats")
