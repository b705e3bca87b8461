"""Every SQL statement of claimaudit lives here (pattern of polarsource/polar's repositories).

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction. Vectors come back as ``float32`` numpy arrays.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import ColumnElement, case, delete, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session, defer

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
from db.claim_search import search_claims
from db.models import (
    DEFAULT_TENANT,
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
    "REFERENCE_KEYS",
    "is_reference",
    "reference_parts",
    "NewVerdict",
    "NewScore",
    "AuditState",
    "PgEmbeddingCache",
    "create_audit",
    "get_audit",
    "get_audits",
    "get_tenant_audit",
    "find_audit_by_key",
    "AuditFilters",
    "list_audits",
    "score_rows",
    "audit_statuses",
    "mark_done",
    "mark_failed",
    "get_documents",
    "get_documents_of",
    "audit_chars",
    "claim_counts",
    "replace_claims",
    "replace_claims_of",
    "list_claims",
    "list_claims_of",
    "set_embeddings",
    "replace_verdicts",
    "replace_verdicts_of",
    "upsert_scores",
    "upsert_scores_of",
    "load_audit_state",
    "load_audit_states",
    "search_claims",  # db.claim_search, re-exported
    "count_rows",
    "ping",
    "audits_by_status",
]


# --------------------------------------------------------------------------- audits


#: Keys of a reference sent as an object: its text and, optionally, the caller's id, URL and
#: title of the source document (stored in ``documents.source_id`` / ``source_url`` / ``source_title``).
REFERENCE_KEYS: tuple[str, ...] = ("text", "id", "url", "title")


def is_reference(value: object) -> bool:
    """A string, or an object of ``REFERENCE_KEYS`` with string values and a ``text``."""
    if isinstance(value, str):
        return True
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("text"), str)
        and set(value) <= set(REFERENCE_KEYS)
        and all(isinstance(v, str) for v in value.values())
    )


def reference_parts(value: str | Mapping[str, Any]) -> tuple[str, str | None, str | None, str | None]:
    """``(text, id, url, title)`` of a reference (``is_reference``); None where not given."""
    if isinstance(value, str):
        return value, None, None, None
    return value["text"], value.get("id"), value.get("url"), value.get("title")


@dataclass(frozen=True, slots=True)
class NewAudit:
    """A validated request: stored with its documents in one statement group. Each reference is
    its text or an object ``{"text", "id"?, "url"?, "title"?}`` (``is_reference``)."""

    response: str
    references: Sequence[str | Mapping[str, Any]]
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
    texts: list[tuple[str, int, tuple[str, str | None, str | None, str | None]]]
    texts = [("response", 0, reference_parts(new.response))]
    texts += [("reference", i, reference_parts(r)) for i, r in enumerate(new.references)]
    docs = [
        {
            "audit_id": audit_id,
            "role": role,
            "position": pos,
            "text": t,
            "sha256": _sha256(t),
            "source_id": source_id,
            "source_url": url,
            "source_title": title,
        }
        for role, pos, (t, source_id, url, title) in texts
    ]
    session.execute(insert(Document), docs)
    audit = session.get(Audit, audit_id)
    assert audit is not None
    return audit, True


def get_audit(session: Session, audit_id: uuid.UUID) -> Audit | None:
    """The audit row of any tenant, or None (workers and internal callers; the API reads through
    :func:`get_tenant_audit`)."""
    return session.get(Audit, audit_id, populate_existing=True)


def get_audits(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str | None = None
) -> list[Audit]:
    """The audit rows of ``audit_ids`` that exist, of any tenant or only of ``tenant_id`` (one
    query; order not kept)."""
    if not audit_ids:
        return []
    stmt = select(Audit).where(Audit.id.in_(list(audit_ids)))
    if tenant_id is not None:
        stmt = stmt.where(Audit.tenant_id == tenant_id)
    return list(session.scalars(stmt.execution_options(populate_existing=True)).all())


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


@dataclass(frozen=True, slots=True)
class AuditFilters:
    """Filters of ``list_audits`` (each None: no filter); every one given must hold.

    ``since <= created_at < until``; ``verdict``: at least one response claim has it;
    ``score`` (a name of ``SCORE_NAMES``) with ``score_min <= value <= score_max`` (either bound
    may be None; an audit without that score, or whose score is null, never matches);
    ``metadata_key``: the audit's metadata has that top-level key, and with ``metadata_value``
    its value, as text, equals it.
    """

    status: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    verdict: str | None = None
    score: str | None = None
    score_min: float | None = None
    score_max: float | None = None
    metadata_key: str | None = None
    metadata_value: str | None = None


def _audit_conditions(f: AuditFilters) -> list[ColumnElement[bool]]:
    conds: list[ColumnElement[bool]] = []
    if f.status is not None:
        conds.append(Audit.status == f.status)
    if f.since is not None:
        conds.append(Audit.created_at >= f.since)
    if f.until is not None:
        conds.append(Audit.created_at < f.until)
    if f.verdict is not None:
        conds.append(
            select(VerdictRow.id)
            .where(VerdictRow.audit_id == Audit.id, VerdictRow.verdict == f.verdict)
            .exists()
        )
    if f.score is not None and (f.score_min is not None or f.score_max is not None):
        if f.score not in SCORE_NAMES:
            raise ValueError(f"unknown score {f.score!r}; choose from {', '.join(SCORE_NAMES)}")
        column = getattr(ScoreRow, f.score)
        bounds = [ScoreRow.audit_id == Audit.id, column.is_not(None)]
        if f.score_min is not None:
            bounds.append(column >= f.score_min)
        if f.score_max is not None:
            bounds.append(column <= f.score_max)
        conds.append(select(ScoreRow.audit_id).where(*bounds).exists())
    if f.metadata_key is not None:
        conds.append(Audit.metadata_.has_key(f.metadata_key))
        if f.metadata_value is not None:
            conds.append(Audit.metadata_[f.metadata_key].astext == f.metadata_value)
    return conds


def list_audits(
    session: Session,
    *,
    status: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = 50,
    offset: int = 0,
    filters: AuditFilters | None = None,
    tenant_id: str = DEFAULT_TENANT,
) -> tuple[list[Audit], int]:
    """The tenant's audits newest first, filtered by status and ``since <= created_at < until``
    (or by ``filters``, which then replaces those three); and their total before ``limit``/``offset``.

    Raises ``ValueError`` for a score name not in ``SCORE_NAMES``.
    """
    f = filters or AuditFilters(status=status, since=since, until=until)
    conds = [Audit.tenant_id == tenant_id, *_audit_conditions(f)]
    total = session.scalar(select(func.count()).select_from(Audit).where(*conds)) or 0
    rows = session.scalars(
        select(Audit).where(*conds).order_by(Audit.created_at.desc(), Audit.id).limit(limit).offset(offset)
    ).all()
    return list(rows), int(total)


def score_rows(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str
) -> dict[uuid.UUID, ScoreRow]:
    """The score rows (scores, verdict counts) of those of the given audits of ``tenant_id`` that
    have one, by audit id (other tenants' audits are absent)."""
    if not audit_ids:
        return {}
    stmt = (
        select(ScoreRow)
        .join(Audit, Audit.id == ScoreRow.audit_id)
        .where(ScoreRow.audit_id.in_(list(audit_ids)), Audit.tenant_id == tenant_id)
    )
    return {r.audit_id: r for r in session.scalars(stmt).all()}


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


def mark_done(session: Session, audit_id: uuid.UUID) -> None:
    """``status = done``, ``finished_at`` = the wall clock now (only from a running stage).

    ``clock_timestamp()``, not ``now()``: ``now()`` is the start of the transaction, and the
    score stage marks the audit done at the end of the transaction that scored it.
    """
    session.execute(
        update(Audit)
        .where(Audit.id == audit_id, Audit.status.not_in(TERMINAL_STATUSES))
        .values(
            status="done",
            stage=None,
            error=None,
            finished_at=func.clock_timestamp(),
            attempt=None,
            lease_expires_at=None,
        )
        .execution_options(synchronize_session=False)
    )


def mark_failed(session: Session, audit_id: uuid.UUID, error: str) -> bool:
    """``status = failed`` with ``error`` unless already finished; ``stage`` keeps the failing stage.

    Returns True when the row changed.
    """
    result = session.execute(
        update(Audit)
        .where(Audit.id == audit_id, Audit.status.not_in(TERMINAL_STATUSES))
        .values(
            status="failed",
            error=error[:4000],
            finished_at=func.clock_timestamp(),
            attempt=None,
            lease_expires_at=None,
        )
        .returning(Audit.id)
        .execution_options(synchronize_session=False)
    )
    return result.scalar_one_or_none() is not None


# --------------------------------------------------------------------------- documents & claims


def get_documents(session: Session, audit_id: uuid.UUID) -> list[Document]:
    """The audit's documents: the response first, then the references by position."""
    role_order = case((Document.role == "response", 0), else_=1)
    return list(
        session.scalars(
            select(Document).where(Document.audit_id == audit_id).order_by(role_order, Document.position)
        ).all()
    )


def audit_chars(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, int]:
    """Characters of each audit's documents (response and references), one grouped query."""
    if not audit_ids:
        return {}
    stmt = (
        select(Document.audit_id, func.coalesce(func.sum(func.length(Document.text)), 0))
        .where(Document.audit_id.in_(list(audit_ids)))
        .group_by(Document.audit_id)
    )
    found = {aid: int(n) for aid, n in session.execute(stmt).all()}
    return {aid: found.get(aid, 0) for aid in audit_ids}


def claim_counts(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, int]:
    """Number of claims of each audit that has any, one grouped query."""
    if not audit_ids:
        return {}
    stmt = (
        select(ClaimRow.audit_id, func.count())
        .where(ClaimRow.audit_id.in_(list(audit_ids)))
        .group_by(ClaimRow.audit_id)
    )
    return {aid: int(n) for aid, n in session.execute(stmt).all()}


def response_starts(
    session: Session, audit_ids: Sequence[uuid.UUID], *, chars: int = 200
) -> dict[uuid.UUID, str]:
    """The first ``chars`` characters of each audit's response, one query (the list page's titles)."""
    if not audit_ids:
        return {}
    stmt = select(Document.audit_id, func.left(Document.text, chars)).where(
        Document.audit_id.in_(list(audit_ids)), Document.role == "response"
    )
    return {aid: str(text) for aid, text in session.execute(stmt).all()}


def get_documents_of(session: Session, audit_ids: Sequence[uuid.UUID]) -> list[Document]:
    """The documents of several audits in one query, ordered as :func:`get_documents` per audit."""
    if not audit_ids:
        return []
    role_order = case((Document.role == "response", 0), else_=1)
    stmt = (
        select(Document)
        .where(Document.audit_id.in_(list(audit_ids)))
        .order_by(Document.audit_id, role_order, Document.position)
    )
    return list(session.scalars(stmt).all())


def replace_claims(session: Session, audit_id: uuid.UUID, rows: Sequence[Mapping[str, Any]]) -> None:
    """Delete the audit's claims (and, by cascade, its verdicts and evidence) and its scores, then
    insert ``rows`` in one batch. Each row: document_id, role, position, text, char_start, char_end,
    kind, duplicates, ambiguous. Idempotent: re-running leaves exactly ``rows``.
    """
    replace_claims_of(session, {audit_id: rows})


def replace_claims_of(
    session: Session, rows_by_audit: Mapping[uuid.UUID, Sequence[Mapping[str, Any]]]
) -> None:
    """:func:`replace_claims` of several audits in three statements (a bundle's stage)."""
    ids = list(rows_by_audit)
    if not ids:
        return
    session.execute(delete(ScoreRow).where(ScoreRow.audit_id.in_(ids)))
    session.execute(delete(ClaimRow).where(ClaimRow.audit_id.in_(ids)))
    values = [{**r, "audit_id": aid} for aid, rows in rows_by_audit.items() for r in rows]
    if values:
        session.execute(insert(ClaimRow), values)


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


def list_claims_of(session: Session, audit_ids: Sequence[uuid.UUID]) -> list[ClaimRow]:
    """The claims of several audits in one query (order not kept); vectors are not loaded."""
    if not audit_ids:
        return []
    stmt = select(ClaimRow).where(ClaimRow.audit_id.in_(list(audit_ids))).options(defer(ClaimRow.embedding))
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
    replace_verdicts_of(session, {audit_id: verdicts})


def replace_verdicts_of(
    session: Session, verdicts_by_audit: Mapping[uuid.UUID, Sequence[NewVerdict]]
) -> None:
    """:func:`replace_verdicts` of several audits in four statements (a bundle's stage)."""
    ids = list(verdicts_by_audit)
    if not ids:
        return
    session.execute(delete(ScoreRow).where(ScoreRow.audit_id.in_(ids)))
    session.execute(delete(VerdictRow).where(VerdictRow.audit_id.in_(ids)))
    pairs = [(aid, v) for aid, verdicts in verdicts_by_audit.items() for v in verdicts]
    if not pairs:
        return
    rows = [
        {
            "audit_id": aid,
            "claim_id": v.claim_id,
            "verdict": v.verdict,
            "reason": v.reason,
            "change": v.change,
            "confidence": None if v.confidence is None else float(v.confidence),
        }
        for aid, v in pairs
    ]
    by_claim: dict[int, int] = {}
    for chunk in _chunks(rows):  # bind parameters: 6 per row
        stmt = insert(VerdictRow).values(list(chunk)).returning(VerdictRow.id, VerdictRow.claim_id)
        by_claim.update({claim_id: vid for vid, claim_id in session.execute(stmt).all()})
    evidence = [
        {
            "verdict_id": by_claim[v.claim_id],
            "rank": rank,
            "audit_id": aid,
            "reference_claim_id": ref_id,
            "similarity": float(sim),
        }
        for aid, v in pairs
        for rank, (ref_id, sim) in enumerate(v.evidence)
    ]
    if evidence:
        session.execute(insert(EvidenceRow), evidence)


def upsert_scores(
    session: Session, audit_id: uuid.UUID, result: AuditResult, *, threshold: float, embedding_model: str
) -> None:
    """Insert or replace the audit's score row (``ON CONFLICT (audit_id) DO UPDATE``)."""
    upsert_scores_of(session, {audit_id: NewScore(result, threshold, embedding_model)})


@dataclass(frozen=True, slots=True)
class NewScore:
    """A score row to store: the engine's result, the cosine threshold and the embedding model."""

    result: AuditResult
    threshold: float
    embedding_model: str


def upsert_scores_of(session: Session, scores: Mapping[uuid.UUID, NewScore]) -> None:
    """:func:`upsert_scores` of several audits in one statement (a bundle's stage)."""
    if not scores:
        return
    rows = [{"audit_id": aid, **_score_values(new)} for aid, new in scores.items()]
    stmt = pg_insert(ScoreRow).values(rows)
    updated = {k: stmt.excluded[k] for k in rows[0] if k != "audit_id"}
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=[ScoreRow.audit_id], set_={**updated, "created_at": func.now()}
        )
    )


def _score_values(new: NewScore) -> dict[str, Any]:
    result = new.result
    values: dict[str, Any] = {name: getattr(result.scores, name) for name in SCORE_NAMES}
    values.update({name: int(result.counts.get(name, 0)) for name in COUNT_NAMES})
    values["threshold"] = float(new.threshold)
    values["embedding_model"] = new.embedding_model
    values["edit_script"] = [
        {
            "op": op.op,
            "response_claim": op.response_claim,
            "reference_claim": op.reference_claim,
            "reason": op.reason,
        }
        for op in result.edit_script
    ]
    return values


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
    """Load an audit with its documents, claims, verdicts (with evidence) and scores (6 queries)."""
    return load_audit_states(session, [audit_id]).get(audit_id)


def load_audit_states(
    session: Session,
    audit_ids: Sequence[uuid.UUID],
    *,
    verdicts: bool = True,
    scores: bool = True,
    audits: Sequence[Audit] | None = None,
) -> dict[uuid.UUID, AuditState]:
    """:func:`load_audit_state` of several audits in the same 6 queries (a bundle's stage);
    audits that do not exist are absent from the result.

    ``verdicts=False`` skips the verdicts and their evidence (``judgements`` is None: what the
    match stage, which replaces them, reads); ``scores=False`` skips the score row (``result``,
    ``threshold`` and ``embedding_model`` are None: what the score stage, which replaces it,
    reads). Each skipped table is one query fewer. ``audits``: the audit rows of ``audit_ids``,
    already read (then they are not read again; rows of other audits are ignored).
    """
    wanted = set(audit_ids)
    rows = get_audits(session, audit_ids) if audits is None else [a for a in audits if a.id in wanted]
    by_id = {a.id: a for a in rows}
    if not by_id:
        return {}
    ids = list(by_id)
    role_order = case((Document.role == "response", 0), else_=1)
    docs = session.scalars(
        select(Document).where(Document.audit_id.in_(ids)).order_by(role_order, Document.position)
    ).all()
    claims = session.scalars(
        select(ClaimRow)
        .join(Document, Document.id == ClaimRow.document_id)
        .where(ClaimRow.audit_id.in_(ids))
        .order_by(role_order, Document.position, ClaimRow.position)
    ).all()
    verdict_rows: Sequence[VerdictRow] = ()
    evidence: Sequence[EvidenceRow] = ()
    score_rows: Sequence[ScoreRow] = ()
    if verdicts:
        verdict_rows = session.scalars(select(VerdictRow).where(VerdictRow.audit_id.in_(ids))).all()
        evidence = session.scalars(
            select(EvidenceRow)
            .where(EvidenceRow.audit_id.in_(ids))
            .order_by(EvidenceRow.verdict_id, EvidenceRow.rank)
        ).all()
    if scores:
        score_rows = session.scalars(
            select(ScoreRow).where(ScoreRow.audit_id.in_(ids)).execution_options(populate_existing=True)
        ).all()
    by_audit: dict[uuid.UUID, _AuditRows] = {aid: _AuditRows(by_id[aid]) for aid in ids}
    for doc in docs:
        by_audit[doc.audit_id].docs.append(doc)
    for claim in claims:
        by_audit[claim.audit_id].claims.append(claim)
    for verdict in verdict_rows:
        by_audit[verdict.audit_id].verdicts.append(verdict)
    for item in evidence:
        by_audit[item.audit_id].evidence.append(item)
    for score in score_rows:
        by_audit[score.audit_id].score = score
    return {aid: _state_of(rows) for aid, rows in by_audit.items()}


@dataclass
class _AuditRows:
    """The rows of one audit, each list in :func:`get_documents` / :func:`list_claims` order."""

    audit: Audit
    docs: list[Document] = field(default_factory=list)
    claims: list[ClaimRow] = field(default_factory=list)
    verdicts: list[VerdictRow] = field(default_factory=list)
    evidence: list[EvidenceRow] = field(default_factory=list)
    score: ScoreRow | None = None


def _state_of(rows: _AuditRows) -> AuditState:
    doc_position = {d.id: d.position for d in rows.docs}
    response_rows = [r for r in rows.claims if r.role == "response"]
    reference_rows = [r for r in rows.claims if r.role == "reference"]
    reference_claims = [
        ReferenceClaim(reference=doc_position[r.document_id], claim=_claim(r)) for r in reference_rows
    ]
    score = rows.score
    return AuditState(
        audit=rows.audit,
        response_text=next((d.text for d in rows.docs if d.role == "response"), ""),
        reference_texts=[d.text for d in rows.docs if d.role == "reference"],
        response_rows=response_rows,
        reference_rows=reference_rows,
        response_claims=[_claim(r) for r in response_rows],
        reference_claims=reference_claims,
        judgements=_judgements_of(rows, response_rows, reference_rows, reference_claims),
        result=None if score is None else _result_of(score),
        threshold=None if score is None else score.threshold,
        embedding_model=None if score is None else score.embedding_model,
    )


def _judgements_of(
    rows: _AuditRows,
    response_rows: list[ClaimRow],
    reference_rows: list[ClaimRow],
    reference_claims: list[ReferenceClaim],
) -> list[Judgement] | None:
    """The stored verdicts as ``Judgement``s by response index; None before the match stage."""
    if not rows.verdicts:
        return None
    ref_index = {r.id: j for j, r in enumerate(reference_rows)}
    resp_index = {r.id: i for i, r in enumerate(response_rows)}
    by_verdict: dict[int, list[EvidenceRow]] = {}
    for e in rows.evidence:
        by_verdict.setdefault(e.verdict_id, []).append(e)
    judged = []
    for v in rows.verdicts:
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
    return sorted(judged, key=lambda j: j.response_index)


def _result_of(score: ScoreRow) -> AuditResult:
    return AuditResult(
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


# --------------------------------------------------------------------------- cache


#: Rows or keys per statement: Postgres takes at most 65,535 bind parameters per statement.
STATEMENT_ROWS = 5_000


def _chunks(items: Sequence[Any], size: int = STATEMENT_ROWS) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


class PgEmbeddingCache:
    """``claims.embed.EmbeddingCache`` in the ``embedding_cache`` table (never commits); reads
    and writes ``STATEMENT_ROWS`` keys per statement."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_many(self, model_name: str, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for chunk in _chunks(keys):
            rows = self.session.execute(
                select(EmbeddingCacheRow.text_sha256, EmbeddingCacheRow.embedding).where(
                    EmbeddingCacheRow.model == model_name, EmbeddingCacheRow.text_sha256.in_(chunk)
                )
            ).all()
            found.update({key: np.asarray(vec, dtype=np.float32) for key, vec in rows})
        return found

    def put_many(self, model_name: str, vectors: Mapping[str, np.ndarray]) -> None:
        values = [
            {
                "model": model_name,
                "text_sha256": k,
                "dim": int(np.asarray(v).shape[-1]),
                "embedding": np.asarray(v, np.float32),
            }
            for k, v in vectors.items()
        ]
        for chunk in _chunks(values):
            self.session.execute(pg_insert(EmbeddingCacheRow).values(list(chunk)).on_conflict_do_nothing())


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


def audits_by_status(session: Session, tenant_id: str | None = None) -> dict[str, int]:
    """``{status: number of stored audits}`` of every tenant, or of ``tenant_id`` (one ``GROUP BY``
    over the status index; for /metrics)."""
    stmt = select(Audit.status, func.count()).group_by(Audit.status)
    if tenant_id is not None:
        stmt = stmt.where(Audit.tenant_id == tenant_id)
    rows = session.execute(stmt).all()
    return {str(status): int(n) for status, n in rows}
