"""Fixtures of the LLM-path tests: the session's migrated Postgres (``tests/conftest.py``), real
Redis, a real Celery worker in its own process, the real API in-process, and a fake
OpenAI-compatible endpoint (the only fake: a local HTTP server the real ``openai`` client talks to).

Isolation: the LLM tests use their own Redis database (db 9 of the test Redis, or
``CLAIMAUDIT_TEST_LLM_REDIS_URL``) for both the worker and this process's Celery producer, so no
other worker (another suite's, still running, or another developer's on the shared Redis) can take
their tasks. The producer is process-global (``workers.celery_app.app``), so :func:`api` is
module-scoped: it points the producer at db 9 for one test module and back when that module ends.
(Session-scoped, it kept db 9 until the end of the session, and every later module's API, e.g.
``tests/e2e``'s, sent its audits to the LLM worker instead of its own.) The worker runs with
``LLM_TIMEOUT_S=1`` and ``TASK_MAX_RETRIES=2`` so that timeouts and exhausted retries take seconds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.fakes.openai_server import FakeOpenAI

#: Seconds the client waits for the endpoint in the worker (the fake sleeps 3 s on "timeout").
CLIENT_TIMEOUT_S = 1.0
#: Celery retries of a stage (so an always-failing endpoint is asked 1 + 2 = 3 times).
TASK_MAX_RETRIES = 2
LLM_REDIS_DB = 9
#: The endpoint key of the worker and the API: distinctive, so that a test can look for it in logs.
OPENAI_TEST_KEY = "sk-test-7f3a9c1e-must-never-be-logged"


@pytest.fixture(scope="session")
def llm_redis_url(redis_server_url: str) -> str:
    """Redis db 9 on the test Redis server (never flushed: the session's own queue isolates it)."""
    url = os.environ.get("CLAIMAUDIT_TEST_LLM_REDIS_URL") or (
        redis_server_url.rsplit("/", 1)[0] + f"/{LLM_REDIS_DB}"
    )
    return url


@pytest.fixture(scope="session")
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture(scope="session")
def llm_worker(start_worker: Callable[..., Any], fake_openai: FakeOpenAI, llm_redis_url: str) -> Any:
    """A Celery worker on the LLM Redis db, pointed at the fake endpoint."""
    return start_worker(
        {
            "REDIS_URL": llm_redis_url,
            "OPENAI_BASE_URL": fake_openai.base_url,
            "OPENAI_API_KEY": OPENAI_TEST_KEY,
            "LLM_MODEL": "fake-chat",
            "LLM_TIMEOUT_S": str(CLIENT_TIMEOUT_S),
            "TASK_MAX_RETRIES": str(TASK_MAX_RETRIES),
        },
        concurrency=2,
    )


def _point_producer_at(url: str) -> str:
    """Send this process's Celery tasks to ``url``; returns the previous broker URL."""
    from workers.celery_app import app

    previous = str(app.conf.broker_url)
    app.conf.broker_url = url
    app._pool = None  # connection and producer pools are built lazily from broker_url
    app.amqp._producer_pool = None
    return previous


@pytest.fixture(scope="module")
def api(
    llm_worker: Any,
    fake_openai: FakeOpenAI,
    database_url: str,
    llm_redis_url: str,
    auth_headers: dict[str, str],
) -> Iterator[Any]:
    """The real FastAPI app in-process; it enqueues to the LLM Redis db the worker consumes.

    Configured with the worker's endpoint: the API refuses LLM components (422) when none is set.
    Module scope, not session: the enqueueing goes through the process-wide Celery app, whose
    broker this fixture switches to the LLM db and must switch back before another module runs
    (``tests/conftest.py``'s ``_celery_producer_restored`` fails a module that does not).
    """
    from fastapi.testclient import TestClient

    from api.main import create_app
    from workers.settings import Settings

    previous = _point_producer_at(llm_redis_url)
    try:
        settings = Settings(
            database_url=database_url,
            redis_url=llm_redis_url,
            openai_base_url=fake_openai.base_url,
            openai_api_key=OPENAI_TEST_KEY,
            # models an audit may name (test_components_switch_independently picks another one)
            allowed_llm_models=("fake-chat", "other-model"),
        )
        with TestClient(create_app(settings), headers=auth_headers) as c:
            yield c
    finally:
        _point_producer_at(previous)


@pytest.fixture(scope="session")
def db_engine(engine: Any) -> Any:
    return engine


@pytest.fixture
def clean(db_engine: Any, fake_openai: FakeOpenAI) -> FakeOpenAI:
    """Empty the LLM response cache and the OpenAI-model embedding cache; reset the fake."""
    import sqlalchemy

    with db_engine.begin() as conn:
        conn.execute(sqlalchemy.text("DELETE FROM llm_cache"))
        conn.execute(sqlalchemy.text("DELETE FROM embedding_cache WHERE model = 'text-embedding-3-small'"))
    fake_openai.reset()
    return fake_openai
