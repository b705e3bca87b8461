"""SQL of a run's outcomes for the comparison of two runs (``claims.run_diff``). Never commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.run_diff import ItemClaim, ItemOutcome
from db.models import Audit, ClaimRow, Document, EvidenceRow, ScoreRow, VerdictRow
from db.run_models import RunItem
from db.runs import SUMMARY_SCORES, SUMMARY_VERDICTS

__all__ = ["run_outcomes", "with_claims"]


def run_outcomes(
    session: Session, run_id: uuid.UUID, *, tenant_id: str = "default", claims: bool = True
) -> list[ItemOutcome]:
    """Every item of the run as ``claims.run_diff.ItemOutcome``, in submission order: status,
    scores, verdict counts and, with ``claims``, its response claims with verdict, reason and best
    evidence text (2 queries; 1 without claims: then ``claims`` is empty, see :func:`with_claims`)."""
    rows = session.execute(
        select(RunItem.item_id, RunItem.audit_id, Audit.status, ScoreRow)
        .outerjoin(Audit, Audit.id == RunItem.audit_id)
        .outerjoin(ScoreRow, ScoreRow.audit_id == Audit.id)
        .where(RunItem.run_id == run_id, RunItem.tenant_id == tenant_id)
        .order_by(RunItem.position)
    ).all()
    audit_ids = [r[1] for r in rows if r[1] is not None]
    found = _response_claims(session, audit_ids) if claims else {}
    out = []
    for item_id, audit_id, status, score in rows:
        scores = {n: (None if score is None else getattr(score, n)) for n in SUMMARY_SCORES}
        counts = {v: (0 if score is None else int(getattr(score, v))) for v in SUMMARY_VERDICTS}
        counts["response_claims"] = 0 if score is None else int(score.response_claims)
        out.append(
            ItemOutcome(
                item_id=item_id,
                audit_id=None if audit_id is None else str(audit_id),
                status=status or "missing",
                scores=scores,
                counts=counts,
                claims=tuple(found.get(audit_id, ())) if audit_id is not None else (),
            )
        )
    return out


def with_claims(session: Session, items: Sequence[ItemOutcome]) -> list[ItemOutcome]:
    """``items`` each with its audit's response claims (as :func:`run_outcomes` reads them), read
    in one query for these items only."""
    ids = [uuid.UUID(i.audit_id) for i in items if i.audit_id is not None]
    found = _response_claims(session, ids)
    return [
        item
        if item.audit_id is None
        else replace(item, claims=tuple(found.get(uuid.UUID(item.audit_id), ())))
        for item in items
    ]


def _response_claims(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[ItemClaim]]:
    if not audit_ids:
        return {}
    evidence_claim = select(ClaimRow.id, ClaimRow.text).subquery("ec")
    stmt = (
        select(ClaimRow.audit_id, ClaimRow.position, ClaimRow.text, VerdictRow, evidence_claim.c.text)
        .join(Document, Document.id == ClaimRow.document_id)
        .join(VerdictRow, VerdictRow.claim_id == ClaimRow.id)
        .outerjoin(EvidenceRow, (EvidenceRow.verdict_id == VerdictRow.id) & (EvidenceRow.rank == 0))
        .outerjoin(evidence_claim, evidence_claim.c.id == EvidenceRow.reference_claim_id)
        .where(ClaimRow.audit_id.in_(audit_ids), ClaimRow.role == "response")
        .order_by(ClaimRow.audit_id, ClaimRow.position)
    )
    out: dict[uuid.UUID, list[ItemClaim]] = {}
    for audit_id, position, text_, verdict, evidence in session.execute(stmt).all():
        out.setdefault(audit_id, []).append(
            ItemClaim(
                position=position,
                text=text_,
                verdict=verdict.verdict,
                reason=verdict.reason,
                evidence=evidence,
            )
        )
    return out
