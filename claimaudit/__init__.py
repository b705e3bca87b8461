"""claimaudit: audit generated text against reference text, claim by claim.

The public Python API:

- :class:`Client` / :class:`AsyncClient`: the HTTP API (``audit``, ``submit``, ``wait``,
  ``batch``, ``runs``, ``search``), results as typed models (:mod:`claimaudit.models`),
  errors as :mod:`claimaudit.errors` exceptions;
- :func:`audit_offline`: the engine in memory, no services;
- the pytest plugin (:mod:`claimaudit.pytest_plugin`): the ``assert_claims`` fixture.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from claimaudit.client import AsyncClient, AuditFields, Client
from claimaudit.errors import (
    APIError,
    AuditTimeout,
    AuthenticationError,
    BadRequest,
    ClaimauditError,
    Conflict,
    ConnectionFailed,
    InvalidRequest,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
)
from claimaudit.models import AuditDocument, Claim, Evidence

if TYPE_CHECKING:
    from claimaudit.offline import audit_offline

__all__ = [
    "Client",
    "AsyncClient",
    "AuditFields",
    "AuditDocument",
    "Claim",
    "Evidence",
    "audit_offline",
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
    "__version__",
]

try:
    __version__ = version("claimaudit")
except PackageNotFoundError:  # pragma: no cover - a checkout that was never installed
    __version__ = "0+unknown"


def __getattr__(name: str) -> Any:
    """``audit_offline`` is imported on first use (it needs the engine, not the client)."""
    if name == "audit_offline":
        from claimaudit.offline import audit_offline

        return audit_offline
    raise AttributeError(f"module 'claimaudit' has no attribute {name!r}")
