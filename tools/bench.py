#!/usr/bin/env python3
"""Throughput and latency of claimaudit, in-process and through the queue, side by side (``make bench``).

Usage:
    python tools/bench.py [--audits 300] [--repeats 3] [--probes 20] [--concurrency CPUS]
                          [--data DIR] [--cases FILE] [--keep DIR] [--threads 1,2]

The workload is fixed (``tools/bench_workload.py``: Factcheck-GPT pairs, RAG-style audits with
3-5 passages, the examples; ``--data`` / ``--cases`` point at bigger data). Each of
``--repeats`` rounds runs, one after the other on the same machine:

1. in a fresh process (``tools/bench_inprocess.py``): the engine on the workload, the raw model
   on the texts the engine embedded, and ``--probes`` small audits one by one;
2. a fresh stack (``tools/bench_stack.py``: new database, queue, worker, API); one probe audit
   that shares no text with the workload, so that the worker has loaded its model (its latency
   is ``warmup_ms``); the workload through the API as ``claimaudit batch`` runs it, cold (empty
   embedding and decomposition caches), with one probe audit
   submitted behind that backlog; the workload again under new ids (warm caches); then the
   probes one by one on the idle stack (latency from POST to the answer ``done`` of a long poll,
   ``GET /audits/{id}?wait=30``, which comes back when the audit ends).

Figures are medians over the rounds. Ratios (higher is better):

- ``inprocess_vs_raw`` = raw model seconds / engine seconds on the same texts (1 = the engine
  costs only the model); the raw model's time is the faster of one call over all texts (batches
  of 64 sorted by length) and the engine's own calls (one per chunk of audits);
- ``queue_vs_inprocess`` = engine seconds / cold queue seconds for the same audits;
- ``first_audit_s``: seconds from the start of the cold batch's submission to its first
  ``finished_at``;
- ``single_p95_ms``: p95 end-to-end latency of a probe audit on the idle stack (nearest rank: of
  the default 20 probes, the 19th; ``single_max_ms`` is the slowest);
- ``single_target_ms``: the bound for it, the in-process probe p95 + 150 ms (median over
  the rounds); ``single_rounds_met`` of ``single_rounds``: the rounds whose own p95 met their own
  round's bound (counts, not medians: this machine's speed drifts within minutes).

``--keep DIR`` writes each round's result documents (``inprocess-N.jsonl``, ``queue-N.jsonl``)
for ``tools/compare_outputs.py``. The last line printed is
``queue_vs_inprocess=<r> inprocess_vs_raw=<r> first_audit_s=<s> single_p95_ms=<ms>
ref_heavy_audits_s=<r> repeated_passages_audits_s=<r> first_after_start_ratio=<r>``, where

- ``ref_heavy_audits_s``: audits a second of ``--ref-heavy`` WiCE-style audits (one reference per
  evidence sentence, config ``references = evidence``: lazy reference decomposition) in memory,
  in the fresh process of step 1 (one process, fresh caches);
- ``repeated_passages_audits_s``: audits a second of ``--repeated`` audits citing 5 of 20
  recurring passages (``bench_workload.repeated_passages_workload``) through the queue, on the
  last round's stack after its probes (its reference and embedding caches hold the probes only);
- ``first_after_start_ratio``: ``warmup_ms`` (the first audit a fresh stack takes, sent as soon
  as ``/healthz`` lists a worker: once its pool processes are warm, ``workers.readiness``) over
  the median of the probes on the idle stack.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import httpx  # noqa: E402
from bench_stack import BenchStack  # noqa: E402
from bench_workload import (  # noqa: E402
    build_workload,
    probe_audit,
    ref_heavy_workload,
    repeated_passages_workload,
)

from claimaudit import Client  # noqa: E402
from cli import stack  # noqa: E402
from cli.batch import read_batch_input, run_batch  # noqa: E402

TERMINAL = ("done", "failed", "rejected")
#: target: a single audit through the queue within the in-process time of the same audit + this
SINGLE_BUDGET_MS = 150.0


def _write(items: list[dict[str, Any]], path: Path, prefix: str = "") -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for item in items:
            fh.write(json.dumps({**item, "id": prefix + item["id"]}, ensure_ascii=False) + "\n")
    return path


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _latency_ms(http: httpx.Client, body: dict[str, Any]) -> float:
    """POST one audit, long-poll it (``GET /audits/{id}?wait=30``: the answer comes when it ends)
    until terminal; milliseconds from POST to the terminal answer."""
    started = time.perf_counter()
    resp = http.post("/audits", json={k: body[k] for k in ("references", "response")})
    resp.raise_for_status()
    audit_id = resp.json()["id"]
    while True:
        answer = http.get(f"/audits/{audit_id}", params={"wait": 30})
        answer.raise_for_status()  # a 404 or 503 ends the measurement, never a busy loop
        if answer.json().get("status") in TERMINAL:
            break
    return (time.perf_counter() - started) * 1000


def _finish_times(api_url: str, started_wall: float, n: int) -> dict[str, float]:
    """First-audit seconds and median latency (``finished_at - created_at``) from ``GET /audits``."""
    items = httpx.get(f"{api_url}/audits", params={"status": "done", "limit": 500}, timeout=60).json()[
        "items"
    ]
    fin = [(datetime.fromisoformat(a["finished_at"]), datetime.fromisoformat(a["created_at"])) for a in items]
    fin = [f for f in fin if f[1].timestamp() >= started_wall][:n]
    if not fin:
        return {"first_audit_s": float("nan"), "p50_latency_s": float("nan")}
    first = min(f.timestamp() for f, _ in fin) - started_wall
    return {
        "first_audit_s": first,
        "p50_latency_s": statistics.median((f - c).total_seconds() for f, c in fin),
    }


class RssSampler:
    """The peak resident memory of the worker's and the API's largest process while the block
    runs (``BenchStack.rss_mb`` every ``RSS_EVERY_S`` seconds, once more at the end)."""

    def __init__(self, bench: BenchStack) -> None:
        self.bench, self.peak, self._stop = bench, {}, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _look(self) -> None:
        for name, mb in self.bench.rss_mb().items():
            if mb == mb:  # not NaN
                self.peak[name] = max(self.peak.get(name, 0.0), mb)

    def _run(self) -> None:
        while not self._stop.wait(RSS_EVERY_S):
            self._look()

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._look()


#: Seconds between two memory samples of a queue batch.
RSS_EVERY_S = 0.5


def _queue_batch(bench: BenchStack, path: Path, n: int, *, probe: dict[str, Any] | None) -> dict[str, Any]:
    """The workload through ``cli.main.run_batch``; with ``probe``, one audit sent behind it."""
    probe_ms: list[float] = []

    def send_probe() -> None:
        with httpx.Client(base_url=bench.api_url, timeout=600) as http:
            while http.get("/audits", params={"limit": 1}).json()["total"] < n:
                time.sleep(0.2)
            probe_ms.append(_latency_ms(http, probe or {}))

    thread = threading.Thread(target=send_probe) if probe else None
    cpu0, wall0, t0 = bench.cpu_seconds(), time.time(), time.perf_counter()
    if thread:
        thread.start()
    with RssSampler(bench) as rss, Client(bench.api_url) as client:
        results = run_batch(client, read_batch_input(path))
    elapsed = time.perf_counter() - t0
    cpu1 = bench.cpu_seconds()
    if thread:
        thread.join()
    out: dict[str, Any] = {
        "wall_s": elapsed,
        "cpu_s": {k: cpu1[k] - cpu0[k] for k in cpu1},
        "results": results,
        "rss_mb_max": rss.peak,
    }
    out["statuses"] = sorted({str(r.get("status")) for r in results})
    out.update(_finish_times(bench.api_url, wall0, n))
    if probe_ms:
        out["backlog_probe_ms"] = probe_ms[0]
    return out


def _round(r: int, args: argparse.Namespace, workload: Path, bench: BenchStack, keep: Path) -> dict[str, Any]:
    n = sum(1 for _ in workload.open())
    cmd = [
        sys.executable,
        str(HERE / "bench_inprocess.py"),
        str(workload),
        "--output",
        str(keep / f"inprocess-{r}.jsonl"),
    ]
    cmd += ["--probes", str(args.probes), "--threads", args.threads]
    if args.ref_heavy:
        cmd += ["--ref-heavy", str(keep / "ref-heavy.jsonl")]
    inproc = json.loads(
        subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()[-1]
    )
    bench.start_round()
    with httpx.Client(base_url=bench.api_url, timeout=600) as http:  # the worker's model is loaded
        warmup_ms = _latency_ms(http, probe_audit(40_000 + r))
    cold_path = _write([json.loads(x) for x in workload.open()], keep / f"in-cold-{r}.jsonl", f"c{r}-")
    cold = _queue_batch(bench, cold_path, n, probe=probe_audit(20_000 + r))
    with (keep / f"queue-{r}.jsonl").open("w", encoding="utf-8") as fh:
        for doc in cold.pop("results"):
            fh.write(json.dumps({**doc, "id": doc["id"].split("-", 1)[1]}, ensure_ascii=False) + "\n")
    warm_path = _write([json.loads(x) for x in workload.open()], keep / f"in-warm-{r}.jsonl", f"w{r}-")
    warm = _queue_batch(bench, warm_path, n, probe=None)
    warm.pop("results")
    with httpx.Client(base_url=bench.api_url, timeout=600) as http:
        single = [_latency_ms(http, probe_audit(30_000 + 100 * r + i)) for i in range(args.probes)]
    repeated = None
    if args.repeated and r == args.repeats - 1:  # once: 1,000 audits take minutes
        path = keep / "repeated.jsonl"
        n_repeated = sum(1 for _ in path.open())
        repeated = _queue_batch(bench, path, n_repeated, probe=None)
        repeated.pop("results")
        repeated["audits"] = n_repeated
    bench.stop_processes()  # nothing of this round runs during the next in-process measurement
    return {
        "repeated": repeated,
        "inprocess": inproc,
        "cold": cold,
        "warm": warm,
        "single_ms": single,
        "warmup_ms": warmup_ms,
        "load": os.getloadavg(),
    }


def _summary(rounds: list[dict[str, Any]]) -> dict[str, float]:
    def med(fn: Any) -> float:
        return float(statistics.median(fn(x) for x in rounds))

    ip = lambda x: x["inprocess"]  # noqa: E731
    s = {
        "raw_sentences_per_s": med(lambda x: ip(x)["raw_texts"] / ip(x)["raw_s"]),
        "raw_per_audit_sentences_per_s": med(lambda x: ip(x)["raw_texts"] / ip(x)["raw_per_audit_s"]),
        "inprocess_audits_per_s": med(lambda x: ip(x)["audits"] / ip(x)["engine_s"]),
        "inprocess_claims_per_s": med(lambda x: ip(x)["claims"] / ip(x)["engine_s"]),
        "queue_cold_audits_per_s": med(lambda x: ip(x)["audits"] / x["cold"]["wall_s"]),
        "queue_warm_audits_per_s": med(lambda x: ip(x)["audits"] / x["warm"]["wall_s"]),
        "inprocess_vs_raw": med(lambda x: min(ip(x)["raw_s"], ip(x)["raw_per_audit_s"]) / ip(x)["engine_s"]),
        "queue_vs_inprocess": med(lambda x: ip(x)["engine_s"] / x["cold"]["wall_s"]),
        "first_audit_s": med(lambda x: x["cold"]["first_audit_s"]),
        "first_audit_share": med(lambda x: x["cold"]["first_audit_s"] / x["cold"]["wall_s"]),
        "p50_latency_share": med(lambda x: x["cold"]["p50_latency_s"] / x["cold"]["wall_s"]),
        "backlog_probe_ms": med(lambda x: x["cold"].get("backlog_probe_ms", float("nan"))),
        "warmup_ms": med(lambda x: x.get("warmup_ms", float("nan"))),
        "single_p50_ms": med(lambda x: _pct(x["single_ms"], 0.5)),
        "single_p95_ms": med(lambda x: _pct(x["single_ms"], 0.95)),
        "single_max_ms": med(lambda x: max(x["single_ms"])),
        "inprocess_probe_p50_ms": med(lambda x: _pct(ip(x)["probe_ms"], 0.5)),
        "inprocess_probe_p95_ms": med(lambda x: _pct(ip(x)["probe_ms"], 0.95)),
        # the target for single_p95_ms: the in-process p95 of the same probes + 150 ms, and
        # in how many rounds each round's p95 met its own round's target (this machine's speed
        # drifts by 2x within minutes: one median hides whether the figure holds)
        "single_target_ms": med(lambda x: _pct(ip(x)["probe_ms"], 0.95) + SINGLE_BUDGET_MS),
        "single_rounds_met": float(
            sum(
                _pct(x["single_ms"], 0.95) <= _pct(ip(x)["probe_ms"], 0.95) + SINGLE_BUDGET_MS for x in rounds
            )
        ),
        "single_rounds": float(len(rounds)),
    }
    for t in rounds[0]["inprocess"]["raw_threads"]:
        s[f"raw_threads_{t}_sentences_per_s"] = med(
            lambda x, t=t: ip(x)["raw_texts"] / ip(x)["raw_threads"][t]
        )
    for kind in ("cold", "warm"):
        for proc in rounds[0][kind]["cpu_s"]:
            s[f"cpu_s_{kind}_{proc}"] = med(lambda x, k=kind, p=proc: x[k]["cpu_s"][p])
    s["loadavg_1min"] = med(lambda x: x["load"][0])
    # the first audit a fresh worker takes (warmup_ms) against the median of the probes after it
    s["first_after_start_ratio"] = med(lambda x: x["warmup_ms"] / _pct(x["single_ms"], 0.5))
    if "ref_heavy_s" in rounds[0]["inprocess"]:
        s["ref_heavy_audits_s"] = med(lambda x: ip(x)["ref_heavy_audits"] / ip(x)["ref_heavy_s"])
    done = [x["repeated"] for x in rounds if x.get("repeated")]
    if done:
        s["repeated_passages_audits_s"] = float(statistics.median(d["audits"] / d["wall_s"] for d in done))
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--audits", type=int, default=300, help="audits in the workload")
    ap.add_argument("--repeats", type=int, default=3, help="rounds (figures are medians)")
    ap.add_argument(
        "--probes",
        type=int,
        default=20,
        help="single audits per round for the latency figures (20: their p95 is the 19th, not the maximum)",
    )
    ap.add_argument(
        "--concurrency",
        type=int,
        default=stack.DEFAULT_CONCURRENCY,
        help="worker processes (default: what claimaudit up starts, one per CPU)",
    )
    ap.add_argument("--threads", default="", help="also time the raw model with these torch thread counts")
    ap.add_argument(
        "--data",
        type=Path,
        help="folder with factcheck_gpt/stance_dev.jsonl (default: the checked-in sample)",
    )
    ap.add_argument("--cases", type=Path, help="a run_cases.py audits.jsonl to add to the workload")
    ap.add_argument(
        "--ref-heavy",
        type=int,
        default=40,
        help="WiCE-style audits (a reference per evidence sentence, references=evidence) in memory; 0: none",
    )
    ap.add_argument(
        "--ref-heavy-references",
        choices=("evidence", "full"),
        default="evidence",
        help="the config.references of the WiCE-style audits (full: every sentence decomposed, as before)",
    )
    ap.add_argument(
        "--repeated",
        type=int,
        default=1000,
        help="audits of 5 of 20 recurring passages through the queue, in the last round; 0: none",
    )
    ap.add_argument("--keep", type=Path, help="write workload, result documents and raw figures here")
    ap.add_argument("--worker-env", action="append", default=[], help="KEY=VALUE for the worker and API")
    args = ap.parse_args()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="claimaudit-bench-"))
    keep.mkdir(parents=True, exist_ok=True)
    workload = _write(
        build_workload(args.audits, data_dir=args.data, cases_file=args.cases), keep / "workload.jsonl"
    )
    if args.ref_heavy:
        _write(
            ref_heavy_workload(args.ref_heavy, references=args.ref_heavy_references), keep / "ref-heavy.jsonl"
        )
    if args.repeated:
        _write(repeated_passages_workload(args.repeated), keep / "repeated.jsonl")
    env = dict(kv.split("=", 1) for kv in args.worker_env)
    bench = BenchStack(concurrency=args.concurrency, env_extra=env)
    rounds = []
    try:
        bench.setup()
        for r in range(args.repeats):
            rounds.append(_round(r, args, workload, bench, keep))
            print(f"round {r + 1}/{args.repeats}: " + json.dumps(_summary(rounds[-1:])), file=sys.stderr)
    finally:
        bench.close()
    (keep / "rounds.json").write_text(json.dumps(rounds, indent=1))
    summary = _summary(rounds)
    summary["load_average_at_end"] = os.getloadavg()[0]
    for name, value in summary.items():
        print(f"{name:40s} {value:10.3f}")
    print(f"results in {keep}")
    peaks = [r[k].get("rss_mb_max", {}) for r in rounds for k in ("cold", "warm") if k in r]
    worker = max((p.get("worker", 0.0) for p in peaks), default=float("nan"))
    api = max((p.get("api", 0.0) for p in peaks), default=float("nan"))
    print(f"worker_rss_mb_max={worker:.0f} api_rss_mb_max={api:.0f}")
    extra = ("ref_heavy_audits_s", "repeated_passages_audits_s", "first_after_start_ratio")
    print(
        f"queue_vs_inprocess={summary['queue_vs_inprocess']:.3f} "
        f"inprocess_vs_raw={summary['inprocess_vs_raw']:.3f} "
        f"first_audit_s={summary['first_audit_s']:.2f} single_p95_ms={summary['single_p95_ms']:.0f} "
        + " ".join(f"{k}={summary[k]:.3f}" for k in extra if k in summary)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
