"""Suites cannot be used to read the server: SQL as another tenant or the database superuser,
server files, internal URLs, or webhooks that probe internal ports (``service.source_policy``).

Each attack is tried twice: through ``PUT /suites/{name}`` (422 with the reason)
and as a suite already stored (inserted by the repository, as one from before the checks), which
``runs.start`` / ``webhooks.deliver``, called in this process, must refuse with the reason.
Row-level security does not apply to superusers (the local stack connects as one), so the SQL
tenant-leak test runs the source as a plain role it creates, like test_row_level_security.
"""

from __future__ import annotations

import http.server
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy

from db import repository as repo
from db import runs as runs_repo
from db import suites as suites_repo
from db.engine import session_scope
from db.tenancy import SERVICE_ROLE
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
    auths: list[str] = []

    def _answer(self) -> None:
        Internal.hits.append(self.path)
        Internal.hosts.append(self.headers.get("Host", ""))
        Internal.auths.append(self.headers.get("Authorization", ""))
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
    yield from _serve(Internal)


def _serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """A local HTTP server with ``handler`` in a thread: yields its URL, shuts it down after."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
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
    from service.settings import get_settings

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
    enabled = app(suite_sql_sources=True, suite_sql_tenants=(tenant_a.id,))
    resp = _put(enabled, {"Authorization": f"Bearer {writer}"}, body)
    assert resp.status_code == 422 and "admin scope" in message(resp), resp.text
    assert _put(enabled, tenant_a, body).status_code == 201  # on, a listed tenant, an admin key


def test_sql_sources_only_for_the_tenants_the_operator_lists(
    app: Any, tenant_a: Tenant, tenant_b: Tenant
) -> None:
    """SQL sources are no sandbox (a query can re-bind its tenant), so they are per tenant: an admin
    of a tenant not in SUITE_SQL_TENANTS is refused even with SUITE_SQL_SOURCES=true."""
    body = {"source": {"sql": "SELECT 1 AS id, 'r' AS response, 'x' AS references"}}
    client = app(suite_sql_sources=True, suite_sql_tenants=(tenant_a.id,))
    resp = _put(client, tenant_b, body)
    assert resp.status_code == 422 and "SUITE_SQL_TENANTS" in message(resp), resp.text
    assert _put(client, tenant_a, body).status_code == 201


def test_file_sources_only_under_the_source_dir(app: Any, tenant_a: Tenant, tmp_path: Path) -> None:
    resp = _put(app(), tenant_a, {"source": {"jsonl": "/etc/passwd"}})
    assert resp.status_code == 422 and "SUITE_SOURCE_DIR" in message(resp), resp.text
    inside = tmp_path / "sources" / tenant_a.id
    inside.mkdir(parents=True)
    (inside / "ok.jsonl").write_text("")
    (inside / "link.jsonl").symlink_to("/etc/passwd")
    client = app(suite_source_dir=str(tmp_path / "sources"))
    for escape in ("/etc/passwd", "../../../../../../etc/passwd", "link.jsonl", str(inside / "link.jsonl")):
        resp = _put(client, tenant_a, {"source": {"jsonl": escape}})
        assert resp.status_code == 422 and "not a file under" in message(resp), (escape, resp.text)
    assert _put(client, tenant_a, {"source": {"jsonl": "ok.jsonl"}}).status_code == 201
    assert _put(client, tenant_a, {"source": {"jsonl": str(inside / "ok.jsonl")}}).status_code == 201


def test_a_tenant_cannot_name_another_tenants_source_file(
    app: Any, session_factory: Any, worker_env: Any, tenant_a: Tenant, tenant_b: Tenant, tmp_path: Path
) -> None:
    """Each tenant's file sources lie in SUITE_SOURCE_DIR/<tenant id>/: B cannot name A's file, by
    a relative, absolute or linked path, at definition or as a stored suite."""
    root = tmp_path / "sources"
    (root / tenant_a.id).mkdir(parents=True)
    (root / tenant_b.id).mkdir()
    secret = root / tenant_a.id / "golden.jsonl"
    secret.write_text('{"id": "a1", "response": "A-secret", "references": ["A-secret"]}\n')
    (root / tenant_b.id / "link.jsonl").symlink_to(secret)
    (root / "shared.jsonl").write_text(secret.read_text())  # in the root, no tenant's folder
    client = app(suite_source_dir=str(root))
    for name in (f"../{tenant_a.id}/golden.jsonl", str(secret), "link.jsonl", "../shared.jsonl", "."):
        resp = _put(client, tenant_b, {"source": {"jsonl": name}})
        assert resp.status_code == 422 and "not a file under" in message(resp), (name, resp.text)
    assert _put(client, tenant_a, {"source": {"jsonl": "golden.jsonl"}}).status_code == 201
    worker_env(SUITE_SOURCE_DIR=str(root))
    error, items = _started(session_factory, _stored_run(session_factory, tenant_b.id, "jsonl", str(secret)))
    assert items == [] and error is not None and "not a file under" in error and "A-secret" not in error
    error, items = _started(
        session_factory, _stored_run(session_factory, tenant_a.id, "jsonl", "golden.jsonl")
    )
    assert (error, items) == (None, ["a1"])  # A's own file, read as A's


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
        # IPv6 forms that carry an internal IPv4 address: NAT64 (both prefixes), 6to4, Teredo,
        # IPv4-compatible
        "http://[64:ff9b::7f00:1]/",
        "http://[64:ff9b:1::a00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[2002:a9fe:a9fe::]/",
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
        "http://[::127.0.0.1]/",
        "http://[::a00:1]/",
    ],
)
def test_webhooks_to_internal_addresses_are_refused(app: Any, tenant_a: Tenant, url: str) -> None:
    resp = _put(app(), tenant_a, {"webhook": {"url": url}})
    assert resp.status_code == 422 and "WEBHOOK_ALLOW_PRIVATE" in message(resp), resp.text


def test_an_internal_name_and_an_unknown_name_get_the_same_answer() -> None:
    # "does not resolve" vs "resolves to a private address" would tell a tenant which internal
    # names exist in the server's DNS; both are one message (only the host differs)
    from service import source_policy
    from service.settings import Settings

    answers = []
    for host in ("localhost", "no-such-host.invalid"):
        with pytest.raises(source_policy.SourceRefused) as refused:
            source_policy.check_webhook_url(f"http://{host}/hook", Settings())
        answers.append(str(refused.value).replace(repr(host), "HOST"))
    assert answers[0] == answers[1]


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


def _reader(engine: Any, role: str, *, service: bool) -> str:
    """A plain role that may read every table (RLS decides which rows), a member of
    ``claimaudit_service`` when ``service`` (else it sees no row of them)."""
    with engine.begin() as conn:
        if not conn.execute(
            sqlalchemy.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}
        ).first():
            conn.execute(sqlalchemy.text(f"CREATE ROLE {role} NOLOGIN NOSUPERUSER NOBYPASSRLS"))
        conn.execute(sqlalchemy.text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"))
        if service:
            conn.execute(sqlalchemy.text(f"GRANT {SERVICE_ROLE} TO {role}"))
    return role


@pytest.fixture(scope="module")
def reader_role(engine: Any) -> str:
    """SUITE_SQL_ROLE: a plain member of ``claimaudit_service`` that may read every table."""
    return _reader(engine, ROLE, service=True)


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
    both = f"{a.id},{b.id}"
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=both)
    error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", LEAK_SQL))
    assert items == [] and error is not None and "bypasses row-level security" in error
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=both, SUITE_SQL_ROLE=reader_role)
    error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", LEAK_SQL))
    assert (error, items) == (None, [])  # B's suite: none of A's documents
    error, items = _started(session_factory, _stored_run(session_factory, a.id, "sql", LEAK_SQL))
    assert (error, items) == (None, a_docs)  # the same query of A's suite reads A's two
    # the database superuser's powers are gone too
    for query in (
        "SELECT pg_read_file('/etc/hostname') AS id, 'r' AS response, 'x' AS references",
        "SELECT 1 AS id, 'r' AS response, 'x' AS references) q; RESET ROLE; SELECT * FROM (SELECT 1",
    ):
        error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", query))
        assert items == [] and error is not None, query
    # re-binding the tenant mid-query reads none of A's rows: the policies read the tenant once per
    # statement (an InitPlan), before any row is filtered
    query = f"SELECT * FROM ({LEAK_SQL}) q WHERE set_config('claimaudit.tenant_id', '{a.id}', true) > ''"
    error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", query))
    assert items == [], query


def test_a_sql_source_role_outside_the_service_group_reads_no_tenant_rows(
    engine: Any, session_factory: Any, worker_env: Any
) -> None:
    """Row-level security fails closed for a role that is neither a member of
    ``claimaudit_service`` nor bound to a tenant: as SUITE_SQL_ROLE it reads none of the suite
    tenant's own audit rows (it may still read tables of its own, such as recorded answers)."""
    outsider = _reader(engine, "claimaudit_suite_outsider", service=False)
    a = new_tenant(session_factory, "outsider")
    with session_scope(session_factory) as s:
        repo.create_audit(
            s,
            repo.NewAudit(response="A's answer", references=["A's"], request_sha256="2" * 64, tenant_id=a.id),
        )
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=a.id, SUITE_SQL_ROLE=outsider)
    error, items = _started(session_factory, _stored_run(session_factory, a.id, "sql", LEAK_SQL))
    assert (error, items) == (None, [])
    query = "SELECT 1 AS id, 'r' AS response, 'x' AS references"  # no table: rows as usual
    assert _started(session_factory, _stored_run(session_factory, a.id, "sql", query)) == (None, ["1"])


#: a session-level setting made in a form no pattern of the query caught (``set_config`` spelled as
#: a Unicode-escaped identifier): it must not outlive the source's connection
POISON_SQL = (
    "SELECT 1 AS id, 'r' AS response, 'x' AS references, "
    "U&\"set\\005fconfig\"('claimaudit.poison', 'yes', false) AS x"
)


def test_a_stored_sql_source_of_a_tenant_not_listed_fails_its_run(
    session_factory: Any, worker_env: Any, reader_role: str
) -> None:
    """Checked again at run time, for the suite's tenant: a suite stored while its tenant was
    listed (or before the list) fails once it is not, whoever defined it."""
    a, b = new_tenant(session_factory, "sql-a"), new_tenant(session_factory, "sql-b")
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=a.id, SUITE_SQL_ROLE=reader_role)
    query = "SELECT 1 AS id, 'r' AS response, 'x' AS references"
    error, items = _started(session_factory, _stored_run(session_factory, b.id, "sql", query))
    assert items == [] and error is not None and "SUITE_SQL_TENANTS" in error
    error, items = _started(session_factory, _stored_run(session_factory, a.id, "sql", query))
    assert (error, items) == (None, ["1"])


def test_a_sql_sources_settings_do_not_outlive_its_connection(
    session_factory: Any, worker_env: Any, reader_role: str
) -> None:
    """The query runs on a connection of its own, closed afterwards: no connection of the worker's
    pool carries the session-level setting it made (each one checked in is checked)."""
    from workers.database import get_engine

    a = new_tenant(session_factory, "poison")
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=a.id, SUITE_SQL_ROLE=reader_role)
    error, items = _started(session_factory, _stored_run(session_factory, a.id, "sql", POISON_SQL))
    assert (error, items) == (None, ["1"])  # it ran (the setting was made)
    engine = get_engine()
    conns = [engine.connect() for _ in range(max(1, engine.pool.checkedin()))]
    try:
        seen = [
            c.execute(sqlalchemy.text("SELECT current_setting('claimaudit.poison', true)")).scalar()
            for c in conns
        ]
    finally:
        for c in conns:
            c.close()
    assert "yes" not in seen, seen


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


@pytest.mark.parametrize("userinfo", ["", "user:pw@"])
def test_a_delivery_goes_to_the_address_checked_not_a_second_resolution(internal: str, userinfo: str) -> None:
    """DNS rebinding: ``send`` connects to the address ``check_webhook_url`` returned, with the
    URL's host in ``Host``; ``receiver.invalid`` cannot resolve, so the request reached the local
    server only through the pinned address. The URL's ``user:pw@`` stays (Basic auth goes out)."""
    import base64

    from workers import webhooks

    port = internal.rsplit(":", 1)[1]
    attempt = webhooks.send(
        f"http://{userinfo}receiver.invalid:{port}/hook",
        {"a": 1},
        event="run.finished",
        secret=None,
        address="127.0.0.1",
    )
    assert attempt.delivered, attempt
    assert Internal.hosts[-1] == f"receiver.invalid:{port}"
    basic = "Basic " + base64.b64encode(userinfo.rstrip("@").encode()).decode() if userinfo else ""
    assert Internal.auths[-1] == basic


class Dripping(http.server.BaseHTTPRequestHandler):
    """A receiver that holds a worker: ``/drip-head`` sends its status line a byte every 0.2 s,
    ``/drip`` its body a byte every 0.2 s (each within any per-read timeout), 60 s in all;
    ``/endless`` sends up to ``ENDLESS`` bytes as fast as it can and counts what it got out."""

    ENDLESS = 256 * 1024 * 1024
    written: list[int] = []

    def _drip(self, data: bytes) -> None:
        for i in range(len(data)):
            self.wfile.write(data[i : i + 1])
            self.wfile.flush()
            time.sleep(0.2)

    def _answer(self) -> None:
        if self.command == "POST":
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            if self.path.startswith("/drip-head"):
                self._drip(b"HTTP/1.1 200 OK\r\n" + b"X-Pad: " + b"a" * 300 + b"\r\n\r\n")
            elif self.path.startswith("/drip"):
                self.send_response(200)
                self.send_header("Content-Length", "300")
                self.end_headers()
                self._drip(b"{" * 300)
            else:
                self.send_response(200)
                self.end_headers()
                sent, block = 0, b"x" * 65536
                try:
                    while sent < self.ENDLESS:
                        self.wfile.write(block)
                        sent += len(block)
                finally:
                    Dripping.written.append(sent)
        except (BrokenPipeError, ConnectionResetError):
            pass

    do_GET = do_POST = _answer

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def dripping() -> Iterator[str]:
    yield from _serve(Dripping)


@pytest.mark.parametrize("path", ["/drip-head", "/drip"])
def test_a_dripping_receiver_does_not_hold_the_delivery_past_its_deadline(dripping: str, path: str) -> None:
    """WEBHOOK_TIMEOUT_S (here 1 s) bounds the whole attempt, not each read: the receiver sends a
    byte every 0.2 s for 60 s; the attempt fails within the deadline plus 4 s of slack for a loaded
    machine (a per-read timeout would hold it the whole 60 s)."""
    from workers import webhooks

    began = time.monotonic()
    attempt = webhooks.send(f"{dripping}{path}", {"a": 1}, event="run.finished", secret=None, timeout=1.0)
    assert time.monotonic() - began < 5.0
    assert not attempt.delivered and "Timeout" in str(attempt.error), attempt


def test_an_endless_answer_is_read_only_up_to_the_cap(dripping: str) -> None:
    """At most MAX_ANSWER_BYTES (64 KiB) of a receiver's answer are read; the receiver, which would
    send 256 MiB, gets out far less than that before the connection is dropped (kernel buffers
    take a few MiB; 32 MiB is the bound)."""
    from workers import webhooks

    attempt = webhooks.send(f"{dripping}/endless", {"a": 1}, event="run.finished", secret=None, timeout=30.0)
    assert attempt.delivered, attempt
    deadline = time.monotonic() + 10
    while not Dripping.written and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Dripping.written and Dripping.written[-1] < 32 * 1024 * 1024, Dripping.written


def test_a_url_source_is_read_within_its_deadline_and_size(dripping: str) -> None:
    """URL sources: the same wall-clock limit (1 s here), and a source larger than
    SOURCE_MAX_BYTES fails instead of being read whole. The drip lasts 60 s; 4 s of slack past the
    deadline is for a loaded machine."""
    from service import schedule

    began = time.monotonic()
    with pytest.raises(httpx.TimeoutException):
        schedule.read_source("jsonl", f"{dripping}/drip", timeout=1.0)
    assert time.monotonic() - began < 5.0
    with pytest.raises(ValueError, match="larger than"):
        schedule.read_source("jsonl", f"{dripping}/endless", timeout=30.0)


def test_an_unparsable_webhook_url_is_refused_not_left_pending(session_factory: Any, worker_env: Any) -> None:
    """``urlsplit`` raises ValueError on ``http://[::1/``: the delivery fails at once (it was left
    pending, and retried never)."""
    from service import source_policy
    from service.settings import Settings
    from workers.run_tasks import deliver

    with pytest.raises(source_policy.SourceRefused):
        source_policy.check_webhook_url("http://[::1/x", Settings())
    worker_env()
    with session_scope(session_factory) as s:
        delivery_id = suites_repo.create_delivery(
            s, run_id=None, event="run.finished", url="http://[::1/x", payload={}
        ).id
    assert deliver(str(delivery_id)) == "failed"
    with session_scope(session_factory) as s:
        row = suites_repo.get_delivery(s, delivery_id)
        assert row is not None and row.status == "failed" and row.attempts == 1


def test_an_attempt_does_not_overwrite_a_delivery_no_longer_pending(session_factory: Any) -> None:
    """Two attempts of one delivery (a redelivered task): the one recorded after it was delivered
    changes nothing (status, attempts, error stay)."""
    with session_scope(session_factory) as s:
        delivery_id = suites_repo.create_delivery(
            s, run_id=None, event="run.finished", url="https://example.com/", payload={}
        ).id
    with session_scope(session_factory) as s:
        suites_repo.record_attempt(s, delivery_id, status_code=200, error=None, delivered=True, final=False)
    with session_scope(session_factory) as s:
        suites_repo.record_attempt(
            s, delivery_id, status_code=None, error="late", delivered=False, final=True
        )
    with session_scope(session_factory) as s:
        row = suites_repo.get_delivery(s, delivery_id)
        assert row is not None
        assert (row.status, row.attempts, row.last_error, row.last_status_code) == ("delivered", 1, None, 200)
