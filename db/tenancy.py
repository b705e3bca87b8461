"""Bind a session to a tenant for Postgres row-level security (the backstop behind the filters).

``bind_tenant(session, tenant_id)`` makes every transaction of that session start with
``SELECT set_config('claimaudit.tenant_id', tenant_id, true)`` (transaction-local, so a pooled
connection never carries it to the next request). The ``tenant_isolation`` policies of migration
``0005_tenants`` then hide other tenants' rows and refuse writes of them, in every table with
tenant data and in the views (``security_invoker``). A session that binds no tenant (workers,
migrations, the CLI) sees every row. Superusers bypass row-level security: deploy the API with a
role that is not one (README, "Tenants, API keys and limits").
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, text
from sqlalchemy.orm import Session

__all__ = ["TENANT_SETTING", "bind_tenant", "bound_tenant"]

#: The Postgres setting the policies read.
TENANT_SETTING = "claimaudit.tenant_id"
_INFO_KEY = "claimaudit_tenant_id"
_SET = text(f"SELECT set_config('{TENANT_SETTING}', :tenant, true)")


def bound_tenant(session: Session) -> str | None:
    """The tenant ``session`` is bound to, or None."""
    value = session.info.get(_INFO_KEY)
    return None if value is None else str(value)


def bind_tenant(session: Session, tenant_id: str) -> None:
    """Bind ``session`` (this and every later transaction of it) to ``tenant_id``."""
    session.info[_INFO_KEY] = tenant_id
    if session.in_transaction():
        session.execute(_SET, {"tenant": tenant_id})


@event.listens_for(Session, "after_begin")
def _set_tenant(session: Session, _transaction: Any, connection: Any) -> None:
    tenant = bound_tenant(session)
    if tenant is not None:
        connection.execute(_SET, {"tenant": tenant})
