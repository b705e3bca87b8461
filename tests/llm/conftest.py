"""Fixtures of the LLM-path tests: real Postgres + pgvector, real Redis, a real Celery worker
in its own process, the real API in-process, and a fake OpenAI-compatible endpoint (the only
fake: a local HTTP server that the real ``openai`` client talks to).

Database ``claimaudit_llm_test`` (dropped and migrated once per session), Redis db 9 unless
``DATABASE_URL`` / ``REDIS_URL`` are set already. The worker runs with ``LLM_TIMEOUT_S=1`` and
``TASK_MAX_RETRIES=2`` so that timeouts and exhausted retries take seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.openai_server import FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]
ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:54329/postgres"
DB_NAME = "claimaudit_llm_test"
os.environ.setdefault("DATABASE_URL", f"postgresql+psycopg://postgres@127.0.0.1:54329/{DB_NAME}")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/9")

#: Seconds the client waits for the endpoint in the worker (the fake sleeps 3 s on "timeout").
CLIENT_TIMEOUT_S = 1.0
#: Celery retries of a stage (so an always-failing endpoint is asked 1 + 2 = 3 times).
TASK_MAX_RETRIES = 2


def _services_up() -> str | None:
    import redis
    import sqlalchemy

    try:
        engine = sqlalchemy.create_engine(ADMIN_URL)
        with engine.connect():
            pass
        engine.dispose()
        redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=2).ping()
    except Exception as exc:  # pragma: no cover - environment without services
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.fixture(scope="session")
def database_url() -> str:
    """A freshly migrated database (Alembic ``upgrade head``)."""
    problem = _services_up()
    if problem:
        pytest.skip(f"Postgres/Redis not reachable: {problem}")
    import sqlalchemy
    from alembic import command
    from alembic.config import Config

    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[-1]
    if name == DB_NAME:  # ours: start from scratch
        admin = sqlalchemy.create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", url)
    command.upgrade(cfg, "head")
    return url


@pytest.fixture(scope="session")
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture(scope="session")
def llm_worker(
    database_url: str, fake_openai: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """A Celery worker process pointed at the fake endpoint; yields its log file."""
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": os.environ["REDIS_URL"],
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_API_KEY": "test-key",
        "LLM_MODEL": "fake-chat",
        "LLM_TIMEOUT_S": str(CLIENT_TIMEOUT_S),
        "TASK_MAX_RETRIES": str(TASK_MAX_RETRIES),
        "PYTHONUNBUFFERED": "1",
    }
    cmd = [
        sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-E",
        "--concurrency=2", "--loglevel=INFO", "-n", f"llm-test-{uuid.uuid4().hex[:6]}@%h",
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"worker exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        if " ready." in log.read_text(errors="replace"):
            break
        time.sleep(0.2)
    else:
        proc.terminate()
        pytest.fail(f"worker not ready after 60 s:\n{log.read_text()[-3000:]}")
    yield log
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def api(llm_worker: Path, database_url: str) -> Iterator[Any]:
    """The real FastAPI app in-process (it enqueues to the same Redis the worker consumes)."""
    from fastapi.testclient import TestClient

    from api.main import create_app
    from workers.settings import Settings

    with TestClient(create_app(Settings(database_url=database_url))) as client:
        yield client


@pytest.fixture(scope="session")
def db_engine(database_url: str) -> Iterator[Any]:
    import sqlalchemy

    engine = sqlalchemy.create_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def clean(db_engine: Any, fake_openai: FakeOpenAI) -> FakeOpenAI:
    """Empty audits, caches and the ledger; reset the fake's counters and faults."""
    import sqlalchemy

    with db_engine.begin() as conn:
        conn.execute(sqlalchemy.text("TRUNCATE audits, llm_cache, llm_usage, embedding_cache CASCADE"))
    fake_openai.reset()
    return fake_openai
