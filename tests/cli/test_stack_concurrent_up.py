"""Two `claimaudit up` of one state folder at once: the second waits for the first
(``cli.processes.stack_lock``) and finds its services, instead of a second ``pg_ctl start`` on the
same data folder failing. Also the lock on its own: held by another process, it makes a second
holder wait, and gives up with a clear error after its wait."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import paths, processes, stack

CLAIMAUDIT = str(Path(sys.executable).parent / "claimaudit")
HOLD = (
    "import sys, time; from cli.processes import stack_lock\n"
    "with stack_lock():\n    print('held', flush=True); time.sleep(float(sys.argv[1]))\n"
)


def _holder(state: Path, seconds: float) -> subprocess.Popen[str]:
    env = {**os.environ, "CLAIMAUDIT_STATE_DIR": str(state)}
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(seconds)], text=True, stdout=subprocess.PIPE,
                            env=env, cwd=paths.project_root())  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_the_lock_waits_for_another_holder_and_gives_up_after_its_wait(tmp_path: Path) -> None:
    holder = _holder(tmp_path, 3.0)
    held_at = time.monotonic()
    with processes.temporary_env(CLAIMAUDIT_STATE_DIR=str(tmp_path)):
        with pytest.raises(stack.StackError, match="has held"), processes.stack_lock(wait_s=0.5):
            pass
        with processes.stack_lock(wait_s=30):  # granted once the holder lets go, after its 3 s
            assert time.monotonic() - held_at >= 2.9
    holder.wait(timeout=10)


@pytest.mark.services
@pytest.mark.slow
def test_two_concurrent_ups_start_one_stack() -> None:
    state = paths.project_root() / ".claimaudit" / f"test-concurrent-up-{os.getpid()}"
    ports = {name: processes.free_port() for name in ("pg", "api", "flower", "redis")}
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CLAIMAUDIT_API_URL")
    }
    env.update(CLAIMAUDIT_STATE_DIR=str(state), CLAIMAUDIT_PG_PORT=str(ports["pg"]),
               CLAIMAUDIT_API_PORT=str(ports["api"]), CLAIMAUDIT_FLOWER_PORT=str(ports["flower"]),
               CLAIMAUDIT_REDIS_PORT=str(ports["redis"]), CLAIMAUDIT_REDIS_DB="6",
               CLAIMAUDIT_WORKER_CONCURRENCY="1")  # fmt: skip

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen([CLAIMAUDIT, "up", "--no-flower"], env=env, text=True,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)  # fmt: skip

    first, second = start(), start()
    try:
        outputs = [p.communicate(timeout=900)[0] for p in (first, second)]
        assert [first.returncode, second.returncode] == [0, 0], outputs
        pids = sorted(f.name for f in (state / "run").glob("*.pid"))
        assert "worker.pid" in pids and "api.pid" in pids
    finally:
        down = subprocess.run([CLAIMAUDIT, "down"], env=env, capture_output=True, text=True, timeout=300)
        with processes.temporary_env(CLAIMAUDIT_STATE_DIR=str(state)):
            shutil.rmtree(stack.default_pg_dir(), ignore_errors=True)
        shutil.rmtree(state, ignore_errors=True)
    assert down.returncode == 0 and "postgres" in down.stdout, down.stdout + down.stderr
