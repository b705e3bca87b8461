"""Signing in to the ``/ui`` pages as a browser does (tests): the login form's CSRF token, then
the pasted key; the client keeps the session cookie (``api.ui_auth``)."""

from __future__ import annotations

import re
from typing import Any

#: The hidden CSRF field of ``api/templates/ui/login.html``.
CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')


def login_token(client: Any, base: str = "") -> str:
    """GET the login form (which sets the CSRF cookie); its token."""
    form = client.get(f"{base}/ui/login")
    assert form.status_code == 200, form.text
    found = CSRF_FIELD.search(form.text)
    assert found is not None, "no CSRF field on the login form"
    return found.group(1)


def ui_login(client: Any, key: str, base: str = "", next_page: str = "/ui/audits") -> Any:
    """Sign ``client`` (an httpx client or a TestClient) in with ``key``; the 303 answer."""
    token = login_token(client, base)
    resp = client.post(
        f"{base}/ui/login",
        data={"csrf": token, "key": key, "next": next_page},
        follow_redirects=False,
    )
    assert resp.status_code == 303, resp.text
    assert resp.headers["location"] == next_page
    return resp
