"""FastAPI application factory: ``uvicorn api.main:app`` (OpenAPI at ``/docs``).

The API stores audits and enqueues their chains; it never imports ``openai`` or model weights
(it imports ``db``, the engine's value types and result builder, and ``workers.pipeline``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from sqlalchemy import Engine

from api import errors
from api.auth import authenticate
from api.http_metrics import HttpMetrics
from api.routes import (
    admin,
    audit_status,
    audits,
    checks,
    claims,
    health,
    labels,
    metrics,
    ready,
    runs,
    suites,
    ui,
)
from api.security import install_security
from claims.runtime import settle_heap
from db.audit_events import AuditEndListener
from db.engine import make_engine, make_session_factory
from service.settings import Settings, get_settings

__all__ = ["create_app", "app"]


#: The routers behind an API key, in order (audit_status before audits: POST /audits/status must
#: not be taken for an audit id route).
KEYED_ROUTERS = (
    audit_status.router,
    audits.router,
    claims.router,
    admin.router,
    runs.router,
    suites.router,
    metrics.router,
    checks.router,
    labels.router,
)


def _warm_connections(engine: Any, settings: Settings) -> None:
    """Open one database connection (kept in the pool) and the broker's publisher connection,
    and rehearse a submission on them (``audit_service.rehearse_submission``, rolled back;
    ``workers.port.warm_broker``: the first send's set-up, nothing sent), so that the first audit
    after start does not pay for them inside its request; errors are left to that request (the
    database or the broker is down)."""
    from sqlalchemy.orm import configure_mappers

    from api.audit_service import rehearse_submission
    from workers.port import warm_broker

    configure_mappers()
    try:
        with make_session_factory(engine)() as session:
            rehearse_submission(session, settings)
    except Exception as exc:  # the database is down or refuses: the first request reports it
        logging.getLogger(__name__).warning("submission warm-up failed (%s: %s)", type(exc).__name__, exc)
    warm_broker()


def _engines(settings: Settings) -> tuple[Engine, Engine]:
    """The requests' engine (20 connections at most) and the one of admission's backlog counts
    (``api.backlog``: 10 at most), a pool of its own so that the holder of the admission lock never
    waits for a connection held by the requests queued behind it. ``connect_timeout``: a database
    that is down answers 503 in seconds, not after the OS's TCP timeout."""

    def engine(pool_size: int, max_overflow: int) -> Engine:
        return make_engine(
            settings.database_url,
            pool_size=pool_size,
            max_overflow=max_overflow,
            pool_timeout=10,
            connect_args={"connect_timeout": 5},
        )

    return engine(10, 10), engine(2, 8)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; ``settings`` default: ``service.settings.get_settings()`` (the environment)."""
    settings = settings or get_settings()
    engine, backlog_engine = _engines(settings)

    # wakes long polls (GET /audits/{id}?wait=S) when an audit ends: Postgres NOTIFY
    listener = AuditEndListener(settings.database_url)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        listener.start()
        settle_heap()  # the app's start-up objects out of the collector's full passes
        # the first request's connections opened beside start-up, not in it (best effort)
        threading.Thread(
            target=_warm_connections, args=(engine, settings), name="warm-connections", daemon=True
        ).start()
        try:
            yield
        finally:
            listener.stop()
            engine.dispose()
            backlog_engine.dispose()

    app = FastAPI(
        title="claimaudit",
        version="0.1.0",
        description=(
            "Audit a response against reference texts claim by claim: decompose, embed, match, score. "
            "Submit with POST /audits, poll GET /audits/{id}."
        ),
        lifespan=lifespan,
        responses=errors.ERROR_RESPONSES,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.backlog_engine = backlog_engine
    app.state.session_factory = make_session_factory(engine)
    app.state.audit_listener = listener
    errors.install(
        app, max_body_bytes=settings.max_body_bytes, body_read_timeout_s=settings.body_read_timeout_s
    )
    install_security(app, settings)
    # Every router but health needs a key (api.auth); a route's scope is declared on the route.
    authenticated = [Depends(authenticate)]
    for router in KEYED_ROUTERS:
        app.include_router(router, dependencies=authenticated, responses=errors.AUTH_RESPONSES)
    app.include_router(health.router)
    app.include_router(ready.router)
    # /ui: pages for a browser, authenticated by the session cookie of /ui/login (api.ui_auth)
    ui.install(app)
    app.add_middleware(HttpMetrics)  # outermost of the app's own: counts every answer
    return app


app = create_app()
