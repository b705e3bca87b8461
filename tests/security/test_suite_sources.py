"""Suites cannot be used to read the server: SQL as another tenant or the database superuser,
server files, internal URLs, or webhooks that probe internal ports (``workers.source_policy``).

Each attack of the review is tried twice: through ``PUT /suites/{name}`` (422 with the reason)
and as a suite already stored (inserted by the repository, as one from before the checks), which
``runs.start`` / ``webhooks.deliver``, called in this process, must refuse with the reason.
Row-level security does not apply to superusers (the local stack connects as one), so the SQL
tenant-leak test runs the source as a plain role it creates, like test_row_level_security.
"""

from __future__ import annotations

import http.server
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy

from db import repository as repo
from db import runs as runs_repo
from db import suites as suites_repo
from db.engine import session_scope
from tests.conftest import make_key
from tests.security.conftest import Tenant, message, new_tenant

pytestmark = pytest.mark.services

ROLE = "claimaudit_suite_reader"
#: every document the session can see, as run items (a document's text is the response)
LEAK_SQL = "SELECT d.id AS id, d.text AS response, d.text AS references FROM documents d"


class Internal(http.server.BaseHTTPRequestHandler):
    """An internal service on loopback: answers every request with a secret body, counts hits."""

    hits: list[str] = []
    hosts: list[str] = []

    def _answer(self) -> None:
        Internal.hits.append(self.path)
        Internal.hosts.append(self.headers.get("Host", ""))
        body = b'{"id": "x", "response": "internal-secret", "references": ["internal-secret"]}\n'
        self.send_response(500 if "fail" in self.path else 200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def internal() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Internal)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture
def app(settings: Any, redis_url: str) -> Iterator[Any]:
    """``app(**settings)``: a TestClient of the app with those settings over the tests' defaults."""
    from fastapi.testclient import TestClient

    from api.main import create_app

    clients: list[Any] = []

    def make(**overrides: Any) -> Any:
        client = TestClient(create_app(settings.model_copy(update=overrides)))
        clients.append(client.__enter__())
        return client

    yield make
    for c in clients:
        c.__exit__(None, None, None)


@pytest.fixture
def worker_env(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> Iterator[Any]:
    """``worker_env(**env)``: the worker's settings (``get_settings``) read with these variables."""
    from workers.settings import get_settings

    def set_env(**env: str) -> None:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        get_settings.cache_clear()

    yield set_env
    monkeypatch.undo()
    get_settings.cache_clear()


def _put(client: Any, tenant: Tenant | dict[str, str], body: dict[str, Any]) -> Any:
    headers = tenant.headers if isinstance(tenant, Tenant) else tenant
    return client.put(f"/suites/s-{uuid.uuid4().hex[:6]}", json=body, headers=headers)


# --------------------------------------------------------------------------- at definition (PUT)


def test_sql_sources_are_refused_by_default_and_for_keys_without_admin(
    app: Any, session_factory: Any, tenant_a: Tenant
) -> None:
    body = {"source": {"sql": "SELECT pg_read_file('/etc/hostname') AS id"}}
    resp = _put(app(), tenant_a, body)  # default settings, admin key
    assert resp.status_code == 422 and "SUITE_SQL_SOURCES" in message(resp), resp.text
    writer, _ = make_key(session_factory, tenant_a.id, ("audits:write", "audits:read"))
    enabled = app(suite_sql_sources=True)
    resp = _put(enabled, {"Authorization": f"Bearer {writer}"}, body)
    assert resp.status_code == 422 and "admin scope" in message(resp), resp.text
    assert _put(enabled, tenant_a, body).status_code == 201  # on, and an admin key


def test_file_sources_only_under_the_source_dir(app: Any, tenant_a: Tenant, tmp_path: Path) -> None:
    resp = _put(app(), tenant_a, {"source": {"jsonl": "/etc/passwd"}})
    assert resp.status_code == 422 and "SUITE_SOURCE_DIR" in message(resp), resp.text
    inside = tmp_path / "sources"
    inside.mkdir()
    (inside / "ok.jsonl").write_text("")
    (inside / "link.jsonl").symlink_to("/etc/passwd")
    client = app(suite_source_dir=str(inside))
    for escape in ("/etc/passwd", "../../../../../../etc/passwd", "link.jsonl", str(inside / "link.jsonl")):
        resp = _put(client, tenant_a, {"source": {"jsonl": escape}})
        assert resp.status_code == 422 and "not a file under" in message(resp), (escape, resp.text)
    assert _put(client, tenant_a, {"source": {"jsonl": "ok.jsonl"}}).status_code == 201
    assert _put(client, tenant_a, {"source": {"jsonl": str(inside / "ok.jsonl")}}).status_code == 201


def test_url_sources_only_from_listed_hosts(app: Any, tenant_a: Tenant, internal: str) -> None:
    before = len(Internal.hits)
    resp = _put(app(), tenant_a, {"source": {"jsonl": f"{internal}/admin"}})
    assert resp.status_code == 422 and "SUITE_SOURCE_HOSTS" in message(resp), resp.text
    listed = app(suite_source_hosts=("data.example.com",))
    resp = _put(listed, tenant_a, {"source": {"jsonl": f"{internal}/admin"}})
    assert resp.status_code == 422, resp.text
    assert (
        _put(listed, tenant_a, {"source": {"jsonl": "https://data.example.com/x.jsonl"}}).status_code == 201
    )
    assert len(Internal.hits) == before  # nothing was fetched at definition


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:5600/x",
        "http://localhost:8000/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
        "http://10.1.2.3/",
        "http://192.168.0.1/",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://224.0.0.1/",
        "http://100.64.0.1/",
    ],
)
def test_webhooks_to_internal_addresses_are_refused(app: Any, tenant_a: Tenant, url: str) -> None:
    resp = _put(app(), tenant_a, {"webhook": {"url": url}})
    assert resp.status_code == 422 and "WEBHOOK_ALLOW_PRIVATE" in message(resp), resp.text


def test_webhooks_to_public_or_allowed_private_addresses_are_accepted(app: Any, tenant_a: Tenant) -> None:
    assert _put(app(), tenant_a, {"webhook": {"url": "https://93.184.215.14/hook"}}).status_code == 201
    allowed = app(webhook_allow_private=True)
    assert _put(allowed, tenant_a, {"webhook": {"url": "http://127.0.0.1:9/"}}).status_code == 201


# --------------------------------------------------------------------------- at run time


def _stored_run(session_factory: Any, tenant: str, kind: str, source: str) -> uuid.UUID:
    """A suite stored without the API's checks (as one from before them) and a run of it."""
    name = f"stored-{uuid.uuid4().hex[:8]}"
    with session_scope(session_factory) as s:
        spec = suites_repo.SuiteSpec(name=name, source_kind=kind, source=source)
        suites_repo.upsert_suite(s, spec, tenant_id=tenant)
        run, _ = runs_repo.get_or_create_run(
            s, suite=name, label="x", source=f"schedule:{kind}", tenant_id=tenant
        )
        return run.id


def _started(session_factory: Any, run_id: uuid.UUID) -> tuple[str | None, list[str]]:
    """Start the run here (``runs.start``); its error and the item ids it stored."""
    from workers.run_tasks import start

    start(str(run_id))
    with session_scope(session_factory) as s:
        run = runs_repo.get_run_any_tenant(s, run_id)
        assert run is not None and run.sealed_at is not None
        items = s.execute(
            sqlalchemy.text("SELECT item_id FROM run_items WHERE run_id = :r"), {"r": run_id}
        ).scalars()
        return run.error, sorted(items)


def test_a_stored_file_source_outside_the_source_dir_fails_its_run(
    session_factory: Any, worker_env: Any, tmp_path: Path
) -> None:
    worker_env(SUITE_SOURCE_DIR=str(tmp_path))
    error, items = _started(session_factory, _stored_run(session_factory, "default", "jsonl", "/etc/passwd"))
    assert items == [] and error is not None
    assert "not a file under" in error and "root:" not in error


def test_a_stored_url_source_to_an_internal_service_fails_without_a_request(
    session_factory: Any, worker_env: Any, internal: str
) -> None:
    worker_env()
    before = len(Internal.hits)
    error, items = _started(
        session_factory, _stored_run(session_factory, "default", "jsonl", f"{internal}/x")
    )
    assert items == [] and error is not None and "SUITE_SOURCE_HOSTS" in error
    assert len(Internal.hits) == before
    # a listed host that fails: the status only, never the service's body
    worker_env(SUITE_SOURCE_HOSTS="127.0.0.1")
    error, _ = _started(session_factory, _stored_run(session_factory, "default", "jsonl", f"{internal}/fail"))
    assert error is not None and "HTTP 500" in error and "internal-secret" not in error


def test_a_stored_sql_source_fails_while_sql_sources_are_off(session_factory: Any, worker_env: Any) -> None:
    worker_env()
    query = "SELECT pg_read_file('/etc/hostname') AS id, 'r' AS response, 'x' AS references"
    error, items = _started(session_factory, _stored_run(session_factory, "default", "sql", query))
    assert items == [] and error is not None and "SUITE_SQL_SOURCES" in error


@pytest.fixture(scope="module")
def reader_role(engine: Any) -> str:
    """A plain role that may read every table (RLS decides which rows), as SUITE_SQL_ROLE."""
    with engine.begin() as conn:
        if not conn.execute(
            sqlalchemy.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": ROLE}
        ).first():
            conn.execute(sqlalchemy.text(f"CREATE ROLE {ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS"))
        conn.execute(sqlalchemy.text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {ROLE}"))
    return ROLE


def test_a_sql_source_sees_only_its_own_tenants_documents(
    session_factory: Any, worker_env: Any, reader_role: str
) -> None:
    a, b = new_tenant(session_factory, "leak-a"), new_tenant(session_factory, "leak-b")
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s,
            repo.NewAudit(
                response="A's answer", references=["A's secret"], request_sha256="1" * 64, tenant_id=a.id
            ),
        )
        a_docs = sorted(str(d.id) for d in repo.get_documents(s, audit.id))
    assert len(a_docs) == 2  # the response and one reference (create_audit stores both)
    # the server as deployed locally: a superuser connection and no SUITE_SQL_ROLE: refused
    worker_env(SUITE_SQL_SOURCES="true")
    error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", LEAK_SQL))
    assert items == [] and error is not None and "bypasses row-level security" in error
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_ROLE=reader_role)
    error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", LEAK_SQL))
    assert (error, items) == (None, [])  # B's suite: none of A's documents
    error, items = _started(session_factory, _stored_run(session_factory, a.id, "sql", LEAK_SQL))
    assert (error, items) == (None, a_docs)  # the same query of A's suite reads A's two
    # the database superuser's powers are gone too, and the tenant cannot be re-bound mid-query
    for query in (
        "SELECT pg_read_file('/etc/hostname') AS id, 'r' AS response, 'x' AS references",
        f"SELECT * FROM ({LEAK_SQL}) q WHERE set_config('claimaudit.tenant_id', '{a.id}', true) > ''",
        "SELECT 1 AS id, 'r' AS response, 'x' AS references) q; RESET ROLE; SELECT * FROM (SELECT 1",
    ):
        error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", query))
        assert items == [] and error is not None, query


def test_a_stored_webhook_to_loopback_is_not_delivered(
    session_factory: Any, worker_env: Any, internal: str
) -> None:
    from workers.run_tasks import deliver

    worker_env()
    with session_scope(session_factory) as s:
        row = suites_repo.create_delivery(
            s, run_id=None, event="run.finished", url=f"{internal}/hook", payload={}
        )
        delivery_id = row.id
    before = len(Internal.hits)
    assert deliver(str(delivery_id)) == "failed"  # at once, no retry
    assert len(Internal.hits) == before
    with session_scope(session_factory) as s:
        row = suites_repo.get_delivery(s, delivery_id)
        assert row is not None and row.status == "failed" and "WEBHOOK_ALLOW_PRIVATE" in str(row.last_error)


def test_a_webhook_error_names_the_status_not_the_receivers_body(internal: str) -> None:
    from workers import webhooks

    attempt = webhooks.send(f"{internal}/fail", {"a": 1}, event="run.finished", secret=None)
    assert attempt.status_code == 500 and attempt.error == "HTTP 500"


def test_a_delivery_goes_to_the_address_checked_not_a_second_resolution(internal: str) -> None:
    """DNS rebinding: ``send`` connects to the address ``check_webhook_url`` returned, with the
    URL's host in ``Host``; ``receiver.invalid`` cannot resolve, so the request reached the local
    server only through the pinned address."""
    from workers import webhooks

    port = internal.rsplit(":", 1)[1]
    attempt = webhooks.send(
        f"http://receiver.invalid:{port}/hook",
        {"a": 1},
        event="run.finished",
        secret=None,
        address="127.0.0.1",
    )
    assert attempt.delivered, attempt
    assert Internal.hosts[-1] == f"receiver.invalid:{port}"
