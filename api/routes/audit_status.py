"""``POST /audits/status`` and ``POST /audits/documents``: the status, and the result documents,
of many audits in one request (what batch clients poll, then fetch)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.auth import ReadCaller
from api.deps import SessionDep, SettingsDep
from api.documents import audit_documents
from api.schemas import AuditStatus
from db import repository as repo

router = APIRouter(prefix="/audits", tags=["audits"])

#: Most ids per request.
MAX_IDS = 1_000
#: Most documents per ``POST /audits/documents`` (a document lists every claim of its audit).
MAX_DOCUMENT_IDS = 100
#: Most claims of the documents of one ``POST /audits/documents`` answer (bounds its memory).
MAX_DOCUMENT_CLAIMS = 20_000


class StatusItem(BaseModel):
    id: uuid.UUID
    status: AuditStatus
    stage: str | None
    error: str | None
    finished_at: datetime | None


class StatusPage(BaseModel):
    items: list[StatusItem]
    missing: list[uuid.UUID]


@router.post("/status", response_model=StatusPage)
def audit_statuses(
    caller: ReadCaller,
    session: SessionDep,
    ids: Annotated[list[uuid.UUID], Body(embed=True, min_length=1, max_length=MAX_IDS)],
) -> dict[str, object]:
    """Status, stage, error and finished_at of up to 1,000 of your tenant's audits in one read."""
    wanted = list(dict.fromkeys(ids))
    items = repo.audit_statuses(session, wanted, tenant_id=caller.tenant_id)
    found = {item["id"] for item in items}
    return {"items": items, "missing": [i for i in wanted if i not in found]}


@router.post("/documents")
def audit_documents_of(
    caller: ReadCaller,
    session: SessionDep,
    settings: SettingsDep,
    ids: Annotated[list[uuid.UUID], Body(embed=True, min_length=1, max_length=MAX_DOCUMENT_IDS)],
) -> JSONResponse:
    """The documents of up to 100 of your tenant's audits, each exactly what ``GET /audits/{id}``
    answers, in the order asked: ``{"items": [document, ...], "missing": [id, ...],
    "truncated": [id, ...]}``. Unknown ids and other tenants' audits are missing; ``truncated``
    lists the audits left out because the answer already holds ``MAX_DOCUMENT_CLAIMS`` claims
    (ask for them again; the first audit is always answered). The queries are those of one
    document, however many are asked for, so a batch client fetches its finished audits at a
    fraction of the cost of one GET each.
    """
    wanted = list(dict.fromkeys(ids))
    found = {a.id: a for a in repo.get_audits(session, wanted, tenant_id=caller.tenant_id)}
    ordered = [found[i] for i in wanted if i in found]
    counts = repo.claim_counts(session, [a.id for a in ordered if a.status == "done"])
    taken, claims = 0, 0
    for audit in ordered:
        n = counts.get(audit.id, 0)
        if taken and claims + n > MAX_DOCUMENT_CLAIMS:
            break
        taken, claims = taken + 1, claims + n
    docs = audit_documents(session, ordered[:taken], settings)
    return JSONResponse(
        {
            "items": [docs[a.id] for a in ordered[:taken]],
            "missing": [str(i) for i in wanted if i not in found],
            "truncated": [str(a.id) for a in ordered[taken:]],
        }
    )
