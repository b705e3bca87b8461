"""The audit chain and its enqueue function (what the API imports; loads no engine code).

One chain per audit: ``audits.decompose → audits.embed → audits.match → audits.score``, then
``checks.after_done`` (second-audit agreement, correction result, sampled checks), each
step ``.si(audit_id)`` (immutable: only the id travels), with ``audits.fail`` as error callback,
and each with its stage's priority (``STAGE_PRIORITY``: depth-first, later stages first).
Signatures are built by task name so importing this module does not import the tasks.

Enqueue only after the audit row is committed. When the broker is unreachable ``enqueue_audit``
raises at once (``FAST_PUBLISH``: an API request never waits for the broker); the audit stays
``queued`` with ``enqueued_at`` NULL and the sweeper (``workers.sweeper``, in every worker) sends it
within ``UNSENT_AFTER_S + SWEEP_INTERVAL_S``. The sweeper sends an audit whose lease expired with
``audit_chain(id, first=<its current stage>)``.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence

from celery import Signature, chain

from workers.celery_app import app

log = logging.getLogger(__name__)

__all__ = [
    "BULK_DECOMPOSE_PRIORITY",
    "STAGE_PRIORITY",
    "STAGE_TASKS",
    "TASK_OF_STATUS",
    "FAST_PUBLISH",
    "audit_chain",
    "enqueue_audit",
    "enqueue_audits",
    "search_claims_remote",
]

STAGE_TASKS: tuple[str, ...] = ("audits.decompose", "audits.embed", "audits.match", "audits.score")
#: The task an audit's chain starts with, by the audit's status (``queued``: the first stage).
TASK_OF_STATUS: dict[str, str] = {
    "queued": "audits.decompose",
    "decomposing": "audits.decompose",
    "embedding": "audits.embed",
    "matching": "audits.match",
    "scoring": "audits.score",
}
#: Publish retry policy of sends that must not block (API requests, the sweeper): one quick retry.
#: Chain links sent by the workers use the app's patient default (``workers.celery_app``).
FAST_PUBLISH: dict[str, float] = {
    "max_retries": 1,
    "interval_start": 0.1,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
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


def audit_chain(
    audit_id: uuid.UUID | str, *, first: str = "audits.decompose", bulk: bool = False
) -> Signature:
    """The canvas of one audit from task ``first`` on (not sent), each step with its stage's
    priority; ``bulk`` puts a first decomposition behind single audits.

    Raises ``ValueError`` for an unknown task name.
    """
    if first not in STAGE_TASKS:
        raise ValueError(f"unknown stage task {first!r}")
    aid = str(audit_id)
    names = STAGE_TASKS[STAGE_TASKS.index(first) :]
    steps = [
        app.signature(name, args=(aid,), immutable=True).set(priority=STAGE_PRIORITY[name]) for name in names
    ]
    if bulk and names[0] == "audits.decompose":
        steps[0].set(priority=BULK_DECOMPOSE_PRIORITY)
    steps.append(
        app.signature(AFTER_DONE_TASK, args=(aid,), immutable=True).set(priority=AFTER_DONE_PRIORITY)
    )
    return chain(*steps).on_error(app.signature("audits.fail"))


def enqueue_audit(audit_id: uuid.UUID | str, *, first: str = "audits.decompose", bulk: bool = False) -> str:
    """Send the audit's chain (from task ``first``; ``bulk``: see :func:`audit_chain`) to the
    broker; returns the id of the chain's last task.

    Raises kombu/redis connection errors at once when the broker is down (the audit stays
    recoverable: the sweeper sends it again).
    """
    # ignore_result: the sender does not subscribe to the first stage's result (else the API
    # retries that Redis subscription for many seconds while Redis is down)
    chained = audit_chain(audit_id, first=first, bulk=bulk)
    result = chained.apply_async(retry_policy=FAST_PUBLISH, ignore_result=True)
    return str(result.id)


def enqueue_audits(audit_ids: Sequence[uuid.UUID], *, bulk: bool = False) -> list[uuid.UUID]:
    """Send each committed audit's chain in order, stopping at the first broker failure; returns
    the ids sent (record them with ``db.leases.mark_sent``). The rest stay ``queued`` with
    ``enqueued_at`` NULL, and the sweeper sends them within ``UNSENT_AFTER_S + SWEEP_INTERVAL_S``."""
    sent: list[uuid.UUID] = []
    for aid in audit_ids:
        try:
            enqueue_audit(aid, bulk=bulk)
        except Exception as exc:  # broker down: recoverable, see above
            log.warning(
                "could not enqueue %d audits (%s); the sweeper sends them",
                len(audit_ids) - len(sent),
                type(exc).__name__,
            )
            break
        sent.append(aid)
    return sent


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
        retry_policy=FAST_PUBLISH,
    )
    try:
        items = result.get(timeout=timeout)
    finally:
        result.forget()
    return list(items)
