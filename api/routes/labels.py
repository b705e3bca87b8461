"""Human labels: reviewers' verdicts on response claims (or whole audits) and the agreement report.

Every route takes the caller (``api.auth``): labelling needs ``audits:write``, the report
``audits:read``; labels name only the caller's tenant's audits (another tenant's is "not found")
and the report covers only its labels.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, status
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from api.auth import ReadCaller, WriteCaller
from api.deps import SessionDep
from api.schemas import Text
from claims.agreement import AUDIT_LABELS, agreement, audit_label, claim_type
from db import checks_repository as checks_repo
from db import repository as repo
from db.models import VERDICTS

router = APIRouter(tags=["labels"])

#: Disagreements listed in the report (the rest are counted).
MAX_ERRORS = 200


class ClaimLabel(BaseModel):
    """A reviewer's verdict on one response claim."""

    model_config = ConfigDict(extra="forbid")

    verdict: str = Field(description=f"One of {', '.join(VERDICTS)}.")
    reviewer: Text = Field("", max_length=200)
    note: Text | None = None


class LabelItem(BaseModel):
    """One imported label: ``claim`` is the response claim's position, or null for the whole audit
    (then ``label`` is one of support, partial, not_supported, refute)."""

    model_config = ConfigDict(extra="forbid")

    audit_id: uuid.UUID
    claim: int | None = Field(None, ge=0, le=2**31 - 1)
    label: str
    reviewer: Text = Field("", max_length=200)
    note: Text | None = None


class LabelImport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    labels: list[LabelItem] = Field(max_length=100_000)
    source: Text = Field("import", max_length=16)


def _label_row(session: Session, item: LabelItem, source: str, tenant_id: str) -> dict[str, Any]:
    """The row to store (of ``tenant_id``'s audit), or ``ValueError`` naming what is wrong."""
    audit = repo.get_tenant_audit(session, item.audit_id, tenant_id=tenant_id)
    if audit is None:
        raise ValueError(f"audit {item.audit_id} not found")
    row: dict[str, Any] = {
        "audit_id": item.audit_id, "claim_position": item.claim, "label": item.label,
        "reviewer": item.reviewer, "note": item.note, "source": source, "claim_type": None,
    }  # fmt: skip
    if item.claim is None:
        if item.label not in AUDIT_LABELS:
            raise ValueError(f"label {item.label!r} of a whole audit must be one of {list(AUDIT_LABELS)}")
        return row
    if item.label not in VERDICTS:
        raise ValueError(f"label {item.label!r} must be one of {list(VERDICTS)}")
    if audit.status != "done":
        raise ValueError(f"audit {item.audit_id} is {audit.status}; label its claims once it is done")
    claims = checks_repo.response_claims(session, item.audit_id)
    if item.claim not in claims:
        raise ValueError(f"audit {item.audit_id} has no response claim {item.claim} (it has {len(claims)})")
    row["claim_type"] = claim_type(claims[item.claim][0])
    return row


@router.put(
    "/audits/{audit_id}/claims/{n}/label",
    responses={
        404: {"description": "No such audit or claim."},
        409: {"description": "The audit is not done."},
    },
)
def put_label(
    audit_id: uuid.UUID,
    n: Annotated[int, Path(ge=0, le=2**31 - 1)],
    body: ClaimLabel,
    caller: WriteCaller,
    session: SessionDep,
) -> dict[str, Any]:
    """Record (or replace) a reviewer's verdict on response claim ``n`` (its position) of the audit."""
    item = LabelItem(audit_id=audit_id, claim=n, label=body.verdict, reviewer=body.reviewer, note=body.note)
    audit = repo.get_tenant_audit(session, audit_id, tenant_id=caller.tenant_id)
    if audit is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"audit {audit_id} not found")
    if audit.status != "done":
        raise HTTPException(status.HTTP_409_CONFLICT, detail=f"audit {audit_id} is {audit.status}")
    if n < 0 or n not in checks_repo.response_claims(session, audit_id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"audit {audit_id} has no response claim {n}")
    try:
        row = _label_row(session, item, "api", caller.tenant_id)
    except ValueError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=str(exc)) from None
    checks_repo.upsert_labels(session, [row])
    session.commit()
    return {k: (str(v) if isinstance(v, uuid.UUID) else v) for k, v in row.items()}


@router.post("/labels", responses={422: {"description": "Some labels are invalid; none was stored."}})
def import_labels(body: LabelImport, caller: WriteCaller, session: SessionDep) -> dict[str, Any]:
    """Store many labels at once: all or none (a 422 lists every invalid item by index)."""
    rows: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for i, item in enumerate(body.labels):
        try:
            rows.append(_label_row(session, item, body.source, caller.tenant_id))
        except ValueError as exc:
            errors.append({"loc": ["body", "labels", i], "msg": str(exc), "type": "value_error"})
    keys = [(r["audit_id"], r["claim_position"], r["reviewer"]) for r in rows]
    if len(set(keys)) != len(keys):
        msg = "the same (audit_id, claim, reviewer) appears more than once"
        errors.append({"loc": ["body", "labels"], "msg": msg, "type": "value_error"})
    if errors:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=errors)
    stored = checks_repo.upsert_labels(session, rows)
    session.commit()
    return {"stored": stored}


def _claims_report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    judged = [r for r in rows if r["verdict"] is not None]
    overall = agreement([r["label"] for r in judged], [r["verdict"] for r in judged], VERDICTS).as_dict()
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in judged:
        groups[r["claim_type"] or "other"].append(r)
    by_type = {
        t: agreement([r["label"] for r in g], [r["verdict"] for r in g], VERDICTS).as_dict()
        for t, g in sorted(groups.items())
    }
    errors = [
        {"audit_id": str(r["audit_id"]), "claim": r["claim_position"], "claim_type": r["claim_type"],
         "label": r["label"], "verdict": r["verdict"], "claim_text": r["claim_text"],
         "reviewer": r["reviewer"]}
        for r in judged if not r["agrees"]
    ]  # fmt: skip
    return {**overall, "by_claim_type": by_type, "errors": errors[:MAX_ERRORS], "error_count": len(errors)}


def _support_balanced_accuracy(gold: list[str], predicted: list[str]) -> float | None:
    """``run_label_eval.py``'s figure: balanced accuracy of support against the rest."""
    pos = [p == "support" for g, p in zip(gold, predicted, strict=True) if g == "support"]
    neg = [p != "support" for g, p in zip(gold, predicted, strict=True) if g != "support"]
    if not pos or not neg:
        return None
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def _audits_report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    gold = [r["label"] for r in rows]
    # an audit that is not done counts as not_supported, as in run_label_eval.py
    predicted = [audit_label(r["verdicts"]) if r["status"] == "done" else "not_supported" for r in rows]
    report = agreement(gold, predicted, AUDIT_LABELS).as_dict()
    return {**report, "support_balanced_accuracy": _support_balanced_accuracy(gold, predicted)}


@router.get("/labels/agreement")
def label_agreement(
    caller: ReadCaller, session: SessionDep, reviewer: str | None = None, since: datetime | None = None
) -> dict[str, Any]:
    """Agreement of the auditor with the human labels: per claim (confusion, kappa, balanced
    accuracy, per verdict and per claim type, the disagreements) and per labelled audit."""
    claims = checks_repo.labelled_claims(session, reviewer=reviewer, since=since, tenant_id=caller.tenant_id)
    audits = checks_repo.audit_labels(session, reviewer=reviewer, since=since, tenant_id=caller.tenant_id)
    return {"claims": _claims_report(claims), "audits": _audits_report(audits)}
