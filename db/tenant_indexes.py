"""A tenant's own HNSW index: a partial index of one tenant's claim vectors of one model, for
``/claims/search`` (``db.claim_search``).

pgvector applies the tenant filter after its scan, so a search of a tenant that owns a small
share of the store walks the graph of every tenant: a 9 % tenant of 1M claims reads about 3,100
buffers per query at ``ef_search`` 400 (the iterative scan goes on past the first 400
candidates), and a 1 % tenant is cheaper to read exactly than through that graph. A partial HNSW
index ``WHERE embedding_model = m AND tenant_id = t`` holds that tenant's vectors alone: the
planner picks it for a query with the same two conditions (a custom plan knows the values),
every candidate passes the filter, and a smaller candidate list reaches the same recall
(``docs/PERFORMANCE.md``, "The claim store at 1M claims").

Which tenants get one (``plan``): at least ``min_claims`` vectors of the model and at most
``max_share`` of the model's vectors (a tenant that owns most of the store gains nothing: its
filter keeps most candidates anyway, and its graph would double the global one).

Which tenants keep one: ``sync`` creates the planned ones with ``CREATE INDEX CONCURRENTLY`` (no
lock against writes; outside a transaction) and drops every own index the plan no longer names;
an interrupted build leaves an invalid index that ``sync`` drops and makes again, and that the
search never uses (``has_own_index`` reads ``pg_index.indisvalid``). One ``sync`` at a time (an
advisory lock). A tenant's inserts update two graphs (about twice the HNSW insert cost for that
tenant's rows).

Names: the model's index name of ``db.models.HNSW_INDEXES`` + ``_t_`` + the first 12 hex digits
of the tenant id's SHA-256 (at most 63 bytes, any tenant id); ``migrations/env.py`` ignores every
index whose name starts with ``ix_claims_embedding_hnsw``.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from db.models import HNSW_INDEXES

__all__ = [
    "MAX_SHARE",
    "MIN_CLAIMS",
    "OwnIndex",
    "SyncResult",
    "clear_cache",
    "has_own_index",
    "index_name",
    "own_indexes",
    "plan",
    "sync",
]

#: Default least number of a tenant's vectors of a model for an own index (below it the exact
#: scan of ``db.claim_search`` costs less than 10 ms; setting ``SEARCH_TENANT_INDEX_MIN_CLAIMS``).
MIN_CLAIMS = 5_000
#: Default largest share of a model's vectors a tenant may own and get an own index (setting
#: ``SEARCH_TENANT_INDEX_MAX_SHARE``).
MAX_SHARE = 0.25
#: Seconds a process keeps what ``has_own_index`` read (it chooses the path, never the result;
#: after ``sync`` dropped an index elsewhere, a process may search the shared graph for this long
#: at the own index's ``ef_search``).
TTL_S = 30.0
_seen: dict[tuple[str, str], tuple[float, bool]] = {}
#: whether the index named ``:n`` is valid; no row: there is none
_VALID = text(
    "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = :n"
)


@dataclass(frozen=True, slots=True)
class SyncResult:
    """What ``sync`` did: the own indexes ``created`` and ``dropped`` (names), or ``skipped``
    (another ``sync`` held the lock)."""

    created: tuple[str, ...]
    dropped: tuple[str, ...]
    skipped: bool = False


@dataclass(frozen=True, slots=True)
class OwnIndex:
    """A tenant's own index: its name, the tenant, the model, its dimension, and the tenant's
    vectors of the model when planned."""

    name: str
    tenant_id: str
    model: str
    dim: int
    claims: int


def index_name(model: str, tenant_id: str) -> str | None:
    """The name of ``tenant_id``'s own index of ``model``; None for a model without an HNSW index
    of its own (``db.models.HNSW_INDEXES``)."""
    base = next((name for name, m, _ in HNSW_INDEXES if m == model), None)
    if base is None:
        return None
    return f"{base}_t_{hashlib.sha256(tenant_id.encode()).hexdigest()[:12]}"


def has_own_index(session: Session, *, tenant_id: str, model: str) -> bool:
    """Whether ``tenant_id`` has a valid own index of ``model`` (read from ``pg_index``, kept for
    ``TTL_S`` per database, tenant and model)."""
    name = index_name(model, tenant_id)
    if name is None:
        return False
    key = (str(session.get_bind().engine.url), name)
    now = time.monotonic()
    kept = _seen.get(key)
    if kept is None or now - kept[0] > TTL_S:
        valid = session.execute(_VALID, {"n": name}).scalar_one_or_none()
        kept = (now, bool(valid))
        _seen[key] = kept
    return kept[1]


def plan(session: Session, *, min_claims: int = MIN_CLAIMS, max_share: float = MAX_SHARE) -> list[OwnIndex]:
    """The own indexes the store should have: per model of ``HNSW_INDEXES``, each tenant with at
    least ``min_claims`` vectors of it and at most ``max_share`` (0 to 1) of them. One grouped
    count over ``claims`` (the ``(tenant_id, embedding_model)`` index). Raises ``ValueError`` for
    ``min_claims`` < 1 or ``max_share`` outside (0, 1]."""
    if min_claims < 1:
        raise ValueError(f"min_claims: must be at least 1, got {min_claims}")
    if not 0 < max_share <= 1:
        raise ValueError(f"max_share: must be in (0, 1], got {max_share}")
    dims = {model: dim for _, model, dim in HNSW_INDEXES}
    rows = session.execute(
        text(
            "SELECT tenant_id, embedding_model, count(*) FROM claims "
            "WHERE embedding_model = ANY(:models) GROUP BY tenant_id, embedding_model"
        ),
        {"models": list(dims)},
    ).all()
    totals: dict[str, int] = {}
    for _, model, n in rows:
        totals[model] = totals.get(model, 0) + int(n)
    out = []
    for tenant_id, model, n in sorted(rows):
        name = index_name(model, tenant_id)
        if name is not None and n >= min_claims and n <= max_share * totals[model]:
            out.append(OwnIndex(name, tenant_id, model, dims[model], int(n)))
    return out


def _literal(value: str) -> str:
    """``value`` as an SQL string literal (quotes doubled; DDL takes no parameters)."""
    return "'" + value.replace("'", "''") + "'"


#: the advisory lock key of ``sync`` (one build at a time per database: a second caller skips)
_LOCK_KEY = 0x636C_6169_6D69_6478 & 0x7FFF_FFFF_FFFF_FFFF


def own_indexes(conn: Connection) -> list[str]:
    """The names of the own indexes that exist (valid or not), sorted."""
    names = [n for n, _, _ in HNSW_INDEXES]
    rows = conn.execute(
        text("SELECT indexname FROM pg_indexes WHERE tablename = 'claims' AND indexname LIKE ANY(:p)"),
        {"p": [name.replace("_", "\\_") + "\\_t\\_%" for name in names]},
    ).scalars()
    return sorted(rows)


def sync(conn: Connection, wanted: list[OwnIndex], *, m: int = 16, ef_construction: int = 64) -> SyncResult:
    """Make the own indexes those of ``wanted``, on ``conn``, a connection with
    ``isolation_level="AUTOCOMMIT"`` (``CREATE`` / ``DROP INDEX CONCURRENTLY`` cannot run in a
    transaction; writes go on meanwhile): create each one missing (an invalid one, what an
    interrupted build leaves, is dropped and made again) and drop every own index that
    ``wanted`` no longer names (a tenant grown past the share, shrunk under the least size or
    gone, or own indexes turned off). Under a session advisory lock: while another ``sync`` runs,
    this one does nothing and says so (``SyncResult.skipped``). ``m`` / ``ef_construction``: as
    the migration's global index."""
    if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _LOCK_KEY}).scalar_one():
        return SyncResult((), (), skipped=True)
    try:
        made, dropped = [], []
        keep = {own.name for own in wanted}
        for name in own_indexes(conn):
            if name not in keep:
                conn.exec_driver_sql(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
                dropped.append(name)
        for own in wanted:
            state = conn.execute(_VALID, {"n": own.name}).scalar_one_or_none()
            if state:
                continue
            if state is not None:
                conn.exec_driver_sql(f"DROP INDEX CONCURRENTLY IF EXISTS {own.name}")
            conn.exec_driver_sql(
                f"CREATE INDEX CONCURRENTLY {own.name} ON claims USING hnsw "
                f"((embedding::vector({own.dim})) vector_cosine_ops) "
                f"WITH (m = {int(m)}, ef_construction = {int(ef_construction)}) "
                f"WHERE embedding_model = {_literal(own.model)} AND tenant_id = {_literal(own.tenant_id)}"
            )
            made.append(own.name)
    finally:
        conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _LOCK_KEY})
        _seen.clear()
    return SyncResult(tuple(made), tuple(dropped))


def clear_cache() -> None:
    """Forget what ``has_own_index`` read (after an index is made or dropped elsewhere)."""
    _seen.clear()
