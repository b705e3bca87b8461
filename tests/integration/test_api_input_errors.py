"""Input errors of the HTTP API on real Postgres and Redis: per-item batch results, NUL bytes,
non-finite numbers, null config keys, one error per wrong type, LLM config without an endpoint."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from db import repository as repo
from db.models import Audit, Document

pytestmark = pytest.mark.services


def _msg(resp: Any) -> str:
    """The messages of an error body (``detail`` is always a list of {loc, msg, type})."""
    detail = resp.json()["detail"]
    assert isinstance(detail, list), detail
    return "; ".join(str(item["msg"]) for item in detail)


VALID: dict[str, Any] = {
    "response": "Water boils at 90 °C.",
    "references": ["Water boils at 100 °C at sea level."],
}


def _count(session_factory: Any) -> tuple[int, int]:
    with session_factory() as s:
        return (
            int(s.scalar(select(func.count()).select_from(Audit)) or 0),
            int(s.scalar(select(func.count()).select_from(Document)) or 0),
        )


def _post_raw(client: TestClient, path: str, text: str) -> Any:
    """POST a body written by hand (``NaN``/``1e999`` cannot come from ``json=``)."""
    return client.post(path, content=text.encode(), headers={"content-type": "application/json"})


# --------------------------------------------------------------------------- 1: batch


def test_batch_with_a_nul_item_and_a_non_object_is_202_per_item(
    client: TestClient, session_factory: Any
) -> None:
    key = f"rv-a-{uuid.uuid4().hex[:8]}"
    before = _count(session_factory)
    resp = client.post(
        "/audits/batch",
        json={
            "audits": [
                {**VALID, "idempotency_key": key},
                {"references": ["a\u0000"], "response": "x"},
                5,
                {**VALID, "question": "second valid"},
                {**VALID, "metadata": {"note": "b\u0000"}},
            ]
        },
    )
    assert resp.status_code == 202, resp.text
    items = resp.json()["audits"]
    assert [i["index"] for i in items] == [0, 1, 2, 3, 4]
    assert [i["status"] for i in items] == ["queued", "rejected", "rejected", "queued", "rejected"]
    assert "references.0" in items[1]["error"] and "NUL" in items[1]["error"]
    assert "must be an object" in items[2]["error"]
    assert "metadata" in items[4]["error"] and "NUL" in items[4]["error"]
    for bad in (items[1], items[2], items[4]):
        assert bad["id"] is None and bad["poll_url"] is None
    # Two valid items: 2 audits and 2 × (1 response + 1 reference) documents, nothing for the others.
    after = _count(session_factory)
    assert (after[0] - before[0], after[1] - before[1]) == (2, 4)
    with session_factory() as s:
        for ok in (items[0], items[3]):
            audit = repo.get_audit(s, uuid.UUID(ok["id"]))
            assert audit is not None and audit.enqueued_at is not None  # committed, then enqueued


def test_batch_replay_and_key_conflict_are_per_item(client: TestClient, session_factory: Any) -> None:
    key = f"rv-b-{uuid.uuid4().hex[:8]}"
    first = client.post("/audits/batch", json={"audits": [{**VALID, "idempotency_key": key}]}).json()
    aid = first["audits"][0]["id"]
    before = _count(session_factory)
    resp = client.post(
        "/audits/batch",
        json={
            "audits": [
                {**VALID, "idempotency_key": key},  # replay: same id
                {**VALID, "question": "other body", "idempotency_key": key},  # conflict
            ]
        },
    )
    assert resp.status_code == 202, resp.text
    replay, conflict = resp.json()["audits"]
    assert replay["id"] == aid and replay["status"] == "queued"
    assert conflict["status"] == "rejected" and "already used" in conflict["error"]
    assert _count(session_factory) == before


# --------------------------------------------------------------------------- 2: NUL, non-finite, null


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**VALID, "response": "a\u0000b"}, "body.response"),
        ({**VALID, "references": ["ok", "a\u0000b"]}, "body.references.1"),
        ({**VALID, "question": "a\u0000b"}, "body.question"),
        ({**VALID, "metadata": {"k": ["x", "a\u0000b"]}}, "body.metadata"),
        ({**VALID, "metadata": {"a\u0000b": 1}}, "body.metadata"),
        ({**VALID, "config": {"llm_model": "a\u0000b"}}, "body.config.llm_model"),
        ({**VALID, "config": {"threshold": None}}, "body.config.threshold"),
        ({**VALID, "config": {"case_insensitive": None}}, "body.config.case_insensitive"),
    ],
)
def test_nul_and_null_are_422_naming_the_field(
    client: TestClient, session_factory: Any, body: dict[str, Any], field: str
) -> None:
    before = _count(session_factory)
    resp = client.post("/audits", json=body)
    assert resp.status_code == 422, resp.text
    fields = [".".join(str(p) for p in e["loc"]) for e in resp.json()["detail"]]
    assert any(f.startswith(field) for f in fields), resp.json()
    assert _count(session_factory) == before


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ('"config": {"threshold": NaN}', "body.config.threshold"),
        ('"config": {"threshold": 1e999}', "body.config.threshold"),
        ('"config": {"threshold": -Infinity}', "body.config.threshold"),
        ('"metadata": {"score": NaN}', "body.metadata"),
    ],
)
def test_non_finite_numbers_are_a_clean_422(
    client: TestClient, session_factory: Any, raw: str, field: str
) -> None:
    before = _count(session_factory)
    body = '{"response": "x", "references": ["y"], ' + raw + "}"
    resp = _post_raw(client, "/audits", body)
    assert resp.status_code == 422, resp.text
    detail = json.loads(resp.text)["detail"]  # strict JSON: parses, echoed input made a string
    assert any(".".join(str(p) for p in e["loc"]).startswith(field) for e in detail), detail
    assert _count(session_factory) == before


def test_wrong_threshold_type_is_one_error(client: TestClient) -> None:
    resp = client.post("/audits", json={**VALID, "config": {"threshold": "high"}})
    assert resp.status_code == 422
    detail = resp.json()["detail"]
    assert len(detail) == 1, detail
    assert detail[0]["loc"] == ["body", "config", "threshold"]


def test_integer_threshold_is_still_accepted(client: TestClient) -> None:
    resp = client.post("/audits", json={**VALID, "config": {"threshold": 1}})
    assert resp.status_code == 202, resp.text


# --------------------------------------------------------------------------- 5: LLM without endpoint


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ({"decomposer": "llm"}, "decomposer"),
        ({"judge": "llm"}, "judge"),
        ({"embedder": "openai"}, "embedder"),
    ],
)
def test_llm_config_without_endpoint_is_422(
    settings: Any,
    redis_url: str,
    session_factory: Any,
    config: dict[str, str],
    key: str,
    auth_headers: dict[str, str],
) -> None:
    from api.main import create_app

    bare = settings.model_copy(update={"openai_base_url": None, "openai_api_key": None})
    before = _count(session_factory)
    with TestClient(create_app(bare), headers=auth_headers) as c:
        resp = c.post("/audits", json={**VALID, "config": config})
        assert resp.status_code == 422, resp.text
        assert f"config.{key}" in _msg(resp)
        assert "no LLM endpoint configured (set OPENAI_BASE_URL / OPENAI_API_KEY)" in _msg(resp)
        batch = c.post("/audits/batch", json={"audits": [{**VALID, "config": config}]}).json()["audits"]
        assert batch[0]["status"] == "rejected" and "no LLM endpoint configured" in batch[0]["error"]
        assert c.post("/audits", json={**VALID, "config": {"decomposer": "offline"}}).status_code == 202
    after = _count(session_factory)
    assert after[0] - before[0] == 1  # only the offline audit


def test_llm_config_with_endpoint_is_accepted(
    settings: Any, redis_url: str, auth_headers: dict[str, str]
) -> None:
    from api.main import create_app

    configured = settings.model_copy(
        update={"openai_base_url": "http://127.0.0.1:9/v1", "openai_api_key": "k"}
    )
    with TestClient(create_app(configured), headers=auth_headers) as c:
        resp = c.post("/audits", json={**VALID, "config": {"decomposer": "llm"}})
        assert resp.status_code == 202, resp.text


# --------------------------------------------------------------------------- 4: healthz workers


def test_healthz_without_workers_is_degraded_200(
    settings: Any, redis_url: str, auth_headers: dict[str, str]
) -> None:
    from api.main import create_app
    from api.routes import health

    lonely = settings.model_copy(update={"celery_queue": f"nobody-listens-{uuid.uuid4().hex[:8]}"})
    health._cache.clear()
    with TestClient(create_app(lonely), headers=auth_headers) as c:
        resp = c.get("/healthz")
        ready = c.get("/readyz")
    assert resp.status_code == 200, resp.text
    assert resp.json() == {"status": "degraded", "database": "ok", "redis": "ok", "workers": 0}
    # readiness: no worker consumes the queue, so this API is not ready (liveness stays 200)
    assert ready.status_code == 503 and int(ready.headers["Retry-After"]) >= 1
    assert ready.json()["workers"] == 0


# --------------------------------------------------------------------------- 6: effective config


def test_document_shows_the_effective_threshold(client: TestClient) -> None:
    from claims.match import DEFAULT_THRESHOLD

    plain = client.post("/audits", json=VALID).json()["id"]
    doc = client.get(f"/audits/{plain}").json()
    assert doc["config"] == {}  # what the client sent
    # nothing set: the engine's calibrated default (claims.match.DEFAULT_THRESHOLD), flags off
    assert doc["effective_config"] == {
        "threshold": DEFAULT_THRESHOLD,
        "case_insensitive": False,
        "remove_punctuation": False,
    }
    custom = client.post("/audits", json={**VALID, "config": {"threshold": 0.5, "case_insensitive": True}})
    doc = client.get(f"/audits/{custom.json()['id']}").json()
    assert doc["effective_config"]["threshold"] == 0.5 and doc["effective_config"]["case_insensitive"] is True


def test_a_rejected_line_number_beyond_a_postgres_integer_is_422(client: TestClient) -> None:
    """Found by the OpenAPI fuzz test (schemathesis): ``line`` 2**31 was a 500 (integer out of range)."""
    body = {"suite": "fuzz", "items": [], "rejected": [{"reason": "bad json", "line": 2**31}]}
    resp = client.post("/runs", json=body)
    assert resp.status_code == 422, resp.text
    assert [".".join(str(p) for p in e["loc"]) for e in resp.json()["detail"]] == ["body.rejected.0.line"]
    ok = {**body, "rejected": [{"reason": "bad json", "line": 2**31 - 1}]}
    assert client.post("/runs", json=ok).status_code in (201, 202), "the largest line is stored"


def test_an_item_whose_field_name_holds_a_nul_is_rejected_and_stored_as_text(client: TestClient) -> None:
    """Found by the OpenAPI fuzz test (schemathesis): an item with a NUL in a field name was a 500
    (Postgres text cannot hold NUL), because the rejection's reason quotes the field's path."""
    suite = f"fuzz-nul-{uuid.uuid4().hex[:8]}"
    body = {"suite": suite, "items": [{"id": 0, "references": [{"\u0000": None}], "response": ""}]}
    resp = client.post("/runs", json=body)
    assert resp.status_code in (201, 202), resp.text
    run_id = resp.json()["run"]["id"]
    rejections = [json.loads(x) for x in client.get(f"/runs/{run_id}/rejections").text.splitlines()]
    assert len(rejections) == 1, rejections
    assert "\\u0000" in rejections[0]["reason"] and "\x00" not in rejections[0]["reason"]
