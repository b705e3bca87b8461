"""Latency, tokens per second and CPU cost of the LLM route against the local server (a benchmark,
deselected unless ``-m benchmark``; the figures of docs/LLM.md, "Measured against the local
server"):

    .venv/bin/pytest -m benchmark -s -p no:cacheprovider tests/llm/test_local_server_bench.py

Two measurements on the texts of ``examples/`` (four audits, ten texts), with the server of
``tests/llm/local_server.py`` and a cold cache:

1. per request, in this process: each text's decomposition request and each audit's judge
   request exactly as the worker sends them (``json_object``, ``max_tokens`` of the default
   settings; the judge's claims and evidence from the offline decomposer and the local
   embedder), timed one after the other; prints per stage the mean latency, prompt and
   completion tokens, and completion tokens per second of latency;
2. per audit, through the queue (decomposer and judge ``llm``, the worker's default settings):
   the server's CPU seconds (``psutil``, user + system) and the wall time per audit.
"""

from __future__ import annotations

import json
import statistics
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


def _cases() -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES]


def _judge_messages(case: dict[str, Any]) -> tuple[list[dict[str, str]], int]:
    """The judge request of ``case`` as the worker builds it (offline claims, local vectors)."""
    import numpy as np

    from claims.decompose import decompose
    from claims.embed import default_embedder
    from claims.types import Judgement, ReferenceClaim, Role, Verdict
    from workers.adapters.judge import judge_items
    from workers.adapters.prompts import judge_messages

    response = decompose(case["response"])
    refs = [
        ReferenceClaim(n, c)
        for n, text in enumerate(case["references"])
        for c in decompose(text, role=Role.REFERENCE)
    ]
    embed = default_embedder().embed
    sim = np.asarray(embed([c.text for c in response])) @ np.asarray(embed([r.claim.text for r in refs])).T
    rules = [Judgement(i, Verdict.UNSUPPORTED) for i in range(len(response))]
    items = judge_items(response, refs, sim, rules, top_k=3)
    return judge_messages(items), len(items)


def test_request_latency_per_stage(local_llm: LocalLLMServer) -> None:
    import openai

    from service.llm_config import LLMConfig
    from workers.adapters.prompts import decompose_messages

    cfg = LLMConfig()
    client = openai.OpenAI(base_url=local_llm.base_url, api_key="none", max_retries=0, timeout=900)
    asks: list[tuple[str, list[dict[str, str]], int]] = []
    for case in _cases():
        for text in dict.fromkeys([case["response"], *case["references"]]):
            asks.append(("decompose", decompose_messages(text), cfg.output_tokens("decompose", len(text))))
        messages, n = _judge_messages(case)
        asks.append(("judge", messages, cfg.output_tokens("judge", n)))
    rows: dict[str, list[tuple[float, int, int]]] = {"decompose": [], "judge": []}
    for stage, messages, max_tokens in asks:
        began = time.monotonic()
        resp = client.chat.completions.create(
            model=MODEL_ALIAS,
            messages=messages,  # type: ignore[arg-type]
            temperature=0,
            max_tokens=max_tokens,
            response_format={"type": "json_object"},
        )
        assert resp.usage is not None
        rows[stage].append((time.monotonic() - began, resp.usage.prompt_tokens, resp.usage.completion_tokens))
    print(f"\nload average {psutil.getloadavg()}; server {local_llm.command()[-4:]}")
    print("stage      requests  s/request (median)  prompt tok  completion tok  completion tok/s")
    for stage, found in rows.items():
        seconds = [r[0] for r in found]
        pt = statistics.mean(r[1] for r in found)
        ct = sum(r[2] for r in found)
        print(
            f"{stage:<10} {len(found):>8}  {statistics.mean(seconds):>7.1f} "
            f"({statistics.median(seconds):>5.1f})"
            f"       {pt:>10.0f}  {ct / len(found):>14.0f}  {ct / sum(seconds):>16.1f}"
        )


def test_server_cpu_per_audit(local_api: Any, local_llm: LocalLLMServer, db_engine: Any) -> None:
    with db_engine.begin() as conn:
        conn.execute(sqlalchemy.text("DELETE FROM llm_cache WHERE model = :m"), {"m": MODEL_ALIAS})
    assert local_llm.proc is not None
    server = psutil.Process(local_llm.proc.pid)
    cpu = wall = 0.0
    for case in _cases():
        before, began = sum(server.cpu_times()[:2]), time.monotonic()
        config = {"decomposer": "llm", "judge": "llm"}
        doc = run(local_api, case["response"], case["references"], config, timeout=1800)
        wall += time.monotonic() - began
        cpu += sum(server.cpu_times()[:2]) - before
        assert doc["status"] == "done", doc["error"]
        usage = doc["usage"]
        print(
            f"\n{case['title'][:40]:<40} requests {usage['llm_calls']} failed {usage['failed_calls']} "
            f"tokens {usage['prompt_tokens']}+{usage['completion_tokens']} fallbacks "
            f"{[f['stage'] for f in usage['fallbacks']]}"
        )
    n = len(EXAMPLES)
    print(
        f"load average {psutil.getloadavg()}; server CPU s per audit {cpu / n:.1f}; "
        f"wall s per audit {wall / n:.1f}"
    )
