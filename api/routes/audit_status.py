"""``POST /audits/status``: the status of many audits in one request (what batch clients poll)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Body
from pydantic import BaseModel

from api.auth import ReadCaller
from api.deps import SessionDep
from api.schemas import AuditStatus
from db import repository as repo

router = APIRouter(prefix="/audits", tags=["audits"])

#: Most ids per request.
MAX_IDS = 1_000


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
