"""Shared fixtures: real Postgres + pgvector, real Redis, real Celery workers in their own processes.

Database: a fresh database ``claimaudit_test_<random>`` per test session on the server of
``CLAIMAUDIT_TEST_DATABASE_URL`` or ``DATABASE_URL`` (only the server part is used), else on the
local stack's Postgres (``cli.stack.ensure_postgres()``, started when needed). The real Alembic
migrations run once; the database is dropped at the end. ``DATABASE_URL`` then points at it, so
worker processes and the other suites' fixtures use it too.

Redis: ``CLAIMAUDIT_TEST_REDIS_URL``, else db 4 of the Redis on 127.0.0.1:6379 when it answers,
else db 4 of the local stack's Redis (``cli.stack.ensure_redis``). Each session uses its own
Celery queue (``CELERY_QUEUE``), emptied before each test that asks for ``redis_url``; the db is
never flushed, so that test sessions can share it. ``REDIS_URL`` is set at import time so that the Celery
app (configured when ``workers.celery_app`` is first imported) uses it.

Tests that commit create their own audits (random uuids) and never assume an empty table.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_REDIS_DB = 4
#: Read before any other conftest can set DATABASE_URL (only the server part is used).
_BASE_DATABASE_URL = os.environ.get("CLAIMAUDIT_TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the timings (marker ``benchmark``) unless the ``-m`` expression names them. A
    wall-clock time measures the machine as much as the code (timings go in benchmarks, not
    tests), so no other selection (``-m browser``, ``-m services``, a file path) brings one into
    a test run; ``make bench-page`` runs them (``-m benchmark``)."""
    if "benchmark" in (config.option.markexpr or ""):
        return
    timings = [item for item in items if item.get_closest_marker("benchmark")]
    if timings:
        config.hook.pytest_deselected(items=timings)
        items[:] = [item for item in items if not item.get_closest_marker("benchmark")]


def _redis_answers(url: str) -> bool:
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def _resolve_redis_url() -> tuple[str, bool]:
    """(url, answers now)."""
    explicit = os.environ.get("CLAIMAUDIT_TEST_REDIS_URL")
    if explicit:
        return explicit, _redis_answers(explicit)
    shared = f"redis://127.0.0.1:6379/{TEST_REDIS_DB}"
    if _redis_answers(shared):
        return shared, True
    port = int(os.environ.get("CLAIMAUDIT_REDIS_PORT", "6390"))
    return f"redis://127.0.0.1:{port}/{TEST_REDIS_DB}", False


_REDIS_URL, _REDIS_UP = _resolve_redis_url()
os.environ["REDIS_URL"] = _REDIS_URL
# Tenant-wide limits count per tenant id in the shared Redis ("default" is every session's tenant):
# off unless a test's settings set them (tests/security/test_admission.py).
os.environ.setdefault("TENANT_RATE_LIMIT_PER_SECOND", "0")
os.environ.setdefault("TENANT_AUDITS_PER_MINUTE", "0")
# One Celery queue per test session: workers left over from an interrupted run never take our tasks.
os.environ["CELERY_QUEUE"] = f"claimaudit-test-{uuid.uuid4().hex[:8]}"
# The backlog bounds (service.backlog) are off unless a test sets them: the session's database keeps
# the audits that earlier tests left queued without a worker, whose count and age would refuse
# later tests' audits (tests/integration/test_backlog.py sets them on a database of its own).
for _bound in ("MAX_QUEUED_AUDITS", "MAX_QUEUED_AUDITS_PER_TENANT", "MAX_BACKLOG_AGE_S"):
    os.environ.setdefault(_bound, "0")


def require_binary(name: str, package: str) -> str:
    """The path of the program ``name``; skip the test with the reason when it is absent, but fail
    in CI (``CI`` set), where ``.ci/run`` installs the Debian ``package`` that has it."""
    import shutil

    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: install Debian's {package} package (.ci/run does)")
        pytest.skip(f"{name} is absent (apt-get install -y {package}); CI installs and runs it")
    return path


# --------------------------------------------------------------------------- isolation between modules


def _celery_producer() -> tuple[Any, str] | None:
    """``(app, broker URL it was configured with)`` of this process's Celery app, or None while
    ``workers.celery_app`` is not imported (the unit tests never import it)."""
    module = sys.modules.get("workers.celery_app")
    if module is None:
        return None
    # what Celery itself resolves broker_url to: CELERY_BROKER_URL wins over the configured value
    return module.app, os.environ.get("CELERY_BROKER_URL") or module._settings.redis_url


@pytest.fixture(scope="module", autouse=True)
def _celery_producer_restored(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test module must leave this process's Celery producer (``workers.celery_app.app``,
    which the in-process API enqueues through) on the broker it was configured with.

    A fixture that points it elsewhere (``tests/llm``'s ``api``: the LLM Redis db) must undo that
    within the module; otherwise every later module's API sends its tasks to that other broker, where
    its own worker never sees them, and its tests wait for results that never come. This fails the
    module that leaked, at once and by name, and puts the producer back for the modules after it.
    """
    yield
    producer = _celery_producer()
    if producer is None:
        return
    app, configured = producer
    current = str(app.conf.broker_url)
    if current != configured:
        from kombu.utils.url import maybe_sanitize_url

        app.conf.broker_url = configured
        app._pool = None
        app.amqp._producer_pool = None
        pytest.fail(
            f"{request.node.nodeid} left the Celery producer (workers.celery_app.app) sending to "
            f"{maybe_sanitize_url(current)} instead of {maybe_sanitize_url(configured)}: a fixture "
            "switched app.conf.broker_url and did not switch it back when the module ended "
            "(is it session-scoped?)",
            pytrace=False,
        )


# --------------------------------------------------------------------------- services


@pytest.fixture(scope="session")
def redis_server_url() -> str:
    """The test Redis URL (db 4); starts the local stack's Redis when nothing answers."""
    if not _redis_answers(_REDIS_URL):
        from cli import redis_server

        port = int(_REDIS_URL.rsplit(":", 1)[1].split("/")[0])
        redis_server.start_redis(port, db=TEST_REDIS_DB)
        if not _redis_answers(_REDIS_URL):
            pytest.fail(f"Redis not reachable at {_REDIS_URL}")
    return _REDIS_URL


@pytest.fixture
def redis_url(redis_server_url: str) -> str:
    """The test Redis URL, with this session's Celery queue (every priority) emptied before the test.

    Not ``FLUSHDB``: test sessions may run side by side on the same Redis db (each with its own
    queue), and a flush would also drop their messages and kombu's queue bindings.
    """
    empty_queue(redis_server_url)
    return redis_server_url


def empty_queue(redis_server_url: str) -> None:
    """Delete every message of this session's Celery queue (``CELERY_QUEUE``), at every priority."""
    import redis

    client = redis.Redis.from_url(redis_server_url)
    queue = os.environ["CELERY_QUEUE"]
    # kombu keeps one list per message priority: "<queue>" (0) and "<queue>\x06\x16<n>" (1-9)
    client.delete(queue, *(f"{queue}\x06\x16{p}" for p in range(1, 10)))
    client.close()


def _server_url() -> str:
    from sqlalchemy.engine import make_url

    from db.engine import normalise_url

    base = _BASE_DATABASE_URL
    if not base:
        from cli import stack

        base = stack.ensure_postgres()
    return make_url(normalise_url(base)).set(database="postgres").render_as_string(hide_password=False)


def _admin(url: str, sql: str) -> None:
    import sqlalchemy

    engine = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sqlalchemy.text(sql))
    finally:
        engine.dispose()


def alembic_config(url: str) -> Any:
    """An Alembic config for ``alembic.ini`` pointed at ``url``."""
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


@pytest.fixture(scope="session")
def fresh_database() -> Iterator[Callable[[str], str]]:
    """Factory: create an empty database named ``claimaudit_test_<tag>_<random>``; dropped at session end."""
    from sqlalchemy.engine import make_url

    server = _server_url()
    made: list[str] = []

    def make(tag: str) -> str:
        name = f"claimaudit_test_{tag}_{uuid.uuid4().hex[:8]}"
        _admin(server, f'CREATE DATABASE "{name}"')
        made.append(name)
        return make_url(server).set(database=name).render_as_string(hide_password=False)

    yield make
    for name in made:
        _admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def database_url(fresh_database: Callable[[str], str]) -> str:
    """The session's migrated test database (``alembic upgrade head``); exported as DATABASE_URL."""
    from alembic import command

    url = fresh_database("main")
    command.upgrade(alembic_config(url), "head")
    os.environ["DATABASE_URL"] = url
    from service.settings import get_settings
    from workers import database

    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.get_session_factory.cache_clear()
    return url


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Any]:
    from db.engine import make_engine

    eng = make_engine(database_url)
    yield eng
    eng.dispose()


@pytest.fixture(scope="session")
def session_factory(engine: Any) -> Any:
    from db.engine import make_session_factory

    return make_session_factory(engine)


@pytest.fixture
def settings(database_url: str, redis_server_url: str) -> Any:
    from service.settings import Settings

    return Settings(database_url=database_url, redis_url=redis_server_url)


def make_key(session_factory: Any, tenant: str, scopes: tuple[str, ...], **options: Any) -> tuple[str, Any]:
    """Create an API key in the test database; return ``(key, key id)``."""
    from db import auth_repository as keys_repo

    with session_factory() as session:
        row, key = keys_repo.create_api_key(session, tenant_id=tenant, scopes=scopes, **options)
        session.commit()
        return key, row.id


@pytest.fixture(scope="session")
def api_key(session_factory: Any) -> str:
    """An admin key of tenant ``default`` with every scope and no rate limit (what the local
    stack's ``claimaudit up`` key is)."""
    from db.auth_models import SCOPES

    key, _ = make_key(
        session_factory, "default", SCOPES, name="tests", requests_per_second=0, audits_per_minute=0
    )
    return key


@pytest.fixture(scope="session")
def auth_headers(api_key: str) -> dict[str, str]:
    """``Authorization: Bearer`` with :func:`api_key`."""
    return {"Authorization": f"Bearer {api_key}"}


@pytest.fixture
def client(settings: Any, redis_url: str, auth_headers: dict[str, str]) -> Iterator[Any]:
    """FastAPI TestClient of an app on the test database and Redis (this session's queue emptied),
    sending the tests' admin key (tenant ``default``)."""
    from fastapi.testclient import TestClient

    from api.main import create_app

    with TestClient(create_app(settings), headers=auth_headers) as c:
        yield c


# --------------------------------------------------------------------------- workers


@dataclass
class WorkerProcess:
    """A ``celery -A workers.celery_app worker`` subprocess in its own process group."""

    proc: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited with {self.proc.returncode}:\n{self.output()[-3000:]}")
            if " ready." in self.output():
                return
            time.sleep(0.1)
        raise RuntimeError(f"worker not ready after {timeout} s:\n{self.output()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL the worker and its pool children (no warm shutdown, no acks)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


@pytest.fixture(scope="session")
def start_worker(
    database_url: str, redis_server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., WorkerProcess]]:
    """Factory: start a worker on the test database and Redis; every worker is stopped at session end."""
    started: list[WorkerProcess] = []

    def start(
        env: dict[str, str] | None = None,
        *,
        concurrency: int = 1,
        wait: bool = True,
        args: tuple[str, ...] = (),
    ) -> WorkerProcess:
        """``args``: extra worker options, e.g. ``("-B", "-s", path)`` for an embedded beat."""
        log = tmp_path_factory.mktemp("worker") / "worker.log"
        full_env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_server_url,
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        cmd = [
            sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-E",
            "--pool=prefork", f"--concurrency={concurrency}", "--loglevel=INFO",
            "--without-mingle", "--without-gossip", "-n", f"spine-test-{uuid.uuid4().hex[:6]}@%h", *args,
        ]  # fmt: skip
        with log.open("wb") as out:
            proc = subprocess.Popen(
                cmd, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        worker = WorkerProcess(proc, log)
        started.append(worker)
        if wait:
            worker.wait_ready()
        return worker

    yield start
    for w in started:
        w.stop()


def wait_for_status(
    session_factory: Any, audit_id: uuid.UUID, statuses: set[str], *, timeout: float = 180
) -> str:
    """Poll the audit's status in Postgres until it is one of ``statuses``; return it."""
    from db import repository as repo

    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        with session_factory() as session:
            audit = repo.get_audit(session, audit_id)
            last = None if audit is None else audit.status
        if last in statuses:
            return last
        time.sleep(0.2)
    raise AssertionError(f"audit {audit_id} still {last!r} after {timeout} s (wanted {sorted(statuses)})")
