"""``/ui/runs``: run pages (suite runs), server-rendered like the audit pages.

They read through the runs API's own functions: ``db.runs`` (list, run, items, baseline run),
``service.runs.run_document`` and ``service.runs.compare_runs`` (the ``GET /runs/{id}/compare``
document), with the tenant of the signed-in caller (``api.ui_auth.UiReader``); another
tenant's run is "not found".
"""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from api.deps import SessionDep
from api.ui.charts import histogram, verdict_bar
from api.ui.legend import SCORE_DEFINITIONS
from api.ui.pages import not_found, page
from api.ui_auth import UiReader
from db import run_items
from db import runs as runs_repo
from db.run_models import Run
from service import runs as run_service

__all__ = ["router"]

router = APIRouter(prefix="/ui/runs", tags=["ui"], include_in_schema=False)
#: Scores of a run's audits drawn as distributions, and how many worst audits are listed.
DISTRIBUTED = ("claim_precision", "claim_recall", "claim_f1")
WORST = 10
#: Most items of one run read for its charts.
MAX_ITEMS = 10_000


def _document(session: Session, run: Run) -> dict[str, Any]:
    live = None if run.summary is not None else runs_repo.run_summary(session, run.id)
    return run_service.run_document(run, live)


@router.get("", response_class=HTMLResponse)
def runs_page(
    request: Request, caller: UiReader, session: SessionDep, suite: str | None = None, offset: int = 0
) -> HTMLResponse:
    """The tenant's runs newest first (optionally of one suite), with their summaries and verdict mix."""
    tenant = caller.tenant_id
    offset = max(0, offset)
    rows, total = runs_repo.list_runs(session, suite=suite or None, limit=50, offset=offset, tenant_id=tenant)
    docs = [_document(session, r) for r in rows]
    bars = {
        d["id"]: verdict_bar((d["summary"] or {}).get("verdicts") or {}, width=220, height=18) for d in docs
    }
    return page(
        request,
        "runs.html",
        title="runs",
        runs=docs,
        bars=bars,
        total=total,
        suite=suite or "",
        offset=offset,
    )


def _worst(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The done items with the lowest claim_f1 (null F1 last), then the failed ones."""
    done = [i for i in items if i["status"] == "done"]
    done.sort(key=lambda i: (i["claim_f1"] is None, i["claim_f1"] or 0.0, i["item_id"]))
    failed = [i for i in items if i["status"] in ("failed", "rejected")]
    return (failed + done)[:WORST]


@router.get("/{run_id}", response_class=HTMLResponse)
def run_page(run_id: str, request: Request, caller: UiReader, session: SessionDep) -> HTMLResponse:
    """One run of the tenant: summary, verdict mix and score distributions, worst audits, and the
    comparison with its baseline (changed claims side by side): the suite's pinned run, else the
    last finished run whose gate held (``db.runs.baseline_run``), as ``GET /runs/{id}/compare``
    and ``claimaudit runs compare`` choose it."""
    tenant = caller.tenant_id
    try:
        run = runs_repo.get_run(session, uuid.UUID(run_id), tenant_id=tenant)
    except ValueError:
        run = None
    if run is None:
        return not_found(request, f"run {run_id}")
    doc = _document(session, run)
    items, total = run_items.list_run_audits(session, run.id, limit=MAX_ITEMS, tenant_id=tenant)
    summary = doc["summary"] or {}
    baseline, chosen = runs_repo.baseline_run(session, run)
    compare = run_service.compare_runs(session, baseline, run) if baseline is not None else None
    return page(
        request,
        "run.html",
        title=f"run {run.suite} {run.label}",
        run=doc,
        items=items,
        total=total,
        worst=_worst(items),
        mix=verdict_bar(summary.get("verdicts") or {}),
        charts=[(n, histogram([i[n] for i in items], name=n)) for n in DISTRIBUTED],
        definitions=SCORE_DEFINITIONS,
        compare=compare,
        baseline=None if baseline is None else run_service.run_document(baseline),
        baseline_chosen=chosen,
    )
