"""API keys: hashed at rest, 401 for missing/unknown/revoked/expired keys, 403 without the scope,
admin endpoints that manage only the caller's tenant's keys (real Postgres and Redis)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy

from tests.conftest import make_key
from tests.security.conftest import Tenant, message

pytestmark = pytest.mark.services

VALID = {"references": ["The Halvorsen Bridge opened in 1998."], "response": "It opened in 1998."}

#: One request per route (method, path, body); ``{audit}`` / ``{key}`` are filled in. Kept in step
#: with the app by ``test_every_route_declares_a_scope_and_is_listed_here``.
ROUTE_CALLS: dict[tuple[str, str], tuple[str, dict[str, Any] | None]] = {
    ("POST", "/audits"): ("/audits", VALID),
    ("POST", "/audits/batch"): ("/audits/batch", {"audits": [VALID]}),
    ("GET", "/audits"): ("/audits", None),
    ("GET", "/audits/{audit_id}"): ("/audits/{audit}", None),
    ("POST", "/audits/status"): ("/audits/status", {"ids": ["00000000-0000-0000-0000-000000000000"]}),
    ("POST", "/audits/documents"): ("/audits/documents", {"ids": ["00000000-0000-0000-0000-000000000000"]}),
    ("GET", "/claims/search"): ("/claims/search?q=bridge&k=3", None),
    ("POST", "/admin/keys"): ("/admin/keys", {"scopes": ["audits:read"]}),
    ("GET", "/admin/keys"): ("/admin/keys", None),
    ("DELETE", "/admin/keys/{key_id}"): ("/admin/keys/{key}", None),
    ("POST", "/admin/sql-logins"): ("/admin/sql-logins", {"name": "scope"}),
    ("GET", "/admin/sql-logins"): ("/admin/sql-logins", None),
    ("DELETE", "/admin/sql-logins/{role}"): ("/admin/sql-logins/ca_nobody_scope", None),
    ("POST", "/runs"): ("/runs", {"suite": "s", "items": []}),
    ("GET", "/runs"): ("/runs", None),
    ("GET", "/runs/{run_id}"): ("/runs/{audit}", None),
    ("GET", "/runs/{run_id}/items"): ("/runs/{audit}/items", None),
    ("GET", "/runs/{run_id}/rejections"): ("/runs/{audit}/rejections", None),
    ("GET", "/runs/{run_id}/compare"): ("/runs/{audit}/compare", None),
    ("GET", "/runs/{run_id}/deliveries"): ("/runs/{audit}/deliveries", None),
    ("PUT", "/runs/{run_id}/baseline"): ("/runs/{audit}/baseline", None),
    ("PUT", "/suites/{name}"): ("/suites/s", {"cron": "0 2 * * *", "source": {"jsonl": "/x.jsonl"}}),
    ("GET", "/suites"): ("/suites", None),
    ("GET", "/suites/{name}"): ("/suites/s", None),
    ("DELETE", "/suites/{name}"): ("/suites/s", None),
    ("GET", "/metrics"): ("/metrics", None),
    ("GET", "/ui/audits"): ("/ui/audits", None),
    ("GET", "/ui/audits/{audit_id}"): ("/ui/audits/{audit}", None),
    ("GET", "/ui/audits/{audit_id}/json"): ("/ui/audits/{audit}/json", None),
    ("GET", "/ui/audits/{audit_id}/status"): ("/ui/audits/{audit}/status", None),
    ("GET", "/ui/runs"): ("/ui/runs", None),
    ("GET", "/ui/runs/{run_id}"): ("/ui/runs/{audit}", None),
    ("POST", "/audits/{audit_id}/canaries"): ("/audits/{audit}/canaries", {"per_kind": 1}),
    ("GET", "/audits/{audit_id}/canaries"): ("/audits/{audit}/canaries", None),
    ("GET", "/checks/canaries"): ("/checks/canaries", None),
    ("POST", "/audits/{audit_id}/second-audit"): ("/audits/{audit}/second-audit", {}),
    ("GET", "/audits/{audit_id}/second-audit"): ("/audits/{audit}/second-audit", None),
    ("GET", "/checks/second-audits"): ("/checks/second-audits", None),
    ("POST", "/audits/{audit_id}/correction"): ("/audits/{audit}/correction", {}),
    ("GET", "/audits/{audit_id}/correction"): ("/audits/{audit}/correction", None),
    ("PUT", "/audits/{audit_id}/claims/{n}/label"): (
        "/audits/{audit}/claims/0/label",
        {"verdict": "supported"},
    ),
    ("POST", "/labels"): ("/labels", {"labels": []}),
    ("GET", "/labels/agreement"): ("/labels/agreement", None),
}
#: The scope each route requires (README, "Tenants, API keys and limits", lists the same).
EXPECTED_SCOPES = {
    ("POST", "/audits"): "audits:write",
    ("POST", "/audits/batch"): "audits:write",
    ("GET", "/audits"): "audits:read",
    ("GET", "/audits/{audit_id}"): "audits:read",
    ("POST", "/audits/status"): "audits:read",
    ("POST", "/audits/documents"): "audits:read",
    ("GET", "/claims/search"): "audits:read",
    ("POST", "/admin/keys"): "admin",
    ("GET", "/admin/keys"): "admin",
    ("DELETE", "/admin/keys/{key_id}"): "admin",
    ("POST", "/admin/sql-logins"): "admin",
    ("GET", "/admin/sql-logins"): "admin",
    ("DELETE", "/admin/sql-logins/{role}"): "admin",
    ("POST", "/runs"): "audits:write",
    ("GET", "/runs"): "audits:read",
    ("GET", "/runs/{run_id}"): "audits:read",
    ("GET", "/runs/{run_id}/items"): "audits:read",
    ("GET", "/runs/{run_id}/rejections"): "audits:read",
    ("GET", "/runs/{run_id}/compare"): "audits:read",
    ("GET", "/runs/{run_id}/deliveries"): "audits:read",
    ("PUT", "/runs/{run_id}/baseline"): "audits:write",
    ("PUT", "/suites/{name}"): "audits:write",
    ("GET", "/suites"): "audits:read",
    ("GET", "/suites/{name}"): "audits:read",
    ("DELETE", "/suites/{name}"): "audits:write",
    ("GET", "/metrics"): "admin",
    ("POST", "/audits/{audit_id}/canaries"): "audits:write",
    ("GET", "/audits/{audit_id}/canaries"): "audits:read",
    ("GET", "/checks/canaries"): "audits:read",
    ("POST", "/audits/{audit_id}/second-audit"): "audits:write",
    ("GET", "/audits/{audit_id}/second-audit"): "audits:read",
    ("GET", "/checks/second-audits"): "audits:read",
    ("POST", "/audits/{audit_id}/correction"): "audits:write",
    ("GET", "/audits/{audit_id}/correction"): "audits:read",
    ("PUT", "/audits/{audit_id}/claims/{n}/label"): "audits:write",
    ("POST", "/labels"): "audits:write",
    ("GET", "/labels/agreement"): "audits:read",
    ("GET", "/healthz"): None,
    ("GET", "/readyz"): None,
    # the pages: a session cookie of /ui/login (or a bearer header), scope audits:read
    ("GET", "/ui/audits"): "audits:read",
    ("GET", "/ui/audits/{audit_id}"): "audits:read",
    ("GET", "/ui/audits/{audit_id}/json"): "audits:read",
    ("GET", "/ui/audits/{audit_id}/status"): "audits:read",
    ("GET", "/ui/runs"): "audits:read",
    ("GET", "/ui/runs/{run_id}"): "audits:read",
    ("GET", "/ui"): None,  # a redirect to /ui/audits
    ("GET", "/ui/login"): None,
    ("POST", "/ui/login"): None,  # checks the pasted key itself (CSRF token of the form)
    ("POST", "/ui/logout"): None,  # clears the cookie (CSRF token of the session)
}
#: The pages: a browser without a session is sent to the sign-in form rather than answered 401.
UI_PAGES = sorted(r for r in ROUTE_CALLS if r[1].startswith("/ui/"))


def _call(client: Any, route: tuple[str, str], headers: dict[str, str], **ids: str) -> Any:
    path, body = ROUTE_CALLS[route]
    path = path.format(audit=ids.get("audit", "00000000-0000-0000-0000-000000000000"),
                       key=ids.get("key", "00000000-0000-0000-0000-000000000000"))  # fmt: skip
    return client.request(route[0], path, json=body, headers=headers, follow_redirects=False)


def test_every_route_declares_a_scope_and_is_listed_here(settings: Any) -> None:
    from api.auth import route_scopes
    from api.main import create_app

    table = route_scopes(create_app(settings))
    assert table == EXPECTED_SCOPES  # a new route must declare its scope (api.auth.require)
    assert set(ROUTE_CALLS) == {r for r, scope in table.items() if scope is not None}


def test_keys_are_random_and_stored_only_as_sha256(session_factory: Any) -> None:
    key1, id1 = make_key(session_factory, "default", ("audits:read",))
    key2, _ = make_key(session_factory, "default", ("audits:read",))
    # 32 random bytes = 43 URL-safe base64 characters behind "ca_"
    assert key1.startswith("ca_") and len(key1) == 3 + 43 and key1 != key2
    with session_factory() as s:
        row = s.execute(sqlalchemy.text("SELECT * FROM api_keys WHERE id = :i"), {"i": id1}).mappings().one()
    assert row["key_sha256"] == hashlib.sha256(key1.encode()).hexdigest()
    assert key1 not in [str(v) for v in row.values()]
    assert row["prefix"] == key1[:11]


@pytest.mark.parametrize("route", sorted(ROUTE_CALLS))
@pytest.mark.parametrize(
    "header",
    [None, "Bearer ca_not-a-key", "Basic dXNlcjpwYXNz", "Bearer "],
    ids=["missing", "unknown", "basic", "empty"],
)
def test_no_valid_key_is_401_on_every_route(bare: Any, route: tuple[str, str], header: str | None) -> None:
    resp = _call(bare, route, {"Authorization": header} if header else {})
    if header is None and route in UI_PAGES:  # a browser's first visit: to the sign-in form
        assert resp.status_code == 303, resp.text
        assert resp.headers["location"].startswith("/ui/login?next=/ui/")
        return
    assert resp.status_code == 401, resp.text
    assert resp.headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("route", UI_PAGES)
def test_a_page_takes_no_forged_session_cookie(
    bare: Any, session_factory: Any, route: tuple[str, str]
) -> None:
    _key, key_id = make_key(session_factory, "default", ("audits:read",))
    for cookie in (f"{key_id}.9999999999.AAAA", "ca_not-a-session"):
        resp = _call(bare, route, {"Cookie": f"claimaudit_ui={cookie}"})
        assert resp.status_code == 303 and resp.headers["location"].startswith("/ui/login?next=/ui/")


def test_revoked_and_expired_keys_are_401(bare: Any, session_factory: Any) -> None:
    from db import auth_repository as keys_repo

    key, key_id = make_key(session_factory, "default", ("audits:read",))
    headers = {"Authorization": f"Bearer {key}"}
    assert bare.get("/audits", headers=headers).status_code == 200
    with session_factory() as s:
        keys_repo.revoke_api_key(s, key_id, tenant_id=None)
        s.commit()
    resp = bare.get("/audits", headers=headers)
    assert resp.status_code == 401 and "revoked" in message(resp)

    past = datetime.now(UTC) - timedelta(seconds=1)
    old, _ = make_key(session_factory, "default", ("audits:read",), expires_at=past)
    resp = bare.get("/audits", headers={"Authorization": f"Bearer {old}"})
    assert resp.status_code == 401 and "expired" in message(resp)
    soon = datetime.now(UTC) + timedelta(hours=1)
    fresh, _ = make_key(session_factory, "default", ("audits:read",), expires_at=soon)
    assert bare.get("/audits", headers={"Authorization": f"Bearer {fresh}"}).status_code == 200


@pytest.mark.parametrize("route", sorted(ROUTE_CALLS))
def test_a_key_without_the_scope_is_403(bare: Any, session_factory: Any, route: tuple[str, str]) -> None:
    needed = EXPECTED_SCOPES[route]
    others = tuple(s for s in ("audits:write", "audits:read", "admin") if s != needed)
    key, _ = make_key(session_factory, "default", others)
    resp = _call(bare, route, {"Authorization": f"Bearer {key}"})
    assert resp.status_code == 403, resp.text
    assert repr(needed) in message(resp)


def test_admin_endpoints_manage_their_own_tenant_only(
    bare: Any, tenant_a: Tenant, tenant_b: Tenant, session_factory: Any
) -> None:
    made = bare.post(
        "/admin/keys", json={"scopes": ["audits:read"], "name": "dashboard"}, headers=tenant_a.headers
    )
    assert made.status_code == 201, made.text
    new = made.json()
    assert (
        new["tenant_id"] == tenant_a.id and new["scopes"] == ["audits:read"] and new["key"].startswith("ca_")
    )
    reader = {"Authorization": f"Bearer {new['key']}"}
    assert bare.get("/audits", headers=reader).status_code == 200
    assert bare.post("/audits", json=VALID, headers=reader).status_code == 403

    listed = bare.get("/admin/keys", headers=tenant_a.headers).json()["items"]
    assert {k["tenant_id"] for k in listed} == {tenant_a.id}
    assert new["id"] in {k["id"] for k in listed} and all("key" not in k for k in listed)
    assert str(tenant_b.key_id) not in {k["id"] for k in listed}

    # another tenant's key is "not found", and stays valid
    assert bare.delete(f"/admin/keys/{tenant_b.key_id}", headers=tenant_a.headers).status_code == 404
    assert bare.get("/audits", headers=tenant_b.headers).status_code == 200

    revoked = bare.delete(f"/admin/keys/{new['id']}", headers=tenant_a.headers)
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    assert bare.get("/audits", headers=reader).status_code == 401


@pytest.mark.parametrize(
    "body",
    [
        {"scopes": []},
        {"scopes": ["root"]},
        {"scopes": ["admin"], "tenant_id": "other"},
        {"scopes": ["admin"], "expires_at": "2001-01-01T00:00:00Z"},
        {"scopes": ["admin"], "requests_per_second": 0},
    ],
    ids=["no-scope", "unknown-scope", "other-tenant", "past-expiry", "own-limits"],
)
def test_admin_key_requests_are_validated(bare: Any, tenant_a: Tenant, body: dict[str, Any]) -> None:
    assert bare.post("/admin/keys", json=body, headers=tenant_a.headers).status_code == 422


def test_the_readme_route_table_lists_every_route_with_its_scope() -> None:
    """README "Scopes and routes" says what EXPECTED_SCOPES (and so the app) says, route by route."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("**Scopes and routes**", 1)[1].split("\n\n", 2)[1]
    listed: dict[tuple[str, str], str | None] = {}
    for row in table.splitlines()[2:]:
        routes, scope = (cell.strip() for cell in row.strip("|").rsplit("|", 1))
        named = None if scope.startswith("none") else scope.strip("`")
        for method, path in re.findall(r"`(GET|POST|PUT|DELETE) ([^`]+)`", routes):
            listed[(method, path)] = named
    assert listed == EXPECTED_SCOPES
