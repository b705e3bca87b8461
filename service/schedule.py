"""Scheduled runs: which cron slot is due, claiming it, reading a suite's source into run items.

The schedule lives in Postgres (``suites``). One Celery beat process sends ``runs.tick`` every
``RUNS_TICK_S`` seconds; the tick computes each suite's latest cron slot at or before now
(``due_slot``) and claims it (``db.suites.claim_slot``: ``last_slot_at`` only moves forward),
so a slot starts exactly one run however many ticks or beats see it. After an outage the
latest missed slot is due once; older missed slots are not replayed. A new suite's
``last_slot_at`` is its slot at definition, so it first runs at its next slot.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from croniter import croniter

from claims.options import AuditOptions
from db import repository as repo
from service import http_limits

#: The largest URL source read (bytes); a larger one fails its run.
SOURCE_MAX_BYTES = 64 * 1024 * 1024

__all__ = ["SourceRow", "check_cron", "due_slot", "slot_label", "read_source", "item_body", "sample"]


def check_cron(expression: str) -> str:
    """``expression`` when it is a valid five-field cron expression; ValueError saying why otherwise."""
    if len(expression.split()) != 5:
        raise ValueError(
            f"cron: {expression!r} has {len(expression.split())} fields, not the five of a cron "
            "expression (minute hour day month weekday)"
        )
    if not croniter.is_valid(expression):
        raise ValueError(
            f"cron: {expression!r} is not a valid cron expression: a field is out of its range "
            "(minute 0-59, hour 0-23, day 1-31, month 1-12, weekday 0-7) or not a number, list, "
            "range or step"
        )
    return expression


def due_slot(expression: str, now: datetime) -> datetime:
    """The latest time at or before ``now`` (UTC, aware) that ``expression`` fires, to the minute."""
    now = now.astimezone(UTC).replace(second=0, microsecond=0)
    if croniter.match(expression, now):
        return now
    prev = croniter(expression, now).get_prev(datetime)
    return prev.astimezone(UTC)  # type: ignore[no-any-return]


def slot_label(slot: datetime) -> str:
    """The run label of a cron slot: ``2026-11-30T02:00Z``."""
    return slot.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


#: One row of a source: its 1-based line (the row number of a SQL source) and the row, or the
#: reason it is not one (a line that is not a JSON object).
SourceRow = tuple[int, "dict[str, Any] | str"]


def read_source(kind: str, source: str, *, timeout: float = 30.0) -> list[SourceRow]:
    """The rows of a ``jsonl`` source: a file path or an http(s) URL (one JSON object a line),
    each with its 1-based line number; a line that is not a JSON object is kept as the reason (the
    run rejects that line alone). Blank lines are skipped.

    The caller checks the source against the settings first (``service.source_policy``).

    A URL is read within ``timeout`` seconds in all (not per read) and up to ``SOURCE_MAX_BYTES``.
    Raises ``ValueError`` when the source as a whole cannot be used (not UTF-8, too large, an HTTP
    error), ``OSError`` / ``httpx.HTTPError`` when it cannot be read. (``sql`` sources are read by
    ``db.suites.fetch_sql_source``.)
    """
    if kind != "jsonl":
        raise ValueError(f"source kind {kind!r} is not read from a file or URL")
    if source.startswith(("http://", "https://")):
        # no redirects (they could lead past SUITE_SOURCE_HOSTS); errors name the status only
        # whole request within ``timeout`` (wall clock), at most SOURCE_MAX_BYTES read
        with http_limits.client(timeout) as client, client.stream("GET", source) as resp:
            if resp.status_code != 200:
                raise ValueError(f"HTTP {resp.status_code} (redirects are not followed)")
            data, more = http_limits.read_capped(resp, SOURCE_MAX_BYTES)
        if more:
            raise ValueError(f"the source is larger than {SOURCE_MAX_BYTES} bytes")
        lines = data.decode("utf-8-sig").splitlines()
    else:
        lines = Path(source).read_text(encoding="utf-8-sig").splitlines()
    out: list[SourceRow] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            out.append((number, f"line {number}: not JSON ({exc.msg})"))
            continue
        out.append((number, data if isinstance(data, dict) else f"line {number}: not a JSON object"))
    return out


def _references(value: Any) -> list[Any] | None:
    """A source row's references: a list of texts or of ``{"text", "id"?, "url"?, "title"?}``
    (``db.repository.is_reference``), a JSON array of them, or one text; None otherwise."""
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.startswith("[") else [value]
        except json.JSONDecodeError:
            value = [value]
    if isinstance(value, list | tuple) and all(repo.is_reference(v) for v in value):
        return [v if isinstance(v, str) else dict(v) for v in value]
    return None


def item_body(raw: Mapping[str, Any], defaults: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | str:
    """``(item id, audit body)`` of one source row, or the reason it is refused (a message).

    Rules of ``POST /audits``: a response text, references with at least one non-blank text, no
    NUL character, a config ``claims.options.AuditOptions`` accepts. ``defaults`` is the suite's
    config, under the row's own.
    """
    item_id = raw.get("id")
    if item_id is None or str(item_id).strip() == "":
        return "row without an id"
    iid = str(item_id)
    refs = _references(raw.get("references"))
    response = raw.get("response")
    if (
        not isinstance(response, str)
        or refs is None
        or not any(repo.reference_parts(r)[0].strip() for r in refs)
    ):
        return f"item {iid!r}: needs a response text and references with at least one non-blank text"
    config = {**defaults, **(raw.get("config") or {})}
    body: dict[str, Any] = {"response": response, "references": refs, "config": config}
    for key in ("question", "metadata"):
        if raw.get(key) is not None:
            body[key] = raw[key]
    if "\x00" in json.dumps(body, ensure_ascii=False):
        return f"item {iid!r}: must not contain NUL characters (\\u0000)"
    try:
        AuditOptions.from_config(config)
    except ValueError as exc:
        return f"item {iid!r}: {exc}"
    return iid, body


def sample(items: list[Any], size: int | None, seed: str) -> list[Any]:
    """At most ``size`` of ``items`` in their order: a random sample seeded by ``seed`` (the run
    label), so re-running a slot picks the same items. ``size`` None: all of them."""
    if size is None or size >= len(items):
        return list(items)
    chosen = sorted(random.Random(seed).sample(range(len(items)), size))
    return [items[i] for i in chosen]
