"""``/audits``: submit one or many audits, poll one, list them."""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Header, Query, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from api import audit_service
from api.auth import ReadCaller, WriteCaller
from api.deps import SessionDep, SettingsDep
from api.documents import audit_document, poll_url
from api.errors import DATABASE_DOWN, ErrorBody, problem, refusal, validation_text
from api.schemas import (
    MAX_IDEMPOTENCY_KEY,
    MAX_OFFSET,
    AuditAccepted,
    AuditPage,
    AuditRequest,
    AuditStatus,
    BatchAccepted,
    BatchItem,
    BatchItemResult,
)
from claims.types import SCORE_NAMES, Verdict
from db.audit_events import AuditEndListener
from db.models import TERMINAL_STATUSES
from service import admission
from service.settings import Settings

log = logging.getLogger(__name__)

router = APIRouter(prefix="/audits", tags=["audits"])


def _store_error(exc: DBAPIError) -> Exception:
    """The database refused the row: 503 when it is unreachable, else 422 (input it cannot store)."""
    if isinstance(exc, DATABASE_DOWN):
        return exc
    msg = " ".join(str(exc.orig).split())[:300]
    return problem(status.HTTP_422_UNPROCESSABLE_CONTENT, f"could not store the audit: {msg}", loc=["body"])


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=AuditAccepted,
    responses={
        200: {"model": AuditAccepted, "description": "Replay: same Idempotency-Key and body."},
        409: {"model": ErrorBody, "description": "Idempotency-Key reused with a different body."},
    },
)
def submit_audit(
    req: AuditRequest,
    caller: WriteCaller,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    response: Response,
    idempotency_key: Annotated[
        str | None, Header(alias="Idempotency-Key", max_length=MAX_IDEMPOTENCY_KEY)
    ] = None,
) -> AuditAccepted:
    """Submit an audit; returns its id and poll URL at once (202), or the existing audit on a replay (200)."""
    key = [admission.Name(("header", "Idempotency-Key"), idempotency_key)] if idempotency_key else []
    body = audit_service.audit_body(req)
    found = audit_service.admit(caller, request, [body], session, settings, names=key)[0]
    if found is not None:
        raise refusal(found)
    try:
        audit, created = audit_service.store(session, req, idempotency_key or None, caller.tenant_id)
    except audit_service.KeyConflict as exc:
        raise problem(status.HTTP_409_CONFLICT, str(exc), loc=["header", "Idempotency-Key"]) from None
    except DBAPIError as exc:  # input the validators let through but Postgres refuses (nothing stored)
        session.rollback()
        raise _store_error(exc) from None
    if created or audit_service.never_enqueued(audit):
        audit_service.enqueue(session, [audit.id], settings)
    if not created:
        response.status_code = status.HTTP_200_OK
    return AuditAccepted(id=audit.id, status=audit.status, poll_url=poll_url(audit.id))  # type: ignore[arg-type]


def _parse_item(index: int, raw: Any) -> BatchItem | admission.Refusal:
    """The item as a ``BatchItem``, or the refusal of its schema (422)."""
    if not isinstance(raw, dict):
        return admission.Refusal(422, f"audits[{index}]: must be an object, got {type(raw).__name__}")
    try:
        return BatchItem.model_validate(raw)
    except ValidationError as exc:
        return admission.Refusal(422, validation_text(exc))


def _idempotency_keys(parsed: list[BatchItem | admission.Refusal]) -> list[admission.Name]:
    return [
        admission.Name(("body", "audits", i, "idempotency_key"), item.idempotency_key)
        for i, item in enumerate(parsed)
        if isinstance(item, BatchItem) and item.idempotency_key
    ]


@router.post(
    "/batch",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=BatchAccepted,
    responses={
        413: {
            "model": ErrorBody,
            "description": "More audits than MAX_BATCH, or the body over MAX_BODY_BYTES.",
        }
    },
)
def submit_batch(
    caller: WriteCaller,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    audits: Annotated[list[Any], Body(embed=True)],
) -> BatchAccepted:
    """Submit many audits (at least one; an empty list is a 422); 202 with one result per item, in order.

    Each item is validated on its own: an invalid item (not an object, wrong fields, NUL
    characters, non-finite numbers, over the size limit, an LLM component without an endpoint,
    an idempotency key reused with another body) is ``rejected`` with an ``error`` and stored
    nowhere. All valid items are stored in one transaction (each in a savepoint, so one row
    Postgres refuses cannot undo the others), committed, and only then enqueued.
    """
    if not audits:  # nothing to accept: a 202 would claim work that does not exist
        raise problem(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "audits: at least one audit", loc=["body", "audits"]
        )
    if len(audits) > settings.max_batch:
        raise problem(
            status.HTTP_413_CONTENT_TOO_LARGE,
            f"audits: {len(audits)} items, over the limit of {settings.max_batch} (server setting MAX_BATCH)",
            loc=["body", "audits"],
        )
    parsed = [_parse_item(index, raw) for index, raw in enumerate(audits)]
    bodies = [p if isinstance(p, admission.Refusal) else audit_service.audit_body(p) for p in parsed]
    found = audit_service.admit(caller, request, bodies, session, settings, names=_idempotency_keys(parsed))
    results: list[BatchItemResult] = []
    to_enqueue: list[uuid.UUID] = []
    for index, (checked, refused) in enumerate(zip(parsed, found, strict=True)):
        if refused is not None or isinstance(checked, admission.Refusal):
            error = refused.detail if refused is not None else "rejected"
            results.append(BatchItemResult(index=index, status=AuditStatus.REJECTED, error=error))
            continue
        try:
            key = checked.idempotency_key or None
            audit, created = audit_service.store_item(session, checked, key, caller.tenant_id)
        except audit_service.KeyConflict as exc:
            results.append(BatchItemResult(index=index, status=AuditStatus.REJECTED, error=str(exc)))
            continue
        except DBAPIError as exc:
            if isinstance(exc, DATABASE_DOWN):
                raise  # 503: nothing of the batch is stored
            error = f"could not store the audit: {' '.join(str(exc.orig).split())[:300]}"
            results.append(BatchItemResult(index=index, status=AuditStatus.REJECTED, error=error))
            continue
        if (created or audit_service.never_enqueued(audit)) and audit.id not in to_enqueue:
            to_enqueue.append(audit.id)
        results.append(
            BatchItemResult(index=index, id=audit.id, status=audit.status, poll_url=poll_url(audit.id))  # type: ignore[arg-type]
        )
    session.commit()  # every accepted item is stored before any chain is sent
    audit_service.enqueue(session, to_enqueue, settings, bulk=True)
    return BatchAccepted(audits=results)


ScoreName = Literal[SCORE_NAMES]  # type: ignore[valid-type]


@router.get("", response_model=AuditPage)
def list_audits(
    caller: ReadCaller,
    session: SessionDep,
    status_: Annotated[AuditStatus | None, Query(alias="status")] = None,
    since: datetime | None = None,
    until: datetime | None = None,
    verdict: Annotated[Verdict | None, Query(description="Some response claim has it.")] = None,
    score: Annotated[ScoreName | None, Query(description="Score that score_min/score_max bound.")] = None,
    score_min: Annotated[float | None, Query(allow_inf_nan=False)] = None,
    score_max: Annotated[float | None, Query(allow_inf_nan=False)] = None,
    metadata_key: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    metadata_value: Annotated[str | None, Query(max_length=2000)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> dict[str, Any]:
    """List your tenant's audits newest first, filtered by status, creation time
    (since ≤ created_at < until), a verdict present, a score range and a metadata key (and value)."""
    filters = audit_service.AuditFilters(
        status=status_,
        since=since,
        until=until,
        verdict=verdict,
        score=score,
        score_min=score_min,
        score_max=score_max,
        metadata_key=metadata_key,
        metadata_value=metadata_value,
    )
    return audit_service.list_audits(session, filters, limit=limit, offset=offset, tenant_id=caller.tenant_id)


#: Longest ``wait`` of ``GET /audits/{id}`` (seconds).
MAX_WAIT_S = 30.0
#: A waiting ``GET /audits/{id}`` reads the audit again at least this often (seconds) while the
#: end notifications flow (``db.audit_events``: a wake-up signal, not the truth), and checks
#: whether its client hung up.
WAIT_RECHECK_S = 5.0
#: ... and this often while the listener has no connection (then only rereads see an end).
WAIT_RECHECK_UNLISTENED_S = 1.0


@router.get("/{audit_id}", responses={404: {"model": ErrorBody, "description": "No such audit."}})
async def get_audit(
    audit_id: uuid.UUID,
    caller: ReadCaller,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    wait: Annotated[
        float,
        Query(
            ge=0,
            le=MAX_WAIT_S,
            description=(
                "Long poll: seconds (at most 30) to hold the answer while the audit is still "
                "queued or running; it comes back as soon as the audit ends (done or failed), "
                "or when the time is up, with whatever status it then has. 0: answer at once."
            ),
        ),
    ] = 0,
) -> JSONResponse:
    """Status and stage of an audit; when done, the full result document (scores, claims, edit script).

    With ``wait``, a long poll: one request instead of many (the end wakes it through Postgres
    ``NOTIFY``, ``db.audit_events``). Another tenant's audit is a 404 at once, as if it did not exist."""
    read = functools.partial(_own_document, session, audit_id, caller.tenant_id, settings)
    listener = getattr(request.app.state, "audit_listener", None)
    if wait <= 0 or listener is None:
        doc = await run_in_threadpool(read)
    else:
        doc = await _wait_for_end(listener, request, read, audit_id, wait)
    if doc is None:
        raise problem(status.HTTP_404_NOT_FOUND, f"audit {audit_id} not found", loc=["path", "audit_id"])
    # rendered off the event loop: a done document can be megabytes (tens of ms of json.dumps)
    response: JSONResponse = await run_in_threadpool(JSONResponse, doc)
    return response


def _own_document(
    session: Session, audit_id: uuid.UUID, tenant_id: str, settings: Settings
) -> dict[str, Any] | None:
    """The audit's document when it is the tenant's, else None; ends the read's transaction (so
    that a long poll holds no connection while it waits, and its next read sees new commits)."""
    try:
        return audit_document(session, audit_id, settings, tenant_id=tenant_id)
    finally:
        session.rollback()


async def _wait_for_end(
    listener: AuditEndListener,
    request: Request,
    read: Callable[[], dict[str, Any] | None],
    audit_id: uuid.UUID,
    wait_s: float,
) -> dict[str, Any] | None:
    """Read the document until the audit is terminal, ``wait_s`` is over or the client hung up;
    between reads, wait for the audit's end notification (at most ``WAIT_RECHECK_S``, or
    ``WAIT_RECHECK_UNLISTENED_S`` while the listener is disconnected). Subscribed before the
    first read, so an end committed after it wakes the wait."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait_s
    with listener.subscribe(audit_id) as ended:
        doc = await run_in_threadpool(read)
        while doc is not None and doc.get("status") not in TERMINAL_STATUSES:
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            recheck = WAIT_RECHECK_S if listener.connected.is_set() else WAIT_RECHECK_UNLISTENED_S
            notified = await ended.wait(min(remaining, recheck))
            if not notified and await request.is_disconnected():
                break  # nobody to answer: stop reading for it
            doc = await run_in_threadpool(read)
    return doc
