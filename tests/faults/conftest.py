"""Fixtures of the fault suite: a private Postgres cluster and a private Redis (module scope) that
the tests stop, kill and restart; per test a fresh database, its own Celery queue, an API process
and workers with short leases and a fast sweeper (``harness.FAST_RECOVERY_ENV``)."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.faults import harness


@pytest.fixture(scope="module")
def private_pg() -> Iterator[harness.Postgres]:
    pg = harness.start_postgres()
    try:
        yield pg
    finally:
        pg.destroy()


@pytest.fixture(scope="module")
def private_redis() -> Iterator[harness.Redis]:
    r = harness.start_redis()
    try:
        yield r
    finally:
        r.kill()


@dataclass
class FaultStack:
    """One test's services: database URL, Redis, queue, API and the workers started so far."""

    pg: harness.Postgres
    redis: harness.Redis
    database_url: str
    session_factory: Any
    env: dict[str, str]
    tmp: Path
    #: ``Authorization`` of an API key of tenant ``default`` (every scope, no rate limits)
    headers: dict[str, str] = field(default_factory=dict)
    api: harness.Process | None = None
    base: str = ""
    workers: list[harness.Process] = field(default_factory=list)

    def start_worker(
        self,
        extra: dict[str, str] | None = None,
        *,
        concurrency: int = 1,
        supervised: bool = False,
        entry: str = "celery",
    ) -> harness.Process:
        """A worker; ``supervised``: under ``cli.supervise`` as the local stack runs it (restarted
        after any exit, backoff 0.5 s here); ``entry``: the module run as ``python -m`` in place
        of ``celery`` (``tests.faults.broken_reconnect_worker``)."""
        log = self.tmp / f"worker-{len(self.workers)}.log"
        command = [sys.executable, "-m", entry, *harness.worker_command(concurrency)[3:]]
        if supervised:
            command = [sys.executable, "-m", "cli.supervise", "worker", "--backoff", "0.5", "--", *command]
        w = harness.spawn(command, {**self.env, **(extra or {})}, log)
        self.workers.append(w)
        deadline = 90.0
        harness._wait("worker", lambda: w.proc.poll() is None and " ready." in w.output(), deadline)
        return w

    def start_api(self) -> str:
        self.api, self.base = harness.start_api(self.env, self.tmp / "api.log")
        return self.base

    def submit(self, bodies: list[dict[str, Any]]) -> list[uuid.UUID]:
        ids = []
        with httpx.Client(base_url=self.base, headers=self.headers, timeout=30) as c:
            for body in bodies:
                resp = c.post("/audits", json=body)
                assert resp.status_code == 202, resp.text
                ids.append(uuid.UUID(resp.json()["id"]))
        return ids

    def submit_batch(self, bodies: list[dict[str, Any]]) -> list[uuid.UUID]:
        """``POST /audits/batch``: offline audits travel in bundles (``workers.bundle_tasks``)."""
        with httpx.Client(base_url=self.base, headers=self.headers, timeout=30) as c:
            resp = c.post("/audits/batch", json={"audits": bodies})
        assert resp.status_code == 202, resp.text
        return [uuid.UUID(item["id"]) for item in resp.json()["audits"]]

    def logs(self) -> str:
        return "\n".join(w.output()[-4000:] for w in self.workers)


@pytest.fixture
def fault_stack(
    private_pg: harness.Postgres, private_redis: harness.Redis, tmp_path: Path
) -> Iterator[FaultStack]:
    from db.engine import make_engine, make_session_factory

    url = private_pg.create_database(f"faults_{uuid.uuid4().hex[:8]}")
    harness.migrate(url)
    env = {
        **os.environ,
        **harness.FAST_RECOVERY_ENV,
        "DATABASE_URL": url,
        "REDIS_URL": private_redis.url,
        "CELERY_QUEUE": f"faults-{uuid.uuid4().hex[:8]}",
    }
    engine = make_engine(url, connect_args={"connect_timeout": 3})
    stack = FaultStack(
        private_pg, private_redis, url, make_session_factory(engine), env, tmp_path, harness.api_headers(url)
    )
    try:
        yield stack
    finally:
        for w in stack.workers:
            w.stop()
        if stack.api is not None:
            stack.api.stop()
        engine.dispose()


@pytest.fixture
def clean_results(fault_stack: FaultStack) -> Callable[[list[dict[str, Any]]], dict[str, dict[str, Any]]]:
    """Factory: the clean-run fingerprints of some bodies (computed in this process)."""

    def run(bodies: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return harness.clean_run(fault_stack.session_factory, bodies)

    return run
