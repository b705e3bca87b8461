"""Run N audits (default 200) through a private stack while faults strike; print the figures.

    .venv/bin/python tools/fault_run.py --fault redis-kill --audits 200
    .venv/bin/python tools/fault_run.py --supervised --audits 600 \
        --fault worker-kill,redis-kill-twice,postgres-stop,worker-kill

``--fault`` takes one fault or a comma-separated sequence. The k-th of n faults strikes when
k/(n+1) of the audits submitted before it are finished (one fault: a third into the run).
Faults:

- ``none``          no fault (the baseline wall time);
- ``worker-kill``   SIGKILL the worker and all its pool processes, start a new worker at once;
- ``redis-kill``    SIGKILL Redis (no persistence: every queued and unacknowledged message is
                    lost), submit 10 audits during the outage, restart it empty after ``--outage-s``;
- ``redis-kill-twice`` as ``redis-kill``, then ``--gap-s`` (default 1.3) after the restart, while
                    the worker is still reconnecting, SIGKILL it again and restart it empty 2 s later;
- ``postgres-stop`` stop Postgres (fast shutdown) for ``--outage-s``; POSTs meanwhile must be 503;
- ``worker-stall``  SIGSTOP every pool process of the worker (a frozen VM, a long GC pause) for
                    ``--outage-s`` while a second worker takes over the expired leases, then
                    SIGCONT: the frozen runs wake up and finish late (overlapping runs).

``--supervised`` runs the worker as the local stack runs it, under ``cli.supervise`` (restarted
1 s after any exit, doubling): ``worker-kill`` then SIGKILLs the Celery main process and its pool
but not the supervisor, and no worker is started by hand; ``worker_restarts`` counts the
supervisor's restarts, ``worker_exits_unrecoverable`` the workers that ended on an unrecoverable
broker error.

Figures (one JSON line on stdout, appended to ``--out`` if given): done, failed, stuck (not finished
``--timeout-s`` after the fault), duplicated (row counts differ from a clean run of the same input),
mismatched (result differs from the clean run), refused_503 (POSTs answered 503 during the
faults), wall_s, and per fault in_flight_at_fault and recovery_s: from the end of the fault
(service back) until the last audit unfinished at the fault's start was done.

Everything runs on a private Postgres cluster and Redis (``tests/faults/harness.py``); the workers
use the production defaults for leases and the sweeper unless ``--fast`` (8 s leases, 1 s sweeps).
The admission bounds are off (``ADMISSION_OFF_ENV``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from tests.faults import harness  # noqa: E402

FAULTS = ("none", "worker-kill", "redis-kill", "redis-kill-twice", "postgres-stop", "worker-stall")
#: audits submitted while Redis is down, per Redis fault
REDIS_OUTAGE_AUDITS = 10


#: The run measures faults, not overload: the admission bounds and the tenant limits are off
#: (600 audits submitted at once would otherwise be refused by ``MAX_BACKLOG_AGE_S``).
ADMISSION_OFF_ENV = {
    "MAX_QUEUED_AUDITS": "0",
    "MAX_QUEUED_AUDITS_PER_TENANT": "0",
    "MAX_BACKLOG_AGE_S": "0",
    "TENANT_RATE_LIMIT_PER_SECOND": "0",
    "TENANT_AUDITS_PER_MINUTE": "0",
}


def _children(pid: int) -> list[int]:
    """Child pids of ``pid``, forked by any of its threads."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(p) for p in (task / "children").read_text().split()]
    return out


def _pool_children(pid: int) -> list[int]:
    return _children(pid)


def _submit(base: str, bodies: list[dict[str, Any]], headers: dict[str, str]) -> tuple[list[uuid.UUID], int]:
    """POST each body; returns the accepted ids and the number of 503s (retried until accepted)."""
    ids: list[uuid.UUID] = []
    refused = 0
    with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
        for body in bodies:
            while True:
                resp = client.post("/audits", json=body)
                if resp.status_code == 503:
                    refused += 1
                    time.sleep(float(resp.headers.get("Retry-After", "1")))
                    continue
                resp.raise_for_status()
                ids.append(uuid.UUID(resp.json()["id"]))
                break
    return ids, refused


def _db_now(session_factory: Any) -> Any:
    from sqlalchemy import text

    while True:
        try:
            with session_factory() as s:
                return s.execute(text("SELECT now()")).scalar_one()
        except Exception:
            time.sleep(0.5)


def _finished(session_factory: Any, ids: list[uuid.UUID]) -> int:
    try:
        st = harness.statuses(session_factory, ids)
    except Exception:  # the database is restarting
        return 0
    return sum(1 for s, _ in st.values() if s in ("done", "failed"))


def _last_finish(session_factory: Any, ids: list[uuid.UUID]) -> Any:
    from sqlalchemy import func, select

    from db.models import Audit

    with session_factory() as s:
        return s.scalar(select(func.max(Audit.finished_at)).where(Audit.id.in_(ids)))


@dataclass
class Strike:
    """One injected fault: what was unfinished when it began, and when its service was back."""

    fault: str
    in_flight: list[uuid.UUID]
    healed_at: Any


class Run:
    """One fault run's services and bookkeeping."""

    def __init__(self, args: argparse.Namespace) -> None:
        from db.engine import make_engine, make_session_factory

        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="claimaudit-fault-run-"))
        self.pg = harness.start_postgres()
        self.redis = harness.start_redis()
        url = self.pg.create_database("faultrun")
        harness.migrate(url)
        self.headers = harness.api_headers(url)
        self.env = {
            **os.environ,
            "DATABASE_URL": url,
            "REDIS_URL": self.redis.url,
            "CELERY_QUEUE": f"faultrun-{uuid.uuid4().hex[:6]}",
            "PYTHONUNBUFFERED": "1",
            **ADMISSION_OFF_ENV,
            **(harness.FAST_RECOVERY_ENV if args.fast else {}),
        }
        self.session_factory = make_session_factory(make_engine(url, connect_args={"connect_timeout": 3}))
        self.workers: list[harness.Process] = []
        self.api, self.base = harness.start_api(self.env, self.tmp / "api.log")
        self.refused = 0
        self.extra: list[uuid.UUID] = []
        self.extra_bodies: list[dict[str, Any]] = []

    def start_worker(self) -> harness.Process:
        command = harness.worker_command(self.args.concurrency)
        if self.args.supervised:  # as cli.stack runs it: default backoff (1 s, doubling to 60 s)
            command = [sys.executable, "-m", "cli.supervise", "worker", "--", *command]
        w = harness.spawn(command, self.env, self.tmp / f"worker-{len(self.workers)}.log")
        self.workers.append(w)
        self.wait_ready(w, 1)
        return w

    def wait_ready(self, w: harness.Process, times: int, timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        while w.output().count(" ready.") < times:
            if time.monotonic() > deadline or w.proc.poll() is not None:
                raise RuntimeError(w.output()[-3000:])
            time.sleep(0.2)

    def kill_worker(self) -> None:
        """SIGKILL the worker (main process and pool); supervised, the supervisor lives on and
        starts it again by itself, otherwise a new worker is started at once."""
        w = self.workers[-1]
        if not self.args.supervised:
            w.kill()
            self.start_worker()
            return
        for main in _children(w.proc.pid):
            for pid in [main, *_children(main)]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    def redis_outage(self, bodies: list[dict[str, Any]]) -> None:
        self.redis.kill()
        ids, refused = _submit(self.base, bodies, self.headers)
        self.extra += ids
        self.extra_bodies += bodies
        self.refused += refused
        time.sleep(self.args.outage_s)
        self.redis.start()

    def inject(self, fault: str, extra_bodies: list[dict[str, Any]]) -> None:
        outage = self.args.outage_s
        if fault == "worker-kill":
            self.kill_worker()
        elif fault == "redis-kill":
            self.redis_outage(extra_bodies)
        elif fault == "redis-kill-twice":
            self.redis_outage(extra_bodies)
            time.sleep(self.args.gap_s)  # the worker is reconnecting (and restoring unacked messages)
            self.redis.kill()
            time.sleep(2.0)
            self.redis.start()
        elif fault == "postgres-stop":
            self.pg.stop()
            t_end = time.monotonic() + outage
            with httpx.Client(base_url=self.base, headers=self.headers, timeout=30) as client:
                while time.monotonic() < t_end:
                    if client.post("/audits", json=extra_bodies[0]).status_code == 503:
                        self.refused += 1
                    time.sleep(1)
            self.pg.start()
        elif fault == "worker-stall":
            frozen = _pool_children(self.workers[-1].proc.pid)
            for pid in frozen:
                os.kill(pid, signal.SIGSTOP)
            self.start_worker()
            time.sleep(outage)
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)

    def strike(self, fault: str, ids: list[uuid.UUID], at: int, extra_bodies: list[dict[str, Any]]) -> Strike:
        """Wait until ``at`` of ``ids`` are finished (``--timeout-s`` at most), then inject ``fault``."""
        deadline = time.monotonic() + self.args.timeout_s
        while _finished(self.session_factory, ids) < at and time.monotonic() < deadline:
            time.sleep(0.5)
        st = harness.statuses(self.session_factory, ids)
        in_flight = [a for a, (s, _) in st.items() if s not in ("done", "failed")]
        print(f"{time.strftime('%H:%M:%S')} {fault}: {len(in_flight)} unfinished", file=sys.stderr)
        self.inject(fault, extra_bodies)
        return Strike(fault, in_flight, _db_now(self.session_factory))

    def worker_log_counts(self) -> dict[str, int]:
        logs = "".join(w.output() for w in self.workers)
        return {
            "worker_restarts": logs.count("; restarting in "),
            "worker_exits_unrecoverable": logs.count("Unrecoverable error"),
            "workers_ready": logs.count(" ready."),
            "fenced_late_runs": logs.count("its writes were rolled back"),
        }

    def close(self) -> None:
        for w in self.workers:
            w.stop()
        self.api.stop()
        self.redis.kill()
        self.pg.destroy()


def _split(
    args: argparse.Namespace, faults: list[str]
) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """The bodies submitted at the start, and per fault the bodies it may submit meanwhile."""
    extra_n = [REDIS_OUTAGE_AUDITS if f.startswith("redis-kill") else 0 for f in faults]
    bodies = harness.workload(args.audits)
    main_n = len(bodies) - sum(extra_n)
    extras, start = [], main_n
    for n in extra_n:
        extras.append(bodies[start : start + n] or bodies[:1])
        start += n
    return bodies[:main_n], extras


def _recovery(r: Run, strike: Strike, stuck: bool) -> float | None:
    last = _last_finish(r.session_factory, strike.in_flight) if strike.in_flight else None
    if last is None or stuck:
        return None
    return round(max(0.0, float((last - strike.healed_at).total_seconds())), 1)


def run(args: argparse.Namespace) -> dict[str, Any]:
    faults = [f for f in args.fault.split(",") if f]
    r = Run(args)
    try:
        main_bodies, extras = _split(args, faults)
        clean = harness.clean_run(r.session_factory, main_bodies + [b for e in extras for b in e])
        r.start_worker()
        t0 = time.monotonic()
        ids, refused = _submit(r.base, main_bodies, r.headers)
        r.refused += refused
        strikes = [
            r.strike(f, ids, len(ids) * (k + 1) // (len(faults) + 1), extras[k]) for k, f in enumerate(faults)
        ]
        all_ids = ids + r.extra
        harness.wait_finished(r.session_factory, all_ids, args.timeout_s)
        wall = time.monotonic() - t0
        if "worker-stall" in faults:
            time.sleep(args.outage_s)  # let the frozen runs wake up and try to write (they must not)
        result = harness.outcome(r.session_factory, all_ids, main_bodies + r.extra_bodies, clean)
        return {
            "fault": args.fault,
            "supervised": args.supervised,
            "audits": len(all_ids),
            **result.summary(),
            "refused_503": r.refused,
            **r.worker_log_counts(),
            "in_flight_at_fault": [len(s.in_flight) for s in strikes],
            "recovery_s": [_recovery(r, s, bool(result.stuck)) for s in strikes],
            "wall_s": round(wall, 1),
            "fast": args.fast,
            "failed_reasons": sorted(set(result.failed.values()))[:5],
            "stuck_ids": [str(a) for a in list(result.stuck)[:5]],
            "load_avg_1m": os.getloadavg()[0],
        }
    finally:
        r.close()


def _fault_list(value: str) -> str:
    unknown = [f for f in value.split(",") if f not in FAULTS]
    if unknown or not value:
        raise argparse.ArgumentTypeError(f"unknown fault(s) {unknown}; choose from {', '.join(FAULTS)}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fault", "--faults", type=_fault_list, required=True, help="F or F1,F2,...")
    parser.add_argument("--audits", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--outage-s", type=float, default=10.0)
    parser.add_argument("--gap-s", type=float, default=1.3, help="redis-kill-twice: restart to second kill")
    parser.add_argument("--timeout-s", type=float, default=900.0)
    parser.add_argument("--supervised", action="store_true", help="the worker under cli.supervise")
    parser.add_argument(
        "--fast", action="store_true", help="8 s leases and 1 s sweeps instead of 60 s / 15 s"
    )
    parser.add_argument("--out", type=Path, help="append the JSON line to this file")
    args = parser.parse_args()
    line = json.dumps(run(args))
    print(line)
    if args.out:
        with args.out.open("a") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
