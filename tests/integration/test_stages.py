"""Stage services and tasks against real Postgres + pgvector (in this process, no broker needed).

Re-running any stage creates no duplicate rows; the stored audit renders to the same document
as the in-memory engine; the embedding cache is shared across audits; a permanent error fails
the audit with a readable reason; a finished audit is never re-processed.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from sqlalchemy import func, select, text, update

from claims.audit import audit_texts, report_to_dict
from claims.embed import DEFAULT_MODEL_NAME, default_embedder
from db import repository as repo
from db.engine import session_scope
from db.models import Audit, ClaimRow, EmbeddingCacheRow
from workers import services

pytestmark = [pytest.mark.services, pytest.mark.slow]

REFERENCE = (
    "In 2004, the 23-year-old cellist Ines Marlow won the Varga Prize in Vienna. She was chosen by a jury "
    "chaired by the composer Teodor Halm. The prize launched her career as a soloist."
)
RESPONSE = (
    "Ines Marlow won the Varga Prize in 2001. She was chosen by a jury chaired by Teodor Halm. Is it famous?"
)


def create(
    session_factory: Any,
    response: str,
    references: Sequence[str],
    config: dict[str, Any] | None = None,
    tenant: str = "default",
) -> uuid.UUID:
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s,
            repo.NewAudit(
                response=response,
                references=list(references),
                request_sha256=uuid.uuid4().hex,
                config=config or {},
                tenant_id=tenant,
            ),
        )
        return audit.id


def run_stage(session_factory: Any, stage: str, aid: uuid.UUID) -> None:
    with session_scope(session_factory) as s:
        if stage == "decompose":
            services.decompose_audit(s, aid)
        elif stage == "embed":
            services.embed_audit(s, aid)
        elif stage == "match":
            services.match_audit(s, aid)
        else:
            services.score_audit_stage(s, aid)
            repo.mark_done(s, aid)


def run_all(session_factory: Any, aid: uuid.UUID) -> None:
    for stage in ("decompose", "embed", "match", "score"):
        run_stage(session_factory, stage, aid)


def counts(session_factory: Any, aid: uuid.UUID) -> dict[str, int]:
    with session_factory() as s:
        return repo.count_rows(s, aid)


def document(session_factory: Any, aid: uuid.UUID) -> dict[str, Any]:
    from api.documents import audit_document

    with session_factory() as s:
        doc = audit_document(s, aid)
    assert doc is not None
    return doc


def assert_same(a: Any, b: Any, path: str = "") -> None:
    """Equal JSON values; floats within 1e-5 (the worker and this process may batch texts differently)."""
    if isinstance(a, float) or isinstance(b, float):
        assert a is not None and b is not None and math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-5), (
            f"{path}: {a} != {b}"
        )
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            assert_same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def test_rerunning_every_stage_creates_no_duplicates(session_factory: Any) -> None:
    aid = create(session_factory, RESPONSE, [REFERENCE])
    run_all(session_factory, aid)
    first = counts(session_factory, aid)
    doc = document(session_factory, aid)
    n_response = sum(1 for c in doc["claims"] if c["role"] == "response")
    assert first["documents"] == 2 and first["scores"] == 1
    assert (
        first["claims"] == len(doc["claims"]) and first["verdicts"] == n_response
    )  # one verdict per response claim

    # a redelivered stage re-runs it and the stages after it (a rerun match drops the now stale scores)
    for stages in (("score",), ("match", "score"), ("embed", "match", "score")):
        for stage in stages:
            run_stage(session_factory, stage, aid)
        assert counts(session_factory, aid) == first, stages
    for _ in range(2):  # the whole chain again, twice
        run_all(session_factory, aid)
        assert counts(session_factory, aid) == first
    assert_same(document(session_factory, aid)["claims"], doc["claims"])


def test_stored_audit_renders_like_the_in_memory_engine(session_factory: Any) -> None:
    config = {"threshold": 0.7, "case_insensitive": True, "remove_punctuation": True}
    aid = create(session_factory, RESPONSE, [REFERENCE, "Teodor Halm is a composer."], config)
    run_all(session_factory, aid)
    doc = document(session_factory, aid)
    report = audit_texts(
        RESPONSE,
        [REFERENCE, "Teodor Halm is a composer."],
        threshold=0.7,
        case_insensitive=True,
        remove_punctuation=True,
    )
    expected = report_to_dict(report, [REFERENCE, "Teodor Halm is a composer."], RESPONSE)
    for key in ("scores", "counts", "claims", "edit_script"):
        assert_same(doc[key], expected[key], key)
    assert doc["threshold"] == 0.7
    assert doc["status"] == "done" and doc["error"] is None and doc["config"] == config
    assert doc["usage"]["prompt_tokens"] == 0  # offline: no LLM calls


def test_the_stages_read_a_reference_heading_as_evidence_and_a_response_heading_as_context(
    session_factory: Any,
) -> None:
    """The same page as the response and as the reference: its heading, which states something,
    is a reference claim and no response claim, as in the in-memory engine
    (``claims.decompose.decompose(text, role=...)``, docs/DECOMPOSITION.md)."""
    page = "## Varga Prize (founded: 1987)\n\nThe prize is awarded in Vienna every year.\n"
    aid = create(session_factory, page, [page])
    run_all(session_factory, aid)
    doc = document(session_factory, aid)
    expected = report_to_dict(audit_texts(page, [page]), [page], page)
    assert_same(doc["claims"], expected["claims"], "claims")
    by_role = {
        role: [c["text"] for c in doc["claims"] if c["role"] == role] for role in ("response", "reference")
    }
    assert by_role["reference"] == ["Varga Prize (founded: 1987).", *by_role["response"]]


def test_empty_response_scores_null_not_nan(session_factory: Any) -> None:
    aid = create(session_factory, "", [REFERENCE])
    run_all(session_factory, aid)
    doc = document(session_factory, aid)
    assert doc["counts"]["response_claims"] == 0
    # precision has denominator 0 (no material response claims): null, never NaN (README, scores)
    assert doc["scores"]["claim_precision"] is None


def test_embedding_cache_is_shared_across_audits(session_factory: Any) -> None:
    reference = f"The Orlen lighthouse was built in 1889 ({uuid.uuid4().hex[:6]}). It is 31 metres tall."
    first = create(session_factory, "The Orlen lighthouse is 31 metres tall.", [reference])

    def cached() -> int:
        with session_factory() as s:
            return int(s.scalar(select(func.count()).select_from(EmbeddingCacheRow)) or 0)

    before = cached()
    run_all(session_factory, first)
    after_first = cached()
    assert after_first > before
    second = create(session_factory, "The Orlen lighthouse is 31 metres tall.", [reference])
    run_all(session_factory, second)
    assert cached() == after_first  # same texts: every vector came from the cache
    with session_factory() as s:
        rows = s.scalars(select(ClaimRow).where(ClaimRow.audit_id.in_([first, second]))).all()
    assert {r.embedding_model for r in rows} == {DEFAULT_MODEL_NAME}
    assert {r.embedding_dim for r in rows} == {default_embedder().dim}


def test_search_uses_the_models_hnsw_index(session_factory: Any) -> None:
    aid = create(session_factory, "The Varga Prize is awarded in Vienna.", [REFERENCE])
    run_all(session_factory, aid)
    embedder = default_embedder()
    query = embedder.embed(["Who won the Varga Prize?"])[0]
    with session_factory() as s:
        s.execute(text("SET LOCAL enable_seqscan = off"))
        # With few rows per tenant the planner rightly prefers an exact read through the
        # (tenant_id, embedding_model) b-tree; drop it in this transaction (rolled back below) to
        # look at the HNSW path (and ask for it: a tenant this small is searched exactly by
        # default). Recall of both paths: tools/bench_tenant_search.py (README).
        s.execute(text("DROP INDEX ix_claims_tenant_id_embedding_model"))
        hits = repo.search_claims(
            s, query, model=embedder.model_name, dim=embedder.dim, k=5, exact_max_claims=0
        )
        scans = s.execute(
            text("SELECT pg_stat_get_xact_numscans(CAST(:name AS regclass))"),
            {"name": "ix_claims_embedding_hnsw_minilm_l6_v2"},
        ).scalar()
        s.rollback()
    assert scans and scans >= 1
    assert len(hits) == 5
    assert all(-1.0 <= h["similarity"] <= 1.0 for h in hits)
    assert [h["similarity"] for h in hits] == sorted((h["similarity"] for h in hits), reverse=True)


def test_permanent_error_fails_the_audit_with_a_reason(session_factory: Any, redis_url: str) -> None:
    from workers import tasks

    aid = create(session_factory, RESPONSE, [REFERENCE])
    run_stage(session_factory, "decompose", aid)
    with session_scope(session_factory) as s:  # a hand-edited row: at matching, but never embedded
        s.execute(update(Audit).where(Audit.id == aid).values(status="matching"))
    result = tasks.match.apply(args=[str(aid)])  # the embed stage never ran
    assert result.failed()
    with session_factory() as s:
        audit = repo.get_audit(s, aid)
    assert audit is not None and audit.status == "failed" and audit.stage == "matching"
    assert (
        audit.error
        == "matching failed: PermanentStageError: some claims have no embedding (the embed stage did not run)"
    )
    assert audit.finished_at is not None


def test_finished_audit_is_not_processed_again(session_factory: Any, redis_url: str) -> None:
    from workers import tasks

    aid = create(session_factory, RESPONSE, [REFERENCE])
    run_all(session_factory, aid)
    with session_factory() as s:
        ids = sorted(s.scalars(select(ClaimRow.id).where(ClaimRow.audit_id == aid)).all())
    result = tasks.decompose.apply(args=[str(aid)])
    assert result.state == "IGNORED"
    with session_factory() as s:
        assert sorted(s.scalars(select(ClaimRow.id).where(ClaimRow.audit_id == aid)).all()) == ids
        audit = repo.get_audit(s, aid)
        assert audit is not None and audit.status == "done"


def _with_confidences(values: Sequence[float | None]) -> Any:
    """A stand-in for ``claims.decision.decide`` giving response claim ``i`` confidence ``values[i]``
    (the placeholder decision gives None, which would not show that a value is stored)."""
    from dataclasses import replace

    def decide(_r: Any, _f: Any, _s: Any, judgements: Sequence[Any], **_kw: Any) -> list[Any]:
        return [replace(j, confidence=values[j.response_index]) for j in judgements]

    return decide


def test_confidence_is_stored_returned_and_queryable_in_sql(
    session_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import claims.audit

    # RESPONSE decomposes into 3 claims (2 material + 1 question); the values are arbitrary probabilities
    confidences = [0.8125, 0.25, None]
    monkeypatch.setattr(claims.audit, "decide", _with_confidences(confidences))
    aid = create(session_factory, RESPONSE, [REFERENCE])
    run_all(session_factory, aid)
    doc = document(session_factory, aid)
    response_claims = [c for c in doc["claims"] if c["role"] == "response"]
    assert [c["confidence"] for c in response_claims] == confidences
    assert all(c["confidence"] is None for c in doc["claims"] if c["role"] == "reference")
    with session_factory() as s:
        by_view = s.execute(
            text("SELECT claim_position, confidence FROM claim_verdicts WHERE audit_id = :a ORDER BY 1"),
            {"a": aid},
        ).all()
        by_table = s.execute(
            text(
                "SELECT c.position, v.confidence FROM verdicts v JOIN claims c ON c.id = v.claim_id "
                "WHERE v.audit_id = :a ORDER BY 1"
            ),
            {"a": aid},
        ).all()
    assert [tuple(r) for r in by_view] == [(0, 0.8125), (1, 0.25), (2, None)]
    assert [tuple(r) for r in by_table] == [tuple(r) for r in by_view]


def test_confidence_outside_zero_one_is_refused_by_the_database(session_factory: Any) -> None:
    from sqlalchemy.exc import IntegrityError

    aid = create(session_factory, RESPONSE, [REFERENCE])
    for stage in ("decompose", "embed"):
        run_stage(session_factory, stage, aid)
    with session_factory() as s:
        claim_id = s.scalars(
            select(ClaimRow.id).where(ClaimRow.audit_id == aid, ClaimRow.role == "response")
        ).first()
        assert claim_id is not None
        with pytest.raises(IntegrityError, match="ck_verdicts_confidence"):
            repo.replace_verdicts(s, aid, [repo.NewVerdict(claim_id, "supported", "", None, (), 1.5)])
            s.flush()
        s.rollback()


def test_blank_reference_is_an_empty_document_and_indices_stay(session_factory: Any) -> None:
    refs = ["   ", REFERENCE, ""]
    response = "Ines Marlow won the Varga Prize in Vienna."
    aid = create(session_factory, response, refs)
    run_all(session_factory, aid)
    doc = document(session_factory, aid)
    assert doc["status"] == "done"
    assert counts(session_factory, aid)["documents"] == 4  # response + 3 references, blank ones kept
    assert {c["reference"] for c in doc["claims"] if c["role"] == "reference"} == {1}
    [claim] = [c for c in doc["claims"] if c["role"] == "response"]
    assert claim["verdict"] == "supported" and claim["evidence"][0]["reference"] == 1
    expected = report_to_dict(audit_texts(response, refs), refs, response)  # the in-memory engine
    for key in ("scores", "counts"):
        assert_same(doc[key], expected[key], key)


def test_embedding_cache_reads_and_writes_more_keys_than_one_statement_may_bind(session_factory: Any) -> None:
    # Postgres takes at most 65,535 bind parameters per statement; put_many binds 4 per vector,
    # get_many 1 per key: 17,000 vectors (a bundle of 16 large audits) need several statements
    rng = np.random.default_rng(7)
    vectors = {f"{i:064x}": rng.random(384, dtype=np.float32) for i in range(17_000)}
    model = f"test-chunks-{uuid.uuid4().hex[:8]}"
    with session_scope(session_factory) as s:
        repo.PgEmbeddingCache(s).put_many(model, vectors)
    with session_scope(session_factory) as s:
        found = repo.PgEmbeddingCache(s).get_many(model, list(vectors))
    assert len(found) == len(vectors)
    key = f"{1234:064x}"
    assert np.allclose(found[key], vectors[key], atol=1e-6)


def test_the_match_bundle_parses_its_claims_in_one_pass(session_factory: Any) -> None:
    """``bundle_stages``' match load leaves every claim's parse cached (``parses.parse_many``),
    and the verdicts are those of the single-audit service."""
    from claims import parses
    from workers.bundle_stages import STAGES

    aid = create(session_factory, RESPONSE, [REFERENCE])
    for stage in ("decompose", "embed"):
        run_stage(session_factory, stage, aid)
    parses.clear()
    with session_factory() as s:
        states = STAGES["matching"].load(s, [aid])
        state = states[aid]
        texts = [c.text for c in state.response_claims] + [rc.claim.text for rc in state.reference_claims]
        assert state.response_claims and state.reference_claims, "claims of both texts"
        assert all(parses._get(t) is not None for t in texts), "parsed by the load, before any check"
        bundled = STAGES["matching"].compute(states, aid)
    parses.clear()
    with session_factory() as s:
        one = repo.load_audit_state(s, aid)
    assert one is not None
    similarity = services.similarity_of(one)[0]
    judgements = services.offline_judgements(one, similarity, services.options_of({}))
    alone = services.verdict_rows(one, judgements, similarity)
    assert bundled == alone
