"""Structured JSON logs for the workers (``LOG_FORMAT=json``): one JSON object per line.

Fields: ``ts`` (ISO 8601, UTC), ``level``, ``logger``, ``message``, and inside a task
``task`` (name), ``task_id`` and the id its argument names: ``audit_id`` for ``audits.*``,
``run_id`` for ``runs.*``, ``delivery_id`` for ``webhooks.*``; ``exc`` with the traceback.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

__all__ = ["JsonFormatter", "task_fields"]

_ID_OF_PREFIX = {"audits.": "audit_id", "runs.": "run_id", "webhooks.": "delivery_id"}


def task_fields(name: str | None, task_id: str | None, args: Any) -> dict[str, Any]:
    """The task fields of a log line: task, task_id and the id named by the task's first argument."""
    if not name:
        return {}
    out: dict[str, Any] = {"task": name, "task_id": task_id}
    first = args[0] if isinstance(args, list | tuple) and args else None
    for prefix, key in _ID_OF_PREFIX.items():
        if name.startswith(prefix) and isinstance(first, str):
            out[key] = first
    return out


class JsonFormatter(logging.Formatter):
    """``logging.Formatter`` writing one JSON object per record (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        try:
            from celery import current_task

            request = current_task.request if current_task else None
        except Exception:  # outside a worker
            request = None
        if request is not None and getattr(request, "id", None):
            entry.update(
                task_fields(getattr(request, "task", None), request.id, getattr(request, "args", None))
            )
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
