"""FastAPI application factory: ``uvicorn api.main:app`` (OpenAPI at ``/docs``).

The API stores audits and enqueues their chains; it never imports ``openai`` or model weights
(it imports ``db``, the engine's value types and result builder, and ``workers.pipeline``).
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Request, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from api.auth import authenticate
from api.routes import admin, audit_status, audits, checks, claims, health, labels, metrics, runs, suites
from api.security import install_security
from db.engine import make_engine, make_session_factory
from workers.settings import Settings, get_settings

__all__ = ["create_app", "app", "json_safe"]


def json_safe(value: Any) -> Any:
    """``value`` with every NaN/±inf float replaced by its ``repr`` string (``"nan"``, ``"inf"``).

    Strict JSON has no non-finite numbers; Starlette's ``JSONResponse`` (``allow_nan=False``) raises
    on them, which turned a 422 echoing ``{"threshold": NaN}`` into a 500.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 body (``{"detail": [errors]}``), made JSON-safe."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return JSONResponse(
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
        content={"detail": json_safe(jsonable_encoder(json_safe(list(errors))))},
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; ``settings`` default: ``workers.settings.get_settings()`` (the environment)."""
    settings = settings or get_settings()
    engine = make_engine(settings.database_url, pool_size=10, max_overflow=10)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        engine.dispose()

    app = FastAPI(
        title="claimaudit",
        version="0.1.0",
        description=(
            "Audit a response against reference texts claim by claim: decompose, embed, match, score. "
            "Submit with POST /audits, poll GET /audits/{id}."
        ),
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.session_factory = make_session_factory(engine)
    app.add_exception_handler(RequestValidationError, _validation_error)
    install_security(app, settings)
    # Every router but health needs a key (api.auth); a route's scope is declared on the route.
    authenticated = [Depends(authenticate)]
    # audit_status before audits: POST /audits/status must not be taken for an audit id route
    app.include_router(audit_status.router, dependencies=authenticated)
    app.include_router(audits.router, dependencies=authenticated)
    app.include_router(claims.router, dependencies=authenticated)
    app.include_router(admin.router, dependencies=authenticated)
    app.include_router(runs.router, dependencies=authenticated)
    app.include_router(suites.router, dependencies=authenticated)
    app.include_router(metrics.router, dependencies=authenticated)
    app.include_router(checks.router, dependencies=authenticated)
    app.include_router(labels.router, dependencies=authenticated)
    app.include_router(health.router)
    return app


app = create_app()
