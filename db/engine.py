"""Engine and session factory. Takes a URL; reads no settings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["normalise_url", "make_engine", "make_session_factory", "session_scope"]


def normalise_url(url: str) -> str:
    """Return ``url`` with the psycopg 3 driver: ``postgres://``/``postgresql://`` → ``postgresql+psycopg://``.

    Other schemes (already ``postgresql+psycopg://``, or any non-Postgres URL) pass unchanged.
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str, **kwargs: Any) -> Engine:
    """A SQLAlchemy engine for ``url`` (normalised) with ``pool_pre_ping`` on."""
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(normalise_url(url), **kwargs)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions that do not expire objects on commit (results stay readable after the commit)."""
    return sessionmaker(bind=engine, expire_on_commit=False)


@contextmanager
def session_scope(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any exception, always close."""
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
