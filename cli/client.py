"""The CLI's side of the API: :class:`claimaudit.Client` with the CLI's key, batch-line helpers,
and readable messages for what the API refuses.

The CLI never validates audit content itself: the API is the one validator, and its 422/413
messages become the ``error`` of rejected lines. What it checks is only what cannot travel as
JSON at all (:func:`transport_problem`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from claimaudit import Client as _Client
from claimaudit._flows import AUDIT_FIELDS
from claimaudit.client import OnWait
from claimaudit.errors import (
    AuthenticationError,
    ClaimauditError,
    PermissionDenied,
    describe,
)
from claimaudit.models import TERMINAL, BatchItemResult, RunItemResult
from cli.credentials import api_key_for

__all__ = [
    "TERMINAL",
    "AUDIT_FIELDS",
    "LINE_FIELDS",
    "ApiError",
    "Submission",
    "transport_problem",
    "audit_body",
    "idempotency_key",
    "error_message",
    "access_problem",
    "problem",
    "connect",
    "wait_line",
]

#: Keys a batch input line may have (anything else rejects the line, as the API would).
LINE_FIELDS = frozenset({"id", *AUDIT_FIELDS})
#: Every error of the client (an API error status, the API unreachable, a timeout).
ApiError = ClaimauditError


def connect(base_url: str, *, max_retries: int = 5, on_wait: OnWait | None = None) -> _Client:
    """A client of the API at ``base_url`` with the CLI's key (``cli.credentials.api_key_for``);
    ``max_retries``: of a transport error or a 502/503/504 (``claimaudit._protocol``);
    ``on_wait``: told of each wait before a retry (:func:`wait_line` for a command's stderr)."""
    return _Client(base_url, api_key_for(base_url), max_retries=max_retries, on_wait=on_wait)


def wait_line(seconds: float, resp: httpx.Response) -> str:
    """One line saying the CLI waits before retrying ``resp``, how long and why (the API's status,
    error type and message; the ``Retry-After`` asked for when the client waits less, as it waits
    at most ``claimaudit._protocol.MAX_RETRY_AFTER`` at a time).

    >>> req = httpx.Request("POST", "http://api/runs")
    >>> body = {"detail": [{"loc": [], "msg": "the backlog is full; retry after 90 s", "type": "backlog"}]}
    >>> print(wait_line(60.0, httpx.Response(503, json=body, headers={"Retry-After": "90"}, request=req)))
    ... # doctest: +NORMALIZE_WHITESPACE
    waiting 60 s before retrying POST /runs (asked: 90 s): the API answered 503 backlog:
    the backlog is full; retry after 90 s
    """
    message, _field, errors = describe(resp)
    kind = next((str(e["type"]) for e in errors if e.get("type")), "")
    status = f"{resp.status_code} {kind}".strip()
    asked = resp.headers.get("Retry-After", "")
    try:
        capped = f" (asked: {float(asked):g} s)" if float(asked) > seconds else ""
    except ValueError:
        capped = ""
    try:
        what = f" {resp.request.method} {resp.request.url.path}"
    except RuntimeError:  # a response built without its request
        what = ""
    return f"waiting {seconds:g} s before retrying{what}{capped}: the API answered {status}: {message}"


def transport_problem(value: Any, path: str = "") -> str | None:
    """Why ``value`` cannot travel as strict JSON to Postgres, or None.

    Catches what the API cannot even receive or store: NaN/±inf numbers (Python's ``json`` reads
    ``NaN``/``Infinity``, strict JSON and httpx refuse them) and NUL characters. Everything else
    is left to the API, the one validator.
    """
    where = path or "line"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{where}: {value!r} is not a finite number (not valid JSON)"
    if isinstance(value, str):
        return f"{where}: must not contain NUL characters (\\u0000)" if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            if "\x00" in str(key):
                return f"{sub!r}: keys must not contain NUL characters (\\u0000)"
            problem_ = transport_problem(item, sub)
            if problem_:
                return problem_
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem_ = transport_problem(item, f"{path}[{i}]")
            if problem_:
                return problem_
    return None


def audit_body(line: dict[str, Any]) -> dict[str, Any]:
    """The POST /audits body for one batch input line: the audit fields that are present."""
    return {k: line[k] for k in AUDIT_FIELDS if k in line}


def idempotency_key(line_id: str, body: dict[str, Any]) -> str:
    """Key for one input line: its id (first 100 chars) + sha256 of the canonical JSON body.

    The same line submitted again (same id, same content) maps to the same key, so the API
    returns the existing audit instead of creating a new one; an edited line gets a new key.
    """
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    prefix = line_id[:100].replace("\x00", "")  # the API refuses NUL in keys
    return f"{prefix}:{digest}"


def error_message(resp: httpx.Response) -> str:
    """A readable message from a FastAPI error response (``detail`` string or list of errors)."""
    message, _field, _errors = describe(resp)
    if message and resp.headers.get("content-type", "").startswith("application/json"):
        return message
    return f"HTTP {resp.status_code}: {message}"


def _refused_key(message: str, url: str) -> str:
    text = (
        f"the API refused the key ({message}): set CLAIMAUDIT_API_KEY, or run "
        "`claimaudit up` for the local stack's key"
    )
    return text + _foreign_api_hint(url)


def access_problem(resp: httpx.Response) -> str | None:
    """A readable message for a 401/403 answer (what to do about the key), else None."""
    try:
        url = str(resp.request.url)
    except RuntimeError:  # a response built without its request
        url = ""
    if resp.status_code == 401:
        return _refused_key(error_message(resp), url)
    if resp.status_code == 403:
        return f"the API key may not do this ({error_message(resp)})"
    return None


def problem(exc: ClaimauditError) -> str:
    """What the CLI prints for a client error: the API's message, with what to do about a key."""
    if isinstance(exc, AuthenticationError):
        return _refused_key(exc.message, exc.url)
    if isinstance(exc, PermissionDenied):
        return f"the API key may not do this ({exc.message})"
    return str(exc)


def _foreign_api_hint(url: str) -> str:
    """For a refused local key: a hint when the API on this loopback port was not started by
    this checkout (``claimaudit up`` keeps a live pid file): another clone's stack answers there
    and knows none of this checkout's keys."""
    from cli import stack
    from cli.credentials import ENV_KEY
    from service.settings import is_loopback

    parts = urlsplit(url)
    if not url or os.environ.get(ENV_KEY) or not is_loopback(parts.hostname) or stack.api_started_here():
        return ""
    return (
        f"; the API on port {parts.port} was not started by this checkout (another clone's stack?): "
        "stop it there with `claimaudit down`, or start this one on another port "
        "(CLAIMAUDIT_API_PORT)"
    )


@dataclass
class Submission:
    """Outcome of submitting one line: an audit id, or a rejection message."""

    index: int
    audit_id: str | None
    status: str
    error: str | None = None

    @classmethod
    def of(cls, item: BatchItemResult | RunItemResult) -> Submission:
        """From a ``POST /audits/batch`` or ``POST /runs`` result."""
        audit_id = item.id if isinstance(item, BatchItemResult) else item.audit_id
        return cls(item.index, None if audit_id is None else str(audit_id), item.status, item.error)
