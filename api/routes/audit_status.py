"""``POST /audits/status`` and ``POST /audits/documents``: the status, and the result documents,
of many audits in one request (what batch clients poll, then fetch).

``POST /audits/documents`` streams its answer: the documents are built ``DOCUMENT_GROUP`` audits
at a time and each group is sent before the next one's rows are read, so the process holds the
rows and documents of one group, never those of the whole answer. The bytes are those one
``JSONResponse`` of the whole answer would send (``tests/integration/test_documents_stream.py``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from sqlalchemy.orm import Session

from api.auth import ReadCaller
from api.deps import SessionDep, SettingsDep
from api.documents import audit_documents, json_bytes
from api.schemas import AuditStatus
from db import repository as repo
from db.models import Audit

router = APIRouter(prefix="/audits", tags=["audits"])

#: Most ids per request.
MAX_IDS = 1_000
#: Most documents per ``POST /audits/documents`` (a document lists every claim of its audit).
MAX_DOCUMENT_IDS = 100
#: Most claims of the documents of one ``POST /audits/documents`` answer (bounds its size).
MAX_DOCUMENT_CLAIMS = 20_000
#: Audits whose documents are built and sent together while the answer streams.
DOCUMENT_GROUP = 10


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


def _stream_documents(
    session: Session, settings: object, audits: Sequence[Audit], missing: list[str], truncated: list[str]
) -> Iterator[bytes]:
    """The bytes of ``{"items": [document, ...], "missing": [...], "truncated": [...]}``, the
    documents built ``DOCUMENT_GROUP`` audits at a time."""
    yield b'{"items":['
    for start in range(0, len(audits), DOCUMENT_GROUP):
        group = audits[start : start + DOCUMENT_GROUP]
        docs = audit_documents(session, group, settings)
        body = b",".join(json_bytes(docs[a.id]) for a in group)
        yield body if start == 0 else b"," + body
        del docs, body
    yield b'],"missing":' + json_bytes(missing) + b',"truncated":' + json_bytes(truncated) + b"}"


@router.post(
    "/documents",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/json": {}}, "description": "The documents (streamed)."}},
)
def audit_documents_of(
    caller: ReadCaller,
    session: SessionDep,
    settings: SettingsDep,
    ids: Annotated[list[uuid.UUID], Body(embed=True, min_length=1, max_length=MAX_DOCUMENT_IDS)],
) -> StreamingResponse:
    """The documents of up to 100 of your tenant's audits, each exactly what ``GET /audits/{id}``
    answers, in the order asked: ``{"items": [document, ...], "missing": [id, ...],
    "truncated": [id, ...]}``. Unknown ids and other tenants' audits are missing; ``truncated``
    lists the audits left out because the answer already holds ``MAX_DOCUMENT_CLAIMS`` claims
    (ask for them again; the first audit is always answered). The answer is streamed (JSON,
    ``DOCUMENT_GROUP`` documents built at a time); its queries are those of one document per
    group, so a batch client fetches its finished audits at a fraction of the cost of one GET each.
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
    missing = [str(i) for i in wanted if i not in found]
    truncated = [str(a.id) for a in ordered[taken:]]
    return StreamingResponse(
        _stream_documents(session, settings, ordered[:taken], missing, truncated),
        media_type="application/json",
    )
