"""The worker processes' engine and session factory (one per process, created lazily after fork)."""

from __future__ import annotations

from functools import lru_cache

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from db.engine import make_engine, make_session_factory
from service.settings import get_settings

__all__ = ["get_engine", "get_session_factory", "reset_after_fork"]


@lru_cache(maxsize=1)
def get_engine() -> Engine:
    """The process-wide engine for ``DATABASE_URL``."""
    return make_engine(
        get_settings().database_url, pool_size=5, max_overflow=5, connect_args={"connect_timeout": 5}
    )


@lru_cache(maxsize=1)
def get_session_factory() -> sessionmaker[Session]:
    """The process-wide session factory."""
    return make_session_factory(get_engine())


def reset_after_fork() -> None:
    """Drop connections inherited from a parent process (call in a forked child)."""
    if get_engine.cache_info().currsize:
        get_engine().dispose(close=False)
