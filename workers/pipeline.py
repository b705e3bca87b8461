"""The audit chain and its enqueue function (what the API imports; loads no engine code).

One chain per audit: ``audits.decompose → audits.embed → audits.match → audits.score``, then
``checks.after_done`` (second-audit agreement, correction result, sampled checks), each
step ``.si(audit_id)`` (immutable: only the id travels), with ``audits.fail`` as error callback,
and each with its stage's priority (``STAGE_PRIORITY``: depth-first, later stages first).
Signatures are built by task name so importing this module does not import the tasks.

Audits submitted in bulk (``POST /audits/batch``, ``POST /runs``; offline components only)
travel in bundles (``bundles_of``: 2, 4, 8, ... up to ``BUNDLE_SIZE`` audits and
``BUNDLE_MAX_CHARS`` characters): one chain ``bundles.decompose → bundles.embed → bundles.match
→ bundles.score → checks.after_done`` whose steps carry the list of ids. A bundle step does each
audit's stage under the same lease and fence as a single audit's (``workers.bundle_tasks``), but
parses the bundle's texts in one parser pass, embeds its claims in one model call and writes
all its rows in one transaction.

Enqueue only after the audit row is committed. When the broker is unreachable ``enqueue_audit``
raises at once (``FAST_PUBLISH``: an API request never waits for the broker); the audit stays
``queued`` with ``enqueued_at`` NULL and the sweeper (``workers.sweeper``, in every worker) sends it
within ``UNSENT_AFTER_S + SWEEP_INTERVAL_S``. The sweeper sends an audit whose lease expired with
``audit_chain(id, first=<its current stage>)``.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import redis
from celery import Signature, chain
from celery.exceptions import TimeoutError as CeleryTimeout

from workers.celery_app import app

log = logging.getLogger(__name__)

__all__ = [
    "BULK_DECOMPOSE_PRIORITY",
    "STAGE_PRIORITY",
    "STAGE_TASKS",
    "TASK_OF_STATUS",
    "FAST_PUBLISH",
    "BUNDLE_TASKS",
    "RESULT_STORE_TIMEOUT_S",
    "ResultStoreDown",
    "audit_chain",
    "bundle_chain",
    "bundleable",
    "bundles_of",
    "enqueue_audit",
    "enqueue_audits",
    "search_claims_remote",
]

STAGE_TASKS: tuple[str, ...] = ("audits.decompose", "audits.embed", "audits.match", "audits.score")
#: The stage tasks of a bundle chain (each takes a list of audit ids), in order.
BUNDLE_TASKS: tuple[str, ...] = ("bundles.decompose", "bundles.embed", "bundles.match", "bundles.score")
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
    "bundles.score": 1,
    "bundles.match": 2,
    "bundles.embed": 3,
    "bundles.decompose": 7,  # bundles come from bulk submissions only: behind single audits
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


def bundleable(config: Mapping[str, Any] | None, settings: Any) -> bool:
    """Whether an audit with this stored ``config`` may travel in a bundle: every component
    offline (the offline decomposer, the local embedder, no LLM judge), so that a bundle step
    stays within one stage's time limit. Raises ``ValueError`` for an invalid config."""
    from claims.options import AuditOptions

    options = AuditOptions.from_config(config, settings)
    return options.decomposer == "offline" and options.embedder == "local" and options.judge == "none"


def bundle_chain(audit_ids: Sequence[uuid.UUID | str]) -> Signature:
    """The canvas of a bundle of audits submitted in bulk (not sent): ``BUNDLE_TASKS`` then
    ``checks.after_done``, each step with the ids as one list argument and its stage's priority.

    Raises ``ValueError`` for an empty bundle.
    """
    ids = [str(a) for a in audit_ids]
    if not ids:
        raise ValueError("a bundle needs at least one audit")
    steps = [
        app.signature(name, args=(ids,), immutable=True).set(priority=STAGE_PRIORITY[name])
        for name in BUNDLE_TASKS
    ]
    steps.append(
        app.signature(AFTER_DONE_TASK, args=(ids,), immutable=True).set(priority=AFTER_DONE_PRIORITY)
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


def bundles_of(
    audit_ids: Sequence[uuid.UUID], sizes: Mapping[uuid.UUID, int], bundle_size: int, max_chars: int
) -> list[list[uuid.UUID]]:
    """``audit_ids`` in order, cut into groups: runs of the audits in ``sizes`` (their characters,
    response and references) in bundles of 2, 4, 8, ... audits up to ``bundle_size`` (the size
    keeps doubling across the batch) and of at most ``max_chars`` characters; every other audit,
    and one larger than ``max_chars`` on its own, alone."""
    groups: list[list[uuid.UUID]] = []
    limit = chars = 0
    open_bundle = False  # the last group is a bundle that may still grow
    for aid in audit_ids:
        size = sizes.get(aid)
        if size is None or size > max_chars:
            groups.append([aid])
            open_bundle = False
        elif open_bundle and len(groups[-1]) < limit and chars + size <= max_chars:
            groups[-1].append(aid)
            chars += size
        else:
            limit, chars = min(bundle_size, max(2, limit * 2)), size
            groups.append([aid])
            open_bundle = True
    return groups


def enqueue_audits(
    audit_ids: Sequence[uuid.UUID],
    *,
    bulk: bool = False,
    bundle: Mapping[uuid.UUID, int] | None = None,
    bundle_size: int = 1,
    bundle_chars: int = 100_000,
) -> list[uuid.UUID]:
    """Send each committed audit's chain in order, stopping at the first broker failure; returns
    the ids sent (record them with ``db.leases.mark_sent``). The rest stay ``queued`` with
    ``enqueued_at`` NULL, and the sweeper sends them within ``UNSENT_AFTER_S + SWEEP_INTERVAL_S``.

    With ``bundle_size`` > 1, the ``audit_ids`` in ``bundle`` (audits whose components are all
    offline, with their characters) go in bundle chains (``bundle_chain``, cut by
    ``bundles_of``: 2, 4, 8, ... audits up to ``bundle_size`` and ``bundle_chars``, so that the
    first results come back after a small bundle's work and a bundle stays within a stage's
    time limit); the others each get their own chain (``bulk``: behind single audits).
    """
    sizes = dict(bundle or {}) if bundle_size > 1 else {}
    groups = bundles_of(audit_ids, sizes, bundle_size, bundle_chars)
    sent: list[uuid.UUID] = []
    for group in groups:
        try:
            if group[0] in sizes and sizes[group[0]] <= bundle_chars:
                bundle_chain(group).apply_async(retry_policy=FAST_PUBLISH, ignore_result=True)
            else:
                enqueue_audit(group[0], bulk=bulk)
        except Exception as exc:  # broker down: recoverable, see above
            log.warning(
                "could not enqueue %d audits (%s); the sweeper sends them",
                len(audit_ids) - len(sent),
                type(exc).__name__,
            )
            break
        sent.extend(group)
    return sent


#: Seconds the result store (Redis) has to answer the ping before a search is sent.
RESULT_STORE_TIMEOUT_S = 1.0


class ResultStoreDown(redis.exceptions.ConnectionError):
    """The result store of ``claims.search`` does not answer (the API's 503 handler catches it)."""


def _ping_result_store() -> None:
    """Raise ``ResultStoreDown`` unless the result backend's Redis answers within
    ``RESULT_STORE_TIMEOUT_S`` seconds (connect and reply)."""
    url = str(app.conf.result_backend or app.conf.broker_url)
    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=RESULT_STORE_TIMEOUT_S, socket_timeout=RESULT_STORE_TIMEOUT_S
        )
        try:
            client.ping()
        finally:
            client.close()
    except redis.exceptions.RedisError as exc:
        raise ResultStoreDown(f"the result store does not answer: {type(exc).__name__}") from exc


def _reset_result_backend() -> None:
    """Drop this process's result backend, so the next search builds a new one: once its
    reconnects are spent Celery's result consumer stays broken ("must be restarted")."""
    with contextlib.suppress(Exception):
        app._backend_cache = None
        app._local.backend = None


def search_claims_remote(
    q: str,
    k: int,
    *,
    model: str | None = None,
    tenant_id: str = "default",
    filters: dict[str, Any] | None = None,
    timeout: float = 30.0,
) -> list[dict[str, object]]:
    """Ask a worker to embed ``q`` and return the ``k`` nearest stored claims of ``tenant_id``
    that pass ``filters`` (``db.claim_search.SearchFilters.to_dict()``; ``claims.search``).

    The API uses this so that it never loads model weights. The query text travels in the
    message but not in its ``argsrepr``/``kwargsrepr`` (what logs, task events and Flower show).
    Raises ``celery.exceptions.TimeoutError`` when no worker answers within ``timeout`` seconds,
    ``ResultStoreDown`` (a ``redis.exceptions.ConnectionError``: the API answers 503) when the
    result store does not answer a ping within ``RESULT_STORE_TIMEOUT_S`` seconds before the send,
    or fails while the answer is awaited (never the backend's own reconnect loop of ~20 s).
    """
    _ping_result_store()
    result = app.send_task(
        "claims.search",
        args=(q, k),
        kwargs={"model": model, "tenant_id": tenant_id, "filters": filters or {}},
        ignore_result=False,
        argsrepr=f"('<query>', {k})",
        kwargsrepr=repr({"model": model, "tenant_id": tenant_id, "filters": sorted(filters or {})}),
        retry_policy=FAST_PUBLISH,
    )
    try:
        items = result.get(timeout=timeout)
    except (CeleryTimeout, ValueError):
        raise
    except Exception as exc:  # the result store failed mid-wait (a task's own error is a ValueError)
        _reset_result_backend()
        raise ResultStoreDown(f"the result store failed: {type(exc).__name__}") from exc
    finally:
        with contextlib.suppress(Exception):  # a store that is down forgets nothing anyway
            result.forget()
    return list(items)
