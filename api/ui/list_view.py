"""The audit list page's filters, read leniently from an HTML form's query string.

A form sends every field, empty ones as ``""``: empty means "no filter". A value that does not
parse is not a 422 JSON body (a reader sees a page) but an error listed above the table, and
that filter is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlencode

from db.models import AUDIT_STATUSES, VERDICTS
from db.repository import SCORE_NAMES, AuditFilters

__all__ = ["FIELDS", "PAGE_SIZES", "ListQuery", "parse_list_query"]

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
