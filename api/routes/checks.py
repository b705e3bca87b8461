"""The audit method's own checks: planted-fault canaries, a second auditor, corrected answers.

Every route takes the caller (``api.auth``): reading ones need ``audits:read``, writing ones
``audits:write``; every query is the caller's tenant's, so another tenant's audit is a 404, and the
audits a check creates belong to the audit's (the caller's) tenant.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, status
from pydantic import BaseModel, ConfigDict, Field

from api import audit_service
from api.auth import Caller, ReadCaller, WriteCaller
from api.check_documents import correction_document
from api.deps import SessionDep, SettingsDep
from api.errors import refusal
from api.schemas import AuditConfig
from claims.agreement import agreement
from claims.canary import CANARY_KINDS
from db import checks_repository as checks_repo
from db import repository as repo
from db.models import VERDICTS, Audit
from service import checks
from service.settings import Settings

router = APIRouter(tags=["checks"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such audit."},
    409: {"description": "The audit is not done yet."},
}


class CanaryRequest(BaseModel):
    """Which canaries to plant in the audit's references."""

    model_config = ConfigDict(extra="forbid")

    per_kind: Annotated[
        int,
        Field(ge=1, le=50, description="Canaries per fault kind (fewer when the references offer fewer)."),
    ] = 3
    kinds: Annotated[
        list[str] | None, Field(description=f"Fault kinds, default all: {', '.join(CANARY_KINDS)}.")
    ] = None
    seed: Annotated[
        int,
        Field(
            ge=0,
            le=2**31 - 1,
            description="Same references and seed: same canaries (a repeat stores nothing new).",
        ),
    ] = 0


class SecondAuditRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    config: Annotated[
        AuditConfig | None,
        Field(
            description="Config overrides of the second auditor; default SECOND_AUDIT_CONFIG (see README)."
        ),
    ] = None


class CorrectionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    insert_missing: bool = Field(
        False, description="Also append the reference claims the response does not cover."
    )


def _http(exc: Exception) -> HTTPException:
    if isinstance(exc, checks.CheckError):
        return HTTPException(status.HTTP_404_NOT_FOUND, detail=str(exc))
    if isinstance(exc, checks.NotDone):
        return HTTPException(status.HTTP_409_CONFLICT, detail=str(exc))
    return HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=str(exc))


def _exists(session: SessionDep, audit_id: uuid.UUID, tenant_id: str) -> Audit:
    audit = repo.get_tenant_audit(session, audit_id, tenant_id=tenant_id)
    if audit is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"audit {audit_id} not found")
    return audit


def _admit(
    caller: Caller,
    request: Request,
    session: SessionDep,
    settings: Settings,
    config: dict[str, Any],
    count: int,
) -> None:
    """The audits a check creates through the admission path (``service.admission``): their config
    (models, endpoint, token budget) and the caller's audits per minute; raises the HTTP refusal."""
    found = audit_service.admit(caller, request, [{"config": config}] * count, session, settings)
    refused = next((r for r in found if r is not None), None)
    if refused is not None:
        raise refusal(refused)


# --------------------------------------------------------------------------- canaries


@router.post("/audits/{audit_id}/canaries", status_code=status.HTTP_202_ACCEPTED, responses=_ERRORS)
def plant_canaries(
    audit_id: uuid.UUID,
    caller: WriteCaller,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    req: CanaryRequest | None = None,
) -> dict[str, Any]:
    """Plant known faults in the audit's references, audit each canary through the queue (202)."""
    req = req or CanaryRequest()
    parent = _exists(session, audit_id, caller.tenant_id)
    _admit(
        caller,
        request,
        session,
        settings,
        dict(parent.config or {}),
        req.per_kind * len(req.kinds or CANARY_KINDS),
    )
    try:
        new = checks.create_canaries(
            session,
            audit_id,
            per_kind=req.per_kind,
            kinds=req.kinds,
            seed=req.seed,
            tenant_id=caller.tenant_id,
        )
    except (checks.CheckError, checks.NotDone, ValueError) as exc:
        session.rollback()
        raise _http(exc) from None
    session.commit()
    audit_service.enqueue(session, new, settings)
    return canary_report(audit_id, caller, session)


@router.get("/audits/{audit_id}/canaries", responses={404: _ERRORS[404]})
def canary_report(audit_id: uuid.UUID, caller: ReadCaller, session: SessionDep) -> dict[str, Any]:
    """The audit's canaries and the detection rate per fault kind (null while none of a kind is done)."""
    _exists(session, audit_id, caller.tenant_id)
    rows = checks_repo.canary_results(session, audit_id, tenant_id=caller.tenant_id)
    by_kind = {
        r["kind"]: r for r in checks_repo.canary_detection(session, audit_id, tenant_id=caller.tenant_id)
    }
    kinds = {k: by_kind.get(k) for k in CANARY_KINDS}
    pending = sum(1 for r in rows if r["canary_status"] not in ("done", "failed", "rejected"))
    return {
        "audit_id": str(audit_id),
        "complete": pending == 0,
        "pending": pending,
        "failed": sum(1 for r in rows if r["canary_status"] in ("failed", "rejected")),
        "by_kind": {
            k: ({kk: vv for kk, vv in v.items() if kk != "kind"} if v else None) for k, v in kinds.items()
        },
        "not_generated": [k for k, v in kinds.items() if v is None],
        "canaries": [{**r, "canary_audit_id": str(r["canary_audit_id"])} for r in rows],
    }


@router.get("/checks/canaries")
def canary_rates(caller: ReadCaller, session: SessionDep, since: datetime | None = None) -> dict[str, Any]:
    """Detection rate per day and fault kind over your tenant's canaries (view ``canary_detection_daily``)."""
    rows = checks_repo.canary_rates(session, since=since, tenant_id=caller.tenant_id)
    return {"items": [{**r, "day": r["day"].isoformat()} for r in rows]}


# --------------------------------------------------------------------------- second audits


@router.post("/audits/{audit_id}/second-audit", status_code=status.HTTP_202_ACCEPTED, responses=_ERRORS)
def request_second_audit(
    audit_id: uuid.UUID,
    caller: WriteCaller,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    req: SecondAuditRequest | None = None,
) -> dict[str, Any]:
    """Re-audit the same texts with a second auditor's config through the queue (202)."""
    parent = _exists(session, audit_id, caller.tenant_id)
    given = req.config.model_dump(exclude_unset=True) if req and req.config is not None else {}
    config = given or checks.second_config(settings)
    _admit(caller, request, session, settings, {**(parent.config or {}), **config}, 1)
    try:
        new = checks.create_second_audit(session, audit_id, config=config, tenant_id=caller.tenant_id)
    except (checks.CheckError, checks.NotDone, ValueError) as exc:
        session.rollback()
        raise _http(exc) from None
    session.commit()
    audit_service.enqueue(session, [new] if new else [], settings)
    return second_audit_report(audit_id, caller, session)


def _by(rows: list[Any], key: str) -> dict[str, Any]:
    groups: dict[str, list[Any]] = defaultdict(list)
    for r in rows:
        groups[getattr(r, key)].append(r)
    return {k: _figures(v) for k, v in sorted(groups.items())}


def _figures(rows: list[Any]) -> dict[str, Any]:
    paired = [r for r in rows if r.second_verdict is not None]
    a = agreement([r.verdict for r in paired], [r.second_verdict for r in paired], VERDICTS)
    return {"claims": len(rows), "paired": len(paired), "agreed": sum(r.agrees for r in rows), **a.as_dict()}


def _second_item(session: SessionDep, row: Any) -> dict[str, Any]:
    audit = repo.get_audit(session, row.second_audit_id)
    claims = checks_repo.second_audit_claims(session, row.id)
    return {
        "second_audit_id": str(row.second_audit_id),
        "status": None if audit is None else audit.status,
        "config": row.config,
        "reason": row.reason,
        "claims": row.claims,
        "agreed": row.agreed,
        "kappa": row.kappa,
        "confusion": row.confusion,
        "computed_at": None if row.computed_at is None else row.computed_at.isoformat(),
        "by_claim_type": _by(claims, "claim_type") if claims else {},
        "by_verdict": _figures(claims)["per_class"] if claims else {},
        "disagreements": [
            {
                "claim_position": c.claim_position,
                "claim_text": c.claim_text,
                "claim_type": c.claim_type,
                "verdict": c.verdict,
                "second_verdict": c.second_verdict,
            }
            for c in claims
            if not c.agrees
        ],  # fmt: skip
    }


@router.get("/audits/{audit_id}/second-audit", responses={404: _ERRORS[404]})
def second_audit_report(audit_id: uuid.UUID, caller: ReadCaller, session: SessionDep) -> dict[str, Any]:
    """The audit's second audits: agreement (kappa, confusion) per claim type and verdict, disagreements."""
    _exists(session, audit_id, caller.tenant_id)
    rows = checks_repo.second_audits_of(session, audit_id, tenant_id=caller.tenant_id)
    return {"audit_id": str(audit_id), "second_audits": [_second_item(session, r) for r in rows]}


@router.get("/checks/second-audits")
def second_audit_agreement(
    caller: ReadCaller, session: SessionDep, since: datetime | None = None
) -> dict[str, Any]:
    """Agreement of the auditor with its second auditor over your tenant's computed second audits
    (pooled claims)."""
    rows = checks_repo.second_audit_claims_since(session, since=since, tenant_id=caller.tenant_id)
    return {"all": _figures(rows), "by_claim_type": _by(rows, "claim_type")}


# --------------------------------------------------------------------------- corrections


@router.post("/audits/{audit_id}/correction", status_code=status.HTTP_202_ACCEPTED, responses=_ERRORS)
def request_correction(
    audit_id: uuid.UUID,
    caller: WriteCaller,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    req: CorrectionRequest | None = None,
) -> dict[str, Any]:
    """Build the corrected answer from the edit script and re-audit it against the same references (202)."""
    parent = _exists(session, audit_id, caller.tenant_id)
    _admit(caller, request, session, settings, dict(parent.config or {}), 1)
    try:
        new = checks.create_correction(
            session, audit_id, insert_missing=bool(req and req.insert_missing), tenant_id=caller.tenant_id
        )
    except (checks.CheckError, checks.NotDone) as exc:
        session.rollback()
        raise _http(exc) from None
    session.commit()
    audit_service.enqueue(session, [new] if new else [], settings)
    return correction_report(audit_id, caller, session)


@router.get(
    "/audits/{audit_id}/correction", responses={404: {"description": "No such audit or no correction."}}
)
def correction_report(audit_id: uuid.UUID, caller: ReadCaller, session: SessionDep) -> dict[str, Any]:
    """The corrected answer, its diff against the response, whether its re-audit passes (null until done)."""
    _exists(session, audit_id, caller.tenant_id)
    doc = correction_document(session, audit_id, tenant_id=caller.tenant_id)
    if doc is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"audit {audit_id} has no correction")
    return {"audit_id": str(audit_id), **doc}
