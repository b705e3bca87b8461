"""`claimaudit up/batch/demo/status/down` as subprocesses against a real local stack of their own.

The stack under test gets its own state dir, Postgres cluster, free ports and its own redis-server
(when redis-server is on PATH; else database 7 of the Redis on 6379), so it never touches the
developer's `claimaudit up` stack, the team's dev servers, or another test run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from cli import paths, processes, redis_server, stack
from tests.ui_login import ui_login

pytestmark = [pytest.mark.services, pytest.mark.slow]

# One state dir per test process (its cluster: see stack.default_pg_dir).
STATE = paths.project_root() / ".claimaudit" / f"test-cli-batch-{os.getpid()}"
PORTS = {name: processes.free_port() for name in ("pg", "api", "flower", "redis")}
CLAIMAUDIT = str(Path(sys.executable).parent / "claimaudit")
REDIS: dict[str, str] = {}


def _env() -> dict[str, str]:
    drop = ("DATABASE_URL", "REDIS_URL", "CLAIMAUDIT_API_URL")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        CLAIMAUDIT_STATE_DIR=str(STATE),
        CLAIMAUDIT_PG_PORT=str(PORTS["pg"]),
        CLAIMAUDIT_API_PORT=str(PORTS["api"]),
        CLAIMAUDIT_FLOWER_PORT=str(PORTS["flower"]),
        CLAIMAUDIT_REDIS_PORT=str(PORTS["redis"]),
        CLAIMAUDIT_REDIS_DB="7",  # the stack engineer's index, if it must share the Redis on 6379
        CLAIMAUDIT_WORKER_CONCURRENCY="1",
        COLUMNS="200",
        **REDIS,
    )
    return env


def _run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CLAIMAUDIT, *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def local_stack() -> Iterator[str]:
    """Start the stack with `claimaudit up`, yield the API URL, stop it with `claimaudit down`."""
    own_redis = shutil.which("redis-server") is not None
    if own_redis:
        with processes.temporary_env(CLAIMAUDIT_STATE_DIR=str(STATE)):
            REDIS["REDIS_URL"] = redis_server.start_redis(PORTS["redis"])
    proc = _run("up", "--no-flower", timeout=900)
    try:
        assert proc.returncode == 0, proc.stdout + proc.stderr
        yield f"http://127.0.0.1:{PORTS['api']}"
    finally:
        down = _run("down", timeout=300)
        if own_redis:
            with processes.temporary_env(CLAIMAUDIT_STATE_DIR=str(STATE)):
                stack.stop_redis(PORTS["redis"])
        assert down.returncode == 0, down.stdout + down.stderr
        assert "postgres" in down.stdout  # our cluster was stopped
        with processes.temporary_env(CLAIMAUDIT_STATE_DIR=str(STATE)):
            shutil.rmtree(stack.default_pg_dir(), ignore_errors=True)  # may live outside STATE
        shutil.rmtree(STATE, ignore_errors=True)


def _audit_rows() -> int:
    url = f"postgresql://postgres@127.0.0.1:{PORTS['pg']}/claimaudit"
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM audits").fetchone()
    assert row is not None
    return int(row[0])


REF = "The Halvorsen Bridge opened to traffic on 12 May 1998. It is 1,420 metres long."


def _write_input(path: Path, tag: str) -> None:
    lines = [
        json.dumps(
            {"id": f"{tag}-ok", "references": [REF], "response": "The bridge opened in 1998.", "config": {}}
        ),
        json.dumps({"id": f"{tag}-blank-ref", "references": ["   "], "response": "x", "config": {}}),
        "{this is not json",
        json.dumps({"id": f"{tag}-empty-response", "references": [REF], "response": "", "config": {}}),
        json.dumps({"id": f"{tag}-bad-config", "references": [REF], "response": "y", "config": {"nope": 1}}),
    ]
    path.write_text("\n".join(lines) + "\n")


def test_status_shows_running_services(local_stack: str) -> None:
    proc = _run("status")
    assert proc.returncode == 0, proc.stderr
    for name in ("postgres", "redis", "worker", "api"):
        assert name in proc.stdout
    assert "healthy" in proc.stdout


def test_batch_is_resumable_and_rejects_bad_lines(local_stack: str, tmp_path: Path) -> None:
    # tag makes the line ids unique to this run, so the first batch really creates audits
    tag = tmp_path.name
    inp = tmp_path / "in.jsonl"
    _write_input(inp, tag)
    before = _audit_rows()

    first = _run("batch", str(inp), "--output", str(tmp_path / "out1.jsonl"))
    assert first.returncode == 0, first.stdout + first.stderr
    out1 = [json.loads(line) for line in (tmp_path / "out1.jsonl").read_text().splitlines()]
    # one output line per input line, in input order
    assert [r["id"] for r in out1] == [
        f"{tag}-ok",
        f"{tag}-blank-ref",
        "line-3",
        f"{tag}-empty-response",
        f"{tag}-bad-config",
    ]
    ok, blank, not_json, empty, bad_config = out1
    assert ok["status"] == "done" and ok["audit_id"] and ok["scores"] is not None
    assert empty["status"] == "done" and empty["counts"]["response_claims"] == 0  # empty response is valid
    for rejected, field in ((blank, "references"), (not_json, "JSON"), (bad_config, "nope")):
        assert rejected["status"] == "rejected" and field in rejected["error"], rejected
        assert "audit_id" not in rejected
    # two audits stored (the rejected lines store nothing)
    assert _audit_rows() == before + 2

    second = _run("batch", str(inp), "--output", str(tmp_path / "out2.jsonl"))
    assert second.returncode == 0, second.stdout + second.stderr
    out2 = [json.loads(line) for line in (tmp_path / "out2.jsonl").read_text().splitlines()]
    assert [r.get("audit_id") for r in out2] == [r.get("audit_id") for r in out1]
    assert _audit_rows() == before + 2  # resumed: no new audits


def test_batch_result_matches_the_api_document(local_stack: str, tmp_path: Path) -> None:
    inp = tmp_path / "in.jsonl"
    _write_input(inp, tmp_path.name)
    assert _run("batch", str(inp), "--output", str(tmp_path / "out.jsonl")).returncode == 0
    line = json.loads((tmp_path / "out.jsonl").read_text().splitlines()[0])
    key = (STATE / "admin.key").read_text().strip()  # made by `claimaudit up` (mode 0600)
    headers = {"Authorization": f"Bearer {key}"}
    doc = httpx.get(f"{local_stack}/audits/{line['audit_id']}", headers=headers, timeout=30).json()
    # the batch adds the item id, the audit id and its input line number (1: the first line)
    assert line["line"] == 1
    assert {k: v for k, v in line.items() if k not in ("id", "audit_id", "line")} == {
        k: v for k, v in doc.items() if k != "id"
    }


def test_demo_prints_tables(local_stack: str) -> None:
    proc = _run("demo")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for text in ("response claim", "best evidence", "verdict", "claim_precision", "Edit script"):
        assert text in proc.stdout
    # one page URL per example audit, and each page answers
    pages = re.findall(r"^page: (http://\S+/ui/audits/[0-9a-f-]{36})$", proc.stdout, flags=re.M)
    assert len(pages) == len(list((Path(__file__).resolve().parents[2] / "examples").glob("*.json")))
    # the pages ask a browser to sign in; demo says where (the key itself is never printed)
    key = (STATE / "admin.key").read_text().strip()  # made by `claimaudit up` (mode 0600)
    assert f"{local_stack}/ui/login" in proc.stdout and "admin.key" in proc.stdout and key not in proc.stdout
    with httpx.Client(timeout=30) as browser:
        first = browser.get(pages[0])
        assert first.status_code == 303 and first.headers["location"].startswith("/ui/login")
        ui_login(browser, key, base=local_stack)
        for page in pages:
            resp = browser.get(page)
            assert resp.status_code == 200 and 'class="badge ' in resp.text
