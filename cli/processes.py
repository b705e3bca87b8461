"""Processes of the local stack: ports, pid files, subprocesses as another user, and the one error type."""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from cli.paths import state_dir


class StackError(RuntimeError):
    """A local service could not be found, started or reached; the message says why."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    """True when something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def run_as(
    cmd: Sequence[str], *, user: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            list(cmd),
            user=user,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
            cwd="/",
        )
    except FileNotFoundError as exc:
        raise StackError(f"cannot run {cmd[0]}: {exc}") from exc


def hide_password(url: str) -> str:
    """``url`` with its password shown as ``***``."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not an SQLAlchemy URL (a Redis one): kombu's sanitiser
        from kombu.utils.url import maybe_sanitize_url

        return str(maybe_sanitize_url(url))


def read_pid(pidfile: Path) -> int | None:
    try:
        pid = int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None
    return pid if alive(pid) else None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours counts as dead.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ", 1)[1][:1] != "Z"
    except (OSError, IndexError):
        return True


def _state(pid: int) -> str:
    """The one-letter state of ``pid`` in ``/proc/<pid>/stat`` (``proc(5)``); "" when unreadable."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(") ", 1)[1][:1]
    except (OSError, IndexError):
        return ""


def _descendants(pid: int) -> list[int]:
    """``pid``'s children, their children and so on (``/proc/<pid>/task/*/children``, Linux)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            with contextlib.suppress(OSError, ValueError):
                kids = [int(k) for k in (task / "children").read_text().split()]
                found += kids
                todo += kids
    return found


def frozen(pid: int) -> list[int]:
    """The processes of the tree led by ``pid`` (itself included) that are stopped (``SIGSTOP``,
    ``SIGTSTP``, a debugger: state ``T`` or ``t`` in ``proc(5)``), in tree order; [] when none is
    or where ``/proc`` does not exist. A stopped process still answers ``kill -0``, so
    :func:`alive` calls it alive."""
    return [p for p in [pid, *_descendants(pid)] if _state(p) in ("T", "t")]


def terminate(pid: int, *, timeout: float = 20) -> None:
    """SIGTERM the process group led by ``pid`` (our processes start their own session), then SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not alive(pid):
                return
            time.sleep(0.1)


@contextlib.contextmanager
def temporary_env(**values: str) -> Iterator[None]:
    """Set environment variables for the duration of a ``with`` block (used by tests)."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


#: Longest wait, in seconds, for another ``up`` or ``down`` of the same state folder to finish.
STACK_LOCK_WAIT_S = 600.0


@contextlib.contextmanager
def stack_lock(wait_s: float = STACK_LOCK_WAIT_S) -> Iterator[None]:
    """Hold ``<state>/run/stack.lock`` (``fcntl.flock``, exclusive) while the stack is changed.

    A second ``up`` or ``down`` of the same state folder waits for the first and then finds what
    it started (``up`` is idempotent), instead of racing it (two ``pg_ctl start`` on one data
    folder). The lock goes with the process that holds it, so a killed ``up`` never leaves it
    held. Raises ``StackError`` when another holds it for more than ``wait_s`` seconds.
    """
    path = state_dir() / "run" / "stack.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + wait_s
    with path.open("a") as handle:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StackError(
                        f"another `claimaudit up` or `down` has held {path} for over {wait_s:.0f} s"
                    ) from None
                time.sleep(0.2)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
