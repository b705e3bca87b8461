"""The local stack's worker (``cli.stack.service_command``) killed with SIGKILL leaves nothing
behind: no orphaned child keeps running next to the worker the supervisor starts again. An
embedded beat (``celery worker --beat``) did: after ``kill -9`` of the worker's main process it
kept sending ``runs.tick`` and ``audits.requeue_stale``, and the restarted worker ran a second
beat. Beat is the stack's own supervised service instead."""

from __future__ import annotations

import time

import psutil
import pytest

from cli.stack import SERVICES, StackConfig, service_command, worker_name
from tests.faults import harness
from tests.faults.conftest import FaultStack

pytestmark = [pytest.mark.faults, pytest.mark.services, pytest.mark.slow]


def _running(node: str) -> list[psutil.Process]:
    """The live processes whose command line names the Celery node ``node``."""
    out = []
    for p in psutil.process_iter(["cmdline", "status"]):
        if node in " ".join(p.info["cmdline"] or ()) and p.info["status"] != psutil.STATUS_ZOMBIE:
            out.append(p)
    return out


def test_a_killed_stack_worker_leaves_no_process_behind(
    fault_stack: FaultStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(fault_stack.tmp))  # where service_command puts files
    assert "beat" in SERVICES and "beat" in service_command("beat", StackConfig())
    config = StackConfig(concurrency=1, api_port=18_731)  # the node name carries the port
    node = worker_name(config)
    command = service_command("worker", config)
    (fault_stack.tmp / "run").mkdir(exist_ok=True)  # the stack's folder of pid and schedule files
    worker = harness.spawn(command, {**fault_stack.env, "CLAIMAUDIT_STATE_DIR": str(fault_stack.tmp)},
                           fault_stack.tmp / "worker.log")  # fmt: skip
    try:
        harness._wait("worker", lambda: " ready." in worker.output(), 120)
        supervisor = psutil.Process(worker.proc.pid)
        (main,) = supervisor.children()
        time.sleep(10)  # whatever the worker starts after "ready" (an embedded beat did) is up
        main.kill()
        # the supervisor restarts the worker (backoff 1 s); what the killed one started must be gone
        harness._wait("restart", lambda: any(p.pid != main.pid for p in supervisor.children()), 60)
        time.sleep(5)
        ours = {supervisor.pid, *(p.pid for p in supervisor.children(recursive=True))}
        strays = [p for p in _running(node) if p.pid not in ours]
        assert strays == [], [p.info["cmdline"] for p in strays]
    finally:
        worker.kill()
        for stray in _running(node):
            stray.kill()
