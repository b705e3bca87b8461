"""The status and stage timeline of an audit: queued → decomposing → embedding → matching →
scoring → done (or failed), each with the time it started and how long it took."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["TERMINAL", "Step", "timeline"]

TERMINAL = frozenset({"done", "failed", "rejected"})
_STAGES = ("decomposing", "embedding", "matching", "scoring")


@dataclass(frozen=True, slots=True)
class Step:
    """One step: ``name``; ``state`` ``done`` | ``current`` | ``failed`` | ``waiting``; ``at`` the
    time it started (None while waiting); ``seconds`` from its start to the next step's start
    (None while it runs or waits)."""

    name: str
    state: str
    at: datetime | None
    seconds: float | None


def _states(status: str, stage: str | None, names: list[str]) -> list[str]:
    if status == "done":
        return ["done"] * len(names)
    if status in ("failed", "rejected"):
        at = names.index(stage) if stage in names else 0
        return ["done"] * at + ["failed"] + ["waiting"] * (len(names) - at - 2) + ["failed"]
    current = names.index(status) if status in names else 0
    return ["done"] * current + ["current"] + ["waiting"] * (len(names) - current - 1)


def timeline(audit: Any) -> list[Step]:
    """The steps of an ``Audit`` row (``status``, ``stage``, ``created_at``, ``<stage>_at``,
    ``finished_at``); the last step is ``done``, or ``failed`` for a failed/rejected audit."""
    last = "failed" if audit.status in ("failed", "rejected") else "done"
    names = ["queued", *_STAGES, last]
    times: list[datetime | None] = [
        audit.created_at,
        *(getattr(audit, f"{s}_at") for s in _STAGES),
        audit.finished_at,
    ]
    states = _states(audit.status, audit.stage, names)
    steps = []
    for k, (name, state) in enumerate(zip(names, states, strict=True)):
        at = times[k] if state != "waiting" else None
        nxt = next((t for t in times[k + 1 :] if t is not None), None)
        seconds = None
        if at is not None and nxt is not None and state == "done" and k < len(names) - 1:
            seconds = max(0.0, (nxt - at).total_seconds())
        steps.append(Step(name, state, at, seconds))
    return steps
