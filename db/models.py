"""SQLAlchemy 2 models of the claim store. The schema itself is created by Alembic only.

Tables (names chosen for analysts writing SQL):

audits          one row per submitted audit: status, per-stage timestamps, error, config, idempotency
documents       the texts of an audit: one response (position 0) and its references (position = index)
claims          atomic claims of every document, with character spans and their embedding
verdicts        one row per response claim: verdict, reason, change, confidence
evidence        the evidence claims (reference claims) of each verdict, best first, with cosine similarity
scores          one row per finished audit: every score, the counts and the claim edit script
embedding_cache vectors keyed by (model, sha256 of the text), shared by every audit

Tenancy (migration ``0005_tenants``): every table holding an audit's data has ``tenant_id TEXT NOT
NULL DEFAULT 'default'``. ``audits.tenant_id`` is set by the API from the caller's key; the other
tables copy it from their audit in a ``BEFORE INSERT`` trigger (``tenant_from_audit``), so a row
can never belong to another tenant than its audit and the workers need not carry it. Row-level
security (policy ``tenant_isolation``, failing closed since ``0011_analyst_logins``) shows a
deployment session the tenant it bound with ``claimaudit.tenant_id``, an analyst's SQL login
the tenant it is bound to, and any other role nothing (``db.tenancy``). Tenants and API keys:
``db.auth_models``; SQL logins: ``db.sql_logins``.

``claims.embedding`` is a ``vector`` without a fixed dimension so that several embedding models
live side by side; ``embedding_model`` and ``embedding_dim`` say which. Search across history uses a
per-model partial expression HNSW index (created in the migrations, see ``HNSW_INDEXES``); matching
inside one audit is an exact scan filtered by ``audit_id``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy import (
    text as sql_text,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from claims.types import AuditStatus, ClaimKind, Role, Verdict

__all__ = [
    "DEFAULT_TENANT",
    "TENANT_TABLES",
    "TENANT_CHILD_TABLES",
    "AUDIT_STATUSES",
    "STAGES",
    "TERMINAL_STATUSES",
    "HNSW_INDEXES",
    "Base",
    "Audit",
    "Document",
    "ClaimRow",
    "VerdictRow",
    "EvidenceRow",
    "ScoreRow",
    "EmbeddingCacheRow",
    "ReferenceCacheRow",
    "NotifyChannelRow",
]

#: Tenant of rows stored before migration 0005 and of the local stack's key.
DEFAULT_TENANT = "default"

#: Pipeline stages in order (an audit's ``status`` is one of these while it runs), every status,
#: the terminal ones, roles, kinds and verdicts: plain strings (the column values), taken from
#: the one vocabulary of ``claims.types``.
AUDIT_STATUSES: tuple[str, ...] = tuple(s.value for s in AuditStatus)
STAGES: tuple[str, ...] = AUDIT_STATUSES[1:5]
TERMINAL_STATUSES: frozenset[str] = frozenset(AUDIT_STATUSES[5:])
ROLES: tuple[str, ...] = tuple(r.value for r in Role)
KINDS: tuple[str, ...] = tuple(k.value for k in ClaimKind)
VERDICTS: tuple[str, ...] = tuple(v.value for v in Verdict)

#: (index name, model name, dimension) of the partial HNSW indexes on ``claims.embedding``.
#: Created by migrations (not declared on the model: Alembic cannot compare expression indexes);
#: ``migrations/env.py`` ignores indexes whose name starts with ``ix_claims_embedding_hnsw``.
HNSW_INDEXES: tuple[tuple[str, str, int], ...] = (
    ("ix_claims_embedding_hnsw_minilm_l6_v2", "sentence-transformers/all-MiniLM-L6-v2", 384),
    # migration 0002_llm: OpenAI embeddings (workers.adapters.embedder)
    ("ix_claims_embedding_hnsw_text_embedding_3_small", "text-embedding-3-small", 1536),
)

#: Tables of an audit's data whose ``tenant_id`` a trigger copies from the audit (migration 0005).
TENANT_CHILD_TABLES: tuple[str, ...] = (
    "documents",
    "claims",
    "verdicts",
    "evidence",
    "scores",
    "llm_usage",
    "llm_judgements",
)
#: Every table with tenant data (row-level security policy ``tenant_isolation``).
TENANT_TABLES: tuple[str, ...] = ("audits", *TENANT_CHILD_TABLES)

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {
        datetime: DateTime(timezone=True),
        dict[str, Any]: JSONB,
        list[Any]: JSONB,
    }


class Audit(Base):
    __tablename__ = "audits"
    __table_args__ = (
        CheckConstraint(_in("status", AUDIT_STATUSES), name="status"),
        Index("ix_audits_status_created_at", "status", "created_at"),
        # the sweeper's scan (migration 0007_reliability)
        Index(
            "ix_audits_active_lease",
            "lease_expires_at",
            postgresql_where=sql_text("status NOT IN ('done', 'failed', 'rejected')"),
        ),
        Index("ix_audits_tenant_id_created_at", "tenant_id", "created_at"),
        # the backlog bounds and the drain rate (service.backlog; migration 0015_backlog)
        Index(
            "ix_audits_unfinished",
            "created_at",
            "tenant_id",
            postgresql_where=sql_text("status NOT IN ('done', 'failed', 'rejected')"),
        ),
        Index("ix_audits_finished_at", "finished_at"),
        # analysts' filters on metadata (``metadata @> '{"model": "m"}'``; migration 0011)
        Index("ix_audits_metadata", "metadata", postgresql_using="gin"),
        #: Idempotency keys are unique per tenant (two tenants may both use "order-42").
        UniqueConstraint("tenant_id", "idempotency_key"),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    tenant_id: Mapped[str] = mapped_column(Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT)
    status: Mapped[str] = mapped_column(String(16), default="queued", server_default="queued")
    #: The stage running now, or the stage an audit failed in (None before the first stage).
    stage: Mapped[str | None] = mapped_column(String(16))
    error: Mapped[str | None] = mapped_column(Text)
    question: Mapped[str | None] = mapped_column(Text)
    metadata_: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONB)
    config: Mapped[dict[str, Any]] = mapped_column(
        JSONB, default=dict, server_default=sql_text("'{}'::jsonb")
    )
    idempotency_key: Mapped[str | None] = mapped_column(Text)
    #: SHA-256 of the canonical JSON of the request body (idempotency conflict detection).
    request_sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(server_default=func.now(), index=True)
    enqueued_at: Mapped[datetime | None]
    decomposing_at: Mapped[datetime | None]
    embedding_at: Mapped[datetime | None]
    matching_at: Mapped[datetime | None]
    scoring_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    #: Fencing token of the stage run holding the audit; NULL while its next stage waits in the queue.
    attempt: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    #: When the sweeper may hand the audit to the queue again (from its current stage); NULL when finished.
    lease_expires_at: Mapped[datetime | None]
    #: Runs of the current stage started so far (reset when the audit moves on).
    stage_runs: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Document(Base):
    __tablename__ = "documents"
    __table_args__ = (
        CheckConstraint(_in("role", ROLES), name="role"),
        UniqueConstraint("audit_id", "role", "position"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"))
    tenant_id: Mapped[str] = mapped_column(
        Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT
    )  # copied from the audit by trigger
    role: Mapped[str] = mapped_column(String(16))
    #: 0 for the response; the 0-based reference index for references.
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    #: A reference sent as ``{"text", "id"?, "url"?, "title"?}``: the caller's id, URL and title
    #: of the source document (NULL otherwise and for the response; migration 0011).
    source_id: Mapped[str | None] = mapped_column(Text)
    source_url: Mapped[str | None] = mapped_column(Text)
    source_title: Mapped[str | None] = mapped_column(Text)


class ClaimRow(Base):
    __tablename__ = "claims"
    __table_args__ = (
        CheckConstraint(_in("role", ROLES), name="role"),
        CheckConstraint(_in("kind", KINDS), name="kind"),
        CheckConstraint("0 <= char_start AND char_start <= char_end", name="span"),
        UniqueConstraint("document_id", "position"),
        Index("ix_claims_audit_id_role", "audit_id", "role"),
        Index("ix_claims_tenant_id_embedding_model", "tenant_id", "embedding_model"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"))
    tenant_id: Mapped[str] = mapped_column(
        Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT
    )  # copied from the audit by trigger
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(16))
    #: 0-based order of the claim within its document.
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    #: Character span [char_start, char_end) in the document text (Python str indices).
    char_start: Mapped[int] = mapped_column(Integer)
    char_end: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    duplicates: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    ambiguous: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sql_text("false"))
    embedding: Mapped[Any | None] = mapped_column(Vector())
    embedding_model: Mapped[str | None] = mapped_column(Text)
    embedding_dim: Mapped[int | None] = mapped_column(Integer)


class VerdictRow(Base):
    __tablename__ = "verdicts"
    __table_args__ = (
        CheckConstraint(_in("verdict", VERDICTS), name="verdict"),
        CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), index=True)
    tenant_id: Mapped[str] = mapped_column(
        Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT
    )  # copied from the audit by trigger
    #: The response claim judged (one verdict per response claim).
    claim_id: Mapped[int] = mapped_column(ForeignKey("claims.id", ondelete="CASCADE"), unique=True)
    verdict: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text, default="", server_default="")
    #: What a substitution must change, e.g. "2001 → 2004" (contradicted / qualification_dropped).
    change: Mapped[str | None] = mapped_column(Text)
    #: Calibrated probability in [0, 1] that the verdict is right (``claims.decision``); NULL when
    #: no calibrated decision gave one (migration 0003).
    confidence: Mapped[float | None] = mapped_column(Float)
    #: The claim's best cosine in [-1, 1] over the audit's material reference claims; NULL when
    #: it has none (``claims.score.MatchSummary``, written by the match stage, read by the score
    #: stage instead of the cosine matrix; migration 0022).
    best_similarity: Mapped[float | None] = mapped_column(Float)
    #: The reference claim (``claims.id``) the edit script substitutes for this claim; NULL for a
    #: claim it does not substitute (``claims.score.MatchSummary``; migration 0022).
    substitute_claim_id: Mapped[int | None] = mapped_column(BigInteger)


class EvidenceRow(Base):
    __tablename__ = "evidence"

    verdict_id: Mapped[int] = mapped_column(ForeignKey("verdicts.id", ondelete="CASCADE"), primary_key=True)
    #: 0 = best evidence.
    rank: Mapped[int] = mapped_column(Integer, primary_key=True)
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), index=True)
    tenant_id: Mapped[str] = mapped_column(
        Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT
    )  # copied from the audit by trigger
    reference_claim_id: Mapped[int] = mapped_column(ForeignKey("claims.id", ondelete="CASCADE"), index=True)
    #: Cosine similarity in [-1, 1].
    similarity: Mapped[float] = mapped_column(Float)


class ScoreRow(Base):
    __tablename__ = "scores"

    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(
        Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT
    )  # copied from the audit by trigger
    claim_overlap: Mapped[float | None] = mapped_column(Float)
    claim_similarity: Mapped[float | None] = mapped_column(Float)
    claim_precision: Mapped[float | None] = mapped_column(Float)
    claim_recall: Mapped[float | None] = mapped_column(Float)
    claim_f1: Mapped[float | None] = mapped_column(Float)
    claim_edit_distance: Mapped[int | None] = mapped_column(Integer)
    normalized_claim_edit_distance: Mapped[float | None] = mapped_column(Float)
    levenshtein_similarity: Mapped[float | None] = mapped_column(Float)
    normalized_levenshtein_distance: Mapped[float | None] = mapped_column(Float)
    response_claims: Mapped[int] = mapped_column(Integer)
    reference_claims: Mapped[int] = mapped_column(Integer)
    supported: Mapped[int] = mapped_column(Integer)
    inferred: Mapped[int] = mapped_column(Integer)
    contradicted: Mapped[int] = mapped_column(Integer)
    qualification_dropped: Mapped[int] = mapped_column(Integer)
    unsupported: Mapped[int] = mapped_column(Integer)
    outside_scope: Mapped[int] = mapped_column(Integer)
    #: Cosine threshold the audit was scored with.
    threshold: Mapped[float] = mapped_column(Float)
    embedding_model: Mapped[str] = mapped_column(Text)
    #: [{"op", "response_claim" (index|null), "reference_claim" (flat index|null), "reason"}].
    edit_script: Mapped[list[Any]] = mapped_column(
        JSONB, default=list, server_default=sql_text("'[]'::jsonb")
    )
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class EmbeddingCacheRow(Base):
    __tablename__ = "embedding_cache"

    model: Mapped[str] = mapped_column(Text, primary_key=True)
    #: Hex SHA-256 of the UTF-8 text (``claims.embed.text_key``).
    text_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    dim: Mapped[int] = mapped_column(Integer)
    embedding: Mapped[Any] = mapped_column(Vector())
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class ReferenceCacheRow(Base):
    """The offline decomposition of one reference text, per tenant and engine version
    (migration ``0017_reference_cache``; ``db.reference_cache``)."""

    __tablename__ = "reference_cache"

    tenant_id: Mapped[str] = mapped_column(Text, primary_key=True, server_default=DEFAULT_TENANT)
    #: Hex SHA-256 of the UTF-8 text.
    text_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: ``claims.engine_version.engine_version()`` of the engine that decomposed it.
    engine_version: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: ``[{"text", "start", "end", "kind", "position", "duplicates", "ambiguous"}, ...]``.
    claims: Mapped[list[dict[str, Any]]] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class NotifyChannelRow(Base):
    """The private name of a notification channel (migration ``0018_private_channels``): read by
    the deployment's roles only, so no analyst login can listen on it or notify it."""

    __tablename__ = "claimaudit_channels"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    channel: Mapped[str] = mapped_column(Text)
