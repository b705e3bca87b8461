"""Faults on the real services, each with a handful of audits: every audit ends ``done`` (or
``failed`` with a reason), none stays stuck, no rows are duplicated, and every result equals a
clean run of the same input (``harness.clean_run``: the four stage services in this process).

The figures of the same faults with 200 audits are in docs/RELIABILITY.md (``tools/fault_run.py``).
Workers run with 8 s leases and a sweep every second (``harness.FAST_RECOVERY_ENV``).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.faults import harness
from tests.faults.conftest import FaultStack

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.faults]

#: Seconds every test allows its audits to finish after the fault (recovery is a few seconds:
#: an 8 s lease plus a 1 s sweep; the rest is slack for a busy 2-core CI machine).
FINISH_TIMEOUT_S = 120


def _assert_clean(
    stack: FaultStack, ids: list[Any], bodies: list[dict[str, Any]], clean: dict[str, Any]
) -> None:
    harness.wait_finished(stack.session_factory, ids, FINISH_TIMEOUT_S)
    result = harness.outcome(stack.session_factory, ids, bodies, clean)
    assert result.summary() == {
        "done": len(ids),
        "failed": 0,
        "stuck": 0,
        "duplicated": 0,
        "mismatched": 0,
    }, (
        result,
        stack.logs(),
    )


def _wait_status(stack: FaultStack, ids: list[Any], wanted: set[str], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(st in wanted for st, _ in harness.statuses(stack.session_factory, ids).values()):
            return
        time.sleep(0.2)
    raise AssertionError(
        f"no audit reached {wanted}: {harness.statuses(stack.session_factory, ids)}\n{stack.logs()}"
    )


def test_worker_sigkilled_mid_stage(fault_stack: FaultStack, clean_results: Any) -> None:
    bodies = harness.workload(4)
    clean = clean_results(bodies)
    fault_stack.start_api()
    first = fault_stack.start_worker({"CLAIMAUDIT_TEST_STAGE_DELAY": "embedding:30"})
    ids = fault_stack.submit(bodies)
    _wait_status(fault_stack, ids, {"embedding"})
    first.kill()  # the whole worker, no acks: its message waits for the visibility timeout (1 h)
    fault_stack.start_worker()  # the sweeper finds the expired lease and sends the stage again
    _assert_clean(fault_stack, ids, bodies, clean)


def test_redis_killed_and_restarted_without_its_data(fault_stack: FaultStack, clean_results: Any) -> None:
    bodies = harness.workload(6)
    clean = clean_results(bodies)
    fault_stack.start_api()
    fault_stack.start_worker({"CLAIMAUDIT_TEST_STAGE_DELAY": "matching:2"})
    ids = fault_stack.submit(bodies[:4])
    _wait_status(fault_stack, ids, {"matching"})
    fault_stack.redis.kill()
    # accepted while the broker is down: stored at once (202), sent by the sweeper later
    ids += fault_stack.submit(bodies[4:])
    time.sleep(3)
    fault_stack.redis.start()  # empty: every queued and unacknowledged message is gone
    _assert_clean(fault_stack, ids, bodies, clean)


def test_redis_restarted_twice_in_quick_succession(fault_stack: FaultStack, clean_results: Any) -> None:
    # the second outage comes while the worker is still reconnecting from the first (kombu may then
    # end the worker with an unrecoverable error); the supervised worker comes back by itself
    bodies = harness.workload(6)
    clean = clean_results(bodies)
    fault_stack.start_api()
    fault_stack.start_worker({"CLAIMAUDIT_TEST_STAGE_DELAY": "matching:2"}, supervised=True)
    ids = fault_stack.submit(bodies[:4])
    _wait_status(fault_stack, ids, {"matching"})
    for pause in (2.0, 1.3):
        fault_stack.redis.kill()
        time.sleep(pause)
        fault_stack.redis.start()  # empty each time
        time.sleep(1.3)
    ids += fault_stack.submit(bodies[4:])
    _assert_clean(fault_stack, ids, bodies, clean)


def test_postgres_stopped_and_started(fault_stack: FaultStack, clean_results: Any) -> None:
    bodies = harness.workload(4)
    clean = clean_results(bodies)
    fault_stack.start_api()
    fault_stack.start_worker({"CLAIMAUDIT_TEST_STAGE_DELAY": "embedding:2"})
    ids = fault_stack.submit(bodies)
    _wait_status(fault_stack, ids, {"embedding"})
    fault_stack.pg.stop()
    try:
        resp = httpx.post(
            fault_stack.base + "/audits", json=bodies[0], headers=fault_stack.headers, timeout=30
        )
        # 503 with Retry-After, and neither the database's host nor its port in the body
        assert resp.status_code == 503, resp.text
        assert int(resp.headers["Retry-After"]) > 0
        assert str(fault_stack.pg.port) not in resp.text and "127.0.0.1" not in resp.text
        assert isinstance(resp.json()["detail"], list)
        time.sleep(8)
    finally:
        fault_stack.pg.start()
    _assert_clean(fault_stack, ids, bodies, clean)


def test_stage_over_its_time_limit_runs_twice(
    fault_stack: FaultStack, clean_results: Any, tmp_path: Path
) -> None:
    bodies = harness.workload(2)
    clean = clean_results(bodies)
    fault_stack.start_api()
    marker = tmp_path / "slept"
    # only scoring gets tight limits (it loads no model, so a cold worker never hits them)
    fault_stack.start_worker(
        {
            "STAGE_TIME_LIMITS": '{"scoring": [4, 8]}',
            "CLAIMAUDIT_TEST_STAGE_DELAY": "scoring:6",
            "CLAIMAUDIT_TEST_STAGE_DELAY_ONCE": str(marker),
        }
    )
    ids = fault_stack.submit(bodies)
    _assert_clean(fault_stack, ids, bodies, clean)
    assert marker.exists()  # the first run of scoring slept past the soft limit
    assert "over the soft time limit" in fault_stack.logs()


def test_overlapping_runs_of_a_stage_are_fenced(
    fault_stack: FaultStack, clean_results: Any, tmp_path: Path
) -> None:
    # Run A of decompose freezes (SIGSTOP) after taking its lease; the lease expires, the sweeper
    # sends the stage again and run B (the other pool process) finishes the audit. Then A wakes
    # up, decomposes and tries to commit: the fence rolls its writes back.
    bodies = harness.workload(1)
    clean = clean_results(bodies)
    fault_stack.start_api()
    marker = tmp_path / "slept"
    worker = fault_stack.start_worker(
        {"CLAIMAUDIT_TEST_STAGE_DELAY": "decomposing:10", "CLAIMAUDIT_TEST_STAGE_DELAY_ONCE": str(marker)},
        concurrency=2,
    )
    ids = fault_stack.submit(bodies)
    harness._wait("run A sleeping", lambda: marker.exists() and marker.read_text().strip() != "", 60)
    run_a = int(marker.read_text())
    os.kill(run_a, signal.SIGSTOP)
    try:
        harness.wait_finished(fault_stack.session_factory, ids, FINISH_TIMEOUT_S)
        assert harness.statuses(fault_stack.session_factory, ids)[ids[0]][0] == "done", fault_stack.logs()
    finally:
        os.kill(run_a, signal.SIGCONT)
    harness._wait("run A fenced", lambda: "its writes were rolled back" in worker.output(), 60)
    _assert_clean(fault_stack, ids, bodies, clean)


def test_worker_ended_by_an_unrecoverable_broker_error_comes_back(
    fault_stack: FaultStack, clean_results: Any, tmp_path: Path
) -> None:
    # kombu's Redis transport once ended every worker process while reconnecting after a Redis
    # restart (AttributeError: 'NoneType' object has no attribute 'hostname');
    # tests/faults/broken_reconnect_worker.py makes that failure certain at the next reconnection.
    # The supervisor starts the worker again and every audit, queued before and after, ends done.
    # REQUEUE_AFTER_S is the production 600 s (API and worker): the audits whose messages Redis
    # lost finish within FINISH_TIMEOUT_S only if the restarted worker notices the loss it did not
    # see happen (workers/sweeper.py, broker_lost_data).
    bodies = harness.workload(6)
    clean = clean_results(bodies)
    fault_stack.env["REQUEUE_AFTER_S"] = "600"
    fault_stack.start_api()
    marker = tmp_path / "break-reconnect"
    worker = fault_stack.start_worker(
        {"CLAIMAUDIT_TEST_STAGE_DELAY": "matching:2", "CLAIMAUDIT_TEST_BREAK_RECONNECT": str(marker)},
        supervised=True,
        entry="tests.faults.broken_reconnect_worker",
    )
    ids = fault_stack.submit(bodies[:4])
    _wait_status(fault_stack, ids, {"matching"})
    marker.write_text("armed")
    fault_stack.redis.kill()
    time.sleep(2)
    fault_stack.redis.start()  # empty
    harness._wait("the worker's exit", lambda: "; restarting in " in worker.output(), 90)
    ids += fault_stack.submit(bodies[4:])
    _assert_clean(fault_stack, ids, bodies, clean)
    log = worker.output()
    assert "Unrecoverable error: AttributeError(\"'NoneType' object has no attribute 'hostname'\")" in log, (
        log[-4000:]
    )
    assert log.count(" ready.") >= 2, log[-4000:]  # the first worker and the one the supervisor started
    assert worker.proc.poll() is None  # the supervisor itself lives on
