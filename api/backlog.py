"""The backlog bounds (``service.backlog``) as a check of the admission path
(``service.admission.admit``'s ``checks``): every API entry point that stores audits
(``POST /audits``, ``/audits/batch``, ``/runs``, the method checks) runs it through
``api.audit_service.admit`` before it stores anything.

The count bounds are checked under the admission lock (``db.backlog.admission_lock``), taken in
the request's own transaction and released by the commit of its audits, so two requests never
pass a bound on the same count.

A refusal answers 503 (deployment bound) or 429 (the tenant's bound) with ``Retry-After``, its
error type the bound's reason (``backlog``, ``tenant_backlog``, ``backlog_age``); every admission
refusal with a reason is counted in ``claimaudit_admission_refusals_total{reason}``
(``api.audit_service.admit``).
"""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from db.backlog import admission_lock
from service import admission
from service.backlog import BacklogFull, check_backlog
from service.settings import Settings

__all__ = ["backlog_check"]


def backlog_check(session: Session, settings: Settings, engine: Engine | None = None) -> admission.Check:
    """The admission check of the backlog bounds of ``settings``: a refusal when the backlog is
    past a bound, or the request's ``count`` audits would pass a count bound
    (``service.backlog.check_backlog``), else None; nothing when the request admits no audit.

    With a count bound set, it first takes the admission lock in ``session``
    (``db.backlog.admission_lock``), held until the caller commits the audits it stores (or rolls
    back): concurrent requests are counted one after the other. Reads in a session of its own on
    ``engine`` (default: ``session``'s), bound to no tenant (``session`` is bound to the caller's:
    under row-level security it sees only its rows). The API passes an engine with a pool of its
    own, so the lock's holder never waits for a connection held by the requests behind it."""

    def check(submitter: admission.Submitter, count: int) -> admission.Refusal | None:
        if count == 0:
            return None
        if settings.max_queued_audits > 0 or settings.max_queued_audits_per_tenant > 0:
            admission_lock(session)
        try:
            with Session(engine or session.get_bind()) as everyone:
                check_backlog(
                    everyone,
                    submitter.tenant_id,
                    max_queued=settings.max_queued_audits,
                    max_queued_per_tenant=settings.max_queued_audits_per_tenant,
                    max_age_s=settings.max_backlog_age_s,
                    incoming=count,
                )
        except BacklogFull as full:
            return admission.Refusal(
                full.status_code, full.detail, retry_after=full.retry_after, reason=full.reason
            )
        return None

    return check
