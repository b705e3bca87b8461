"""Gate limits out of their range are refused before the API is asked, and a batch that waits
out a ``Retry-After`` says so on stderr (no services: the answers of the API are built here).

A refused limit exits 2 (README "Exit codes": usage); the API URL given is a closed port, so a
command that asked the API would exit 3 (unreachable) instead: exit 2 shows nothing was sent.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from claimaudit import Client
from cli import processes
from cli.main import app


def _closed_url() -> str:
    return f"http://127.0.0.1:{processes.free_port()}"


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        # the brief's example: 500 per cent of the run's items
        ("--max-unscored-share", "500", "--max-unscored-share: must be between 0 and 100"),
        ("--max-unscored-share", "-1", "--max-unscored-share: must be a finite number ≥ 0"),
        ("--max-unscored-share", "nan", "--max-unscored-share: must be a finite number ≥ 0"),
        ("--max-worse-share", "100.5", "--max-worse-share: must be between 0 and 100"),
        ("--max-contradicted-rise", "250", "--max-contradicted-rise: must be between 0 and 100"),
        ("--max-problem-rise", "101", "--max-problem-rise: must be between 0 and 100"),
        ("--max-f1-drop", "1e3", "--max-f1-drop: must be between 0 and 100"),
        ("--max-worse-items", "-3", "--max-worse-items: must be a finite number ≥ 0"),
    ],
)
def test_runs_compare_refuses_a_limit_out_of_its_range(option: str, value: str, says: str) -> None:
    result = CliRunner().invoke(
        app, ["runs", "compare", "s/a", "s/b", "--api-url", _closed_url(), option, value]
    )
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split()), result.output


@pytest.mark.parametrize("value", ["0", "100", "2.5"])
def test_runs_compare_takes_a_share_within_0_and_100(value: str) -> None:
    # in range: the command goes on to the API, which does not answer here (exit 3)
    args = ["runs", "compare", "s/a", "s/b", "--api-url", _closed_url(), "--max-unscored-share", value]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3, result.output


def test_suites_apply_refuses_a_bad_gate_before_any_suite_is_sent(tmp_path: Path) -> None:
    path = tmp_path / "suites.yaml"
    path.write_text(
        "suites:\n  good: {gate: {problem_share_rise: 3.0}}\n  bad: {gate: {unscored_items_share: 500}}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["suites", "apply", str(path), "--api-url", _closed_url()])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "suite bad: gate.unscored_items_share: must be between 0 and 100" in text
    assert "no suite was changed" in text


def _backlog_refusal(request: httpx.Request, retry_after: str = "0.1") -> httpx.Response:
    msg = "the backlog is full: 60 audits queued, the bound is 50 (server setting MAX_QUEUED_AUDITS)"
    body = {
        "detail": [
            {"loc": [], "msg": f"{msg}; retry after 4 s (16 audits over the bound)", "type": "backlog"}
        ]
    }
    return httpx.Response(503, json=body, headers={"Retry-After": retry_after}, request=request)


class FakeApi:
    """``POST /audits/batch`` refused once for a full backlog, then accepted; every audit done."""

    def __init__(self, refusals: int = 1) -> None:
        self.refusals = refusals
        self.audits: dict[str, dict[str, Any]] = {}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        body = json.loads(request.content or b"{}")
        if path == "/audits/batch":
            if self.refusals > 0:
                self.refusals -= 1
                return _backlog_refusal(request)
            out = []
            for index, _ in enumerate(body["audits"]):
                audit_id = str(uuid.uuid4())
                self.audits[audit_id] = {"id": audit_id, "status": "done", "response_claims": []}
                out.append(
                    {"index": index, "id": audit_id, "status": "queued", "poll_url": f"/audits/{audit_id}"}
                )
            return httpx.Response(202, json={"audits": out}, request=request)
        if path == "/audits/status":
            items = [{"id": i, "status": "done", "stage": None} for i in body["ids"]]
            return httpx.Response(200, json={"items": items, "missing": []}, request=request)
        if path == "/audits/documents":
            return httpx.Response(200, json={"items": [self.audits[i] for i in body["ids"]]}, request=request)
        return httpx.Response(404, json={"detail": "not here"}, request=request)


def _fake_client(api: FakeApi, **options: Any) -> Client:
    client = Client("http://api.test", "key", **options)
    client._http = httpx.Client(base_url="http://api.test", transport=httpx.MockTransport(api))
    return client


def test_the_client_tells_each_wait_before_it_retries() -> None:
    waits: list[tuple[float, int]] = []
    with _fake_client(FakeApi(refusals=2), on_wait=lambda s, r: waits.append((s, r.status_code))) as client:
        answered = client.submit_many([({"response": "x", "references": ["y"]}, "k1")])
    assert answered[0].id is not None
    # two refusals (Retry-After 0.1 s each), two waits told, then the answer
    assert waits == [(0.1, 503), (0.1, 503)]


def test_batch_says_on_stderr_that_it_waits_how_long_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cli import batch

    api = FakeApi(refusals=1)
    monkeypatch.setattr(batch, "ensure_api", lambda *a, **k: "http://api.test")
    monkeypatch.setattr(batch, "connect", lambda url, **options: _fake_client(api, **options))
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": "a", "response": "x", "references": ["y"]}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["batch", str(src), "-o", str(out), "--api-url", "http://api.test"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    # one line: how long, which request, the API's status, reason and message
    assert (
        "waiting 0.1 s before retrying POST /audits/batch: the API answered 503 backlog: "
        "the backlog is full: 60 audits queued" in text
    ), text
    assert text.count("waiting ") == 1
    assert [json.loads(x)["status"] for x in out.read_text().splitlines()] == ["done"]
