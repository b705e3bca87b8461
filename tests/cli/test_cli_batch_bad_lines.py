"""`claimaudit batch` on lines the API cannot take (NaN, NUL, unknown fields) and duplicate ids,
against a real API (uvicorn in a thread on the test Postgres + Redis) and a real Celery worker."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from claimaudit import Client
from cli.batch import read_batch_input, run_batch

pytestmark = [pytest.mark.services, pytest.mark.slow]

CLAIMAUDIT = str(Path(sys.executable).parent / "claimaudit")
REF = "The Halvorsen Bridge opened to traffic on 12 May 1998."


def _write(path: Path, tag: str) -> list[str]:
    lines = [
        json.dumps({"id": f"{tag}-ok", "references": [REF], "response": "The bridge opened in 1998."}),
        # NaN (json.dumps writes it, Python's json reads it back; strict JSON and httpx refuse it)
        json.dumps(
            {"id": f"{tag}-nan", "references": [REF], "response": "x", "config": {"threshold": math.nan}}
        ),
        json.dumps({"id": f"{tag}-nul", "references": ["a\u0000b"], "response": "x"}),
        json.dumps({"id": f"{tag}-extra", "references": [REF], "response": "x", "kind": "oops"}),
        json.dumps({"id": f"{tag}-ok", "references": [REF], "response": "The bridge opened in 1998."}),
        json.dumps({"id": f"{tag}-blank", "references": ["  "], "response": "x"}),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines


def test_read_batch_input_rejects_nan_nul_and_unknown_fields(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    _write(path, "u")
    lines = read_batch_input(path)
    assert [ln.line_id for ln in lines] == ["u-ok", "u-nan", "u-nul", "u-extra", "u-ok", "u-blank"]
    assert (
        lines[1].body is None
        and "config.threshold" in (lines[1].error or "")
        and "nan" in (lines[1].error or "")
    )
    assert (
        lines[2].body is None
        and "references[0]" in (lines[2].error or "")
        and "NUL" in (lines[2].error or "")
    )
    assert lines[3].body is None and "unknown field(s) kind" in (lines[3].error or "")
    assert lines[5].body is not None  # a blank reference is the API's to reject


def test_batch_cli_gives_each_bad_line_its_own_rejection(live_api: str, tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    tag = f"cli-{os.getpid()}-{time.monotonic_ns() % 10**6}"
    _write(src, tag)
    proc = subprocess.run(
        [CLAIMAUDIT, "batch", str(src), "-o", str(out), "--api-url", live_api, "--stall-timeout", "300"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "200"},
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "used by more than one input line" in proc.stderr and f"{tag}-ok" in proc.stderr
    results = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["id"] for r in results] == [
        f"{tag}-ok", f"{tag}-nan", f"{tag}-nul", f"{tag}-extra", f"{tag}-ok", f"{tag}-blank"
    ]  # fmt: skip
    assert [r["status"] for r in results] == ["done", "rejected", "rejected", "rejected", "done", "rejected"]
    for r in (results[1], results[2], results[3]):
        assert set(r) == {"id", "line", "status", "error"} and r["error"].startswith(f"line {r['line']}")
    # the API's 422 message: the only reference is blank (a blank one among others would be kept)
    assert "references" in results[5]["error"] and "whitespace only" in results[5]["error"]
    # same id and content: one audit (same idempotency key), two output lines
    assert results[0]["audit_id"] == results[4]["audit_id"]
    assert not out.with_name(out.name + ".partial").exists()


def test_run_batch_journals_every_line_as_soon_as_known(live_api: str, tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    _write(src, f"j-{time.monotonic_ns() % 10**6}")
    lines = read_batch_input(src)
    journal: list[dict[str, Any]] = []
    with Client(live_api) as client:
        results = run_batch(client, lines, stall_timeout=300, journal=journal.append)
    assert sorted(json.dumps(r, sort_keys=True) for r in journal) == sorted(
        json.dumps(r, sort_keys=True) for r in results
    )
    # the rejected lines are journaled before any audit finishes (right after submission)
    assert [r["status"] for r in journal[:4]] == ["rejected"] * 4
    # the worker is listed once its pool process is warm (workers.readiness) and the count is
    # cached 5 s (api.routes.health.WORKER_CACHE_S): a 0 read before it warmed may still answer
    deadline = time.monotonic() + 30
    while (workers := httpx.get(f"{live_api}/healthz").json()["workers"]) < 1 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert workers >= 1
