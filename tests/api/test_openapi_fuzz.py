"""Schemathesis over the OpenAPI spec: generated valid and invalid requests to every operation,
on the real Postgres and Redis, with a worker answering searches; no response may be a 5xx, and
every status code must be one the spec documents.

Every operation of the spec is fuzzed (audits, runs, suites, admin keys and SQL logins, claim
search, method checks, labels, health, metrics), and each must answer generated requests: an
operation whose every request was refused before its handler (401, 403, 405) fails the test. The
operation families are listed in ``FAMILIES`` so that a route dropped from the spec fails it too.

Bounded: ``MAX_EXAMPLES`` valid and as many invalid examples per operation.
Every request carries the tests' admin key (tenant ``default``, every scope, no rate limit).
Audits it submits stay queued (no worker consumes the audit queue here); the search worker
consumes only the search queue and has its model loaded before the first generated request.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from tests.faults import harness

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: Examples per operation: enough to reach every parameter's edge cases (surrogates, huge
#: integers, wrong types) in a bounded run.
MAX_EXAMPLES = 30

#: Path prefixes the spec must hold at least one operation under: every family of routes.
FAMILIES = (
    "/audits", "/audits/batch", "/audits/status", "/audits/documents", "/runs", "/suites",
    "/admin/keys", "/admin/sql-logins", "/claims/search", "/checks", "/labels", "/healthz",
    "/readyz", "/metrics",
)  # fmt: skip
#: Statuses that mean a request never reached the operation's handler.
NOT_REACHED = {401, 403, 405}


@pytest.fixture(scope="module")
def search_worker(
    database_url: str, redis_server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    from service.settings import Settings

    queue = Settings(database_url=database_url, redis_url=redis_server_url).search_queue_name
    log: Path = tmp_path_factory.mktemp("search-worker") / "worker.log"
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_server_url, "PYTHONUNBUFFERED": "1"}
    cmd = [
        sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-Q", queue,
        "--pool=solo", "--loglevel=INFO", "--without-mingle", "--without-gossip",
        "-n", f"search-{uuid.uuid4().hex[:6]}@%h",
    ]  # fmt: skip
    worker = harness.spawn(cmd, env, log)
    try:
        harness._wait(
            "search worker", lambda: worker.proc.poll() is None and " ready." in worker.output(), 90
        )
        from workers.pipeline import search_claims_remote

        search_claims_remote("warm up", 1, timeout=600)  # loads the embedding model once
        yield
    finally:
        worker.stop()


@pytest.fixture(scope="module")
def api_schema(
    database_url: str, redis_server_url: str, search_worker: None, session_factory: Any
) -> Iterator[Any]:
    from api.main import create_app
    from db import sql_logins
    from service.settings import Settings

    app = create_app(Settings(database_url=database_url, redis_url=redis_server_url))
    yield schemathesis.openapi.from_asgi("/openapi.json", app)
    with (
        session_factory() as session
    ):  # the SQL logins POST /admin/sql-logins made: roles outlive the database
        for login in sql_logins.list_sql_logins(session):
            if login.revoked_at is None:
                sql_logins.revoke_sql_login(session, login.role)
        session.commit()


def _run_operation(
    operation: Any, mode: GenerationMode, headers: dict[str, str], answered: Counter[str]
) -> None:
    """Up to MAX_EXAMPLES generated requests to one operation, sent with ``headers``; raises on the
    first failing check. ``answered[label]`` counts the answers its handler gave (status not in
    ``NOT_REACHED``)."""

    # /readyz answers 503 by design while no worker consumes the audit queue (none does here):
    # its status must still be one the spec documents
    checks = (
        [status_code_conformance]
        if operation.path == "/readyz"
        else [not_a_server_error, status_code_conformance]
    )

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    def check(case: Any) -> None:
        response = case.call(headers=headers)
        case.validate_response(response, checks=checks)
        if response.status_code not in NOT_REACHED:
            answered[operation.label] += 1

    try:
        check()
    except Unsatisfiable:
        # no invalid request exists for an operation without parameters or body (/healthz, /readyz)
        if mode is not GenerationMode.NEGATIVE:
            raise


def test_no_server_errors(api_schema: Any, auth_headers: dict[str, str]) -> None:
    operations = [result.ok() for result in api_schema.get_all_operations()]
    paths = {op.path for op in operations}
    missing = [f for f in FAMILIES if not any(p == f or p.startswith(f + "/") for p in paths)]
    assert not missing, (missing, sorted(paths))
    answered: Counter[str] = Counter()
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _run_operation(operation, mode, auth_headers, answered)
    unreached = [op.label for op in operations if answered[op.label] == 0]
    assert not unreached, (unreached, answered)


def test_runs_get_typed_items_that_reach_the_store(api_schema: Any, auth_headers: dict[str, str]) -> None:
    # POST /runs documents its items as run items (validated one by one in the route), so the
    # generated requests carry valid items that are stored, not only objects of any shape
    operation = next(r.ok() for r in api_schema.get_all_operations() if r.ok().label == "POST /runs")
    stored: list[str] = []

    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
    @settings(
        max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    def check(case: Any) -> None:
        response = case.call(headers=auth_headers)
        case.validate_response(response, checks=[not_a_server_error, status_code_conformance])
        if response.status_code == 202:
            stored.extend(str(i["audit_id"]) for i in response.json()["items"] if i.get("audit_id"))

    check()
    assert stored, "no generated run item was stored"
