"""``reference_verdicts`` from its write-time rollup (``reference_verdict_audits``, migration
``0019_reference_rollup``) equals the whole-history aggregate it replaced (the view of
``0011_analyst_logins``, run here as a query) on a real store, after every kind of write the
pipeline makes: first runs, a re-run of an audit's stages (claims, verdicts and evidence deleted
by cascade and written again), a verdict changed in place, an audit deleted; and a tenant's
writer or login reads and writes its own tenant's rollup rows only.

The store: a fresh migrated database (real Postgres + pgvector), two tenants, audits run through
the real stage services (decompose, embed, match, score) as the workers run them; references as
strings and as ``{"text", "id", "url", "title"}``, one of them in several audits of a tenant and
in the other tenant too (the same ``sha256`` in two tenants must stay two rows).
"""

from __future__ import annotations

import importlib.util
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import text

from db import sql_logins
from db.engine import make_engine, make_session_factory, session_scope
from db.tenancy import SERVICE_ROLE, bind_tenant
from tests.conftest import alembic_config
from tests.integration.test_stages import create, run_all

pytestmark = [pytest.mark.services, pytest.mark.slow]

ACME, GLOBEX = "acme", "globex"
BRIDGE = {
    "text": (
        "The Halvorsen Bridge opened to traffic on 12 May 1998. It was designed by the engineer Mara Lind."
    ),
    "id": "kb-17",
    "url": "https://kb.example.com/17",
    "title": "Halvorsen Bridge",
}
WATER = "Water boils at 100 °C at sea level. Ice melts at 0 °C."
#: (tenant, references, response): the bridge three times in acme and once in globex.
AUDITS = (
    (ACME, [BRIDGE], "The Halvorsen Bridge opened in 1998. It was designed by Mara Lind."),
    (ACME, [BRIDGE, WATER], "The Halvorsen Bridge opened in 1989. Water boils at 90 °C at sea level."),
    (ACME, [WATER], "Water boils at 100 °C at sea level."),
    (ACME, [BRIDGE], "The bridge was designed by Mara Lind. It has four lanes."),
    (GLOBEX, [BRIDGE], "The Halvorsen Bridge opened in 1998."),
    (GLOBEX, [WATER, {"text": "The Orrin Dam was completed in 1961.", "title": "Orrin Dam"}],
     "The Orrin Dam was completed in 1965. Water boils at 100 °C at sea level."),
)  # fmt: skip


def _old_aggregate() -> str:
    """The SELECT of ``reference_verdicts`` as migration ``0011_analyst_logins`` defined it."""
    path = Path(__file__).resolve().parents[2] / "migrations" / "versions" / "0011_analyst_logins.py"
    spec = importlib.util.spec_from_file_location("_claimaudit_0011_for_rollup_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    view = str(module.REFERENCE_VERDICTS_VIEW)
    return view[view.index(" AS\nSELECT") + len(" AS\n") :]


OLD = _old_aggregate()
ORDER = " ORDER BY tenant_id, reference_sha256, reference_id, reference_url, reference_title"


def _both(conn: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(the view's rows, the old aggregate's rows), sorted by the key."""
    view = [tuple(r) for r in conn.execute(text("SELECT * FROM reference_verdicts" + ORDER)).all()]
    old = [tuple(r) for r in conn.execute(text(f"SELECT * FROM ({OLD}) o" + ORDER)).all()]
    return view, old


def assert_equal_to_old(factory: Any) -> list[tuple[Any, ...]]:
    with factory() as s:
        view, old = _both(s)
    assert view == old
    return view


@pytest.fixture(scope="module")
def store(fresh_database: Callable[[str], str]) -> Iterator[tuple[str, Any, list[uuid.UUID]]]:
    from alembic import command

    url = fresh_database("rollup")
    command.upgrade(alembic_config(url), "head")
    engine = make_engine(url)
    factory = make_session_factory(engine)
    audits = []
    for tenant, references, response in AUDITS:
        audits.append(create(factory, response, references, tenant=tenant))
        run_all(factory, audits[-1])
    try:
        yield url, factory, audits
    finally:
        engine.dispose()


Store = tuple[str, Any, list[uuid.UUID]]


def test_the_view_equals_the_old_aggregate_after_the_pipeline(store: Store) -> None:
    _, factory, _ = store
    rows = assert_equal_to_old(factory)
    by_tenant = {(r[0], r[4]) for r in rows}
    # the bridge (titled) is evidence in both tenants: two rows, one per tenant
    assert {(ACME, "Halvorsen Bridge"), (GLOBEX, "Halvorsen Bridge")} <= by_tenant, rows
    bridge = next(r for r in rows if r[0] == ACME and r[4] == "Halvorsen Bridge")
    assert bridge[5] >= 2, bridge  # audits: evidence from the bridge in at least two acme audits


def test_a_rerun_a_changed_verdict_and_a_deleted_audit_keep_it_equal(
    store: tuple[str, Any, list[uuid.UUID]],
) -> None:
    _, factory, audits = store
    before = assert_equal_to_old(factory)
    run_all(factory, audits[1])  # claims, verdicts, evidence deleted by cascade and written again
    assert assert_equal_to_old(factory) == before
    with session_scope(factory) as s:
        changed = s.execute(
            text(
                "UPDATE verdicts SET verdict = 'unsupported' WHERE id = (SELECT v.id FROM verdicts v "
                "JOIN evidence e ON e.verdict_id = v.id AND e.rank = 0 WHERE v.audit_id = :a "
                "AND v.verdict <> 'unsupported' ORDER BY v.id LIMIT 1)"
            ),
            {"a": audits[3]},
        ).rowcount
    assert changed == 1
    after_update = assert_equal_to_old(factory)
    assert after_update != before
    with session_scope(factory) as s:
        s.execute(text("DELETE FROM audits WHERE id = :a"), {"a": audits[0]})
    after_delete = assert_equal_to_old(factory)
    assert after_delete != after_update
    with factory() as s:
        left = s.execute(
            text("SELECT count(*) FROM reference_verdict_audits WHERE audit_id = :a"), {"a": audits[0]}
        ).scalar_one()
    assert left == 0


@pytest.fixture
def writer_url(store: tuple[str, Any, list[uuid.UUID]]) -> Iterator[str]:
    """``store``'s URL as a LOGIN role that is a member of the deployment's role with table
    privileges only (no superuser, no BYPASSRLS: the policies apply), as the API and workers are
    deployed (README, "Tenants, API keys and limits")."""
    from sqlalchemy.engine import make_url

    url, factory, _ = store
    role = f"rollup_writer_{uuid.uuid4().hex[:8]}"
    with session_scope(factory) as s:
        s.execute(text(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOBYPASSRLS"))
        s.execute(text(f"GRANT {SERVICE_ROLE} TO {role}"))
        s.execute(text(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}"))
        # as a login granted its privileges before migration 0019: the rollup through the group
        s.execute(text(f"REVOKE ALL ON reference_verdict_audits FROM {role}"))
    try:
        yield make_url(url).set(username=role, password=None).render_as_string(hide_password=False)
    finally:
        with session_scope(factory) as s:
            s.execute(text(f"DROP OWNED BY {role}"))
            s.execute(text(f"DROP ROLE {role}"))


def test_a_tenant_writes_and_reads_its_own_rollup_rows_only(
    store: tuple[str, Any, list[uuid.UUID]], writer_url: str
) -> None:
    url, factory, audits = store
    acme_audit = audits[3]
    with factory() as s:
        before = s.execute(
            text("SELECT count(*) FROM reference_verdict_audits WHERE audit_id = :a"), {"a": acme_audit}
        ).scalar_one()
    assert before > 0
    engine = make_engine(writer_url)
    try:
        # bound to globex, a recompute of an acme audit sees neither its evidence nor its rows:
        # the acme rows stay; a recompute of a globex audit writes globex rows
        with session_scope(make_session_factory(engine)) as s:
            bind_tenant(s, GLOBEX)
            s.execute(text("SELECT claimaudit_reference_rollup(ARRAY[CAST(:a AS uuid)])"), {"a": acme_audit})
            s.execute(text("SELECT claimaudit_reference_rollup(ARRAY[CAST(:a AS uuid)])"), {"a": audits[4]})
            seen = s.execute(text("SELECT DISTINCT tenant_id FROM reference_verdict_audits")).all()
        assert seen == [(GLOBEX,)]
        with session_scope(make_session_factory(engine)) as s:
            bind_tenant(s, GLOBEX)
            with pytest.raises(Exception, match="row-level security"):
                s.execute(
                    text(
                        "INSERT INTO reference_verdict_audits VALUES "
                        "(:t, gen_random_uuid(), repeat('0', 64), NULL, NULL, NULL, 1, 1, 0, 0, 0, 0)"
                    ),
                    {"t": ACME},
                )
    finally:
        engine.dispose()
    with factory() as s:
        after = s.execute(
            text("SELECT count(*) FROM reference_verdict_audits WHERE audit_id = :a"), {"a": acme_audit}
        ).scalar_one()
    assert after == before
    assert_equal_to_old(factory)
    with session_scope(factory) as s:
        login, password = sql_logins.create_sql_login(s, tenant_id=ACME, name="rollup")
    try:
        with psycopg.connect(sql_logins.login_url(url, login.role, password)) as conn:
            view = conn.execute("SELECT * FROM reference_verdicts" + ORDER).fetchall()
            raw = conn.execute("SELECT DISTINCT tenant_id FROM reference_verdict_audits").fetchall()
        with factory() as s:
            _, old = _both(s)
        assert view and view == [r for r in old if r[0] == ACME]
        assert raw == [(ACME,)]
    finally:
        with session_scope(factory) as s:
            sql_logins.revoke_sql_login(s, login.role)


def test_the_rebuild_gives_the_rows_the_triggers_keep(store: tuple[str, Any, list[uuid.UUID]]) -> None:
    _, factory, _ = store
    query = text(
        "SELECT * FROM reference_verdict_audits ORDER BY audit_id, reference_sha256, reference_title"
    )
    with factory() as s:
        kept = s.execute(query).all()
    with session_scope(factory) as s:
        s.execute(text("SELECT claimaudit_reference_rollup_rebuild()"))
    with factory() as s:
        assert s.execute(query).all() == kept
    assert kept


def test_the_downgrade_restores_the_aggregate_view(fresh_database: Callable[[str], str]) -> None:
    from alembic import command

    url = fresh_database("rollup_down")
    cfg = alembic_config(url)
    command.upgrade(cfg, "head")
    command.downgrade(cfg, "0018_private_channels")
    engine = make_engine(url)
    try:
        with make_session_factory(engine)() as s:
            gone = s.execute(text("SELECT to_regclass('reference_verdict_audits') IS NULL")).scalar_one()
            definition = s.execute(text("SELECT pg_get_viewdef('reference_verdicts')")).scalar_one()
        assert gone and "count(DISTINCT d.audit_id)" in definition
    finally:
        engine.dispose()
    command.upgrade(cfg, "head")
