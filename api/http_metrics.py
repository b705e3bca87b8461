"""Request count and wall time of the API by method, route template and status
(``claimaudit_http_requests_total``, ``claimaudit_http_request_duration_seconds``; ``service.metrics``).

A pure ASGI middleware, outermost of the app's own: it sees every answer, 401/429/413 included.
The route label is the matched route's template (``/audits/{audit_id}``, from Starlette's
``scope["route"]``), never the raw path, so the label set stays bounded; ``unmatched`` for a
path no route serves. An exception that escapes the app counts as 500.
"""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.metrics import HTTP_REQUESTS, HTTP_SECONDS

__all__ = ["HttpMetrics", "route_of"]


def route_of(scope: Scope) -> str:
    """The template of the route that served ``scope`` (``unmatched`` when none did)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


class HttpMetrics:
    """ASGI middleware: count and time each HTTP request (module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 500

        async def send_counting(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_counting)
        finally:
            route = route_of(scope)
            method = str(scope.get("method", ""))
            HTTP_REQUESTS.labels(method, route, str(status)).inc()
            HTTP_SECONDS.labels(method, route).observe(time.perf_counter() - began)
