"""Stage leases, fencing tokens and the sweeper's claim: the SQL that keeps every audit recoverable.

An audit that is not finished always has a lease deadline (``audits.lease_expires_at``):

- ``queued`` and enqueued, or a stage finished and the next one sent: the deadline is "pending"
  (``REQUEUE_AFTER_S``); ``attempt`` is NULL, so the next stage's task may start at once;
- a stage running: ``attempt`` holds the run's fencing token and the deadline is renewed every
  third of ``STAGE_LEASE_S`` by the run's heartbeat.

When the deadline passes, the sweeper (``workers.sweeper``) claims the audit and sends it to the
queue again from its current stage. A run writes its stage's rows in one transaction that ends
with :func:`finish_stage`; that statement matches only while the run's token is still the
audit's ``attempt``, so a late or duplicate run (its lease expired and another run took over,
or the audit moved on) rolls back and changes nothing.

Every timestamp is the database's clock (one clock for every process): ``now()``, except
``finished_at``, which is ``clock_timestamp()`` (the end of the stage's transaction, not its
start). Functions take a ``Session`` and never commit.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Interval,
    Table,
    Update,
    and_,
    bindparam,
    case,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session

from db.models import STAGES, TERMINAL_STATUSES, Audit

__all__ = [
    "Outcome",
    "StageStart",
    "Due",
    "NEXT_STATUS",
    "begin_stage",
    "begin_stages",
    "renew_lease",
    "release_stage",
    "finish_stage",
    "finish_stages",
    "fail_stage",
    "held_by",
    "claim_due",
    "mark_sent",
    "release_due",
]

#: The status an audit moves to when a stage finishes (``done`` after scoring).
NEXT_STATUS: dict[str, str] = {
    **{stage: nxt for stage, nxt in zip(STAGES, STAGES[1:], strict=False)},
    STAGES[-1]: "done",
}
#: Statuses from which a stage's task may start (``queued``: the first stage was never started).
_ENTRY: dict[str, tuple[str, ...]] = {stage: (stage,) for stage in STAGES} | {
    STAGES[0]: ("queued", STAGES[0])
}
_ORDER = {status: i for i, status in enumerate(("queued", *STAGES))}


class Outcome(enum.Enum):
    """What :func:`begin_stage` found."""

    STARTED = "started"  #: this run holds the lease (``token``)
    FINISHED = "finished"  #: the audit is done/failed/rejected, or missing
    AHEAD = "ahead"  #: the audit is past this stage (a duplicate of an earlier message)
    BEHIND = "behind"  #: the audit has not reached this stage (an out-of-order message)
    HELD = "held"  #: another live run holds this stage's lease


@dataclass(frozen=True, slots=True)
class StageStart:
    """Result of :func:`begin_stage`; ``token`` and ``runs`` are set when ``outcome`` is STARTED."""

    outcome: Outcome
    status: str | None = None
    token: uuid.UUID | None = None
    runs: int = 0


@dataclass(frozen=True, slots=True)
class Due:
    """An audit the sweeper claimed: where it stands and how many runs its stage already had."""

    audit_id: uuid.UUID
    status: str
    stage_runs: int


_AUDITS: Table = Audit.__table__  # type: ignore[assignment]  # a Table at run time


@cache
def _begin_statement(stage: str, with_previous: bool) -> Update:
    """The UPDATE of :func:`begin_stages` for ``stage``, built once (Core, bound parameters
    ``ids``, ``token``, ``lease_for``, and ``previous`` when ``with_previous``): the worker runs
    it at every stage of every audit, and building the statement cost more than running it."""
    c = _AUDITS.c
    free = or_(c.attempt.is_(None), c.lease_expires_at.is_(None), c.lease_expires_at < func.now())
    if with_previous:
        free = or_(free, c.attempt == bindparam("previous", type_=c.attempt.type))
    return (
        update(_AUDITS)
        .where(c.id.in_(bindparam("ids", expanding=True)), c.status.in_(_ENTRY[stage]), free)
        .values(
            {
                "status": stage,
                "stage": stage,
                f"{stage}_at": func.now(),
                "error": None,
                "attempt": bindparam("token", type_=c.attempt.type),
                "lease_expires_at": func.now() + bindparam("lease_for", type_=Interval()),
                "stage_runs": c.stage_runs + 1,
            }
        )
        .returning(c.id, c.status, c.stage_runs)
    )


@cache
def _finish_statement(stage: str) -> Update:
    """The UPDATE of :func:`finish_stages` for ``stage``, built once (Core, bound parameters
    ``ids``, ``token``, ``pending_for``)."""
    c = _AUDITS.c
    nxt = NEXT_STATUS[stage]
    values: dict[str, object] = {"status": nxt, "attempt": None, "stage_runs": 0}
    if nxt == "done":
        # clock_timestamp(), not now(): the stage's rows are written in this same transaction, and
        # now() would be its start (finished_at would miss the last stage's work)
        values |= {
            "stage": None,
            "error": None,
            "finished_at": func.clock_timestamp(),
            "lease_expires_at": None,
        }
    else:
        values |= {"lease_expires_at": func.now() + bindparam("pending_for", type_=Interval())}
    return (
        update(_AUDITS)
        .where(
            c.id.in_(bindparam("ids", expanding=True)),
            c.status == stage,
            c.attempt == bindparam("token", type_=c.attempt.type),
        )
        .values(values)
        .returning(c.id)
    )


def _after(seconds: float) -> ColumnElement[Any]:
    return func.now() + timedelta(seconds=seconds)


def begin_stage(
    session: Session, audit_id: uuid.UUID, stage: str, *, lease_s: float, previous: uuid.UUID | None = None
) -> StageStart:
    """Take the lease of ``stage`` with a new fencing token, if the audit is ready for it.

    The audit must stand at this stage (``queued`` too for the first stage) and no other run
    may hold a live lease (``attempt`` NULL, ``lease_expires_at`` past, or ``attempt`` equal to
    ``previous``: the token of this task's own earlier try, which a retry takes over). Sets ``status`` and
    ``stage`` to ``stage``, ``<stage>_at = now()``, ``lease_expires_at = now() + lease_s``,
    clears ``error`` and counts the run in ``stage_runs``.

    Raises ``ValueError`` for an unknown stage.
    """
    _, starts = begin_stages(session, [audit_id], stage, lease_s=lease_s, previous=previous)
    return starts[audit_id]


def begin_stages(
    session: Session,
    audit_ids: Sequence[uuid.UUID],
    stage: str,
    *,
    lease_s: float,
    previous: uuid.UUID | None = None,
) -> tuple[uuid.UUID, dict[uuid.UUID, StageStart]]:
    """:func:`begin_stage` for a bundle of audits in two statements (one when every audit
    starts): one fencing token for the whole run, returned with each audit's :class:`StageStart`
    (STARTED where this run took the lease; the others say why not). ``previous``: the token of
    the run's earlier try.

    Raises ``ValueError`` for an unknown stage.
    """
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}")
    token = uuid.uuid4()
    ids = list(dict.fromkeys(audit_ids))
    params = {"ids": ids, "token": token, "lease_for": timedelta(seconds=lease_s), "previous": previous}
    starts = {
        row.id: StageStart(Outcome.STARTED, row.status, token, int(row.stage_runs))
        for row in session.execute(_begin_statement(stage, previous is not None), params)
    }
    rest = [aid for aid in ids if aid not in starts]
    found = (
        dict(session.execute(select(Audit.id, Audit.status).where(Audit.id.in_(rest))).all()) if rest else {}
    )
    for aid in rest:
        status = found.get(aid)
        if status is None or status in TERMINAL_STATUSES:
            starts[aid] = StageStart(Outcome.FINISHED, status)
        elif status in _ENTRY[stage]:
            starts[aid] = StageStart(Outcome.HELD, status)
        elif _ORDER[status] > _ORDER[stage]:
            starts[aid] = StageStart(Outcome.AHEAD, status)
        else:
            starts[aid] = StageStart(Outcome.BEHIND, status)
    return token, {aid: starts[aid] for aid in ids}


def held_by(session: Session, audit_ids: Sequence[uuid.UUID], token: uuid.UUID) -> list[uuid.UUID]:
    """Those of ``audit_ids`` that run ``token`` still holds."""
    if not audit_ids:
        return []
    rows = session.scalars(select(Audit.id).where(Audit.id.in_(list(audit_ids)), Audit.attempt == token))
    return list(rows)


def renew_lease(
    session: Session, audit_id: uuid.UUID | Sequence[uuid.UUID], token: uuid.UUID, *, lease_s: float
) -> bool:
    """Push the lease of run ``token`` to ``now() + lease_s`` (on one audit, or on each audit of a
    bundle the run still holds); False when the run holds none of them."""
    ids = [audit_id] if isinstance(audit_id, uuid.UUID) else list(audit_id)
    rows = session.execute(
        update(Audit)
        .where(Audit.id.in_(ids), Audit.attempt == token)
        .values(lease_expires_at=_after(lease_s))
        .returning(Audit.id)
        .execution_options(synchronize_session=False)
    ).all()
    return bool(rows)


def release_stage(
    session: Session, audit_id: uuid.UUID | Sequence[uuid.UUID], token: uuid.UUID, *, pending_s: float
) -> bool:
    """Give up the lease of run ``token`` (a retry follows) on one audit or on each audit of a
    bundle it holds: ``attempt`` NULL, the deadline ``now() + pending_s`` (the retry's delay
    plus a margin). False when the run held none of them."""
    ids = [audit_id] if isinstance(audit_id, uuid.UUID) else list(audit_id)
    rows = session.execute(
        update(Audit)
        .where(Audit.id.in_(ids), Audit.attempt == token)
        .values(attempt=None, lease_expires_at=_after(pending_s))
        .returning(Audit.id)
        .execution_options(synchronize_session=False)
    ).all()
    return bool(rows)


def finish_stage(
    session: Session, audit_id: uuid.UUID, stage: str, token: uuid.UUID, *, pending_s: float
) -> bool:
    """The fence: move the audit past ``stage`` only while run ``token`` holds it.

    After the last stage the audit is ``done`` (``finished_at = clock_timestamp()``, no lease);
    otherwise its status becomes the next stage with ``attempt`` NULL and a pending deadline
    ``now() + pending_s``. Returns False, changing nothing, when the token is no longer current: the
    caller must roll back its transaction (its writes belong to a stale run).
    """
    return bool(finish_stages(session, [audit_id], stage, token, pending_s=pending_s))


def finish_stages(
    session: Session, audit_ids: Sequence[uuid.UUID], stage: str, token: uuid.UUID, *, pending_s: float
) -> list[uuid.UUID]:
    """:func:`finish_stage` of the audits of a bundle in one statement; returns those that run
    ``token`` still held (and moved on). Fewer than asked: the caller must roll back."""
    if not audit_ids:
        return []
    params = {"ids": list(audit_ids), "token": token, "pending_for": timedelta(seconds=pending_s)}
    rows = session.execute(_finish_statement(stage), params).all()
    return [row.id for row in rows]


def fail_stage(
    session: Session, audit_id: uuid.UUID, stage: str, error: str, *, token: uuid.UUID | None = None
) -> bool:
    """``status = failed`` with ``error`` while the audit still stands at ``stage`` (and, with
    ``token``, while that run holds it): a stage fails only for its own errors, never after it
    finished. ``stage`` keeps the failing stage. Returns True when the row changed."""
    conds = [Audit.id == audit_id, Audit.status == stage]
    if token is not None:
        conds.append(Audit.attempt == token)
    row = session.execute(
        update(Audit)
        .where(*conds)
        .values(
            status="failed",
            stage=stage,
            error=error[:4000],
            finished_at=func.clock_timestamp(),  # the wall clock, not the transaction's start
            attempt=None,
            lease_expires_at=None,
        )
        .returning(Audit.id)
        .execution_options(synchronize_session=False)
    ).one_or_none()
    return row is not None


def claim_due(
    session: Session,
    *,
    unsent_after_s: float,
    pending_s: float,
    all_pending: bool = False,
    pending_sent_before: datetime | None = None,
    limit: int = 500,
) -> list[Due]:
    """Claim the audits the sweeper must hand to the queue again, and push their deadlines.

    Due: an unfinished audit whose lease expired (its run died, or its message was lost), or a
    ``queued`` audit never enqueued (``enqueued_at`` NULL) created over ``unsent_after_s`` ago;
    with ``all_pending`` also every audit whose next stage waits in the queue (``attempt``
    NULL); with ``pending_sent_before`` (the broker lost the messages it held before that time)
    every such audit whose message went out before it: its pending deadline
    (``lease_expires_at``, set to send time + ``pending_s``) is before ``pending_sent_before +
    pending_s``. Claimed rows get ``attempt`` NULL (a stale run can no longer finish) and
    ``lease_expires_at = now() + pending_s``; ``FOR UPDATE SKIP LOCKED`` keeps two sweepers from
    claiming the same audit. Oldest first, at most ``limit``.
    """
    cutoff = func.now() - timedelta(seconds=unsent_after_s)
    due = or_(
        Audit.lease_expires_at < func.now(),
        and_(Audit.status == "queued", Audit.enqueued_at.is_(None), Audit.created_at < cutoff),
    )
    if all_pending:
        due = or_(due, Audit.attempt.is_(None))
    elif pending_sent_before is not None:
        sent_before = pending_sent_before + timedelta(seconds=pending_s)
        waiting = and_(Audit.attempt.is_(None), Audit.enqueued_at.is_not(None))
        due = or_(
            due,
            and_(waiting, or_(Audit.lease_expires_at.is_(None), Audit.lease_expires_at < sent_before)),
        )
    active = Audit.status.not_in(TERMINAL_STATUSES)
    rows = session.execute(
        select(Audit.id, Audit.status, Audit.stage_runs)
        .where(active, due)
        .order_by(Audit.created_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    ).all()
    if not rows:
        return []
    ids = [r.id for r in rows]
    session.execute(
        update(Audit)
        .where(Audit.id.in_(ids))
        .values(attempt=None, lease_expires_at=_after(pending_s))
        .execution_options(synchronize_session=False)
    )
    return [Due(r.id, r.status, int(r.stage_runs)) for r in rows]


def mark_sent(session: Session, audit_ids: Sequence[uuid.UUID], *, pending_s: float) -> None:
    """Record that the chains of ``audit_ids`` reached the broker: ``enqueued_at = now()``, and for
    audits still ``queued`` a pending deadline ``now() + pending_s`` (a started stage keeps its own)."""
    ids = list(audit_ids)
    if not ids:
        return
    waiting = and_(Audit.status == "queued", Audit.attempt.is_(None))
    session.execute(  # one statement (a round trip less on every POST /audits)
        update(Audit)
        .where(Audit.id.in_(ids))
        .values(
            enqueued_at=func.now(),
            lease_expires_at=case((waiting, _after(pending_s)), else_=Audit.lease_expires_at),
        )
        .execution_options(synchronize_session=False)
    )


def release_due(session: Session, audit_ids: Sequence[uuid.UUID]) -> None:
    """Make claimed audits due again at once (their send failed): ``lease_expires_at = now()``."""
    ids = list(audit_ids)
    if ids:
        session.execute(
            update(Audit)
            .where(Audit.id.in_(ids), Audit.attempt.is_(None), Audit.status.not_in(TERMINAL_STATUSES))
            .values(lease_expires_at=func.now())
            .execution_options(synchronize_session=False)
        )
