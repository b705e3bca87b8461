"""Which exceptions a task retries (transient) and which fail the audit at once (everything else).

Retries: ``TRANSIENT_ERRORS`` are retried by every stage task with exponential backoff
(``retry_backoff``), jitter and ``TASK_MAX_RETRIES``; any other exception marks the audit
``failed`` with a readable reason. ``workers.adapters`` raises ``TransientLLMError`` for 429,
5xx, timeouts and connection errors of the LLM endpoint.
"""

from __future__ import annotations

import kombu.exceptions
import redis.exceptions
import sqlalchemy.exc

from workers.adapters.errors import TransientLLMError

__all__ = ["TRANSIENT_ERRORS", "is_transient", "describe"]

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    sqlalchemy.exc.OperationalError,  # connection lost, server restarting, serialization failure
    sqlalchemy.exc.InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,
    ConnectionError,
    TimeoutError,
    TransientLLMError,
)


def is_transient(exc: BaseException) -> bool:
    """True when retrying may succeed."""
    return isinstance(exc, TRANSIENT_ERRORS)


def describe(stage: str, exc: BaseException) -> str:
    """A readable one-paragraph reason, e.g. ``"decomposing failed: ValueError: bad span"``."""
    message = " ".join(str(exc).split())[:1000]
    name = type(exc).__name__
    return f"{stage} failed: {name}: {message}" if message else f"{stage} failed: {name}"
