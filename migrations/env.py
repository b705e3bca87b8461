"""Alembic environment: URL from ``DATABASE_URL`` (``service.settings``), metadata from ``db.models``.

An explicit ``sqlalchemy.url`` on the Alembic config (``Config.set_main_option``, used by the test
fixtures) wins over the environment.
"""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import pool

import db.analyst_models  # noqa: F401  (SQL logins, run claim changes, migration 0011_analyst_logins)
import db.auth_models  # noqa: F401  (tenants and API keys, migration 0005_tenants)
import db.check_models  # noqa: F401  (the method checks, migration 0008_method_checks)
import db.llm_models  # noqa: F401  (the LLM path's tables, migration 0002_llm)
import db.models  # noqa: F401  (registers every table on Base.metadata)
import db.run_models  # noqa: F401  (runs, suites, webhook deliveries, migration 0006_runs)
from db.engine import make_engine, normalise_url
from db.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    explicit = config.get_main_option("sqlalchemy.url")
    if explicit:
        return normalise_url(explicit)
    from service.settings import Settings

    return Settings().database_url


def include_object(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """Leave the per-model partial HNSW indexes (expression indexes, made by hand) out of autogenerate."""
    return not (type_ == "index" and name is not None and name.startswith("ix_claims_embedding_hnsw"))


def run_migrations_offline() -> None:
    context.configure(
        url=_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        include_object=include_object,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            include_object=include_object,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
