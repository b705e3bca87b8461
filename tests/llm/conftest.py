"""Fixtures of the LLM-path tests: the session's migrated Postgres (``tests/conftest.py``), real
Redis, real Celery workers in their own processes, the real API in-process, a real local LLM
server (llama-cpp-python with SmolLM2-135M-Instruct: ``local_llm``, ``local_worker``,
``local_api``) and a fake OpenAI-compatible endpoint for injected faults (``fake_openai``, a local
HTTP server the real ``openai`` client talks to).

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

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.fakes.openai_server import FakeOpenAI
from tests.llm.local_server import MODEL_ALIAS, LocalLLMServer, gguf_path

#: Seconds the client waits for the endpoint in the worker (the fake sleeps 3 s on "timeout").
CLIENT_TIMEOUT_S = 1.0
#: Celery retries of a stage.
TASK_MAX_RETRIES = 2
#: Runs of a stage retried after a transient endpoint error (``LLM_RETRIES``, the default): an
#: always-failing endpoint is asked 1 + 2 = 3 times before ``llm_on_error`` decides.
LLM_RETRIES = 2
LLM_REDIS_DB = 9
#: Redis db of the worker that talks to the local LLM server.
LOCAL_LLM_REDIS_DB = 10
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


@contextlib.contextmanager
def _api_client(
    database_url: str, redis_url: str, base_url: str, models: tuple[str, ...], headers: dict[str, str]
) -> Iterator[Any]:
    """The real FastAPI app in-process, enqueueing to ``redis_url``, with the endpoint ``base_url``
    (the API refuses LLM components, 422, when none is set) and ``models`` allowed."""
    from fastapi.testclient import TestClient

    from api.main import create_app
    from service.settings import Settings

    previous = _point_producer_at(redis_url)
    try:
        settings = Settings(
            database_url=database_url,
            redis_url=redis_url,
            openai_base_url=base_url,
            openai_api_key=OPENAI_TEST_KEY,
            allowed_llm_models=models,
        )
        with TestClient(create_app(settings), headers=headers) as c:
            yield c
    finally:
        _point_producer_at(previous)


@pytest.fixture(scope="module")
def api(
    llm_worker: Any,
    fake_openai: FakeOpenAI,
    database_url: str,
    llm_redis_url: str,
    auth_headers: dict[str, str],
) -> Iterator[Any]:
    """The real FastAPI app in-process; it enqueues to the LLM Redis db the worker consumes.

    Module scope, not session: the enqueueing goes through the process-wide Celery app, whose
    broker this fixture switches to the LLM db and must switch back before another module runs
    (``tests/conftest.py``'s ``_celery_producer_restored`` fails a module that does not).
    """
    # models an audit may name (test_components_switch_independently picks another one)
    models = ("fake-chat", "other-model")
    with _api_client(database_url, llm_redis_url, fake_openai.base_url, models, auth_headers) as c:
        yield c


# --------------------------------------------------------------------------- the local LLM server


@pytest.fixture(scope="session")
def local_llm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalLLMServer]:
    """llama-cpp-python's server with SmolLM2-135M-Instruct (``tests/llm/local_server.py``).

    Where it cannot start (the ``llm-test`` extra not installed, the model file wrong, the server
    failing) the tests that need it are skipped with the reason, except under ``CI``, where they
    fail: ``make test`` installs the extra, so CI must run them.
    """
    try:
        server = LocalLLMServer(gguf_path(), tmp_path_factory.mktemp("llm-server") / "server.log").start()
    except (RuntimeError, OSError) as exc:
        if os.environ.get("CI"):
            pytest.fail(f"the local LLM server could not start, and CI must run these tests: {exc}")
        pytest.skip(f"the local LLM server could not start (make test installs it): {exc}")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def local_redis_url(redis_server_url: str) -> str:
    """Redis db 10 on the test Redis server: the queue of the local-server worker."""
    return redis_server_url.rsplit("/", 1)[0] + f"/{LOCAL_LLM_REDIS_DB}"


@pytest.fixture(scope="session")
def local_worker(start_worker: Callable[..., Any], local_llm: LocalLLMServer, local_redis_url: str) -> Any:
    """A Celery worker pointed at the local LLM server, with every other setting at its default."""
    env = {
        "REDIS_URL": local_redis_url,
        "OPENAI_BASE_URL": local_llm.base_url,
        "OPENAI_API_KEY": OPENAI_TEST_KEY,
        "LLM_MODEL": MODEL_ALIAS,
    }
    return start_worker(env, concurrency=1)


@pytest.fixture(scope="module")
def local_api(
    local_worker: Any,
    local_llm: LocalLLMServer,
    database_url: str,
    local_redis_url: str,
    auth_headers: dict[str, str],
) -> Iterator[Any]:
    """The API enqueueing to the local-server worker (module scope, as ``api``)."""
    with _api_client(database_url, local_redis_url, local_llm.base_url, (MODEL_ALIAS,), auth_headers) as c:
        yield c


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
