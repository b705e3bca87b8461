"""The input of ``claimaudit batch``: JSON lines, each line on its own.

A bad line is that line's problem: a line that is not UTF-8, not JSON, not an object, has an
unknown field, no ``id`` (unless ids are line numbers), an id that is not a string or an
integer, or a value that cannot travel as JSON is rejected with its line number and the reason;
every other line is audited. Blank lines are skipped. A byte-order mark at the start of the file
is not part of the first line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cli.client import LINE_FIELDS, audit_body, transport_problem

__all__ = ["IdSource", "BatchLine", "read_batch_input", "parse_line", "duplicate_ids"]

#: Where a line's id comes from: its ``id`` field (a line without one is rejected), or its line
#: number (``line-N``) for every line, whatever its ``id`` says.
IdSource = Literal["field", "line"]


@dataclass
class BatchLine:
    """One input line: its 1-based number, its id and request body, or why it was rejected."""

    line_id: str
    body: dict[str, Any] | None
    error: str | None = None
    line: int | None = None

    @property
    def rejected(self) -> bool:
        return self.body is None

    def rejection(self) -> dict[str, Any]:
        """The line as ``POST /runs``'s ``rejected`` entry: ``{line, id?, reason}``."""
        out: dict[str, Any] = {"line": self.line, "reason": self.error or "rejected"}
        if not self.line_id.startswith("line-"):
            out["id"] = self.line_id
        return out


def _json(raw: bytes, number: int) -> dict[str, Any] | str:
    """The line's JSON object, or why it is none (never raises)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"line {number} is not UTF-8 text ({exc.reason} at byte {exc.start})"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return f"line {number} is not valid JSON: {exc}"
    return data if isinstance(data, dict) else f"line {number} is not a JSON object"


def _line_id(data: dict[str, Any], number: int, ids: IdSource) -> str | None:
    """The line's id, or None when it has none it may use."""
    if ids == "line":
        return f"line-{number}"
    raw = data.get("id")
    if isinstance(raw, bool) or not isinstance(raw, str | int) or (isinstance(raw, str) and not raw.strip()):
        return None
    return str(raw)


def parse_line(raw: bytes, number: int, ids: IdSource = "field") -> BatchLine:
    """One input line (without its newline) as a :class:`BatchLine`."""
    data = _json(raw, number)
    if isinstance(data, str):
        return BatchLine(f"line-{number}", None, data, number)
    line_id = _line_id(data, number, ids)
    if line_id is None:
        got = "no id" if data.get("id") is None else f"id {data['id']!r} (a non-empty string or an integer)"
        error = f"line {number}: {got}; give every line an id, or pass --ids line to number them"
        return BatchLine(f"line-{number}", None, error, number)
    unknown = sorted(str(k) for k in data if k not in LINE_FIELDS)
    if unknown:
        allowed = ", ".join(sorted(LINE_FIELDS))
        return BatchLine(
            line_id,
            None,
            f"line {number}: unknown field(s) {', '.join(unknown)} (allowed: {allowed})",
            number,
        )
    body = audit_body(data)
    problem = transport_problem(body)
    if problem:
        return BatchLine(line_id, None, f"line {number}: {problem}", number)
    return BatchLine(line_id, body, None, number)


def read_batch_input(path: Path, ids: IdSource = "field") -> list[BatchLine]:
    """Every non-blank line of ``path`` (see the module docstring); ``OSError`` when unreadable."""
    lines: list[BatchLine] = []
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            if raw.strip():
                lines.append(parse_line(raw.rstrip(b"\r\n"), number, ids))
    return lines


def duplicate_ids(lines: list[BatchLine]) -> list[str]:
    """Ids used by more than one line, in first-seen order."""
    seen: dict[str, int] = {}
    for ln in lines:
        seen[ln.line_id] = seen.get(ln.line_id, 0) + 1
    return [i for i, n in seen.items() if n > 1]
