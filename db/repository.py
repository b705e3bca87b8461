"""Every SQL statement of claimaudit lives here (pattern of polarsource/polar's repositories).

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction. Vectors come back as ``float32`` numpy arrays.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import ColumnElement, case, cast, delete, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from claims.types import (
    COUNT_NAMES,
    SCORE_NAMES,
    AuditResult,
    AuditScores,
    Claim,
    ClaimKind,
    EditOp,
    Evidence,
    Judgement,
    ReferenceClaim,
    Verdict,
)
from db.models import (
    DEFAULT_TENANT,
    STAGES,
    TERMINAL_STATUSES,
    Audit,
    ClaimRow,
    Document,
    EmbeddingCacheRow,
    EvidenceRow,
    ScoreRow,
    VerdictRow,
)

__all__ = [
    "SCORE_NAMES",
    "COUNT_NAMES",
    "NewAudit",
    "NewVerdict",
    "AuditState",
    "PgEmbeddingCache",
    "create_audit",
    "get_audit",
    "get_tenant_audit",
    "find_audit_by_key",
    "list_audits",
    "audit_statuses",
    "mark_enqueued",
    "start_stage",
    "mark_done",
    "mark_failed",
    "get_documents",
    "replace_claims",
    "list_claims",
    "set_embeddings",
    "replace_verdicts",
    "upsert_scores",
    "load_audit_state",
    "search_claims",
    "stale_queued_audits",
    "count_rows",
    "ping",
    "audits_by_status",
]


# --------------------------------------------------------------------------- audits


@dataclass(frozen=True, slots=True)
class NewAudit:
    """A validated request: stored with its documents in one statement group."""

    response: str
    references: Sequence[str]
    request_sha256: str
    question: str | None = None
    metadata: dict[str, Any] | None = None
    config: dict[str, Any] = field(default_factory=dict)
    idempotency_key: str | None = None
    #: The caller's tenant (``api_keys.tenant_id``); its documents and claims inherit it.
    tenant_id: str = DEFAULT_TENANT


def _sha256(text_: str) -> str:
    import hashlib

    return hashlib.sha256(text_.encode("utf-8")).hexdigest()


def create_audit(session: Session, new: NewAudit) -> tuple[Audit, bool]:
    """Insert an audit (status ``queued``) and its documents; return ``(audit, created)``.

    With an idempotency key the tenant already stored, nothing is inserted and the existing audit
    comes back with ``created=False`` (``INSERT ... ON CONFLICT (tenant_id, idempotency_key) DO
    NOTHING``; a concurrent insert of the same key waits for the other transaction). Keys are
    unique per tenant: another tenant's audit under the same key is never returned. The caller
    compares ``audit.request_sha256`` to detect a conflicting body.
    """
    audit_id = uuid.uuid4()
    stmt = (
        pg_insert(Audit)
        .values(
            id=audit_id,
            tenant_id=new.tenant_id,
            status="queued",
            question=new.question,
            metadata_=new.metadata,
            config=dict(new.config),
            idempotency_key=new.idempotency_key,
            request_sha256=new.request_sha256,
        )
        .on_conflict_do_nothing(index_elements=[Audit.tenant_id, Audit.idempotency_key])
        .returning(Audit.id)
    )
    inserted = session.execute(stmt).scalar_one_or_none()
    if inserted is None:
        existing = find_audit_by_key(session, new.idempotency_key or "", tenant_id=new.tenant_id)
        if existing is None:  # pragma: no cover - the conflicting row was deleted meanwhile
            raise RuntimeError("idempotency key conflict but no audit found")
        return existing, False
    texts: list[tuple[str, int, str]] = [("response", 0, new.response)]
    texts += [("reference", i, t) for i, t in enumerate(new.references)]
    docs = [
        {"audit_id": audit_id, "role": role, "position": pos, "text": t, "sha256": _sha256(t)}
        for role, pos, t in texts
    ]
    session.execute(insert(Document), docs)
    audit = session.get(Audit, audit_id)
    assert audit is not None
    return audit, True


def get_audit(session: Session, audit_id: uuid.UUID) -> Audit | None:
    """The audit row of any tenant, or None (workers and internal callers; the API reads through
    :func:`get_tenant_audit`)."""
    return session.get(Audit, audit_id, populate_existing=True)


def get_tenant_audit(
    session: Session, audit_id: uuid.UUID, *, tenant_id: str = DEFAULT_TENANT
) -> Audit | None:
    """The audit row when it belongs to ``tenant_id``, else None (another tenant's audit is "not found")."""
    audit = get_audit(session, audit_id)
    return audit if audit is not None and audit.tenant_id == tenant_id else None


def find_audit_by_key(
    session: Session, idempotency_key: str, *, tenant_id: str = DEFAULT_TENANT
) -> Audit | None:
    """The tenant's audit stored under ``idempotency_key``, or None."""
    return session.scalars(
        select(Audit).where(Audit.tenant_id == tenant_id, Audit.idempotency_key == idempotency_key)
    ).one_or_none()


def list_audits(
    session: Session,
    *,
    status: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = 50,
    offset: int = 0,
    tenant_id: str = DEFAULT_TENANT,
) -> tuple[list[Audit], int]:
    """The tenant's audits newest first, filtered by status and ``since <= created_at < until``;
    and their total."""
    conds: list[ColumnElement[bool]] = [Audit.tenant_id == tenant_id]
    if status is not None:
        conds.append(Audit.status == status)
    if since is not None:
        conds.append(Audit.created_at >= since)
    if until is not None:
        conds.append(Audit.created_at < until)
    total = session.scalar(select(func.count()).select_from(Audit).where(*conds)) or 0
    rows = session.scalars(
        select(Audit).where(*conds).order_by(Audit.created_at.desc(), Audit.id).limit(limit).offset(offset)
    ).all()
    return list(rows), int(total)


def audit_statuses(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str
) -> list[dict[str, Any]]:
    """``id``, ``status``, ``stage``, ``error``, ``finished_at`` of each audit of ``tenant_id`` in
    ``audit_ids`` (one primary-key lookup of the ``audits`` table; unknown ids and other
    tenants' audits are absent), in no order."""
    if not audit_ids:
        return []
    stmt = select(Audit.id, Audit.status, Audit.stage, Audit.error, Audit.finished_at).where(
        Audit.id.in_(list(audit_ids)), Audit.tenant_id == tenant_id
    )
    return [dict(row._mapping) for row in session.execute(stmt)]


def mark_enqueued(session: Session, audit_ids: Iterable[uuid.UUID]) -> None:
    """Record that the audits' chains were handed to the broker (``enqueued_at = now()``)."""
    ids = list(audit_ids)
    if ids:
        session.execute(update(Audit).where(Audit.id.in_(ids)).values(enqueued_at=func.now()))


def start_stage(session: Session, audit_id: uuid.UUID, stage: str) -> Audit | None:
    """Set ``status = stage`` and ``<stage>_at = now()`` unless the audit is finished.

    Returns the updated audit, or None when it does not exist or is already done/failed/rejected.
    """
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}")
    stmt = (
        update(Audit)
        .where(Audit.id == audit_id, Audit.status.not_in(TERMINAL_STATUSES))
        .values({"status": stage, "stage": stage, f"{stage}_at": func.now(), "error": None})
        .returning(Audit)
        .execution_options(synchronize_session=False)
    )
    return session.scalars(stmt).one_or_none()


def mark_done(session: Session, audit_id: uuid.UUID) -> None:
    """``status = done``, ``finished_at`` = the wall clock now (only from a running stage).

    ``clock_timestamp()``, not ``now()``: ``now()`` is the start of the transaction, and the
    score stage marks the audit done at the end of the transaction that scored it.
    """
    session.execute(
        update(Audit)
        .where(Audit.id == audit_id, Audit.status.not_in(TERMINAL_STATUSES))
        .values(status="done", stage=None, error=None, finished_at=func.clock_timestamp())
        .execution_options(synchronize_session=False)
    )


def mark_failed(session: Session, audit_id: uuid.UUID, error: str) -> bool:
    """``status = failed`` with ``error`` unless already finished; ``stage`` keeps the failing stage.

    Returns True when the row changed.
    """
    result = session.execute(
        update(Audit)
        .where(Audit.id == audit_id, Audit.status.not_in(TERMINAL_STATUSES))
        .values(status="failed", error=error[:4000], finished_at=func.clock_timestamp())
        .returning(Audit.id)
        .execution_options(synchronize_session=False)
    )
    return result.scalar_one_or_none() is not None


def stale_queued_audits(
    session: Session, *, older_than_s: float, only_unsent: bool = False, limit: int = 1000
) -> list[uuid.UUID]:
    """Queued audits to hand to the broker again.

    ``only_unsent``: audits whose enqueue never succeeded (``enqueued_at`` NULL) created more than
    ``older_than_s`` ago. Otherwise: queued audits whose last enqueue (or creation) is older than
    ``older_than_s`` (their message was lost, e.g. a flushed broker).
    """
    cutoff = func.now() - timedelta(seconds=older_than_s)
    cond: ColumnElement[bool]
    if only_unsent:
        cond = Audit.enqueued_at.is_(None) & (Audit.created_at < cutoff)
    else:
        cond = func.coalesce(Audit.enqueued_at, Audit.created_at) < cutoff
    rows = session.scalars(
        select(Audit.id).where(Audit.status == "queued", cond).order_by(Audit.created_at).limit(limit)
    ).all()
    return list(rows)


# --------------------------------------------------------------------------- documents & claims


def get_documents(session: Session, audit_id: uuid.UUID) -> list[Document]:
    """The audit's documents: the response first, then the references by position."""
    role_order = case((Document.role == "response", 0), else_=1)
    return list(
        session.scalars(
            select(Document).where(Document.audit_id == audit_id).order_by(role_order, Document.position)
        ).all()
    )


def replace_claims(session: Session, audit_id: uuid.UUID, rows: Sequence[Mapping[str, Any]]) -> None:
    """Delete the audit's claims (and, by cascade, its verdicts and evidence) and its scores, then
    insert ``rows`` in one batch. Each row: document_id, role, position, text, char_start, char_end,
    kind, duplicates, ambiguous. Idempotent: re-running leaves exactly ``rows``.
    """
    session.execute(delete(ScoreRow).where(ScoreRow.audit_id == audit_id))
    session.execute(delete(ClaimRow).where(ClaimRow.audit_id == audit_id))
    if rows:
        session.execute(insert(ClaimRow), [{**r, "audit_id": audit_id} for r in rows])


def list_claims(session: Session, audit_id: uuid.UUID) -> list[ClaimRow]:
    """The audit's claims: response claims by position, then reference claims by (reference, position).

    This order is the engine's: reference claims form the flat list indexed by
    ``Evidence.claim_index`` and ``EditOp.reference_claim``.
    """
    role_order = case((ClaimRow.role == "response", 0), else_=1)
    stmt = (
        select(ClaimRow)
        .join(Document, Document.id == ClaimRow.document_id)
        .where(ClaimRow.audit_id == audit_id)
        .order_by(role_order, Document.position, ClaimRow.position)
    )
    return list(session.scalars(stmt).all())


def set_embeddings(
    session: Session, claim_ids: Sequence[int], vectors: np.ndarray, *, model: str, dim: int
) -> None:
    """Store one vector per claim (row ``i`` of ``vectors``, shape ``(len(claim_ids), dim)``) with its model.

    One executemany ``UPDATE`` by primary key. Idempotent.
    """
    if len(claim_ids) != len(vectors):
        raise ValueError(f"{len(claim_ids)} claims but {len(vectors)} vectors")
    if not claim_ids:
        return
    session.execute(
        update(ClaimRow),
        [
            {
                "id": cid,
                "embedding": np.asarray(v, dtype=np.float32),
                "embedding_model": model,
                "embedding_dim": dim,
            }
            for cid, v in zip(claim_ids, vectors, strict=True)
        ],
    )


# --------------------------------------------------------------------------- verdicts & scores


@dataclass(frozen=True, slots=True)
class NewVerdict:
    """A verdict to store: response claim id; evidence as (reference claim id, similarity), best
    first; ``confidence`` the calibrated probability in [0, 1] that the verdict is right, or None."""

    claim_id: int
    verdict: str
    reason: str
    change: str | None
    evidence: Sequence[tuple[int, float]] = ()
    confidence: float | None = None


def replace_verdicts(session: Session, audit_id: uuid.UUID, verdicts: Sequence[NewVerdict]) -> None:
    """Delete the audit's verdicts (evidence cascades) and scores, insert ``verdicts`` in two batches."""
    session.execute(delete(ScoreRow).where(ScoreRow.audit_id == audit_id))
    session.execute(delete(VerdictRow).where(VerdictRow.audit_id == audit_id))
    if not verdicts:
        return
    ids = session.execute(
        insert(VerdictRow)
        .values(
            [
                {
                    "audit_id": audit_id,
                    "claim_id": v.claim_id,
                    "verdict": v.verdict,
                    "reason": v.reason,
                    "change": v.change,
                    "confidence": None if v.confidence is None else float(v.confidence),
                }
                for v in verdicts
            ]
        )
        .returning(VerdictRow.id, VerdictRow.claim_id)
    ).all()
    by_claim = {claim_id: vid for vid, claim_id in ids}
    evidence = [
        {
            "verdict_id": by_claim[v.claim_id],
            "rank": rank,
            "audit_id": audit_id,
            "reference_claim_id": ref_id,
            "similarity": float(sim),
        }
        for v in verdicts
        for rank, (ref_id, sim) in enumerate(v.evidence)
    ]
    if evidence:
        session.execute(insert(EvidenceRow), evidence)


def upsert_scores(
    session: Session, audit_id: uuid.UUID, result: AuditResult, *, threshold: float, embedding_model: str
) -> None:
    """Insert or replace the audit's score row (``ON CONFLICT (audit_id) DO UPDATE``)."""
    values: dict[str, Any] = {name: getattr(result.scores, name) for name in SCORE_NAMES}
    values.update({name: int(result.counts.get(name, 0)) for name in COUNT_NAMES})
    values["threshold"] = float(threshold)
    values["embedding_model"] = embedding_model
    values["edit_script"] = [
        {
            "op": op.op,
            "response_claim": op.response_claim,
            "reference_claim": op.reference_claim,
            "reason": op.reason,
        }
        for op in result.edit_script
    ]
    stmt = pg_insert(ScoreRow).values(audit_id=audit_id, **values)
    stmt = stmt.on_conflict_do_update(
        index_elements=[ScoreRow.audit_id], set_={**values, "created_at": func.now()}
    )
    session.execute(stmt)


# --------------------------------------------------------------------------- reading an audit back


@dataclass
class AuditState:
    """An audit rebuilt from its rows as the engine's value types.

    ``response_rows[i]`` is the row of ``response_claims[i]``; ``reference_rows[j]`` the row of
    ``reference_claims[j]`` (the flat reference list). ``judgements`` is None before the match
    stage stored verdicts; ``result`` None before the score stage.
    """

    audit: Audit
    response_text: str
    reference_texts: list[str]
    response_rows: list[ClaimRow]
    reference_rows: list[ClaimRow]
    response_claims: list[Claim]
    reference_claims: list[ReferenceClaim]
    judgements: list[Judgement] | None
    result: AuditResult | None
    threshold: float | None
    embedding_model: str | None

    def vectors(self, role: str) -> np.ndarray:
        """Stored vectors of one role's claims, float32 ``(n, dim)``; raises if any is missing."""
        rows = self.response_rows if role == "response" else self.reference_rows
        if any(r.embedding is None for r in rows):
            raise ValueError(f"audit {self.audit.id}: {role} claims without embedding")
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([np.asarray(r.embedding, dtype=np.float32) for r in rows])


def _claim(row: ClaimRow) -> Claim:
    return Claim(
        text=row.text,
        start=row.char_start,
        end=row.char_end,
        kind=ClaimKind(row.kind),
        position=row.position,
        duplicates=row.duplicates,
        ambiguous=row.ambiguous,
    )


def load_audit_state(session: Session, audit_id: uuid.UUID) -> AuditState | None:
    """Load an audit with its documents, claims, verdicts (with evidence) and scores (4 queries)."""
    audit = get_audit(session, audit_id)
    if audit is None:
        return None
    docs = get_documents(session, audit_id)
    doc_position = {d.id: d.position for d in docs}
    rows = list_claims(session, audit_id)
    response_rows = [r for r in rows if r.role == "response"]
    reference_rows = [r for r in rows if r.role == "reference"]
    response_claims = [_claim(r) for r in response_rows]
    reference_claims = [
        ReferenceClaim(reference=doc_position[r.document_id], claim=_claim(r)) for r in reference_rows
    ]
    ref_index = {r.id: j for j, r in enumerate(reference_rows)}
    resp_index = {r.id: i for i, r in enumerate(response_rows)}

    verdict_rows = session.scalars(select(VerdictRow).where(VerdictRow.audit_id == audit_id)).all()
    judgements: list[Judgement] | None = None
    if verdict_rows:
        evidence_rows = session.scalars(
            select(EvidenceRow)
            .where(EvidenceRow.audit_id == audit_id)
            .order_by(EvidenceRow.verdict_id, EvidenceRow.rank)
        ).all()
        by_verdict: dict[int, list[EvidenceRow]] = {}
        for e in evidence_rows:
            by_verdict.setdefault(e.verdict_id, []).append(e)
        judged = []
        for v in verdict_rows:
            evidence = []
            for e in by_verdict.get(v.id, []):
                j = ref_index[e.reference_claim_id]
                rc = reference_claims[j]
                evidence.append(
                    Evidence(
                        reference=rc.reference,
                        claim_index=j,
                        start=rc.claim.start,
                        end=rc.claim.end,
                        text=rc.claim.text,
                        similarity=float(e.similarity),
                    )
                )
            judged.append(
                Judgement(
                    response_index=resp_index[v.claim_id],
                    verdict=Verdict(v.verdict),
                    evidence=tuple(evidence),
                    reason=v.reason,
                    change=v.change,
                    confidence=v.confidence,
                )
            )
        judgements = sorted(judged, key=lambda j: j.response_index)

    score = session.get(ScoreRow, audit_id, populate_existing=True)
    result: AuditResult | None = None
    if score is not None:
        result = AuditResult(
            scores=AuditScores(**{name: getattr(score, name) for name in SCORE_NAMES}),
            counts={name: getattr(score, name) for name in COUNT_NAMES},
            edit_script=tuple(
                EditOp(
                    op=o["op"],
                    response_claim=o["response_claim"],
                    reference_claim=o["reference_claim"],
                    reason=o["reason"],
                )
                for o in score.edit_script
            ),
        )
    return AuditState(
        audit=audit,
        response_text=next((d.text for d in docs if d.role == "response"), ""),
        reference_texts=[d.text for d in docs if d.role == "reference"],
        response_rows=response_rows,
        reference_rows=reference_rows,
        response_claims=response_claims,
        reference_claims=reference_claims,
        judgements=judgements,
        result=result,
        threshold=None if score is None else score.threshold,
        embedding_model=None if score is None else score.embedding_model,
    )


# --------------------------------------------------------------------------- search & cache


def _set_local(session: Session, values: Mapping[str, object]) -> None:
    """``SET LOCAL`` each setting (``set_config(name, value, true)``: ends with the transaction)."""
    for name, value in values.items():
        session.execute(text("SELECT set_config(:n, :v, true)"), {"n": name, "v": str(value)})


def _search_hit(row: Any) -> dict[str, Any]:
    return {
        "claim_id": row[0],
        "audit_id": row[1],
        "role": row[2],
        "reference": row[3] if row[2] == "reference" else None,
        "position": row[4],
        "text": row[5],
        "start": row[6],
        "end": row[7],
        "kind": row[8],
        "similarity": float(row[9]),
        "audit_created_at": row[10],
    }


def search_claims(
    session: Session,
    query: np.ndarray,
    *,
    model: str,
    dim: int,
    k: int,
    ef_search: int = 100,
    tenant_id: str = DEFAULT_TENANT,
    iterative_scan: str = "relaxed_order",
    max_scan_tuples: int = 20_000,
    overfetch: int = 4,
) -> list[dict[str, Any]]:
    """The ``k`` stored claims of ``tenant_id`` nearest to ``query`` (float32 ``(dim,)``) among
    vectors of ``model``.

    Uses the model's partial HNSW index (``ORDER BY embedding::vector(dim) <=> :q``) after
    ``SET LOCAL hnsw.ef_search``; approximate by design. The tenant filter is applied during the
    index scan with pgvector 0.8's iterative scan (``hnsw.iterative_scan = relaxed_order``, up to
    ``max_scan_tuples`` visited tuples; ``iterative_scan="off"`` is pgvector 0.7's post-filter),
    so a tenant holding a small share of the vectors still gets ``k`` hits; the planner may
    instead read a small tenant's vectors through ``ix_claims_tenant_id_embedding_model`` and sort
    them exactly. ``k * overfetch`` candidates are read and the exact best ``k`` kept, which lifts
    the recall of a tenant with a few percent of the rows. Recall is measured by
    ``tools/bench_tenant_search.py`` (README, "Tenants, API keys and limits"). Each item:
    claim_id, audit_id, role, reference (index, None for the response), position, text, start,
    end, kind, similarity (``1 - cosine distance``), audit_created_at; best first.
    """
    _set_local(
        session,
        {
            "hnsw.ef_search": ef_search,
            "hnsw.iterative_scan": iterative_scan,
            "hnsw.max_scan_tuples": max_scan_tuples,
        },
    )
    q = np.asarray(query, dtype=np.float32).reshape(-1)
    distance = cast(ClaimRow.embedding, Vector(dim)).cosine_distance(q)
    stmt = (
        select(
            ClaimRow.id,
            ClaimRow.audit_id,
            ClaimRow.role,
            Document.position,
            ClaimRow.position,
            ClaimRow.text,
            ClaimRow.char_start,
            ClaimRow.char_end,
            ClaimRow.kind,
            (1 - distance).label("similarity"),
            Audit.created_at,
        )
        .join(Document, Document.id == ClaimRow.document_id)
        .join(Audit, Audit.id == ClaimRow.audit_id)
        .where(ClaimRow.embedding_model == model, ClaimRow.tenant_id == tenant_id)
        .order_by(distance)
        .limit(k * max(1, overfetch))
    )
    out = [_search_hit(row) for row in session.execute(stmt).all()]
    # relaxed_order returns neighbours roughly in order and stops once enough rows pass the tenant
    # filter: take the exact best k of k * overfetch candidates.
    out.sort(key=lambda item: -item["similarity"])
    return out[:k]


class PgEmbeddingCache:
    """``claims.embed.EmbeddingCache`` in the ``embedding_cache`` table (never commits)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_many(self, model_name: str, keys: list[str]) -> dict[str, np.ndarray]:
        if not keys:
            return {}
        rows = self.session.execute(
            select(EmbeddingCacheRow.text_sha256, EmbeddingCacheRow.embedding).where(
                EmbeddingCacheRow.model == model_name, EmbeddingCacheRow.text_sha256.in_(keys)
            )
        ).all()
        return {key: np.asarray(vec, dtype=np.float32) for key, vec in rows}

    def put_many(self, model_name: str, vectors: Mapping[str, np.ndarray]) -> None:
        if not vectors:
            return
        values = [
            {
                "model": model_name,
                "text_sha256": k,
                "dim": int(np.asarray(v).shape[-1]),
                "embedding": np.asarray(v, np.float32),
            }
            for k, v in vectors.items()
        ]
        self.session.execute(pg_insert(EmbeddingCacheRow).values(values).on_conflict_do_nothing())


# --------------------------------------------------------------------------- misc


def count_rows(session: Session, audit_id: uuid.UUID) -> dict[str, int]:
    """Row counts of one audit per table (documents, claims, verdicts, evidence, scores)."""
    out = {}
    for name, model in (
        ("documents", Document),
        ("claims", ClaimRow),
        ("verdicts", VerdictRow),
        ("evidence", EvidenceRow),
        ("scores", ScoreRow),
    ):
        out[name] = int(
            session.scalar(select(func.count()).select_from(model).where(model.audit_id == audit_id)) or 0
        )
    return out


def ping(session: Session) -> None:
    """``SELECT 1`` (raises when the database is unreachable)."""
    session.execute(text("SELECT 1"))


def audits_by_status(session: Session) -> dict[str, int]:
    """``{status: number of stored audits}`` (one ``GROUP BY`` over the status index; for /metrics)."""
    rows = session.execute(select(Audit.status, func.count()).group_by(Audit.status)).all()
    return {str(status): int(n) for status, n in rows}
