"""Rejected lines of a run and the pinned baseline of a suite: ``run_rejections``, ``run_baselines``.

``run_rejections``: one row per input line a run could not audit (undecodable bytes, malformed
JSON, missing or wrong fields, an oversized text): its line number (1-based, null when the
items came without lines), the item id when the line had one, and the reason; unique per run
and ``key`` (the item id, else ``line N``), so a resumed batch records each line once.
``run_baselines``: the run a suite's later runs are compared with, pinned by
``claimaudit runs baseline`` (without a pin: the last finished run whose gate held). Both get
the fail-closed ``tenant_isolation`` policy of ``0011_analyst_logins`` and are readable by its
analyst logins; ``run_summaries`` gains ``rejected``.

Revision ID: 0012_run_baselines
Revises: 0011_analyst_logins
Create Date: 2026-12-05 12:00:00
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012_run_baselines"
down_revision: str | None = "0011_analyst_logins"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("run_rejections", "run_baselines")

#: ``run_summaries`` of ``0006_runs`` with one more column: the run's rejected lines.
_REJECTED = ",\n    (SELECT count(*) FROM run_rejections rr WHERE rr.run_id = r.id) AS rejected\nFROM runs r"


def _summaries(*, rejected: bool) -> str:
    """``CREATE OR REPLACE VIEW run_summaries`` (``security_invoker``, as ``0009`` set it), with
    the ``rejected`` column or as ``0006_runs`` made it."""
    text: str = _sibling("0006_runs.py").RUN_SUMMARIES_VIEW
    text = text.replace(
        "CREATE VIEW run_summaries AS",
        "CREATE OR REPLACE VIEW run_summaries WITH (security_invoker = true) AS",
    )
    return text.replace("\nFROM runs r", _REJECTED, 1) if rejected else text


def _sibling(filename: str) -> ModuleType:
    """Another revision file of this folder, loaded as a module (for its view texts)."""
    path = Path(__file__).with_name(filename)
    spec = importlib.util.spec_from_file_location(f"_claimaudit_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upgrade() -> None:
    op.create_table(
        "run_rejections",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("run_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("tenant_id", sa.Text(), server_default=sa.text("'default'"), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("item_id", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_rejections_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_rejections")),
        sa.UniqueConstraint("run_id", "key", name=op.f("uq_run_rejections_run_id_key")),
    )
    op.create_table(
        "run_baselines",
        sa.Column("tenant_id", sa.Text(), nullable=False),
        sa.Column("suite", sa.Text(), nullable=False),
        sa.Column("run_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("pinned_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "suite", name=op.f("pk_run_baselines")),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_baselines_run_id_runs"), ondelete="CASCADE"
        ),
    )
    logins = _sibling("0011_analyst_logins.py")
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(logins.POLICY.format(table=table))
        op.execute(f"GRANT SELECT ON {table} TO {logins.ANALYST_ROLE}")
    op.execute(_summaries(rejected=True))


def downgrade() -> None:
    op.execute("DROP VIEW run_summaries")
    op.execute(_summaries(rejected=False))
    op.execute(f"GRANT SELECT ON run_summaries TO {_sibling('0011_analyst_logins.py').ANALYST_ROLE}")
    op.drop_table("run_baselines")
    op.drop_table("run_rejections")
