"""Bind a session to a tenant for Postgres row-level security (the backstop behind the filters).

``bind_tenant(session, tenant_id)`` makes every transaction of that session start with
``SELECT set_config('claimaudit.tenant_id', tenant_id, true)`` (transaction-local, so a pooled
connection never carries it to the next request). The ``tenant_isolation`` policy of every table
with tenant data (migrations ``0005_tenants``, ``0011_analyst_logins``) then hides other
tenants' rows and refuses writes of them, also through the views (``security_invoker``).

The policy fails closed. Who sees what:

- a member of ``SERVICE_ROLE`` (the deployment's own logins: API, workers, migrations, CLI)
  sees every tenant while it binds none, and the bound tenant once it binds one. Only such a
  role may use the setting;
- an analyst login (``db.sql_logins``; member of ``ANALYST_ROLE``) sees the tenant its role is
  bound to in ``sql_logins``, read through ``current_user``: no setting, ``SET ROLE`` or
  ``RESET`` changes it;
- any other role sees no row, with or without the setting.

Superusers (the local stack connects as one) and ``BYPASSRLS`` roles bypass row-level security:
deploy the API and workers as plain members of ``SERVICE_ROLE`` (README, "Tenants, API keys and
limits").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.orm import Session

__all__ = [
    "TENANT_SETTING",
    "SERVICE_ROLE",
    "ANALYST_ROLE",
    "ANALYST_TABLES",
    "ANALYST_VIEWS",
    "bind_tenant",
    "bound_tenant",
    "deployment_session",
]

#: The Postgres setting the policies read.
TENANT_SETTING = "claimaudit.tenant_id"
#: Group role of the deployment's logins (migration ``0011_analyst_logins``).
SERVICE_ROLE = "claimaudit_service"
#: Group role of the analysts' tenant-bound logins: ``SELECT`` on the analyst tables and views.
ANALYST_ROLE = "claimaudit_analyst"
#: What an analyst login reads (``SELECT``; README, "The claim store in SQL"). Not granted: the
#: keys, tenants, caches, suites (webhook secrets), webhook deliveries, ``alembic_version``.
ANALYST_TABLES: tuple[str, ...] = (
    "audits", "documents", "claims", "verdicts", "evidence", "scores", "llm_usage", "llm_judgements",
    "runs", "run_items", "run_claim_changes", "run_rejections", "run_baselines",
    "reference_verdict_audits",
    "canaries", "second_audits", "second_audit_claims", "corrections", "claim_labels",
)  # fmt: skip
ANALYST_VIEWS: tuple[str, ...] = (
    "claim_verdicts", "audit_scores", "llm_usage_daily", "run_audits", "run_summaries",
    "run_claim_flips", "audits_daily", "reference_verdicts",
    "canary_results", "canary_detection", "canary_detection_daily", "label_agreement",
)  # fmt: skip
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


@contextmanager
def deployment_session(session: Session) -> Iterator[Session]:
    """A new session on ``session``'s engine bound to no tenant, for deployment-wide reads of the
    deployment's own role (the backlog bounds, ``/metrics``) while ``session`` is bound to a
    caller's tenant; rolled back and closed on exit."""
    unbound = Session(session.get_bind())
    try:
        yield unbound
    finally:
        unbound.rollback()
        unbound.close()


@event.listens_for(Session, "after_begin")
def _set_tenant(session: Session, _transaction: Any, connection: Any) -> None:
    tenant = bound_tenant(session)
    if tenant is not None:
        connection.execute(_SET, {"tenant": tenant})
