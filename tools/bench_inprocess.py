#!/usr/bin/env python3
"""One in-process round of ``tools/bench.py``, in a fresh process (so no cache is warm).

Usage:
    python tools/bench_inprocess.py WORKLOAD.jsonl --output OUT.jsonl [--probes N] [--threads 1,2]

After loading the model and the parser (and a warm-up audit that shares no text with the
workload), it measures, and prints one JSON object on stdout:

- ``engine_s``, ``engine_cpu_s``, ``audits``, ``claims``: the workload through
  ``tools/inprocess_batch.run_chunk`` in chunks of ``CHUNK`` audits (what run_cases.py runs),
  with a fresh in-memory embedding cache and empty decomposition and parse caches; the result
  documents go to OUT;
- ``raw_s``: all-MiniLM-L6-v2 alone on exactly the texts the engine embedded (each distinct text
  once, ``batch_size`` 64, sorted by length inside sentence-transformers), ``raw_texts``;
  ``raw_per_audit_s`` the same texts in the engine's own calls (one per chunk); ``raw_threads`` the raw
  time with each thread count of ``--threads``;
- ``probe_ms``: the in-process time of each probe audit (``bench_workload.probe_audit``);
- with ``--ref-heavy FILE``: ``ref_heavy_s`` and ``ref_heavy_audits``, the reference-heavy
  workload (``bench_workload.ref_heavy_workload``) through the engine as ``engine_s``, with fresh
  caches, its documents in ``OUT`` with ``.refheavy`` before the suffix.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_workload import probe_audit  # noqa: E402
from inprocess_batch import CHUNK, run_chunk, run_line, start_up  # noqa: E402

from claims import decompose as decompose_module  # noqa: E402
from claims import parses  # noqa: E402
from claims.embed import CachedEmbedder, EmbedderWrapper, InMemoryEmbeddingCache, default_embedder  # noqa: E402


class Recording(EmbedderWrapper):
    """Passes ``embed`` through and keeps each call's texts (what the model really saw)."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        out: np.ndarray = self.inner.embed(texts)
        return out


def _timed(fn: Any) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def _engine(items: list[dict[str, Any]], output: Path) -> dict[str, Any]:
    decompose_module.CACHE.clear()
    parses.clear()
    recording = Recording(default_embedder())
    embedder = CachedEmbedder(recording, InMemoryEmbeddingCache())
    wall, cpu, docs = _timed(
        lambda: [
            doc for k in range(0, len(items), CHUNK) for doc in run_chunk(items[k : k + CHUNK], embedder)
        ]
    )
    with output.open("w", encoding="utf-8") as fh:
        for doc in docs:
            fh.write(json.dumps(doc, ensure_ascii=False) + "\n")
    claims = sum(len(d.get("claims", [])) for d in docs)
    return {
        "engine_s": wall,
        "engine_cpu_s": cpu,
        "audits": len(items),
        "claims": claims,
        "calls": recording.calls,
    }


def _raw(calls: list[list[str]], threads: list[int]) -> dict[str, Any]:
    import torch

    model = default_embedder()
    texts = [t for call in calls for t in call]
    out: dict[str, Any] = {"raw_texts": len(texts)}
    out["raw_s"] = _timed(lambda: model.embed(texts))[0]
    out["raw_per_audit_s"] = _timed(lambda: [model.embed(c) for c in calls])[0]
    before = torch.get_num_threads()
    out["raw_threads"] = {}
    for n in threads:
        torch.set_num_threads(n)
        out["raw_threads"][str(n)] = _timed(lambda: model.embed(texts))[0]
    torch.set_num_threads(before)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workload", type=Path)
    ap.add_argument("--output", type=Path, required=True)
    ap.add_argument("--probes", type=int, default=10)
    ap.add_argument("--ref-heavy", type=Path, help="a second workload, timed alone (ref_heavy_s)")
    ap.add_argument(
        "--threads", default="", help="comma-separated torch thread counts to time the raw model with"
    )
    args = ap.parse_args()
    items = [
        json.loads(line) for line in args.workload.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    start_up()  # as tools/inprocess_batch.py and a worker process: models loaded, heap settled
    warm = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    run_line(probe_audit(10_000), warm)  # the verdict data and torch's kernels
    result = _engine(items, args.output)
    calls = result.pop("calls")
    result.update(_raw(calls, [int(t) for t in args.threads.split(",") if t.strip()]))
    fresh = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    result["probe_ms"] = [
        _timed(lambda i=i: run_line(probe_audit(i), fresh))[0] * 1000 for i in range(args.probes)
    ]
    if args.ref_heavy is not None:
        heavy = [json.loads(x) for x in args.ref_heavy.read_text(encoding="utf-8").splitlines() if x.strip()]
        timed = _engine(heavy, args.output.with_suffix(".refheavy.jsonl"))
        result["ref_heavy_s"], result["ref_heavy_audits"] = timed["engine_s"], timed["audits"]
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
