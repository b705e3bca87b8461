"""Latency, tokens per second and CPU cost of the LLM route against the local server (a benchmark,
deselected unless ``-m benchmark``; the figures of docs/LLM.md, "Measured against the local
server"):

    .venv/bin/pytest -m benchmark -s -p no:cacheprovider tests/llm/test_local_server_bench.py

The four audits of ``examples/`` go through the queue with ``decomposer`` and ``judge`` ``llm`` and
a cold cache (the worker's default settings, the server of ``tests/llm/local_server.py``). Per
stage it prints the requests, the mean latency of one request (the wall time of the stage's rows
in ``llm_usage``: from the previous row of the same stage, or from the start of the stage run,
``decomposing_at`` / ``matching_at``, to this one; the judge's first row includes the offline
matching before it), prompt and completion tokens and completion tokens per second; then the
server's CPU seconds per audit (``psutil``) and the wall time per audit.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
import sqlalchemy

from tests.llm.local_server import MODEL_ALIAS, LocalLLMServer
from tests.llm.test_llm_pipeline import run

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.benchmark]

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))
ROWS = sqlalchemy.text(
    "SELECT stage, calls, prompt_tokens, completion_tokens, extract(epoch FROM created_at) AS at "
    "FROM llm_usage WHERE audit_id = :a ORDER BY id"
)
STARTS = sqlalchemy.text(
    "SELECT extract(epoch FROM decomposing_at) AS decompose, extract(epoch FROM matching_at) AS judge "
    "FROM audits WHERE id = :a"
)


def test_llm_route_latency_and_cpu(local_api: Any, local_llm: LocalLLMServer, db_engine: Any) -> None:
    with db_engine.begin() as conn:
        conn.execute(sqlalchemy.text("DELETE FROM llm_cache WHERE model = :m"), {"m": MODEL_ALIAS})
    assert local_llm.proc is not None
    server = psutil.Process(local_llm.proc.pid)
    totals: dict[str, list[float]] = {}
    cpu = wall = 0.0
    for path in EXAMPLES:
        case = json.loads(path.read_text(encoding="utf-8"))
        before, began = sum(server.cpu_times()[:2]), time.monotonic()
        doc = run(
            local_api,
            case["response"],
            case["references"],
            {"decomposer": "llm", "judge": "llm"},
            timeout=900,
        )
        wall += time.monotonic() - began
        cpu += sum(server.cpu_times()[:2]) - before
        assert doc["status"] == "done", doc["error"]
        with db_engine.connect() as conn:
            rows = conn.execute(ROWS, {"a": doc["id"]}).all()
            starts = dict(conn.execute(STARTS, {"a": doc["id"]}).one()._mapping)
        for row in rows:
            stage = totals.setdefault(row.stage, [0, 0.0, 0, 0])
            stage[0] += row.calls
            stage[1] += float(row.at) - float(starts[row.stage])
            stage[2] += row.prompt_tokens
            stage[3] += row.completion_tokens
            starts[row.stage] = row.at
    print(f"\n{len(EXAMPLES)} audits, server {local_llm.command()[-4:]}")
    print("stage      requests  s/request  prompt tok/request  completion tok/request  completion tok/s")
    for stage, (calls, seconds, pt, ct) in sorted(totals.items()):
        n = max(calls, 1)
        rate = ct / seconds if seconds else 0.0
        print(f"{stage:<10} {calls:>8}  {seconds / n:>9.2f}  {pt / n:>18.0f}  {ct / n:>22.0f}  {rate:>16.1f}")
    print(f"server CPU s per audit: {cpu / len(EXAMPLES):.1f}; wall s per audit: {wall / len(EXAMPLES):.1f}")
