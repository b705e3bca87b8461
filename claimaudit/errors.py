"""Exceptions of the claimaudit client: one per HTTP status, each naming the status and the field.

Every error body of the API is ``{"detail": [{"loc": [...], "msg": ..., "type": ...}]}``
(``api.errors.ErrorBody``); :func:`error_for` turns a response into the exception of its status
with ``status_code``, ``field`` (the first error's ``loc`` without ``body``, e.g.
``references.0``; None when the error is about no field) and ``errors`` (every item).
"""

from __future__ import annotations

from typing import Any

import httpx

__all__ = [
    "ClaimauditError",
    "APIError",
    "BadRequest",
    "AuthenticationError",
    "PermissionDenied",
    "NotFound",
    "Conflict",
    "PayloadTooLarge",
    "InvalidRequest",
    "RateLimited",
    "ServerError",
    "ServiceUnavailable",
    "ConnectionFailed",
    "AuditTimeout",
    "error_for",
    "describe",
]


class ClaimauditError(Exception):
    """Base class of every error the client raises."""


class APIError(ClaimauditError):
    """The API answered with an error status.

    Attributes: ``status_code`` (int), ``field`` (str or None), ``message`` (the first error's
    text), ``errors`` (list of ``{"loc", "msg", "type"}``), ``method`` and ``url`` of the request.
    """

    def __init__(
        self,
        status_code: int,
        message: str,
        *,
        field: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        method: str = "",
        url: str = "",
    ) -> None:
        self.status_code = status_code
        self.message = message
        self.field = field
        self.errors = errors or []
        self.method = method
        self.url = url
        where = f" {method} {url}" if method else ""
        super().__init__(f"HTTP {status_code}{where}: {message}")


class BadRequest(APIError):
    """400: the body cannot be read (not UTF-8 JSON text)."""


class AuthenticationError(APIError):
    """401: no API key, or an unknown, revoked or expired one (set ``CLAIMAUDIT_API_KEY``)."""


class PermissionDenied(APIError):
    """403: the API key lacks the route's scope."""


class NotFound(APIError):
    """404: no such audit, run or suite (another tenant's is not found either)."""


class Conflict(APIError):
    """409: an idempotency key reused with another body."""


class PayloadTooLarge(APIError):
    """413: a text, the references or the request over a server limit (the message names it)."""


class InvalidRequest(APIError):
    """422: invalid input; ``field`` names where."""


class RateLimited(APIError):
    """429 after the client's retries: over a rate limit or the tenant's LLM budget."""


class ServerError(APIError):
    """5xx other than 503 after the client's retries."""


class ServiceUnavailable(APIError):
    """503 after the client's retries: Postgres or Redis does not answer."""


class ConnectionFailed(ClaimauditError):
    """The API could not be reached (connection refused, timed out) after the client's retries."""


class AuditTimeout(ClaimauditError, TimeoutError):
    """An audit (or a batch) did not end within the time given; ``audit_id`` and ``status`` say
    where it was."""

    def __init__(self, message: str, *, audit_id: str | None = None, status: str | None = None) -> None:
        super().__init__(message)
        self.audit_id = audit_id
        self.status = status


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: InvalidRequest,
    429: RateLimited,
    503: ServiceUnavailable,
}


def _field(loc: list[Any]) -> str | None:
    parts = [str(p) for p in loc]
    if parts and parts[0] == "body":
        parts = parts[1:]
    return ".".join(parts) or None


def describe(resp: httpx.Response) -> tuple[str, str | None, list[dict[str, Any]]]:
    """``(message, field, errors)`` of an error response: FastAPI's ``detail`` (a string or a list
    of ``{loc, msg, type}``; every item as ``field: msg``), else the start of the body."""
    try:
        data = resp.json()
    except ValueError:
        return f"{resp.text[:500] or resp.reason_phrase}", None, []
    detail = data.get("detail", data) if isinstance(data, dict) else data
    if not isinstance(detail, list):
        return str(detail), None, []
    items = [d for d in detail if isinstance(d, dict)]
    parts = []
    for item in detail:
        if isinstance(item, dict):
            where = _field(list(item.get("loc") or []))
            parts.append(f"{where}: {item.get('msg', '')}" if where else str(item.get("msg", "")))
        else:
            parts.append(str(item))
    first = _field(list(items[0].get("loc") or [])) if items else None
    return "; ".join(parts), first, items


def error_for(resp: httpx.Response) -> APIError:
    """The exception of an error response (its class by status, see the module docstring)."""
    message, field, errors = describe(resp)
    code = resp.status_code
    kind = _BY_STATUS.get(code, ServerError if code >= 500 else APIError)
    try:
        method, url = resp.request.method, str(resp.request.url.copy_with(query=None))
    except RuntimeError:  # a response built without its request
        method, url = "", ""
    return kind(code, message, field=field, errors=errors, method=method, url=url)
