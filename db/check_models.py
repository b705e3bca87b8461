"""Models of the audit method's own checks (migration ``0008_method_checks``).

canaries             an audit made from another audit's references with one planted fault
second_audits        the same texts audited again with another configuration, and the agreement
second_audit_claims  per response claim of the first audit: its verdict and the second auditor's
corrections          the corrected response of an audit and the re-audit that checks it
claim_labels         human verdicts on response claims (or on a whole audit: ``claim_position`` NULL)

Every table carries ``tenant_id``, set by trigger from the audit (``second_audit_claims``: from
its second audit) and under the forced row-level security policy ``tenant_isolation``. Views
(``canary_results``, ``canary_detection``, ``canary_detection_daily``, ``label_agreement``,
``security_invoker``) are created by the migration.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from db.models import VERDICTS, Base

__all__ = [
    "AUDIT_LABELS",
    "CANARY_KINDS",
    "CLAIM_TYPES",
    "CanaryRow",
    "SecondAuditRow",
    "SecondAuditClaimRow",
    "CorrectionRow",
    "ClaimLabelRow",
    "CHECK_TABLES",
    "CHECK_VIEWS",
]

#: The tables and views of migration ``0008_method_checks`` (all under row-level security).
CHECK_TABLES: tuple[str, ...] = (
    "canaries",
    "second_audits",
    "second_audit_claims",
    "corrections",
    "claim_labels",
)
CHECK_VIEWS: tuple[str, ...] = (
    "canary_results",
    "canary_detection",
    "canary_detection_daily",
    "label_agreement",
)

CANARY_KINDS: tuple[str, ...] = ("number", "date", "negation", "entity", "roles", "addition", "qualifier")
CLAIM_TYPES: tuple[str, ...] = ("number", "date", "entity", "negation", "other")
AUDIT_LABELS: tuple[str, ...] = ("support", "partial", "not_supported", "refute")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _tenant() -> Mapped[str]:
    return mapped_column(Text, default="default", server_default="default")


class CanaryRow(Base):
    __tablename__ = "canaries"
    __table_args__ = (CheckConstraint(_in("kind", CANARY_KINDS), name="kind"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = _tenant()
    #: The audit whose references the canary was made from.
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), index=True)
    #: The audit of the canary answer (same references and config).
    canary_audit_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("audits.id", ondelete="CASCADE"), unique=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    #: The verdict the fault calls for (``claims.canary.EXPECTED``).
    expected: Mapped[str] = mapped_column(String(32))
    original: Mapped[str] = mapped_column(Text)
    change: Mapped[str] = mapped_column(Text)
    reference: Mapped[int] = mapped_column(Integer)
    #: Span [fault_start, fault_end) of the fault in the canary answer (code points).
    fault_start: Mapped[int] = mapped_column(Integer)
    fault_end: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class SecondAuditRow(Base):
    __tablename__ = "second_audits"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = _tenant()
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), index=True)
    second_audit_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("audits.id", ondelete="CASCADE"), unique=True
    )
    #: The second auditor's config overrides (merged over the first audit's config).
    config: Mapped[dict[str, Any]] = mapped_column(JSONB)
    #: Why it exists: ``sample`` (SECOND_AUDIT_SHARE) or ``request`` (API / CLI).
    reason: Mapped[str] = mapped_column(String(16))
    #: Filled when the second audit is done (``checks.after_done``); NULL before.
    claims: Mapped[int | None] = mapped_column(Integer)
    agreed: Mapped[int | None] = mapped_column(Integer)
    kappa: Mapped[float | None] = mapped_column(Float)
    confusion: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    computed_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class SecondAuditClaimRow(Base):
    __tablename__ = "second_audit_claims"

    #: Copied from the second audit by the trigger ``tenant_from_second_audit`` (0008_method_checks).
    tenant_id: Mapped[str] = _tenant()
    second_audit_row_id: Mapped[int] = mapped_column(
        ForeignKey("second_audits.id", ondelete="CASCADE"), primary_key=True
    )
    #: Position of the response claim in the first audit.
    claim_position: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: Position of the paired claim in the second audit (most overlapping span); NULL: none.
    second_position: Mapped[int | None] = mapped_column(Integer)
    claim_type: Mapped[str] = mapped_column(String(16))
    claim_text: Mapped[str] = mapped_column(Text)
    verdict: Mapped[str] = mapped_column(String(32))
    second_verdict: Mapped[str | None] = mapped_column(String(32))
    agrees: Mapped[bool] = mapped_column(Boolean)


class CorrectionRow(Base):
    __tablename__ = "corrections"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = _tenant()
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), unique=True)
    #: The re-audit of the corrected text (NULL when nothing needed correcting).
    corrected_audit_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("audits.id", ondelete="CASCADE"), unique=True
    )
    corrected_text: Mapped[str] = mapped_column(Text)
    #: ``claims.correct.CorrectionEdit`` as JSON, in text order.
    edits: Mapped[list[Any]] = mapped_column(JSONB, default=list, server_default=sql_text("'[]'::jsonb"))
    #: True: the re-audit accepts every material claim; False: flagged; NULL: not re-audited yet.
    passes: Mapped[bool | None] = mapped_column(Boolean)
    checked_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class ClaimLabelRow(Base):
    __tablename__ = "claim_labels"
    __table_args__ = (
        UniqueConstraint("audit_id", "claim_position", "reviewer", postgresql_nulls_not_distinct=True),
        CheckConstraint(
            f"(claim_position IS NULL AND {_in('label', AUDIT_LABELS)}) OR "
            f"(claim_position >= 0 AND {_in('label', VERDICTS)})",
            name="label",
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = _tenant()
    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), index=True)
    #: Position of the response claim; NULL: a label of the whole audit (support, partial, ...).
    claim_position: Mapped[int | None] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String(32))
    reviewer: Mapped[str] = mapped_column(Text, default="", server_default="")
    note: Mapped[str | None] = mapped_column(Text)
    #: ``claims.agreement.claim_type`` of the claim's text (NULL on audit labels).
    claim_type: Mapped[str | None] = mapped_column(String(16))
    source: Mapped[str] = mapped_column(String(16), default="api", server_default="api")
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(server_default=func.now())
