"""The stage runner: lease → heartbeat → run → retry, fail or hand off, for one audit or a bundle.

Every stage task (``workers.tasks``: ``audits.*``, one audit on its own chain;
``workers.bundle_tasks``: ``bundles.*``, the audits of a bundle on one chain) is a call of
:func:`run_stage`, which

1. takes the stage's lease of each audit that stands at this stage, with one new fencing token
   for the run (``db.leases.begin_stages``, own transaction; ``previous``: the token of the try
   before, whose leases a retry may take over). An audit that is finished, past this stage,
   behind it or held by another live run is not run: an audit alone stops its chain with
   ``Ignore`` (a redelivered message whose stage already committed first sends the lost next
   link); a bundle skips it (its own chain or the sweeper carries it). An audit over the
   crash-loop guard (``STAGE_MAX_RUNS``) fails with the error of the try before
   (``last_error``), when the retry carried one;
2. with a heartbeat (``workers.heartbeat``) renewing those leases, runs the stage: an audit alone
   runs the single-audit service (``workers.services``) in one transaction that ends with the
   fenced ``finish_stage`` (a run that lost its lease rolls back and changes nothing); a bundle
   runs the stage's bundle steps (``workers.bundle_stages``: one shared load, each audit's rows,
   one fenced write of all of them), and an audit that needs the single-audit service (an LLM
   component), or every audit when the shared load fails, runs it in its own fenced
   transaction; when the shared write fails, each audit is written alone;
3. on a transient error (``workers.errors.TRANSIENT_ERRORS``) gives the leases back and retries
   with the backoff of ``workers.retry`` (``TASK_MAX_RETRIES``: at least 181 s in all); when the
   retries run out the audits still held fail. Over the soft time limit an audit alone runs once
   more, then fails; a bundle gives back its leases and hands each unfinished audit to a chain
   of its own from this stage, where the single-audit limits apply. Any other error fails the
   audit with a readable reason (only while this run still holds it); in a bundle an audit's
   own error fails that audit only.

An audit alone that fails raises ``StageFailed`` (recorded already: the chain's error callback
``audits.fail`` leaves it); a bundle step returns normally, so that its chain carries the
finished audits on at once.

Test hook: ``CLAIMAUDIT_TEST_STAGE_DELAY="embedding:5,matching:1"`` sleeps that many seconds
after a stage is marked started (used by the fault tests; never set it in production); with
``CLAIMAUDIT_TEST_STAGE_DELAY_ONCE=<path>`` only the first process to create that file sleeps
(it writes its pid there). ``<stage>-committed`` sleeps after the stage's commit.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from celery import Task
from celery.exceptions import Ignore, Retry, SoftTimeLimitExceeded
from sqlalchemy.orm import Session

from db import leases
from db.engine import session_scope
from service import metrics
from service.settings import get_settings
from workers.audit_end import after_audits
from workers.bundle_stages import BundleStage, OwnRun
from workers.celery_app import app
from workers.database import get_session_factory
from workers.errors import TRANSIENT_ERRORS, describe
from workers.heartbeat import Heartbeat
from workers.retry import backoff_s

__all__ = [
    "Work",
    "StaleRun",
    "StageFailed",
    "run_stage",
    "record_failure",
    "stage_delay_for_tests",
    "audit_ended",
    "audits_ended",
]

log = logging.getLogger(__name__)

_settings = get_settings()

#: ``(session, audit id)``: one audit's stage by the single-audit service (writes; never commits).
Work = Callable[[Session, uuid.UUID], Any]


class StaleRun(RuntimeError):
    """This run no longer holds its audit (its lease expired and another run took over)."""


class StageFailed(RuntimeError):
    """A stage's own error, already recorded under its fencing token (``record_failure``): the
    chain's error callback must not record it again without the token, which would fail an audit
    that another run has meanwhile taken over."""


class _RetryRun(Exception):
    """A transient error or the soft time limit inside a bundle's steps: handled as if raised
    by the run itself (retry, or hand-off over the time limit)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


class _Lost(Exception):
    def __init__(self, lost: set[uuid.UUID]) -> None:
        super().__init__(f"{len(lost)} leases lost")
        self.lost = lost


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


def _commit_one(stage: str, aid: uuid.UUID, token: uuid.UUID, work: Work) -> None:
    """One audit's stage in its own transaction, ended by the fenced finish; raises ``StaleRun``
    (everything rolled back) when the run no longer holds the audit."""
    with session_scope(get_session_factory()) as session:
        work(session, aid)
        if not leases.finish_stage(session, aid, stage, token, pending_s=_settings.requeue_after_s):
            raise StaleRun(f"run {token} lost its lease")


@dataclass
class _Run:
    """One delivery of a stage task: its audits, the leases it took and what it finished."""

    task: Task
    stage: str
    ids: list[uuid.UUID]
    #: One audit on its own chain (``audits.*``), not a bundle (``bundles.*``).
    alone: bool
    token: uuid.UUID | None
    last_error: str | None
    begun: bool = False
    #: The audits this run took the lease of, with the number of runs of this stage each had.
    held: dict[uuid.UUID, int] = field(default_factory=dict)
    done: list[uuid.UUID] = field(default_factory=list)

    @property
    def pending(self) -> list[uuid.UUID]:
        return [aid for aid in self.held if aid not in self.done]

    def begin(self, redelivered: bool) -> None:
        """Take the leases (step 1); an audit alone that does not start stops its chain (``Ignore``)."""
        with session_scope(get_session_factory()) as session:
            token, starts = leases.begin_stages(
                session, self.ids, self.stage, lease_s=_settings.stage_lease_s, previous=self.token
            )
        self.token, self.begun = token, True
        for aid, start in starts.items():
            if start.outcome is not leases.Outcome.STARTED:
                self._not_started(aid, start, redelivered)
            elif start.runs > _settings.stage_max_runs:
                guard = (
                    f"the stage started {start.runs} times without finishing "
                    f"(STAGE_MAX_RUNS={_settings.stage_max_runs})"
                )
                known = self.last_error
                record_failure(
                    aid, self.stage, f"{known} ({guard})" if known else f"{self.stage} failed: {guard}", token
                )
                if self.alone:
                    raise Ignore()
            else:
                self.held[aid] = start.runs

    def _not_started(self, aid: uuid.UUID, start: leases.StageStart, redelivered: bool) -> None:
        where = "chain stopped" if self.alone else "skipped in its bundle"
        log.info(
            "audit %s: %s not run (%s, status %s); %s",
            aid,
            self.stage,
            start.outcome.value,
            start.status,
            where,
        )
        if not self.alone:
            return
        if start.outcome in (leases.Outcome.AHEAD, leases.Outcome.FINISHED) and redelivered:
            _resend_lost_link(aid, self.stage, start.status)
        raise Ignore()

    def work(self, single: Work, bundle: BundleStage | None) -> None:
        """Run the stage for the audits held (step 2), under their heartbeat."""
        assert self.token is not None
        held = list(self.held)
        beat_on: uuid.UUID | list[uuid.UUID] = held[0] if self.alone else held
        with Heartbeat(get_session_factory(), beat_on, self.token, lease_s=_settings.stage_lease_s):
            stage_delay_for_tests(self.stage)  # a slow stage: the heartbeat keeps its lease
            if self.alone or bundle is None:
                for aid in held:
                    _commit_one(self.stage, aid, self.token, single)
                    self.done.append(aid)
                return
            rows, alone = self._compute(bundle, self._load(bundle, held), held)
            self.done += self._write(bundle, rows)
            for aid in alone:
                if self._one(aid, single):
                    self.done.append(aid)

    def _load(self, spec: BundleStage, held: list[uuid.UUID]) -> Any:
        """The bundle's reads and shared work in their own transaction; None (each audit then runs
        the single-audit service) when it fails for any reason but a transient one."""
        try:
            with session_scope(get_session_factory()) as session:
                return spec.load(session, held)
        except (*TRANSIENT_ERRORS, SoftTimeLimitExceeded) as exc:
            raise _RetryRun(exc) from exc
        except Exception:
            log.exception(
                "bundle of %d audits: the shared work of %s failed; each audit runs alone",
                len(held),
                self.stage,
            )
            return None

    def _compute(
        self, spec: BundleStage, loaded: Any, held: list[uuid.UUID]
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
                log.exception("audit %s failed in %s (bundle)", aid, self.stage)
                record_failure(aid, self.stage, describe(self.stage, exc), self.token)
        return rows, alone

    def _write(self, spec: BundleStage, rows: dict[uuid.UUID, Any]) -> list[uuid.UUID]:
        """Every audit's rows and the fenced finish in one transaction; returns the audits that
        moved on. An audit whose lease this run lost is left out and the rest written again; when
        the write itself fails, each audit is written in its own transaction, so that one bad row
        fails only its audit."""
        assert self.token is not None
        pending = dict(rows)
        while pending:  # each round that loses leases writes fewer audits
            try:
                with session_scope(get_session_factory()) as session:
                    spec.write(session, pending)
                    finished = leases.finish_stages(
                        session, list(pending), self.stage, self.token, pending_s=_settings.requeue_after_s
                    )
                    if len(finished) != len(pending):
                        raise _Lost(set(pending) - set(finished))
                return list(pending)
            except _Lost as exc:
                log.warning(
                    "bundle: %s ran late for %d audits; their writes were rolled back",
                    self.stage,
                    len(exc.lost),
                )
                pending = {a: r for a, r in pending.items() if a not in exc.lost}
            except (*TRANSIENT_ERRORS, SoftTimeLimitExceeded) as exc:
                raise _RetryRun(exc) from exc
            except Exception:
                log.exception(
                    "bundle of %d audits: writing %s failed; each audit is written alone",
                    len(pending),
                    self.stage,
                )
                return [aid for aid, r in pending.items() if self._one(aid, _writer(spec, r))]
        return []

    def _one(self, aid: uuid.UUID, work: Work) -> bool:
        """A bundle's audit in its own fenced transaction; True when it committed. Its own errors
        are recorded here."""
        assert self.token is not None
        try:
            _commit_one(self.stage, aid, self.token, work)
        except StaleRun:
            log.warning(
                "audit %s: a stale run of %s finished late; its writes were rolled back", aid, self.stage
            )
            return False
        except (*TRANSIENT_ERRORS, SoftTimeLimitExceeded) as exc:
            raise _RetryRun(exc) from exc
        except Exception as exc:
            log.exception("audit %s failed in %s (bundle)", aid, self.stage)
            record_failure(aid, self.stage, describe(self.stage, exc), self.token)
            return False
        return True

    def retry(self, exc: BaseException) -> None:
        """Give back the leases this run holds and retry the task (raises ``Retry``, carrying the
        token and the error); after ``max_retries`` fail the audits it still holds (an audit
        alone then re-raises ``exc``; a bundle returns, so that its chain goes on)."""
        retries = int(self.task.request.retries)
        if retries >= int(self.task.max_retries):
            reason = f"{describe(self.stage, exc)} (still failing after {retries} retries)"
            log.error("%s: %s", self._name, reason)
            for aid in self.ids if self.alone else self._still_held():
                record_failure(aid, self.stage, reason, self.token)
            if self.alone:
                raise exc
            return
        countdown = backoff_s(retries)
        if self.token is not None:
            try:  # give the leases back so that the retry can take them at once
                with session_scope(get_session_factory()) as session:
                    leases.release_stage(
                        session, self.ids, self.token, pending_s=countdown + _settings.stage_lease_s
                    )
            except TRANSIENT_ERRORS:
                pass  # the leases expire by themselves, or the retry takes them over with ``previous``
        log.warning(
            "%s: %s hit %s; retry %d in %.1f s",
            self._name,
            self.stage,
            type(exc).__name__,
            retries + 1,
            countdown,
        )
        # the retry carries this try's token: when the leases could not be given back (database
        # down), the retry takes them over at once instead of waiting for them to expire
        kwargs = {
            "previous": str(self.token) if self.token else None,
            "last_error": describe(self.stage, exc),
        }
        args = (str(self.ids[0]),) if self.alone else ([str(a) for a in self.ids],)
        raise self.task.retry(args=args, kwargs=kwargs, exc=exc, countdown=countdown)

    def _still_held(self) -> list[uuid.UUID]:
        """The audits this run's token still holds ([] when the database cannot say: their leases
        expire and the sweeper sends each audit again)."""
        if self.token is None:
            return []
        try:
            with session_scope(get_session_factory()) as session:
                return leases.held_by(session, self.ids, self.token)
        except TRANSIENT_ERRORS:
            return []

    @property
    def _name(self) -> str:
        return f"audit {self.ids[0]}" if self.alone else f"bundle of {len(self.ids)} audits"

    def time_out(self, exc: BaseException) -> None:
        """Over the soft time limit: an audit alone runs once more, then fails (``StageFailed``);
        a bundle hands each audit it has not finished to a chain of its own."""
        if not self.alone:
            self._hand_off()
            return
        if not self.begun:  # over the limit before the lease was taken: just try again
            self.token = None
            self.retry(exc)
        limit = _settings.time_limits(self.stage)[0]
        if self.held.get(self.ids[0], 0) < 2:
            log.warning(
                "%s: %s over the soft time limit (%.0f s); running it once more",
                self._name,
                self.stage,
                limit,
            )
            self.retry(exc)
        reason = (
            f"{self.stage} failed: over the time limit of {limit:.0f} s twice "
            "(server setting STAGE_SOFT_TIME_LIMIT_S / STAGE_TIME_LIMITS)"
        )
        record_failure(self.ids[0], self.stage, reason, self.token)
        raise StageFailed(reason) from exc

    def _hand_off(self) -> None:
        """Give back the leases and send each audit this run still holds on a chain of its own
        from this stage (the single-audit path then applies its own time limit to each). A send
        that fails leaves the audit to the sweeper."""
        from workers.pipeline import TASK_OF_STATUS, enqueue_audit

        aids = self.pending
        if self.token is None or not aids:
            return
        log.warning("bundle: %s over the soft time limit; %d audits go on alone", self.stage, len(aids))
        try:
            with session_scope(get_session_factory()) as session:
                held = leases.held_by(session, aids, self.token)
                leases.release_stage(session, held, self.token, pending_s=_settings.requeue_after_s)
        except TRANSIENT_ERRORS:
            return  # the leases expire and the sweeper sends each audit again
        for aid in held:
            try:
                enqueue_audit(aid, first=TASK_OF_STATUS[self.stage])
            except Exception as exc:  # broker down: the pending deadline and the sweeper still apply
                log.warning("audit %s: could not send it alone (%s)", aid, type(exc).__name__)

    def fail(self, exc: BaseException) -> None:
        """A non-transient error of the run itself: fail the audits it holds and has not
        finished (an audit alone: ``StageFailed``)."""
        reason = describe(self.stage, exc)
        if not self.alone:
            log.exception("bundle of %d audits failed in %s", len(self.held), self.stage)
            for aid in self.pending:
                record_failure(aid, self.stage, reason, self.token)
            return
        log.exception("audit %s failed in %s", self.ids[0], self.stage)
        record_failure(self.ids[0], self.stage, reason, self.token if self.begun else None)
        raise StageFailed(reason) from exc


def _writer(spec: BundleStage, rows: Any) -> Work:
    """The write of one audit's ``rows`` as a single-audit stage's work."""

    def write(session: Session, aid: uuid.UUID) -> None:
        spec.write(session, {aid: rows})

    return write


def run_stage(
    task: Task,
    stage: str,
    audit_ids: str | Sequence[str],
    single: Work,
    *,
    bundle: BundleStage | None = None,
    previous: str | None = None,
    last_error: str | None = None,
) -> list[uuid.UUID]:
    """Run ``stage`` (a ``db.models.STAGES`` name) for one audit (``audit_ids`` a string: its
    own chain) or for a bundle (a list of ids, with the stage's ``bundle`` steps), as the
    module docstring says. ``single``: one audit's stage by the single-audit service.

    Returns the audits that finished the stage. Raises ``Ignore`` (an audit alone not run),
    ``Retry`` (a transient error, retried), ``StageFailed`` (an audit alone failed, recorded)
    or, for an audit alone whose retries ran out, the transient error itself.
    """
    alone = isinstance(audit_ids, str)
    ids = [uuid.UUID(audit_ids)] if isinstance(audit_ids, str) else [uuid.UUID(str(a)) for a in audit_ids]
    run = _Run(task, stage, ids, alone, uuid.UUID(previous) if previous else None, last_error)
    began = time.monotonic()
    try:
        run.begin(bool((task.request.delivery_info or {}).get("redelivered")))
        if run.held:
            run.work(single, bundle)
    except (Ignore, Retry):
        raise
    except StaleRun:  # an audit alone: its writes were rolled back
        log.warning("audit %s: a stale run of %s finished late; its writes were rolled back", ids[0], stage)
        raise Ignore() from None
    except (_RetryRun, SoftTimeLimitExceeded, *TRANSIENT_ERRORS) as exc:
        cause = exc.cause if isinstance(exc, _RetryRun) else exc
        if isinstance(cause, SoftTimeLimitExceeded):
            run.time_out(cause)
        else:
            run.retry(cause)
    except Exception as exc:
        run.fail(exc)
    finally:
        if stage == "scoring":  # the audits it finished are done
            audits_ended(run.done, "done")
    if run.done:
        (metrics.STAGE_SECONDS if alone else metrics.BUNDLE_SECONDS).labels(stage).observe(
            time.monotonic() - began
        )
    stage_delay_for_tests(f"{stage}-committed")  # tests: die between the commit and the next link's send
    return run.done
