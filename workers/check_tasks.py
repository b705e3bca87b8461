"""Celery task of the audit method's checks: ``checks.after_done``, the last link of every chain."""

from __future__ import annotations

import logging
import uuid

from celery import Task

from db import checks_repository as checks_repo
from db import leases
from db.engine import session_scope
from service import checks, metrics
from service.settings import get_settings
from workers.celery_app import app
from workers.database import get_session_factory
from workers.errors import TRANSIENT_ERRORS
from workers.pipeline import enqueue_audits
from workers.tasks import task

log = logging.getLogger(__name__)


@task(
    name="checks.after_done",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=get_settings().task_max_retries,
)
def after_done(self: Task, audit_id: str | list[str]) -> list[str]:
    """Run what follows a done audit (``service.checks.after_done``; each audit of a bundle's
    list in turn), commit, then enqueue the audits it created. Never changes the audit's own
    rows; an audit that is not done is left alone.

    Idempotent: agreement rows are replaced, derived audits are found by idempotency key.
    Retries: transient database/broker errors, exponential backoff with jitter; for a bundle
    only the audits not yet handled are retried, and one audit's own error is logged without
    stopping the others.
    """
    if not isinstance(audit_id, list):
        return _after_done_one(uuid.UUID(audit_id))
    created: list[str] = []
    for index, one in enumerate(audit_id):
        try:
            created += _after_done_one(uuid.UUID(str(one)))
        except TRANSIENT_ERRORS as exc:
            rest = audit_id[index:]
            raise self.retry(
                args=(rest,), exc=exc, countdown=min(60, 2 ** (self.request.retries + 1))
            ) from exc
        except Exception:
            log.exception("audit %s: the checks after it failed; the other audits of its bundle go on", one)
    return created


def _after_done_one(aid: uuid.UUID) -> list[str]:
    factory = get_session_factory()
    with session_scope(factory) as session:
        created = checks.after_done(session, aid, get_settings())
        canary = checks_repo.canary_outcome(session, aid)
    if canary is not None:
        metrics.CANARIES.labels(canary[0], str(canary[1]).lower()).inc()
    sent = enqueue_audits(created)
    if sent:
        with session_scope(factory) as session:
            leases.mark_sent(session, sent, pending_s=get_settings().requeue_after_s)
    return [str(i) for i in created]


__all__ = ["after_done", "app"]
