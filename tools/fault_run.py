"""Run N audits (default 200) through a private stack while one fault strikes; print the figures.

    .venv/bin/python tools/fault_run.py --fault redis-kill --audits 200

Faults (each injected once about a third into the run, when a third of the audits are done):

- ``none``          no fault (the baseline wall time);
- ``worker-kill``   SIGKILL the worker and all its pool processes, start a new worker at once;
- ``redis-kill``    SIGKILL Redis (no persistence: every queued and unacknowledged message is
                    lost), submit 10 audits during the outage, restart it empty after ``--outage-s``;
- ``postgres-stop`` stop Postgres (fast shutdown) for ``--outage-s``; POSTs meanwhile must be 503;
- ``worker-stall``  SIGSTOP every pool process of the worker (a frozen VM, a long GC pause) for
                    ``--outage-s`` while a second worker takes over the expired leases, then
                    SIGCONT: the frozen runs wake up and finish late (overlapping runs).

Figures (one JSON line on stdout, appended to ``--out`` if given): done, failed, stuck (not finished
``--timeout-s`` after the fault), duplicated (row counts differ from a clean run of the same input),
mismatched (result differs from the clean run), refused_503, wall_s, and recovery_s: from the end of
the fault (service back) until the last audit unfinished at the fault's start was done.

Everything runs on a private Postgres cluster and Redis (``tests/faults/harness.py``); the workers
use the production defaults for leases and the sweeper unless ``--fast`` (8 s leases, 1 s sweeps).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from tests.faults import harness  # noqa: E402

FAULTS = ("none", "worker-kill", "redis-kill", "postgres-stop", "worker-stall")


def _pool_children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


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
    st = harness.statuses(session_factory, ids)
    return sum(1 for s, _ in st.values() if s in ("done", "failed"))


def _last_finish(session_factory: Any, ids: list[uuid.UUID]) -> Any:
    from sqlalchemy import func, select

    from db.models import Audit

    with session_factory() as s:
        return s.scalar(select(func.max(Audit.finished_at)).where(Audit.id.in_(ids)))


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
            **(harness.FAST_RECOVERY_ENV if args.fast else {}),
        }
        self.session_factory = make_session_factory(make_engine(url, connect_args={"connect_timeout": 3}))
        self.workers: list[harness.Process] = []
        self.api, self.base = harness.start_api(self.env, self.tmp / "api.log")
        self.refused = 0
        self.extra: list[uuid.UUID] = []

    def start_worker(self) -> harness.Process:
        w = harness.spawn(
            harness.worker_command(self.args.concurrency),
            self.env,
            self.tmp / f"worker-{len(self.workers)}.log",
        )
        self.workers.append(w)
        deadline = time.monotonic() + 120
        while " ready." not in w.output():
            if time.monotonic() > deadline or w.proc.poll() is not None:
                raise RuntimeError(w.output()[-3000:])
            time.sleep(0.2)
        return w

    def inject(self, fault: str, extra_bodies: list[dict[str, Any]]) -> None:
        outage = self.args.outage_s
        if fault == "worker-kill":
            self.workers[-1].kill()
            self.start_worker()
        elif fault == "redis-kill":
            self.redis.kill()
            ids, refused = _submit(self.base, extra_bodies, self.headers)
            self.extra += ids
            self.refused += refused
            time.sleep(outage)
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

    def close(self) -> None:
        for w in self.workers:
            w.stop()
        self.api.stop()
        self.redis.kill()
        self.pg.destroy()


def run(args: argparse.Namespace) -> dict[str, Any]:
    r = Run(args)
    try:
        bodies = harness.workload(args.audits)
        extra_n = 10 if args.fault == "redis-kill" else 0
        main_bodies, extra_bodies = (
            bodies[: len(bodies) - extra_n],
            bodies[len(bodies) - extra_n :] or bodies[:1],
        )
        clean = harness.clean_run(r.session_factory, bodies)
        r.start_worker()
        t0 = time.monotonic()
        ids, refused = _submit(r.base, main_bodies, r.headers)
        r.refused += refused
        while _finished(r.session_factory, ids) < len(ids) // 3:
            time.sleep(0.5)
        st = harness.statuses(r.session_factory, ids)
        in_flight = [a for a, (s, _) in st.items() if s not in ("done", "failed")]
        r.inject(args.fault, extra_bodies)
        healed_at = _db_now(r.session_factory)
        all_ids = ids + r.extra
        harness.wait_finished(r.session_factory, all_ids, args.timeout_s)
        wall = time.monotonic() - t0
        if args.fault == "worker-stall":
            time.sleep(args.outage_s)  # let the frozen runs wake up and try to write (they must not)
        result = harness.outcome(
            r.session_factory, all_ids, main_bodies + extra_bodies[: len(r.extra)], clean
        )
        last = _last_finish(r.session_factory, in_flight) if in_flight else None
        recovery = None if last is None or result.stuck else max(0.0, (last - healed_at).total_seconds())
        fenced = sum(w.output().count("its writes were rolled back") for w in r.workers)
        return {
            "fault": args.fault,
            "audits": len(all_ids),
            **result.summary(),
            "refused_503": r.refused,
            "fenced_late_runs": fenced,
            "in_flight_at_fault": len(in_flight),
            "recovery_s": None if recovery is None else round(recovery, 1),
            "wall_s": round(wall, 1),
            "fast": args.fast,
            "failed_reasons": sorted(set(result.failed.values()))[:5],
            "stuck_ids": [str(a) for a in list(result.stuck)[:5]],
            "load_avg_1m": os.getloadavg()[0],
        }
    finally:
        r.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fault", choices=FAULTS, required=True)
    parser.add_argument("--audits", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--outage-s", type=float, default=10.0)
    parser.add_argument("--timeout-s", type=float, default=900.0)
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
