"""Helpers of the suite source tests (tests/security/test_suite_*.py): loopback HTTP servers that
stand for an internal service (``Internal``) and a slow or endless receiver (``Dripping``), suites
put through the API or stored without its checks, runs started in this process, and plain SQL
roles. Their fixtures are in tests/security/conftest.py."""

from __future__ import annotations

import http.server
import threading
import time
import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import sqlalchemy

from db import runs as runs_repo
from db import suites as suites_repo
from db.engine import session_scope
from db.tenancy import SERVICE_ROLE

if TYPE_CHECKING:
    from tests.security.conftest import Tenant

#: the plain role the SQL source tests create (``SUITE_SQL_ROLE``)
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


def serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """A local HTTP server with ``handler`` in a thread: yields its URL, shuts it down after."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def put_suite(client: Any, tenant: Tenant | dict[str, str], body: dict[str, Any]) -> Any:
    """``PUT /suites/s-<random>`` with ``body``, as ``tenant`` (its key) or with these headers."""
    headers = tenant if isinstance(tenant, dict) else tenant.headers
    return client.put(f"/suites/s-{uuid.uuid4().hex[:6]}", json=body, headers=headers)


def stored_run(session_factory: Any, tenant: str, kind: str, source: str) -> uuid.UUID:
    """A suite stored without the API's checks (as one from before them) and a run of it."""
    name = f"stored-{uuid.uuid4().hex[:8]}"
    with session_scope(session_factory) as s:
        spec = suites_repo.SuiteSpec(name=name, source_kind=kind, source=source)
        suites_repo.upsert_suite(s, spec, tenant_id=tenant)
        run, _ = runs_repo.get_or_create_run(
            s, suite=name, label="x", source=f"schedule:{kind}", tenant_id=tenant
        )
        return run.id


def start_here(session_factory: Any, run_id: uuid.UUID) -> tuple[str | None, list[str]]:
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


def make_reader(engine: Any, role: str, *, service: bool) -> str:
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
