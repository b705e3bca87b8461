"""``/ui``: server-rendered pages for reading audits (Jinja2 templates, a little plain script).

The pages read through the API's own functions (``api.documents.audit_document``,
``db.repository.list_audits``, ``workers.pipeline.search_claims_remote``) and take the tenant
from the same dependency as the API routes (``api.deps.TenantDep``).
"""

from __future__ import annotations

import uuid
from typing import Any

from celery.exceptions import TimeoutError as CeleryTimeout
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.orm import Session

from api.deps import SessionDep, SettingsDep, TenantDep
from api.documents import audit_document, poll_url
from api.routes import ui_runs
from api.ui.audit_view import build_audit_view
from api.ui.legend import SCORE_DEFINITIONS
from api.ui.list_view import PAGE_SIZES, parse_list_query
from api.ui.templating import STATIC_DIR, html_page
from api.ui.timeline import timeline
from db import repository as repo
from db.models import AUDIT_STATUSES
from workers.pipeline import search_claims_remote
from workers.settings import Settings

__all__ = ["install", "router"]

router = APIRouter(prefix="/ui", tags=["ui"], include_in_schema=False)


def install(app: FastAPI) -> None:
    """Add the pages (audits, runs) and their static files (``/ui/static``) to ``app``."""
    app.include_router(router)
    app.include_router(ui_runs.router)
    app.mount("/ui/static", StaticFiles(directory=STATIC_DIR), name="ui-static")


def _not_found(what: str) -> HTMLResponse:
    return html_page("not_found.html", 404, title="not found", what=what)


def _parse_id(raw: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None


@router.get("", response_class=RedirectResponse)
def ui_home() -> RedirectResponse:
    """The audit list."""
    return RedirectResponse("/ui/audits", status_code=303)


def _audit_context(session: Session, audit_id: uuid.UUID, settings: Settings) -> dict[str, Any] | None:
    doc = audit_document(session, audit_id, settings)
    audit = repo.get_audit(session, audit_id)
    if doc is None or audit is None:
        return None
    texts = repo.get_documents(session, audit_id)
    response = next((d.text for d in texts if d.role == "response"), "")
    references = [d.text for d in texts if d.role == "reference"]
    view = build_audit_view(doc, response, references, json_url=poll_url(audit_id))
    return {"view": view, "steps": timeline(audit), "title": f"audit {str(audit_id)[:8]}"}


@router.get("/audits/{audit_id}", response_class=HTMLResponse)
def audit_page(audit_id: str, session: SessionDep, settings: SettingsDep, tenant: TenantDep) -> HTMLResponse:
    """One audit: the response with its claims by verdict, the evidence, scores, edit script."""
    del tenant  # TODO(#11): scope audit_document / get_documents to the tenant
    aid = _parse_id(audit_id)
    context = None if aid is None else _audit_context(session, aid, settings)
    if context is None:
        return _not_found(f"audit {audit_id}")
    return html_page("audit.html", **context)


@router.get("/audits/{audit_id}/status", response_class=HTMLResponse)
def audit_status(audit_id: str, session: SessionDep, tenant: TenantDep) -> HTMLResponse:
    """The status and stage timeline alone (what the audit page polls while the audit runs)."""
    del tenant  # TODO(#11): scope get_audit to the tenant
    aid = _parse_id(audit_id)
    audit = None if aid is None else repo.get_audit(session, aid)
    if audit is None:
        return _not_found(f"audit {audit_id}")
    steps = timeline(audit)
    return html_page("_status.html", status=audit.status, steps=steps, error=audit.error)


def _search(q: str, settings: Settings) -> tuple[list[dict[str, Any]], str | None]:
    """The claim search of ``GET /claims/search`` (k = 10), hits with their page anchors."""
    try:
        hits = search_claims_remote(q, 10, model=None, timeout=settings.search_timeout_s)
    except CeleryTimeout:
        return [], "no worker answered the search in time"
    except ValueError as exc:
        return [], f"search: {exc}"
    for h in hits:
        h["anchor"] = (
            f"claim-{h['position']}" if h["role"] == "response" else f"ref-{h['reference']}-{h['position']}"
        )
    return hits, None


@router.get("/audits", response_class=HTMLResponse)
def audits_page(
    request: Request, session: SessionDep, settings: SettingsDep, tenant: TenantDep
) -> HTMLResponse:
    """The audit list: filters, pagination and claim search."""
    del tenant  # TODO(#11): pass tenant_id to list_audits / score_rows / the search
    query = parse_list_query(request.query_params)
    rows, total = repo.list_audits(session, filters=query.filters, limit=query.limit, offset=query.offset)
    scores = repo.score_rows(session, [a.id for a in rows])
    items = [
        {
            "id": a.id,
            "status": a.status,
            "created_at": a.created_at,
            "title": a.question or f"audit {str(a.id)[:8]}",
            "metadata": a.metadata_,
            "score": scores.get(a.id),
        }
        for a in rows
    ]
    hits, search_error = _search(query.q, settings) if query.q else ([], None)
    return html_page(
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
