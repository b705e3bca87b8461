"""Signing in to the /ui pages (api.ui_auth) over HTTP: TestClient, real Postgres and Redis.

A browser sends no bearer header: /ui/login turns a pasted key into a signed session cookie that
only the pages accept; the JSON API never does (a cross-site form could otherwise write with it).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_key
from tests.synthetic_audits import Spec, store_finished_audit
from tests.ui_login import login_token, ui_login

pytestmark = pytest.mark.services

RESPONSE = "The bridge opened in 1998."
REFERENCE = "The bridge opened in 1998."


@pytest.fixture
def bare(settings: Any, redis_url: str) -> Iterator[TestClient]:
    """A client of the app that sends no key and does not follow redirects (as a browser's first visit)."""
    from api.main import create_app

    with TestClient(create_app(settings), follow_redirects=False) as c:
        yield c


@pytest.fixture(scope="module")
def audit_id(session_factory: Any) -> str:
    """A finished audit of tenant ``default``."""
    return str(
        store_finished_audit(
            session_factory, RESPONSE, REFERENCE, [Spec(0, 26, "supported", (0,))], [(0, 26)]
        )
    )


def _reader(session_factory: Any, tenant: str = "default", scopes: tuple[str, ...] = ("audits:read",)) -> str:
    key, _ = make_key(session_factory, tenant, scopes, requests_per_second=0)
    return key


def _set_cookies(resp: Any) -> dict[str, str]:
    return {h.split("=", 1)[0]: h for h in resp.headers.get_list("set-cookie")}


def test_a_page_without_a_session_redirects_to_the_login_form(bare: TestClient, audit_id: str) -> None:
    resp = bare.get(f"/ui/audits/{audit_id}?x=1")
    assert resp.status_code == 303
    assert resp.headers["location"] == f"/ui/login?next=/ui/audits/{audit_id}%3Fx%3D1"
    form = bare.get(resp.headers["location"])
    assert form.status_code == 200 and f'name="next" value="/ui/audits/{audit_id}?x=1"' in form.text


def test_login_sets_a_strict_httponly_cookie_and_the_pages_then_answer(
    bare: TestClient, session_factory: Any, audit_id: str
) -> None:
    key = _reader(session_factory)
    resp = ui_login(bare, key, next_page=f"/ui/audits/{audit_id}")
    cookie = _set_cookies(resp)["claimaudit_ui"]
    for attribute in ("HttpOnly", "SameSite=strict", "Path=/ui"):
        assert attribute.lower() in cookie.lower(), cookie
    assert "secure" not in cookie.lower()  # plain http: a Secure cookie would never come back
    assert key not in cookie  # a session derived from the key, not the key
    page = bare.get(f"/ui/audits/{audit_id}")
    assert page.status_code == 200 and 'class="badge ' in page.text
    assert 'action="/ui/logout"' in page.text  # the sign-out form, with its token


def test_over_https_the_cookie_is_secure(settings: Any, redis_url: str, session_factory: Any) -> None:
    from api.main import create_app

    with TestClient(create_app(settings), base_url="https://testserver", follow_redirects=False) as c:
        resp = ui_login(c, _reader(session_factory))
    assert "secure" in _set_cookies(resp)["claimaudit_ui"].lower()


def test_the_json_api_never_takes_the_session_cookie(bare: TestClient, session_factory: Any) -> None:
    ui_login(bare, _reader(session_factory))
    session = bare.cookies.get("claimaudit_ui", path="/ui")
    assert session
    for method, path in (("GET", "/audits"), ("POST", "/audits")):
        resp = bare.request(method, path, headers={"Cookie": f"claimaudit_ui={session}"}, json={})
        assert resp.status_code == 401, (path, resp.text)


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        ("csrf", 403, "the form expired"),
        ("key", 401, "invalid API key"),
        ("scope", 403, "lacks the scope"),
    ],
)
def test_login_refuses_a_bad_token_an_unknown_key_and_a_key_without_audits_read(
    bare: TestClient, session_factory: Any, change: str, code: int, message: str
) -> None:
    token = login_token(bare)
    key = _reader(session_factory, scopes=("audits:write",) if change == "scope" else ("audits:read",))
    form = {"csrf": "forged" if change == "csrf" else token, "key": "ca_nope" if change == "key" else key}
    resp = bare.post("/ui/login", data=form)
    assert resp.status_code == code and message in resp.text
    assert "claimaudit_ui" not in _set_cookies(resp)


def test_a_revoked_key_ends_its_sessions(bare: TestClient, session_factory: Any, audit_id: str) -> None:
    from db import auth_repository as keys_repo

    key, key_id = make_key(session_factory, "default", ("audits:read",), requests_per_second=0)
    ui_login(bare, key)
    assert bare.get("/ui/audits").status_code == 200
    with session_factory() as s:
        keys_repo.revoke_api_key(s, key_id, tenant_id=None)
        s.commit()
    resp = bare.get("/ui/audits")
    assert resp.status_code == 303 and resp.headers["location"].startswith("/ui/login")
    assert 'claimaudit_ui=""' in _set_cookies(resp)["claimaudit_ui"]  # cleared


def test_a_forged_or_stale_cookie_is_no_session(bare: TestClient, session_factory: Any) -> None:
    ui_login(bare, _reader(session_factory))
    good = str(bare.cookies.get("claimaudit_ui", path="/ui"))
    kid, expires, mac = good.split(".")
    bare.cookies.clear()
    forged = [
        f"{kid}.{int(expires) + 3600}.{mac}",  # a longer life than the one signed
        f"{uuid.uuid4()}.{expires}.{mac}",  # another key
        f"{kid}.{expires}.{mac[:-2]}AA",  # another MAC
        "nonsense",
    ]
    for value in forged:
        resp = bare.get("/ui/audits", headers={"Cookie": f"claimaudit_ui={value}"})
        assert resp.status_code == 303 and resp.headers["location"].startswith("/ui/login"), value


def test_logout_needs_the_session_token_and_clears_the_cookie(bare: TestClient, session_factory: Any) -> None:
    ui_login(bare, _reader(session_factory))
    page = bare.get("/ui/audits").text
    token = page.split('action="/ui/logout"', 1)[1].split('name="csrf" value="', 1)[1].split('"', 1)[0]
    assert bare.post("/ui/logout", data={"csrf": "forged"}).status_code == 403
    assert bare.get("/ui/audits").status_code == 200  # still signed in
    out = bare.post("/ui/logout", data={"csrf": token})
    assert out.status_code == 303 and out.headers["location"] == "/ui/login"
    assert bare.get("/ui/audits").status_code == 303


@pytest.mark.parametrize(
    "target", ["//evil.example/x", "https://evil.example/", "/ui/login", "/audits", "/ui\\x"]
)
def test_login_returns_only_to_a_page_of_the_ui(bare: TestClient, session_factory: Any, target: str) -> None:
    token = login_token(bare)
    resp = bare.post("/ui/login", data={"csrf": token, "key": _reader(session_factory), "next": target})
    assert resp.status_code == 303 and resp.headers["location"] == "/ui/audits"


def test_the_pages_allow_only_their_own_script(bare: TestClient) -> None:
    csp = bare.get("/ui/login").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "form-action 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";", 1)[0]
