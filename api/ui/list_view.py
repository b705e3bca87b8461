"""The audit list page's filters, read leniently from an HTML form's query string.

A form sends every field, empty ones as ``""``: empty means "no filter". A value that does not
parse is not a 422 JSON body (a reader sees a page) but an error listed above the table, and
that filter is left out.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from sqlalchemy.orm import Session

from db import repository as repo
from db import runs as runs_repo
from db.models import AUDIT_STATUSES, VERDICTS, Audit
from db.repository import SCORE_NAMES, AuditFilters

__all__ = ["FIELDS", "PAGE_SIZES", "TITLE_CHARS", "ListQuery", "parse_list_query", "line_id", "list_rows"]

#: Characters of a title (the question, else the response's start) before it ends in "…".
TITLE_CHARS = 100
#: ``claimaudit batch``'s idempotency key: the line id, then the SHA-256 of the line's body
#: (``cli.client.idempotency_key``), then ``:retry:<failed audit id>`` on a retried line.
_BATCH_KEY = re.compile(r"^(?P<line>.*):[0-9a-f]{64}(?::retry:[0-9a-f-]{36})?$", re.DOTALL)

#: Form fields of the filters, in form order.
FIELDS = (
    "status",
    "since",
    "until",
    "verdict",
    "score",
    "score_min",
    "score_max",
    "metadata_key",
    "metadata_value",
    "q",
)
PAGE_SIZES = (10, 25, 50, 100)


@dataclass
class ListQuery:
    """The parsed query: repository ``filters``, claim search text ``q``, page ``limit`` and
    ``offset``, the raw ``values`` (to refill the form and build page links) and ``errors``."""

    filters: AuditFilters
    q: str
    limit: int
    offset: int
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)

    def link(self, **changes: int | str) -> str:
        """The query string of this page with ``changes`` (e.g. another ``offset``)."""
        params = {k: v for k, v in self.values.items() if v}
        params.update({k: str(v) for k, v in changes.items()})
        params["limit"] = str(changes.get("limit", self.limit))
        return "?" + urlencode(params)


def _time(name: str, raw: str, errors: list[str]) -> datetime | None:
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        errors.append(f"{name}: {raw!r} is not a date or date and time (YYYY-MM-DD[THH:MM])")
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _number(name: str, raw: str, errors: list[str]) -> float | None:
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        errors.append(f"{name}: {raw!r} is not a finite number")
        return None
    return value


def _choice(name: str, raw: str, allowed: tuple[str, ...], errors: list[str]) -> str | None:
    if raw in allowed:
        return raw
    errors.append(f"{name}: {raw!r} is not one of {', '.join(allowed)}")
    return None


def _int(raw: str | None, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(raw or default), low), high)
    except ValueError:
        return default


def parse_list_query(params: Mapping[str, str]) -> ListQuery:
    """Filters, search text and page of the list page from its query parameters (all optional).

    Times without an offset are UTC. ``limit`` is clipped to 1–100 (default 25), ``offset`` to
    ≥ 0.
    """
    values = {k: (params.get(k) or "").strip() for k in FIELDS}
    errors: list[str] = []
    v = {k: raw for k, raw in values.items() if raw}
    score_min = _number("score_min", v["score_min"], errors) if "score_min" in v else None
    score_max = _number("score_max", v["score_max"], errors) if "score_max" in v else None
    score = _choice("score", v["score"], SCORE_NAMES, errors) if "score" in v else None
    if score is None and (score_min is not None or score_max is not None) and "score" not in v:
        errors.append("score_min/score_max: choose the score they bound")
    filters = AuditFilters(
        status=_choice("status", v["status"], AUDIT_STATUSES, errors) if "status" in v else None,
        since=_time("since", v["since"], errors) if "since" in v else None,
        until=_time("until", v["until"], errors) if "until" in v else None,
        verdict=_choice("verdict", v["verdict"], VERDICTS, errors) if "verdict" in v else None,
        score=score,
        score_min=score_min,
        score_max=score_max,
        metadata_key=v.get("metadata_key"),
        metadata_value=v.get("metadata_value") if "metadata_key" in v else None,
    )
    limit = _int(params.get("limit"), 25, 1, 100)
    offset = _int(params.get("offset"), 0, 0, 10**9)
    return ListQuery(filters, values["q"], limit, offset, values, errors)


def _clip(text: str, limit: int = TITLE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def line_id(audit: Audit, item_id: str | None) -> str | None:
    """The batch line id of an audit: its run item's id, else the line id in a ``claimaudit
    batch`` idempotency key, else a key the caller chose (a client's random key is none)."""
    if item_id is not None:
        return item_id
    key = audit.idempotency_key
    if not key or key.startswith("client:"):
        return None
    match = _BATCH_KEY.match(key)
    return match.group("line") if match else key


def list_rows(session: Session, audits: Sequence[Audit], *, tenant_id: str) -> list[dict[str, Any]]:
    """The rows of the list page: id, status, created_at, ``title`` (the question, else the start
    of the response), ``response_start`` (under a question), ``line_id``, metadata and scores."""
    ids: list[uuid.UUID] = [a.id for a in audits]
    scores = repo.score_rows(session, ids, tenant_id=tenant_id)
    starts = repo.response_starts(session, ids, chars=4 * TITLE_CHARS)
    items = runs_repo.item_ids_of(session, ids)
    rows = []
    for a in audits:
        start = _clip(starts.get(a.id, "")) or "(empty response)"
        rows.append(
            {
                "id": a.id,
                "status": a.status,
                "created_at": a.created_at,
                "title": _clip(a.question) if a.question else start,
                "response_start": start if a.question else None,
                "line_id": line_id(a, items.get(a.id)),
                "metadata": a.metadata_,
                "score": scores.get(a.id),
            }
        )
    return rows
