"""SQL of a run's items as listed to callers: a page by offset (``GET /runs/{id}``, the run page)
or every item, one keyset page at a time (``GET /runs/{id}/items``, streamed); and of its rejected
lines, a first page with their count (``GET /runs/{id}``) or every one, one keyset page at a time
(``GET /runs/{id}/rejections``, streamed). Never commits.

Each item is ``{item_id, audit_id, status, error, claim_precision, claim_recall, claim_f1,
claim_overlap, response_claims, <verdict>: int ...}``: ``status`` and ``error`` are its audit's
(null for an item without one), the scores and counts its audit's ``scores`` row (null until
done). Items come in submission order: position, then item id.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Select, func, select, tuple_
from sqlalchemy.orm import Session

from db.models import Audit, ScoreRow
from db.run_models import RunItem, RunRejection
from db.runs import SUMMARY_SCORES, SUMMARY_VERDICTS

__all__ = [
    "RUN_ITEMS_PAGE",
    "REJECTIONS_PAGE",
    "list_run_audits",
    "run_audit_pages",
    "first_rejections",
    "rejection_pages",
]

#: Items per query of :func:`run_audit_pages`, and rejected lines per query of
#: :func:`rejection_pages`.
RUN_ITEMS_PAGE = 500
#: Rejected lines in ``GET /runs/{id}`` (:func:`first_rejections`); the rest are streamed.
REJECTIONS_PAGE = 100
#: Where a rejection without a line number sorts: after every numbered line (an ``integer`` column).
_NO_LINE = 2**31 - 1


def _items(
    run_id: uuid.UUID, tenant_id: str
) -> Select[str, uuid.UUID | None, str, str | None, ScoreRow, int]:
    """The run's items with their audit's status and error and their scores, in submission order
    (position, then item id: a total order, so keyset pages never overlap or skip an item)."""
    return (
        select(RunItem.item_id, RunItem.audit_id, Audit.status, Audit.error, ScoreRow, RunItem.position)
        .outerjoin(Audit, Audit.id == RunItem.audit_id)
        .outerjoin(ScoreRow, ScoreRow.audit_id == Audit.id)
        .where(RunItem.run_id == run_id, RunItem.tenant_id == tenant_id)
        .order_by(RunItem.position, RunItem.item_id)
    )


def _entry(row: Any) -> dict[str, Any]:
    item_id, audit_id, status, error, score = row[:5]
    entry: dict[str, Any] = {"item_id": item_id, "audit_id": audit_id, "status": status, "error": error}
    for name in (*SUMMARY_SCORES, "response_claims", *SUMMARY_VERDICTS):
        entry[name] = None if score is None else getattr(score, name)
    return entry


def list_run_audits(
    session: Session, run_id: uuid.UUID, *, limit: int = 50, offset: int = 0, tenant_id: str = "default"
) -> tuple[list[dict[str, Any]], int]:
    """One page of the run's items (module docstring), ``limit`` from ``offset``, and their total."""
    base = select(RunItem).where(RunItem.run_id == run_id, RunItem.tenant_id == tenant_id)
    total = session.scalar(select(func.count()).select_from(base.subquery())) or 0
    rows = session.execute(_items(run_id, tenant_id).limit(limit).offset(offset)).all()
    return [_entry(r) for r in rows], int(total)


def run_audit_pages(
    session: Session, run_id: uuid.UUID, *, page_size: int = RUN_ITEMS_PAGE, tenant_id: str = "default"
) -> Iterator[list[dict[str, Any]]]:
    """Every item of the run (module docstring), in the order of :func:`list_run_audits`, as pages
    of at most ``page_size`` items. Each page is one query keyed on the last item read (position,
    item id), not an offset, and is read only when the caller asks for it, so a caller that
    streams the pages holds one page, not the run. Items added meanwhile come when they sort
    after the last item read. ``ValueError`` when ``page_size`` < 1."""
    if page_size < 1:
        raise ValueError(f"page_size must be at least 1, got {page_size}")
    after: tuple[int, str] | None = None
    while True:
        stmt = _items(run_id, tenant_id)
        if after is not None:
            stmt = stmt.where(tuple_(RunItem.position, RunItem.item_id) > tuple_(*after))
        rows = session.execute(stmt.limit(page_size)).all()
        if rows:
            yield [_entry(r) for r in rows]
        if len(rows) < page_size:
            return
        after = (rows[-1].position, rows[-1].item_id)


def _rejections(run_id: uuid.UUID, tenant_id: str) -> Select[int, int, int | None, str | None, str]:
    """The run's rejected lines by line number (lines without one last), then row id: a total
    order, so keyset pages never overlap or skip one."""
    line = func.coalesce(RunRejection.line, _NO_LINE)
    return (
        select(line, RunRejection.id, RunRejection.line, RunRejection.item_id, RunRejection.reason)
        .where(RunRejection.run_id == run_id, RunRejection.tenant_id == tenant_id)
        .order_by(line, RunRejection.id)
    )


def _rejection(row: Any) -> dict[str, Any]:
    return {"line": row[2], "item_id": row[3], "reason": row[4]}


def first_rejections(
    session: Session, run_id: uuid.UUID, *, limit: int = REJECTIONS_PAGE, tenant_id: str = "default"
) -> tuple[list[dict[str, Any]], int]:
    """The first ``limit`` rejected lines of the run (``{line, item_id, reason}``, in the order of
    :func:`rejection_pages`) and how many it has in all."""
    total = session.scalar(
        select(func.count()).where(RunRejection.run_id == run_id, RunRejection.tenant_id == tenant_id)
    )
    rows = session.execute(_rejections(run_id, tenant_id).limit(limit)).all()
    return [_rejection(r) for r in rows], int(total or 0)


def rejection_pages(
    session: Session, run_id: uuid.UUID, *, page_size: int = RUN_ITEMS_PAGE, tenant_id: str = "default"
) -> Iterator[list[dict[str, Any]]]:
    """Every rejected line of the run as pages of at most ``page_size``, each one query keyed on
    the last line read and read only when asked for (as :func:`run_audit_pages`). ``ValueError``
    when ``page_size`` < 1."""
    if page_size < 1:
        raise ValueError(f"page_size must be at least 1, got {page_size}")
    after: tuple[int, int] | None = None
    while True:
        stmt = _rejections(run_id, tenant_id)
        if after is not None:
            key = tuple_(func.coalesce(RunRejection.line, _NO_LINE), RunRejection.id)
            stmt = stmt.where(key > tuple_(*after))
        rows = session.execute(stmt.limit(page_size)).all()
        if rows:
            yield [_rejection(r) for r in rows]
        if len(rows) < page_size:
            return
        after = (rows[-1][0], rows[-1][1])
