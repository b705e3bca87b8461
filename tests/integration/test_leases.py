"""Leases, fencing and the sweeper's claim on the real Postgres (``db.leases``), no worker."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update

from db import leases
from db import repository as repo
from db.engine import session_scope
from db.models import Audit

pytestmark = pytest.mark.services


@pytest.fixture
def aid(session_factory: Any) -> uuid.UUID:
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s, repo.NewAudit(response="A.", references=["B."], request_sha256=uuid.uuid4().hex)
        )
        return audit.id


def _begin(sf: Any, aid: uuid.UUID, stage: str, lease_s: float = 60) -> leases.StageStart:
    with session_scope(sf) as s:
        return leases.begin_stage(s, aid, stage, lease_s=lease_s)


def _finish(sf: Any, aid: uuid.UUID, stage: str, token: uuid.UUID | None) -> bool:
    assert token is not None
    with session_scope(sf) as s:
        return leases.finish_stage(s, aid, stage, token, pending_s=600)


def _audit(sf: Any, aid: uuid.UUID) -> Audit:
    with sf() as s:
        audit = repo.get_audit(s, aid)
        assert audit is not None
        return audit


def _expire(sf: Any, aid: uuid.UUID) -> None:
    with session_scope(sf) as s:
        s.execute(
            update(Audit)
            .where(Audit.id == aid)
            .values(lease_expires_at=Audit.lease_expires_at - timedelta(hours=1))
        )


def test_stages_run_in_order_and_a_live_lease_is_exclusive(session_factory: Any, aid: uuid.UUID) -> None:
    assert _begin(session_factory, aid, "embedding").outcome is leases.Outcome.BEHIND
    first = _begin(session_factory, aid, "decomposing")
    assert first.outcome is leases.Outcome.STARTED and first.runs == 1
    # a duplicate message while the first run holds a live lease
    assert _begin(session_factory, aid, "decomposing").outcome is leases.Outcome.HELD
    assert _finish(session_factory, aid, "decomposing", first.token)
    audit = _audit(session_factory, aid)
    assert (audit.status, audit.attempt, audit.stage_runs) == ("embedding", None, 0)
    assert _begin(session_factory, aid, "decomposing").outcome is leases.Outcome.AHEAD
    for stage in ("embedding", "matching", "scoring"):
        run = _begin(session_factory, aid, stage)
        assert run.outcome is leases.Outcome.STARTED
        assert _finish(session_factory, aid, stage, run.token)
    audit = _audit(session_factory, aid)
    assert (audit.status, audit.lease_expires_at, audit.finished_at is not None) == ("done", None, True)
    assert _begin(session_factory, aid, "scoring").outcome is leases.Outcome.FINISHED


def test_a_run_whose_lease_was_taken_over_cannot_finish(session_factory: Any, aid: uuid.UUID) -> None:
    stale = _begin(session_factory, aid, "decomposing")
    _expire(session_factory, aid)
    fresh = _begin(session_factory, aid, "decomposing")
    assert fresh.outcome is leases.Outcome.STARTED and fresh.runs == 2 and fresh.token != stale.token
    assert not _finish(session_factory, aid, "decomposing", stale.token)  # the fence
    with session_scope(session_factory) as s:
        assert stale.token is not None
        assert not leases.renew_lease(s, aid, stale.token, lease_s=60)
        assert not leases.fail_stage(s, aid, "decomposing", "late failure", token=stale.token)
    assert _finish(session_factory, aid, "decomposing", fresh.token)
    assert _audit(session_factory, aid).status == "embedding"


def test_failing_a_stage_after_it_finished_changes_nothing(session_factory: Any, aid: uuid.UUID) -> None:
    run = _begin(session_factory, aid, "decomposing")
    assert _finish(session_factory, aid, "decomposing", run.token)
    with session_scope(session_factory) as s:  # e.g. sending the next link failed after the commit
        assert not leases.fail_stage(s, aid, "decomposing", "decomposing failed: ConnectionError")
    assert _audit(session_factory, aid).status == "embedding"


def test_sweeper_claims_expired_and_unsent_audits_once(session_factory: Any, aid: uuid.UUID) -> None:
    # never enqueued (enqueued_at NULL): due once older than unsent_after_s
    with session_scope(session_factory) as s:
        claimed = {d.audit_id for d in leases.claim_due(s, unsent_after_s=0, pending_s=600)}
    assert aid in claimed
    with session_scope(session_factory) as s:
        leases.mark_sent(s, [aid], pending_s=600)
        assert aid not in {d.audit_id for d in leases.claim_due(s, unsent_after_s=0, pending_s=600)}
    run = _begin(session_factory, aid, "decomposing")
    _expire(session_factory, aid)  # the run died: its lease is not renewed
    with session_scope(session_factory) as s:
        due = [d for d in leases.claim_due(s, unsent_after_s=0, pending_s=600) if d.audit_id == aid]
    assert [(d.status, d.stage_runs) for d in due] == [("decomposing", 1)]
    audit = _audit(session_factory, aid)
    assert audit.attempt is None  # the dead run's token is void
    assert not _finish(session_factory, aid, "decomposing", run.token)
    # claimed: not due again until its new deadline passes
    with session_scope(session_factory) as s:
        assert aid not in {d.audit_id for d in leases.claim_due(s, unsent_after_s=0, pending_s=600)}
        # the broker lost its data: every audit waiting for a stage is due at once
        assert aid in {
            d.audit_id for d in leases.claim_due(s, unsent_after_s=0, pending_s=600, all_pending=True)
        }


def test_mark_sent_sets_a_deadline_only_for_audits_still_waiting(session_factory: Any) -> None:
    # a queued audit gets enqueued_at and the pending deadline now() + pending_s (one
    # transaction's now(): exactly 600 s); an audit whose stage a worker took before the send was
    # recorded keeps its lease, and so does one between stages (no run, status past queued)
    with session_scope(session_factory) as s:
        ids = [
            repo.create_audit(
                s, repo.NewAudit(response="A.", references=["B."], request_sha256=uuid.uuid4().hex)
            )[0].id
            for _ in range(3)
        ]
    waiting, started, between = ids
    run = _begin(session_factory, started, "decomposing", lease_s=30)
    done = _begin(session_factory, between, "decomposing", lease_s=30)
    assert _finish(session_factory, between, "decomposing", done.token)  # pending deadline: 600 s
    kept = {aid: _audit(session_factory, aid).lease_expires_at for aid in (started, between)}
    with session_scope(session_factory) as s:
        leases.mark_sent(s, ids, pending_s=60)
    queued = _audit(session_factory, waiting)
    assert queued.enqueued_at is not None and queued.lease_expires_at is not None
    assert queued.lease_expires_at - queued.enqueued_at == timedelta(seconds=60)
    for aid, lease in kept.items():
        audit = _audit(session_factory, aid)
        assert audit.enqueued_at is not None and audit.lease_expires_at == lease
    assert _audit(session_factory, started).attempt == run.token
    assert _audit(session_factory, between).status == "embedding"


# --------------------------------------------------------------------------- the heartbeat


def _new_audit(sf: Any) -> uuid.UUID:
    with session_scope(sf) as s:
        audit, _ = repo.create_audit(
            s, repo.NewAudit(response="A.", references=["B."], request_sha256=uuid.uuid4().hex)
        )
        return audit.id


def _wait_until(predicate: Any, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_the_heartbeat_renews_each_live_run_and_stops_at_its_end(
    session_factory: Any,
) -> None:
    """Leases of 0.6 s (a renewal every 0.2 s): three runs at once stay renewed past their
    first expiry; an ended run is renewed no more; a run whose lease another run took is marked
    lost."""
    from workers.heartbeat import Heartbeat

    ids = [_new_audit(session_factory) for _ in range(3)]
    starts = [_begin(session_factory, a, "decomposing", lease_s=0.6) for a in ids]
    beats = [Heartbeat(session_factory, a, s.token, lease_s=0.6) for a, s in zip(ids, starts, strict=True)]
    for hb in beats:
        hb.__enter__()
    try:
        first = [_audit(session_factory, a).lease_expires_at for a in ids]
        time.sleep(1.0)  # past the leases as begun: only renewals keep them
        renewed = [_audit(session_factory, a).lease_expires_at for a in ids]
        assert all(r > f for r, f in zip(renewed, first, strict=True)), (first, renewed)
        with session_scope(session_factory) as s:  # nobody can take a renewed lease over
            taken = leases.begin_stage(s, ids[0], "decomposing", lease_s=60)
        assert taken.outcome is leases.Outcome.HELD

        beats[1].__exit__(None, None, None)  # run 1 ends
        ended_at = _audit(session_factory, ids[1]).lease_expires_at
        time.sleep(0.8)
        assert _audit(session_factory, ids[1]).lease_expires_at == ended_at

        with session_scope(session_factory) as s:  # another run takes run 2's lease over (a retry's way)
            other = leases.begin_stage(s, ids[2], "decomposing", lease_s=60, previous=starts[2].token)
        assert other.outcome is leases.Outcome.STARTED
        assert _wait_until(lambda: beats[2].lost)
        assert not beats[0].lost and not beats[1].lost
    finally:
        for hb in (beats[0], beats[2]):
            hb.__exit__(None, None, None)


def test_after_a_broker_loss_only_messages_sent_before_it_are_due(session_factory: Any) -> None:
    # two audits waiting in the queue (attempt NULL), one sent 100 s ago, one 1 s ago; the broker
    # restarted empty 10 s ago: only the first one's message was lost
    ids = []
    for age_s in (100, 1):
        with session_scope(session_factory) as s:
            audit, _ = repo.create_audit(
                s, repo.NewAudit(response="a", references=["b"], request_sha256=uuid.uuid4().hex)
            )
            leases.mark_sent(s, [audit.id], pending_s=600)
            s.execute(
                update(Audit)
                .where(Audit.id == audit.id)
                .values(lease_expires_at=Audit.lease_expires_at - timedelta(seconds=age_s))
            )
            ids.append(audit.id)
    with session_scope(session_factory) as s:
        restarted = s.scalar(select(func.now())) - timedelta(seconds=10)
        due = {
            d.audit_id
            for d in leases.claim_due(s, unsent_after_s=3600, pending_s=600, pending_sent_before=restarted)
        }
    assert ids[0] in due and ids[1] not in due
