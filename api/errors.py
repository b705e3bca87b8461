"""One error shape for every 4xx/5xx, the exception handlers that produce it, and the body limit.

Every error body is ``{"detail": [{"loc": [...], "msg": "...", "type": "..."}]}`` (``ErrorBody``),
the shape of FastAPI's validation errors, documented on every route (``ERROR_RESPONSES``):

- 400 a body that cannot be read as JSON text (e.g. invalid UTF-8);
- 401/403/429 from ``api.auth`` on every route that needs an API key (``AUTH_RESPONSES``);
- 404/405/409 as usual; 408 a body not received within ``BODY_READ_TIMEOUT_S``;
- 413 a body over ``MAX_BODY_BYTES`` (refused from ``Content-Length`` or
  while it streams in, before it is parsed) or a text/audit over its limit (the detail names the setting);
- 422 invalid input; ``input`` is at most a short excerpt of what was sent, never all of it;
- 503 with ``Retry-After`` when Postgres or Redis does not answer; the message names the
  service, never its host or port.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import unquote_to_bytes

import kombu.exceptions
import redis.exceptions
import sqlalchemy.exc
from fastapi import FastAPI, HTTPException, Request, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.admission import Refusal

__all__ = [
    "ErrorItem",
    "ErrorBody",
    "ERROR_RESPONSES",
    "AUTH_RESPONSES",
    "RETRY_AFTER_S",
    "EXCERPT_CHARS",
    "problem",
    "refusal",
    "excerpt",
    "install",
    "BodyLimit",
]

log = logging.getLogger(__name__)

#: Seconds a client should wait before retrying a 503.
RETRY_AFTER_S = 5
#: Longest excerpt of the input an error body echoes, in characters.
EXCERPT_CHARS = 100

#: Exceptions that mean "the database is unreachable" (not "this input is wrong").
DATABASE_DOWN: tuple[type[Exception], ...] = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.TimeoutError,  # connection pool exhausted
)
#: Exceptions that mean "the broker is unreachable".
BROKER_DOWN: tuple[type[Exception], ...] = (
    kombu.exceptions.OperationalError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)


class ErrorItem(BaseModel):
    """One error: where (``loc``, e.g. ``["body", "references", 0]``), what (``msg``), which kind
    (``type``), and for invalid input a short excerpt of it (``input``, at most 100 characters)."""

    loc: list[str | int]
    msg: str
    type: str
    input: Any | None = None


class ErrorBody(BaseModel):
    """The body of every error response."""

    detail: list[ErrorItem]


def _described(text: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": text}


#: Error responses documented on every operation (the route adds its own 404/409 where they apply).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _described("The body cannot be read (not UTF-8 JSON text)."),
    408: _described("The body did not arrive within BODY_READ_TIMEOUT_S seconds."),
    413: _described(
        "The body is over MAX_BODY_BYTES, or a text/audit over its limit (the detail names the setting)."
    ),
    422: _described("Invalid input; each item names the field (loc) and says why (msg)."),
    503: _described("Postgres or Redis does not answer; retry after the Retry-After header's seconds."),
}
#: Error responses of every route that needs an API key (``api.auth``).
AUTH_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: _described("No API key, or an unknown, revoked or expired one (WWW-Authenticate: Bearer)."),
    403: _described("The API key lacks the route's scope."),
    429: _described("Over a rate limit or the tenant's daily LLM token budget; see Retry-After."),
}


def problem(
    status_code: int,
    msg: str,
    *,
    loc: Sequence[str | int] = (),
    type_: str = "",
    headers: dict[str, str] | None = None,
) -> HTTPException:
    """An ``HTTPException`` whose detail is the structured error list (one item)."""
    item = {"loc": list(loc), "msg": msg, "type": type_ or _TYPES.get(status_code, "error")}
    return HTTPException(status_code, detail=[item], headers=headers)


def refusal(found: Refusal) -> HTTPException:
    """The HTTP answer of an admission refusal (``service.admission``): its status, message,
    ``loc`` and ``reason`` as the error's type (else the status's), with ``Retry-After`` when the
    refusal gives one (429, 503)."""
    headers = None if found.retry_after is None else {"Retry-After": str(found.retry_after)}
    return problem(found.status, found.detail, loc=found.loc, type_=found.reason or "", headers=headers)


_TYPES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    409: "conflict",
    413: "too_large",
    422: "invalid",
    429: "too_many_requests",
    503: "service_unavailable",
}


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """At most ``limit`` characters of ``value`` as JSON text (lone surrogates escaped), with "…" when cut.

    >>> excerpt("x" * 500, 5)
    '"xxxx…'
    """
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except ValueError:  # NaN under allow_nan=False does not happen with the default; be safe
        text = repr(value)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: pydantic's names of validator-wrapped schemas ("function-after[_no_nul(), str]"): internals, not a
#: place in the request, so they are left out of an error's ``loc``.
_INTERNAL_LOC = re.compile(r"^function-(?:after|before|wrap|plain)\[")


def _clean(errors: Sequence[Any]) -> list[dict[str, Any]]:
    out = []
    for err in errors:
        if not isinstance(err, dict):  # a route's plain message: keep it, in the one shape
            err = {"loc": [], "msg": str(err), "type": "error"}
        item = {
            "loc": [
                p if isinstance(p, int) else excerpt(p, 60).strip('"')
                for p in err.get("loc", ())
                if not (isinstance(p, str) and _INTERNAL_LOC.match(p))
            ],
            "msg": str(err.get("msg", "")).encode("utf-8", "backslashreplace").decode("utf-8"),
            "type": str(err.get("type", "invalid")),
        }
        if "input" in err:
            item["input"] = excerpt(err["input"])
        out.append(item)
    return out


def _json(
    status_code: int, detail: list[dict[str, Any]], headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        status_code=status_code, content={"detail": jsonable_encoder(detail)}, headers=headers
    )


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return _json(status.HTTP_422_UNPROCESSABLE_CONTENT, _clean(list(errors)))


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail
    if isinstance(detail, list):
        items = _clean(detail)
    else:
        items = [{"loc": [], "msg": str(detail), "type": _TYPES.get(exc.status_code, "error")}]
    return _json(exc.status_code, items, dict(exc.headers or {}))


def unavailable(service: str) -> JSONResponse:
    """503 naming ``service`` ("database" or "broker"), with ``Retry-After``."""
    msg = f"the {service} is unavailable; retry in {RETRY_AFTER_S} s"
    item = {"loc": [], "msg": msg, "type": "service_unavailable"}
    return _json(status.HTTP_503_SERVICE_UNAVAILABLE, [item], {"Retry-After": str(RETRY_AFTER_S)})


async def _database_down(request: Request, exc: Exception) -> JSONResponse:
    log.warning("%s %s: database unavailable (%s)", request.method, request.url.path, type(exc).__name__)
    return unavailable("database")


async def _broker_down(request: Request, exc: Exception) -> JSONResponse:
    log.warning("%s %s: broker unavailable (%s)", request.method, request.url.path, type(exc).__name__)
    return unavailable("broker")


def install(app: FastAPI, *, max_body_bytes: int, body_read_timeout_s: float = 30.0) -> None:
    """Register the handlers above and the body limits on ``app``."""
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    for exc_type in DATABASE_DOWN:
        app.add_exception_handler(exc_type, _database_down)
    for exc_type in BROKER_DOWN:
        app.add_exception_handler(exc_type, _broker_down)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes, read_timeout_s=body_read_timeout_s)


def _too_large_items(max_bytes: int) -> list[dict[str, Any]]:
    msg = f"request body over the limit of {max_bytes} bytes (server setting MAX_BODY_BYTES)"
    return [{"loc": ["body"], "msg": msg, "type": "too_large"}]


class _TooLarge(HTTPException):
    """Raised from ``receive`` once the streamed body passes the limit (FastAPI re-raises
    an ``HTTPException`` met while reading the body, so the route's handlers answer 413)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(status.HTTP_413_CONTENT_TOO_LARGE, detail=_too_large_items(max_bytes))


def _slow_body_items(seconds: float) -> list[dict[str, Any]]:
    msg = f"request body not received within {seconds:g} s (server setting BODY_READ_TIMEOUT_S)"
    return [{"loc": ["body"], "msg": msg, "type": "request_timeout"}]


class _SlowBody(HTTPException):
    """Raised from ``receive`` when the body has not arrived within the read time-out (408)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(status.HTTP_408_REQUEST_TIMEOUT, detail=_slow_body_items(seconds))


def _nul_in_url(scope: Scope) -> list[dict[str, Any]] | None:
    """422 items when the path or the query string holds a NUL character (raw or ``%00``): Postgres
    text cannot store it, so a filter holding one could only fail in the database."""
    query = unquote_to_bytes(scope.get("query_string", b""))
    for loc, found in (("path", "\x00" in scope.get("path", "")), ("query", b"\x00" in query)):
        if found:
            return [{"loc": [loc], "msg": "must not contain NUL characters (\\u0000)", "type": "value_error"}]
    return None


class BodyLimit:
    """ASGI middleware: 413 for a body over ``max_bytes``, from ``Content-Length`` before reading
    anything, or as soon as the streamed chunks pass the limit (nothing is parsed); 408 for a body
    whose last byte has not arrived ``read_timeout_s`` seconds after the app first asked for it
    (a client that sends headers and then nothing, or a trickle, holds no connection longer);
    422 for a NUL character in the URL (no route can store or look it up)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, read_timeout_s: float = 30.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.read_timeout_s = read_timeout_s

    def _too_large(self) -> JSONResponse:
        return _json(status.HTTP_413_CONTENT_TOO_LARGE, _too_large_items(self.max_bytes))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nul = _nul_in_url(scope)
        if nul is not None:
            await _json(status.HTTP_422_UNPROCESSABLE_CONTENT, nul)(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await self._too_large()(scope, receive, send)
                    return
        seen = 0
        started = False
        body_done = False
        deadline: float | None = None

        async def limited_receive() -> Message:
            nonlocal seen, body_done, deadline
            if body_done:  # after the body: a wait for the disconnect, not bounded here
                return await receive()
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + self.read_timeout_s
            try:
                message = await asyncio.wait_for(receive(), timeout=max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise _SlowBody(self.read_timeout_s) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge(self.max_bytes)
                body_done = not message.get("more_body", False)
            else:
                body_done = True
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooLarge:
            if started:
                raise
            await self._too_large()(scope, receive, send)
        except _SlowBody:
            if started:
                raise
            items = _slow_body_items(self.read_timeout_s)
            await _json(status.HTTP_408_REQUEST_TIMEOUT, items, {"Connection": "close"})(scope, receive, send)


def validation_text(exc: ValidationError) -> str:
    """A pydantic error as one line, ``"loc: message; loc: message"`` (an item's refusal text)."""
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"] if not (isinstance(p, str) and _INTERNAL_LOC.match(p)))
        parts.append(f"{loc}: {err['msg']}" if loc else str(err["msg"]))
    return "; ".join(parts)
