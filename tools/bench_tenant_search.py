"""Recall of tenant-filtered vector search (``db.repository.search_claims``) against exact search.

Builds a throw-away database (``claimaudit_bench_<random>`` on the local stack's Postgres, or on
the server of ``DATABASE_URL``), stores ``--n`` 384-dimensional vectors of the local model in
three tenants (``big`` 90 %, ``mid`` 9 %, ``small`` 1 % of the rows; clustered like sentence
embeddings: 300 Gaussian clusters, unit length), and for ``--queries`` queries of the same
distribution compares the top ``k`` of each tenant with the exact top ``k`` (numpy). Modes:

deployed   ``search_claims`` as the API runs it (iterative scan ``relaxed_order``; a tenant with
           at most ``SEARCH_EXACT_MAX_CLAIMS`` vectors is searched exactly, and the planner may
           pick the ``(tenant_id, embedding_model)`` b-tree and an exact sort for a larger one)
hnsw_off   HNSW forced (b-tree and sequential scans off), ``hnsw.iterative_scan = off``: pgvector
           0.7 behaviour, the filter applied after ``ef_search`` candidates
hnsw_iter  HNSW forced, ``hnsw.iterative_scan = relaxed_order``

Each with ``k`` candidates and with ``4 k`` (``--overfetch``: ``search_claims`` keeps the exact
best ``k`` of ``k * overfetch``; the API uses 4). Prints recall@k per tenant and mode, and
milliseconds per query (on a shared machine: a rough guide). The database is dropped at the
end. Figures of a run are in the README ("Tenants, API keys and limits").

    .venv/bin/python tools/bench_tenant_search.py --n 20000 --queries 50
"""

from __future__ import annotations

import argparse
import time
import uuid
from typing import Any

import numpy as np
import sqlalchemy
from sqlalchemy.engine import make_url

from db import repository as repo
from db.claim_search import EXACT_MAX_CLAIMS
from db.engine import make_engine, make_session_factory, normalise_url
from db.models import HNSW_INDEXES

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
DIM = 384
SHARES = {"big": 0.90, "mid": 0.09, "small": 0.01}
#: The local model's partial HNSW index, as migration 0001_initial makes it.
INDEX = next(name for name, model, _dim in HNSW_INDEXES if model == MODEL)
INDEX_DDL = (
    f"CREATE INDEX {INDEX} ON claims USING hnsw ((embedding::vector({DIM})) vector_cosine_ops) "
    f"WHERE embedding_model = '{MODEL}'"
)


def vectors(rng: np.random.Generator, centers: np.ndarray, n: int) -> np.ndarray:
    picks = rng.integers(0, len(centers), n)
    out = centers[picks] + rng.normal(0, 0.35, (n, DIM)).astype(np.float32) / np.sqrt(DIM) * 4
    return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)


def fill(
    factory: Any, rng: np.random.Generator, centers: np.ndarray, n: int
) -> dict[str, tuple[np.ndarray, list[int]]]:
    stored: dict[str, tuple[np.ndarray, list[int]]] = {}
    for tenant, share in SHARES.items():
        count = max(1, int(n * share))
        vecs = vectors(rng, centers, count)
        with factory() as s:
            audit, _ = repo.create_audit(
                s, repo.NewAudit(response="r", references=[], request_sha256="0" * 64, tenant_id=tenant)
            )
            doc = repo.get_documents(s, audit.id)[0]
            rows = [
                {"document_id": doc.id, "role": "response", "position": i, "text": f"{tenant} {i}",
                 "char_start": 0, "char_end": 1, "kind": "material", "duplicates": 0, "ambiguous": False}
                for i in range(count)
            ]  # fmt: skip
            repo.replace_claims(s, audit.id, rows)
            ids = [c.id for c in repo.list_claims(s, audit.id)]
            repo.set_embeddings(s, ids, vecs, model=MODEL, dim=DIM)
            s.commit()
        stored[tenant] = (vecs, ids)
    return stored


def run_mode(
    factory: Any, mode: str, queries: np.ndarray, tenant: str, k: int, ef: int, overfetch: int
) -> tuple[list[list[int]], float]:
    found, started = [], time.perf_counter()
    for q in queries:
        with factory() as s:
            if mode != "deployed":
                for name in ("enable_seqscan", "enable_bitmapscan", "enable_indexscan"):
                    s.execute(sqlalchemy.text(f"SET LOCAL {name} = off"))
                s.execute(sqlalchemy.text("SET LOCAL enable_indexscan = on"))
                s.execute(sqlalchemy.text("DROP INDEX IF EXISTS ix_claims_tenant_id_embedding_model"))
            scan = "off" if mode == "hnsw_off" else "relaxed_order"
            hits = repo.search_claims(
                s, q, model=MODEL, dim=DIM, k=k, ef_search=ef, tenant_id=tenant, iterative_scan=scan,
                overfetch=overfetch, exact_max_claims=EXACT_MAX_CLAIMS if mode == "deployed" else 0,
            )  # fmt: skip
            s.rollback()  # the DROP INDEX of the forced modes is undone
        found.append([h["claim_id"] for h in hits])
    return found, (time.perf_counter() - started) * 1000 / len(queries)


def measure(
    factory: Any,
    stored: dict[str, tuple[np.ndarray, list[int]]],
    queries: np.ndarray,
    k: int,
    ef: int,
    overfetch: int,
) -> None:
    """Print recall@k and ms/query per tenant and mode."""
    print(f"recall@{k} over {len(queries)} queries, ef_search {ef}, {k * overfetch} candidates")
    print(f"{'tenant':8} {'rows':>6} {'mode':10} {'recall':>7} {'ms/query':>9}")
    for tenant, (vecs, ids) in stored.items():
        exact = [[ids[j] for j in np.argsort(-(vecs @ q), kind="stable")[:k]] for q in queries]
        for mode in ("deployed", "hnsw_off", "hnsw_iter"):
            found, ms = run_mode(factory, mode, queries, tenant, k, ef, overfetch)
            recall = np.mean([len(set(f) & set(e)) / len(e) for f, e in zip(found, exact, strict=True)])
            print(f"{tenant:8} {len(ids):>6} {mode:10} {recall:>7.3f} {ms:>9.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--ef-search", type=int, default=100)
    parser.add_argument("--overfetch", type=int, nargs="+", default=[1, 4], help="candidates per hit")
    args = parser.parse_args()

    import os

    base = os.environ.get("DATABASE_URL")
    if not base:
        from cli import stack

        base = stack.ensure_postgres()
    server = make_url(normalise_url(base)).set(database="postgres")
    name = f"claimaudit_bench_{uuid.uuid4().hex[:8]}"
    admin = make_engine(server.render_as_string(hide_password=False), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    url = server.set(database=name).render_as_string(hide_password=False)
    try:
        from alembic import command
        from alembic.config import Config

        cfg = Config("alembic.ini")
        cfg.set_main_option("sqlalchemy.url", url)
        command.upgrade(cfg, "head")
        engine = make_engine(url)
        factory = make_session_factory(engine)
        with engine.begin() as conn:  # bulk-build the HNSW index after loading (minutes faster)
            conn.execute(sqlalchemy.text(f"DROP INDEX {INDEX}"))
        rng = np.random.default_rng(0)
        centers = rng.normal(0, 1, (300, DIM)).astype(np.float32)
        centers /= np.linalg.norm(centers, axis=1, keepdims=True)
        t0 = time.perf_counter()
        stored = fill(factory, rng, centers, args.n)
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text("SET maintenance_work_mem = '512MB'"))
            conn.execute(sqlalchemy.text(INDEX_DDL))
        rows = sum(len(v[1]) for v in stored.values())
        print(f"stored and indexed {rows} vectors in {time.perf_counter() - t0:.0f} s")
        with engine.connect() as conn:
            print(
                "pgvector",
                conn.execute(
                    sqlalchemy.text("SELECT extversion FROM pg_extension WHERE extname='vector'")
                ).scalar(),
            )
            conn.execute(sqlalchemy.text("ANALYZE claims"))
            conn.commit()
        queries = vectors(rng, centers, args.queries)
        for overfetch in args.overfetch:
            measure(factory, stored, queries, args.k, args.ef_search, overfetch)
        engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


if __name__ == "__main__":
    main()
