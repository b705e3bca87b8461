"""The audit chain and its enqueue function (what the API imports; loads no engine code).

One chain per audit: ``audits.decompose → audits.embed → audits.match → audits.score``, then
``checks.after_done`` (second-audit agreement, correction result, sampled checks), each
step ``.si(audit_id)`` (immutable: only the id travels), with ``audits.fail`` as error callback,
and each with its stage's priority (``STAGE_PRIORITY``: depth-first, later stages first).
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

__all__ = [
    "BULK_DECOMPOSE_PRIORITY",
    "STAGE_PRIORITY",
    "STAGE_TASKS",
    "audit_chain",
    "enqueue_audit",
    "search_claims_remote",
]

STAGE_TASKS: tuple[str, ...] = ("audits.decompose", "audits.embed", "audits.match", "audits.score")
#: Runs after the last stage (``workers.check_tasks``); never changes the audit's own result.
AFTER_DONE_TASK = "checks.after_done"

#: Message priority of each stage (Redis: lower is served first; ``priority_steps`` in
#: ``workers.celery_app``). Later stages go first, so an audit that has started finishes before
#: new audits start (depth-first); a single audit's decomposition goes before a bulk one's, so
#: a single audit submitted behind a batch waits for the audits in progress, not the backlog.
STAGE_PRIORITY: dict[str, int] = {
    "audits.score": 1,
    "audits.match": 2,
    "audits.embed": 3,
    "audits.decompose": 5,
}
#: The method checks after an audit is done go with its last stage (they finish started work).
AFTER_DONE_PRIORITY = 1
#: Priority of the first stage of audits submitted in bulk (``POST /audits/batch``).
BULK_DECOMPOSE_PRIORITY = 7


def audit_chain(audit_id: uuid.UUID | str, *, bulk: bool = False) -> Signature:
    """The canvas of one audit (not sent); ``bulk`` puts its first stage behind single audits."""
    aid = str(audit_id)
    steps = [
        app.signature(name, args=(aid,), immutable=True).set(priority=STAGE_PRIORITY[name])
        for name in STAGE_TASKS
    ]
    if bulk:
        steps[0].set(priority=BULK_DECOMPOSE_PRIORITY)
    steps.append(
        app.signature(AFTER_DONE_TASK, args=(aid,), immutable=True).set(priority=AFTER_DONE_PRIORITY)
    )
    return chain(*steps).on_error(app.signature("audits.fail"))


def enqueue_audit(audit_id: uuid.UUID | str, *, bulk: bool = False) -> str:
    """Send the audit's chain to the broker; returns the id of the chain's last task.

    Raises kombu/redis connection errors when the broker is down (the audit stays recoverable).
    """
    result = audit_chain(audit_id, bulk=bulk).apply_async()
    return str(result.id)


def search_claims_remote(
    q: str, k: int, *, model: str | None = None, tenant_id: str = "default", timeout: float = 30.0
) -> list[dict[str, object]]:
    """Ask a worker to embed ``q`` and return the ``k`` nearest stored claims of ``tenant_id``
    (``claims.search``).

    The API uses this so that it never loads model weights. The query text travels in the
    message but not in its ``argsrepr``/``kwargsrepr`` (what logs, task events and Flower show).
    Raises ``celery.exceptions.TimeoutError`` when no worker answers within ``timeout`` seconds.
    """
    result = app.send_task(
        "claims.search",
        args=(q, k),
        kwargs={"model": model, "tenant_id": tenant_id},
        ignore_result=False,
        argsrepr=f"('<query>', {k})",
        kwargsrepr=repr({"model": model, "tenant_id": tenant_id}),
    )
    try:
        items = result.get(timeout=timeout)
    finally:
        result.forget()
    return list(items)
