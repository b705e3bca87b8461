"""Celery tasks: thin, named, idempotent; arguments are ids (strings), never objects or vectors.

Each stage task (``_run_stage``; ``previous`` and ``last_error`` are set only on a retry: the
token of the try before, whose lease the retry may take over, and its error, which the crash-loop
guard (``STAGE_MAX_RUNS``) reports instead of hiding it):

1. takes the stage's lease with a new fencing token (``db.leases.begin_stage``, own transaction);
   a finished audit, an audit past this stage, or a stage held by another live run stops the
   chain with ``Ignore`` (the sweeper re-sends the stage if that run dies);
2. runs the stage service in one transaction, with a heartbeat renewing the lease, that ends
   with the fenced ``finish_stage``: a run that lost its lease rolls back and changes nothing;
3. on a transient error (``workers.errors.TRANSIENT_ERRORS``) gives the lease back and retries
   with the backoff of ``workers.retry`` (``TASK_MAX_RETRIES``: at least 181 s in all); on the
   soft time limit runs once more, then fails; any other error marks the audit ``failed`` with
   a readable reason (only while this run still holds it).

``audits.fail`` is the chain's error callback: it marks the audit failed only for the failing
stage's own, non-transient error (a broker error while sending the next link, after the stage
committed, changes nothing: the audit waits for the sweeper). When it cannot write, the audit's
lease expires and the sweeper runs the stage again, so no audit is left in limbo.

Test hook: ``CLAIMAUDIT_TEST_STAGE_DELAY="embedding:5,matching:1"`` sleeps that many seconds
after a stage is marked started (used by the fault tests; never set it in production); with
``CLAIMAUDIT_TEST_STAGE_DELAY_ONCE=<path>`` only the first process to create that file sleeps
(it writes its pid there).
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable
from typing import Any, NoReturn, cast

from celery import Task
from celery.exceptions import Ignore, Retry, SoftTimeLimitExceeded
from sqlalchemy.orm import Session

from db import leases
from db import repository as repo
from db.engine import session_scope
from service import metrics
from service.settings import get_settings
from workers import services
from workers.audit_end import after_audits
from workers.celery_app import app
from workers.database import get_session_factory
from workers.errors import TRANSIENT_ERRORS, describe, is_transient
from workers.heartbeat import Heartbeat
from workers.retry import backoff_s

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


class StaleRun(RuntimeError):
    """This run no longer holds its audit (its lease expired and another run took over)."""


class StageFailed(RuntimeError):
    """A stage's own error, already recorded under its fencing token (``record_failure``): the
    chain's error callback must not record it again without the token, which would fail an audit
    that another run has meanwhile taken over."""


def stage_delay_for_tests(stage: str) -> None:
    spec = os.environ.get("CLAIMAUDIT_TEST_STAGE_DELAY", "")
    marker = os.environ.get("CLAIMAUDIT_TEST_STAGE_DELAY_ONCE")  # a path: sleep only if it does not exist
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, seconds = item.partition(":")
        if name != stage:
            continue
        if marker:
            try:
                with open(marker, "x") as f:
                    f.write(str(os.getpid()))
            except FileExistsError:
                return
        time.sleep(float(seconds or 0))


def record_failure(aid: uuid.UUID, stage: str, error: str, token: uuid.UUID | None) -> None:
    """Mark the audit failed (while ``token`` holds it); a database error is logged, not raised:
    the audit's lease then expires and the sweeper runs the stage again."""
    try:
        with session_scope(get_session_factory()) as session:
            failed = leases.fail_stage(session, aid, stage, error, token=token)
        if failed:
            audit_ended(aid, "failed")
    except TRANSIENT_ERRORS as exc:
        log.error("audit %s: could not record its failure (%s); left to the sweeper", aid, type(exc).__name__)


def _resend_lost_link(aid: uuid.UUID, stage: str, status: str | None) -> None:
    """A redelivered message whose stage already committed: its first delivery died after the
    commit and perhaps before the chain sent the next link, which would leave the audit waiting
    until its pending deadline (REQUEUE_AFTER_S). Send the chain from the current stage at once; if
    the link did go out, the duplicate finds the stage held or done and stops (fencing). After
    scoring the lost link is the method checks' ``checks.after_done`` (idempotent)."""
    from workers.pipeline import AFTER_DONE_PRIORITY, AFTER_DONE_TASK, TASK_OF_STATUS, enqueue_audit

    first = TASK_OF_STATUS.get(status or "")
    if first is None and not (status == "done" and stage == "scoring"):
        return
    try:
        if first is None:  # scoring committed, the method checks after it may not have been sent
            app.send_task(AFTER_DONE_TASK, args=(str(aid),), priority=AFTER_DONE_PRIORITY)
        else:
            enqueue_audit(aid, first=first)
        log.info(
            "audit %s: %s was redelivered after its commit; chain sent again from %s", aid, stage, status
        )
    except Exception as exc:  # broker down: the pending deadline and the sweeper still apply
        log.warning("audit %s: could not resend from %s (%s)", aid, status, type(exc).__name__)


def _begin(
    stage: str,
    aid: uuid.UUID,
    previous: str | None,
    *,
    redelivered: bool = False,
    last_error: str | None = None,
) -> leases.StageStart:
    prev = uuid.UUID(previous) if previous else None
    with session_scope(get_session_factory()) as session:
        start = leases.begin_stage(session, aid, stage, lease_s=_settings.stage_lease_s, previous=prev)
    if start.outcome in (leases.Outcome.AHEAD, leases.Outcome.FINISHED) and redelivered:
        _resend_lost_link(aid, stage, start.status)
    if start.outcome is not leases.Outcome.STARTED:
        log.info(
            "audit %s: %s not run (%s, status %s); chain stopped",
            aid,
            stage,
            start.outcome.value,
            start.status,
        )
        raise Ignore()
    if start.runs > _settings.stage_max_runs:
        # the crash-loop guard: a known error of the run before (carried by the retry) is kept
        guard = (
            f"the stage started {start.runs} times without finishing "
            f"(STAGE_MAX_RUNS={_settings.stage_max_runs})"
        )
        error = f"{last_error} ({guard})" if last_error else f"{stage} failed: {guard}"
        record_failure(aid, stage, error, start.token)
        raise Ignore()
    return start


def _retry(task: Task, stage: str, aid: uuid.UUID, token: uuid.UUID | None, exc: BaseException) -> NoReturn:
    retries = int(task.request.retries)
    if retries >= int(task.max_retries):
        reason = f"{describe(stage, exc)} (still failing after {retries} retries)"
        log.error("audit %s: %s", aid, reason)
        record_failure(aid, stage, reason, token)
        raise exc
    countdown = backoff_s(retries)
    if token is not None:
        try:  # give the lease back so that the retry can take it at once
            with session_scope(get_session_factory()) as session:
                leases.release_stage(session, aid, token, pending_s=countdown + _settings.stage_lease_s)
        except TRANSIENT_ERRORS:
            pass  # the lease expires by itself
    log.warning(
        "audit %s: %s hit %s; retry %d in %.1f s", aid, stage, type(exc).__name__, retries + 1, countdown
    )
    # the retry carries this try's token: when the lease could not be given back (database
    # down), the retry takes it over at once instead of waiting for it to expire
    kwargs = {"previous": str(token) if token else None, "last_error": describe(stage, exc)}
    raise task.retry(args=(str(aid),), kwargs=kwargs, exc=exc, countdown=countdown)


def _timed_out(
    task: Task, stage: str, aid: uuid.UUID, start: leases.StageStart, exc: BaseException
) -> NoReturn:
    assert start.token is not None
    limit = _settings.time_limits(stage)[0]
    if start.runs < 2:
        log.warning("audit %s: %s over the soft time limit (%.0f s); running it once more", aid, stage, limit)
        _retry(task, stage, aid, start.token, exc)
    reason = (
        f"{stage} failed: over the time limit of {limit:.0f} s twice "
        "(server setting STAGE_SOFT_TIME_LIMIT_S / STAGE_TIME_LIMITS)"
    )
    record_failure(aid, stage, reason, start.token)
    raise StageFailed(reason) from exc


def _run_stage(
    task: Task,
    stage: str,
    audit_id: str,
    work: Callable[[Session, uuid.UUID], Any],
    previous: str | None,
    last_error: str | None = None,
) -> None:
    aid = uuid.UUID(audit_id)
    factory = get_session_factory()
    start: leases.StageStart | None = None
    began = time.monotonic()
    try:
        redelivered = bool((task.request.delivery_info or {}).get("redelivered"))
        start = _begin(stage, aid, previous, redelivered=redelivered, last_error=last_error)
        token = start.token
        assert token is not None
        with (
            Heartbeat(factory, aid, token, lease_s=_settings.stage_lease_s),
            session_scope(factory) as session,
        ):
            stage_delay_for_tests(stage)  # a slow stage: the heartbeat keeps its lease
            work(session, aid)
            if not leases.finish_stage(session, aid, stage, token, pending_s=_settings.requeue_after_s):
                raise StaleRun(f"run {token} lost its lease")
        stage_delay_for_tests(f"{stage}-committed")  # tests: die between the commit and the next link's send
        metrics.STAGE_SECONDS.labels(stage).observe(time.monotonic() - began)
    except (Ignore, Retry):
        raise
    except StaleRun:
        log.warning("audit %s: a stale run of %s finished late; its writes were rolled back", audit_id, stage)
        raise Ignore() from None
    except SoftTimeLimitExceeded as exc:
        if start is None:  # over the limit before the lease was taken: just try again
            _retry(task, stage, aid, None, exc)
        _timed_out(task, stage, aid, start, exc)
    except TRANSIENT_ERRORS as exc:
        # before the lease was taken (begin failed), keep carrying the earlier try's token
        token = start.token if start is not None else (uuid.UUID(previous) if previous else None)
        _retry(task, stage, aid, token, exc)
    except Exception as exc:
        log.exception("audit %s failed in %s", audit_id, stage)
        reason = describe(stage, exc)
        record_failure(aid, stage, reason, None if start is None else start.token)
        raise StageFailed(reason) from exc


@task(name="audits.decompose", **STAGE_OPTIONS, **stage_limits("decomposing"))
def decompose(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Decompose the audit's documents into claims.

    Idempotent: replaces the audit's claims (and anything derived from them); fenced.
    Retries: transient database/broker/LLM errors, capped exponential backoff with jitter.
    """
    _run_stage(
        self,
        "decomposing",
        audit_id,
        lambda s, a: services.decompose_audit(s, a, factory=get_session_factory()),
        previous,
        last_error,
    )


@task(name="audits.embed", **STAGE_OPTIONS, **stage_limits("embedding"))
def embed(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Embed every claim of the audit (through the shared embedding cache).

    Idempotent: overwrites each claim's vector; fenced.
    Retries: transient database/broker/LLM errors, capped exponential backoff with jitter.
    """
    _run_stage(
        self,
        "embedding",
        audit_id,
        lambda s, a: services.embed_audit(s, a, factory=get_session_factory()),
        previous,
        last_error,
    )


@task(name="audits.match", **STAGE_OPTIONS, **stage_limits("matching"))
def match(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Judge every response claim against the reference claims (exact scan inside the audit).

    Idempotent: replaces the audit's verdicts and evidence; fenced.
    Retries: transient database/broker/LLM errors, capped exponential backoff with jitter.
    """
    _run_stage(
        self,
        "matching",
        audit_id,
        lambda s, a: services.match_audit(s, a, factory=get_session_factory()),
        previous,
        last_error,
    )


@task(name="audits.score", **STAGE_OPTIONS, **stage_limits("scoring"))
def score(self: Task, audit_id: str, previous: str | None = None, last_error: str | None = None) -> None:
    """Score the audit and mark it done (one fenced transaction).

    Idempotent: upserts the audit's score row.
    Retries: transient database/broker errors, capped exponential backoff with jitter.
    """
    _run_stage(self, "scoring", audit_id, services.score_audit_stage, previous, last_error)
    audit_ended(uuid.UUID(audit_id), "done")


def audit_ended(aid: uuid.UUID, status: str) -> None:
    """Metrics of the ended audit, and its run's finish when it was the run's last audit.

    Best effort: the audit's state is committed already; a lost run finish is re-sent by ``runs.tick``.
    """
    audits_ended([aid], status)


def audits_ended(aids: list[uuid.UUID], status: str) -> None:
    """:func:`audit_ended` of several audits (a bundle) in one transaction."""
    if not aids:
        return
    try:
        after_audits(aids, status)
    except Exception:
        log.exception("%d audits: metrics or run finish after %s failed", len(aids), status)


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
            filters=SearchFilters(**(filters or {})),
        )
    for item in items:
        item["audit_id"] = str(item["audit_id"])
        item["run_id"] = None if item["run_id"] is None else str(item["run_id"])
        item["audit_created_at"] = item["audit_created_at"].isoformat()
        item["model"] = embedder.model_name
    return items
