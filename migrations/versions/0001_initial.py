"""Initial claim store: pgvector, audits, documents, claims, verdicts, evidence, scores, embedding cache.

Also the per-model partial HNSW index for search across history and two views for analysts
(``claim_verdicts``: one row per judged response claim with its best evidence; ``audit_scores``:
one row per audit with its scores). Downgrade leaves the ``vector`` extension installed (other
databases objects may use it; ``CREATE EXTENSION IF NOT EXISTS`` makes upgrade repeatable).

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-29 15:25:26.551162
"""

from __future__ import annotations

from collections.abc import Sequence

import pgvector.sqlalchemy
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001_initial"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


#: (index name, model name, dimension): must match ``db.models.HNSW_INDEXES`` at this revision.
HNSW_INDEXES = (("ix_claims_embedding_hnsw_minilm_l6_v2", "sentence-transformers/all-MiniLM-L6-v2", 384),)

CLAIM_VERDICTS_VIEW = """
CREATE VIEW claim_verdicts AS
SELECT
    a.id               AS audit_id,
    a.created_at       AS audit_created_at,
    a.status           AS audit_status,
    c.id               AS claim_id,
    c.position         AS claim_position,
    c.text             AS claim_text,
    c.kind             AS claim_kind,
    v.verdict,
    v.reason,
    v.change,
    rc.id              AS evidence_claim_id,
    rd.position        AS evidence_reference,
    rc.text            AS evidence_text,
    rc.char_start      AS evidence_start,
    rc.char_end        AS evidence_end,
    ev.similarity      AS evidence_similarity
FROM verdicts v
JOIN claims c  ON c.id = v.claim_id
JOIN audits a  ON a.id = v.audit_id
LEFT JOIN evidence ev ON ev.verdict_id = v.id AND ev.rank = 0
LEFT JOIN claims rc   ON rc.id = ev.reference_claim_id
LEFT JOIN documents rd ON rd.id = rc.document_id
"""

AUDIT_SCORES_VIEW = """
CREATE VIEW audit_scores AS
SELECT
    a.id AS audit_id, a.status, a.created_at, a.finished_at, a.question, a.metadata, a.config,
    s.claim_overlap, s.claim_similarity, s.claim_precision, s.claim_recall, s.claim_f1,
    s.claim_edit_distance, s.normalized_claim_edit_distance,
    s.levenshtein_similarity, s.normalized_levenshtein_distance,
    s.response_claims, s.reference_claims, s.supported, s.inferred, s.contradicted,
    s.qualification_dropped, s.unsupported, s.outside_scope, s.threshold, s.embedding_model
FROM audits a
LEFT JOIN scores s ON s.audit_id = a.id
"""


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.create_table(
        "audits",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="queued", nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("question", sa.Text(), nullable=True),
        sa.Column("metadata", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column(
            "config",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column("idempotency_key", sa.Text(), nullable=True),
        sa.Column("request_sha256", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("enqueued_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decomposing_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("embedding_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("matching_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("scoring_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('queued', 'decomposing', 'embedding', 'matching', 'scoring', 'done', 'failed', 'rejected')",  # noqa: E501
            name=op.f("ck_audits_status"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audits")),
        sa.UniqueConstraint("idempotency_key", name=op.f("uq_audits_idempotency_key")),
    )
    op.create_index(op.f("ix_audits_created_at"), "audits", ["created_at"], unique=False)
    op.create_index("ix_audits_status_created_at", "audits", ["status", "created_at"], unique=False)
    op.create_table(
        "embedding_cache",
        sa.Column("model", sa.Text(), nullable=False),
        sa.Column("text_sha256", sa.String(length=64), nullable=False),
        sa.Column("dim", sa.Integer(), nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("model", "text_sha256", name=op.f("pk_embedding_cache")),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.CheckConstraint("role IN ('response', 'reference')", name=op.f("ck_documents_role")),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_documents_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_documents")),
        sa.UniqueConstraint("audit_id", "role", "position", name=op.f("uq_documents_audit_id_role_position")),
    )
    op.create_index(op.f("ix_documents_sha256"), "documents", ["sha256"], unique=False)
    op.create_table(
        "scores",
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("claim_overlap", sa.Float(), nullable=True),
        sa.Column("claim_similarity", sa.Float(), nullable=True),
        sa.Column("claim_precision", sa.Float(), nullable=True),
        sa.Column("claim_recall", sa.Float(), nullable=True),
        sa.Column("claim_f1", sa.Float(), nullable=True),
        sa.Column("claim_edit_distance", sa.Integer(), nullable=True),
        sa.Column("normalized_claim_edit_distance", sa.Float(), nullable=True),
        sa.Column("levenshtein_similarity", sa.Float(), nullable=True),
        sa.Column("normalized_levenshtein_distance", sa.Float(), nullable=True),
        sa.Column("response_claims", sa.Integer(), nullable=False),
        sa.Column("reference_claims", sa.Integer(), nullable=False),
        sa.Column("supported", sa.Integer(), nullable=False),
        sa.Column("inferred", sa.Integer(), nullable=False),
        sa.Column("contradicted", sa.Integer(), nullable=False),
        sa.Column("qualification_dropped", sa.Integer(), nullable=False),
        sa.Column("unsupported", sa.Integer(), nullable=False),
        sa.Column("outside_scope", sa.Integer(), nullable=False),
        sa.Column("threshold", sa.Float(), nullable=False),
        sa.Column("embedding_model", sa.Text(), nullable=False),
        sa.Column(
            "edit_script",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_scores_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("audit_id", name=op.f("pk_scores")),
    )
    op.create_table(
        "claims",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("document_id", sa.BigInteger(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("char_start", sa.Integer(), nullable=False),
        sa.Column("char_end", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("duplicates", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("ambiguous", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.vector.VECTOR(), nullable=True),
        sa.Column("embedding_model", sa.Text(), nullable=True),
        sa.Column("embedding_dim", sa.Integer(), nullable=True),
        sa.CheckConstraint("kind IN ('material', 'outside_scope')", name=op.f("ck_claims_kind")),
        sa.CheckConstraint("role IN ('response', 'reference')", name=op.f("ck_claims_role")),
        sa.CheckConstraint("0 <= char_start AND char_start <= char_end", name=op.f("ck_claims_span")),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_claims_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_claims_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claims")),
        sa.UniqueConstraint("document_id", "position", name=op.f("uq_claims_document_id_position")),
    )
    op.create_index("ix_claims_audit_id_role", "claims", ["audit_id", "role"], unique=False)
    op.create_table(
        "verdicts",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("claim_id", sa.BigInteger(), nullable=False),
        sa.Column("verdict", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), server_default="", nullable=False),
        sa.Column("change", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "verdict IN ('supported', 'inferred', 'contradicted', 'qualification_dropped', 'unsupported', 'outside_scope')",  # noqa: E501
            name=op.f("ck_verdicts_verdict"),
        ),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_verdicts_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["claim_id"], ["claims.id"], name=op.f("fk_verdicts_claim_id_claims"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verdicts")),
        sa.UniqueConstraint("claim_id", name=op.f("uq_verdicts_claim_id")),
    )
    op.create_index(op.f("ix_verdicts_audit_id"), "verdicts", ["audit_id"], unique=False)
    op.create_table(
        "evidence",
        sa.Column("verdict_id", sa.BigInteger(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("audit_id", sa.UUID(), nullable=False),
        sa.Column("reference_claim_id", sa.BigInteger(), nullable=False),
        sa.Column("similarity", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["audit_id"], ["audits.id"], name=op.f("fk_evidence_audit_id_audits"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["reference_claim_id"],
            ["claims.id"],
            name=op.f("fk_evidence_reference_claim_id_claims"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["verdict_id"], ["verdicts.id"], name=op.f("fk_evidence_verdict_id_verdicts"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("verdict_id", "rank", name=op.f("pk_evidence")),
    )
    op.create_index(op.f("ix_evidence_audit_id"), "evidence", ["audit_id"], unique=False)
    op.create_index(op.f("ix_evidence_reference_claim_id"), "evidence", ["reference_claim_id"], unique=False)
    for name, model, dim in HNSW_INDEXES:
        op.execute(
            f"CREATE INDEX {name} ON claims USING hnsw ((embedding::vector({dim})) vector_cosine_ops) "
            f"WHERE embedding_model = '{model}'"
        )
    op.execute(CLAIM_VERDICTS_VIEW)
    op.execute(AUDIT_SCORES_VIEW)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS audit_scores")
    op.execute("DROP VIEW IF EXISTS claim_verdicts")
    for name, _model, _dim in HNSW_INDEXES:
        op.execute(f"DROP INDEX IF EXISTS {name}")
    op.drop_index(op.f("ix_evidence_reference_claim_id"), table_name="evidence")
    op.drop_index(op.f("ix_evidence_audit_id"), table_name="evidence")
    op.drop_table("evidence")
    op.drop_index(op.f("ix_verdicts_audit_id"), table_name="verdicts")
    op.drop_table("verdicts")
    op.drop_index("ix_claims_audit_id_role", table_name="claims")
    op.drop_table("claims")
    op.drop_table("scores")
    op.drop_index(op.f("ix_documents_sha256"), table_name="documents")
    op.drop_table("documents")
    op.drop_table("embedding_cache")
    op.drop_index("ix_audits_status_created_at", table_name="audits")
    op.drop_index(op.f("ix_audits_created_at"), table_name="audits")
    op.drop_table("audits")
