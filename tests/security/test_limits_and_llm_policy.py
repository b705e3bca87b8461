"""Rate limits (429 with Retry-After, counters in the real Redis), the LLM model allow-list
(422), search never reaching an unconfigured endpoint, and per-tenant daily token budgets."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import make_key
from tests.security.conftest import Tenant, message, new_tenant

pytestmark = pytest.mark.services

VALID = {"references": ["Water boils at 100 °C at sea level."], "response": "Water boils at 90 °C."}


def _headers(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_burst_gets_429_with_retry_after(bare: Any, session_factory: Any) -> None:
    key, _ = make_key(session_factory, "default", ("audits:read",), requests_per_second=5)
    codes = [bare.get("/audits?limit=1", headers=_headers(key)) for _ in range(30)]
    # 5 per second: 30 requests from one client cannot all fit (TestClient takes well under 5 s)
    refused = [r for r in codes if r.status_code == 429]
    assert [r.status_code for r in codes[:5]] == [200] * 5 and refused
    assert all(1 <= int(r.headers["Retry-After"]) <= 1 for r in refused)
    assert "requests_per_second" in message(refused[0])
    other, _ = make_key(session_factory, "default", ("audits:read",), requests_per_second=5)
    assert bare.get("/audits?limit=1", headers=_headers(other)).status_code == 200  # per key


def test_audits_per_minute_counts_batch_items(bare: Any, session_factory: Any) -> None:
    key, _ = make_key(session_factory, "default", ("audits:write",), audits_per_minute=3)
    assert (
        bare.post("/audits/batch", json={"audits": [VALID, VALID]}, headers=_headers(key)).status_code == 202
    )
    over = bare.post("/audits/batch", json={"audits": [VALID, VALID]}, headers=_headers(key))
    assert over.status_code == 429 and 1 <= int(over.headers["Retry-After"]) <= 60
    assert "audits_per_minute" in message(over)
    assert bare.post("/audits", json=VALID, headers=_headers(key)).status_code == 202  # the third fits


def test_a_batch_larger_than_the_per_minute_limit_is_413_not_a_429_to_retry_forever(
    bare: Any, session_factory: Any
) -> None:
    # 4 items against 3 audits per minute could never pass, whatever the client waits
    key, _ = make_key(session_factory, "default", ("audits:write",), audits_per_minute=3)
    resp = bare.post("/audits/batch", json={"audits": [VALID] * 4}, headers=_headers(key))
    assert resp.status_code == 413 and "3 audits per minute" in message(resp)
    # nothing was counted: a batch within the limit still passes
    assert bare.post("/audits/batch", json={"audits": [VALID] * 3}, headers=_headers(key)).status_code == 202


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ({"decomposer": "llm", "llm_model": "gpt-4.5-preview-very-expensive"}, "config.llm_model"),
        ({"judge": "llm", "llm_model": "my-arbitrary-model-5258"}, "config.llm_model"),
        ({"embedder": "openai", "embedding_model": "text-embedding-3-large"}, "config.embedding_model"),
    ],
)
def test_models_outside_the_allow_list_are_422(
    llm_app: Any, session_factory: Any, config: dict[str, str], key: str
) -> None:
    tenant = new_tenant(session_factory, "models")
    resp = llm_app.post("/audits", json={**VALID, "config": config}, headers=tenant.headers)
    assert resp.status_code == 422 and key in resp.text and "ALLOWED_" in resp.text
    batch = llm_app.post(
        "/audits/batch", json={"audits": [{**VALID, "config": config}]}, headers=tenant.headers
    )
    assert batch.json()["audits"][0]["status"] == "rejected"
    assert llm_app.get("/audits", headers=tenant.headers).json()["total"] == 0  # nothing stored
    allowed = {**config, key.split(".")[1]: "small-chat" if "llm" in key else "text-embedding-3-small"}
    assert (
        llm_app.post("/audits", json={**VALID, "config": allowed}, headers=tenant.headers).status_code == 202
    )


def test_search_models_are_checked_before_any_worker_or_endpoint(
    bare: Any, llm_app: Any, session_factory: Any
) -> None:
    tenant = new_tenant(session_factory, "search")
    # no worker consumes this session's queue here: a 422 must come from the API itself
    resp = llm_app.get(
        "/claims/search", params={"q": "x", "model": "text-embedding-3-large"}, headers=tenant.headers
    )
    assert resp.status_code == 422 and "not an allowed embedding model" in resp.text
    # the configured model, but this deployment (``bare``) has no endpoint: never sent anywhere
    resp = bare.get(
        "/claims/search", params={"q": "x", "model": "text-embedding-3-small"}, headers=tenant.headers
    )
    assert resp.status_code == 422 and "no LLM endpoint configured" in resp.text


def _spend(session_factory: Any, tenant: Tenant, tokens: int) -> None:
    from db import llm_repository
    from db import repository as repo

    with session_factory() as s:
        audit, _ = repo.create_audit(
            s, repo.NewAudit(response="r", references=["x"], request_sha256="0" * 64, tenant_id=tenant.id)
        )
        llm_repository.record_usage(
            s, audit_id=audit.id, stage="judge", model="gpt-4o-mini", calls=1,
            prompt_tokens=tokens - tokens // 4, completion_tokens=tokens // 4,
        )  # fmt: skip
        s.commit()


def test_a_spent_daily_budget_refuses_new_llm_work_only(llm_app: Any, session_factory: Any) -> None:
    from db import auth_repository as keys_repo

    tenant = new_tenant(session_factory, "budget")
    other = new_tenant(session_factory, "budget")
    with session_factory() as s:
        keys_repo.set_tenant_budget(s, tenant.id, 1000)
        keys_repo.set_tenant_budget(s, other.id, 1000)
        s.commit()
    llm = {**VALID, "config": {"judge": "llm"}}
    _spend(session_factory, tenant, 999)
    assert llm_app.post("/audits", json=llm, headers=tenant.headers).status_code == 202  # 999 < 1000
    _spend(session_factory, tenant, 1)
    resp = llm_app.post("/audits", json=llm, headers=tenant.headers)
    assert resp.status_code == 429 and "1000 of 1000 tokens" in message(resp)
    assert 1 <= int(resp.headers["Retry-After"]) <= 86_400
    batch = llm_app.post("/audits/batch", json={"audits": [llm, VALID]}, headers=tenant.headers).json()[
        "audits"
    ]
    assert batch[0]["status"] == "rejected" and "budget" in batch[0]["error"] and batch[1]["id"]
    assert llm_app.post("/audits", json=VALID, headers=tenant.headers).status_code == 202  # offline is fine
    search = llm_app.get(
        "/claims/search", params={"q": "x", "model": "text-embedding-3-small"}, headers=tenant.headers
    )
    assert search.status_code == 429
    # another tenant's spending is not this one's
    assert llm_app.post("/audits", json=llm, headers=other.headers).status_code == 202


def test_usage_of_unknown_tenant_is_zero(session_factory: Any) -> None:
    from db import auth_repository as keys_repo

    with session_factory() as s:
        assert keys_repo.tokens_today(s, f"nobody-{uuid.uuid4().hex[:6]}") == 0
