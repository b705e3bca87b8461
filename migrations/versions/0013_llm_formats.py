"""LLM formats: the structured-output format each endpoint and model accepts, and what each usage
row used.

``llm_formats`` has one row per (base URL, chat model): the format the server accepts
(``json_schema`` | ``json_object`` | ``prompted``; ``service.llm_formats``), the rejection
that led there, and when it was negotiated. It is shared by every tenant, like ``llm_cache``:
row-level security lets only the deployment's roles read or write it (``service_only`` of
``0011_analyst_logins``). ``llm_usage`` gains ``response_format`` (the format of the row's chat
requests) and ``scope`` (the claims a fallback affects).

Revision ID: 0013_llm_formats
Revises: 0012_run_baselines
Create Date: 2026-12-05 09:00:00
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013_llm_formats"
down_revision: str | None = "0012_run_baselines"
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
    op.execute("ALTER TABLE llm_formats ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE llm_formats FORCE ROW LEVEL SECURITY")
    op.execute(_service_policy().format(table="llm_formats"))
    op.add_column("llm_usage", sa.Column("response_format", sa.Text(), nullable=True))
    op.add_column("llm_usage", sa.Column("scope", postgresql.JSONB(astext_type=sa.Text()), nullable=True))


def _service_policy() -> str:
    """``SERVICE_POLICY`` of ``0011_analyst_logins`` (the deployment's roles only)."""
    path = Path(__file__).with_name("0011_analyst_logins.py")
    spec = importlib.util.spec_from_file_location(f"_claimaudit_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.SERVICE_POLICY)


def downgrade() -> None:
    op.drop_column("llm_usage", "scope")
    op.drop_column("llm_usage", "response_format")
    op.drop_table("llm_formats")
