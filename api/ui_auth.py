"""Who reads the ``/ui`` pages: a browser signs in once with an API key and then sends a cookie.

A browser sends no ``Authorization`` header, so ``/ui/login`` takes a pasted API key, checks it
with the API's own lookup (``api.auth.caller_of_key``: unknown, revoked and expired keys are
refused) and sets the session cookie :data:`SESSION_COOKIE`::

    <key id>.<expires, unix seconds>.<MAC>   MAC = HMAC-SHA256(the key's stored SHA-256 "|"
                                                   UI_SESSION_SECRET,
                                                   "ui-session|<key id>|<expires>"), base64url

The key itself never leaves the login request: the cookie names the key and proves that its
holder once presented it (the MAC's secret is the hash that only the server's database holds,
with the server's ``UI_SESSION_SECRET``, so a copy of the api_keys table forges nothing).
Each page request re-reads the key row, so revoking or expiring the key ends its sessions at
once; a session lasts :data:`SESSION_SECONDS`, never past the key's own expiry. The cookie is
HttpOnly, SameSite=Strict, ``Path=/ui``, and Secure when the request came over https (behind a
proxy: uvicorn's ``--proxy-headers`` from a trusted ``--forwarded-allow-ips``).

Only the pages read the cookie (:func:`ui_reader`); ``api.auth.authenticate``, which every JSON
route uses, reads the ``Authorization`` header alone, so no cross-site form can write through a
browser's session (CSRF). The pages also take a bearer header (a browser never adds one by
itself). The two forms that change anything carry a CSRF token: ``/ui/login`` a random one that
is also a SameSite=Strict cookie (double submit: another site cannot sign a browser in with its
own key), ``/ui/logout`` one derived from the session (:func:`session_csrf`).

Without a cookie or a header a page answers 303 to ``/ui/login?next=<page>``; with
``AUTH=disabled`` the pages, like the API, serve loopback callers as tenant ``default``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
import uuid
from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, HTTPException, Request, status
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session, sessionmaker

from api.auth import Caller, admit, authenticate, caller_of_key
from api.deps import SessionDep, SettingsDep
from db import auth_repository as keys_repo
from db.auth_models import ApiKeyRow
from db.tenancy import bind_tenant
from service.settings import Settings, get_settings

__all__ = [
    "CSRF_COOKIE",
    "PAGE_SCOPE",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "LoginRequired",
    "UiReader",
    "clear_session",
    "login_redirect",
    "new_csrf",
    "new_session",
    "safe_next",
    "session_key",
    "session_csrf",
    "set_cookie",
    "ui_reader",
]

SESSION_COOKIE = "claimaudit_ui"
CSRF_COOKIE = "claimaudit_ui_csrf"
#: How long a sign-in lasts (8 hours: a working day), capped by the key's expiry.
SESSION_SECONDS = 8 * 3600
#: The scope every page needs.
PAGE_SCOPE = "audits:read"


class LoginRequired(Exception):
    """No valid session: the page answers 303 to the login form (:func:`login_redirect`)."""

    def __init__(self, clear: bool = False) -> None:
        super().__init__("login required")
        self.clear = clear


def _mac(secret: str, purpose: str, *parts: str) -> str:
    digest = hmac.new(secret.encode(), "|".join((purpose, *parts)).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _secret(row: ApiKeyRow) -> str:
    """The session MAC's key: the key's stored hash and the server's ``UI_SESSION_SECRET``."""
    return f"{row.key_sha256}|{get_settings().ui_session_secret}"


def new_session(row: ApiKeyRow, now: float | None = None) -> tuple[str, int]:
    """The cookie value of a session of key ``row``, and its lifetime in seconds."""
    now = time.time() if now is None else now
    expires = int(now) + SESSION_SECONDS
    if row.expires_at is not None:
        expires = min(expires, int(row.expires_at.timestamp()))
    kid = str(row.id)
    return f"{kid}.{expires}.{_mac(_secret(row), 'ui-session', kid, str(expires))}", max(
        0, expires - int(now)
    )


def session_csrf(row: ApiKeyRow, cookie: str) -> str:
    """The CSRF token of the forms of a signed-in page (bound to this session)."""
    return _mac(_secret(row), "ui-csrf", cookie)


def session_key(session: Session, cookie: str) -> ApiKeyRow | None:
    """The key row a session cookie was made for, when its MAC holds and it has not expired."""
    kid, _, rest = cookie.partition(".")
    expires, _, mac = rest.partition(".")
    try:
        key_id = uuid.UUID(kid)
        if int(expires) <= time.time():
            return None
    except ValueError:
        return None
    row = keys_repo.get_api_key(session, key_id, tenant_id=None)
    if row is None or not hmac.compare_digest(_mac(_secret(row), "ui-session", kid, expires), mac):
        return None
    return row


def _cookie_caller(request: Request, settings: Settings, cookie: str) -> Caller:
    factory: sessionmaker[Session] = request.app.state.session_factory
    with factory() as session:
        row = session_key(session, cookie)
        if row is None:
            raise LoginRequired(clear=True)
        try:
            caller = caller_of_key(row, settings)
        except HTTPException:  # revoked or expired since the sign-in
            raise LoginRequired(clear=True) from None
        keys_repo.touch_api_key(session, row.id)
        session.commit()
        request.state.ui_csrf = session_csrf(row, cookie)
    return caller


def _page_caller(request: Request, settings: Settings) -> Caller:
    cached = getattr(request.state, "caller", None)
    if isinstance(cached, Caller):
        return cached
    if not settings.auth_enabled:
        return authenticate(request, settings)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        return admit(request, _cookie_caller(request, settings, cookie))
    if request.headers.get("authorization"):
        return authenticate(request, settings)
    raise LoginRequired()


def ui_reader(request: Request, session: SessionDep, settings: SettingsDep) -> Caller:
    """The caller of a page (session cookie, else bearer header; see the module docstring), when
    its key holds ``audits:read`` (403 otherwise), with the request's session bound to its tenant."""
    caller = _page_caller(request, settings)
    if PAGE_SCOPE not in caller.scopes:
        raise HTTPException(status.HTTP_403_FORBIDDEN, detail=f"this API key lacks the scope {PAGE_SCOPE!r}")
    bind_tenant(session, caller.tenant_id)
    return caller


ui_reader.scope = PAGE_SCOPE  # type: ignore[attr-defined]  # read by api.auth.route_scopes

UiReader = Annotated[Caller, Depends(ui_reader)]


def safe_next(target: str | None) -> str:
    """``target`` when it is a path of the pages (no other site, no scheme), else ``/ui/audits``."""
    if not target or not (target == "/ui" or target.startswith(("/ui/", "/ui?"))):
        return "/ui/audits"
    if target.startswith("/ui/login") or "//" in target or "\\" in target:
        return "/ui/audits"
    return target if all(c.isprintable() for c in target) else "/ui/audits"


def set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    """Set an HttpOnly, SameSite=Strict cookie of the pages (``Path=/ui``; Secure over https)."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/ui",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def clear_session(request: Request, response: Response) -> None:
    """Remove the session cookie from the browser."""
    response.delete_cookie(
        SESSION_COOKIE, path="/ui", httponly=True, samesite="strict", secure=request.url.scheme == "https"
    )


def login_redirect(request: Request, exc: Exception) -> Response:
    """The answer to :class:`LoginRequired`: 303 to the login form, back to this page after."""
    page = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    response = RedirectResponse(f"/ui/login?next={quote(safe_next(page), safe='/')}", status_code=303)
    if isinstance(exc, LoginRequired) and exc.clear:
        clear_session(request, response)
    return response


def new_csrf() -> str:
    """A fresh random token of the login form."""
    return secrets.token_urlsafe(32)
