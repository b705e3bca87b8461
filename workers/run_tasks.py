"""Celery tasks of runs: the scheduler tick, starting a scheduled run, finishing a run, webhooks.

Thin and idempotent like ``workers.tasks``; arguments are ids. ``runs.tick`` is sent by the one
Celery beat every ``RUNS_TICK_S`` seconds (``workers.celery_app``); the others are sent after a
commit. A run finishes when its last audit ends (``after_audits``, after ``audits.score``,
``bundles.score`` and ``audits.fail``), and the tick finishes any run whose message was lost.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import Any

from celery import Task
from celery.utils.time import get_exponential_backoff_interval
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from db import leases
from db import retention as retention_repo
from db import runs as runs_repo
from db import suites as suites_repo
from db import tenant_indexes as tenant_indexes_repo
from db.backlog import admission_lock
from db.engine import make_engine, session_scope
from db.tenancy import deployment_session
from service import admission, metrics, schedule, source_policy
from service.backlog import BacklogFull, check_backlog
from service.runs import finish_run, submit_items
from service.settings import Settings, get_settings
from workers import webhooks
from workers.audit_end import send as _send
from workers.database import get_engine, get_session_factory
from workers.pipeline import enqueue_audits
from workers.tasks import task

log = logging.getLogger(__name__)

_settings = get_settings()


@task(name="runs.tick", acks_late=True)
def tick() -> int:
    """Start one run per due cron slot of each suite; re-send lost start and finish messages.

    Idempotent: a slot is claimed by moving ``suites.last_slot_at`` forward (at most once), the
    run's natural key (suite, label = slot) is unique, and starting or finishing twice is a no-op.
    Returns the number of runs started.
    """
    now = datetime.now(UTC)
    factory = get_session_factory()
    started: list[uuid.UUID] = []
    with session_scope(factory) as session:
        for suite in suites_repo.scheduled_suites(session):
            slot = schedule.due_slot(str(suite.cron), now)
            if suite.last_slot_at is not None and slot <= suite.last_slot_at:
                continue
            if not suites_repo.claim_slot(session, suite.id, slot):
                continue
            run, created = runs_repo.get_or_create_run(
                session,
                suite=suite.name,
                label=schedule.slot_label(slot),
                source=f"schedule:{suite.source_kind}",
                scheduled_for=slot,
                tenant_id=suite.tenant_id,
            )
            if created:
                started.append(run.id)
    for run_id in started:
        _send("runs.start", run_id)
    with session_scope(factory) as session:
        ready = runs_repo.unfinished_complete_runs(session)
        lost = runs_repo.unsealed_scheduled_runs(session, older_than_s=_settings.runs_restart_after_s)
    for run_id in ready:
        _send("runs.finish", run_id)
    for run_id in lost:
        _send("runs.start", run_id)
    if started:
        log.info("scheduler started %d run(s): %s", len(started), [str(r) for r in started])
    return len(started)


def _sql_rows(query: str, tenant_id: str, settings: Settings) -> list[dict[str, Any]]:
    """A SQL source's rows, read on a connection of its own (no pool) that is closed afterwards,
    so nothing the query set (``set_config``, a role) reaches another task's connection."""
    engine = make_engine(settings.database_url, poolclass=NullPool, connect_args={"connect_timeout": 5})
    try:
        with Session(engine) as session, session.begin():
            return suites_repo.fetch_sql_source(
                session,
                query,
                tenant_id=tenant_id,
                role=settings.suite_sql_role,
                timeout_s=settings.suite_sql_timeout_s,
            )
    finally:
        engine.dispose()


#: Valid items of a scheduled run (item id, audit body) and the rows it rejects.
Loaded = tuple[list[tuple[str, dict[str, Any]]], list[runs_repo.Rejection]]
#: The source line (SQL: row) of each valid item id.
Lines = dict[str, int]


def _read_rows(kind: str, source: str, tenant_id: str, settings: Settings) -> list[schedule.SourceRow]:
    """A suite's source as ``(line, row or reason)``: a SQL source's rows are numbered from 1."""
    source_policy.check_source(kind, source, settings, tenant_id=tenant_id)
    if kind == "sql":
        return list(enumerate(_sql_rows(source, tenant_id, settings), start=1))
    if source_policy.is_url(source):
        return schedule.read_source(kind, source)
    path = source_policy.source_file(source, settings, tenant_id=tenant_id)
    return schedule.read_source(kind, str(path))


def _rejection(line: int, raw: dict[str, Any] | str, reason: str, kind: str) -> runs_repo.Rejection:
    """A rejected row, keyed by its item id when it has one, else by its line (row)."""
    item_id = raw.get("id") if isinstance(raw, dict) else None
    iid = None if item_id is None or str(item_id).strip() == "" else str(item_id)
    key = iid if iid is not None else f"{'row' if kind == 'sql' else 'line'} {line}"
    return runs_repo.Rejection(key, line, iid, reason)


def _load_items(
    kind: str, source: str, config: dict[str, Any], tenant_id: str, label: str, size: int | None
) -> tuple[list[tuple[str, dict[str, Any]]], list[runs_repo.Rejection], Lines]:
    """The sampled rows of a suite's source: the valid items, a rejection for each row that is
    not one (not JSON, no id, no response, a config the API refuses), and the line of each item:
    a bad row is that row's problem, the others are audited. The sample is drawn over every row
    (``schedule.sample``, seeded by the run label), so a source without bad rows gives the items
    it always gave.

    The server's settings are checked again first (``service.source_policy``): a suite stored
    before they changed fails with the reason (ValueError), as does an unreadable source. A SQL
    source runs as its tenant (``db.suites``).
    """
    rows = _read_rows(kind, source, tenant_id, get_settings())
    checked = [
        (line, raw, raw if isinstance(raw, str) else schedule.item_body(raw, config)) for line, raw in rows
    ]
    items: list[tuple[str, dict[str, Any]]] = []
    rejected: list[runs_repo.Rejection] = []
    lines: Lines = {}
    for line, raw, got in schedule.sample(checked, size, label):
        if isinstance(got, str):
            rejected.append(_rejection(line, raw, got, kind))
        else:
            items.append(got)
            lines.setdefault(got[0], line)
    return items, rejected, lines


def _admit(
    items: list[tuple[str, dict[str, Any]]], tenant_id: str, factory: Any, lines: Lines | None = None
) -> Loaded:
    """A scheduled run's items through the admission path (``service.admission``: text, sizes,
    models, the tenant's token budget; not the per-minute limits, which would fail any run larger
    than a minute's worth: the cron and ``sample_size`` bound a suite's runs): the admitted items
    and a rejection for each refused one (with its source line from ``lines``). ValueError for a
    whole-run refusal (then nothing is stored)."""
    settings = get_settings()
    names = [admission.Name(("source", "id"), iid) for iid, _ in items]
    with session_scope(factory) as session:
        try:
            found = admission.admit(
                admission.Submitter(tenant_id),
                [body for _, body in items],
                settings=settings,
                session=session,
                names=names,
            )
        except admission.Refused as exc:
            raise ValueError(exc.refusal.detail) from None
    admitted = [item for item, r in zip(items, found, strict=True) if r is None]
    rejected = [
        runs_repo.Rejection(iid, (lines or {}).get(iid), iid, f"item {iid!r}: {r.detail}")
        for (iid, _), r in zip(items, found, strict=True)
        if r is not None
    ]
    return admitted, rejected


def _backlog_full(
    factory: Any, tenant_id: str, run_id: str, *, lock_in: Session | None = None, incoming: int = 1
) -> bool:
    """Whether the backlog is past one of the API's admission bounds (``service.backlog``), or
    ``incoming`` more audits would pass a count bound, for a scheduled run of ``tenant_id``; a
    refusal is counted and logged (the run waits). ``lock_in``: the session that will store the
    audits takes the admission lock first (``db.backlog.admission_lock``, released by its commit),
    so the count and the insert are one step, as in the API."""
    settings = get_settings()
    if lock_in is not None and (settings.max_queued_audits > 0 or settings.max_queued_audits_per_tenant > 0):
        admission_lock(lock_in)
    full = None
    with session_scope(factory) as session, deployment_session(session) as everyone:
        try:
            check_backlog(
                everyone,
                tenant_id,
                max_queued=settings.max_queued_audits,
                max_queued_per_tenant=settings.max_queued_audits_per_tenant,
                max_age_s=settings.max_backlog_age_s,
                incoming=max(1, incoming),
            )
        except BacklogFull as exc:
            full = exc
    if full is not None:
        metrics.ADMISSION_REFUSALS.labels(full.reason).inc()
        log.warning("run %s waits: %s; runs.tick starts it again later", run_id, full.detail)
    return full is not None


@task(name="runs.start", acks_late=True)
def start(run_id: str) -> int:
    """Read the suite's source, sample it, store the run's items, audits and rejected rows, seal
    it, enqueue.

    Idempotent: items and rejections are keyed by (run, item id or line) and the sample is seeded
    by the run label, so a second start adds nothing; a sealed run is left alone. A row that is
    not a valid item is rejected with its line and reason (``run_rejections``), the others are
    audited; an unreadable source or a whole-run refusal fails the run with the reason (nothing
    stored half). Returns audits enqueued.

    While the backlog is past one of the API's bounds (``MAX_QUEUED_AUDITS``,
    ``MAX_QUEUED_AUDITS_PER_TENANT``, ``MAX_BACKLOG_AGE_S``) the run waits: nothing is read or
    stored, the refusal is logged and counted (``claimaudit_admission_refusals_total{reason}``),
    and ``runs.tick`` sends the start again once the run is ``RUNS_RESTART_AFTER_S`` old (then
    every tick until it starts).
    """
    factory = get_session_factory()
    rid = uuid.UUID(run_id)
    with session_scope(factory) as session:
        run = runs_repo.get_run_any_tenant(session, rid)
        if run is None or run.sealed_at is not None:
            return 0
        suite = suites_repo.get_suite(session, run.suite, tenant_id=run.tenant_id)
        if suite is None or suite.source is None or suite.source_kind is None:
            runs_repo.fail_run(session, rid, f"suite {run.suite!r} has no source")
            suite = None
        else:
            kind, source, config, size = (
                suite.source_kind,
                suite.source,
                dict(suite.config),
                suite.sample_size,
            )
        label, name, tenant = run.label, run.suite, run.tenant_id
    if suite is None:
        _send("runs.finish", rid)
        return 0
    if _backlog_full(factory, tenant, run_id):
        return 0
    try:
        items, rejected, lines = _load_items(kind, source, config, tenant, label, size)
        items, refused = _admit(items, tenant, factory, lines)
    except Exception as exc:  # the source is the suite owner's: any failure is the run's error
        log.warning("run %s: source %s unreadable: %s", run_id, source, exc)
        with session_scope(factory) as session:
            runs_repo.fail_run(session, rid, f"source {source}: {type(exc).__name__}: {exc}")
        _send("runs.finish", rid)
        return 0
    with session_scope(factory) as session:
        # counted again with the run's audits, under the admission lock held to this commit
        if _backlog_full(factory, tenant, run_id, lock_in=session, incoming=len(items)):
            return 0
        run, _, results = submit_items(
            session, suite=name, label=label, source="", items=items, tenant_id=tenant
        )
        runs_repo.add_rejections(session, run, [*rejected, *refused], tenant_id=tenant)
    ids = [r.audit_id for r in results if r.created and r.audit_id is not None]
    sent = enqueue_audits(ids)
    if sent:
        with session_scope(factory) as session:
            leases.mark_sent(session, sent, pending_s=_settings.requeue_after_s)
    if not ids:
        _send("runs.finish", rid)
    return len(ids)


@task(name="runs.finish", acks_late=True)
def finish(run_id: str) -> bool:
    """Finish the run if it is complete: freeze its summary and comparison, send its webhook.

    Idempotent: only one call finishes a run (conditional update); later ones return False.
    """
    with session_scope(get_session_factory()) as session:
        done = finish_run(session, uuid.UUID(run_id))
    if done is None:
        return False
    if done.run.finished_at is not None:
        metrics.RUN_SECONDS.observe((done.run.finished_at - done.run.created_at).total_seconds())
    metrics.RUNS_FINISHED.labels(done.event).inc()
    if done.delivery_id is not None:
        _send("webhooks.deliver", done.delivery_id)
    return True


@task(name="audits.retention", acks_late=True)
def retention(batch: int = 500) -> int:
    """Delete finished audits older than ``RETENTION_DAYS`` in batches of ``batch`` (one transaction each).

    Idempotent: deleting what is already gone deletes nothing. Runs keep their summaries.
    Returns the number of audits deleted; 0 when ``RETENTION_DAYS`` is not set.
    """
    days = _settings.retention_days
    if not days:
        return 0
    total = 0
    while True:
        with session_scope(get_session_factory()) as session:
            n = retention_repo.delete_old_audits(session, older_than_days=days, limit=batch)
        total += n
        if n < batch:
            break
    if total:
        log.info("retention: deleted %d audits older than %s days", total, days)
    return total


@task(name="claims.tenant_indexes", acks_late=True)
def tenant_indexes() -> dict[str, Any]:
    """Give every tenant that ``db.tenant_indexes.plan`` names (``SEARCH_TENANT_INDEX_MIN_CLAIMS``,
    ``SEARCH_TENANT_INDEX_MAX_SHARE``) its own HNSW index for ``/claims/search``, and drop the own
    indexes it no longer names (all of them when ``SEARCH_TENANT_INDEX_MIN_CLAIMS`` is 0), built
    and dropped ``CONCURRENTLY`` (writes go on meanwhile). Returns ``{"created": [...],
    "dropped": [...], "skipped": bool}`` (skipped: another run held the lock).

    Idempotent: an index that exists and is valid is kept; an invalid one (an interrupted build)
    is built again; two runs at once build nothing twice (an advisory lock).
    """
    min_claims = _settings.search_tenant_index_min_claims
    wanted: list[tenant_indexes_repo.OwnIndex] = []
    if min_claims:
        with session_scope(get_session_factory()) as session:
            wanted = tenant_indexes_repo.plan(
                session, min_claims=min_claims, max_share=_settings.search_tenant_index_max_share
            )
    with get_engine().connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        done = tenant_indexes_repo.sync(conn, wanted)
    if done.created or done.dropped:
        log.info("tenant indexes: built %s; dropped %s", list(done.created), list(done.dropped))
    return {"created": list(done.created), "dropped": list(done.dropped), "skipped": done.skipped}


@task(
    name="webhooks.deliver",
    bind=True,
    acks_late=True,
    max_retries=_settings.webhook_max_retries,
    # an attempt ends within WEBHOOK_TIMEOUT_S (workers.webhooks.send); these are the backstop
    soft_time_limit=_settings.webhook_timeout_s + 30,
    time_limit=_settings.webhook_timeout_s + 60,
)
def deliver(self: Task, delivery_id: str) -> str:
    """POST one signed delivery; record the attempt; retry with exponential backoff and jitter.

    Idempotent: a delivery no longer pending is not sent again.
    Retries: any non-2xx answer or transport error, up to ``WEBHOOK_MAX_RETRIES`` times. A URL
    ``service.source_policy`` refuses (checked before each attempt) fails the delivery at once.
    """
    factory = get_session_factory()
    with session_scope(factory) as session:
        row = suites_repo.get_delivery(session, int(delivery_id))
        if row is None or row.status != "pending":
            return "skipped"
        run = None if row.run_id is None else runs_repo.get_run_any_tenant(session, row.run_id)
        suite = None if run is None else suites_repo.get_suite(session, run.suite, tenant_id=run.tenant_id)
        url, payload, event = row.url, dict(row.payload), row.event
        secret = None if suite is None else suite.webhook_secret
    refused = False
    try:  # again before each delivery: the host may resolve elsewhere now (DNS rebinding)
        address = source_policy.check_webhook_url(url, get_settings())
    except source_policy.Unresolved as exc:  # DNS may be back later: retried
        attempt = webhooks.Attempt(None, str(exc))
    except source_policy.SourceRefused as exc:  # not sent, and not retried
        attempt, refused = webhooks.Attempt(None, str(exc)), True
    else:  # sent to the address just checked (pinned), not to a second resolution
        attempt = webhooks.send(
            url, payload, event=event, secret=secret, timeout=_settings.webhook_timeout_s, address=address
        )
    final = not attempt.delivered and (refused or self.request.retries >= self.max_retries)
    with session_scope(factory) as session:
        suites_repo.record_attempt(
            session,
            int(delivery_id),
            status_code=attempt.status_code,
            error=attempt.error,
            delivered=attempt.delivered,
            final=final,
        )
    if attempt.delivered:
        return "delivered"
    metrics.WEBHOOK_FAILURES.labels("true" if final else "false").inc()
    if final:
        return "failed"
    countdown = get_exponential_backoff_interval(
        _settings.webhook_backoff_s, self.request.retries, maximum=3600, full_jitter=True
    )
    raise self.retry(countdown=countdown)
