"""Faults on the real services while audits travel in bundles (``POST /audits/batch``,
``workers.bundle_tasks``): as for single audits (``test_faults.py``), every audit ends ``done``,
none stays stuck, no rows are duplicated, and every result equals a clean run of the same input.

Workers run with 8 s leases and a sweep every second (``harness.FAST_RECOVERY_ENV``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.faults import harness
from tests.faults.conftest import FaultStack
from tests.faults.test_faults import _assert_clean, _wait_status

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.faults]


def test_postgres_stopped_while_a_bundle_runs(fault_stack: FaultStack, clean_results: Any) -> None:
    # six audits: bundles of 2 and 4; the database goes away while the first bundle embeds
    bodies = harness.workload(6)
    clean = clean_results(bodies)
    fault_stack.start_api()
    fault_stack.start_worker({"CLAIMAUDIT_TEST_STAGE_DELAY": "embedding:2"})
    ids = fault_stack.submit_batch(bodies)
    _wait_status(fault_stack, ids, {"embedding"})
    fault_stack.pg.stop()
    try:
        time.sleep(6)  # longer than a few retries' backoff: the bundle retries, then resumes
    finally:
        fault_stack.pg.start()
    _assert_clean(fault_stack, ids, bodies, clean)
    assert "Task bundles.embed[" in fault_stack.logs()


def test_bundle_over_its_time_limit_goes_on_audit_by_audit(
    fault_stack: FaultStack, clean_results: Any, tmp_path: Path
) -> None:
    bodies = harness.workload(4)
    clean = clean_results(bodies)
    fault_stack.start_api()
    marker = tmp_path / "slept"
    # only scoring gets tight limits (it loads no model, so a cold worker never hits them); the
    # first bundle's scoring sleeps past its soft limit once
    fault_stack.start_worker(
        {
            "STAGE_TIME_LIMITS": '{"scoring": [4, 8]}',
            "CLAIMAUDIT_TEST_STAGE_DELAY": "scoring:6",
            "CLAIMAUDIT_TEST_STAGE_DELAY_ONCE": str(marker),
        }
    )
    ids = fault_stack.submit_batch(bodies)
    _assert_clean(fault_stack, ids, bodies, clean)
    assert marker.exists()  # the first bundle's scoring slept past the soft limit
    logs = fault_stack.logs()
    assert "over the soft time limit" in logs and "go on alone" in logs  # its audits were sent alone
    assert "Task audits.score[" in logs  # ... and scored on chains of their own
