"""Documents and claims of audits: read, replace (idempotent per stage), embeddings.

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sqlalchemy import case, delete, func, insert, select, update
from sqlalchemy.orm import Session, defer

from db.models import (
    ClaimRow,
    Document,
    EvidenceRow,
    ScoreRow,
)


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
    # evidence first, in one statement: one run of the rollup trigger of ``reference_verdicts``
    # (migration 0019) instead of one per claim through the cascade
    session.execute(delete(EvidenceRow).where(EvidenceRow.audit_id.in_(ids)))
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
