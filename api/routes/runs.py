"""``/runs``: submit a run's items, list runs, one run with its audits, compare two runs, deliveries.

Every query is in ``db.runs`` / ``db.suites``; the documents come from ``service.runs`` (shared
with the webhook payloads). Every route reads the caller's tenant from its API key
(``read_tenant`` / ``write_tenant``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status
from fastapi.responses import StreamingResponse
from pydantic import ValidationError
from sqlalchemy.orm import Session

from api import audit_service
from api.auth import ReadCaller, WriteCaller
from api.deps import SessionDep, SettingsDep
from api.documents import audit_documents, json_bytes, poll_url
from api.errors import problem, validation_text
from api.run_schemas import RunItemIn, RunRequest
from api.schemas import MAX_OFFSET
from claims.run_diff import Gate
from db import checks_repository as checks_repo
from db import repository as repo
from db import run_items
from db import runs as runs_repo
from db import suites as suites_repo
from db.run_models import Run
from service import admission
from service import runs as run_service
from service.schedule import slot_label
from workers import port

router = APIRouter(prefix="/runs", tags=["runs"])


def read_tenant(caller: ReadCaller) -> str:
    """The tenant of a caller whose key holds ``audits:read`` (api.auth)."""
    return caller.tenant_id


def write_tenant(caller: WriteCaller) -> str:
    """The tenant of a caller whose key holds ``audits:write`` (api.auth)."""
    return caller.tenant_id


#: the caller's tenant; reading routes need ``audits:read``, writing ones ``audits:write``
TenantDep = Annotated[str, Depends(read_tenant)]
WriteTenantDep = Annotated[str, Depends(write_tenant)]


def _line_of(raw: Any) -> int | None:
    """The item's ``line`` (its line in the caller's input file) when it is a valid one, else None."""
    line = raw.get("line") if isinstance(raw, dict) else None
    ok = isinstance(line, int) and not isinstance(line, bool) and 1 <= line <= 2**31 - 1
    return line if ok else None


def _where(index: int, raw: Any) -> str:
    """How a refusal names the item: ``line N`` when it gave its line, else ``items[index]``."""
    line = _line_of(raw)
    return f"line {line}" if line is not None else f"items[{index}]"


def _parse_items(raw_items: list[Any]) -> list[RunItemIn | admission.Refusal]:
    """Each item as a ``RunItemIn``, or the refusal of its schema (422); an id repeated in one
    request is refused from its second time on."""
    out: list[RunItemIn | admission.Refusal] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_items):
        if not isinstance(raw, dict):
            out.append(admission.Refusal(422, f"items[{index}]: must be an object, got {type(raw).__name__}"))
            continue
        try:
            item = RunItemIn.model_validate(raw)
        except ValidationError as exc:
            out.append(admission.Refusal(422, validation_text(exc)))
            continue
        if item.item_id() in seen:
            where = _where(index, raw)
            out.append(
                admission.Refusal(422, f"{where}: id {item.item_id()!r} appears twice in this request")
            )
            continue
        seen.add(item.item_id())
        out.append(item)
    return out


def _names(req: RunRequest, label: str) -> list[admission.Name]:
    """The strings stored with the run's items (its rejections included): suite, label, source
    and every item id given as a string, valid item or not."""
    names = [
        admission.Name(("body", "suite"), req.suite, admission.NAME_CHARS),
        admission.Name(("body", "label"), label, admission.NAME_CHARS),
        admission.Name(("body", "source"), req.source),
    ]
    for index, raw in enumerate(req.items):
        item_id = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(item_id, str):
            names.append(admission.Name(("body", "items", index, "id"), item_id))
    return names


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    responses={
        409: {
            "description": "The run is sealed (finished, or its audits running) and the request "
            "would add to it."
        },
        413: {"description": "More items than MAX_BATCH."},
    },
)
def submit_run(
    req: RunRequest, session: SessionDep, settings: SettingsDep, caller: WriteCaller, request: Request
) -> dict[str, Any]:
    """Add items to the run suite/label (created on first use); 202 with the run and one result per item.

    Idempotent per (suite, label, item id): a resubmitted id returns its audit, with other content
    it is rejected. A sealed run (finished, or its last items sent) takes nothing new: a request
    that would add an item id, other content for a known id or a rejected line to it is a 409
    (type ``run_finished`` or ``run_sealed``) and nothing of it is stored; one that only repeats
    the run's items answers them. Invalid items are rejected one by one and stored nowhere; the valid ones are
    stored in one transaction, committed, then enqueued. ``final`` (default) seals the run.
    Every item goes through the admission path (``service.admission``: text, sizes, models, token
    budget, the key's and the tenant's audits per minute); a suite, label, source or item id that
    cannot be stored (NUL, lone surrogate, too long) is a 422 and nothing is stored.
    """
    tenant = caller.tenant_id
    if len(req.items) > settings.max_batch:
        raise HTTPException(
            status.HTTP_413_CONTENT_TOO_LARGE,
            detail=f"items: {len(req.items)} items, over the limit of {settings.max_batch} (MAX_BATCH)",
        )
    label = req.label or slot_label(datetime.now(UTC))
    parsed = _parse_items(req.items)
    bodies = [p if isinstance(p, admission.Refusal) else p.body() for p in parsed]
    found = audit_service.admit(caller, request, bodies, session, settings, names=_names(req, label))
    valid: list[tuple[int, RunItemIn]] = []
    rejected: list[dict[str, Any]] = []
    for index, (item, refused) in enumerate(zip(parsed, found, strict=True)):
        if refused is None and isinstance(item, RunItemIn):
            valid.append((index, item))
            continue
        raw = req.items[index]
        item_id = str(raw["id"]) if isinstance(raw, dict) and raw.get("id") is not None else None
        error = str(refused.detail) if refused is not None else "rejected"
        line = _line_of(raw)
        if line is not None and not error.startswith(f"line {line}:"):
            error = f"line {line}: {error}"
        rejected.append({"index": index, "item_id": item_id, "status": "rejected", "error": error})
    _refuse_additions_to_sealed(session, req, label, [item for _, item in valid], rejected, tenant)
    run, _, results = run_service.submit_items(
        session,
        suite=req.suite,
        label=label,
        source=req.source,
        items=[(item.item_id(), item.body()) for _, item in valid],
        final=req.final,
        tenant_id=tenant,
    )
    runs_repo.add_rejections(session, run, _rejections(req, rejected), tenant_id=tenant)
    session.commit()
    audit_service.enqueue(
        session, [r.audit_id for r in results if r.created and r.audit_id is not None], settings, bulk=True
    )
    if req.final:
        port.finish_run(run.id)
    out = rejected + [
        {
            "index": index,
            "item_id": r.item_id,
            "audit_id": None if r.audit_id is None else str(r.audit_id),
            "status": r.status,
            "created": r.created,
            "poll_url": None if r.audit_id is None else poll_url(r.audit_id),
            "error": r.error,
        }
        for (index, _), r in zip(valid, results, strict=True)
    ]
    run = runs_repo.get_run(session, run.id, tenant_id=tenant) or run
    return {"run": run_service.run_document(run), "items": sorted(out, key=lambda r: r["index"])}


def _refuse_additions_to_sealed(
    session: Session,
    req: RunRequest,
    label: str,
    valid: list[RunItemIn],
    rejected: list[dict[str, Any]],
    tenant: str,
) -> None:
    """409 (type ``run_finished``, or ``run_sealed`` while its audits run) when the run
    ``req.suite``/``label`` is sealed and this request would add to it
    (``service.runs.sealed_run_refusal``); before anything of the request is stored."""
    run = runs_repo.find_run(session, req.suite, label, tenant_id=tenant)
    if run is None or run.sealed_at is None:
        return
    items = [(item.item_id(), item.body()) for item in valid]
    keys = [r.key for r in _rejections(req, rejected)]
    why = run_service.sealed_run_refusal(session, run, items, keys)
    if why is not None:
        kind = "run_finished" if run.finished_at is not None else "run_sealed"
        raise problem(status.HTTP_409_CONFLICT, why, loc=("body", "label"), type_=kind)


def _rejections(req: RunRequest, rejected: list[dict[str, Any]]) -> list[runs_repo.Rejection]:
    """The lines the client rejected and the items this request rejected, as the run records them
    with the item's ``line`` when it gave one (an item without an id is keyed by that line, else by
    its index in the request)."""
    out = [runs_repo.Rejection(r.key(), r.line, r.id, r.reason) for r in req.rejected]
    for r in rejected:
        line = _line_of(req.items[r["index"]])
        fallback = f"line {line}" if line is not None else f"items[{r['index']}]"
        key = r["item_id"] if r["item_id"] is not None else fallback
        out.append(runs_repo.Rejection(key, line, r["item_id"], str(r["error"])))
    return out


def _document(session: Session, run: Run) -> dict[str, Any]:
    live = None if run.summary is not None else runs_repo.run_summary(session, run.id)
    return run_service.run_document(run, live)


@router.get("")
def list_runs(
    session: SessionDep,
    tenant: TenantDep,
    suite: str | None = None,
    label: str | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> dict[str, Any]:
    """Runs newest first (optionally of one suite, or one suite/label), with their summaries."""
    rows, total = runs_repo.list_runs(
        session, suite=suite, label=label, limit=limit, offset=offset, tenant_id=tenant
    )
    return {"items": [_document(session, r) for r in rows], "total": total, "limit": limit, "offset": offset}


def _run_or_404(session: Session, run_id: uuid.UUID, tenant: str) -> Run:
    run = runs_repo.get_run(session, run_id, tenant_id=tenant)
    if run is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"run {run_id} not found")
    return run


@router.get("/{run_id}", responses={404: {"description": "No such run."}})
def get_run(
    run_id: uuid.UUID,
    session: SessionDep,
    tenant: TenantDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> dict[str, Any]:
    """One run: its summary, its audits in item order (paginated), and its rejected lines: the
    first ``REJECTIONS_PAGE`` (100) in ``rejections`` and their count in ``rejections_total``
    (``GET /runs/{id}/rejections`` streams them all)."""
    run = _run_or_404(session, run_id, tenant)
    items, total = run_items.list_run_audits(session, run.id, limit=limit, offset=offset, tenant_id=tenant)
    items = [_listed(item) for item in items]
    doc = _document(session, run)
    doc["audits"] = {"items": items, "total": total, "limit": limit, "offset": offset}
    doc["rejections"], doc["rejections_total"] = run_items.first_rejections(
        session, run.id, limit=run_items.REJECTIONS_PAGE, tenant_id=tenant
    )
    # the suite's ``canaries: N`` (method checks): detection per fault kind, live (canaries are no run items)
    doc["canaries"] = {
        r.pop("kind"): r for r in checks_repo.run_canary_detection(session, run.id, tenant_id=tenant)
    }
    return doc


def _listed(item: dict[str, Any]) -> dict[str, Any]:
    """A run item as the API lists it: the audit id as a string, and its ``poll_url``."""
    audit_id = None if item["audit_id"] is None else str(item["audit_id"])
    return {**item, "audit_id": audit_id, "poll_url": None if audit_id is None else poll_url(audit_id)}


#: Documents built and sent together by ``GET /runs/{id}/items?documents=true``.
ITEM_DOCUMENT_GROUP = 10


def _item_lines(
    session: Session, settings: object, run_id: uuid.UUID, tenant: str, documents: bool
) -> Iterator[bytes]:
    """One JSON line per item of the run, read ``RUN_ITEMS_PAGE`` items a query; with
    ``documents``, each item's document built ``ITEM_DOCUMENT_GROUP`` at a time."""
    size = run_items.RUN_ITEMS_PAGE
    step = ITEM_DOCUMENT_GROUP if documents else size
    for page in run_items.run_audit_pages(session, run_id, page_size=size, tenant_id=tenant):
        for start in range(0, len(page), step):
            group = [_listed(item) for item in page[start : start + step]]
            if documents:
                group = _with_documents(session, settings, group, tenant)
            yield b"".join(json_bytes(item) + b"\n" for item in group)


def _with_documents(
    session: Session, settings: object, items: list[dict[str, Any]], tenant: str
) -> list[dict[str, Any]]:
    """``items`` each with its ``document`` (``GET /audits/{id}``'s; null without an audit)."""
    ids = [uuid.UUID(item["audit_id"]) for item in items if item["audit_id"] is not None]
    docs = audit_documents(session, repo.get_audits(session, ids, tenant_id=tenant), settings)
    return [
        {**item, "document": None if item["audit_id"] is None else docs.get(uuid.UUID(item["audit_id"]))}
        for item in items
    ]


@router.get(
    "/{run_id}/items",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"application/x-ndjson": {}}, "description": "One JSON line per item (streamed)."},
        404: {"description": "No such run."},
    },
)
def stream_run_items(
    run_id: uuid.UUID,
    session: SessionDep,
    settings: SettingsDep,
    tenant: TenantDep,
    documents: Annotated[
        bool, Query(description="Add each item's `document`: what GET /audits/{id} answers (null: no audit).")
    ] = False,
) -> StreamingResponse:
    """Every item of the run in item order, one JSON object a line (``application/x-ndjson``):
    the entries of ``GET /runs/{id}``'s ``audits.items``, all of them, without pages to ask for.

    Streamed: the items are read ``RUN_ITEMS_PAGE`` (500) a query by keyset (``db.run_items``)
    and each page is sent before the next is read; with ``documents=true`` the documents are
    built ``ITEM_DOCUMENT_GROUP`` (10) at a time. The API holds one page and one group, never the
    run, however many items it has. Rejected lines are not items: ``GET /runs/{id}/rejections``
    streams them.
    """
    run = _run_or_404(session, run_id, tenant)
    return StreamingResponse(
        _item_lines(session, settings, run.id, tenant, documents), media_type="application/x-ndjson"
    )


def _rejection_lines(session: Session, run_id: uuid.UUID, tenant: str) -> Iterator[bytes]:
    pages = run_items.rejection_pages(session, run_id, page_size=run_items.RUN_ITEMS_PAGE, tenant_id=tenant)
    for page in pages:
        yield b"".join(json_bytes(r) + b"\n" for r in page)


@router.get(
    "/{run_id}/rejections",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"application/x-ndjson": {}}, "description": "One JSON line per rejected line."},
        404: {"description": "No such run."},
    },
)
def stream_run_rejections(run_id: uuid.UUID, session: SessionDep, tenant: TenantDep) -> StreamingResponse:
    """Every rejected line of the run, one JSON object a line (``application/x-ndjson``):
    ``{line, item_id, reason}``, by line number (lines without one last), the order of
    ``GET /runs/{id}``'s first page ``rejections``, all of them.

    Streamed as ``GET /runs/{id}/items``: ``RUN_ITEMS_PAGE`` (500) rejections a query by keyset,
    each page sent before the next is read."""
    run = _run_or_404(session, run_id, tenant)
    return StreamingResponse(_rejection_lines(session, run.id, tenant), media_type="application/x-ndjson")


#: A gate limit in percentage points (0 to 100; ``claims.run_diff.LIMIT_RANGES``), or none.
Points = Annotated[float | None, Query(ge=0, le=100, description="Percentage points, 0 to 100.")]
#: A gate limit in per cent of items (0 to 100), or none.
Percent = Annotated[float | None, Query(ge=0, le=100, description="Per cent of the items, 0 to 100.")]


@router.get("/{run_id}/compare", responses={404: {"description": "No such run, or no previous run."}})
def compare_run(
    run_id: uuid.UUID,
    session: SessionDep,
    tenant: TenantDep,
    with_: Annotated[
        str,
        Query(
            alias="with",
            description="The base: 'baseline' (the suite's pinned run, else the last finished run "
            "whose gate held), 'previous' (the last finished run) or a run id",
        ),
    ] = "baseline",
    contradicted_share_rise: Points = None,
    problem_share_rise: Points = None,
    f1_drop: Points = None,
    precision_drop: Points = None,
    worse_items: Annotated[int | None, Query(ge=0, description="Items (a whole number ≥ 0).")] = None,
    worse_items_share: Percent = None,
    unscored_items_share: Percent = None,
) -> dict[str, Any]:
    """Compare this run with a base run by item: score deltas, worse items, changed/new/vanished claims, gate.

    The gate is the suite's unless limits are given as query parameters (points; see ``Gate``):
    then those limits alone. A limit outside its range (``claims.run_diff.LIMIT_RANGES``: shares
    and points 0 to 100, ``worse_items`` a whole number ≥ 0) is a 422.
    """
    run = _run_or_404(session, run_id, tenant)
    base, chosen = _base_of(session, run, with_, tenant)
    limits = {
        "contradicted_share_rise": contradicted_share_rise,
        "problem_share_rise": problem_share_rise,
        "f1_drop": f1_drop,
        "precision_drop": precision_drop,
        "worse_items": worse_items,
        "worse_items_share": worse_items_share,
        "unscored_items_share": unscored_items_share,
    }
    gate = None
    if any(v is not None for v in limits.values()):
        try:
            # the limits given replace the gate: the ones not given are off, not the defaults
            gate = Gate.from_dict(limits)
        except ValueError as exc:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=str(exc)) from None
    return run_service.compare_runs(session, base, run, gate=gate, chosen=chosen)


def _base_of(session: Session, run: Run, with_: str, tenant: str) -> tuple[Run, str]:
    """The base run of a comparison and how it was chosen; 404 when there is none, 422 on a bad ``with``."""
    if with_ in ("baseline", "previous"):
        if with_ == "baseline":
            base, chosen = runs_repo.baseline_run(session, run)
        else:
            base, chosen = runs_repo.previous_run(session, run), "previous"
        if base is None:
            raise HTTPException(
                status.HTTP_404_NOT_FOUND,
                detail=f"no {with_} run of suite {run.suite!r} to compare {run.label!r} with",
            )
        return base, chosen
    try:
        base_id = uuid.UUID(with_)
    except ValueError:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT, detail="with: 'baseline', 'previous' or a run id"
        ) from None
    return _run_or_404(session, base_id, tenant), "given"


@router.put("/{run_id}/baseline", responses={404: {"description": "No such run."}})
def pin_baseline(run_id: uuid.UUID, session: SessionDep, tenant: WriteTenantDep) -> dict[str, Any]:
    """Pin this run as the baseline its suite's later runs are compared with (replaces a pinned one)."""
    run = _run_or_404(session, run_id, tenant)
    pinned_at = runs_repo.pin_baseline(session, run)
    session.commit()
    return {"suite": run.suite, "run_id": str(run.id), "label": run.label, "pinned_at": pinned_at.isoformat()}


@router.get("/{run_id}/deliveries", responses={404: {"description": "No such run."}})
def run_deliveries(run_id: uuid.UUID, session: SessionDep, tenant: TenantDep) -> dict[str, Any]:
    """Webhook deliveries of the run: event, URL, status, attempts, last answer (the payload too)."""
    run = _run_or_404(session, run_id, tenant)
    rows = suites_repo.list_deliveries(session, run_id=run.id, tenant_id=tenant)
    items = [
        {
            "id": d.id,
            "event": d.event,
            "url": d.url,
            "status": d.status,
            "attempts": d.attempts,
            "last_status_code": d.last_status_code,
            "last_error": d.last_error,
            "created_at": d.created_at.isoformat(),
            "delivered_at": None if d.delivered_at is None else d.delivered_at.isoformat(),
            "payload": d.payload,
        }
        for d in rows
    ]
    return {"items": items}
