"""Models of the analysts' tables (migration ``0011_analyst_logins``).

sql_logins         one row per tenant-bound SQL login ever made: its role name, tenant, label,
                   creation and revocation. Written only by its owner, through the functions
                   ``claimaudit_create_sql_login`` / ``claimaudit_revoke_sql_login``
                   (``db.sql_logins``); each role reads its own row, ``claimaudit_service`` all.
run_claim_changes  the response claims of a finished run whose verdict differs from the paired
                   claim of the previous finished run of the same tenant and suite, paired as
                   ``claims.run_diff.pair_claims`` pairs them (``db.runs.record_claim_changes``);
                   the view ``run_claim_flips`` reads it with texts and verdicts.
reference_verdict_audits
                   per audit and reference document key (sha256, source id, URL, title): the
                   response claims whose best evidence came from it, and their verdict counts;
                   recomputed by triggers in the transaction that writes evidence, verdicts or
                   documents (migration ``0019_reference_rollup``); the view
                   ``reference_verdicts`` sums it per tenant and key. No primary key (the key
                   columns may be null): a Core table, never written through the ORM.

Roles and policies: ``db.tenancy``.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
)
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from db.models import Base

__all__ = ["LOGIN_ROLE_PATTERN", "SqlLoginRow", "RunClaimChange", "reference_verdict_audits"]

#: A login's role name: ``ca_`` and 1-60 of ``a-z 0-9 _`` (Postgres allows 63 bytes).
LOGIN_ROLE_PATTERN = r"^ca_[a-z0-9_]{1,60}$"


class SqlLoginRow(Base):
    __tablename__ = "sql_logins"
    __table_args__ = (
        CheckConstraint(f"role_name ~ '{LOGIN_ROLE_PATTERN}'", name="role_name"),
        Index(
            "uq_sql_logins_role_name",
            "role_name",
            unique=True,
            postgresql_where=sql_text("revoked_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    #: The Postgres role (``LOGIN``, member of ``claimaudit_analyst``) bound to the tenant.
    role_name: Mapped[str] = mapped_column(Text)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    #: A label for people (who uses the login).
    name: Mapped[str] = mapped_column(Text, default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
    #: Set by a revocation: the role is dropped (or left ``NOLOGIN``) and binds nothing any more.
    revoked_at: Mapped[datetime | None]


class RunClaimChange(Base):
    __tablename__ = "run_claim_changes"

    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    #: The run item (matched across the two runs by its id).
    item_id: Mapped[str] = mapped_column(Text, primary_key=True)
    #: ``claims.position`` of the response claim in this run's audit of the item.
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    tenant_id: Mapped[str] = mapped_column(Text, default="default", server_default="default")
    previous_run_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("runs.id", ondelete="CASCADE"), index=True
    )
    #: ``claims.position`` of the paired claim in the previous run's audit of the item.
    previous_position: Mapped[int] = mapped_column(Integer)
    #: rapidfuzz ratio (0-1) of the two normalised texts; 1.0 for equal texts.
    similarity: Mapped[float] = mapped_column(Float)


#: The verdict columns of ``reference_verdict_audits`` (and of the view ``reference_verdicts``).
_ROLLUP_VERDICTS = ("supported", "inferred", "contradicted", "qualification_dropped", "unsupported")

reference_verdict_audits = Table(
    "reference_verdict_audits",
    Base.metadata,
    Column("tenant_id", Text, nullable=False, index=True),
    Column("audit_id", UUID(as_uuid=True), nullable=False, index=True),
    Column("reference_sha256", String(64), nullable=False),
    Column("reference_id", Text),
    Column("reference_url", Text),
    Column("reference_title", Text),
    Column("claims", BigInteger, nullable=False),
    *(Column(verdict, BigInteger, nullable=False) for verdict in _ROLLUP_VERDICTS),
)
