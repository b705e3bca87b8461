"""Celery tasks: thin, named, idempotent; arguments are ids (strings), never objects or vectors.

Each stage task (``audits.decompose``, ``audits.embed``, ``audits.match``, ``audits.score``) runs
its stage service for one audit through the stage runner (``workers.stage_runner.run_stage``:
lease, heartbeat, fenced commit, retry, failure), as the bundle tasks (``workers.bundle_tasks``)
do for a bundle. ``previous`` and ``last_error`` are set only on a retry: the token of the try
before, whose lease the retry may take over, and its error, which the crash-loop guard
(``STAGE_MAX_RUNS``) reports instead of hiding it.

``audits.fail`` is the chain's error callback: it marks the audit failed only for the failing
stage's own, non-transient error (a broker error while sending the next link, after the stage
committed, changes nothing: the audit waits for the sweeper). When it cannot write, the audit's
lease expires and the sweeper runs the stage again, so no audit is left in limbo.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from typing import Any, cast

from celery import Task

from db import leases
from db import repository as repo
from db.engine import session_scope
from service.settings import get_settings
from workers import services
from workers.celery_app import app
from workers.database import get_session_factory
from workers.errors import TRANSIENT_ERRORS, describe, is_transient
from workers.stage_runner import StageFailed, audit_ended, run_stage

log = logging.getLogger(__name__)

_settings = get_settings()


def task(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``app.task(**options)`` typed for mypy (Celery ships no type information)."""
    return cast(Callable[[Callable[..., Any]], Any], app.task(**options))


STAGE_OPTIONS: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    "max_retries": _settings.task_max_retries,
}


def stage_limits(stage: str) -> dict[str, float]:
    soft, hard = _settings.time_limits(stage)
    return {"soft_time_limit": soft, "time_limit": hard}


TASK_STAGE = {
    "audits.decompose": "decomposing",
    "audits.embed": "embedding",
    "audits.match": "matching",
    "audits.score": "scoring",
}


@task(name="audits.decompose", **STAGE_OPTIONS, **stage_limits("decomposing"))
def decompose(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Decompose the audit's documents into claims.

    Idempotent: replaces the audit's claims (and anything derived from them); fenced.
    Retries: transient database/broker/LLM errors, capped exponential backoff with jitter.
    """
    run_stage(
        self,
        "decomposing",
        audit_id,
        lambda s, a: services.decompose_audit(s, a, factory=get_session_factory()),
        previous=previous,
        last_error=last_error,
    )


@task(name="audits.embed", **STAGE_OPTIONS, **stage_limits("embedding"))
def embed(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Embed every claim of the audit (through the shared embedding cache).

    Idempotent: overwrites each claim's vector; fenced.
    Retries: transient database/broker/LLM errors, capped exponential backoff with jitter.
    """
    run_stage(
        self,
        "embedding",
        audit_id,
        lambda s, a: services.embed_audit(s, a, factory=get_session_factory()),
        previous=previous,
        last_error=last_error,
    )


@task(name="audits.match", **STAGE_OPTIONS, **stage_limits("matching"))
def match(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Judge every response claim against the reference claims (exact scan inside the audit).

    Idempotent: replaces the audit's verdicts and evidence; fenced.
    Retries: transient database/broker/LLM errors, capped exponential backoff with jitter.
    """
    run_stage(
        self,
        "matching",
        audit_id,
        lambda s, a: services.match_audit(s, a, factory=get_session_factory()),
        previous=previous,
        last_error=last_error,
    )


@task(name="audits.score", **STAGE_OPTIONS, **stage_limits("scoring"))
def score(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Score the audit and mark it done (one fenced transaction).

    Idempotent: upserts the audit's score row.
    Retries: transient database/broker errors, capped exponential backoff with jitter.
    """
    run_stage(self, "scoring", audit_id, services.score_audit_stage, previous=previous, last_error=last_error)


#: Attempts of ``audits.fail`` to write before it leaves the audit to the sweeper.
FAIL_WRITE_ATTEMPTS = 3


@task(name="audits.fail")
def fail(request: Any, exc: BaseException, traceback: Any) -> None:
    """Error callback of the chain: mark the audit failed for its failing stage's own error
    (a bundle chain's steps record their audits' failures themselves: nothing to do here).

    A transient error (the broker down while the next link was sent, retries of a database
    error exhausted) changes nothing: the audit keeps its lease and the sweeper sends it again.
    Idempotent: an audit already finished, or past the failing stage, is left as it is.
    """
    audit_id = request.args[0] if request is not None and request.args else None
    # a bundle step (``bundles.*``, not in TASK_STAGE) records its audits' failures itself, under
    # its token; what escapes it (a killed process) is left to the sweeper
    stage = TASK_STAGE.get(getattr(request, "task", "") or "")
    if audit_id is None or stage is None:
        return
    if type(exc).__name__ == StageFailed.__name__:  # recorded by the stage itself, fenced
        return
    aid = uuid.UUID(str(audit_id))
    if is_transient(exc):
        log.warning("audit %s: %s ended with %s; left to the sweeper", aid, stage, type(exc).__name__)
        return
    for attempt in range(FAIL_WRITE_ATTEMPTS):
        try:
            with session_scope(get_session_factory()) as session:
                failed = leases.fail_stage(session, aid, stage, describe(stage, exc))
            if failed:
                audit_ended(aid, "failed")
            return
        except TRANSIENT_ERRORS:
            time.sleep(1.0 + attempt)
    log.error("audit %s: could not record the failure of %s; the sweeper runs it again", aid, stage)


@task(name="audits.requeue_stale", acks_late=True)
def requeue_stale(only_unsent: bool = False) -> int:
    """Run one sweep (``workers.sweeper.sweep``): send every audit whose lease expired, or that
    was never enqueued, to the queue again from its current stage.

    ``only_unsent`` is accepted for compatibility and ignored (every due audit is sent).
    Idempotent: re-sending is harmless (the stages are fenced). Returns the number sent.
    """
    from workers.sweeper import sweep

    return sweep()


@task(name="claims.search", ignore_result=False, acks_late=False)
def search(
    q: str,
    k: int,
    model: str | None = None,
    tenant_id: str = "default",
    filters: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Embed ``q`` and return the ``k`` nearest stored claims of ``tenant_id`` and that model
    that pass ``filters`` (``db.claim_search.SearchFilters`` as a dict; HNSW with pgvector's
    iterative scan, approximate).

    ``model`` None: the local default model; otherwise an OpenAI-compatible embedding model,
    which must be allowed (``ALLOWED_EMBEDDING_MODELS``; the API checks it first) and is sent
    only to the configured endpoint. Raises ``ValueError`` for a model not allowed.
    Each item is JSON: claim_id, audit_id, role, reference, position, text, start, end, kind,
    similarity, audit_created_at (ISO 8601), verdict, suite, run_id, run_label.
    """
    from claims.embed import CachedEmbedder
    from db.claim_search import SearchFilters
    from workers import components

    if model is not None and model not in _settings.embedding_models:
        raise ValueError(f"embedding model {model!r} is not allowed (ALLOWED_EMBEDDING_MODELS)")
    config: dict[str, Any] = {} if model is None else {"embedder": "openai", "embedding_model": model}
    factory = get_session_factory()
    with session_scope(factory) as session:
        try:
            inner = components.embedder_for(config, factory=factory, tenant_id=tenant_id)
            if model is not None and inner.model_name != model:
                raise ValueError(f"unknown embedding model {model!r}")
            embedder = CachedEmbedder(inner, repo.PgEmbeddingCache(session))
            vector = embedder.embed([q])[0]
        except TRANSIENT_ERRORS:
            raise
        except Exception as exc:  # the model's own errors: the caller's 422, not a server error
            if model is None or isinstance(exc, ValueError):
                raise
            raise ValueError(f"embedding model {model!r} is unavailable ({type(exc).__name__})") from None
        items = repo.search_claims(
            session,
            vector,
            model=embedder.model_name,
            dim=embedder.dim,
            k=k,
            ef_search=_settings.hnsw_ef_search,
            tenant_id=tenant_id,
            exact_max_claims=_settings.search_exact_max_claims,
            own_ef_search=_settings.hnsw_ef_search_own,
            filters=SearchFilters(**(filters or {})),
        )
    for item in items:
        item["audit_id"] = str(item["audit_id"])
        item["run_id"] = None if item["run_id"] is None else str(item["run_id"])
        item["audit_created_at"] = item["audit_created_at"].isoformat()
        item["model"] = embedder.model_name
    return items
