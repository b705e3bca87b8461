"""Every way an audit enters goes through ``service.admission``: ``/runs``, ``PUT /suites``, the
method checks and the scheduled runs enforce the limits, the model allow-list and the token
budget of ``POST /audits``, and store nothing when they refuse; a tenant's keys share its limits."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_key
from tests.security.conftest import Tenant, message, new_tenant

pytestmark = pytest.mark.services

VALID = {"references": ["Water boils at 100 °C at sea level."], "response": "Water boils at 90 °C."}
EVIL = {"llm_model": "gpt-evil", "judge": "llm"}


def _headers(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _run(items: list[dict[str, Any]], suite: str = "s") -> dict[str, Any]:
    return {"suite": suite, "label": "l1", "items": items}


def _items(n: int, **extra: Any) -> list[dict[str, Any]]:
    return [{"id": f"i{i}", **VALID, **extra} for i in range(n)]


def _count(session_factory: Any, table: str, tenant: str) -> int:
    from sqlalchemy import text

    with session_factory() as s:
        return int(
            s.execute(text(f"SELECT count(*) FROM {table} WHERE tenant_id = :t"), {"t": tenant}).scalar()
        )


def test_runs_count_against_the_keys_audits_per_minute(bare: Any, session_factory: Any) -> None:
    tenant = f"runs-{uuid.uuid4().hex[:8]}"
    key, _ = make_key(session_factory, tenant, ("audits:write", "audits:read"), audits_per_minute=5)
    too_many = bare.post("/runs", json=_run(_items(6)), headers=_headers(key))
    assert too_many.status_code == 413 and "5 audits per minute" in message(too_many)
    assert bare.post("/runs", json=_run(_items(3), "a"), headers=_headers(key)).status_code == 202
    over = bare.post("/runs", json=_run(_items(3), "b"), headers=_headers(key))
    assert over.status_code == 429 and 1 <= int(over.headers["Retry-After"]) <= 60
    assert "audits_per_minute" in message(over)
    assert _count(session_factory, "audits", tenant) == 3  # the refused requests stored nothing
    assert _count(session_factory, "runs", tenant) == 1


def test_runs_and_suites_apply_the_model_allow_list(llm_app: Any, session_factory: Any) -> None:
    tenant = new_tenant(session_factory, "runmodels")
    resp = llm_app.post("/runs", json=_run(_items(1, config=EVIL)), headers=tenant.headers)
    assert resp.status_code == 202
    item = resp.json()["items"][0]
    assert item["status"] == "rejected" and "ALLOWED_LLM_MODELS" in item["error"]
    assert _count(llm_app.app.state.session_factory, "audits", tenant.id) == 0
    suite = llm_app.put("/suites/nightly", json={"config": EVIL}, headers=tenant.headers)
    assert suite.status_code == 422 and "ALLOWED_LLM_MODELS" in message(suite)
    assert llm_app.get("/suites", headers=tenant.headers).json()["items"] == []
    ok = llm_app.put("/suites/nightly", json={"config": {"llm_model": "small-chat"}}, headers=tenant.headers)
    assert ok.status_code == 201


def _spend(session_factory: Any, tenant: Tenant, budget: int) -> None:
    from db import auth_repository as keys_repo
    from db import llm_repository
    from db import repository as repo

    with session_factory() as s:
        keys_repo.set_tenant_budget(s, tenant.id, budget)
        audit, _ = repo.create_audit(
            s, repo.NewAudit(response="r", references=["x"], request_sha256="0" * 64, tenant_id=tenant.id)
        )
        llm_repository.record_usage(
            s, audit_id=audit.id, stage="judge", model="small-chat", calls=1,
            prompt_tokens=budget, completion_tokens=0,
        )  # fmt: skip
        s.commit()


def test_runs_and_checks_refuse_llm_work_once_the_budget_is_spent(llm_app: Any, session_factory: Any) -> None:
    tenant = new_tenant(session_factory, "runbudget")
    _spend(session_factory, tenant, 100)
    items = _items(1, config={"judge": "llm"}) + [{"id": "offline", **VALID}]
    resp = llm_app.post("/runs", json=_run(items), headers=tenant.headers).json()["items"]
    assert resp[0]["status"] == "rejected" and "budget" in resp[0]["error"]
    assert resp[1]["status"] == "queued"  # offline work is still accepted
    assert _count(session_factory, "audits", tenant.id) == 2  # the spending one and the offline item
    offline = llm_app.post("/audits", json=VALID, headers=tenant.headers).json()["id"]
    # a second audit by the LLM judge is LLM work too: refused before anything is stored
    second = llm_app.post(
        f"/audits/{offline}/second-audit", json={"config": {"judge": "llm"}}, headers=tenant.headers
    )
    assert (
        second.status_code == 429 and "budget" in message(second) and int(second.headers["Retry-After"]) >= 1
    )
    assert _count(session_factory, "audits", tenant.id) == 3


def test_checks_count_the_audits_they_create(bare: Any, session_factory: Any) -> None:
    tenant = f"checks-{uuid.uuid4().hex[:8]}"
    key, _ = make_key(session_factory, tenant, ("audits:write", "audits:read"), audits_per_minute=2)
    audit = bare.post("/audits", json=VALID, headers=_headers(key)).json()["id"]
    # 3 canaries of one kind per kind: more audits than the key's whole minute
    canaries = bare.post(f"/audits/{audit}/canaries", json={"per_kind": 3}, headers=_headers(key))
    assert canaries.status_code == 413 and "2 audits per minute" in message(canaries)
    assert (
        bare.post(f"/audits/{audit}/correction", headers=_headers(key)).status_code == 409
    )  # 2nd of 2: not done
    over = bare.post(f"/audits/{audit}/second-audit", headers=_headers(key))
    assert over.status_code == 429 and "audits_per_minute" in message(over)


@pytest.mark.parametrize(
    "item_id",
    ['"bad\\u0000id"', '"\\ud800"', '"' + "x" * 501 + '"'],
    ids=["nul", "lone-surrogate", "too-long"],
)
def test_run_item_ids_that_cannot_be_stored_are_422_and_nothing_is_stored(
    bare: Any, session_factory: Any, item_id: str
) -> None:
    tenant = new_tenant(session_factory, "runids")
    items = (
        json.dumps(_items(1))[:-1] + ", " + '{"id": ' + item_id + ', "response": "r", "references": ["x"]}]'
    )
    body = '{"suite": "ids", "label": "l1", "items": ' + items + "}"
    resp = bare.post(
        "/runs", content=body.encode(), headers={**tenant.headers, "Content-Type": "application/json"}
    )
    assert resp.status_code == 422, resp.text
    assert resp.json()["detail"][0]["loc"] == ["body", "items", 1, "id"]
    assert _count(session_factory, "runs", tenant.id) == 0
    assert _count(session_factory, "audits", tenant.id) == 0


@pytest.mark.parametrize("field", ["reason", "id"])
def test_a_client_rejected_line_that_cannot_be_stored_is_422_and_nothing_is_stored(
    bare: Any, session_factory: Any, field: str
) -> None:
    # a NUL in a rejected line's reason or id (the OpenAPI fuzz run's case): Postgres would refuse
    # it after the run's row was written; the request schema names it and nothing is stored
    tenant = new_tenant(session_factory, "rejline")
    line = {"line": 3, "id": "q3", "reason": "not JSON"} | {field: "bad\u0000text"}
    body = {"suite": "rej", "label": "l1", "items": _items(1), "rejected": [line]}
    resp = bare.post("/runs", json=body, headers=tenant.headers)
    assert resp.status_code == 422, resp.text
    assert resp.json()["detail"][0]["loc"] == ["body", "rejected", 0, field]
    assert _count(session_factory, "runs", tenant.id) == 0
    assert _count(session_factory, "audits", tenant.id) == 0


def test_a_run_label_with_a_lone_surrogate_is_422(bare: Any, session_factory: Any) -> None:
    tenant = new_tenant(session_factory, "runlabel")
    body = '{"suite": "s", "label": "\\udc80", "items": []}'
    resp = bare.post(
        "/runs", content=body.encode(), headers={**tenant.headers, "Content-Type": "application/json"}
    )
    assert resp.status_code == 422
    assert _count(session_factory, "runs", tenant.id) == 0


@pytest.fixture
def tenant_limited(settings: Any, redis_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from api.main import create_app

    limited = settings.model_copy(update={"tenant_rate_limit_per_second": 4, "tenant_audits_per_minute": 3})
    with TestClient(create_app(limited)) as c:
        yield c


def test_a_tenants_keys_share_its_limits(tenant_limited: Any, session_factory: Any) -> None:
    tenant = f"shared-{uuid.uuid4().hex[:8]}"
    keys = [
        make_key(
            session_factory,
            tenant,
            ("audits:write", "audits:read"),
            requests_per_second=0,
            audits_per_minute=0,
        )[0]
        for _ in range(4)
    ]
    accepted = [tenant_limited.post("/audits", json=VALID, headers=_headers(k)).status_code for k in keys[:2]]
    assert accepted == [202, 202]
    batch = tenant_limited.post("/audits/batch", json={"audits": [VALID, VALID]}, headers=_headers(keys[2]))
    assert batch.status_code == 429 and "tenant_audits_per_minute" in message(batch)
    assert _count(session_factory, "audits", tenant) == 2
    # 4 keys, unlimited each, against 4 requests per second for the tenant
    codes = [
        tenant_limited.get("/audits?limit=1", headers=_headers(keys[i % 4])).status_code for i in range(12)
    ]
    assert codes.count(429) >= 1 and codes.count(200) <= 4 + 4  # at most one second's room per elapsed second
    other = make_key(session_factory, f"other-{uuid.uuid4().hex[:6]}", ("audits:read",))[0]
    assert tenant_limited.get("/audits?limit=1", headers=_headers(other)).status_code == 200


def test_a_scheduled_run_goes_through_admission(
    settings: Any, session_factory: Any, monkeypatch: Any
) -> None:
    from workers import run_tasks

    monkeypatch.setattr(
        run_tasks,
        "get_settings",
        lambda: settings.model_copy(
            update={"openai_base_url": "http://127.0.0.1:9/v1", "allowed_llm_models": ("small-chat",)}
        ),
    )
    tenant = f"sched-{uuid.uuid4().hex[:8]}"
    items = [("a", {**VALID, "config": {}}), ("b", {**VALID, "config": EVIL})]
    admitted, refused = run_tasks._admit(items, tenant, session_factory)
    assert [iid for iid, _ in admitted] == ["a"]  # a refused item is that item's rejection
    assert [r.key for r in refused] == ["b"] and "ALLOWED_LLM_MODELS" in refused[0].reason
    with pytest.raises(ValueError, match="lone surrogates"):  # a name that cannot be stored: the run
        run_tasks._admit([("\ud800", {**VALID, "config": {}})], tenant, session_factory)
    assert run_tasks._admit(items[:1], tenant, session_factory) == (items[:1], [])
