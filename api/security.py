"""HTTP hardening of the app: security headers on every response, CORS (no origin unless
``CORS_ORIGINS`` names some), the rate limiter, and the start-up line of ``AUTH=disabled``."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.rate_limits import RateLimiter
from service.settings import Settings

__all__ = ["SECURITY_HEADERS", "install_security"]

log = logging.getLogger("api.security")

#: Sent with every response. The interactive docs (``/docs``, ``/redoc``) load Swagger UI /
#: ReDoc scripts from a CDN, so they get no Content-Security-Policy.
SECURITY_HEADERS: dict[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_CSP = "default-src 'none'; frame-ancestors 'none'"
#: The /ui pages: their own script, stylesheet and polling only (no inline script, no other
#: origin); inline style attributes draw the overlapping claim underlines; forms post to /ui only.
_UI_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
_DOC_PATHS = ("/docs", "/redoc")


class SecurityHeaders:
    """Pure ASGI middleware adding :data:`SECURITY_HEADERS` (and a CSP outside the docs; HSTS over https)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = dict(SECURITY_HEADERS)
        path = str(scope.get("path", ""))
        if path == "/ui" or path.startswith("/ui/"):
            extra["Content-Security-Policy"] = _UI_CSP
        elif not path.startswith(_DOC_PATHS):
            extra["Content-Security-Policy"] = _CSP
        if scope.get("scheme") == "https":
            extra["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for name, value in extra.items():
                    if name.lower().encode() not in present:
                        headers.append((name.lower().encode(), value.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install_security(app: FastAPI, settings: Settings) -> None:
    """Add the middlewares and ``app.state.rate_limiter``; log the access mode once."""
    app.state.rate_limiter = RateLimiter(settings.rate_limit_storage_url or settings.redis_url)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key"],
        )
    app.add_middleware(SecurityHeaders)
    if settings.auth_enabled:
        log.info("AUTH=enabled: every route but /healthz needs an API key")
    else:
        log.warning(
            "AUTH=disabled: callers on loopback are tenant 'default' with every scope; "
            "others get 401 (API_HOST=%s)",
            settings.api_host,
        )
