"""Fixtures of the integration tests that need a database of their own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import alembic_config, make_key

#: The bounds of the private backlog stack (``MAX_QUEUED_AUDITS=50``: the size of a backlog test).
MAX_QUEUED = 50
MAX_PER_TENANT = 40


@pytest.fixture(scope="module")
def private(fresh_database: Any, redis_server_url: str) -> Iterator[dict[str, Any]]:
    """A migrated database of the module's own with two tenants, ``flood`` and ``other`` (admin
    keys without rate limits), and settings with ``MAX_QUEUED_AUDITS=50``,
    ``MAX_QUEUED_AUDITS_PER_TENANT=40`` and no age bound: ``{"factory", "settings", "keys"}``."""
    from alembic import command

    from db.auth_models import SCOPES
    from db.engine import make_engine, make_session_factory
    from service.settings import Settings

    url = fresh_database("backlog")
    command.upgrade(alembic_config(url), "head")
    engine = make_engine(url)
    factory = make_session_factory(engine)
    keys = {
        tenant: make_key(factory, tenant, SCOPES, requests_per_second=0, audits_per_minute=0)[0]
        for tenant in ("flood", "other")
    }
    settings = Settings(
        database_url=url,
        redis_url=redis_server_url,
        max_queued_audits=MAX_QUEUED,
        max_queued_audits_per_tenant=MAX_PER_TENANT,
        max_backlog_age_s=0,
    )
    yield {"factory": factory, "settings": settings, "keys": keys}
    engine.dispose()
