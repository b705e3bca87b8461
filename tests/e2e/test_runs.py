"""End to end, on real services: a suite scheduled every minute runs twice through Celery beat,
the second run's input has a planted regression, the comparison lists exactly the changed claim,
a local webhook receiver gets two signed deliveries that verify, ``/metrics`` shows the audits and
the stage histograms; and ``claimaudit batch --suite --run`` is resumable.

Services: Postgres+pgvector, Redis, one Celery worker with an embedded beat (``-B``) whose
scheduler tick runs every 2 s (``RUNS_TICK_S``; the cron semantics stay real: the suite fires
at minute boundaries, so the first test waits one to two minutes), the API served by uvicorn on
a local port (the CLI talks HTTP to it), and a local HTTP server as webhook receiver.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from cli.main import app as cli_app
from tests.conftest import WorkerProcess, alembic_config, empty_queue, make_key

pytestmark = [pytest.mark.services, pytest.mark.slow]

SECRET = "test-webhook-secret"
BRIDGE = "The Halvorsen Bridge opened to traffic on 12 May 1998."
PRIZE = "In 2004, the cellist Ines Marlow won the Varga Prize in Vienna."
WATER = "Water boils at 100 degrees Celsius at sea level."
#: Three items, each response one material claim that its reference supports.
GOLDEN = [
    {"id": "bridge", "references": [BRIDGE], "response": "The Halvorsen Bridge opened in 1998."},
    {"id": "prize", "references": [PRIZE], "response": "Ines Marlow won the Varga Prize in 2004."},
    {"id": "water", "references": [WATER], "response": "Water boils at 100 degrees Celsius at sea level."},
]
#: The planted regression: the prize year is wrong in the second run's input (2004 → 2001).
REGRESSED = "Ines Marlow won the Varga Prize in 2001."


def _write_jsonl(path: Path, items: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Receiver:
    """A local webhook receiver: records (headers, raw body) of every POST, answers 200."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[dict[str, str], bytes]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.deliveries.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _verifies(headers: dict[str, str], body: bytes) -> bool:
    """The receiver's own check (not the project's code): HMAC-SHA256(secret, "<ts>." + body)."""
    ts = headers["x-claimaudit-timestamp"]
    expected = "sha256=" + hmac.new(SECRET.encode(), f"{ts}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers.get("x-claimaudit-signature", "")) and (
        abs(time.time() - int(ts)) < 300
    )


@pytest.fixture(scope="module")
def sources_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SUITE_SOURCE_DIR of these tests; tenant ``default``'s file sources lie in ``default/``."""
    root = tmp_path_factory.mktemp("suite-sources")
    (root / "default").mkdir()
    return root


def suite_env(sources_root: Path) -> dict[str, str]:
    """The suite settings these tests need (off by default): file sources under ``sources_root``,
    the webhook receiver on loopback."""
    return {"SUITE_SOURCE_DIR": str(sources_root), "WEBHOOK_ALLOW_PRIVATE": "true"}


@pytest.fixture(scope="module")
def metrics_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("prometheus")


@pytest.fixture(scope="module")
def runs_database(fresh_database: Callable[[str], str]) -> str:
    """A migrated database of this module's own. The session's database holds other modules'
    unfinished audits, and a worker's sweeper sends every due one in its database (by design:
    docs/RELIABILITY.md); here they would add to the stage counts that ``/metrics`` must show."""
    from alembic import command

    url = fresh_database("runs")
    command.upgrade(alembic_config(url), "head")
    return url


@pytest.fixture(scope="module")
def runs_api_key(runs_database: str) -> Iterator[str]:
    """An admin key of tenant ``default`` in :func:`runs_database` (as the session's ``api_key``)."""
    from db.auth_models import SCOPES
    from db.engine import make_engine, make_session_factory

    engine = make_engine(runs_database)
    try:
        key, _ = make_key(
            make_session_factory(engine),
            "default",
            SCOPES,
            name="runs",
            requests_per_second=0,
            audits_per_minute=0,
        )
        yield key
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def worker(
    start_worker: Callable[..., WorkerProcess],
    tmp_path_factory: pytest.TempPathFactory,
    metrics_dir: Path,
    sources_root: Path,
    runs_database: str,
    redis_server_url: str,
) -> Iterator[WorkerProcess]:
    beat_file = tmp_path_factory.mktemp("beat") / "schedule"
    empty_queue(redis_server_url)  # no message of an earlier module reaches this worker
    env = {
        "DATABASE_URL": runs_database,
        "RUNS_TICK_S": "2",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
        **suite_env(sources_root),
    }
    w = start_worker(env, concurrency=2, args=("-B", "-s", str(beat_file)))
    yield w
    w.stop()


@pytest.fixture(scope="module")
def api_url(
    worker: WorkerProcess,
    runs_database: str,
    redis_server_url: str,
    metrics_dir: Path,
    runs_api_key: str,
    sources_root: Path,
) -> Iterator[str]:
    """The API served by uvicorn on a free local port (real HTTP, as the CLI and a receiver see it);
    the tests' admin key is in ``CLAIMAUDIT_API_KEY`` meanwhile (the CLI sends it, ``_client`` too)."""
    from api.main import create_app
    from cli import processes
    from service.settings import Settings

    settings = Settings(
        database_url=runs_database,
        redis_url=redis_server_url,
        prometheus_multiproc_dir=str(metrics_dir),
        suite_source_dir=str(sources_root),
        webhook_allow_private=True,
    )
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    with processes.temporary_env(CLAIMAUDIT_API_KEY=runs_api_key):
        yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def _client(api_url: str) -> httpx.Client:
    """An HTTP client of the API with the tests' admin key (see ``api_url``)."""
    return httpx.Client(
        base_url=api_url, timeout=30, headers={"Authorization": f"Bearer {os.environ['CLAIMAUDIT_API_KEY']}"}
    )


def _runs(http: httpx.Client, suite: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = http.get("/runs", params={"suite": suite}).json()["items"]
    return sorted(items, key=lambda r: r["created_at"])


def _status(http: httpx.Client, run_id: str) -> str:
    return str(http.get(f"/runs/{run_id}").json()["status"])


def _wait(what: str, check: Callable[[], Any], timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"{what}: not after {timeout} s")


def test_scheduled_suite_runs_twice_and_reports_the_planted_regression(
    api_url: str, sources_root: Path, metrics_dir: Path
) -> None:
    source = sources_root / "default" / "golden.jsonl"  # the API key's tenant is "default"
    _write_jsonl(source, GOLDEN)
    receiver = Receiver()
    suite = "nightly-golden"
    try:
        with _client(api_url) as http:
            definition: dict[str, Any] = {
                "cron": "* * * * *",
                "source": {"jsonl": "golden.jsonl"},  # taken from SUITE_SOURCE_DIR/default/
                "webhook": {"url": receiver.url, "secret": SECRET},
                "gate": {"contradicted_share_rise": 2.0},
            }
            resp = http.put(f"/suites/{suite}", json=definition)
            assert resp.status_code == 201, resp.text
            assert resp.json()["webhook"] == {
                "url": receiver.url,
                "signed": True,
            }  # the secret is never shown

            # run 1 fires at the next minute boundary; once its items are read, plant the regression
            first = _wait("run 1 sealed", lambda: [r for r in _runs(http, suite) if r["sealed_at"]], 150)[0]
            _write_jsonl(source, [GOLDEN[0], {**GOLDEN[1], "response": REGRESSED}, GOLDEN[2]])
            two = _wait(
                "run 2 created", lambda: (lambda rs: rs if len(rs) >= 2 else None)(_runs(http, suite)), 150
            )
            definition["enabled"] = False  # no third run
            assert http.put(f"/suites/{suite}", json=definition).status_code == 200
            second = two[1]
            for run in (first, second):
                _wait(f"run {run['label']} finished", lambda r=run: _status(http, r["id"]) == "finished", 240)
            _check_schedule(http, suite, first, second)
            _check_summaries(http, first["id"], second["id"])
            _check_comparison(http, api_url, suite, first, second)
            _check_webhooks(http, receiver, first["id"], second["id"])
            _check_metrics(http)
    finally:
        receiver.close()


def _check_schedule(http: httpx.Client, suite: str, first: dict[str, Any], second: dict[str, Any]) -> None:
    # one run per cron slot, one minute apart, labelled by their slot; never two for one slot
    runs = _runs(http, suite)
    assert [r["label"] for r in runs[:2]] == [first["label"], second["label"]]
    assert len({r["label"] for r in runs}) == len(runs)
    t1, t2 = (datetime.fromisoformat(r["scheduled_for"]) for r in (first, second))
    assert t2 - t1 == timedelta(minutes=1)
    assert t1.second == 0 and t1.microsecond == 0
    assert first["label"] == t1.strftime("%Y-%m-%dT%H:%MZ")
    assert first["source"] == "schedule:jsonl"


def _check_summaries(http: httpx.Client, first_id: str, second_id: str) -> None:
    one, two = (http.get(f"/runs/{i}").json() for i in (first_id, second_id))
    # 3 items, 3 done audits, one material claim each (GOLDEN's docstring); run 2 has 1 contradicted
    for doc in (one, two):
        assert doc["summary"]["items"] == 3
        assert doc["summary"]["counts"]["done"] == 3
        assert doc["summary"]["response_claims"] == 3
        assert doc["audits"]["total"] == 3
        assert [a["item_id"] for a in doc["audits"]["items"]] == ["bridge", "prize", "water"]
        assert doc["duration_s"] is not None and doc["duration_s"] > 0
    assert one["summary"]["verdicts"]["supported"] == 3
    assert one["summary"]["shares"]["contradicted"] == 0.0
    assert two["summary"]["verdicts"]["contradicted"] == 1
    assert two["summary"]["shares"]["contradicted"] == pytest.approx(1 / 3)
    assert two["summary"]["previous_run_id"] == first_id
    # the default gate (claims.run_diff.Gate): 1 of 3 claims went supported -> contradicted, so
    # both shares rose by 1/3 and 1 of 3 items got worse
    assert sorted(two["summary"]["gate"]["crossed"]) == [
        "33.3% of the items got a worse verdict mix (limit 2.0%)",
        "contradicted share rose by 33.3 points (limit 2.0)",
        "problem share rose by 33.3 points (limit 2.0)",
    ]


def _check_comparison(
    http: httpx.Client, api_url: str, suite: str, first: dict[str, Any], second: dict[str, Any]
) -> None:
    doc = http.get(f"/runs/{second['id']}/compare", params={"with": "previous"}).json()
    assert doc["base"]["id"] == first["id"] and doc["items_compared"] == 3
    # exactly the planted change: the prize claim, supported → contradicted, both texts and evidence
    assert len(doc["changed_claims"]) == 1
    change = doc["changed_claims"][0]
    assert change["item_id"] == "prize"
    assert (change["before"]["verdict"], change["after"]["verdict"]) == ("supported", "contradicted")
    assert "2004" in change["before"]["text"] and "2001" in change["after"]["text"]
    assert "2004" in change["after"]["evidence"] and "2004" in change["before"]["evidence"]
    assert "2001" in change["after"]["reason"] and "2004" in change["after"]["reason"]
    assert doc["new_claims"] == [] and doc["vanished_claims"] == []
    assert [w["item_id"] for w in doc["worse_items"]] == ["prize"]
    assert doc["shares"]["contradicted"]["delta_points"] == pytest.approx(100 / 3)
    assert doc["gate"]["passed"] is False
    # the CLI fails on the suite's gate (2 points) and passes with a wider one (33.3 < 50)
    refs = [f"{suite}/{first['label']}", f"{suite}/{second['label']}"]
    runner = CliRunner()
    failed = runner.invoke(cli_app, ["runs", "compare", *refs, "--api-url", api_url])
    assert failed.exit_code == 1, failed.output
    assert "supported → contradicted" in failed.output and "gate crossed" in failed.output
    passed = runner.invoke(
        cli_app, ["runs", "compare", *refs, "--api-url", api_url, "--max-contradicted-rise", "50"]
    )
    assert passed.exit_code == 0, passed.output


def _check_webhooks(http: httpx.Client, receiver: Receiver, first_id: str, second_id: str) -> None:
    _wait("two webhook deliveries", lambda: len(receiver.deliveries) >= 2, 60)
    time.sleep(1)  # nothing else may come
    assert len(receiver.deliveries) == 2
    got = []
    for headers, body in receiver.deliveries:
        assert _verifies(headers, body), headers
        payload = json.loads(body)
        assert headers["x-claimaudit-event"] == payload["event"]
        assert payload["run"]["status"] == "finished" and payload["run"]["summary"]["items"] == 3
        got.append((payload["event"], payload["run"]["id"]))
        if payload["event"] == "run.quality_drop":  # the crossed gate travels with the summary
            assert sorted(payload["run"]["summary"]["gate"]["crossed"]) == [
                "33.3% of the items got a worse verdict mix (limit 2.0%)",
                "contradicted share rose by 33.3 points (limit 2.0)",
                "problem share rose by 33.3 points (limit 2.0)",
            ]
            assert payload["links"]["compare"] == f"/runs/{second_id}/compare?with=baseline"
            # ... and says which run it was compared with (the first, the last whose gate held)
            baseline = payload["run"]["summary"]["baseline"]
            assert (baseline["run_id"], baseline["chosen"]) == (first_id, "last run whose gate held")
    assert sorted(got) == sorted([("run.finished", first_id), ("run.quality_drop", second_id)])
    deliveries = http.get(f"/runs/{second_id}/deliveries").json()["items"]
    assert [(d["status"], d["attempts"], d["last_status_code"]) for d in deliveries] == [
        ("delivered", 1, 200)
    ]


def _check_metrics(http: httpx.Client) -> None:
    resp = http.get("/metrics")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(resp.text)
        for s in family.samples
    }
    # the 6 audits of the two runs went through this module's worker (its own metrics directory
    # and database): the only audits there
    assert samples[("claimaudit_audits", (("status", "done"),))] == 6
    for stage in ("decomposing", "embedding", "matching", "scoring"):
        assert samples[("claimaudit_stage_duration_seconds_count", (("stage", stage),))] == 6
        assert samples[("claimaudit_stage_duration_seconds_bucket", (("le", "+Inf"), ("stage", stage)))] == 6
    assert samples[("claimaudit_audits_finished_total", (("status", "done"),))] == 6
    assert samples[("claimaudit_verdicts_total", (("verdict", "supported"),))] == 5
    assert samples[("claimaudit_verdicts_total", (("verdict", "contradicted"),))] == 1
    assert samples[("claimaudit_runs_finished_total", (("event", "run.quality_drop"),))] == 1
    # every priority list of the queue is counted (kombu: "<queue>" and "<queue>\x06\x16<n>")
    for priority in range(10):
        assert ("claimaudit_queue_depth", (("priority", str(priority)), ("queue", _queue()))) in samples
    # created → finished of each audit, the wait in the queue included
    assert samples[("claimaudit_audit_latency_seconds_count", (("status", "done"),))] == 6


def _queue() -> str:
    import os

    return os.environ["CELERY_QUEUE"]


def test_batch_run_is_resumable_per_suite_and_item_id(api_url: str, tmp_path: Path) -> None:
    source = tmp_path / "cases.jsonl"
    _write_jsonl(source, GOLDEN)
    args = ["batch", str(source), "-o", str(tmp_path / "out.jsonl"), "--suite", "cli-suite", "--run", "r1",
            "--api-url", api_url, "--stall-timeout", "240"]  # fmt: skip
    runner = CliRunner()
    first = runner.invoke(cli_app, args)
    assert first.exit_code == 0, first.output
    ids = [json.loads(line)["audit_id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    again = runner.invoke(cli_app, args)  # resumed: the same audits, nothing new
    assert again.exit_code == 0, again.output
    assert [json.loads(line)["audit_id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()] == ids
    with _client(api_url) as http:
        runs = http.get("/runs", params={"suite": "cli-suite"}).json()
        assert runs["total"] == 1 and runs["items"][0]["source"] == "cli"
        run = _wait("cli run finished", lambda: (lambda d: d if d["status"] == "finished" else None)(
            http.get(f"/runs/{runs['items'][0]['id']}").json()), 60)  # fmt: skip
        assert sorted(a["audit_id"] for a in run["audits"]["items"]) == sorted(ids)
        # the run is finished: a request that would add to it (other content for a known id, a
        # new id) is refused whole, 409, and nothing of it is stored
        items = [{**GOLDEN[0], "response": "changed"}, {**GOLDEN[0], "id": "new"}]
        resp = http.post("/runs", json={"suite": "cli-suite", "label": "r1", "items": items})
        assert resp.status_code == 409, resp.text
        error = resp.json()["detail"][0]
        assert error["type"] == "run_finished" and "run cli-suite/r1 is finished at" in error["msg"]
        assert "1 new item id ('new')" in error["msg"] and "1 known id with other content" in error["msg"]
        again = http.get(f"/runs/{runs['items'][0]['id']}").json()
        assert again["audits"]["total"] == run["audits"]["total"] and again["rejections_total"] == 0
