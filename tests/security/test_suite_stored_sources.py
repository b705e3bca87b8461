"""Stored suites cannot read the server when they run: a file outside the source dir, a URL of an
internal service, SQL while SQL sources are off or for a tenant not listed, SQL that reads
another tenant's rows or leaves a setting on its pooled connection.

Each suite is stored without the API's checks (inserted by the repository, as one from before
them), and ``runs.start``, called in this process, must fail its run with the reason.
Row-level security does not apply to superusers (the local stack connects as one), so the SQL
tenant-leak tests run the source as a plain role they create, like test_row_level_security.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy

from db import repository as repo
from db.engine import session_scope
from tests.security.conftest import new_tenant
from tests.security.suite_sources import LEAK_SQL, Internal, make_reader, start_here, stored_run

pytestmark = pytest.mark.services


def test_a_stored_file_source_outside_the_source_dir_fails_its_run(
    session_factory: Any, worker_env: Any, tmp_path: Path
) -> None:
    worker_env(SUITE_SOURCE_DIR=str(tmp_path))
    error, items = start_here(session_factory, stored_run(session_factory, "default", "jsonl", "/etc/passwd"))
    assert items == [] and error is not None
    assert "not a file under" in error and "root:" not in error


def test_a_stored_url_source_to_an_internal_service_fails_without_a_request(
    session_factory: Any, worker_env: Any, internal: str
) -> None:
    worker_env()
    before = len(Internal.hits)
    error, items = start_here(
        session_factory, stored_run(session_factory, "default", "jsonl", f"{internal}/x")
    )
    assert items == [] and error is not None and "SUITE_SOURCE_HOSTS" in error
    assert len(Internal.hits) == before
    # a listed host that fails: the status only, never the service's body
    worker_env(SUITE_SOURCE_HOSTS="127.0.0.1")
    error, _ = start_here(
        session_factory, stored_run(session_factory, "default", "jsonl", f"{internal}/fail")
    )
    assert error is not None and "HTTP 500" in error and "internal-secret" not in error


def test_a_stored_sql_source_fails_while_sql_sources_are_off(session_factory: Any, worker_env: Any) -> None:
    worker_env()
    query = "SELECT pg_read_file('/etc/hostname') AS id, 'r' AS response, 'x' AS references"
    error, items = start_here(session_factory, stored_run(session_factory, "default", "sql", query))
    assert items == [] and error is not None and "SUITE_SQL_SOURCES" in error


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
    error, items = start_here(session_factory, stored_run(session_factory, b.id, "sql", LEAK_SQL))
    assert items == [] and error is not None and "bypasses row-level security" in error
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=both, SUITE_SQL_ROLE=reader_role)
    error, items = start_here(session_factory, stored_run(session_factory, b.id, "sql", LEAK_SQL))
    assert (error, items) == (None, [])  # B's suite: none of A's documents
    error, items = start_here(session_factory, stored_run(session_factory, a.id, "sql", LEAK_SQL))
    assert (error, items) == (None, a_docs)  # the same query of A's suite reads A's two
    # the database superuser's powers are gone too
    for query in (
        "SELECT pg_read_file('/etc/hostname') AS id, 'r' AS response, 'x' AS references",
        "SELECT 1 AS id, 'r' AS response, 'x' AS references) q; RESET ROLE; SELECT * FROM (SELECT 1",
    ):
        error, items = start_here(session_factory, stored_run(session_factory, b.id, "sql", query))
        assert items == [] and error is not None, query
    # re-binding the tenant mid-query reads none of A's rows: the policies read the tenant once per
    # statement (an InitPlan), before any row is filtered
    query = f"SELECT * FROM ({LEAK_SQL}) q WHERE set_config('claimaudit.tenant_id', '{a.id}', true) > ''"
    error, items = start_here(session_factory, stored_run(session_factory, b.id, "sql", query))
    assert items == [], query


def test_a_sql_source_role_outside_the_service_group_reads_no_tenant_rows(
    engine: Any, session_factory: Any, worker_env: Any
) -> None:
    """Row-level security fails closed for a role that is neither a member of
    ``claimaudit_service`` nor bound to a tenant: as SUITE_SQL_ROLE it reads none of the suite
    tenant's own audit rows (it may still read tables of its own, such as recorded answers)."""
    outsider = make_reader(engine, "claimaudit_suite_outsider", service=False)
    a = new_tenant(session_factory, "outsider")
    with session_scope(session_factory) as s:
        repo.create_audit(
            s,
            repo.NewAudit(response="A's answer", references=["A's"], request_sha256="2" * 64, tenant_id=a.id),
        )
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=a.id, SUITE_SQL_ROLE=outsider)
    error, items = start_here(session_factory, stored_run(session_factory, a.id, "sql", LEAK_SQL))
    assert (error, items) == (None, [])
    query = "SELECT 1 AS id, 'r' AS response, 'x' AS references"  # no table: rows as usual
    assert start_here(session_factory, stored_run(session_factory, a.id, "sql", query)) == (None, ["1"])


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
    error, items = start_here(session_factory, stored_run(session_factory, b.id, "sql", query))
    assert items == [] and error is not None and "SUITE_SQL_TENANTS" in error
    error, items = start_here(session_factory, stored_run(session_factory, a.id, "sql", query))
    assert (error, items) == (None, ["1"])


def test_a_sql_sources_settings_do_not_outlive_its_connection(
    session_factory: Any, worker_env: Any, reader_role: str
) -> None:
    """The query runs on a connection of its own, closed afterwards: no connection of the worker's
    pool carries the session-level setting it made (each one checked in is checked)."""
    from workers.database import get_engine

    a = new_tenant(session_factory, "poison")
    worker_env(SUITE_SQL_SOURCES="true", SUITE_SQL_TENANTS=a.id, SUITE_SQL_ROLE=reader_role)
    error, items = start_here(session_factory, stored_run(session_factory, a.id, "sql", POISON_SQL))
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
