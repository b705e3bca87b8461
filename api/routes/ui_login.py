"""``/ui/login`` and ``/ui/logout``: a browser signs in to the pages with an API key
(the session cookie and its CSRF protection: ``api.ui_auth``)."""

from __future__ import annotations

import hmac
from urllib.parse import parse_qs

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session, sessionmaker

from api.auth import caller_of_key
from api.deps import SettingsDep
from api.ui.templating import html_page
from api.ui_auth import (
    CSRF_COOKIE,
    PAGE_SCOPE,
    SESSION_COOKIE,
    SESSION_SECONDS,
    clear_session,
    new_csrf,
    new_session,
    safe_next,
    session_csrf,
    session_key,
    set_cookie,
)
from db import auth_repository as keys_repo

__all__ = ["router"]

router = APIRouter(prefix="/ui", tags=["ui"], include_in_schema=False)
#: Longest form body read (a key is 46 characters; the rest is the token and the page to return to).
MAX_FORM_BYTES = 8192


def _login_form(request: Request, next_page: str, error: str | None = None, code: int = 200) -> Response:
    token = request.cookies.get(CSRF_COOKIE) or new_csrf()
    response = html_page("login.html", code, title="sign in", csrf=token, next=next_page, error=error)
    set_cookie(request, response, CSRF_COOKIE, token, SESSION_SECONDS)
    return response


async def _form(request: Request) -> dict[str, str]:
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise HTTPException(status.HTTP_413_CONTENT_TOO_LARGE, detail="form too large")
    fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=10)
    return {name: values[0] for name, values in fields.items()}


def _same_token(given: str | None, expected: str | None) -> bool:
    return bool(given and expected) and hmac.compare_digest(str(given), str(expected))


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str | None = None) -> Response:  # noqa: A002 - the query name
    """The sign-in form: paste an API key (``claimaudit demo`` says where the local one is)."""
    return _login_form(request, safe_next(next))


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request, settings: SettingsDep) -> Response:
    """Check the pasted key as the API would and set the session cookie (303 to the page asked for)."""
    form = await _form(request)
    next_page = safe_next(form.get("next"))
    if not _same_token(form.get("csrf"), request.cookies.get(CSRF_COOKIE)):
        return _login_form(request, next_page, "the form expired: sign in again", 403)
    factory: sessionmaker[Session] = request.app.state.session_factory
    with factory() as session:
        row = keys_repo.find_api_key(session, form.get("key", "").strip())
        try:
            caller = caller_of_key(row, settings)
        except HTTPException as exc:
            return _login_form(request, next_page, str(exc.detail), 401)
        if PAGE_SCOPE not in caller.scopes or row is None:
            return _login_form(request, next_page, f"this API key lacks the scope {PAGE_SCOPE!r}", 403)
        value, max_age = new_session(row)
    response = RedirectResponse(next_page, status_code=303)
    set_cookie(request, response, SESSION_COOKIE, value, max_age)
    set_cookie(request, response, CSRF_COOKIE, new_csrf(), SESSION_SECONDS)  # a fresh one per sign-in
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    """Clear the session cookie; the form's token must be the session's (a cross-site form cannot
    sign a browser out)."""
    form = await _form(request)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        factory: sessionmaker[Session] = request.app.state.session_factory
        with factory() as session:
            row = session_key(session, cookie)
        if row is not None and not _same_token(form.get("csrf"), session_csrf(row, cookie)):
            raise HTTPException(status.HTTP_403_FORBIDDEN, detail="CSRF token does not match the session")
    response = RedirectResponse("/ui/login", status_code=303)
    clear_session(request, response)
    return response
