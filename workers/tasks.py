"""Celery tasks: thin, named, idempotent; arguments are ids (strings), never objects or vectors.

Each stage task (1) marks the stage started in its own transaction (``status``, ``<stage>_at``;
a finished audit stops the chain with ``Ignore``), (2) runs the stage service in one transaction
that the task commits. Transient errors (``workers.errors.TRANSIENT_ERRORS``) are retried with
exponential backoff and jitter; any other error marks the audit ``failed`` with a readable
reason and stops the chain (``audits.fail`` is also the chain's error callback, so an audit whose
retries are exhausted ends ``failed`` too).

Test hook: ``CLAIMAUDIT_TEST_STAGE_DELAY="embedding:5,matching:1"`` sleeps that many seconds
after a stage is marked started (used by the crash-recovery tests; never set it in production);
with ``CLAIMAUDIT_TEST_STAGE_DELAY_ONCE=<path>`` only the first process to create that file sleeps.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable
from typing import Any, cast

from celery import Task
from celery.exceptions import Ignore
from sqlalchemy.orm import Session

from db import repository as repo
from db.engine import session_scope
from workers import metrics, services
from workers.celery_app import app
from workers.database import get_session_factory
from workers.errors import TRANSIENT_ERRORS, describe
from workers.pipeline import enqueue_audit
from workers.settings import get_settings

log = logging.getLogger(__name__)

_settings = get_settings()


def task(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``app.task(**options)`` typed for mypy (Celery ships no type information)."""
    return cast(Callable[[Callable[..., Any]], Any], app.task(**options))


STAGE_OPTIONS: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": _settings.task_max_retries,
}

TASK_STAGE = {
    "audits.decompose": "decomposing",
    "audits.embed": "embedding",
    "audits.match": "matching",
    "audits.score": "scoring",
}


def _test_delay(stage: str) -> None:
    spec = os.environ.get("CLAIMAUDIT_TEST_STAGE_DELAY", "")
    marker = os.environ.get("CLAIMAUDIT_TEST_STAGE_DELAY_ONCE")  # a path: sleep only if it does not exist
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, seconds = item.partition(":")
        if name != stage:
            continue
        if marker:
            try:
                with open(marker, "x"):
                    pass
            except FileExistsError:
                return
        time.sleep(float(seconds or 0))


def _run_stage(stage: str, audit_id: str, work: Callable[[Session, uuid.UUID], Any]) -> None:
    aid = uuid.UUID(audit_id)
    factory = get_session_factory()
    with session_scope(factory) as session:
        audit = repo.start_stage(session, aid, stage)
    if audit is None:
        log.info("audit %s is finished or missing; %s skipped, chain stopped", audit_id, stage)
        raise Ignore()
    _test_delay(stage)
    began = time.monotonic()
    try:
        with session_scope(factory) as session:
            work(session, aid)
        metrics.STAGE_SECONDS.labels(stage).observe(time.monotonic() - began)
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:
        log.exception("audit %s failed in %s", audit_id, stage)
        with session_scope(factory) as session:
            repo.mark_failed(session, aid, describe(stage, exc))
        raise


@task(name="audits.decompose", **STAGE_OPTIONS)
def decompose(self: Task, audit_id: str) -> None:
    """Decompose the audit's documents into claims.

    Idempotent: replaces the audit's claims (and anything derived from them).
    Retries: transient database/broker/LLM errors, exponential backoff with jitter.
    """
    _run_stage(
        "decomposing", audit_id, lambda s, a: services.decompose_audit(s, a, factory=get_session_factory())
    )


@task(name="audits.embed", **STAGE_OPTIONS)
def embed(self: Task, audit_id: str) -> None:
    """Embed every claim of the audit (through the shared embedding cache).

    Idempotent: overwrites each claim's vector.
    Retries: transient database/broker/LLM errors, exponential backoff with jitter.
    """
    _run_stage("embedding", audit_id, lambda s, a: services.embed_audit(s, a, factory=get_session_factory()))


@task(name="audits.match", **STAGE_OPTIONS)
def match(self: Task, audit_id: str) -> None:
    """Judge every response claim against the reference claims (exact scan inside the audit).

    Idempotent: replaces the audit's verdicts and evidence.
    Retries: transient database/broker/LLM errors, exponential backoff with jitter.
    """
    _run_stage("matching", audit_id, lambda s, a: services.match_audit(s, a, factory=get_session_factory()))


def _score_and_finish(session: Session, audit_id: uuid.UUID) -> None:
    services.score_audit_stage(session, audit_id)
    repo.mark_done(session, audit_id)


@task(name="audits.score", **STAGE_OPTIONS)
def score(self: Task, audit_id: str) -> None:
    """Score the audit and mark it done (one transaction).

    Idempotent: upserts the audit's score row.
    Retries: transient database/broker errors, exponential backoff with jitter.
    """
    _run_stage("scoring", audit_id, _score_and_finish)
    _after_audit(audit_id, "done")


def _after_audit(audit_id: str, status: str) -> None:
    """Metrics of the ended audit, and its run's finish when it was the run's last audit."""
    from workers.run_tasks import after_audit

    after_audit(uuid.UUID(audit_id), status)


@task(name="audits.fail")
def fail(request: Any, exc: BaseException, traceback: Any) -> None:
    """Error callback of the chain: mark the audit failed with a readable reason.

    Idempotent: an audit already finished (done/failed) is left as it is.
    """
    audit_id = request.args[0] if request is not None and request.args else None
    if audit_id is None:
        return
    stage = TASK_STAGE.get(getattr(request, "task", ""), "pipeline")
    with session_scope(get_session_factory()) as session:
        repo.mark_failed(session, uuid.UUID(str(audit_id)), describe(stage, exc))
    _after_audit(str(audit_id), "failed")


@task(name="audits.requeue_stale", acks_late=True)
def requeue_stale(only_unsent: bool = False) -> int:
    """Hand queued audits whose chain never reached the broker (or was lost) to the queue again.

    Idempotent: re-sending a chain of a queued audit is harmless (stages replace their rows).
    Returns the number of audits re-enqueued.
    """
    factory = get_session_factory()
    with session_scope(factory) as session:
        ids = repo.stale_queued_audits(
            session, older_than_s=30 if only_unsent else _settings.requeue_after_s, only_unsent=only_unsent
        )
    for aid in ids:
        enqueue_audit(aid)
        with session_scope(factory) as session:
            repo.mark_enqueued(session, [aid])
    if ids:
        log.warning("re-enqueued %d stale audits", len(ids))
    return len(ids)


@task(name="claims.search", ignore_result=False, acks_late=False)
def search(q: str, k: int, model: str | None = None, tenant_id: str = "default") -> list[dict[str, Any]]:
    """Embed ``q`` and return the ``k`` nearest stored claims of ``tenant_id`` and that model
    (HNSW with pgvector's iterative scan, approximate).

    ``model`` None: the local default model; otherwise an OpenAI-compatible embedding model,
    which must be allowed (``ALLOWED_EMBEDDING_MODELS``; the API checks it first) and is sent
    only to the configured endpoint. Raises ``ValueError`` for a model not allowed.
    Each item is JSON: claim_id, audit_id, role, reference, position, text, start, end, kind,
    similarity, audit_created_at (ISO 8601).
    """
    from claims.embed import CachedEmbedder
    from workers import components

    if model is not None and model not in _settings.embedding_models:
        raise ValueError(f"embedding model {model!r} is not allowed (ALLOWED_EMBEDDING_MODELS)")
    config: dict[str, Any] = {} if model is None else {"embedder": "openai", "embedding_model": model}
    factory = get_session_factory()
    with session_scope(factory) as session:
        inner = components.embedder_for(config, factory=factory, tenant_id=tenant_id)
        if model is not None and inner.model_name != model:
            raise ValueError(f"unknown embedding model {model!r}")
        embedder = CachedEmbedder(inner, repo.PgEmbeddingCache(session))
        vector = embedder.embed([q])[0]
        items = repo.search_claims(
            session,
            vector,
            model=embedder.model_name,
            dim=embedder.dim,
            k=k,
            ef_search=_settings.hnsw_ef_search,
            tenant_id=tenant_id,
        )
    for item in items:
        item["audit_id"] = str(item["audit_id"])
        item["audit_created_at"] = item["audit_created_at"].isoformat()
        item["model"] = embedder.model_name
    return items
