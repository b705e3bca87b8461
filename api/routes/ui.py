"""``/ui``: server-rendered pages for reading audits (Jinja2 templates, a little plain script).

The pages read through the API's own functions (``api.documents.audit_document``,
``db.repository.get_tenant_audit`` / ``list_audits`` / ``score_rows``,
``workers.pipeline.search_claims_remote``) with the tenant of the signed-in caller
(``api.ui_auth.UiReader``: the session cookie of ``/ui/login``, scope ``audits:read``); another
tenant's audit is "not found", exactly like an unknown id.
"""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.orm import Session

from api.deps import SessionDep, SettingsDep
from api.documents import audit_document
from api.routes import ui_login, ui_runs
from api.ui.audit_view import build_audit_view
from api.ui.legend import SCORE_DEFINITIONS
from api.ui.list_view import PAGE_SIZES, list_rows, parse_list_query
from api.ui.pages import not_found, page
from api.ui.templating import STATIC_DIR, html_page
from api.ui.timeline import timeline
from api.ui_auth import LoginRequired, UiReader, login_redirect
from db import repository as repo
from db.models import AUDIT_STATUSES
from service.settings import Settings
from workers import port

__all__ = ["install", "json_url", "router"]

router = APIRouter(prefix="/ui", tags=["ui"], include_in_schema=False)


def install(app: FastAPI) -> None:
    """Add the pages (audits, runs, sign-in) and their static files (``/ui/static``) to ``app``;
    a page without a session answers 303 to ``/ui/login`` (``api.ui_auth``)."""
    app.add_exception_handler(LoginRequired, login_redirect)
    app.include_router(ui_login.router)
    app.include_router(router)
    app.include_router(ui_runs.router)
    app.mount("/ui/static", StaticFiles(directory=STATIC_DIR), name="ui-static")


def _parse_id(raw: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None


@router.get("", response_class=RedirectResponse)
def ui_home() -> RedirectResponse:
    """The audit list (which sends a browser without a session to the sign-in form)."""
    return RedirectResponse("/ui/audits", status_code=303)


def json_url(audit_id: uuid.UUID) -> str:
    """The audit's JSON document as the pages serve it (the session cookie is not taken by the API)."""
    return f"/ui/audits/{audit_id}/json"


def _audit_context(
    session: Session, audit_id: uuid.UUID, settings: Settings, tenant_id: str
) -> dict[str, Any] | None:
    audit = repo.get_tenant_audit(session, audit_id, tenant_id=tenant_id)
    doc = None if audit is None else audit_document(session, audit_id, settings)
    if doc is None or audit is None:
        return None
    texts = repo.get_documents(session, audit_id)
    response = next((d.text for d in texts if d.role == "response"), "")
    references = [d.text for d in texts if d.role == "reference"]
    view = build_audit_view(doc, response, references, json_url=json_url(audit_id))
    return {"view": view, "steps": timeline(audit), "title": f"audit {str(audit_id)[:8]}"}


@router.get("/audits/{audit_id}", response_class=HTMLResponse)
def audit_page(
    audit_id: str, request: Request, caller: UiReader, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    """One audit: the response with its claims by verdict, the evidence, scores, edit script."""
    aid = _parse_id(audit_id)
    context = None if aid is None else _audit_context(session, aid, settings, caller.tenant_id)
    if context is None:
        return not_found(request, f"audit {audit_id}")
    return page(request, "audit.html", **context)


@router.get("/audits/{audit_id}/json")
def audit_json(
    audit_id: str, request: Request, caller: UiReader, session: SessionDep, settings: SettingsDep
) -> JSONResponse:
    """The audit's document of ``GET /audits/{id}``, for the page's "JSON document" link."""
    aid = _parse_id(audit_id)
    own = aid is not None and repo.get_tenant_audit(session, aid, tenant_id=caller.tenant_id) is not None
    doc = audit_document(session, aid, settings) if own and aid is not None else None
    if doc is None:
        return JSONResponse({"detail": f"audit {audit_id} not found"}, status_code=404)
    return JSONResponse(doc)


@router.get("/audits/{audit_id}/status", response_class=HTMLResponse)
def audit_status(audit_id: str, request: Request, caller: UiReader, session: SessionDep) -> HTMLResponse:
    """The status and stage timeline alone (what the audit page polls while the audit runs)."""
    aid = _parse_id(audit_id)
    audit = None if aid is None else repo.get_tenant_audit(session, aid, tenant_id=caller.tenant_id)
    if audit is None:
        return not_found(request, f"audit {audit_id}")
    steps = timeline(audit)
    return html_page("_status.html", status=audit.status, steps=steps, error=audit.error)


def _search(q: str, settings: Settings, tenant_id: str) -> tuple[list[dict[str, Any]], str | None]:
    """The claim search of ``GET /claims/search`` (k = 10) in the tenant's audits, hits with
    their page anchors."""
    try:
        hits = port.search_claims_remote(
            q, 10, model=None, tenant_id=tenant_id, timeout=settings.search_timeout_s
        )
    except port.SearchTimeout:
        return [], "no worker answered the search in time"
    except port.ResultStoreDown:
        return [], "the search is unavailable while Redis does not answer; retry in a few seconds"
    except ValueError as exc:
        return [], f"search: {exc}"
    for h in hits:
        h["anchor"] = (
            f"claim-{h['position']}" if h["role"] == "response" else f"ref-{h['reference']}-{h['position']}"
        )
    return hits, None


@router.get("/audits", response_class=HTMLResponse)
def audits_page(
    request: Request, caller: UiReader, session: SessionDep, settings: SettingsDep
) -> HTMLResponse:
    """The audit list of the caller's tenant: filters, pagination and claim search."""
    tenant = caller.tenant_id
    query = parse_list_query(request.query_params)
    rows, total = repo.list_audits(
        session, filters=query.filters, limit=query.limit, offset=query.offset, tenant_id=tenant
    )
    items = list_rows(session, rows, tenant_id=tenant)
    hits, search_error = _search(query.q, settings, tenant) if query.q else ([], None)
    return page(
        request,
        "audits.html",
        title="audits",
        query=query,
        rows=items,
        total=total,
        hits=hits,
        search_error=search_error,
        statuses=AUDIT_STATUSES,
        score_names=list(SCORE_DEFINITIONS),
        definitions=SCORE_DEFINITIONS,
        page_sizes=PAGE_SIZES,
    )
