"""Tenant A can never see tenant B's audits, claims, search hits, usage or keys, through any route:
HTTP through the API, a real Celery worker, real Postgres+pgvector and Redis."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.conftest import WorkerProcess
from tests.security.conftest import Tenant, message
from tests.ui_login import ui_login

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: Texts only tenant B audits: a search of A for them must not find them.
B_REFERENCE = "The Quorvane lighthouse was painted vermilion by Ottilie Brask in 1911."
B_RESPONSE = "Ottilie Brask painted the Quorvane lighthouse vermilion in 1911."
A_REFERENCE = "The Halvorsen Bridge opened to traffic on 12 May 1998."
A_RESPONSE = "The Halvorsen Bridge opened in 1998."
#: The same idempotency key in both tenants.
SHARED_KEY = "order-42"


def _submit(client: Any, tenant: Tenant, reference: str, response: str) -> str:
    body = {"references": [reference], "response": response, "metadata": {"owner": tenant.id}}
    resp = client.post("/audits", json=body, headers={**tenant.headers, "Idempotency-Key": SHARED_KEY})
    assert resp.status_code == 202, resp.text
    return str(resp.json()["id"])


def _wait_done(client: Any, tenant: Tenant, audit_id: str, timeout: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc = client.get(f"/audits/{audit_id}", headers=tenant.headers).json()
        if doc["status"] in ("done", "failed"):
            assert doc["status"] == "done", doc
            return dict(doc)
        time.sleep(0.3)
    raise AssertionError(f"audit {audit_id} not done after {timeout} s")


@pytest.fixture(scope="module")
def worker(start_worker: Callable[..., WorkerProcess]) -> Iterator[WorkerProcess]:
    w = start_worker()
    yield w
    w.stop()


@pytest.fixture(scope="module")
def audits(
    worker: WorkerProcess, settings_module: Any, tenant_a: Tenant, tenant_b: Tenant
) -> Iterator[tuple[Any, str, str]]:
    """(client, A's audit id, B's audit id), both done, both submitted under ``SHARED_KEY``."""
    from fastapi.testclient import TestClient

    from api.main import create_app

    with TestClient(create_app(settings_module)) as client:
        a_id = _submit(client, tenant_a, A_REFERENCE, A_RESPONSE)
        b_id = _submit(client, tenant_b, B_REFERENCE, B_RESPONSE)
        _wait_done(client, tenant_a, a_id)
        _wait_done(client, tenant_b, b_id)
        yield client, a_id, b_id


@pytest.fixture(scope="module")
def settings_module(
    database_url: str, redis_server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Any:
    """File sources allowed in a folder of the test (``_suites`` defines one, relative, so it lies in
    SUITE_SOURCE_DIR/<tenant>/, which need not exist to be defined)."""
    from service.settings import Settings

    sources = tmp_path_factory.mktemp("sources")
    return Settings(database_url=database_url, redis_url=redis_server_url, suite_source_dir=str(sources))


def test_same_idempotency_key_in_two_tenants_makes_two_audits(audits: tuple[Any, str, str]) -> None:
    _client, a_id, b_id = audits
    assert a_id != b_id


def test_each_tenant_reads_its_own_audit(
    audits: tuple[Any, str, str], tenant_a: Tenant, tenant_b: Tenant
) -> None:
    client, a_id, b_id = audits
    a_doc = client.get(f"/audits/{a_id}", headers=tenant_a.headers).json()
    b_doc = client.get(f"/audits/{b_id}", headers=tenant_b.headers).json()
    assert a_doc["metadata"] == {"owner": tenant_a.id} and b_doc["metadata"] == {"owner": tenant_b.id}
    assert b_doc["claims"] and b_doc["usage"] is not None


#: Every route, as tenant A aimed at tenant B's data; each check says what B's data would look like.
def _get_b_audit(client: Any, a: Tenant, b_id: str, _b: Tenant) -> None:
    resp = client.get(f"/audits/{b_id}", headers=a.headers)
    assert resp.status_code == 404  # not 403: A cannot even learn that the id exists
    assert message(resp) == f"audit {b_id} not found"
    missing = uuid.uuid4()
    assert message(client.get(f"/audits/{missing}", headers=a.headers)) == f"audit {missing} not found"


def _list(client: Any, a: Tenant, b_id: str, _b: Tenant) -> None:
    for query in ("", "?status=done", "?limit=500", "?since=2000-01-01T00:00:00Z"):
        page = client.get(f"/audits{query}", headers=a.headers).json()
        ids = {item["id"] for item in page["items"]}
        assert b_id not in ids and page["total"] == len(ids) >= 1
        assert all((item["metadata"] or {}).get("owner", a.id) == a.id for item in page["items"])


def _search(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    for q in (B_RESPONSE, "Quorvane lighthouse painted vermilion", "Ottilie Brask"):
        hits = client.get("/claims/search", params={"q": q, "k": 100}, headers=a.headers).json()["items"]
        assert hits, "A's own claims are still found"
        assert b_id not in {h["audit_id"] for h in hits}
        assert not any("Quorvane" in h["text"] or "Brask" in h["text"] for h in hits)
    # the same search as B finds B's claim: the search works, it is the tenant that differs
    # (B's second audit and B's run audit hold the same text, so their claims tie with b_id's)
    hits = client.get("/claims/search", params={"q": B_RESPONSE, "k": 10}, headers=b.headers).json()["items"]
    assert b_id in {h["audit_id"] for h in hits} and hits[0]["text"] == B_RESPONSE
    # filtered (through the worker): B's response claims with their verdicts; none of them for A
    only = {"q": B_RESPONSE, "k": 10, "role": "response"}
    hits = client.get("/claims/search", params=only, headers=b.headers).json()["items"]
    assert hits and all(h["role"] == "response" and h["verdict"] for h in hits)
    hits = client.get("/claims/search", params=only, headers=a.headers).json()["items"]
    assert b_id not in {h["audit_id"] for h in hits}


def _submit_with_b_key(client: Any, a: Tenant, b_id: str, _b: Tenant) -> None:
    body = {"references": [B_REFERENCE], "response": B_RESPONSE}
    resp = client.post("/audits", json=body, headers={**a.headers, "Idempotency-Key": SHARED_KEY})
    # A's own SHARED_KEY audit has another body: a conflict naming A's audit, never B's
    assert resp.status_code == 409 and b_id not in resp.text
    fresh = client.post("/audits", json=body, headers={**a.headers, "Idempotency-Key": f"{SHARED_KEY}-x"})
    assert fresh.status_code == 202 and fresh.json()["id"] != b_id


def _batch_with_b_key(client: Any, a: Tenant, b_id: str, _b: Tenant) -> None:
    body = {"references": [B_REFERENCE], "response": B_RESPONSE}
    items = [{**body, "idempotency_key": SHARED_KEY}, {**body, "idempotency_key": f"{SHARED_KEY}-b"}]
    results = client.post("/audits/batch", json={"audits": items}, headers=a.headers).json()["audits"]
    assert results[0]["status"] == "rejected" and b_id not in str(results[0])
    assert results[1]["id"] not in (None, b_id)
    assert client.get(results[1]["poll_url"], headers=a.headers).status_code == 200


def _first_own_audit(client: Any, a: Tenant) -> str:
    """A's audit of the ``audits`` fixture, its first (the list is newest first): other checks
    make A audit B's text under A's own key, so A's newest audit may hold it."""
    return str(client.get("/audits", params={"limit": 500}, headers=a.headers).json()["items"][-1]["id"])


def _statuses(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    own = _first_own_audit(client, a)
    page = client.post("/audits/status", json={"ids": [own, b_id]}, headers=a.headers).json()
    # B's audit is missing for A, exactly like an unknown id; B sees it
    assert [item["id"] for item in page["items"]] == [own] and page["missing"] == [b_id]
    mine = client.post("/audits/status", json={"ids": [b_id]}, headers=b.headers).json()
    assert [item["id"] for item in mine["items"]] == [b_id]


def _documents(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    own = _first_own_audit(client, a)
    page = client.post("/audits/documents", json={"ids": [own, b_id]}, headers=a.headers).json()
    # B's audit is missing for A, exactly like an unknown id, and none of its text shows; B sees it
    assert [doc["id"] for doc in page["items"]] == [own] and page["missing"] == [b_id]
    assert B_RESPONSE not in str(page)
    mine = client.post("/audits/documents", json={"ids": [b_id]}, headers=b.headers).json()
    assert [doc["id"] for doc in mine["items"]] == [b_id]


def _b_run(client: Any, b: Tenant) -> str:
    """A run of B under suite/label names A uses too (made once per module)."""
    body = {
        "suite": "shared-suite",
        "label": "r1",
        "items": [{"id": "x", "references": [B_REFERENCE], "response": B_RESPONSE}],
    }
    resp = client.post("/runs", json=body, headers=b.headers)
    assert resp.status_code in (200, 201, 202), resp.text
    return str(resp.json()["run"]["id"])


def _runs(client: Any, a: Tenant, _b_id: str, b: Tenant) -> None:
    run_id = _b_run(client, b)
    assert client.get(f"/runs/{run_id}", headers=a.headers).status_code == 404
    assert client.get(f"/runs/{run_id}/compare", headers=a.headers).status_code == 404
    assert client.get(f"/runs/{run_id}/items", headers=a.headers).status_code == 404
    assert client.get(f"/runs/{run_id}/rejections", headers=a.headers).status_code == 404
    assert client.get(f"/runs/{run_id}/deliveries", headers=a.headers).status_code == 404
    assert client.put(f"/runs/{run_id}/baseline", headers=a.headers).status_code == 404
    assert run_id not in {r["id"] for r in client.get("/runs", headers=a.headers).json()["items"]}
    # the run's audits are B's: B reads them, A gets 404
    (item,) = client.get(f"/runs/{run_id}", headers=b.headers).json()["audits"]["items"]
    streamed = [
        json.loads(x) for x in client.get(f"/runs/{run_id}/items", headers=b.headers).text.splitlines()
    ]
    # the same item (its status and scores may move on between the two reads: a worker runs it)
    assert [(x["item_id"], x["audit_id"]) for x in streamed] == [(item["item_id"], item["audit_id"])]
    assert client.get(f"/audits/{item['audit_id']}", headers=b.headers).status_code == 200
    assert client.get(f"/audits/{item['audit_id']}", headers=a.headers).status_code == 404
    # the same suite and label in A make A's own run, never B's
    body = {
        "suite": "shared-suite",
        "label": "r1",
        "items": [{"id": "x", "references": [A_REFERENCE], "response": A_RESPONSE}],
    }
    own = client.post("/runs", json=body, headers=a.headers)
    assert own.status_code in (200, 201, 202) and own.json()["run"]["id"] != run_id
    # both runs finish here: no audit of them is left in the queue for a later module's worker
    for tenant, rid in ((b, run_id), (a, own.json()["run"]["id"])):
        deadline = time.monotonic() + 240
        while client.get(f"/runs/{rid}", headers=tenant.headers).json()["status"] != "finished":
            assert time.monotonic() < deadline, f"run {rid} did not finish"
            time.sleep(0.3)


def _suites(client: Any, a: Tenant, _b_id: str, b: Tenant) -> None:
    spec = {"cron": "0 2 * * *", "source": {"jsonl": "nonexistent.jsonl"}, "enabled": False}
    assert client.put("/suites/b-only", json=spec, headers=b.headers).status_code in (200, 201)
    assert client.get("/suites/b-only", headers=a.headers).status_code == 404
    assert "b-only" not in {x["name"] for x in client.get("/suites", headers=a.headers).json()["items"]}
    assert client.delete("/suites/b-only", headers=a.headers).status_code == 404
    assert client.get("/suites/b-only", headers=b.headers).status_code == 200


def _metrics(client: Any, a: Tenant, _b_id: str, b: Tenant) -> None:
    # a reading key of A gets 403; A's admin key reads A's own figures, nothing of B or of the
    # deployment (worker counters, queue depth); a tenant admin cannot mint an operator key
    reader = client.post("/admin/keys", json={"scopes": ["audits:read"]}, headers=a.headers).json()["key"]
    assert client.get("/metrics", headers={"Authorization": f"Bearer {reader}"}).status_code == 403
    own = client.get("/metrics", headers=a.headers)
    assert own.status_code == 200
    assert f'claimaudit_audits{{status="done",tenant="{a.id}"}}' in own.text
    assert b.id not in own.text and "claimaudit_queue_depth" not in own.text
    assert "claimaudit_stage_duration_seconds" not in own.text
    minted = client.post("/admin/keys", json={"scopes": ["admin", "operator"]}, headers=a.headers)
    assert minted.status_code == 422


def _admin_keys(client: Any, a: Tenant, _b_id: str, b: Tenant) -> None:
    listed = client.get("/admin/keys", headers=a.headers).json()["items"]
    assert {k["tenant_id"] for k in listed} == {a.id}
    assert client.delete(f"/admin/keys/{b.key_id}", headers=a.headers).status_code == 404
    made = client.post("/admin/keys", json={"scopes": ["audits:read"]}, headers=a.headers).json()
    assert made["tenant_id"] == a.id
    reader = {"Authorization": f"Bearer {made['key']}"}
    assert client.get(f"/audits/{_b_id}", headers=reader).status_code == 404


def _sql_logins(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    """A cannot list or revoke B's SQL logins; A's own login reads none of B's rows."""
    import psycopg

    made_b = client.post("/admin/sql-logins", json={"name": "iso"}, headers=b.headers)
    assert made_b.status_code == 201, made_b.text
    role_b = made_b.json()["role"]
    try:
        assert role_b not in {
            x["role"] for x in client.get("/admin/sql-logins", headers=a.headers).json()["items"]
        }
        assert client.delete(f"/admin/sql-logins/{role_b}", headers=a.headers).status_code == 404
        made_a = client.post("/admin/sql-logins", json={}, headers=a.headers).json()
        assert made_a["tenant_id"] == a.id
        with psycopg.connect(made_a["url"]) as conn:
            assert conn.execute("SELECT id FROM audits WHERE id = %s", (b_id,)).fetchall() == []
        assert client.delete(f"/admin/sql-logins/{made_a['role']}", headers=a.headers).status_code == 200
    finally:
        assert client.delete(f"/admin/sql-logins/{role_b}", headers=b.headers).status_code == 200


_B_RUNS: dict[str, str] = {}


def _b_finished_run(client: Any, b: Tenant) -> str:
    """One finished run of B for the page checks (made once per module; nothing left queued)."""
    if b.id not in _B_RUNS:
        run_id = _b_run(client, b)
        deadline = time.monotonic() + 240
        while client.get(f"/runs/{run_id}", headers=b.headers).json()["status"] != "finished":
            assert time.monotonic() < deadline, f"run {run_id} did not finish"
            time.sleep(0.3)
        _B_RUNS[b.id] = run_id
    return _B_RUNS[b.id]


def _signed_in(client: Any, tenant: Tenant) -> Any:
    """A browser-like client of the same app signed in to the pages as ``tenant`` (session cookie)."""
    from fastapi.testclient import TestClient

    browser = TestClient(client.app, follow_redirects=False)
    ui_login(browser, tenant.key)
    return browser


def _pages(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    run_id = _b_finished_run(client, b)
    browser = _signed_in(client, a)
    missing = browser.get(f"/ui/audits/{uuid.uuid4()}")
    for path in (
        f"/ui/audits/{b_id}",
        f"/ui/audits/{b_id}/json",
        f"/ui/audits/{b_id}/status",
        f"/ui/runs/{run_id}",
    ):
        resp = browser.get(path)
        assert resp.status_code == 404, path  # exactly like an unknown id
        assert "Quorvane" not in resp.text and "Brask" not in resp.text
    assert missing.status_code == 404
    listing = browser.get("/ui/audits", params={"limit": 200}).text
    assert b_id not in listing and b.id not in listing and "data-audit-id" in listing
    assert run_id not in browser.get("/ui/runs").text
    # the claim search of the list page: A's own claims, never B's
    found = browser.get("/ui/audits", params={"q": "Quorvane lighthouse painted vermilion"}).text
    assert b_id not in found and "Ottilie" not in found and "Brask" not in found
    # B, signed in the same way, sees all of it: the pages work, it is the tenant that differs
    own = _signed_in(client, b)
    assert (
        own.get(f"/ui/audits/{b_id}").status_code == 200 and own.get(f"/ui/runs/{run_id}").status_code == 200
    )
    assert b_id in own.get("/ui/audits", params={"q": "Quorvane lighthouse painted vermilion"}).text


#: B's method checks, made once per module by ``_b_checks`` (its reports are then non-empty for B).
_B_CHECKS: dict[str, Any] = {}


def _until(client: Any, tenant: Tenant, path: str, ready: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 240
    while True:
        doc = client.get(path, headers=tenant.headers).json()
        if ready(doc):
            return dict(doc)
        assert time.monotonic() < deadline, f"{path} not ready: {doc}"
        time.sleep(0.3)


def _b_checks(client: Any, b: Tenant, b_id: str) -> dict[str, Any]:
    """B's canaries, second audit, correction and claim label on B's audit, all finished (no audit
    of them is left in the queue for a later module's worker)."""
    if _B_CHECKS:
        return _B_CHECKS
    h = b.headers
    assert client.post(f"/audits/{b_id}/canaries", json={"per_kind": 1}, headers=h).status_code == 202
    canaries = _until(client, b, f"/audits/{b_id}/canaries", lambda d: d["complete"])
    assert client.post(f"/audits/{b_id}/second-audit", json={}, headers=h).status_code == 202
    _until(
        client, b, f"/audits/{b_id}/second-audit", lambda d: d["second_audits"][0]["computed_at"] is not None
    )
    assert client.post(f"/audits/{b_id}/correction", json={}, headers=h).status_code == 202
    _until(client, b, f"/audits/{b_id}/correction", lambda d: d["passes"] is not None)
    label = client.put(f"/audits/{b_id}/claims/0/label", json={"verdict": "supported"}, headers=h)
    assert label.status_code == 200, label.text
    _B_CHECKS["canary_ids"] = [c["canary_audit_id"] for c in canaries["canaries"]]
    assert _B_CHECKS["canary_ids"], "B's reference yields canaries"
    return _B_CHECKS


def _checks_of_b_audit(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    made = _b_checks(client, b, b_id)
    for method, path, body in (
        ("POST", "canaries", {"per_kind": 1}),
        ("GET", "canaries", None),
        ("POST", "second-audit", {}),
        ("GET", "second-audit", None),
        ("POST", "correction", {}),
        ("GET", "correction", None),
        ("PUT", "claims/0/label", {"verdict": "contradicted"}),
    ):
        resp = client.request(method, f"/audits/{b_id}/{path}", json=body, headers=a.headers)
        assert resp.status_code == 404, (method, path, resp.text)
        assert b_id in message(resp) and "not found" in message(resp)
    # B's own reports are there and unchanged by A's attempts
    assert client.get(f"/audits/{b_id}/canaries", headers=b.headers).json()["canaries"]
    labels = client.get("/labels/agreement", headers=b.headers).json()["claims"]
    gold_contradicted = labels["confusion"][labels["classes"].index("contradicted")]
    assert labels["n"] == 1 and sum(gold_contradicted) == 0, labels  # A's PUT changed nothing
    # B's canary audits belong to B: A cannot read them, B can
    for cid in made["canary_ids"]:
        assert client.get(f"/audits/{cid}", headers=a.headers).status_code == 404
        assert client.get(f"/audits/{cid}", headers=b.headers).status_code == 200


def _check_reports(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    _b_checks(client, b, b_id)
    # B's figures exist; A (who made no checks) sees none of them
    assert client.get("/checks/canaries", headers=b.headers).json()["items"]
    assert client.get("/checks/canaries", headers=a.headers).json()["items"] == []
    assert client.get("/checks/second-audits", headers=b.headers).json()["all"]["claims"] >= 1
    assert client.get("/checks/second-audits", headers=a.headers).json()["all"]["claims"] == 0
    assert client.get("/labels/agreement", headers=b.headers).json()["claims"]["n"] == 1
    assert client.get("/labels/agreement", headers=a.headers).json()["claims"]["n"] == 0


def _import_labels_of_b(client: Any, a: Tenant, b_id: str, b: Tenant) -> None:
    _b_checks(client, b, b_id)
    body = {"labels": [{"audit_id": b_id, "claim": 0, "label": "contradicted", "reviewer": "a"}]}
    resp = client.post("/labels", json=body, headers=a.headers)
    assert resp.status_code == 422
    assert resp.json()["detail"] == [
        {"loc": ["body", "labels", 0], "msg": f"audit {b_id} not found", "type": "value_error"}
    ]
    assert client.get("/labels/agreement", headers=b.headers).json()["claims"]["n"] == 1  # nothing stored
    # the same import as B stores (a whole-audit label, so the per-claim figures stay as they are)
    whole = {"labels": [{"audit_id": b_id, "claim": None, "label": "support", "reviewer": "b"}]}
    assert client.post("/labels", json=whole, headers=a.headers).status_code == 422
    assert client.post("/labels", json=whole, headers=b.headers).json() == {"stored": 1}
    assert client.get("/labels/agreement", headers=b.headers).json()["audits"]["n"] >= 1
    assert client.get("/labels/agreement", headers=a.headers).json()["audits"]["n"] == 0


ATTACKS: dict[tuple[str, str], Callable[[Any, Tenant, str, Tenant], None]] = {
    ("GET", "/audits/{audit_id}"): _get_b_audit,
    ("GET", "/audits"): _list,
    ("POST", "/audits/status"): _statuses,
    ("POST", "/audits/documents"): _documents,
    ("GET", "/claims/search"): _search,
    ("POST", "/audits"): _submit_with_b_key,
    ("POST", "/audits/batch"): _batch_with_b_key,
    ("POST", "/admin/keys"): _admin_keys,
    ("GET", "/admin/keys"): _admin_keys,
    ("DELETE", "/admin/keys/{key_id}"): _admin_keys,
    ("POST", "/admin/sql-logins"): _sql_logins,
    ("GET", "/admin/sql-logins"): _sql_logins,
    ("DELETE", "/admin/sql-logins/{role}"): _sql_logins,
    ("POST", "/runs"): _runs,
    ("GET", "/runs"): _runs,
    ("GET", "/runs/{run_id}"): _runs,
    ("GET", "/runs/{run_id}/compare"): _runs,
    ("GET", "/runs/{run_id}/items"): _runs,
    ("GET", "/runs/{run_id}/rejections"): _runs,
    ("GET", "/runs/{run_id}/deliveries"): _runs,
    ("PUT", "/runs/{run_id}/baseline"): _runs,
    ("PUT", "/suites/{name}"): _suites,
    ("GET", "/suites"): _suites,
    ("GET", "/suites/{name}"): _suites,
    ("DELETE", "/suites/{name}"): _suites,
    ("GET", "/metrics"): _metrics,
    ("GET", "/ui/audits"): _pages,
    ("GET", "/ui/audits/{audit_id}"): _pages,
    ("GET", "/ui/audits/{audit_id}/json"): _pages,
    ("GET", "/ui/audits/{audit_id}/status"): _pages,
    ("GET", "/ui/runs"): _pages,
    ("GET", "/ui/runs/{run_id}"): _pages,
    ("POST", "/audits/{audit_id}/canaries"): _checks_of_b_audit,
    ("GET", "/audits/{audit_id}/canaries"): _checks_of_b_audit,
    ("POST", "/audits/{audit_id}/second-audit"): _checks_of_b_audit,
    ("GET", "/audits/{audit_id}/second-audit"): _checks_of_b_audit,
    ("POST", "/audits/{audit_id}/correction"): _checks_of_b_audit,
    ("GET", "/audits/{audit_id}/correction"): _checks_of_b_audit,
    ("PUT", "/audits/{audit_id}/claims/{n}/label"): _checks_of_b_audit,
    ("GET", "/checks/canaries"): _check_reports,
    ("GET", "/checks/second-audits"): _check_reports,
    ("GET", "/labels/agreement"): _check_reports,
    ("POST", "/labels"): _import_labels_of_b,
}


def test_every_authenticated_route_has_an_isolation_check(settings_module: Any) -> None:
    from api.auth import route_scopes
    from api.main import create_app

    guarded = {route for route, scope in route_scopes(create_app(settings_module)).items() if scope}
    assert guarded == set(ATTACKS)


@pytest.mark.parametrize("route", sorted(ATTACKS), ids=lambda r: f"{r[0]} {r[1]}")
def test_tenant_a_never_sees_tenant_b(
    audits: tuple[Any, str, str], tenant_a: Tenant, tenant_b: Tenant, route: tuple[str, str]
) -> None:
    client, _a_id, b_id = audits
    ATTACKS[route](client, tenant_a, b_id, tenant_b)
