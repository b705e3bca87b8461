"""Tenant-bound SQL logins (``db.sql_logins``, migration 0011_analyst_logins), against real Postgres.

A login bound to tenant A connects with its own URL and tries every way a session has to widen
what it sees: the tenant setting (``SET``, ``set_config``, ``RESET``, ``RESET ALL``, a role
default), ``SET ROLE``, ``SET SESSION AUTHORIZATION``, ``row_security``, a temporary table that
shadows the binding table, the login functions. None shows a row of tenant B, and no write
succeeds. A role that is bound to no tenant and is not the deployment's sees nothing even with
``SELECT`` on every table, with or without the setting.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import sqlalchemy
from psycopg import sql

from db import repository as repo
from db import sql_logins
from db.tenancy import ANALYST_ROLE, ANALYST_TABLES, ANALYST_VIEWS, SERVICE_ROLE
from tests.security.test_row_level_security import _audit_with_rows, _run_rows

pytestmark = pytest.mark.services

#: Relations every escape is checked against (tables and views with tenant rows).
PROBED = ("audits", "claims", "documents", "verdicts", "claim_verdicts", "audit_scores", "run_audits")


@pytest.fixture(scope="module")
def tenants(session_factory: Any) -> tuple[str, str]:
    """Tenants A and B, each with an audit that has a row in every table, and a run of suite
    ``nightly`` (both tenants use the name)."""
    a, b = f"sqlA-{uuid.uuid4().hex[:6]}", f"sqlB-{uuid.uuid4().hex[:6]}"
    with session_factory() as session:
        for tenant in (a, b):
            _run_rows(session, _audit_with_rows(session, tenant), tenant)
        session.commit()
    return a, b


def _make_login(session_factory: Any, database_url: str, tenant: str, name: str = "") -> tuple[str, str]:
    with session_factory() as session:
        login, password = sql_logins.create_sql_login(session, tenant_id=tenant, name=name)
        session.commit()
    return login.role, sql_logins.login_url(database_url, login.role, password)


def _revoke(session_factory: Any, role: str) -> None:
    with session_factory() as session:
        sql_logins.revoke_sql_login(session, role)
        session.commit()


@pytest.fixture(scope="module")
def login_a(session_factory: Any, database_url: str, tenants: tuple[str, str]) -> Iterator[tuple[str, str]]:
    """(role, URL) of a login bound to tenant A."""
    role, url = _make_login(session_factory, database_url, tenants[0])
    yield role, url
    _revoke(session_factory, role)


def _seen(conn: psycopg.Connection[Any], tenants: tuple[str, str]) -> dict[str, set[str] | str]:
    """Per probed relation, the tenants of ``tenants`` whose rows the connection sees (or the error)."""
    out: dict[str, set[str] | str] = {}
    for relation in PROBED:
        try:
            rows = conn.execute(
                f"SELECT DISTINCT tenant_id FROM {relation} WHERE tenant_id = ANY(%s)", (list(tenants),)
            ).fetchall()
            out[relation] = {r[0] for r in rows}
        except psycopg.Error as exc:
            out[relation] = type(exc).__name__
    return out


def test_a_login_sees_its_tenant_only(login_a: tuple[str, str], tenants: tuple[str, str]) -> None:
    a, b = tenants
    with psycopg.connect(login_a[1], autocommit=True) as conn:
        assert conn.execute("SELECT current_user, claimaudit_session_tenant()").fetchone() == (login_a[0], a)
        assert _seen(conn, tenants) == {relation: {a} for relation in PROBED}
        for relation in (*ANALYST_TABLES, *ANALYST_VIEWS):
            rows = conn.execute(
                f"SELECT DISTINCT tenant_id FROM {relation} WHERE tenant_id = ANY(%s)", ([a, b],)
            ).fetchall()
            assert {r[0] for r in rows} <= {a}, relation


#: (escape, does the statement itself succeed). ``{b}``: tenant B; ``{role}``: the login.
ESCAPES = (
    ("SET claimaudit.tenant_id = ''", True),
    ("SET claimaudit.tenant_id = '{b}'", True),
    ("SELECT set_config('claimaudit.tenant_id', '{b}', false)", True),
    ("SELECT set_config('claimaudit.tenant_id', '', false)", True),
    ("RESET claimaudit.tenant_id", True),
    ("RESET ALL", True),
    ("SET row_security = off", True),
    ("SET ROLE claimaudit_analyst", True),
    ("SET ROLE claimaudit_service", False),
    ("SET ROLE postgres", False),
    ("SET SESSION AUTHORIZATION postgres", False),
    ("SET SESSION AUTHORIZATION claimaudit_service", False),
    ("SELECT claimaudit_create_sql_login('{b}', 'ca_escape', 'SCRAM-SHA-256$x', '')", False),
    ("SELECT claimaudit_revoke_sql_login('{role}', NULL)", False),
    ("UPDATE sql_logins SET tenant_id = '{b}'", False),
    ("INSERT INTO sql_logins (role_name, tenant_id) VALUES ('{role}', '{b}')", False),
)


@pytest.mark.parametrize(("escape", "succeeds"), ESCAPES, ids=[e for e, _ in ESCAPES])
def test_no_statement_of_the_session_widens_what_a_login_sees(
    login_a: tuple[str, str], tenants: tuple[str, str], escape: str, succeeds: bool
) -> None:
    a, b = tenants
    with psycopg.connect(login_a[1], autocommit=True) as conn:
        try:
            conn.execute(escape.format(b=b, role=login_a[0]))
            done = True
        except psycopg.errors.InsufficientPrivilege:
            done = False
        assert done is succeeds
        seen = _seen(conn, tenants)
    for relation, tenants_seen in seen.items():
        # its own tenant, nothing (SET ROLE to the group), or an error (row_security = off):
        # never tenant B
        assert tenants_seen in ({a}, set(), "InsufficientPrivilege"), (relation, tenants_seen)


def _database(session: Any) -> str:
    return str(session.execute(sqlalchemy.text("SELECT current_database()")).scalar_one())


def test_a_logins_statements_stop_at_its_statement_timeout(login_a: tuple[str, str]) -> None:
    """Migration 0020_sql_login_timeout: a login's role default ``statement_timeout`` is 60 s
    (``SQL_LOGIN_STATEMENT_TIMEOUT``; ``SHOW`` prints ``1min``), and a statement past a login's
    timeout is cancelled (57014). The sleep is checked against a 1 s timeout set in the session,
    the 60 s one would make the test a minute long."""
    with psycopg.connect(login_a[1], autocommit=True) as conn:
        assert conn.execute("SHOW statement_timeout").fetchone() == ("1min",)
        conn.execute("SET statement_timeout = '1s'")
        with pytest.raises(psycopg.errors.QueryCanceled):
            conn.execute("SELECT pg_sleep(3)")


def test_a_login_creates_no_temporary_table(login_a: tuple[str, str]) -> None:
    """``TEMPORARY`` is the deployment's only (migration 0018): a login creates no table at all."""
    with (
        psycopg.connect(login_a[1], autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute("CREATE TEMP TABLE scratch (x int)")


def test_a_login_neither_hears_nor_reads_the_audit_end_channel(
    login_a: tuple[str, str], tenants: tuple[str, str], session_factory: Any, database_url: str
) -> None:
    """Audit ends of tenant B go out on a private channel (migration 0018): the login cannot read
    its name, hears nothing on the old fixed name, while the deployment's listener hears the end."""
    from db.audit_events import AUDIT_ENDED_CHANNEL, channel_name, libpq_url

    b = tenants[1]
    with (
        psycopg.connect(login_a[1], autocommit=True) as analyst,
        psycopg.connect(libpq_url(database_url), autocommit=True) as service,
    ):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            analyst.execute("SELECT channel FROM claimaudit_channels")
        private = channel_name(service)
        assert private.startswith(AUDIT_ENDED_CHANNEL + "_") and len(private) == len(AUDIT_ENDED_CHANNEL) + 33
        analyst.execute(f"LISTEN {AUDIT_ENDED_CHANNEL}")
        service.execute(sql.SQL("LISTEN {}").format(sql.Identifier(private)))
        with session_factory() as session:
            new = repo.NewAudit(response="r", references=["x"], request_sha256=uuid.uuid4().hex, tenant_id=b)
            aid = repo.create_audit(session, new)[0].id
            session.commit()
            session.execute(sqlalchemy.text("UPDATE audits SET status = 'done' WHERE id = :id"), {"id": aid})
            session.commit()
        heard = [n.payload for n in service.notifies(timeout=2, stop_after=1)]
        assert heard == [str(aid)]
        assert [n.payload for n in analyst.notifies(timeout=1)] == []


def test_a_temporary_table_cannot_stand_in_for_the_bindings(
    login_a: tuple[str, str], tenants: tuple[str, str], session_factory: Any
) -> None:
    """The policy functions read ``<schema>.sql_logins`` with a fixed search path: a temporary
    table of the same name, first on the session's path, binds nothing (in a deployment that
    gives the login ``TEMPORARY``, which the migrations do not)."""
    a, b = tenants
    with session_factory() as session:
        session.execute(
            sqlalchemy.text(f'GRANT TEMPORARY ON DATABASE "{_database(session)}" TO "{login_a[0]}"')
        )
        session.commit()
    with psycopg.connect(login_a[1], autocommit=True) as conn:
        conn.execute("CREATE TEMP TABLE sql_logins (role_name text, tenant_id text, revoked_at timestamptz)")
        conn.execute("INSERT INTO pg_temp.sql_logins VALUES (%s, %s, NULL)", (login_a[0], b))
        conn.execute("SET search_path = pg_temp, public")
        assert conn.execute("SELECT tenant_id FROM sql_logins").fetchall() == [(b,)]  # the shadow
        assert _seen(conn, tenants) == {relation: {a} for relation in PROBED}


def test_a_role_default_of_the_setting_changes_nothing(
    session_factory: Any, database_url: str, tenants: tuple[str, str]
) -> None:
    """The login may not set its own default; one an administrator set is ignored as well."""
    a, b = tenants
    role, url = _make_login(session_factory, database_url, a)
    try:
        with (
            psycopg.connect(url, autocommit=True) as conn,
            pytest.raises(psycopg.errors.InsufficientPrivilege),
        ):
            conn.execute(f"ALTER ROLE {role} SET claimaudit.tenant_id = '{b}'")
        with session_factory() as session:
            session.execute(sqlalchemy.text(f"ALTER ROLE {role} SET claimaudit.tenant_id = '{b}'"))
            session.commit()
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SHOW claimaudit.tenant_id").fetchone() == (b,)
            assert _seen(conn, tenants) == {relation: {a} for relation in PROBED}
    finally:
        _revoke(session_factory, role)


WRITES = (
    "INSERT INTO audits (id, tenant_id, request_sha256) VALUES (gen_random_uuid(), '{a}', repeat('0', 64))",
    "UPDATE audits SET question = 'x' WHERE tenant_id = '{a}'",
    "DELETE FROM claims WHERE tenant_id = '{a}'",
    "TRUNCATE verdicts",
    "INSERT INTO tenants (id) VALUES ('intruder')",
    "UPDATE api_keys SET revoked_at = now()",
    "DELETE FROM llm_cache",
    "CREATE TABLE public.intruder (x int)",
    "CREATE VIEW public.intruder AS SELECT 1",
    "ALTER TABLE audits DISABLE ROW LEVEL SECURITY",
    "DROP POLICY tenant_isolation ON audits",
    "COMMENT ON TABLE audits IS 'mine'",
)


@pytest.mark.parametrize("write", WRITES)
def test_a_login_writes_nothing(login_a: tuple[str, str], tenants: tuple[str, str], write: str) -> None:
    with (
        psycopg.connect(login_a[1], autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute(write.format(a=tenants[0]))


@pytest.fixture(scope="module")
def unbound_url(engine: Any, database_url: str) -> Iterator[str]:
    """A LOGIN role with SELECT on every table and view, bound to no tenant, not the deployment's."""
    role = f"claimaudit_unbound_{uuid.uuid4().hex[:6]}"
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOBYPASSRLS"))
        conn.execute(sqlalchemy.text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"))
    yield sql_logins.login_url(database_url, role, "unused")
    with engine.begin() as conn:  # roles outlive the test database: drop it
        conn.execute(sqlalchemy.text(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}"))
        conn.execute(sqlalchemy.text(f"DROP ROLE {role}"))


@pytest.mark.parametrize("setting", [None, "", "A", "B"])
def test_an_unbound_role_sees_nothing(
    unbound_url: str, tenants: tuple[str, str], setting: str | None
) -> None:
    value = {None: None, "": "", "A": tenants[0], "B": tenants[1]}[setting]
    with psycopg.connect(unbound_url, autocommit=True) as conn:
        if value is not None:
            conn.execute("SELECT set_config('claimaudit.tenant_id', %s, false)", (value,))
        for relation in (
            *PROBED,
            *ANALYST_TABLES,
            *ANALYST_VIEWS,
            "api_keys",
            "suites",
            "webhook_deliveries",
        ):
            assert conn.execute(f"SELECT count(*) FROM {relation}").fetchone() == (0,), relation
        for shared in ("tenants", "llm_cache", "embedding_cache", "llm_formats"):
            assert conn.execute(f"SELECT count(*) FROM {shared}").fetchone() == (0,), shared


def test_only_the_owner_writes_the_bindings(session_factory: Any, tenants: tuple[str, str]) -> None:
    """Even the deployment's role, with every table privilege, cannot bind a role to a tenant: the
    table has a SELECT policy only; the owner writes it through the login functions."""
    a, _ = tenants
    probe = "claimaudit_binding_probe"
    with session_factory() as session:
        if (
            session.execute(
                sqlalchemy.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": probe}
            ).first()
            is None
        ):
            session.execute(sqlalchemy.text(f"CREATE ROLE {probe} NOLOGIN NOSUPERUSER NOBYPASSRLS"))
        session.execute(sqlalchemy.text(f"GRANT {SERVICE_ROLE} TO {probe}"))
        session.execute(sqlalchemy.text(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {probe}"))
        session.execute(sqlalchemy.text(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {probe}"))
        session.commit()
        session.execute(sqlalchemy.text(f"SET LOCAL ROLE {probe}"))
        with pytest.raises(sqlalchemy.exc.ProgrammingError, match="row-level security"):
            session.execute(
                sqlalchemy.text("INSERT INTO sql_logins (role_name, tenant_id) VALUES ('ca_probe', :t)"),
                {"t": a},
            )
        session.rollback()


def test_a_revoked_login_reads_nothing_and_cannot_connect(
    session_factory: Any, database_url: str, tenants: tuple[str, str]
) -> None:
    role, url = _make_login(session_factory, database_url, tenants[0], name="revoked")
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM audits").fetchone() != (0,)
    _revoke(session_factory, role)
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url).close()
    with session_factory() as session:
        assert (
            session.execute(sqlalchemy.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first()
            is None
        )
        listed = {x.role: x for x in sql_logins.list_sql_logins(session, tenant_id=tenants[0])}
    assert listed[role].revoked_at is not None


def test_a_login_name_is_unique_and_validated(
    session_factory: Any, database_url: str, tenants: tuple[str, str]
) -> None:
    role, _ = _make_login(session_factory, database_url, tenants[0], name="twice")
    try:
        with pytest.raises(sql_logins.SqlLoginError, match="exists") as caught:
            _make_login(session_factory, database_url, tenants[0], name="twice")
        assert caught.value.kind == "exists"
        with pytest.raises(sql_logins.SqlLoginError) as caught:
            _make_login(session_factory, database_url, "not a tenant!")
        assert caught.value.kind == "invalid"
    finally:
        _revoke(session_factory, role)


def test_a_session_bound_to_a_tenant_makes_logins_of_that_tenant_only(
    session_factory: Any, tenants: tuple[str, str]
) -> None:
    from db.tenancy import bind_tenant

    a, b = tenants
    with session_factory() as session:
        bind_tenant(session, a)
        with pytest.raises(sql_logins.SqlLoginError) as caught:
            sql_logins.create_sql_login(session, tenant_id=b)
        assert caught.value.kind == "forbidden"
        session.rollback()


def test_the_analyst_grants_are_the_documented_relations(engine: Any) -> None:
    with engine.connect() as conn:
        granted = conn.execute(
            sqlalchemy.text(
                "SELECT table_name, string_agg(privilege_type, ',') "
                "FROM information_schema.role_table_grants WHERE grantee = :r GROUP BY table_name"
            ),
            {"r": ANALYST_ROLE},
        ).all()
    assert dict(granted) == {relation: "SELECT" for relation in (*ANALYST_TABLES, *ANALYST_VIEWS)}


def test_every_view_applies_row_level_security_to_its_reader(engine: Any) -> None:
    with engine.connect() as conn:
        views = conn.execute(
            sqlalchemy.text(
                "SELECT c.relname, coalesce('security_invoker=true' = ANY(c.reloptions), false) "
                "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind IN ('v', 'm')"
            )
        ).all()
    assert views and all(invoker for _, invoker in views), views


def test_every_table_is_under_row_level_security(engine: Any) -> None:
    """Forced row-level security on every table but the binding table (its owner writes it) and
    Alembic's; the tenant tables fail closed (their policy names no tenant for a stranger)."""
    with engine.connect() as conn:
        tables = conn.execute(
            sqlalchemy.text(
                "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                "AND c.relkind = 'r' AND c.relname NOT IN ('alembic_version', 'sql_logins')"
            )
        ).all()
    assert tables and [t for t in tables if not (t[1] and t[2])] == []


def test_no_security_definer_function_is_open_to_analysts(engine: Any) -> None:
    """Inside a SECURITY DEFINER function ``current_user`` is its owner: one an analyst could call
    would read with the owner's rows. Only the two login functions are such, for the service."""
    with engine.connect() as conn:
        definers = conn.execute(
            sqlalchemy.text(
                "SELECT p.proname, has_function_privilege(:a, p.oid, 'EXECUTE'), "
                "has_function_privilege('public', p.oid, 'EXECUTE') FROM pg_proc p "
                "JOIN pg_namespace n ON n.oid = p.pronamespace "
                "WHERE p.prosecdef AND n.nspname = current_schema()"
            ),
            {"a": ANALYST_ROLE},
        ).all()
    assert sorted(d[0] for d in definers) == ["claimaudit_create_sql_login", "claimaudit_revoke_sql_login"]
    assert not any(d[1] or d[2] for d in definers)


def test_the_cli_prints_a_login_url_last(
    session_factory: Any, database_url: str, tenants: tuple[str, str]
) -> None:
    from typer.testing import CliRunner

    from cli.main import app
    from cli.processes import temporary_env

    a, b = tenants
    with temporary_env(DATABASE_URL=database_url):
        result = CliRunner().invoke(app, ["sql-logins", "create", "--tenant", a, "--name", "cli"])
    assert result.exit_code == 0, result.output
    url = result.stdout.strip().splitlines()[-1]
    assert url.startswith("postgresql://ca_")
    role = url.split("://", 1)[1].split(":", 1)[0]
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            assert _seen(conn, tenants)["claim_verdicts"] == {a}
    finally:
        _revoke(session_factory, role)


def test_cli_refuses_an_unknown_tenant_unless_it_is_new(database_url: str, session_factory: Any) -> None:
    """A typo in ``--tenant`` would make a login that sees nothing: exit 2 (usage) naming the
    tenant, nothing made; a malformed id says what a tenant id is; ``--new-tenant`` makes it."""
    from typer.testing import CliRunner

    from cli.main import app
    from cli.processes import temporary_env

    new = f"nt-{uuid.uuid4().hex[:8]}"
    with temporary_env(DATABASE_URL=database_url):
        refused = CliRunner().invoke(app, ["sql-logins", "create", "--tenant", new])
        assert refused.exit_code == 2 and f"tenant {new!r} does not exist" in refused.output
        bad = CliRunner().invoke(
            app, ["sql-logins", "create", "--tenant", "x; drop table audits", "--new-tenant"]
        )
        assert bad.exit_code == 2 and "not a tenant id" in bad.output
        made = CliRunner().invoke(app, ["sql-logins", "create", "--tenant", new, "--new-tenant"])
    assert made.exit_code == 0, made.output
    role = made.stdout.strip().splitlines()[-1].split("://", 1)[1].split(":", 1)[0]
    _revoke(session_factory, role)
