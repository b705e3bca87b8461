"""FastAPI dependencies: settings, the request's database session, the caller's tenant."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session, sessionmaker

from workers.settings import Settings


def get_settings(request: Request) -> Settings:
    """The settings the app was created with."""
    settings: Settings = request.app.state.settings
    return settings


def get_session(request: Request) -> Iterator[Session]:
    """One session per request; the route commits, anything unfinished is rolled back."""
    factory: sessionmaker[Session] = request.app.state.session_factory
    session = factory()
    try:
        yield session
    finally:
        session.rollback()
        session.close()


#: The tenant of a request until authentication (#11) resolves the caller's own.
DEFAULT_TENANT = "default"


def get_tenant() -> str:
    """The caller's tenant id; every request is tenant ``"default"`` until #11 wires authentication.

    Route handlers take it as ``tenant: TenantDep`` and pass it to the repository, so that
    replacing this one function scopes every route and page.
    """
    return DEFAULT_TENANT


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[Session, Depends(get_session)]
TenantDep = Annotated[str, Depends(get_tenant)]
