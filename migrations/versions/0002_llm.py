"""LLM path: response cache, usage ledger + daily view, judge records, HNSW index for OpenAI vectors.

Revision ID: 0002_llm
Revises: 0001_initial
Create Date: 2026-11-29 15:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002_llm"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (index name, model name, dimension) added to ``db.models.HNSW_INDEXES`` by this revision.
HNSW_INDEXES = (("ix_claims_embedding_hnsw_text_embedding_3_small", "text-embedding-3-small", 1536),)

LLM_USAGE_DAILY_VIEW = """
CREATE VIEW llm_usage_daily AS
SELECT
    (created_at AT TIME ZONE 'UTC')::date AS day,
    stage,
    model,
    count(DISTINCT audit_id)                AS audits,
    sum(calls)::bigint                      AS calls,
    sum(failed_calls)::bigint               AS failed_calls,
    sum(cache_hits)::bigint                 AS cache_hits,
    sum(prompt_tokens)::bigint              AS prompt_tokens,
    sum(completion_tokens)::bigint          AS completion_tokens,
    sum(prompt_tokens + completion_tokens)::bigint AS total_tokens,
    count(fallback)::bigint                 AS fallbacks
FROM llm_usage
GROUP BY 1, 2, 3
"""


def upgrade() -> None:
    op.create_table(
        "llm_cache",
        sa.Column("model", sa.Text(), nullable=False),
        sa.Column("prompt_version", sa.Text(), nullable=False),
        sa.Column("input_sha256", sa.String(length=64), nullable=False),
        sa.Column("response", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("model", "prompt_version", "input_sha256", name=op.f("pk_llm_cache")),
    )
    op.create_table(
        "llm_usage",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=True),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("model", sa.Text(), nullable=False),
        sa.Column("calls", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("failed_calls", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("cache_hits", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("fallback", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_llm_usage_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_llm_usage")),
    )
    op.create_index(op.f("ix_llm_usage_audit_id"), "llm_usage", ["audit_id"], unique=False)
    op.create_index("ix_llm_usage_created_at", "llm_usage", ["created_at"], unique=False)
    op.create_table(
        "llm_judgements",
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("response_index", sa.Integer(), nullable=False),
        sa.Column("rule_verdict", sa.String(length=32), nullable=False),
        sa.Column("judge_verdict", sa.String(length=32), nullable=False),
        sa.Column("judge_reason", sa.Text(), server_default="", nullable=False),
        sa.Column("final_verdict", sa.String(length=32), nullable=False),
        sa.Column("model", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_llm_judgements_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("audit_id", "response_index", name=op.f("pk_llm_judgements")),
    )
    for name, model, dim in HNSW_INDEXES:
        op.execute(
            f"CREATE INDEX {name} ON claims USING hnsw ((embedding::vector({dim})) vector_cosine_ops) "
            f"WHERE embedding_model = '{model}'"
        )
    op.execute(LLM_USAGE_DAILY_VIEW)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS llm_usage_daily")
    for name, _model, _dim in HNSW_INDEXES:
        op.execute(f"DROP INDEX IF EXISTS {name}")
    op.drop_table("llm_judgements")
    op.drop_index("ix_llm_usage_created_at", table_name="llm_usage")
    op.drop_index(op.f("ix_llm_usage_audit_id"), table_name="llm_usage")
    op.drop_table("llm_usage")
    op.drop_table("llm_cache")
