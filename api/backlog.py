"""The backlog bounds at the API's admission points (``workers.backlog``): ``POST /audits``,
``/audits/batch`` and ``/runs`` call ``refuse_when_full`` before they store anything.

A refusal answers 503 (deployment bound) or 429 (the tenant's bound) with ``Retry-After`` and
is counted in ``claimaudit_admission_refusals_total{reason}``.
"""

from __future__ import annotations

from fastapi import HTTPException
from sqlalchemy.orm import Session

from db.tenancy import deployment_session
from workers import metrics
from workers.backlog import BacklogFull, check_backlog
from workers.settings import Settings

__all__ = ["refuse_when_full"]


def refuse_when_full(session: Session, tenant_id: str, settings: Settings) -> None:
    """Raise the 503/429 ``HTTPException`` (``Retry-After`` set) when the backlog is past a
    bound of ``settings``; return None otherwise. Reads only, in a session of its own bound to no
    tenant (``session`` is bound to the caller's: under row-level security it sees only its rows)."""
    try:
        with deployment_session(session) as everyone:  # the request's session sees one tenant
            check_backlog(
                everyone,
                tenant_id,
                max_queued=settings.max_queued_audits,
                max_queued_per_tenant=settings.max_queued_audits_per_tenant,
                max_age_s=settings.max_backlog_age_s,
            )
    except BacklogFull as full:
        metrics.ADMISSION_REFUSALS.labels(full.reason).inc()
        item = {"loc": [], "msg": full.detail, "type": full.reason}
        raise HTTPException(
            full.status_code, detail=[item], headers={"Retry-After": str(full.retry_after)}
        ) from None
