"""``cli.supervise``: a service process that exits is started again with a growing, logged
backoff; a stop of the supervisor stops the process and restarts nothing."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _supervise(tmp_path: Path, child: str, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cli.supervise", "svc", *options, "--", sys.executable, "-c", child],
        cwd=ROOT, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _supervise_a_sleeper(tmp_path: Path) -> tuple[subprocess.Popen[str], int]:
    """The supervisor of a process that writes its pid and sleeps, and that process's pid."""
    pidfile = tmp_path / "pid"
    child = f"import os, time; open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    proc = _supervise(tmp_path, child)
    deadline = time.monotonic() + 20
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return proc, int(pidfile.read_text())


def test_an_exited_process_is_restarted_with_backoff_and_logged(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    # each start appends a line, then the process dies with code 3 (a crash)
    child = f"open({str(starts)!r}, 'a').write('x\\n'); raise SystemExit(3)"
    proc = _supervise(tmp_path, child, "--backoff", "0.2", "--max-backoff", "0.8")
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    # backoff 0.2, 0.4, 0.8, 0.8, ...: within 4 s at least 4 starts, never a busy loop
    assert 4 <= starts.read_text().count("x") <= 12
    assert "exited with code 3" in err and "restarting in 0.2 s (restart 1)" in err
    assert "restarting in 0.4 s (restart 2)" in err and "restarting in 0.8 s (restart 3)" in err
    assert "restarting in 1.6" not in err  # capped at --max-backoff


def test_a_stop_stops_the_process_and_restarts_nothing(tmp_path: Path) -> None:
    proc, child_pid = _supervise_a_sleeper(tmp_path)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode != 0 or "stopped" in err
    assert "stopped (exit code" in err and "restarting" not in err
    assert (
        not Path(f"/proc/{child_pid}").exists()
        or "Z" in Path(f"/proc/{child_pid}/stat").read_text().split(") ")[1][:1]
    )


def test_a_killed_supervisor_takes_its_process_with_it(tmp_path: Path) -> None:
    """``kill -9`` of the supervisor: its service gets SIGTERM (PR_SET_PDEATHSIG) instead of running
    on unsupervised, where the next ``claimaudit up`` would start a second one."""
    proc, child_pid = _supervise_a_sleeper(tmp_path)
    proc.kill()
    proc.communicate(timeout=20)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child_pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{child_pid}").exists(), "the service outlived its supervisor"


def test_status_shows_a_sigstopped_worker_as_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``claimaudit status`` of a worker whose process is stopped (SIGSTOP: it answers ``kill -0``
    and does nothing) says ``frozen`` and names the stopped pid, and ``running`` again after
    SIGCONT."""
    from cli import processes, stack

    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/none")  # not probed: "external"
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{processes.free_port()}/0")  # nothing answers
    proc, child_pid = _supervise_a_sleeper(tmp_path)
    try:
        (tmp_path / "state" / "run").mkdir(parents=True)
        (tmp_path / "state" / "run" / "worker.pid").write_text(str(proc.pid))  # as ``up`` writes it

        def worker() -> stack.ServiceStatus:
            return next(row for row in stack.status() if row.name == "worker")

        assert worker().state == "running"
        os.kill(child_pid, signal.SIGSTOP)
        time.sleep(0.5)  # the stop is delivered asynchronously
        row = worker()
        assert row.state == "frozen" and str(child_pid) in row.detail, row
        os.kill(child_pid, signal.SIGCONT)
        time.sleep(0.5)
        assert worker().state == "running"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child_pid, signal.SIGCONT)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
