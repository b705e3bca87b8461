"""Rendering of a ``/ui`` page for a request: ``html_page`` plus the sign-out form's token."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from api.ui.templating import html_page

__all__ = ["not_found", "page"]


def page(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """``ui/<template>`` with the sign-out form's CSRF token of a cookie session
    (``api.ui_auth``; none for a bearer or ``AUTH=disabled`` caller, who has nothing to sign out of)."""
    csrf = getattr(request.state, "ui_csrf", None)
    return html_page(template, status_code, session_csrf=csrf, **context)


def not_found(request: Request, what: str) -> HTMLResponse:
    """The 404 page of an unknown id, or of another tenant's: the two look the same."""
    return page(request, "not_found.html", 404, title="not found", what=what)
