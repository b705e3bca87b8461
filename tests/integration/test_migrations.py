"""Alembic: upgrade head, models match migrations (``alembic check``), downgrade base, upgrade again."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy
from alembic import command
from sqlalchemy.orm import Session

from tests.conftest import alembic_config

pytestmark = pytest.mark.services

SPINE_TABLES = {"audits", "documents", "claims", "verdicts", "evidence", "scores", "embedding_cache"}
#: Migration 0008_method_checks (db/check_models.py).
CHECK_TABLES = {"canaries", "second_audits", "second_audit_claims", "corrections", "claim_labels"}
CHECK_VIEWS = {"canary_results", "canary_detection", "canary_detection_daily", "label_agreement"}


def _tables(url: str) -> tuple[set[str], set[str], set[str]]:
    engine = sqlalchemy.create_engine(url)
    try:
        insp = sqlalchemy.inspect(engine)
        tables = set(insp.get_table_names())
        views = set(insp.get_view_names())
        indexes = {str(i["name"]) for i in insp.get_indexes("claims")} if "claims" in tables else set()
    finally:
        engine.dispose()
    return tables, views, indexes


def test_upgrade_check_downgrade_upgrade(fresh_database: Callable[[str], str]) -> None:
    url = fresh_database("migrations")
    cfg = alembic_config(url)

    command.upgrade(cfg, "head")
    tables, views, indexes = _tables(url)
    assert tables >= SPINE_TABLES
    assert {"claim_verdicts", "audit_scores"} <= views
    assert tables >= CHECK_TABLES and views >= CHECK_VIEWS
    assert "ix_claims_embedding_hnsw_minilm_l6_v2" in indexes

    _assert_check_tables_are_tenant_guarded(url)

    command.check(cfg)  # raises when the models and the migrated schema differ

    command.downgrade(cfg, "base")
    tables, views, _ = _tables(url)
    assert tables <= {"alembic_version"}
    assert not views & ({"claim_verdicts", "audit_scores"} | CHECK_VIEWS)

    command.upgrade(cfg, "head")  # repeatable: CREATE EXTENSION IF NOT EXISTS
    assert _tables(url)[0] >= SPINE_TABLES


def _assert_check_tables_are_tenant_guarded(url: str) -> None:
    """0008_method_checks as 0005_tenants: forced row-level security with ``tenant_isolation`` on
    every table, views ``security_invoker``."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sqlalchemy.text(
                    "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, c.reloptions,"
                    " (SELECT array_agg(p.polname) FROM pg_policy p WHERE p.polrelid = c.oid)"
                    " FROM pg_class c WHERE c.relname = ANY(:names)"
                ),
                {"names": sorted(CHECK_TABLES | CHECK_VIEWS)},
            ).all()
    finally:
        engine.dispose()
    found = {r[0]: r for r in rows}
    assert set(found) == CHECK_TABLES | CHECK_VIEWS
    for table in CHECK_TABLES:
        assert found[table][1:3] == (True, True) and found[table][4] == ["tenant_isolation"], table
    for view in CHECK_VIEWS:
        assert "security_invoker=true" in (found[view][3] or []), view


def test_first_revision_creates_the_vector_extension(fresh_database: Callable[[str], str]) -> None:
    url = fresh_database("ext")
    command.upgrade(alembic_config(url), "0001_initial")
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            ext = conn.execute(
                sqlalchemy.text("SELECT extname FROM pg_extension WHERE extname = 'vector'")
            ).scalar()
    finally:
        engine.dispose()
    assert ext == "vector"


def _role_timeout(engine: sqlalchemy.Engine, role: str) -> list[str]:
    """The ``statement_timeout`` entries of ``role``'s defaults (``pg_db_role_setting``)."""
    with engine.connect() as conn:
        config = conn.execute(
            sqlalchemy.text(
                "SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole"
                " WHERE r.rolname = :role AND s.setdatabase = 0"
            ),
            {"role": role},
        ).scalar()
    return [c for c in config or [] if c.startswith("statement_timeout=")]


def test_sql_login_timeout_reaches_existing_logins_and_goes_with_the_downgrade(
    fresh_database: Callable[[str], str],
) -> None:
    """0020_sql_login_timeout: a login made at 0019 gets ``statement_timeout=60s`` by the upgrade
    (a new one by ``claimaudit_create_sql_login``), and the downgrade to 0019 removes both."""
    from db import sql_logins

    url = fresh_database("login_timeout")
    cfg = alembic_config(url)
    command.upgrade(cfg, "0019_reference_rollup")
    engine = sqlalchemy.create_engine(url)
    tenant = "mig-timeout"
    made: list[str] = []
    try:
        with Session(engine) as session:
            made.append(sql_logins.create_sql_login(session, tenant_id=tenant, name="old")[0].role)
            session.commit()
        assert _role_timeout(engine, made[0]) == []
        command.upgrade(cfg, "0020_sql_login_timeout")
        with Session(engine) as session:
            made.append(sql_logins.create_sql_login(session, tenant_id=tenant, name="new")[0].role)
            session.commit()
        assert [_role_timeout(engine, r) for r in made] == [["statement_timeout=60s"]] * 2
        command.downgrade(cfg, "0019_reference_rollup")
        assert [_role_timeout(engine, r) for r in made] == [[], []]
    finally:
        with Session(engine) as session:
            for role in made:
                sql_logins.revoke_sql_login(session, role)
            session.commit()
        engine.dispose()
