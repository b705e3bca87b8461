"""SQLAlchemy models of tenants and API keys (migration ``0005_tenants``).

tenants     one row per tenant: its id (the ``tenant_id`` of every row of its audits) and its
            daily LLM token budget (NULL: the deployment default ``DAILY_TOKEN_BUDGET``).
api_keys    one row per API key: tenant, scopes, optional expiry, revocation, optional rate
            limits. The key itself is never stored: only the hex SHA-256 of it (``key_sha256``)
            and its first characters (``prefix``) so that a person can tell keys apart.

A key is 32 random bytes (``secrets.token_urlsafe(32)``, 256 bits) behind the ``ca_`` marker;
with that much entropy a plain SHA-256 is the right hash (nothing to brute-force, and one
indexed lookup per request), as for GitHub's or Stripe's tokens; slow password hashes are for
low-entropy secrets.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Integer, String, Text, func
from sqlalchemy.dialects.postgresql import ARRAY, UUID
from sqlalchemy.orm import Mapped, mapped_column

from db.models import Base

__all__ = ["SCOPES", "TenantRow", "ApiKeyRow"]

#: Every scope a key may hold: submit audits, read audits/claims/search/usage, manage keys.
SCOPES: tuple[str, ...] = ("audits:write", "audits:read", "admin", "operator")


class TenantRow(Base):
    __tablename__ = "tenants"
    __table_args__ = (CheckConstraint("id ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'", name="id"),)

    #: Letters, digits, ``_ . -``; 1 to 63 characters (it appears in every tenant row and in logs).
    id: Mapped[str] = mapped_column(Text, primary_key=True)
    #: Most LLM tokens (prompt + completion) per UTC day; NULL: ``DAILY_TOKEN_BUDGET``; 0: no LLM work.
    daily_token_budget: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class ApiKeyRow(Base):
    __tablename__ = "api_keys"
    __table_args__ = (
        CheckConstraint(
            "scopes <@ ARRAY['audits:write', 'audits:read', 'admin', 'operator']::text[]", name="scopes"
        ),
        CheckConstraint("requests_per_second IS NULL OR requests_per_second >= 0", name="rps"),
        CheckConstraint("audits_per_minute IS NULL OR audits_per_minute >= 0", name="apm"),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True, default=uuid.uuid4)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    name: Mapped[str] = mapped_column(Text, default="", server_default="")
    #: The first characters of the key (``ca_`` + 8), shown by ``keys list``; not secret enough to use.
    prefix: Mapped[str] = mapped_column(String(16))
    #: Hex SHA-256 of the whole key (UTF-8).
    key_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[list[str]] = mapped_column(ARRAY(Text))
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
    expires_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]
    last_used_at: Mapped[datetime | None]
    #: Requests per second (NULL: ``RATE_LIMIT_PER_SECOND``; 0: unlimited).
    requests_per_second: Mapped[int | None] = mapped_column(Integer)
    #: Audits submitted per minute, a batch counting each item (NULL: ``AUDITS_PER_MINUTE``; 0: unlimited).
    audits_per_minute: Mapped[int | None] = mapped_column(Integer)
