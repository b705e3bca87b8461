"""End to end: HTTP submit (FastAPI TestClient) → Redis → Celery worker in its own process →
Postgres → poll over HTTP → result document. One worker for the module (the model loads once)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from db import repository as repo
from db.engine import session_scope
from db.models import Audit
from tests.conftest import WorkerProcess

pytestmark = [pytest.mark.services, pytest.mark.slow]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REFERENCE = (
    "In 2004, the 23-year-old cellist Ines Marlow won the Varga Prize in Vienna. She was chosen by a jury "
    "chaired by the composer Teodor Halm."
)


def poll(client: TestClient, audit_id: str, timeout: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    doc: dict[str, Any] = {}
    while time.monotonic() < deadline:
        doc = client.get(f"/audits/{audit_id}").json()
        if doc["status"] in {"done", "failed", "rejected"}:
            return doc
        time.sleep(0.2)
    raise AssertionError(f"audit {audit_id} not finished after {timeout} s: {doc.get('status')}")


@pytest.fixture(scope="module")
def orphan(session_factory: Any) -> uuid.UUID:
    """An audit committed while the broker was unreachable: queued, never enqueued, a minute old."""
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s,
            repo.NewAudit(
                response="Ines Marlow won in 2004.", references=[REFERENCE], request_sha256="orphan"
            ),
        )
        s.execute(update(Audit).where(Audit.id == audit.id).values(created_at=Audit.created_at - _minute()))
        return audit.id


def _minute() -> Any:
    from datetime import timedelta

    return timedelta(minutes=1)


@pytest.fixture(scope="module")
def worker(
    orphan: uuid.UUID, start_worker: Callable[..., WorkerProcess], redis_server_url: str
) -> Iterator[WorkerProcess]:
    w = start_worker(concurrency=2)
    yield w
    w.stop()


@pytest.fixture
def api(worker: WorkerProcess, settings: Any, auth_headers: dict[str, str]) -> Any:
    from api.main import create_app

    with TestClient(create_app(settings), headers=auth_headers) as c:
        yield c


def test_example_audit_goes_through_the_queue(api: TestClient, worker: WorkerProcess) -> None:
    example = json.loads((EXAMPLES / "02_wrong_date.json").read_text())
    body = {k: example[k] for k in ("response", "references", "question") if k in example}
    body["metadata"] = {"example": "02_wrong_date"}
    accepted = api.post("/audits", json=body, headers={"Idempotency-Key": f"e2e-{uuid.uuid4()}"})
    assert accepted.status_code == 202
    aid = accepted.json()["id"]
    assert accepted.json()["poll_url"] == f"/audits/{aid}"
    doc = poll(api, aid)
    assert doc["status"] == "done", doc["error"]
    assert doc["id"] == aid and doc["stage"] is None and doc["error"] is None and doc["finished_at"]
    assert doc["metadata"] == {"example": "02_wrong_date"}
    assert set(doc["scores"]) == set(repo.SCORE_NAMES)
    assert set(doc["counts"]) == set(repo.COUNT_NAMES)
    response_claims = [c for c in doc["claims"] if c["role"] == "response"]
    reference_claims = [c for c in doc["claims"] if c["role"] == "reference"]
    assert response_claims and reference_claims
    assert all(c["verdict"] for c in response_claims) and all(c["verdict"] is None for c in reference_claims)
    for c in response_claims:
        for e in c["evidence"]:
            ref_text = body["references"][e["reference"]]
            assert 0 <= e["start"] <= e["end"] <= len(ref_text)
            assert -1.0 <= e["similarity"] <= 1.0
    # the example's response says 1989 where the reference says 1998 (examples/02_wrong_date.json)
    assert any(c["verdict"] == "contradicted" and "1989" in c["text"] for c in response_claims)
    assert any(op["op"] == "substitute" for op in doc["edit_script"])
    # every task of the chain ran in the worker process, with task events on
    log = worker.output()
    for name in ("audits.decompose", "audits.embed", "audits.match", "audits.score"):
        assert f"Task {name}[" in log


def test_batch_through_the_queue(api: TestClient) -> None:
    tag = uuid.uuid4().hex[:6]
    items = [
        {"response": f"Ines Marlow won the Varga Prize in 2004 ({tag}).", "references": [REFERENCE]},
        {"response": "", "references": [REFERENCE]},
        {"response": "x", "references": ["   "]},
        {
            "response": "Teodor Halm chaired the jury.",
            "references": [REFERENCE],
            "config": {"threshold": 0.5},
        },
    ]
    resp = api.post("/audits/batch", json={"audits": items})
    assert resp.status_code == 202
    results = resp.json()["audits"]
    assert [r["status"] for r in results] == ["queued", "queued", "rejected", "queued"]
    docs = [poll(api, r["id"]) for r in results if r["id"]]
    assert [d["status"] for d in docs] == ["done", "done", "done"]
    assert docs[1]["counts"]["response_claims"] == 0  # empty response: zero claims
    assert docs[2]["config"] == {"threshold": 0.5} and docs[2]["threshold"] == 0.5


def test_done_document_has_the_threshold_it_was_scored_with(api: TestClient) -> None:
    from claims.match import DEFAULT_THRESHOLD

    aid = api.post("/audits", json={"response": "Teodor Halm chaired the jury.", "references": [REFERENCE]})
    doc = poll(api, aid.json()["id"])
    assert doc["status"] == "done", doc["error"]
    assert doc["config"] == {}
    # no threshold sent: scored with the engine default (claims.match.DEFAULT_THRESHOLD)
    assert doc["threshold"] == DEFAULT_THRESHOLD
    assert doc["effective_config"]["threshold"] == DEFAULT_THRESHOLD


def test_a_long_poll_brings_the_done_document_whose_usage_is_what_the_llm_tables_say(
    api: TestClient, session_factory: Any
) -> None:
    from db import llm_repository

    batch = api.post(
        "/audits/batch",
        json={
            "audits": [
                {"response": "Ines Marlow won the Varga Prize in 2004.", "references": [REFERENCE]},
                {"response": "", "references": [REFERENCE]},  # no claim: nothing judgeable
            ]
        },
    )
    ids = [r["id"] for r in batch.json()["audits"]]
    docs = []
    for aid in ids:
        doc = api.get(f"/audits/{aid}", params={"wait": 30}).json()
        while doc["status"] not in {"done", "failed", "rejected"}:  # 30 s passed: ask again
            doc = api.get(f"/audits/{aid}", params={"wait": 30}).json()
        assert doc["status"] == "done", doc["error"]
        docs.append(doc)
    # a done offline audit's usage is not read from the LLM tables (api.documents): it must be
    # exactly what they would have said (zeros; llm_judged_share 0.0, or None with no claim)
    with session_factory() as s:
        stored = llm_repository.usage_for_audits(s, [uuid.UUID(a) for a in ids])
    assert [d["usage"] for d in docs] == [stored[uuid.UUID(a)] for a in ids]
    assert [d["usage"]["llm_judged_share"] for d in docs] == [0.0, None]


def test_healthz_counts_the_running_worker(api: TestClient, worker: WorkerProcess) -> None:
    from api.routes import health

    # listed once its pool processes are warm (workers.readiness): seconds after " ready." at most
    deadline = time.monotonic() + 60
    while True:
        health._cache.clear()  # a count cached earlier (no worker yet, or still warming) must not answer
        resp = api.get("/healthz")
        assert resp.status_code == 200
        body = resp.json()
        if body["workers"] >= 1 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert body["status"] == "ok" and body["workers"] >= 1, body


def test_search_finds_stored_claims(api: TestClient) -> None:
    aid = api.post(
        "/audits", json={"response": "The Varga Prize is awarded in Vienna.", "references": [REFERENCE]}
    )
    assert poll(api, aid.json()["id"])["status"] == "done"
    resp = api.get("/claims/search", params={"q": "Where is the Varga Prize awarded?", "k": 3})
    assert resp.status_code == 200, resp.text
    items = resp.json()["items"]
    assert len(items) == 3
    assert (
        items[0]["text"]
        and items[0]["audit_id"]
        and items[0]["poll_url"] == f"/audits/{items[0]['audit_id']}"
    )
    assert any("Varga Prize" in i["text"] for i in items)
    assert api.get("/claims/search", params={"q": "  "}).status_code == 422


def test_audit_never_enqueued_is_recovered_when_a_worker_starts(
    api: TestClient, orphan: uuid.UUID, session_factory: Any
) -> None:
    # the worker's start-up hook ran audits.requeue_stale(only_unsent=True)
    doc = poll(api, str(orphan))
    assert doc["status"] == "done"
    with session_factory() as s:
        audit = repo.get_audit(s, orphan)
        assert audit is not None and audit.enqueued_at is not None
