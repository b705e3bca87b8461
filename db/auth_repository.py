"""Every SQL statement of tenants, API keys and the per-tenant token budget.

Functions take a ``Session`` and never commit (the caller owns the transaction).
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from db.auth_models import SCOPES, ApiKeyRow, TenantRow
from db.llm_models import LLMUsageRow

__all__ = [
    "KEY_MARKER",
    "hash_key",
    "ensure_tenant",
    "create_api_key",
    "find_api_key",
    "get_api_key",
    "list_api_keys",
    "revoke_api_key",
    "touch_api_key",
    "tenant_budget",
    "set_tenant_budget",
    "tokens_today",
]

#: Every key starts with this marker (secret scanners and people can recognise one).
KEY_MARKER = "ca_"
_PREFIX_CHARS = len(KEY_MARKER) + 8


def hash_key(key: str) -> str:
    """Hex SHA-256 of the UTF-8 key: what ``api_keys.key_sha256`` stores (64 characters)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def ensure_tenant(session: Session, tenant_id: str) -> None:
    """Create the tenant when it does not exist (``ON CONFLICT DO NOTHING``).

    Raises ``sqlalchemy.exc.IntegrityError`` when ``tenant_id`` is not 1-63 letters, digits, ``_.-``.
    """
    session.execute(pg_insert(TenantRow).values(id=tenant_id).on_conflict_do_nothing())


def create_api_key(
    session: Session,
    *,
    tenant_id: str,
    scopes: Sequence[str],
    name: str = "",
    expires_at: datetime | None = None,
    requests_per_second: int | None = None,
    audits_per_minute: int | None = None,
) -> tuple[ApiKeyRow, str]:
    """Store a new key for ``tenant_id`` (created when new); return ``(row, key)``.

    The key is ``ca_`` + 43 URL-safe characters (32 random bytes from ``secrets``); only its
    SHA-256 is stored, so this is the only time it can be shown. Raises ``ValueError`` on an
    unknown or missing scope.
    """
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise ValueError(f"scopes must be some of {', '.join(SCOPES)}; got {list(scopes)!r}")
    ensure_tenant(session, tenant_id)
    key = KEY_MARKER + secrets.token_urlsafe(32)
    row = ApiKeyRow(
        id=uuid.uuid4(),
        tenant_id=tenant_id,
        name=name,
        prefix=key[:_PREFIX_CHARS],
        key_sha256=hash_key(key),
        scopes=sorted(set(scopes), key=SCOPES.index),
        expires_at=expires_at,
        requests_per_second=requests_per_second,
        audits_per_minute=audits_per_minute,
    )
    session.add(row)
    session.flush()
    session.refresh(row)
    return row, key


def find_api_key(session: Session, key: str) -> ApiKeyRow | None:
    """The key's row by its hash (revoked and expired ones too: the caller decides), or None."""
    return session.scalars(select(ApiKeyRow).where(ApiKeyRow.key_sha256 == hash_key(key))).one_or_none()


def get_api_key(session: Session, key_id: uuid.UUID, *, tenant_id: str | None) -> ApiKeyRow | None:
    """The key ``key_id`` (of ``tenant_id``; None: of any tenant, operator use), or None."""
    stmt = select(ApiKeyRow).where(ApiKeyRow.id == key_id)
    if tenant_id is not None:
        stmt = stmt.where(ApiKeyRow.tenant_id == tenant_id)
    return session.scalars(stmt).one_or_none()


def list_api_keys(session: Session, *, tenant_id: str | None) -> list[ApiKeyRow]:
    """Keys of ``tenant_id`` (None: every tenant), oldest first."""
    stmt = select(ApiKeyRow).order_by(ApiKeyRow.created_at, ApiKeyRow.id)
    if tenant_id is not None:
        stmt = stmt.where(ApiKeyRow.tenant_id == tenant_id)
    return list(session.scalars(stmt).all())


def revoke_api_key(session: Session, key_id: uuid.UUID, *, tenant_id: str | None) -> ApiKeyRow | None:
    """Set ``revoked_at = now()`` (kept when already revoked); the row, or None when not found."""
    row = get_api_key(session, key_id, tenant_id=tenant_id)
    if row is None:
        return None
    session.execute(
        update(ApiKeyRow)
        .where(ApiKeyRow.id == key_id, ApiKeyRow.revoked_at.is_(None))
        .values(revoked_at=func.now())
    )
    session.refresh(row)
    return row


def touch_api_key(session: Session, key_id: uuid.UUID) -> None:
    """``last_used_at = now()``, at most once a minute per key (one write per minute, not per request)."""
    session.execute(
        update(ApiKeyRow)
        .where(
            ApiKeyRow.id == key_id,
            (ApiKeyRow.last_used_at.is_(None))
            | (ApiKeyRow.last_used_at < func.now() - text("interval '1 minute'")),
        )
        .values(last_used_at=func.now())
    )


def tenant_budget(session: Session, tenant_id: str) -> int | None:
    """The tenant's own daily token budget, or None (then the deployment default applies)."""
    return session.scalar(select(TenantRow.daily_token_budget).where(TenantRow.id == tenant_id))


def set_tenant_budget(session: Session, tenant_id: str, budget: int | None) -> None:
    """Set (None: clear) the tenant's daily token budget; the tenant is created when new."""
    if budget is not None and budget < 0:
        raise ValueError(f"daily token budget must be >= 0, got {budget}")
    ensure_tenant(session, tenant_id)
    session.execute(update(TenantRow).where(TenantRow.id == tenant_id).values(daily_token_budget=budget))


def tokens_today(session: Session, tenant_id: str) -> int:
    """LLM tokens (prompt + completion) the tenant's usage ledger holds for the current UTC day."""
    day_start = func.date_trunc("day", func.timezone("UTC", func.now()))
    total = session.scalar(
        select(func.coalesce(func.sum(LLMUsageRow.prompt_tokens + LLMUsageRow.completion_tokens), 0)).where(
            LLMUsageRow.tenant_id == tenant_id,
            func.timezone("UTC", LLMUsageRow.created_at) >= day_start,
        )
    )
    return int(total or 0)
