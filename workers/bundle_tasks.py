"""Celery tasks of bundle chains: one stage for every audit of a bundle submitted in bulk.

``POST /audits/batch`` and ``POST /runs`` send their offline audits in bundles
(``workers.pipeline.bundle_chain``, ``BUNDLE_SIZE``). A bundle step (``_run_bundle``):

1. takes the stage's lease of each audit of the bundle that stands at this stage, with one
   fencing token for the run (``db.leases.begin_stages``, own transaction). The others are
   skipped: finished or failed; ahead (an earlier delivery of this step did them, and the chain
   goes on from here); held by another live run or behind (that run's own chain carries them,
   or the sweeper sends them on a chain of their own when its lease expires);
2. with a heartbeat renewing those leases, runs the stage's bundle steps
   (``workers.bundle_stages``): reads every audit's rows and does the work that crosses audits
   once (one parser pass, one model call), computes each audit's rows, and writes them all with
   the fenced ``finish_stages`` in one transaction; an audit whose lease the run lost is rolled
   out of that write. When the shared read fails, or an audit needs an LLM component, that
   audit runs the single-audit service in its own fenced transaction (``workers.tasks``); when
   the write fails, each audit is written alone, so that one bad row fails only its audit;
3. an audit's own error fails that audit only (recorded under the token) and the others go on;
   a transient error gives back the leases the run still holds and retries the step with the
   backoff of ``workers.retry`` (the audits already past it are skipped; when the retries run
   out, the audits still held fail); over the soft time limit the step gives back its leases
   and sends each unfinished audit on a chain of its own from this stage, where the
   single-audit time limits apply. The step then returns normally, so the chain carries the
   finished audits on at once; nothing reaches the chain's error callback.

Bundling changes where the work happens, not the method: the rows are built by the functions of
the single-audit services. A claim's vector can differ in the 7th digit with the texts that
share its model batch (padding changes the float summation order), so a cosine that lies within
1e-7 of a threshold could in principle decide differently; no verdict differed on the bench
workload, the shared cases or the e2e tests (docs/PERFORMANCE.md, "Bundles").
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from celery import Task
from celery.exceptions import Ignore, Retry, SoftTimeLimitExceeded
from sqlalchemy.orm import Session

from db import leases
from db.engine import session_scope
from service import metrics
from service.settings import get_settings
from workers import services
from workers.bundle_stages import STAGES, BundleStage, OwnRun
from workers.database import get_session_factory
from workers.errors import TRANSIENT_ERRORS, describe
from workers.heartbeat import Heartbeat
from workers.retry import backoff_s
from workers.tasks import (
    STAGE_OPTIONS,
    StaleRun,
    audits_ended,
    record_failure,
    stage_delay_for_tests,
    stage_limits,
    task,
)

log = logging.getLogger(__name__)

_settings = get_settings()

#: ``(session, audit id)``: one audit's stage by the single-audit service (writes; never commits).
Work = Callable[[Session, uuid.UUID], Any]


class _RetryBundle(Exception):
    """A transient error or the soft time limit: give the leases back and retry the step."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _begin(
    stage: str, aids: list[uuid.UUID], previous: uuid.UUID | None
) -> tuple[uuid.UUID, dict[uuid.UUID, int]]:
    """Take the leases; returns the run's token and the audits it holds (in bundle order) with
    the number of runs of this stage each has had."""
    with session_scope(get_session_factory()) as session:
        token, starts = leases.begin_stages(
            session, aids, stage, lease_s=_settings.stage_lease_s, previous=previous
        )
    held: dict[uuid.UUID, int] = {}
    for aid, start in starts.items():
        if start.outcome is not leases.Outcome.STARTED:
            log.info(
                "audit %s: %s not run in its bundle (%s, status %s)",
                aid,
                stage,
                start.outcome.value,
                start.status,
            )
        elif start.runs > _settings.stage_max_runs:
            error = (
                f"{stage} failed: the stage started {start.runs} times without finishing "
                f"(STAGE_MAX_RUNS={_settings.stage_max_runs})"
            )
            record_failure(aid, stage, error, token)
        else:
            held[aid] = start.runs
    return token, held


def _load(stage: str, spec: BundleStage, held: list[uuid.UUID]) -> Any:
    """The bundle's reads and shared work in their own transaction; None (each audit then runs
    the single-audit service) when it fails for any reason but a transient one."""
    try:
        with session_scope(get_session_factory()) as session:
            return spec.load(session, held)
    except (*TRANSIENT_ERRORS, SoftTimeLimitExceeded) as exc:
        raise _RetryBundle(exc) from exc
    except Exception:
        log.exception(
            "bundle of %d audits: the shared work of %s failed; each audit runs alone", len(held), stage
        )
        return None


def _compute(
    stage: str, spec: BundleStage, loaded: Any, held: list[uuid.UUID], token: uuid.UUID
) -> tuple[dict[uuid.UUID, Any], list[uuid.UUID]]:
    """Each audit's rows; returns them and the audits that run alone. An audit's own error is
    recorded (the audit fails) and the others go on."""
    rows: dict[uuid.UUID, Any] = {}
    alone: list[uuid.UUID] = []
    for aid in held:
        if loaded is None:
            alone.append(aid)
            continue
        try:
            rows[aid] = spec.compute(loaded, aid)
        except OwnRun:
            alone.append(aid)
        except SoftTimeLimitExceeded:
            raise
        except Exception as exc:
            log.exception("audit %s failed in %s (bundle)", aid, stage)
            record_failure(aid, stage, describe(stage, exc), token)
    return rows, alone


class _Lost(Exception):
    def __init__(self, lost: set[uuid.UUID]) -> None:
        super().__init__(f"{len(lost)} leases lost")
        self.lost = lost


def _write(stage: str, spec: BundleStage, rows: dict[uuid.UUID, Any], token: uuid.UUID) -> list[uuid.UUID]:
    """Every audit's rows and the fenced finish in one transaction; returns the audits that moved
    on. An audit whose lease this run lost is left out and the rest written again; when the
    write itself fails, each audit is written in its own transaction, so that one bad row fails
    only its audit."""
    pending = dict(rows)
    while pending:  # each round that loses leases writes fewer audits
        try:
            with session_scope(get_session_factory()) as session:
                spec.write(session, pending)
                finished = leases.finish_stages(
                    session, list(pending), stage, token, pending_s=_settings.requeue_after_s
                )
                if len(finished) != len(pending):
                    raise _Lost(set(pending) - set(finished))
            return list(pending)
        except _Lost as exc:
            log.warning(
                "bundle: %s ran late for %d audits; their writes were rolled back", stage, len(exc.lost)
            )
            pending = {a: r for a, r in pending.items() if a not in exc.lost}
        except (*TRANSIENT_ERRORS, SoftTimeLimitExceeded) as exc:
            raise _RetryBundle(exc) from exc
        except Exception:
            log.exception(
                "bundle of %d audits: writing %s failed; each audit is written alone", len(pending), stage
            )
            return [aid for aid, r in pending.items() if _one(stage, aid, token, _writer(spec, r))]
    return []


def _writer(spec: BundleStage, rows: Any) -> Work:
    """The write of one audit's ``rows`` as a single-audit stage's work."""

    def write(session: Session, aid: uuid.UUID) -> None:
        spec.write(session, {aid: rows})

    return write


def _one(stage: str, aid: uuid.UUID, token: uuid.UUID, work: Work) -> bool:
    """One audit's stage in its own fenced transaction; True when it committed. Its own errors
    are recorded here."""
    try:
        with session_scope(get_session_factory()) as session:
            work(session, aid)
            if not leases.finish_stage(session, aid, stage, token, pending_s=_settings.requeue_after_s):
                raise StaleRun(f"run {token} lost its lease")
    except StaleRun:
        log.warning("audit %s: a stale run of %s finished late; its writes were rolled back", aid, stage)
        return False
    except (*TRANSIENT_ERRORS, SoftTimeLimitExceeded) as exc:
        raise _RetryBundle(exc) from exc
    except Exception as exc:
        log.exception("audit %s failed in %s (bundle)", aid, stage)
        record_failure(aid, stage, describe(stage, exc), token)
        return False
    return True


def _retry_or_fail(
    task: Task, stage: str, ids: list[str], token: uuid.UUID | None, exc: BaseException
) -> None:
    """Give back the leases this run holds and retry the step (raises ``Retry``); after
    ``max_retries`` fail the audits it still holds and return, so that the chain goes on for
    the audits that did finish."""
    retries = int(task.request.retries)
    aids = [uuid.UUID(i) for i in ids]
    factory = get_session_factory()
    if retries >= int(task.max_retries):
        reason = f"{describe(stage, exc)} (still failing after {retries} retries)"
        try:
            with session_scope(factory) as session:
                held = leases.held_by(session, aids, token) if token else []
        except TRANSIENT_ERRORS:
            held = []  # the leases expire and the sweeper sends each audit again
        for aid in held:
            record_failure(aid, stage, reason, token)
        return
    countdown = backoff_s(retries)
    if token is not None:
        try:
            with session_scope(factory) as session:
                leases.release_stage(session, aids, token, pending_s=countdown + _settings.stage_lease_s)
        except TRANSIENT_ERRORS:
            pass  # the leases expire by themselves, or the retry takes them over with ``previous``
    log.warning(
        "bundle of %d audits: %s hit %s; retry %d in %.1f s",
        len(ids),
        stage,
        type(exc).__name__,
        retries + 1,
        countdown,
    )
    kwargs = {"previous": str(token) if token else None}
    raise task.retry(args=(ids,), kwargs=kwargs, exc=exc, countdown=countdown)


def _split(stage: str, aids: list[uuid.UUID], token: uuid.UUID | None) -> None:
    """The bundle ran over its stage's time limit: give back the leases and send each audit it
    still holds on a chain of its own from this stage (the single-audit path then applies its
    own time limit to each). A send that fails leaves the audit to the sweeper."""
    from workers.pipeline import TASK_OF_STATUS, enqueue_audit

    if token is None or not aids:
        return
    log.warning("bundle: %s over the soft time limit; %d audits go on alone", stage, len(aids))
    try:
        with session_scope(get_session_factory()) as session:
            held = leases.held_by(session, aids, token)
            leases.release_stage(session, held, token, pending_s=_settings.requeue_after_s)
    except TRANSIENT_ERRORS:
        return  # the leases expire and the sweeper sends each audit again
    for aid in held:
        try:
            enqueue_audit(aid, first=TASK_OF_STATUS[stage])
        except Exception as exc:  # broker down: the pending deadline and the sweeper still apply
            log.warning("audit %s: could not send it alone (%s)", aid, type(exc).__name__)


def _run_bundle(
    task: Task, stage: str, audit_ids: Sequence[str], single: Work, previous: str | None
) -> list[uuid.UUID]:
    """Run ``stage`` for each audit of the bundle; returns the audits that finished it. Returns
    normally whenever the audits it could not finish are failed (recorded), sent alone, or left
    to the sweeper, so that the chain carries the finished ones on at once."""
    ids = [str(a) for a in audit_ids]
    token = uuid.UUID(previous) if previous else None
    held: dict[uuid.UUID, int] = {}
    done: list[uuid.UUID] = []
    began = time.monotonic()
    try:
        token, held = _begin(stage, [uuid.UUID(a) for a in ids], token)
        if held:
            spec = STAGES[stage]
            with Heartbeat(get_session_factory(), list(held), token, lease_s=_settings.stage_lease_s):
                stage_delay_for_tests(stage)
                rows, alone = _compute(stage, spec, _load(stage, spec, list(held)), list(held), token)
                done += _write(stage, spec, rows, token)
                for aid in alone:
                    if _one(stage, aid, token, single):
                        done.append(aid)
    except (Ignore, Retry):
        raise
    except (_RetryBundle, SoftTimeLimitExceeded, *TRANSIENT_ERRORS) as exc:
        cause = exc.cause if isinstance(exc, _RetryBundle) else exc
        if isinstance(cause, SoftTimeLimitExceeded):
            _split(stage, [a for a in held if a not in done], token)
        else:
            _retry_or_fail(task, stage, ids, token, cause)
    except Exception as exc:  # a fault of the bundle machinery itself: fail what this run holds
        log.exception("bundle of %d audits failed in %s", len(held), stage)
        for aid in held:
            if aid not in done:
                record_failure(aid, stage, describe(stage, exc), token)
    finally:
        if stage == "scoring":
            audits_ended(done, "done")
    if done:
        metrics.BUNDLE_SECONDS.labels(stage).observe(time.monotonic() - began)
    stage_delay_for_tests(f"{stage}-committed")
    return done


@task(name="bundles.decompose", **STAGE_OPTIONS, **stage_limits("decomposing"))
def decompose(self: Task, audit_ids: list[str], previous: str | None = None) -> None:
    """Decompose each audit of the bundle (one parser pass over all their documents, one write).

    Idempotent and fenced per audit, as ``audits.decompose``.
    """
    factory = get_session_factory()
    _run_bundle(
        self, "decomposing", audit_ids, lambda s, a: services.decompose_audit(s, a, factory=factory), previous
    )


@task(name="bundles.embed", **STAGE_OPTIONS, **stage_limits("embedding"))
def embed(self: Task, audit_ids: list[str], previous: str | None = None) -> None:
    """Embed the claims of each audit of the bundle (one model call through the shared embedding
    cache, one write). Idempotent and fenced per audit, as ``audits.embed``."""
    factory = get_session_factory()
    _run_bundle(
        self, "embedding", audit_ids, lambda s, a: services.embed_audit(s, a, factory=factory), previous
    )


@task(name="bundles.match", **STAGE_OPTIONS, **stage_limits("matching"))
def match(self: Task, audit_ids: list[str], previous: str | None = None) -> None:
    """Judge the response claims of each audit of the bundle (their rows read in one set of
    queries, one write). Idempotent and fenced per audit, as ``audits.match``."""
    factory = get_session_factory()
    _run_bundle(
        self, "matching", audit_ids, lambda s, a: services.match_audit(s, a, factory=factory), previous
    )


@task(name="bundles.score", **STAGE_OPTIONS, **stage_limits("scoring"))
def score(self: Task, audit_ids: list[str], previous: str | None = None) -> None:
    """Score each audit of the bundle and mark it done (one read, one write). Idempotent and
    fenced per audit, as ``audits.score``."""
    _run_bundle(self, "scoring", audit_ids, services.score_audit_stage, previous)


__all__ = ["decompose", "embed", "match", "score"]
