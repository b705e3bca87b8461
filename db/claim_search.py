"""Nearest stored claims of one tenant (``/claims/search``, ``claimaudit search``): HNSW with
pgvector's iterative index scan, filtered by role, verdict, suite, run and audit metadata.

The query orders by ``embedding::vector(dim) <=> :q`` among vectors of one model, the form the
per-model partial HNSW index of ``db.models.HNSW_INDEXES`` serves. pgvector applies a ``WHERE``
(the tenant, the filters) after its scan: with a plain scan only ``hnsw.ef_search`` candidates
are read, so a filter that keeps few of them returns fewer than ``k`` rows. The search therefore
runs with ``hnsw.iterative_scan = relaxed_order``: the scan goes on until enough rows pass the
filters or ``hnsw.max_scan_tuples`` tuples were visited, and the exact best ``k`` of ``k *
overfetch`` candidates are kept.

A small tenant is searched exactly instead. The HNSW scan walks the graph of every tenant, so
for a tenant that owns a small share of the store it visits many tuples per kept row (a 1 %
tenant of 1M claims: p50 / p95 147 / 240 ms), while reading the tenant's own vectors through
``ix_claims_tenant_id_embedding_model`` and sorting them costs in proportion to its size (30 /
40 ms for 10,000 vectors; ``docs/PERFORMANCE.md``, "The claim store at 1M claims"). The search
counts the tenant's vectors of the model, up to ``exact_max_claims`` + 1 (an index-only scan
that stops there, so a large tenant pays for ``exact_max_claims`` index entries at most: about 3
ms at 20,000; a process keeps the count for ``COUNT_TTL_S``), and at or below that bound
orders by the distance outside an ``OFFSET 0`` subquery, which no index can serve: the planner
reads the tenant's rows through the b-tree and sorts them (recall 1).

A tenant with an HNSW index of its own (``db.tenant_indexes``: a partial index of its vectors of
the model) is searched through it, ahead of the exact path and with its own ``hnsw.ef_search``
(``OWN_EF_SEARCH``): the planner picks the partial index for a query with the same tenant and
model, and every candidate it reads is the tenant's.
Recall of the HNSW path: ``tools/bench_store.py``, ``tools/bench_tenant_search.py``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import ColumnElement, Select, cast, select, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Session

from db.models import DEFAULT_TENANT, ROLES, VERDICTS, Audit, ClaimRow, Document, VerdictRow
from db.run_models import Run, RunItem
from db.tenant_indexes import has_own_index

__all__ = ["EXACT_MAX_CLAIMS", "OWN_EF_SEARCH", "SearchFilters", "search_claims", "tenant_vectors"]

#: Default bound of the exact path: a tenant with at most this many vectors of the model is
#: searched exactly. The crossover measured at 1M claims lies between 10,000 and 90,000 vectors
#: (``docs/PERFORMANCE.md``, "The claim store at 1M claims"); the setting ``SEARCH_EXACT_MAX_CLAIMS``.
EXACT_MAX_CLAIMS = 20_000
#: Default ``hnsw.ef_search`` in a tenant's own index (``db.tenant_indexes``): every candidate
#: is the tenant's, so a shorter list reaches the recall of the shared graph at
#: ``HNSW_EF_SEARCH`` (setting ``HNSW_EF_SEARCH_OWN``; docs/PERFORMANCE.md).
OWN_EF_SEARCH = 100
#: Seconds a process reuses a tenant's bounded count (it only chooses the path, never the result).
COUNT_TTL_S = 300.0
_counts: dict[tuple[str, str, str, int], tuple[float, int]] = {}


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """What a hit must be: ``role`` (response | reference), ``verdict`` (one of
    ``db.models.VERDICTS``; only response claims have one), ``suite`` (its audit is an item of a
    run of that suite), ``run`` (of that run: its id, or its label), ``metadata`` (its audit's
    metadata contains this JSON object, ``@>``). None: no condition.

    Raises ``ValueError`` naming the field for an unknown role or verdict, a verdict with role
    ``reference``, or metadata that is not an object.
    """

    role: str | None = None
    verdict: str | None = None
    suite: str | None = None
    run: str | None = None
    metadata: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.role is not None and self.role not in ROLES:
            raise ValueError(f"role: must be one of {', '.join(ROLES)}, got {self.role!r}")
        if self.verdict is not None and self.verdict not in VERDICTS:
            raise ValueError(f"verdict: must be one of {', '.join(VERDICTS)}, got {self.verdict!r}")
        if self.verdict is not None and self.role == "reference":
            raise ValueError("verdict: reference claims have no verdict (use role=response or omit role)")
        if self.metadata is not None and not isinstance(self.metadata, Mapping):
            raise ValueError("metadata: must be a JSON object")

    def to_dict(self) -> dict[str, Any]:
        """The filters set, as JSON (a Celery message's kwargs)."""
        return {
            k: (dict(v) if isinstance(v, Mapping) else v) for k, v in asdict(self).items() if v is not None
        }


def _set_local(session: Session, values: Mapping[str, object]) -> None:
    """``SET LOCAL`` each setting (``set_config(name, value, true)``: ends with the transaction),
    all in one statement (one round trip)."""
    if not values:
        return
    calls = ", ".join(f"set_config(:n{i}, :v{i}, true)" for i in range(len(values)))
    params: dict[str, str] = {}
    for i, (name, value) in enumerate(values.items()):
        params[f"n{i}"], params[f"v{i}"] = name, str(value)
    session.execute(text(f"SELECT {calls}"), params)


def _of_claims_run(column: Any) -> Any:
    """``column`` of the run whose item the claim's audit is (a scalar subquery; NULL: none)."""
    stmt = select(column).join(RunItem, RunItem.run_id == Run.id).where(RunItem.audit_id == ClaimRow.audit_id)
    return stmt.limit(1).scalar_subquery()


def _conditions(f: SearchFilters) -> list[ColumnElement[bool]]:
    """The filters on a claim row, each a scalar subquery of that row (a filter of the index scan,
    never a join the planner could put before the ordered scan)."""
    out: list[ColumnElement[bool]] = []
    if f.role is not None:
        out.append(ClaimRow.role == f.role)
    if f.verdict is not None:
        out.append(
            select(VerdictRow.verdict).where(VerdictRow.claim_id == ClaimRow.id).scalar_subquery()
            == f.verdict
        )
    if f.suite is not None:
        out.append(_of_claims_run(Run.suite) == f.suite)
    if f.run is not None:
        try:
            out.append(_of_claims_run(Run.id) == uuid.UUID(f.run))
        except ValueError:
            out.append(_of_claims_run(Run.label) == f.run)
    if f.metadata is not None:
        meta = select(Audit.metadata_).where(Audit.id == ClaimRow.audit_id).scalar_subquery()
        out.append(meta.op("@>")(cast(dict(f.metadata), JSONB)))
    return out


def _search_hit(row: Any) -> dict[str, Any]:
    return {
        "claim_id": row.id,
        "audit_id": row.audit_id,
        "role": row.role,
        "reference": row.reference if row.role == "reference" else None,
        "position": row.position,
        "text": row.text,
        "start": row.char_start,
        "end": row.char_end,
        "kind": row.kind,
        "similarity": float(1 - row.distance),
        "audit_created_at": row.created_at,
        "verdict": row.verdict,
        "suite": row.suite,
        "run_id": row.run_id,
        "run_label": row.run_label,
    }


def tenant_vectors(session: Session, *, tenant_id: str, model: str, bound: int) -> int:
    """How many claims of ``tenant_id`` have a vector of ``model``, counted up to ``bound`` + 1
    (an index-only scan of ``ix_claims_tenant_id_embedding_model`` that stops there): a value
    above ``bound`` means "more than ``bound``". ``bound`` >= 0."""
    stmt = text(
        "SELECT count(*) FROM (SELECT 1 FROM claims WHERE tenant_id = :t AND embedding_model = :m "
        "LIMIT :n) AS bounded"
    )
    return int(session.execute(stmt, {"t": tenant_id, "m": model, "n": bound + 1}).scalar_one())


def _is_small(session: Session, *, tenant_id: str, model: str, bound: int) -> bool:
    """Whether the tenant has at most ``bound`` vectors of ``model`` (:func:`tenant_vectors`,
    reused for ``COUNT_TTL_S`` per database, tenant, model and bound)."""
    key = (str(session.get_bind().engine.url), tenant_id, model, bound)
    now = time.monotonic()
    kept = _counts.get(key)
    if kept is None or now - kept[0] > COUNT_TTL_S:
        kept = (now, tenant_vectors(session, tenant_id=tenant_id, model=model, bound=bound))
        _counts[key] = kept
    return kept[1] <= bound


def statement(
    query: np.ndarray,
    *,
    model: str,
    dim: int,
    tenant_id: str,
    limit: int,
    filters: SearchFilters,
    exact: bool = False,
) -> Select[Any]:
    """The search's SQL: the ``limit`` nearest claims that pass ``filters`` (ordered by the HNSW
    index's expression, filtered on the claim row), then their documents, audits, verdicts, runs.
    ``exact``: the claims that pass are read first (an ``OFFSET 0`` subquery: no index serves the
    order) and sorted by distance, so the HNSW index is not used and the result is exact."""
    distance = cast(ClaimRow.embedding, Vector(dim)).cosine_distance(query)
    where = (ClaimRow.embedding_model == model, ClaimRow.tenant_id == tenant_id, *_conditions(filters))
    if exact:
        rows = select(ClaimRow.id, distance.label("distance")).where(*where).offset(0).subquery("rows")
        ordered = select(rows.c.id, rows.c.distance).order_by(rows.c.distance)
        nearest = ordered.limit(limit).subquery("nearest")
    else:
        nearest = (
            select(ClaimRow.id, distance.label("distance"))
            .where(*where)
            .order_by(distance)
            .limit(limit)
            .subquery("nearest")
        )
    return (
        select(
            ClaimRow.id,
            ClaimRow.audit_id,
            ClaimRow.role,
            Document.position.label("reference"),
            ClaimRow.position,
            ClaimRow.text,
            ClaimRow.char_start,
            ClaimRow.char_end,
            ClaimRow.kind,
            nearest.c.distance,
            Audit.created_at,
            VerdictRow.verdict,
            Run.suite,
            Run.id.label("run_id"),
            Run.label.label("run_label"),
        )
        .join(nearest, nearest.c.id == ClaimRow.id)
        .join(Document, Document.id == ClaimRow.document_id)
        .join(Audit, Audit.id == ClaimRow.audit_id)
        .outerjoin(VerdictRow, VerdictRow.claim_id == ClaimRow.id)
        .outerjoin(RunItem, RunItem.audit_id == ClaimRow.audit_id)
        .outerjoin(Run, Run.id == RunItem.run_id)
    )


def search_claims(
    session: Session,
    query: np.ndarray,
    *,
    model: str,
    dim: int,
    k: int,
    ef_search: int = 100,
    tenant_id: str = DEFAULT_TENANT,
    filters: SearchFilters | None = None,
    iterative_scan: str = "relaxed_order",
    max_scan_tuples: int = 20_000,
    overfetch: int = 4,
    exact_max_claims: int = EXACT_MAX_CLAIMS,
    own_ef_search: int = OWN_EF_SEARCH,
) -> list[dict[str, Any]]:
    """The ``k`` stored claims of ``tenant_id`` nearest to ``query`` (float32 ``(dim,)``) among
    vectors of ``model`` that pass ``filters``; approximate (module docstring).

    ``ef_search``: ``hnsw.ef_search``; ``iterative_scan`` / ``max_scan_tuples``: pgvector 0.8's
    ``hnsw.iterative_scan`` (``"off"`` is the 0.7 post-filter) and its bound; ``k * overfetch``
    candidates are read and the exact best ``k`` kept. Each item: claim_id, audit_id, role,
    reference (index, None for the response), position, text, start, end, kind, similarity
    (``1 - cosine distance``, in [-1, 1]), audit_created_at, verdict (None for a reference
    claim), suite, run_id, run_label (None when the audit is no run's item); best first.
    ``exact_max_claims``: a tenant with at most this many vectors of ``model`` is searched exactly
    (module docstring; 0: never). A tenant with an own index (``db.tenant_indexes``) is searched
    through it with ``hnsw.ef_search`` = ``own_ef_search``, whatever its size.
    """
    own = has_own_index(session, tenant_id=tenant_id, model=model)
    exact = (
        not own
        and exact_max_claims > 0
        and _is_small(session, tenant_id=tenant_id, model=model, bound=exact_max_claims)
    )
    ef_search = own_ef_search if own else ef_search
    if not exact:  # the exact path reads no index: its settings would cost a round trip
        settings: dict[str, object] = {
            "hnsw.ef_search": ef_search,
            "hnsw.iterative_scan": iterative_scan,
            "hnsw.max_scan_tuples": max_scan_tuples,
        }
        if own:
            # a generic plan of a prepared statement cannot use a partial index (the tenant is a
            # parameter there): always plan with the tenant's value
            settings["plan_cache_mode"] = "force_custom_plan"
        _set_local(session, settings)
    q = np.asarray(query, dtype=np.float32).reshape(-1)
    limit = k * max(1, overfetch)
    filters = filters or SearchFilters()
    stmt = statement(q, model=model, dim=dim, tenant_id=tenant_id, limit=limit, filters=filters, exact=exact)
    out = [_search_hit(row) for row in session.execute(stmt).all()]
    # relaxed_order returns neighbours roughly in order and stops once enough rows pass the
    # filters: take the exact best k of k * overfetch candidates.
    out.sort(key=lambda item: -item["similarity"])
    return out[:k]
