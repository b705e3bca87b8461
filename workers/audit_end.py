"""What follows the end of audits: their metrics, and the finish of each run they completed.

Called by the stage tasks (``workers.stage_runner.audits_ended``) after an audit's final state is
committed; best effort there (a lost run finish is re-sent by the ``runs.tick`` schedule).
"""

from __future__ import annotations

import uuid
from typing import Any

from db import repository as repo
from db import runs as runs_repo
from db.engine import session_scope
from service import metrics
from workers.celery_app import app
from workers.database import get_session_factory


def send(name: str, *args: Any) -> None:
    """Send the task ``name`` with ``args`` as strings (ids), by name: no task module is imported."""
    app.send_task(name, args=[str(a) for a in args])


def after_audits(audit_ids: list[uuid.UUID], status: str | None = None) -> None:
    """After audits ended (committed) with the same ``status`` (None: read each audit's own):
    count them with their created → finished latency, and finish each run whose last audit was
    among them; one transaction."""
    factory = get_session_factory()
    with session_scope(factory) as session:
        audits = repo.get_audits(session, audit_ids)
        statuses = {a.id: status or a.status for a in audits}
        waits = {
            a.id: (a.finished_at - a.created_at).total_seconds()
            for a in audits
            if a.finished_at is not None and a.created_at is not None
        }
        done = [aid for aid, st in statuses.items() if st == "done"]
        counts = runs_repo.audit_verdict_counts_of(session, done) if done else {}
        run_ids = runs_repo.complete_runs_for_audits(session, list(statuses))
    for aid, st in statuses.items():
        if st in ("done", "failed"):
            metrics.AUDITS_FINISHED.labels(st).inc()
            if aid in waits:
                metrics.AUDIT_LATENCY.labels(st).observe(max(0.0, waits[aid]))
    for verdict, n in counts.items():
        if n:
            metrics.VERDICTS.labels(verdict).inc(n)
    for run_id in run_ids:
        send("runs.finish", run_id)
