"""Filtered similar-claims search (``db.claim_search``) against real Postgres + pgvector.

A tenant of 2,000 claims with random unit vectors of the local model's dimension: 1,800
reference claims and 200 response claims (half contradicted), in two audits (one an item of run
``nightly``/``n1`` with metadata model ``a``, the other with model ``b``). Each filter keeps
``k`` hits, the exact best ones where the index scan finds them (recall against exact numpy
search), and every hit passes it. The plan is checked to use the model's HNSW index, and the same
filtered query without pgvector's iterative scan returns fewer than ``k`` rows: the reason the
search sets it. The tenant is small, so by default it is searched exactly (no HNSW index in the
plan, the exact best ``k``); the HNSW path is tested with ``exact_max_claims=0``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import sqlalchemy
from pgvector import Vector

from db import repository as repo
from db.claim_search import SearchFilters, search_claims, statement, tenant_vectors
from db.engine import session_scope

pytestmark = pytest.mark.services

MODEL, DIM = "sentence-transformers/all-MiniLM-L6-v2", 384
REFERENCE_CLAIMS, RESPONSE_CLAIMS, K = 1800, 200, 10


@pytest.fixture(scope="module")
def corpus(session_factory: Any) -> Iterator[dict[str, Any]]:
    """The tenant, the audits and each claim's (id, vector, role, verdict, audit)."""
    tenant = f"search-{uuid.uuid4().hex[:8]}"
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(REFERENCE_CLAIMS + RESPONSE_CLAIMS, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with session_scope(session_factory) as s:
        audits = [_audit(s, tenant, {"model": m}) for m in ("a", "b")]
        _run_of(s, tenant, audits[0])
        rows = _claims(s, audits, vectors)
        s.execute(sqlalchemy.text("ANALYZE claims"))
    yield {"tenant": tenant, "audits": audits, "rows": rows, "vectors": vectors}


def _audit(s: Any, tenant: str, metadata: dict[str, str]) -> uuid.UUID:
    new = repo.NewAudit(
        response="r", references=["x"], request_sha256="0" * 64, tenant_id=tenant, metadata=metadata
    )
    audit, _ = repo.create_audit(s, new)
    return audit.id


def _run_of(s: Any, tenant: str, audit_id: uuid.UUID) -> None:
    run = uuid.uuid4()
    s.execute(
        sqlalchemy.text(
            "INSERT INTO runs (id, tenant_id, suite, label, source) VALUES (:r, :t, 'nightly', 'n1', '')"
        ),
        {"r": run, "t": tenant},
    )
    s.execute(
        sqlalchemy.text(
            "INSERT INTO run_items (run_id, item_id, tenant_id, audit_id, request_sha256, position)"
            " VALUES (:r, 'i1', :t, :a, repeat('0', 64), 0)"
        ),
        {"r": run, "t": tenant, "a": audit_id},
    )


def _claims(s: Any, audits: list[uuid.UUID], vectors: np.ndarray) -> list[dict[str, Any]]:
    """Claims alternating between the two audits; the first RESPONSE_CLAIMS are response claims."""
    out = []
    for i, vector in enumerate(vectors):
        audit = audits[i % 2]
        role = "response" if i < RESPONSE_CLAIMS else "reference"
        doc = next(d for d in repo.get_documents(s, audit) if d.role == role)
        claim_id = s.execute(
            sqlalchemy.text(
                "INSERT INTO claims (audit_id, document_id, role, position, text, char_start, char_end, kind,"
                " embedding, embedding_model, embedding_dim) VALUES (:a, :d, :role, :p, :t, 0, 1, 'material',"
                " :e, :m, :dim) RETURNING id"
            ),
            {"a": audit, "d": doc.id, "role": role, "p": i, "t": f"claim {i}", "e": Vector(vector).to_text(),
             "m": MODEL, "dim": DIM},
        ).scalar_one()  # fmt: skip
        verdict = None
        if role == "response":
            verdict = "contradicted" if i % 4 < 2 else "supported"
            s.execute(
                sqlalchemy.text("INSERT INTO verdicts (audit_id, claim_id, verdict) VALUES (:a, :c, :v)"),
                {"a": audit, "c": claim_id, "v": verdict},
            )
        out.append({"id": claim_id, "role": role, "verdict": verdict, "audit": audit})
    return out


def _exact(corpus: dict[str, Any], query: np.ndarray, keep: Any) -> list[int]:
    """Ids of the K nearest claims (cosine, exact) among those ``keep`` passes."""
    sims = corpus["vectors"] @ query
    order = [i for i in np.argsort(-sims) if keep(corpus["rows"][i])]
    return [corpus["rows"][i]["id"] for i in order[:K]]


FILTERS = {
    "response": (SearchFilters(role="response"), lambda r: r["role"] == "response"),
    "contradicted": (SearchFilters(verdict="contradicted"), lambda r: r["verdict"] == "contradicted"),
    "suite": (SearchFilters(suite="nightly", role="response"), None),
    "run label": (SearchFilters(run="n1", role="response"), None),
    "metadata": (SearchFilters(metadata={"model": "b"}, role="response"), None),
}


@pytest.mark.parametrize("path", ["hnsw", "exact"])
@pytest.mark.parametrize("name", list(FILTERS))
def test_a_filtered_search_returns_k_hits_that_pass_it(
    session_factory: Any, corpus: dict[str, Any], name: str, path: str
) -> None:
    filters, keep = FILTERS[name]
    first, second = corpus["audits"]
    in_run = {"suite": first, "run label": first, "metadata": second}.get(name)
    if keep is None:
        keep = lambda r: r["role"] == "response" and r["audit"] == in_run  # noqa: E731
    recalls = []
    for seed in range(5):
        query = np.random.default_rng(100 + seed).normal(size=DIM).astype(np.float32)
        query /= np.linalg.norm(query)
        with session_scope(session_factory) as s:
            hits = search_claims(
                s, query, model=MODEL, dim=DIM, k=K, ef_search=40, tenant_id=corpus["tenant"],
                filters=filters, exact_max_claims=0 if path == "hnsw" else 2_000,
            )  # fmt: skip
        assert len(hits) == K, name
        by_id = {r["id"]: r for r in corpus["rows"]}
        assert all(keep(by_id[h["claim_id"]]) for h in hits), name
        recalls.append(len({h["claim_id"] for h in hits} & set(_exact(corpus, query, keep))) / K)
    # the HNSW path's recall: the iterative scan on random vectors; the exact path: every hit
    assert np.mean(recalls) >= (0.9 if path == "hnsw" else 1.0), (name, recalls)


def test_a_tenant_at_most_the_bound_is_searched_exactly(
    engine: Any, session_factory: Any, corpus: dict[str, Any]
) -> None:
    """The count stops at the bound + 1; at 2,000 vectors a bound of 2,000 takes the exact
    statement (``OFFSET 0``, no HNSW index in its plan) and 1,999 the HNSW one."""
    n = REFERENCE_CLAIMS + RESPONSE_CLAIMS
    query = corpus["vectors"][5]
    with session_scope(session_factory) as s:
        assert tenant_vectors(s, tenant_id=corpus["tenant"], model=MODEL, bound=10_000) == n
        assert tenant_vectors(s, tenant_id=corpus["tenant"], model=MODEL, bound=100) == 101
        assert tenant_vectors(s, tenant_id=corpus["tenant"], model="other", bound=100) == 0
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql)

    sqlalchemy.event.listen(engine, "before_cursor_execute", record)
    try:
        for bound in (n, n - 1):
            with session_scope(session_factory) as s:
                search_claims(
                    s, query, model=MODEL, dim=DIM, k=K, tenant_id=corpus["tenant"], exact_max_claims=bound
                )
    finally:
        sqlalchemy.event.remove(engine, "before_cursor_execute", record)
    searches = [sql for sql in seen if "AS nearest" in sql]
    assert len(searches) == 2 and "OFFSET" in searches[0] and "OFFSET" not in searches[1], searches
    stmt = statement(
        query, model=MODEL, dim=DIM, tenant_id=corpus["tenant"], limit=K, filters=SearchFilters(), exact=True
    )
    with session_scope(session_factory) as s:
        s.execute(sqlalchemy.text("SET LOCAL enable_sort = off"))  # the HNSW plan, were one possible
        sql = str(stmt.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
        lines = [row[0] for row in s.connection().exec_driver_sql("EXPLAIN ANALYZE " + sql).all()]
    assert not any("hnsw" in line for line in lines), lines


def test_hits_carry_verdict_and_run(session_factory: Any, corpus: dict[str, Any]) -> None:
    query = corpus["vectors"][0]  # claim 0: a contradicted response claim of the run's audit
    with session_scope(session_factory) as s:
        hit = search_claims(s, query, model=MODEL, dim=DIM, k=1, tenant_id=corpus["tenant"])[0]
    assert hit["claim_id"] == corpus["rows"][0]["id"] and hit["similarity"] == pytest.approx(1.0, abs=1e-5)
    assert (hit["verdict"], hit["suite"], hit["run_label"]) == ("contradicted", "nightly", "n1")


def test_the_index_is_used_and_the_iterative_scan_is_what_keeps_k(
    session_factory: Any, corpus: dict[str, Any]
) -> None:
    """On an HNSW plan (forced here with ``enable_sort = off``: on 2,000 rows the planner would
    rather sort the tenant's 200 response claims exactly), the scan without
    ``hnsw.iterative_scan`` stops after ``ef_search`` candidates, of which about one in ten is a
    response claim; with it the scan goes on until ``k`` rows pass the filter."""
    query = np.random.default_rng(1).normal(size=DIM).astype(np.float32)
    query /= np.linalg.norm(query)
    filters = SearchFilters(role="response")
    stmt = statement(query, model=MODEL, dim=DIM, tenant_id=corpus["tenant"], limit=K, filters=filters)
    counts = {}
    for mode in ("off", "relaxed_order"):
        with session_scope(session_factory) as s:
            s.execute(sqlalchemy.text("SET LOCAL enable_sort = off"))
            plan = s.execute(
                sqlalchemy.text("EXPLAIN " + str(stmt.compile(compile_kwargs={"literal_binds": True})))
            )
            lines = plan.scalars().all()
            assert any("ix_claims_embedding_hnsw_minilm_l6_v2" in line for line in lines), lines
            hits = search_claims(
                s, query, model=MODEL, dim=DIM, k=K, ef_search=40, tenant_id=corpus["tenant"],
                filters=filters, iterative_scan=mode, overfetch=1, exact_max_claims=0,
            )  # fmt: skip
            counts[mode] = len(hits)
    assert counts["relaxed_order"] == K and counts["off"] < K, counts


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"role": "question"}, "role"),
        ({"verdict": "maybe"}, "verdict"),
        ({"verdict": "supported", "role": "reference"}, "verdict"),
        ({"metadata": ["model"]}, "metadata"),
    ],
)
def test_filters_are_validated(bad: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field}: "):
        SearchFilters(**bad)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"role": "question"}, "role"),
        ({"verdict": "maybe"}, "verdict"),
        ({"verdict": "supported", "role": "reference"}, "verdict"),
        ({"metadata": "model=a"}, "metadata"),
        ({"metadata": '["model"]'}, "metadata"),
        ({"metadata": '{"model": NaN}'}, "metadata"),
    ],
)
def test_the_search_route_refuses_a_bad_filter_by_name(
    client: Any, params: dict[str, str], field: str
) -> None:
    """422 naming the query parameter, before any worker is asked."""
    resp = client.get("/claims/search", params={"q": "bridge", **params})
    assert resp.status_code == 422, resp.text
    assert any(item["loc"][-1] == field or field in item["loc"] for item in resp.json()["detail"]), resp.text
