"""Who is calling: API keys (``Authorization: Bearer ca_…``), tenants, scopes, request limits.

Every route but ``/healthz`` and the docs depends on :func:`authenticate` (wired per router in
``api.main``); a route declares the scope it needs with one of the ``*Caller`` aliases, which
also binds the request's database session to the caller's tenant (``db.tenancy``) so that
Postgres row-level security backs the queries' own tenant filters.

Answers: 401 (``WWW-Authenticate: Bearer``) for a missing, unknown, revoked or expired key; 403
for a key without the route's scope; 429 (``Retry-After``) over the key's or the tenant's requests
per second.
With ``AUTH=disabled`` (only when the API binds to loopback) every caller from a loopback
address is tenant ``default`` with every scope and any other caller gets 401.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Request, status
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session, sessionmaker

from api.deps import SessionDep, SettingsDep
from db import auth_repository as keys_repo
from db.auth_models import SCOPES, ApiKeyRow
from db.models import DEFAULT_TENANT
from db.tenancy import bind_tenant
from service import metrics
from service.rate_limits import Refused
from service.settings import Settings, is_loopback

__all__ = [
    "Caller",
    "admit",
    "authenticate",
    "caller_of_key",
    "require",
    "too_many",
    "route_scopes",
    "WriteCaller",
    "ReadCaller",
    "AdminCaller",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated caller: key id (None under ``AUTH=disabled``), tenant, scopes and its
    effective limits (0: unlimited)."""

    key_id: uuid.UUID | None
    tenant_id: str
    scopes: frozenset[str]
    requests_per_second: int
    audits_per_minute: int

    @property
    def limit_key(self) -> str:
        return str(self.key_id) if self.key_id is not None else "auth-disabled"


def _unauthorized(detail: str) -> HTTPException:
    return HTTPException(status.HTTP_401_UNAUTHORIZED, detail=detail, headers={"WWW-Authenticate": "Bearer"})


def too_many(refused: Refused) -> HTTPException:
    """The 429 of a refused request, naming the limit, with ``Retry-After`` (counted in
    ``claimaudit_admission_refusals_total{reason=<limit>}``)."""
    metrics.ADMISSION_REFUSALS.labels(refused.limit).inc()
    return HTTPException(
        status.HTTP_429_TOO_MANY_REQUESTS,
        detail=f"rate limit exceeded: {refused.limit} (retry after {refused.retry_after} s)",
        headers={"Retry-After": str(refused.retry_after)},
    )


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization")
    if not header:
        raise _unauthorized("missing API key: send Authorization: Bearer <key>")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("Authorization must be 'Bearer <key>'")
    return token.strip()


def _limit(own: int | None, default: int) -> int:
    return default if own is None else own


def caller_of_key(row: ApiKeyRow | None, settings: Settings) -> Caller:
    """The caller of a stored key row (401 when None, revoked or expired); shared with the
    ``/ui`` session cookie (``api.ui_auth``)."""
    if row is None:
        raise _unauthorized("invalid API key")
    if row.revoked_at is not None:
        raise _unauthorized("API key revoked")
    if row.expires_at is not None and row.expires_at <= datetime.now(UTC):
        raise _unauthorized("API key expired")
    return Caller(
        key_id=row.id,
        tenant_id=row.tenant_id,
        scopes=frozenset(row.scopes),
        requests_per_second=_limit(row.requests_per_second, settings.rate_limit_per_second),
        audits_per_minute=_limit(row.audits_per_minute, settings.audits_per_minute),
    )


#: Seconds between two ``last_used_at`` writes of one key by one API process (the database
#: keeps at most one a minute anyway: ``db.auth_repository.touch_api_key``).
TOUCH_EVERY_S = 60.0
_touched: dict[uuid.UUID, float] = {}


def _caller_from_key(request: Request, settings: Settings, token: str) -> Caller:
    factory: sessionmaker[Session] = request.app.state.session_factory
    with factory() as session:
        row = keys_repo.find_api_key(session, token)
        caller = caller_of_key(row, settings)
        now = time.monotonic()
        if row is not None and now - _touched.get(row.id, -TOUCH_EVERY_S) >= TOUCH_EVERY_S:
            keys_repo.touch_api_key(session, row.id)
            session.commit()
            _touched[row.id] = now
    return caller


def admit(request: Request, caller: Caller) -> Caller:
    """``caller`` once within its key's and its tenant's requests per second (429 otherwise;
    ``service.rate_limits``), cached on the request."""
    settings: Settings = request.app.state.settings
    refused = request.app.state.rate_limiter.request(
        caller.limit_key,
        caller.requests_per_second,
        tenant=caller.tenant_id,
        tenant_per_second=settings.tenant_rate_limit_per_second,
    )
    if refused is not None:
        raise too_many(refused)
    request.state.caller = caller
    return caller


def authenticate(request: Request, settings: SettingsDep) -> Caller:
    """The caller of this request (401 / 429 as in the module docstring); cached per request.

    Only the ``Authorization`` header counts here: the ``/ui`` session cookie is read by
    ``api.ui_auth`` for the pages alone, so a cross-site request can never write through it."""
    cached = getattr(request.state, "caller", None)
    if isinstance(cached, Caller):
        return cached
    if settings.auth_enabled:
        return admit(request, _caller_from_key(request, settings, _bearer(request)))
    client = request.client.host if request.client else None
    if not is_loopback(client):
        raise _unauthorized("AUTH=disabled serves loopback clients only")
    caller = Caller(
        None,
        DEFAULT_TENANT,
        frozenset(SCOPES),
        settings.rate_limit_per_second,
        settings.audits_per_minute,
    )
    return admit(request, caller)


def require(scope: str) -> Callable[..., Caller]:
    """A dependency: the caller when its key holds ``scope`` (403 otherwise), with the request's
    session bound to the caller's tenant. The function carries ``.scope`` (see :func:`route_scopes`)."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")

    def dependency(session: SessionDep, caller: Annotated[Caller, Depends(authenticate)]) -> Caller:
        if scope not in caller.scopes:
            raise HTTPException(status.HTTP_403_FORBIDDEN, detail=f"this API key lacks the scope {scope!r}")
        bind_tenant(session, caller.tenant_id)
        return caller

    dependency.scope = scope  # type: ignore[attr-defined]
    dependency.__name__ = f"require_{scope.replace(':', '_')}"
    return dependency


WriteCaller = Annotated[Caller, Depends(require("audits:write"))]
ReadCaller = Annotated[Caller, Depends(require("audits:read"))]
AdminCaller = Annotated[Caller, Depends(require("admin"))]


def _scopes_of(dependant: Any) -> set[str]:
    found = set()
    for dep in dependant.dependencies:
        scope = getattr(dep.call, "scope", None)
        if scope is not None:
            found.add(scope)
        found |= _scopes_of(dep)
    return found


def _authenticated(dependant: Any) -> bool:
    return any(dep.call is authenticate or _authenticated(dep) for dep in dependant.dependencies)


def _api_routes(app: FastAPI) -> list[Any]:
    """Every API route with its effective dependencies (router-level ones included)."""
    try:  # FastAPI >= 0.160 keeps included routers lazily; this resolves them
        from fastapi.routing import iter_route_contexts
    except ImportError:  # pragma: no cover - older FastAPI: the routes are flat
        return [r for r in app.routes if isinstance(r, APIRoute)]
    return [c for c in iter_route_contexts(app.routes) if isinstance(c.original_route, APIRoute)]


def route_scopes(app: FastAPI) -> dict[tuple[str, str], str | None]:
    """``{(method, path): scope}`` of every API route: the scope it requires, ``"authenticated"``
    when it needs a key but no scope, None when it is public. Used by the tests and the README table."""
    table: dict[tuple[str, str], str | None] = {}
    for route in _api_routes(app):
        scopes = _scopes_of(route.dependant)
        if scopes:
            value: str | None = ", ".join(sorted(scopes))
        else:
            value = "authenticated" if _authenticated(route.dependant) else None
        for method in sorted(route.methods or ()):
            table[(method, route.path)] = value
    return table
