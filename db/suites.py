"""SQL of suites (schedule, source, webhook, gate), webhook deliveries and suite sources. Never commits.

Functions take ``tenant_id`` (keyword, default ``"default"``) and touch that tenant's rows only,
except the scheduler's reads (``scheduled_suites``, ``claim_slot``), which serve every tenant.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from db.run_models import Suite, WebhookDelivery
from db.tenancy import SERVICE_ROLE, TENANT_SETTING, bind_tenant

__all__ = [
    "SuiteSpec",
    "upsert_suite",
    "get_suite",
    "list_suites",
    "delete_suite",
    "scheduled_suites",
    "claim_slot",
    "fetch_sql_source",
    "create_delivery",
    "get_delivery",
    "record_attempt",
    "list_deliveries",
]


@dataclass(frozen=True, slots=True)
class SuiteSpec:
    """A suite as defined in YAML or ``PUT /suites/{name}`` (validated by the caller).

    ``initial_slot``: the cron slot at or before the definition time (None without ``cron``);
    stored as ``last_slot_at`` when the suite is new or its cron changed, so a new schedule
    first fires at its next slot, not at once.
    """

    name: str
    cron: str | None = None
    source_kind: str | None = None
    source: str | None = None
    sample_size: int | None = None
    #: Canaries per fault kind per run (``service.checks``); None: none.
    canaries: int | None = None
    config: Mapping[str, Any] = field(default_factory=dict)
    webhook_url: str | None = None
    webhook_secret: str | None = None
    gate: Mapping[str, Any] = field(default_factory=dict)
    enabled: bool = True
    initial_slot: datetime | None = None


def upsert_suite(session: Session, spec: SuiteSpec, *, tenant_id: str = "default") -> tuple[Suite, bool]:
    """Insert or replace the suite ``(tenant_id, spec.name)``; ``(suite, created)``.

    ``last_slot_at`` is set to ``spec.initial_slot`` for a new suite or a changed cron, and kept
    otherwise (redefining a suite does not make it run again for a slot it already ran).
    """
    existing = get_suite(session, spec.name, tenant_id=tenant_id)
    values: dict[str, Any] = {
        "cron": spec.cron,
        "source_kind": spec.source_kind,
        "source": spec.source,
        "sample_size": spec.sample_size,
        "canaries": spec.canaries,
        "config": dict(spec.config),
        "webhook_url": spec.webhook_url,
        "webhook_secret": spec.webhook_secret,
        "gate": dict(spec.gate),
        "enabled": spec.enabled,
    }
    if existing is None or existing.cron != spec.cron:
        values["last_slot_at"] = spec.initial_slot
    stmt = (
        pg_insert(Suite)
        .values(id=uuid.uuid4(), tenant_id=tenant_id, name=spec.name, **values)
        .on_conflict_do_update(
            index_elements=[Suite.tenant_id, Suite.name], set_={**values, "updated_at": func.now()}
        )
    )
    session.execute(stmt)
    suite = get_suite(session, spec.name, tenant_id=tenant_id)
    assert suite is not None
    return suite, existing is None


def get_suite(session: Session, name: str, *, tenant_id: str = "default") -> Suite | None:
    """The suite, or None."""
    return session.scalars(
        select(Suite)
        .where(Suite.tenant_id == tenant_id, Suite.name == name)
        .execution_options(populate_existing=True)
    ).one_or_none()


def list_suites(session: Session, *, tenant_id: str = "default") -> list[Suite]:
    """The tenant's suites by name."""
    return list(session.scalars(select(Suite).where(Suite.tenant_id == tenant_id).order_by(Suite.name)).all())


def delete_suite(session: Session, name: str, *, tenant_id: str = "default") -> bool:
    """Delete the suite definition (its runs stay); True when it existed."""
    suite = get_suite(session, name, tenant_id=tenant_id)
    if suite is None:
        return False
    session.delete(suite)
    return True


def scheduled_suites(session: Session) -> list[Suite]:
    """Every tenant's enabled suites that have a cron expression and a source (the scheduler's read)."""
    return list(
        session.scalars(
            select(Suite)
            .where(Suite.enabled.is_(True), Suite.cron.is_not(None), Suite.source.is_not(None))
            .order_by(Suite.tenant_id, Suite.name)
        ).all()
    )


def claim_slot(session: Session, suite_id: uuid.UUID, slot: datetime) -> bool:
    """Claim cron slot ``slot`` of a suite: raise ``last_slot_at`` to it unless it is already there.

    True for exactly one caller per slot (conditional ``UPDATE ... RETURNING`` under the row
    lock), so two schedulers, or one restarted after an outage, never start a slot twice.
    """
    stmt = (
        update(Suite)
        .where(Suite.id == suite_id, (Suite.last_slot_at.is_(None)) | (Suite.last_slot_at < slot))
        .values(last_slot_at=slot)
        .returning(Suite.id)
        .execution_options(synchronize_session=False)
    )
    return session.execute(stmt).scalar_one_or_none() is not None


_WHO = text(
    "SELECT current_user AS name, r.rolsuper OR r.rolbypassrls AS bypasses, "
    f"current_setting('{TENANT_SETTING}', true) AS tenant, claimaudit_session_tenant() AS sees "
    "FROM pg_roles r WHERE r.rolname = current_user"
)


def fetch_sql_source(
    session: Session,
    query: str,
    *,
    tenant_id: str,
    role: str | None = None,
    timeout_s: float = 30.0,
    limit: int = 100_000,
) -> list[dict[str, Any]]:
    """Rows of a suite's SQL source (columns id, question, response, references), as its tenant sees them.

    The query runs as one ``SELECT`` (wrapped as a subquery and sent with a parameter, so a second
    statement is a syntax error) in a ``READ ONLY`` transaction with ``statement_timeout`` set, the
    session bound to ``tenant_id`` (row-level security) and, when ``role`` is given, under
    ``SET LOCAL ROLE role``. Row-level security does not apply to superusers and BYPASSRLS roles:
    when the effective role is one, the query is refused (``ValueError`` saying so), as it is when
    the query leaves the tenant, the role or the tenant the policies grant changed. A role outside
    ``claimaudit_service`` reads no row of the tables under row-level security (the policies fail
    closed for a role bound to no tenant), only tables of its own. None of
    this is a sandbox: the query can change settings (``set_config``, also in forms no pattern
    catches) and so read whatever ``role`` can read, other tenants' rows included; that is why SQL
    sources are allowed per tenant by the operator (``SUITE_SQL_TENANTS``). Call it in a session
    of its own on a connection that is closed afterwards (``workers.run_tasks``), so no setting
    outlives it. ``references`` may be a text array, a JSON array or one text, each reference a
    text or ``{"text", "id"?, "url"?, "title"?}``. ``ValueError`` names a missing column.
    """
    body = query.strip().rstrip(";").rstrip()
    bind_tenant(session, tenant_id)
    session.execute(text("SET TRANSACTION READ ONLY"))
    session.execute(
        text("SELECT set_config('statement_timeout', :ms, true)"), {"ms": str(max(1, int(timeout_s * 1000)))}
    )
    if role:
        session.execute(text('SET LOCAL ROLE "' + role.replace('"', '""') + '"'))
    who = session.execute(_WHO).one()
    if who.bypasses:
        raise ValueError(
            f"the database role {who.name!r} bypasses row-level security (superuser or BYPASSRLS): "
            "a SQL source would see every tenant's rows; set SUITE_SQL_ROLE to a plain member of "
            f"{SERVICE_ROLE}"
        )
    escaped = body.replace(":", "\\:")  # the query's colons are its own, not bind parameters
    result = session.execute(text(f"SELECT * FROM ({escaped}\n) AS source LIMIT :limit"), {"limit": limit})
    names = list(result.keys())
    rows = [dict(zip(names, row, strict=True)) for row in result.fetchall()]
    after = session.execute(_WHO).one()
    if (after.name, after.tenant, after.sees) != (who.name, who.tenant, who.sees):
        raise ValueError("source query changed the session's role or tenant; its rows are refused")
    missing = [c for c in ("id", "response", "references") if c not in names]
    if missing:
        raise ValueError(f"source query returns no column(s) {', '.join(missing)} (it returns {names})")
    return rows


# --------------------------------------------------------------------------- webhook deliveries


def create_delivery(
    session: Session,
    *,
    run_id: uuid.UUID | None,
    event: str,
    url: str,
    payload: dict[str, Any],
    tenant_id: str = "default",
) -> WebhookDelivery:
    """A pending delivery of ``payload`` (JSON object) to ``url``."""
    row = WebhookDelivery(tenant_id=tenant_id, run_id=run_id, event=event, url=url, payload=payload)
    session.add(row)
    session.flush()
    return row


def get_delivery(session: Session, delivery_id: int) -> WebhookDelivery | None:
    """The delivery (any tenant: the delivery task's read), or None."""
    return session.get(WebhookDelivery, delivery_id, populate_existing=True)


def record_attempt(
    session: Session,
    delivery_id: int,
    *,
    status_code: int | None,
    error: str | None,
    delivered: bool,
    final: bool,
) -> None:
    """Count one attempt of a pending delivery; ``delivered`` → status delivered, else ``final`` →
    failed, else pending. A delivery no longer pending (delivered or failed by another attempt) is
    left as it is."""
    status = "delivered" if delivered else ("failed" if final else "pending")
    session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id, WebhookDelivery.status == "pending")
        .values(
            attempts=WebhookDelivery.attempts + 1,
            last_status_code=status_code,
            last_error=None if error is None else error[:2000],
            status=status,
            delivered_at=func.now() if delivered else None,
        )
    )


def list_deliveries(
    session: Session, *, run_id: uuid.UUID | None = None, tenant_id: str = "default"
) -> Sequence[WebhookDelivery]:
    """The tenant's deliveries (optionally of one run), oldest first."""
    conds = [WebhookDelivery.tenant_id == tenant_id]
    if run_id is not None:
        conds.append(WebhookDelivery.run_id == run_id)
    return session.scalars(select(WebhookDelivery).where(*conds).order_by(WebhookDelivery.id)).all()
