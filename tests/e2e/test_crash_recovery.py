"""A worker SIGKILLed in the middle of a chain: its stage's lease expires (no heartbeat), the
sweeper sends the audit again from that stage and a worker finishes it, with no duplicate rows.

Workers run with a 3 s lease and a sweep every second (production: 60 s and 15 s)."""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from db import repository as repo
from tests.conftest import WorkerProcess, wait_for_status

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: Short leases and a fast sweeper, so a dead run is noticed in seconds.
FAST = {"STAGE_LEASE_S": "3", "SWEEP_INTERVAL_S": "1"}

REFERENCE = "The Halvorsen Bridge opened to traffic on 12 May 1998. It is 1,420 metres long."
RESPONSE = "The Halvorsen Bridge opened on 12 May 1989. It is 1,420 metres long."


def _wait_embed_started(session_factory: Any, aid: uuid.UUID, timeout: float = 300) -> None:
    """Until a run of the embed stage holds the audit (``attempt`` set); a fresh worker loads its
    models first (tens of seconds on a loaded 2-core machine), hence the generous bound. Status
    ``embedding`` alone is not enough: decompose's commit sets it before the chain sends the embed
    task, and a worker killed in that window leaves the audit pending until REQUEUE_AFTER_S
    (docs/RELIABILITY.md)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with session_factory() as s:
            audit = repo.get_audit(s, aid)
            if audit is not None and audit.status == "embedding" and audit.attempt is not None:
                return
        time.sleep(0.1)
    raise AssertionError(f"audit {aid}: the embed stage did not start within {timeout} s")


def test_worker_killed_mid_chain_then_restarted(
    client: TestClient, start_worker: Callable[..., WorkerProcess], session_factory: Any
) -> None:
    # Worker 1 sleeps 60 s once the embed stage has started: we kill it then.
    first = start_worker({**FAST, "CLAIMAUDIT_TEST_STAGE_DELAY": "embedding:60"})
    aid = uuid.UUID(
        client.post("/audits", json={"response": RESPONSE, "references": [REFERENCE]}).json()["id"]
    )
    _wait_embed_started(session_factory, aid)
    first.kill()
    with session_factory() as s:
        audit = repo.get_audit(s, aid)
        assert audit is not None and audit.status == "embedding"
        claims_before = repo.count_rows(s, aid)["claims"]

    # Worker 2's sweeper finds the expired lease and sends the embed stage again (the killed
    # worker's message stays unacknowledged for the visibility timeout, 1 h).
    second = start_worker(FAST)
    try:
        try:
            status = wait_for_status(session_factory, aid, {"done", "failed"}, timeout=180)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{second.output()[-4000:]}") from None
        assert status == "done"
        assert "Task audits.embed[" in second.output()
    finally:
        second.stop()  # every test's worker stops with it: later tests assert their own worker ran
    with session_factory() as s:
        rows = repo.count_rows(s, aid)
        state = repo.load_audit_state(s, aid)
    assert state is not None
    assert rows["claims"] == claims_before  # decompose did not run twice into duplicates
    assert rows["verdicts"] == len(state.response_claims) and rows["scores"] == 1


def _pool_children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(p) for p in f.read().split()]


def test_pool_process_killed_mid_stage_is_recovered_by_the_same_worker(
    client: TestClient, start_worker: Callable[..., WorkerProcess], session_factory: Any, tmp_path: Any
) -> None:
    # The pool process sleeps in the embed stage (once); we SIGKILL it, the worker's main process
    # survives, sees WorkerLostError and, with reject_on_worker_lost, puts the message back; the
    # redelivered run finds the dead run's live lease and stops, and once that lease expires the
    # sweeper sends the stage again.
    worker = start_worker(
        {
            **FAST,
            "CLAIMAUDIT_TEST_STAGE_DELAY": "embedding:60",
            "CLAIMAUDIT_TEST_STAGE_DELAY_ONCE": str(tmp_path / "slept"),
        }
    )
    aid = uuid.UUID(
        client.post("/audits", json={"response": RESPONSE, "references": [REFERENCE]}).json()["id"]
    )
    try:
        _wait_embed_started(session_factory, aid)
        (child,) = _pool_children(worker.proc.pid)
        os.kill(child, signal.SIGKILL)
        try:
            status = wait_for_status(session_factory, aid, {"done", "failed"}, timeout=120)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{worker.output()[-6000:]}") from None
        assert status == "done"
        assert worker.proc.poll() is None  # the same worker finished the audit
        # the main process logs the lost child when its pool notices, which under load can come after
        # the sweeper already finished the audit: give the log a moment
        deadline = time.monotonic() + 30
        while "WorkerLostError" not in worker.output() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert "WorkerLostError" in worker.output()
    finally:
        worker.stop()
    with session_factory() as s:
        state = repo.load_audit_state(s, aid)
        rows = repo.count_rows(s, aid)
    assert state is not None and rows["verdicts"] == len(state.response_claims) and rows["scores"] == 1
    worker.stop()


def test_a_worker_killed_between_a_stage_commit_and_the_next_send_is_resumed_at_once(
    client: TestClient, start_worker: Callable[..., WorkerProcess], session_factory: Any, tmp_path: Any
) -> None:
    # decompose commits (status embedding, nobody holding it) and then sleeps before the chain sends
    # embed; we SIGKILL the pool process there. The redelivered decompose finds its stage done and,
    # being a redelivery, sends the chain again from embedding: without that the audit would wait
    # for its pending deadline, REQUEUE_AFTER_S = 600 s (service.settings default, not shortened here).
    worker = start_worker(
        {
            **FAST,
            "CLAIMAUDIT_TEST_STAGE_DELAY": "decomposing-committed:60",
            "CLAIMAUDIT_TEST_STAGE_DELAY_ONCE": str(tmp_path / "slept"),
        }
    )
    aid = uuid.UUID(
        client.post("/audits", json={"response": RESPONSE, "references": [REFERENCE]}).json()["id"]
    )
    try:
        wait_for_status(session_factory, aid, {"embedding"}, timeout=120)
        while not (tmp_path / "slept").exists():  # the run sleeps after its commit
            time.sleep(0.05)
        (child,) = _pool_children(worker.proc.pid)
        os.kill(child, signal.SIGKILL)
        try:
            status = wait_for_status(session_factory, aid, {"done", "failed"}, timeout=120)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{worker.output()[-6000:]}") from None
        assert status == "done"
        assert "was redelivered after its commit" in worker.output()
    finally:
        worker.stop()
