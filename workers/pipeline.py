"""The audit chain and its enqueue function (what the API imports; loads no engine code).

One chain per audit: ``audits.decompose → audits.embed → audits.match → audits.score``, then
``checks.after_done`` (second-audit agreement, correction result, sampled checks), each
step ``.si(audit_id)`` (immutable: only the id travels), with ``audits.fail`` as error callback.
Signatures are built by task name so importing this module does not import the tasks.

Enqueue only after the audit row is committed. When the broker is unreachable ``enqueue_audit``
raises; the audit stays ``queued`` with ``enqueued_at`` NULL and is re-enqueued by
``audits.requeue_stale`` (run at every worker start and every 5 min by ``celery beat``), or by
``requeue_stale_audits()`` from the CLI.
"""

from __future__ import annotations

import uuid

from celery import Signature, chain

from workers.celery_app import app

__all__ = ["STAGE_TASKS", "audit_chain", "enqueue_audit", "search_claims_remote"]

STAGE_TASKS: tuple[str, ...] = ("audits.decompose", "audits.embed", "audits.match", "audits.score")
#: Runs after the last stage (``workers.check_tasks``); never changes the audit's own result.
AFTER_DONE_TASK = "checks.after_done"


def audit_chain(audit_id: uuid.UUID | str) -> Signature:
    """The canvas of one audit (not sent)."""
    aid = str(audit_id)
    steps = [app.signature(name, args=(aid,), immutable=True) for name in (*STAGE_TASKS, AFTER_DONE_TASK)]
    return chain(*steps).on_error(app.signature("audits.fail"))


def enqueue_audit(audit_id: uuid.UUID | str) -> str:
    """Send the audit's chain to the broker; returns the id of the chain's last task.

    Raises kombu/redis connection errors when the broker is down (the audit stays recoverable).
    """
    result = audit_chain(audit_id).apply_async()
    return str(result.id)


def search_claims_remote(
    q: str, k: int, *, model: str | None = None, timeout: float = 30.0
) -> list[dict[str, object]]:
    """Ask a worker to embed ``q`` and return the ``k`` nearest stored claims (``claims.search``).

    The API uses this so that it never loads model weights. Raises ``celery.exceptions.TimeoutError``
    when no worker answers within ``timeout`` seconds.
    """
    result = app.send_task("claims.search", args=(q, k), kwargs={"model": model}, ignore_result=False)
    try:
        items = result.get(timeout=timeout)
    finally:
        result.forget()
    return list(items)
