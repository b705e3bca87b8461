"""``make bench-load``: a steady rate of single audits above capacity, against a private stack with
the backlog bounds on; what admission control holds and what it refuses.

One private stack (``tools/bench_stack.BenchStack``: a fresh database, queue, worker of
``--concurrency`` processes and API). For ``--duration`` seconds, ``POST /audits`` at ``--rate``
audits per second (the bench's workload, cycled, each response marked so that no cache has seen
it), plus a probe audit (``bench_workload.probe_audit``) every ``--probe-every`` seconds, after one
warm-up audit has gone through (the models loaded: the steady state, not a cold start). Then it
waits for every accepted audit to end (at most ``--drain-timeout`` s) and prints one line:

- ``sustainable_audits_s``: audits finished per second while the backlog was not empty (the
  workers' capacity under this workload);
- ``probe_p95_s_overload``: 95th percentile of the accepted probes' created → finished time (s);
- ``refused_share``: refused (503/429) over all audit submissions, probes included;
- ``lost``: accepted audits not ``done`` or ``failed`` after the drain (0 expected).

The bounds are the server's settings, passed through: ``--max-age`` (``MAX_BACKLOG_AGE_S``),
``--max-queued`` (``MAX_QUEUED_AUDITS``); the tenant bound is off (one tenant). Timings depend on
the machine and its load: a measurement, not a check.
"""

from __future__ import annotations

import argparse
import math
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.bench_stack import BenchStack  # noqa: E402
from tools.bench_workload import build_workload, probe_audit  # noqa: E402


@dataclass
class Tally:
    """Answers of the submissions so far (thread-safe)."""

    accepted: list[str] = field(default_factory=list)
    probes: list[str] = field(default_factory=list)
    refused: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, resp: httpx.Response | None, *, probe: bool) -> None:
        with self.lock:
            if resp is None:
                self.errors += 1
            elif resp.status_code == 202:
                self.accepted.append(resp.json()["id"])
                if probe:
                    self.probes.append(resp.json()["id"])
            elif resp.status_code in (429, 503):
                self.refused += 1
            else:
                self.errors += 1


def _post(client: httpx.Client, body: dict[str, Any]) -> httpx.Response | None:
    try:
        return client.post("/audits", json=body, timeout=30)
    except httpx.HTTPError:
        return None


def _send(tally: Tally, client: httpx.Client, body: dict[str, Any], probe: bool) -> None:
    tally.record(_post(client, body), probe=probe)


def _drive(api_url: str, bodies: list[dict[str, Any]], args: argparse.Namespace) -> Tally:
    """Submit at ``args.rate``/s for ``args.duration`` s, a probe every ``args.probe_every`` s."""
    tally = Tally()
    began = time.monotonic()
    total = int(args.rate * args.duration)
    next_probe = 0.0
    with httpx.Client(base_url=api_url) as client, ThreadPoolExecutor(16) as pool:
        for i in range(total):
            due = began + i / args.rate
            time.sleep(max(0.0, due - time.monotonic()))
            body = dict(bodies[i % len(bodies)])
            body["response"] = f"{body['response']} (load {i})"
            body.pop("id", None)
            pool.submit(_send, tally, client, body, False)
            if time.monotonic() - began >= next_probe:
                probe = probe_audit(i)
                probe.pop("id", None)
                pool.submit(_send, tally, client, probe, True)
                next_probe += args.probe_every
    return tally


def _warm_up(api_url: str, engine: sqlalchemy.Engine, timeout: float = 600) -> None:
    """One audit through the worker before the load: its models are loaded (a cold start is not
    the steady overload measured here) and a first finish gives admission a drain rate."""
    probe = probe_audit(10_000)
    probe.pop("id", None)
    audit_id = httpx.post(f"{api_url}/audits", json=probe, timeout=30).json()["id"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _ended(engine, [audit_id]).get(audit_id, ("", None))[0] in ("done", "failed"):
            return
        time.sleep(1)
    raise RuntimeError(f"the warm-up audit did not finish within {timeout} s")


def _ended(engine: sqlalchemy.Engine, ids: list[str]) -> dict[str, tuple[str, float | None]]:
    """{id: (status, created → finished seconds or None)} of the stored audits among ``ids``."""
    sql = sqlalchemy.text(
        "SELECT id::text, status, extract(epoch FROM finished_at - created_at) FROM audits "
        "WHERE id = ANY(CAST(:ids AS uuid[]))"
    )
    with engine.connect() as conn:
        rows = conn.execute(sql, {"ids": ids}).all()
    return {r[0]: (r[1], None if r[2] is None else float(r[2])) for r in rows}


def _capacity(engine: sqlalchemy.Engine) -> float:
    """Audits finished per second between the first and the last finish (the workers saturated)."""
    sql = "SELECT count(*), extract(epoch FROM max(finished_at) - min(finished_at)) FROM audits"
    with engine.connect() as conn:
        n, span = conn.execute(sqlalchemy.text(sql + " WHERE finished_at IS NOT NULL")).one()
    return float(n) / float(span) if n and span else float("nan")


def _p95(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def run(args: argparse.Namespace) -> dict[str, Any]:
    env = {
        "MAX_BACKLOG_AGE_S": str(args.max_age),
        "MAX_QUEUED_AUDITS": str(args.max_queued),
        "MAX_QUEUED_AUDITS_PER_TENANT": "0",
    }
    bench = BenchStack(concurrency=args.concurrency, env_extra=env)
    try:
        bench.setup()
        bench.start_round()
        engine = sqlalchemy.create_engine(bench.env["DATABASE_URL"])
        bodies = build_workload(120)
        _warm_up(bench.api_url, engine)
        tally = _drive(bench.api_url, bodies, args)
        deadline = time.monotonic() + args.drain_timeout
        while time.monotonic() < deadline:
            ended = _ended(engine, tally.accepted)
            if all(st in ("done", "failed") for st, _ in ended.values()) and len(ended) == len(
                tally.accepted
            ):
                break
            time.sleep(2)
        ended = _ended(engine, tally.accepted)
        lost = sum(1 for i in tally.accepted if ended.get(i, ("missing", None))[0] not in ("done", "failed"))
        probe_s = [s for i in tally.probes if (s := ended.get(i, ("", None))[1]) is not None]
        submitted = tally.refused + len(tally.accepted) + tally.errors
        out = {
            "sustainable_audits_s": round(_capacity(engine), 2),
            "probe_p95_s_overload": round(_p95(probe_s), 1),
            "refused_share": round(tally.refused / submitted, 3) if submitted else float("nan"),
            "lost": lost,
            "accepted": len(tally.accepted),
            "refused": tally.refused,
            "errors": tally.errors,
            "probes": len(tally.probes),
            "probe_s": sorted(round(x, 1) for x in probe_s),
        }
        engine.dispose()
        return out
    finally:
        bench.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=20.0, help="audits per second (default 20)")
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of load (default 120)")
    parser.add_argument("--probe-every", type=float, default=10.0, help="seconds between probes")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--max-age", type=float, default=30.0, help="MAX_BACKLOG_AGE_S (default 30)")
    parser.add_argument("--max-queued", type=int, default=1200, help="MAX_QUEUED_AUDITS (default 1200)")
    parser.add_argument("--drain-timeout", type=float, default=900.0, help="seconds to wait for the backlog")
    args = parser.parse_args()
    out = run(args)
    print(
        f"rate={args.rate:g} duration_s={args.duration:g} max_backlog_age_s={args.max_age:g} "
        f"max_queued_audits={args.max_queued} accepted={out['accepted']} refused={out['refused']} "
        f"errors={out['errors']} probes={out['probes']} probe_s={out['probe_s']}"
    )
    print(
        f"sustainable_audits_s={out['sustainable_audits_s']} "
        f"probe_p95_s_overload={out['probe_p95_s_overload']} "
        f"refused_share={out['refused_share']} lost={out['lost']}"
    )


if __name__ == "__main__":
    main()
