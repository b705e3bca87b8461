"""What the sync and async clients share: requests as values, the retry policy, defaults.

The client's operations are written once, as generators (``claimaudit._flows``) that yield a
:class:`Call` (and receive its ``httpx.Response``) or a :class:`Pause` (and receive None); the
sync and async clients only run them. :class:`Attempts` is the retry policy of one call, a pure
state machine both runners follow:

- a transport error (connection refused, timeout), 502, 503 or 504 is retried up to
  ``max_retries`` times, after ``Retry-After`` when the answer has one, else after
  0.5, 1, 2, 4, 8 s;
- a 429, and a 503 that refuses new audits while the deployment's backlog is full (error type
  ``backlog`` or ``backlog_age``), is retried up to ``max_rate_limited`` times after its
  ``Retry-After`` (1 s without one), and does not use up ``max_retries``;
- ``Retry-After`` is taken in whole or decimal seconds and capped at ``MAX_RETRY_AFTER``.

Every write is safe to send twice: ``POST /audits`` and ``POST /audits/batch`` carry an
idempotency key (the caller's, else a random one per call), ``POST /runs`` is idempotent per
item id, ``PUT`` and ``DELETE`` by nature.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx

from claimaudit.errors import ConnectionFailed, error_for

__all__ = [
    "Call",
    "Pause",
    "Flow",
    "Attempts",
    "MAX_RETRY_AFTER",
    "DEFAULT_PORT",
    "default_base_url",
    "default_api_key",
    "local_key_file",
]

T = TypeVar("T")

#: Longest wait on one ``Retry-After``, in seconds.
MAX_RETRY_AFTER = 60.0
#: Port of the local stack's API (``claimaudit up``) when ``CLAIMAUDIT_API_PORT`` is not set.
DEFAULT_PORT = 8000
#: Statuses retried like a transport error (the request may not have been handled).
RETRIED = frozenset({502, 503, 504})
#: Error types of the 503 of a full backlog (the API's backlog bounds): retried like a 429.
BACKLOG_TYPES = frozenset({"backlog", "backlog_age"})


@dataclass(frozen=True)
class Call:
    """One HTTP request of a flow; ``accept``: the statuses handed back to the flow (any other
    error status raises its :mod:`claimaudit.errors` exception after the retries)."""

    method: str
    path: str
    params: dict[str, Any] | None = None
    json: Any = None
    headers: dict[str, str] | None = None
    accept: tuple[int, ...] = (200,)
    #: read timeout of this request (a long poll holds the answer up to 30 s); None: the client's
    timeout: float | None = None

    def send_args(self) -> dict[str, Any]:
        """Keyword arguments of ``httpx.Client.request`` / ``httpx.AsyncClient.request``."""
        args: dict[str, Any] = {"params": self.params, "headers": self.headers}
        if self.json is not None:
            args["json"] = self.json
        if self.timeout is not None:
            args["timeout"] = self.timeout
        return args


@dataclass(frozen=True)
class Pause:
    """Wait this many seconds before the flow goes on."""

    seconds: float


#: A client operation: yields Calls and Pauses, returns its result.
Flow = Generator[Call | Pause, Any, T]


@dataclass
class Attempts:
    """The retry policy of one call (module docstring): feed it each outcome; it answers the
    seconds to wait before trying again, or raises."""

    call: Call
    max_retries: int = 5
    max_rate_limited: int = 30
    failures: int = 0
    limited: int = 0

    def after_error(self, exc: httpx.TransportError) -> float:
        """Seconds to wait after a transport error; ``ConnectionFailed`` once retries are spent."""
        self.failures += 1
        if self.failures > self.max_retries:
            try:
                where = f"{self.call.method} {exc.request.url.copy_with(query=None)}"
            except RuntimeError:  # an error raised without its request
                where = f"{self.call.method} {self.call.path}"
            raise ConnectionFailed(
                f"{where}: the API does not answer ({type(exc).__name__}: {exc}) "
                f"after {self.max_retries} retries"
            ) from exc
        return backoff(self.failures)

    def after_response(self, resp: httpx.Response) -> float | None:
        """None when the flow takes ``resp`` (an accepted status); seconds to wait before trying
        again; or the status's exception once retries are spent."""
        code = resp.status_code
        if code in self.call.accept:
            return None
        if (code == 429 or backlog_full(resp)) and self.limited < self.max_rate_limited:
            self.limited += 1
            return retry_after(resp, default=1.0)
        if code in RETRIED and self.failures < self.max_retries:
            self.failures += 1
            return retry_after(resp, default=backoff(self.failures))
        raise error_for(resp)


def backoff(failures: int) -> float:
    """0.5 s after the first failure, doubling, at most 8 s."""
    return float(min(0.5 * 2 ** (failures - 1), 8.0))


def backlog_full(resp: httpx.Response) -> bool:
    """True for a 503 that refuses new audits while the deployment's backlog is full (an error
    ``type`` of ``BACKLOG_TYPES``): the server works, the queue is long; waited out like a 429."""
    if resp.status_code != 503:
        return False
    try:
        detail = resp.json()["detail"]
    except (ValueError, KeyError, TypeError):
        return False
    return isinstance(detail, list) and any(
        isinstance(item, dict) and item.get("type") in BACKLOG_TYPES for item in detail
    )


def retry_after(resp: httpx.Response, *, default: float) -> float:
    """The answer's ``Retry-After`` in seconds (at least 0.1, at most ``MAX_RETRY_AFTER``), or
    ``default`` when absent or not a number (an HTTP date is not used)."""
    try:
        seconds = float(resp.headers["Retry-After"])
    except (KeyError, ValueError):
        return default
    return min(max(seconds, 0.1), MAX_RETRY_AFTER)


def default_base_url() -> str:
    """``CLAIMAUDIT_API_URL``, else the local stack's ``http://127.0.0.1:<CLAIMAUDIT_API_PORT or 8000>``."""
    explicit = os.environ.get("CLAIMAUDIT_API_URL", "").strip()
    if explicit:
        return explicit.rstrip("/")
    return f"http://127.0.0.1:{os.environ.get('CLAIMAUDIT_API_PORT') or DEFAULT_PORT}"


def _on_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def local_key_file() -> Path:
    """The local stack's admin key: ``<state dir>/admin.key``, the state dir being
    ``CLAIMAUDIT_STATE_DIR``, else ``.claimaudit`` in the checkout (editable install) or in the
    current directory."""
    env = os.environ.get("CLAIMAUDIT_STATE_DIR")
    if env:
        return Path(env) / "admin.key"
    checkout = Path(__file__).resolve().parent.parent
    root = checkout if (checkout / "pyproject.toml").exists() else Path.cwd()
    return root / ".claimaudit" / "admin.key"


def default_api_key(base_url: str) -> str | None:
    """``CLAIMAUDIT_API_KEY``, else the local admin key when ``base_url`` is on a loopback address
    (never sent elsewhere), else None."""
    explicit = os.environ.get("CLAIMAUDIT_API_KEY", "").strip()
    if explicit:
        return explicit
    if not _on_loopback(base_url):
        return None
    try:
        return local_key_file().read_text(encoding="utf-8").strip() or None
    except OSError:
        return None
