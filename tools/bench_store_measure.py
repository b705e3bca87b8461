"""Measurements of ``tools/bench_store.py`` on a loaded store: similar-claim search (latency and
recall@10 against exact search), the README's analyst SQL as a tenant login, insert cost."""

from __future__ import annotations

import argparse
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg

from tools.bench_store_data import (
    CLAIMS_PER_AUDIT,
    DIM,
    MODEL,
    MODELS,
    RESPONSE_CLAIMS,
    SUITES,
    TENANTS,
    Corpus,
    vary,
)
from tools.readme_sql import _percentile, readme_queries

K = 10
LOGIN_TENANT = "acme"
INSERT_TENANT = "bench-insert"
SIMILAR = "the response claims nearest to :'q', with their verdicts"


@dataclass(frozen=True)
class Shape:
    """One query shape: a tenant, an optional role filter, and how it is run (``api``:
    ``search_claims`` as ``/claims/search`` runs it; ``login``: the README's query as a login)."""

    name: str
    tenant: str
    role: str | None
    via: str


SHAPES = (
    Shape("api acme (60 %)", "acme", None, "api"),
    Shape("api initech (9 %)", "initech", None, "api"),
    Shape("api umbrella (1 %)", "umbrella", None, "api"),
    Shape("api acme role=response", "acme", "response", "api"),
    Shape("README login acme (role=response, verdicts)", "acme", "response", "login"),
)


def exact_top(vectors: np.ndarray, rows: np.ndarray, queries: np.ndarray, k: int = K) -> list[set[int]]:
    """Claim ids (row + 1) of the exact top ``k`` by cosine among ``rows`` for each query."""
    best_s = np.full((len(queries), 0), -np.inf, dtype=np.float32)
    best_i = np.zeros((len(queries), 0), dtype=np.int64)
    for start in range(0, len(rows), 200_000):
        part = rows[start : start + 200_000]
        sims = (np.asarray(vectors[part]) @ queries.T).T  # (q, rows)
        top = np.argpartition(-sims, min(k, sims.shape[1] - 1), axis=1)[:, :k]
        best_s = np.concatenate([best_s, np.take_along_axis(sims, top, axis=1)], axis=1)
        best_i = np.concatenate([best_i, part[top]], axis=1)
        keep = np.argsort(-best_s, axis=1)[:, :k]
        best_s, best_i = np.take_along_axis(best_s, keep, axis=1), np.take_along_axis(best_i, keep, axis=1)
    return [set((row + 1).tolist()) for row in best_i]


def _rows(lay: Any, tenant: str, role: str | None) -> np.ndarray:
    t = [name for name, _ in TENANTS].index(tenant)
    rows = np.flatnonzero(np.repeat(lay.tenant_of == t, CLAIMS_PER_AUDIT))
    if role == "response":
        rows = rows[rows % CLAIMS_PER_AUDIT < RESPONSE_CLAIMS]
    return rows


def _api_runner(url: str, shape: Shape, ef: int, own_ef: int) -> Callable[[np.ndarray], list[int]]:
    from db.claim_search import SearchFilters, search_claims
    from db.engine import make_engine, make_session_factory

    factory = make_session_factory(make_engine(url.replace("postgresql://", "postgresql+psycopg://", 1)))

    def run(q: np.ndarray) -> list[int]:
        with factory() as s:
            hits = search_claims(
                s, q, model=MODEL, dim=DIM, k=K, ef_search=ef, tenant_id=shape.tenant,
                filters=SearchFilters(role=shape.role), own_ef_search=own_ef,
            )  # fmt: skip
            s.rollback()
        return [h["claim_id"] for h in hits]

    return run


def _login_runner(conn: psycopg.Connection, ef: int) -> Callable[[np.ndarray], list[int]]:
    from pgvector import Vector

    query = next(q for q in readme_queries() if q.name == SIMILAR)

    def run(q: np.ndarray) -> list[int]:
        statements = query.statements(Vector(q).to_text())
        conn.execute(f"SET hnsw.ef_search = {ef}")
        rows: list[Any] = []
        for st in statements:
            cur = conn.execute(st.replace("SELECT c.audit_id,", "SELECT c.id, c.audit_id,", 1))
            rows = cur.fetchall() if cur.description is not None else rows
        return [r[0] for r in rows]

    return run


def search(
    args: argparse.Namespace, url: str, login: str, corpus: Corpus, vectors: np.ndarray, lay: Any
) -> dict[str, Any]:
    """Every shape at every ``--ef-search``: ``{(shape, ef): (times_ms, recalls)}``, printed."""
    queries = corpus.queries
    out: dict[Any, tuple[list[float], list[float]]] = {}
    print(f"search: {len(queries)} held-out real claims, k={K}; ms per query (p50 / p95), recall@{K}")
    with psycopg.connect(login, autocommit=True) as conn:
        for shape in SHAPES:
            truth = exact_top(vectors, _rows(lay, shape.tenant, shape.role), queries)
            for ef in args.ef_search:
                run = (
                    _login_runner(conn, ef)
                    if shape.via == "login"
                    else _api_runner(url, shape, ef, args.own_ef_search)
                )
                times, recalls = [], []
                for q, exact in zip(queries, truth, strict=True):
                    started = time.perf_counter()
                    found = run(q)
                    times.append((time.perf_counter() - started) * 1000)
                    recalls.append(len(set(found) & exact) / len(exact))
                out[(shape, ef)] = (times, recalls)
                print(
                    f"  {shape.name:45} ef_search {ef:4}  p50 {_percentile(times, 50):7.1f}  "
                    f"p95 {_percentile(times, 95):7.1f}  recall@{K} {np.mean(recalls):.3f}",
                    flush=True,
                )
    return out


def analyst(login: str, corpus: Corpus, repeat: int) -> float:
    """p95 (ms) over every README analyst query run ``repeat`` times as the login, each run with
    another query vector, suite and model; per-query p50/p95 printed, and the plan of a query
    whose p95 is over 1 s."""
    from pgvector import Vector

    every: list[float] = []
    print(f"analyst SQL as a login of {LOGIN_TENANT}: {repeat} runs each, parameters varied")
    with psycopg.connect(login, autocommit=True) as conn:
        for query in readme_queries():
            times = []
            for i in range(repeat):
                sql = query.sql.replace("'support-bot'", f"'{SUITES[i % len(SUITES)]}'")
                sql = sql.replace('"gpt-4o"', f'"{MODELS[i % len(MODELS)]}"')
                vector = Vector(corpus.queries[i % len(corpus.queries)]).to_text()
                statements = type(query)(query.section, query.name, sql).statements(vector)
                started = time.perf_counter()
                for st in statements:
                    cur = conn.execute(st)
                    if cur.description is not None:
                        cur.fetchall()
                times.append((time.perf_counter() - started) * 1000)
            every += times
            p95 = _percentile(times, 95)
            print(f"  {query.name[:80]:82} p50 {_percentile(times, 50):8.1f}  p95 {p95:8.1f}", flush=True)
            if p95 > 1000:
                plan = conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + statements[-1]).fetchall()
                print("\n".join("      " + r[0] for r in plan[:40]))
    return _percentile(every, 95)


def make_login(url: str) -> tuple[str, str]:
    """A new SQL login of ``LOGIN_TENANT`` (``db.sql_logins``): ``(its URL, its role)``. Roles
    are the server's, not the database's: the name is random, and ``drop_login`` revokes it."""
    from db.engine import make_engine, make_session_factory
    from db.sql_logins import create_sql_login, login_url

    engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with make_session_factory(engine)() as s:
        login, password = create_sql_login(s, tenant_id=LOGIN_TENANT, name=f"bench{uuid.uuid4().hex[:8]}")
        s.commit()
    engine.dispose()
    return login_url(url, login.role, password), login.role


def drop_login(url: str, role: str) -> None:
    from db.engine import make_engine, make_session_factory
    from db.sql_logins import revoke_sql_login

    engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with make_session_factory(engine)() as s:
        revoke_sql_login(s, role)
        s.commit()
    engine.dispose()


def insert_cost(url: str, corpus: Corpus, count: int, seed: int) -> float:
    """Milliseconds per claim row (with its vector, so with its HNSW insert) for ``count`` claims
    of a new audit inserted in batches of 100 rows, one commit per batch."""
    from pgvector.psycopg import register_vector

    rng = np.random.default_rng(seed + 7)
    parents = rng.integers(0, len(corpus.pool), count)
    vectors = next(vary(corpus.pool, parents, seed + 7, chunk=count))
    audit = uuid.uuid4()
    with psycopg.connect(url) as conn:
        register_vector(conn)
        conn.execute("INSERT INTO tenants (id) VALUES (%s) ON CONFLICT DO NOTHING", (INSERT_TENANT,))
        conn.execute(
            "INSERT INTO audits (id, tenant_id, status, request_sha256) VALUES (%s, %s, 'done', %s)",
            (audit, INSERT_TENANT, "0" * 64),
        )
        doc = conn.execute(
            "INSERT INTO documents (audit_id, role, position, text, sha256) "
            "VALUES (%s, 'response', 0, 'bench', %s) RETURNING id",
            (audit, "0" * 64),
        ).fetchone()
        conn.commit()
        sql = (
            "INSERT INTO claims (audit_id, document_id, role, position, text, char_start, char_end, kind, "
            "embedding, embedding_model, embedding_dim) "
            "VALUES (%s, %s, 'response', %s, %s, 0, 5, 'material', %s, %s, %s)"
        )
        doc_id = doc[0] if doc else None
        started = time.perf_counter()
        for start in range(0, count, 100):
            with conn.cursor() as cur:
                cur.executemany(
                    sql,
                    [(audit, doc_id, i, corpus.pool_texts[parents[i]], vectors[i], MODEL, DIM)
                     for i in range(start, min(count, start + 100))],
                )  # fmt: skip
            conn.commit()
        took = time.perf_counter() - started
    return took * 1000 / count


def warm_up(url: str, corpus: Corpus) -> None:
    """One untimed pass of every query (largest tenant, no filter, ef_search 200): the figures are
    of a warm store (``pg_prewarm`` is not in the pgserver build)."""
    run = _api_runner(url, SHAPES[0], 200, 200)
    for q in corpus.queries:
        run(q)


def sizes(url: str) -> None:
    """Print the sizes of the claims table (with TOAST) and of the HNSW index."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT pg_total_relation_size('claims') - pg_indexes_size('claims'), "
            "pg_relation_size('ix_claims_embedding_hnsw_minilm_l6_v2'), "
            "(SELECT count(*) FROM claims)"
        ).fetchone()
    if row:
        mib = 1024 * 1024
        print(f"store: {row[2]} claims; table {row[0] / mib:.0f} MiB, HNSW index {row[1] / mib:.0f} MiB")


def retention(url: str, days: float, state_path: Any) -> None:
    """Delete the audits older than ``days`` days (``db.retention.delete_old_audits``, batches of
    500, one transaction each; claims go by cascade) and ``VACUUM (INDEX_CLEANUP ON) claims``
    (pgvector repairs the HNSW graph around the deleted vectors); print both times. The store
    then holds fewer claims: ``state_path`` is removed, so the next run rebuilds it."""
    from db.engine import make_engine, make_session_factory
    from db.retention import delete_old_audits

    engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    factory = make_session_factory(engine)
    with psycopg.connect(url) as conn:
        before = conn.execute("SELECT count(*) FROM claims").fetchone()
    started, audits = time.perf_counter(), 0
    while True:
        with factory() as s:
            n = delete_old_audits(s, older_than_days=days)
            s.commit()
        audits += n
        if n < 500:
            break
    deleted_s = time.perf_counter() - started
    engine.dispose()
    with psycopg.connect(url, autocommit=True) as conn:
        after = conn.execute("SELECT count(*) FROM claims").fetchone()
        started = time.perf_counter()
        # INDEX_CLEANUP ON: without it Postgres skips the index pass when few pages have dead tuples
        conn.execute("VACUUM (INDEX_CLEANUP ON) claims")
        vacuum_s = time.perf_counter() - started
    state_path.unlink(missing_ok=True)
    gone = (before[0] if before else 0) - (after[0] if after else 0)
    print(
        f"retention: {audits} audits ({gone} claims) older than {days:g} days deleted in {deleted_s:.1f} s; "
        f"VACUUM (INDEX_CLEANUP ON) claims (HNSW repair) {vacuum_s:.1f} s"
    )


def measure(
    args: argparse.Namespace, url: str, corpus: Corpus, vectors: np.ndarray, lay: Any, state: dict[str, Any]
) -> int:
    """Run every measurement and print the summary line; 0."""
    sizes(url)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    warm_up(url, corpus)
    login, role = make_login(url)
    try:
        results = search(args, url, login, corpus, vectors, lay)
        analyst_p95 = analyst(login, corpus, args.repeat)
    finally:
        drop_login(url, role)
    insert_ms = insert_cost(url, corpus, args.insert, args.seed)
    print(f"insert: {args.insert} claims with vectors, batches of 100: {insert_ms:.2f} ms per row")
    headline = [v for (shape, ef), v in results.items() if shape.via == "api" and ef == args.headline_ef]
    times = [t for ts, _ in headline for t in ts]
    recalls = [r for _, rs in headline for r in rs]
    if args.retention_days is not None:
        retention(url, args.retention_days, args.dir / f"state-{args.claims}.json")
    print(f"machine: load average {os.getloadavg()[0]:.1f} at the end")
    hnsw = state["hnsw"]
    print(
        f"hnsw: m={hnsw['m']} ef_construction={hnsw['ef_construction']} "
        f"maintenance_work_mem={hnsw['maintenance_work_mem']} "
        f"max_parallel_maintenance_workers={hnsw['max_parallel_maintenance_workers']} "
        f"build {state['hnsw_build_s']} s"
    )
    print(
        f"search_p95_ms_1m={_percentile(times, 95):.1f} recall10_1m={np.mean(recalls):.3f} "
        f"analyst_p95_ms_1m={analyst_p95:.1f} hnsw_build_s={state['hnsw_build_s']:.1f} "
        f"insert_ms_per_row_1m={insert_ms:.2f}"
    )
    return 0
