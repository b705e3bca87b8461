"""The CLI's API key: ``CLAIMAUDIT_API_KEY``, else the local stack's admin key.

``claimaudit up`` makes sure a local admin key exists (:func:`ensure_local_key`): tenant
``default``, every scope, no rate limit, stored in ``<state dir>/admin.key`` with mode 0600 (the
database keeps only its SHA-256). The CLI sends it only to an API on a loopback address, so a
``--api-url`` elsewhere never receives the local key.
"""

from __future__ import annotations

import os
from pathlib import Path

from claimaudit._protocol import default_api_key
from cli.paths import state_dir

__all__ = ["ENV_KEY", "local_key_path", "read_local_key", "write_secret", "api_key_for", "ensure_local_key"]

ENV_KEY = "CLAIMAUDIT_API_KEY"
LOCAL_KEY_NAME = "local admin (claimaudit up)"


def local_key_path() -> Path:
    """``<state dir>/admin.key`` (``CLAIMAUDIT_STATE_DIR``, default ``.claimaudit``)."""
    return state_dir() / "admin.key"


def read_local_key() -> str | None:
    """The local admin key, or None when there is none."""
    try:
        key = local_key_path().read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return key or None


def write_secret(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` with mode 0600 (created that way: never readable by others)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text + "\n")
    os.chmod(tmp, 0o600)
    tmp.replace(path)


def api_key_for(url: str) -> str | None:
    """The key to send to ``url``: ``CLAIMAUDIT_API_KEY``, else the local admin key when ``url`` is
    on a loopback address, else None (``claimaudit._protocol.default_api_key``)."""
    return default_api_key(url)


def ensure_local_key(database_url: str) -> str:
    """The local admin key, valid in the database at ``database_url``: the stored one when it is
    known there, not revoked and not expired, else a new one (written to :func:`local_key_path`)."""
    from datetime import UTC, datetime

    from db import auth_repository as keys_repo
    from db.auth_models import SCOPES
    from db.engine import make_engine, make_session_factory, session_scope

    engine = make_engine(database_url)
    try:
        with session_scope(make_session_factory(engine)) as session:
            key = read_local_key()
            row = keys_repo.find_api_key(session, key) if key else None
            usable = (
                row is not None
                and row.revoked_at is None
                and (row.expires_at is None or row.expires_at > datetime.now(UTC))
                and set(SCOPES) <= set(row.scopes)
            )
            if key is not None and usable:
                return key
            _row, key = keys_repo.create_api_key(
                session,
                tenant_id="default",
                scopes=SCOPES,
                name=LOCAL_KEY_NAME,
                requests_per_second=0,
                audits_per_minute=0,
            )
            write_secret(local_key_path(), key)  # before the commit: never a stored key nobody has
    finally:
        engine.dispose()
    return key
