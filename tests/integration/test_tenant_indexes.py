"""A tenant's own HNSW index (``db.tenant_indexes``) on real Postgres + pgvector, in a database of
this module's own (the plan counts every tenant of the store).

Three tenants with random unit vectors of the local model's dimension: ``mid`` 600, ``tiny`` 100
and ``big`` 2,000 (2,700 in all). With ``min_claims`` 300 and ``max_share`` 0.25 the plan names
``mid`` alone (600 / 2,700 = 0.22; ``tiny`` is under the least size, ``big`` owns 0.74). ``sync``
makes a valid partial index, is idempotent, rebuilds an index marked invalid (what an
interrupted ``CREATE INDEX CONCURRENTLY`` leaves), drops what the plan no longer names, and
does nothing while another holds its lock; the search of ``mid`` goes through its own index (the
index's scan count, read from ``pg_stat_user_indexes``, grows by one per search, prepared
statements included) and returns the exact best ``k`` for most queries, while ``tiny`` keeps the
exact path.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import sqlalchemy
from pgvector import Vector

from db import repository as repo
from db import tenant_indexes
from db.claim_search import SearchFilters, search_claims, statement
from db.engine import make_engine, make_session_factory, session_scope
from tests.conftest import alembic_config

pytestmark = pytest.mark.services

MODEL, DIM, K = "sentence-transformers/all-MiniLM-L6-v2", 384, 10
SIZES = {"mid": 600, "tiny": 100, "big": 2000}


@pytest.fixture(scope="module")
def store(fresh_database: Callable[[str], str]) -> Iterator[dict[str, Any]]:
    """The engine, the session factory and each tenant's (claim ids, vectors)."""
    from alembic import command

    url = fresh_database("ownidx")
    command.upgrade(alembic_config(url), "head")
    engine = make_engine(url)
    factory = make_session_factory(engine)
    rng = np.random.default_rng(11)
    tenants: dict[str, tuple[list[int], np.ndarray]] = {}
    with session_scope(factory) as s:
        for name, n in SIZES.items():
            vectors = rng.normal(size=(n, DIM)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            tenants[name] = (_claims(s, f"{name}-{uuid.uuid4().hex[:6]}", vectors), vectors)
        s.execute(sqlalchemy.text("ANALYZE claims"))
    tenant_indexes.clear_cache()
    yield {"engine": engine, "factory": factory, "tenants": tenants}
    engine.dispose()


def _claims(s: Any, tenant: str, vectors: np.ndarray) -> list[int]:
    new = repo.NewAudit(response="r", references=["x"], request_sha256="0" * 64, tenant_id=tenant)
    audit, _ = repo.create_audit(s, new)
    doc = next(d for d in repo.get_documents(s, audit.id) if d.role == "reference")
    rows = s.execute(
        sqlalchemy.text(
            "INSERT INTO claims (audit_id, document_id, role, position, text, char_start, char_end, kind,"
            " embedding, embedding_model, embedding_dim)"
            " SELECT :a, :d, 'reference', p - 1, 'claim ' || p, 0, 1, 'material', e::vector, :m, :dim"
            " FROM unnest(CAST(:e AS text[])) WITH ORDINALITY AS u(e, p) ORDER BY p RETURNING id"
        ),
        {"a": audit.id, "d": doc.id, "e": [Vector(v).to_text() for v in vectors], "m": MODEL, "dim": DIM},
    )
    return [r[0] for r in rows]


def _tenant(store: dict[str, Any], name: str) -> str:
    """The tenant id of ``name`` (the claims' tenant, copied from the audit by a trigger)."""
    with session_scope(store["factory"]) as s:
        claim = store["tenants"][name][0][0]
        return str(
            s.execute(
                sqlalchemy.text("SELECT tenant_id FROM claims WHERE id = :c"), {"c": claim}
            ).scalar_one()
        )


def test_the_plan_names_a_mid_sized_tenant_alone(store: dict[str, Any]) -> None:
    with session_scope(store["factory"]) as s:
        wanted = tenant_indexes.plan(s, min_claims=300, max_share=0.25)
    assert [(w.tenant_id, w.claims) for w in wanted] == [(_tenant(store, "mid"), SIZES["mid"])]
    assert wanted[0].name == tenant_indexes.index_name(MODEL, wanted[0].tenant_id)


def test_build_is_idempotent_and_rebuilds_an_invalid_index(store: dict[str, Any]) -> None:
    with session_scope(store["factory"]) as s:
        wanted = tenant_indexes.plan(s, min_claims=300, max_share=0.25)
    name = wanted[0].name
    with store["engine"].connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        assert tenant_indexes.sync(conn, wanted).created == (name,)
        assert tenant_indexes.sync(conn, wanted).created == ()
        # what an interrupted CREATE INDEX CONCURRENTLY leaves: an index marked invalid
        conn.exec_driver_sql(f"UPDATE pg_index SET indisvalid = false WHERE indexrelid = '{name}'::regclass")
        with session_scope(store["factory"]) as s:
            tenant_indexes.clear_cache()
            assert not tenant_indexes.has_own_index(s, tenant_id=wanted[0].tenant_id, model=MODEL)
        assert tenant_indexes.sync(conn, wanted).created == (name,)
    with session_scope(store["factory"]) as s:
        assert tenant_indexes.has_own_index(s, tenant_id=wanted[0].tenant_id, model=MODEL)
        assert not tenant_indexes.has_own_index(s, tenant_id=_tenant(store, "tiny"), model=MODEL)


def test_a_tenant_with_its_own_index_is_searched_through_it(store: dict[str, Any]) -> None:
    mid = _tenant(store, "mid")
    with session_scope(store["factory"]) as s:
        wanted = tenant_indexes.plan(s, min_claims=300, max_share=0.25)
    with store["engine"].connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        tenant_indexes.sync(conn, wanted)
    ids, vectors = store["tenants"]["mid"]
    query = vectors[3] + 0.5 * vectors[4]
    query /= np.linalg.norm(query)
    stmt = statement(query, model=MODEL, dim=DIM, tenant_id=mid, limit=K, filters=SearchFilters())
    sql = str(stmt.compile(dialect=store["engine"].dialect, compile_kwargs={"literal_binds": True}))
    with session_scope(store["factory"]) as s:
        plan = [r[0] for r in s.connection().exec_driver_sql("EXPLAIN " + sql).all()]
    assert any(wanted[0].name in line for line in plan), plan
    recalls, seen = [], []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql)

    sqlalchemy.event.listen(store["engine"], "before_cursor_execute", record)
    try:
        for seed in range(10):
            q = np.random.default_rng(200 + seed).normal(size=DIM).astype(np.float32)
            q /= np.linalg.norm(q)
            with session_scope(store["factory"]) as s:
                # 600 vectors are under the exact bound: the own index takes precedence
                hits = search_claims(s, q, model=MODEL, dim=DIM, k=K, tenant_id=mid, exact_max_claims=2_000)
            exact = {ids[i] for i in np.argsort(-(vectors @ q))[:K]}
            assert len(hits) == K and {h["claim_id"] for h in hits} <= set(ids)
            recalls.append(len({h["claim_id"] for h in hits} & exact) / K)
    finally:
        sqlalchemy.event.remove(store["engine"], "before_cursor_execute", record)
    searches = [sql for sql in seen if "AS nearest" in sql]
    assert len(searches) == 10 and not any("OFFSET" in sql for sql in searches), searches[:1]
    assert any("hnsw.ef_search" in sql or "set_config" in sql for sql in seen)
    # HNSW at OWN_EF_SEARCH (100) over 600 random vectors: near exact (the exact path gives 1.0)
    assert np.mean(recalls) >= 0.9, recalls


def test_a_tenant_without_one_keeps_the_exact_path(store: dict[str, Any]) -> None:
    tiny = _tenant(store, "tiny")
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql)

    ids, vectors = store["tenants"]["tiny"]
    sqlalchemy.event.listen(store["engine"], "before_cursor_execute", record)
    try:
        with session_scope(store["factory"]) as s:
            hits = search_claims(s, vectors[0], model=MODEL, dim=DIM, k=K, tenant_id=tiny)
    finally:
        sqlalchemy.event.remove(store["engine"], "before_cursor_execute", record)
    assert hits[0]["claim_id"] == ids[0]
    assert any("OFFSET" in sql for sql in seen if "AS nearest" in sql), seen


@pytest.mark.parametrize(
    ("model", "tenant", "named"),
    [(MODEL, "o'brien", True), (MODEL, "t" * 200, True), ("no-such-model", "acme", False)],
)
def test_index_names_fit_and_quote(model: str, tenant: str, named: bool) -> None:
    """Any tenant id gives a name within Postgres' 63 bytes; a model without an HNSW index none."""
    name = tenant_indexes.index_name(model, tenant)
    assert (name is not None) is named
    if name is not None:
        assert len(name) <= 63 and name.startswith("ix_claims_embedding_hnsw_minilm_l6_v2_t_")
        assert name != tenant_indexes.index_name(model, tenant + "x")


@pytest.mark.parametrize(("min_claims", "max_share"), [(0, 0.25), (10, 0.0), (10, 1.5)])
def test_plan_refuses_bad_bounds(store: dict[str, Any], min_claims: int, max_share: float) -> None:
    with session_scope(store["factory"]) as s, pytest.raises(ValueError, match="min_claims|max_share"):
        tenant_indexes.plan(s, min_claims=min_claims, max_share=max_share)


def test_the_daily_task_builds_what_the_settings_plan(
    store: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``claims.tenant_indexes`` (called in this process) plans with the settings' bounds and
    builds on the worker's engine; with ``SEARCH_TENANT_INDEX_MIN_CLAIMS`` 0 it does nothing."""
    from workers import run_tasks

    with store["engine"].connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        mid_index = tenant_indexes.index_name(MODEL, _tenant(store, "mid"))
        conn.exec_driver_sql(f"DROP INDEX IF EXISTS {mid_index}")
    monkeypatch.setattr(run_tasks, "get_engine", lambda: store["engine"])
    monkeypatch.setattr(run_tasks, "get_session_factory", lambda: store["factory"])
    off = run_tasks._settings.model_copy(update={"search_tenant_index_min_claims": 0})
    monkeypatch.setattr(run_tasks, "_settings", off)
    assert run_tasks.tenant_indexes() == {"created": [], "dropped": [], "skipped": False}
    on = off.model_copy(update={"search_tenant_index_min_claims": 300, "search_tenant_index_max_share": 0.25})
    monkeypatch.setattr(run_tasks, "_settings", on)
    mid = _tenant(store, "mid")
    name = tenant_indexes.index_name(MODEL, mid)
    assert run_tasks.tenant_indexes() == {"created": [name], "dropped": [], "skipped": False}
    assert run_tasks.tenant_indexes() == {"created": [], "dropped": [], "skipped": False}
    # turned off: the own indexes go
    monkeypatch.setattr(run_tasks, "_settings", off)
    assert run_tasks.tenant_indexes() == {"created": [], "dropped": [name], "skipped": False}


def _scans(store: dict[str, Any], name: str) -> int:
    with store["engine"].connect() as conn:
        return int(
            conn.execute(
                sqlalchemy.text("SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = :n"),
                {"n": name},
            ).scalar_one()
        )


def test_every_search_reads_the_own_index_prepared_or_not(store: dict[str, Any]) -> None:
    """Twelve searches on one pooled connection: psycopg prepares the statement after five, and a
    generic plan could not use a partial index; the search plans each with the tenant's value."""
    import time

    mid = _tenant(store, "mid")
    with session_scope(store["factory"]) as s:
        wanted = tenant_indexes.plan(s, min_claims=300, max_share=0.25)
    with store["engine"].connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        tenant_indexes.sync(conn, wanted)
    name = wanted[0].name
    before = _scans(store, name)
    _, vectors = store["tenants"]["mid"]
    for i in range(12):
        with session_scope(store["factory"]) as s:
            search_claims(s, vectors[i], model=MODEL, dim=DIM, k=K, tenant_id=mid)
    with session_scope(store["factory"]) as s:
        s.execute(sqlalchemy.text("SELECT pg_stat_force_next_flush()"))
    deadline = time.monotonic() + 10
    while _scans(store, name) < before + 12 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _scans(store, name) == before + 12


def test_sync_drops_what_the_plan_no_longer_names_and_waits_for_no_one(store: dict[str, Any]) -> None:
    with session_scope(store["factory"]) as s:
        wanted = tenant_indexes.plan(s, min_claims=300, max_share=0.25)
    engine = store["engine"]
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        tenant_indexes.sync(conn, wanted)
        # another sync holds the lock: this one does nothing
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as other:
            other.execute(sqlalchemy.text("SELECT pg_advisory_lock(:k)"), {"k": tenant_indexes._LOCK_KEY})
            try:
                assert tenant_indexes.sync(conn, []).skipped
            finally:
                other.execute(
                    sqlalchemy.text("SELECT pg_advisory_unlock(:k)"), {"k": tenant_indexes._LOCK_KEY}
                )
        assert tenant_indexes.own_indexes(conn) == [wanted[0].name]
        done = tenant_indexes.sync(conn, [])
        assert (done.created, done.dropped, done.skipped) == ((), (wanted[0].name,), False)
        assert tenant_indexes.own_indexes(conn) == []
