"""The backlog of audits in Postgres: what the admission bounds (``service.backlog``), ``/readyz``
and ``/metrics`` read.

The backlog is the audits accepted and not yet finished (status ``queued`` or a stage; not one
of ``TERMINAL_STATUSES``), read over the partial index ``ix_audits_unfinished`` (migration
``0015_backlog``). Ages use the database's clock (``created_at`` is its ``now()``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, literal, select
from sqlalchemy.orm import Session

from db.models import TERMINAL_STATUSES, Audit

__all__ = ["ADMISSION_LOCK", "Backlog", "admission_lock", "measure", "drain_rate"]

#: The key of the transaction-level advisory lock that serialises admission
#: (``admission_lock``); any fixed 64-bit number no other code of this database takes.
ADMISSION_LOCK = 0x636C61696D6164


@dataclass(frozen=True, slots=True)
class Backlog:
    """The backlog now: ``queued`` unfinished audits of the deployment (>= 0), ``tenant_queued``
    of one tenant, ``oldest_age_s`` the age in seconds of the oldest one (None when there is
    none), ``over_age`` how many are older than the age bound asked for (0 when none was)."""

    queued: int
    tenant_queued: int
    oldest_age_s: float | None
    over_age: int


def measure(session: Session, tenant_id: str | None = None, *, max_age_s: float = 0.0) -> Backlog:
    """The backlog of the deployment and of ``tenant_id`` (``tenant_queued`` 0 when None), with
    the audits older than ``max_age_s`` seconds counted when ``max_age_s > 0``. One query."""
    now = func.now()
    tenant = func.count().filter(Audit.tenant_id == tenant_id) if tenant_id is not None else literal(0)
    older = func.count().filter(Audit.created_at < now - timedelta(seconds=max_age_s))
    row = session.execute(
        select(
            func.count(),
            tenant,
            func.extract("epoch", now - func.min(Audit.created_at)),
            older if max_age_s > 0 else literal(0),
        ).where(Audit.status.not_in(sorted(TERMINAL_STATUSES)))
    ).one()
    return Backlog(
        queued=int(row[0]),
        tenant_queued=int(row[1]),
        oldest_age_s=None if row[2] is None else max(0.0, float(row[2])),
        over_age=int(row[3]),
    )


def drain_rate(session: Session, window_s: float) -> float:
    """Audits finished (``finished_at`` set: done or failed) per second over the last
    ``window_s`` seconds of the database's clock (>= 0.0; ``window_s`` > 0)."""
    since = func.now() - timedelta(seconds=window_s)
    n = session.execute(select(func.count()).where(Audit.finished_at >= since)).scalar_one()
    return int(n) / window_s


def admission_lock(session: Session) -> None:
    """Wait for, then hold until ``session``'s transaction ends (commit or rollback), the
    deployment's admission lock (``pg_advisory_xact_lock(ADMISSION_LOCK)``).

    Taken before a request counts the backlog and released by the commit of its audits, so the
    next request's count sees them: count and insert are one step, whatever the number of API
    processes. Needs no privilege (advisory locks are open to every role, row-level security does
    not apply)."""
    session.execute(select(func.pg_advisory_xact_lock(ADMISSION_LOCK)))
