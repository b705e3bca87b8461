"""The sweeper: hands every unfinished audit whose lease expired back to the queue, from its stage.

It runs in the main process of every worker, every ``SWEEP_INTERVAL_S`` seconds (a bootstep on
the worker's event-loop timer, so a backlog in the queue cannot delay it), at worker start, and
as the task ``audits.requeue_stale`` (``celery beat``, the CLI). One sweep:

1. notices when the broker lost its data (Redis restarted without persistence): the key
   ``claimaudit:broker-epoch:<CELERY_QUEUE>`` has vanished (this sweep created it again) or was
   created anew by another worker; then every audit whose waiting message went out before the
   broker started (Redis ``uptime_in_seconds``) is due at once, not only after
   ``REQUEUE_AFTER_S``. A worker that starts after the loss (the loss ended the worker that saw
   it, or no worker ran) notices it too: it finds the key missing. Messages sent since the
   broker started are in it and are not sent twice;
2. claims the due audits (``db.leases.claim_due``: expired leases, audits never enqueued);
3. fails, with a reason, an audit whose stage already started ``STAGE_MAX_RUNS`` times
   (a poison audit that kills its worker every time);
4. sends each other one's chain from its current stage; a send that fails (broker down) makes
   the audit due again at the next sweep.

Idempotent: a duplicate chain is harmless, the stage tasks are fenced (``db.leases``).
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import Any

from celery import bootsteps

from db import leases
from db.engine import session_scope
from service.settings import Settings, get_settings
from workers.database import get_session_factory
from workers.pipeline import TASK_OF_STATUS, enqueue_audit

__all__ = ["sweep", "broker_lost_data", "SweeperStep"]

log = logging.getLogger(__name__)

_epoch: dict[str, str] = {}


#: Seconds added to the broker's start time when deciding which messages it lost (clock skew
#: between Redis and Postgres, and the time a send takes).
LOST_MARGIN_S = 5.0


def broker_lost_data(settings: Settings) -> datetime | None:
    """When the broker lost its data: the time from which it holds messages again (its start:
    Redis ``TIME`` less ``uptime_in_seconds``, plus ``LOST_MARGIN_S``), else None.

    Lost: the epoch key was missing (this call sets it; a broker that restarted empty, or a new
    one) or was set anew by another worker since this process last looked. None on broker errors
    and while the key this process saw stays."""
    import redis

    key = f"claimaudit:broker-epoch:{settings.celery_queue}"
    try:
        client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=2, socket_timeout=2)
        try:
            created = bool(client.set(key, uuid.uuid4().hex, nx=True))
            current = client.get(key)
            seconds, micros = client.time()
            uptime = float(client.info("server")["uptime_in_seconds"])
        finally:
            client.close()
    except redis.RedisError:
        return None
    value = current.decode() if isinstance(current, bytes) else str(current)
    seen = _epoch.get(key)
    _epoch[key] = value
    if not (created or (seen is not None and seen != value)):
        return None
    started = seconds + micros / 1e6 - uptime + LOST_MARGIN_S
    return datetime.fromtimestamp(started, UTC)


def sweep(settings: Settings | None = None, *, all_pending: bool = False) -> int:
    """Run one sweep (see the module docstring); returns the number of audits sent to the queue.

    ``all_pending``: treat every audit waiting for its next stage as due. When
    :func:`broker_lost_data` says the broker lost its data, every audit whose waiting message
    went out before the broker's start is due. Raises database errors (the caller logs them).
    """
    settings = settings or get_settings()
    lost_since = broker_lost_data(settings)
    if lost_since is not None:
        log.warning("the broker lost its data: every audit waiting in the queue is sent again")
    factory = get_session_factory()
    with session_scope(factory) as session:
        due = leases.claim_due(
            session,
            unsent_after_s=settings.unsent_after_s,
            pending_s=settings.requeue_after_s,
            all_pending=all_pending,
            pending_sent_before=lost_since,
        )
        exhausted = [d for d in due if d.status != "queued" and d.stage_runs >= settings.stage_max_runs]
        for d in exhausted:
            leases.fail_stage(
                session,
                d.audit_id,
                d.status,
                f"{d.status} failed: the stage started {d.stage_runs} times without finishing "
                f"(its worker died or its lease expired each time; STAGE_MAX_RUNS={settings.stage_max_runs})",
            )
    return _send(settings, [d for d in due if d not in exhausted])


def _send(settings: Settings, due: list[leases.Due]) -> int:
    factory = get_session_factory()
    sent: list[uuid.UUID] = []
    unsent: list[uuid.UUID] = []
    for d in due:
        if unsent:  # the broker is down: the rest waits for the next sweep
            unsent.append(d.audit_id)
            continue
        try:
            enqueue_audit(d.audit_id, first=TASK_OF_STATUS[d.status])
            sent.append(d.audit_id)
        except Exception as exc:
            log.warning("sweeper: could not send audit %s (%s)", d.audit_id, type(exc).__name__)
            unsent.append(d.audit_id)
    with session_scope(factory) as session:
        leases.mark_sent(session, sent, pending_s=settings.requeue_after_s)
        leases.release_due(session, unsent)
    if sent:
        log.warning("sweeper: sent %d audits to the queue again", len(sent))
    return len(sent)


def _tick() -> None:
    try:
        sweep()
    except Exception as exc:  # database down: the next tick tries again
        log.warning("sweeper: sweep failed (%s: %s)", type(exc).__name__, str(exc)[:200])


class SweeperStep(bootsteps.StartStopStep):  # type: ignore[misc]
    """Worker bootstep: run :func:`sweep` every ``SWEEP_INTERVAL_S`` s on the event-loop timer."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        interval = get_settings().sweep_interval_s
        worker.timer.call_after(1.0, _tick)
        self.tref = worker.timer.call_repeatedly(interval, _tick)

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
