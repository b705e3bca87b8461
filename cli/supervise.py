"""Keep one service process running: ``python -m cli.supervise NAME -- COMMAND ...``.

The local stack (``cli.stack``) starts its worker and its beat through this supervisor. It runs ``COMMAND``;
whenever that process exits (a crash, an unrecoverable broker error, a kill) while the
supervisor itself has not been asked to stop, it logs the exit and starts the command again
after a backoff: ``--backoff`` seconds (default 1), doubled after each exit up to
``--max-backoff`` (default 60), and back to ``--backoff`` once a process has run
``--reset-after`` seconds (default 60). Each line goes to stderr (the service's log under
``.claimaudit/logs``), e.g. ``supervise worker: exited with code 1 after 3.2 s; restarting in
2 s (restart 2)``.

On Linux the command gets SIGTERM when the supervisor dies, even by ``kill -9`` (prctl
``PR_SET_PDEATHSIG``), so no service outlives its supervisor. SIGTERM or SIGINT to the supervisor
(``claimaudit down`` sends SIGTERM to the whole process group) stops it: the signal is passed on
to the command, which is waited for (SIGKILL after ``--stop-timeout`` seconds, default 30), and
nothing is restarted.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from types import FrameType

__all__ = ["Supervisor", "main"]


#: prctl(2) option: the signal the calling process gets when its parent dies
_PR_SET_PDEATHSIG = 1


def _dies_with(parent: int) -> None:
    """In the child before ``exec``: ask Linux for SIGTERM when the supervisor dies (a ``kill -9``
    of it gives the service no other sign; it would run on unsupervised, and the next
    ``claimaudit up`` would start a second one), and exit if it is already gone."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _preexec() -> Callable[[], None] | None:
    """:func:`_dies_with` this process, on Linux (elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return None
    parent = os.getpid()
    return lambda: _dies_with(parent)


def _say(name: str, text: str) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    print(f"[{stamp}] supervise {name}: {text}", file=sys.stderr, flush=True)


class Supervisor:
    """Runs ``command`` again after each exit, with exponential backoff (module docstring)."""

    def __init__(
        self,
        name: str,
        command: list[str],
        *,
        backoff: float = 1.0,
        max_backoff: float = 60.0,
        reset_after: float = 60.0,
        stop_timeout: float = 30.0,
    ) -> None:
        self.name = name
        self.command = command
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.reset_after = reset_after
        self.stop_timeout = stop_timeout
        self.stopping = False
        self.child: subprocess.Popen[bytes] | None = None
        self.restarts = 0

    def stop(self, signum: int, _frame: FrameType | None = None) -> None:
        """Signal handler: pass the signal on to the command and restart nothing."""
        self.stopping = True
        if self.child is not None and self.child.poll() is None:
            self.child.send_signal(signum)

    def _sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < deadline:
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def run(self) -> int:
        """Supervise until stopped; the last exit code of the command."""
        delay = self.backoff
        code = 0
        while not self.stopping:
            started = time.monotonic()
            self.child = subprocess.Popen(self.command, preexec_fn=_preexec())
            _say(self.name, f"started pid {self.child.pid}")
            while True:
                try:
                    code = self.child.wait(timeout=self.stop_timeout if self.stopping else None)
                    break
                except subprocess.TimeoutExpired:
                    _say(
                        self.name, f"pid {self.child.pid} did not stop in {self.stop_timeout:g} s; killing it"
                    )
                    self.child.kill()
            ran = time.monotonic() - started
            if self.stopping:
                _say(self.name, f"stopped (exit code {code})")
                break
            if ran >= self.reset_after:
                delay = self.backoff
            self.restarts += 1
            what = f"exited with code {code} after {ran:.1f} s"
            _say(self.name, f"{what}; restarting in {delay:g} s (restart {self.restarts})")
            self._sleep(delay)
            delay = min(self.max_backoff, delay * 2)
        return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cli.supervise", description=__doc__.split("\n")[0])
    parser.add_argument("name")
    parser.add_argument("--backoff", type=float, default=1.0)
    parser.add_argument("--max-backoff", type=float, default=60.0)
    parser.add_argument("--reset-after", type=float, default=60.0)
    parser.add_argument("--stop-timeout", type=float, default=30.0)
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("give the command after --")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    supervisor = Supervisor(
        args.name,
        command,
        backoff=args.backoff,
        max_backoff=args.max_backoff,
        reset_after=args.reset_after,
        stop_timeout=args.stop_timeout,
    )
    signal.signal(signal.SIGTERM, supervisor.stop)
    signal.signal(signal.SIGINT, supervisor.stop)
    return supervisor.run()


if __name__ == "__main__":
    sys.exit(main())
