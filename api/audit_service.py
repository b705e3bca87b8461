"""The audits service: what the API does with audits, without HTTP.

It fingerprints a request (``request_sha256``), admits it (``admit``: ``service.admission`` with
this app's rate limiter and the backlog bounds), stores it once per idempotency key (``store``,
``store_item``), sends the chains of stored audits (``enqueue``) and lists a tenant's audits
(``list_audits``). The routes of ``/audits``, ``/runs``, ``/suites`` and ``/checks`` call it and
turn its exceptions into HTTP answers; none of them reaches the repository or the workers' port
for these steps on its own.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request
from sqlalchemy.orm import Session

from api.auth import Caller
from api.backlog import backlog_check
from api.documents import audit_document, audit_summary
from api.errors import DATABASE_DOWN, refusal
from api.schemas import AuditRequest
from db import leases
from db import repository as repo
from db.models import DEFAULT_TENANT, Audit
from service import admission, metrics
from service.settings import Settings
from workers import port

__all__ = [
    "AuditFilters",
    "KeyConflict",
    "admit",
    "audit_body",
    "enqueue",
    "list_audits",
    "never_enqueued",
    "request_sha256",
    "store",
    "store_item",
    "submitter",
]

log = logging.getLogger(__name__)

#: The filters of :func:`list_audits` (``db.audits.AuditFilters``).
AuditFilters = repo.AuditFilters


class KeyConflict(ValueError):
    """The idempotency key is stored with a different request body (HTTP 409)."""


def request_sha256(req: AuditRequest) -> str:
    """SHA-256 of the canonical JSON of the audit fields (what an idempotency key must match)."""
    payload = {
        "response": req.response,
        "references": req.stored_references(),
        "question": req.question,
        "metadata": req.metadata,
        "config": req.stored_config(),
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _new_audit(req: AuditRequest, key: str | None, sha: str, tenant_id: str) -> repo.NewAudit:
    return repo.NewAudit(
        tenant_id=tenant_id,
        response=req.response,
        references=req.stored_references(),
        request_sha256=sha,
        question=req.question,
        metadata=req.metadata,
        config=req.stored_config(),
        idempotency_key=key,
    )


def store(session: Session, req: AuditRequest, key: str | None, tenant_id: str) -> tuple[Audit, bool]:
    """Insert (or find by ``key``) and commit: the audit and whether it is new. Raises
    ``KeyConflict`` (nothing stored) on a key reused with another body, and the database's
    ``DBAPIError`` (rolled back by the caller) on a row Postgres refuses."""
    sha = request_sha256(req)
    audit, created = repo.create_audit(session, _new_audit(req, key, sha, tenant_id))
    if not created and audit.request_sha256 != sha:
        session.rollback()
        raise KeyConflict(
            f"Idempotency-Key {key!r} was already used for a different request (audit {audit.id})"
        )
    session.commit()
    return audit, created


def submitter(caller: Caller) -> admission.Submitter:
    """The admission path's view of the caller (``service.admission``)."""
    return admission.Submitter(caller.tenant_id, caller.limit_key, caller.audits_per_minute)


def admit(
    caller: Caller,
    request: Request,
    bodies: Sequence[Mapping[str, Any] | admission.Refusal],
    session: Session | None,
    settings: Settings,
    **options: Any,
) -> list[admission.Refusal | None]:
    """``service.admission.admit`` for this request (the app's rate limiter counts), the backlog
    bounds (``api.backlog``) among its checks when there is a session; a whole-request refusal is
    raised as its HTTP answer (413/422/429/503, ``Retry-After`` on a 429 or 503) and counted in
    ``claimaudit_admission_refusals_total{reason}`` when it has a reason."""
    checks = list(options.pop("checks", ()))
    if session is not None:
        checks.append(backlog_check(session, settings, getattr(request.app.state, "backlog_engine", None)))
    try:
        return admission.admit(
            submitter(caller),
            bodies,
            settings=settings,
            session=session,
            limiter=request.app.state.rate_limiter,
            checks=checks,
            **options,
        )
    except admission.Refused as exc:
        if session is not None:
            session.rollback()  # nothing to store: let go of the admission lock now
        if exc.refusal.reason is not None:
            metrics.ADMISSION_REFUSALS.labels(exc.refusal.reason).inc()
        raise refusal(exc.refusal) from None


def audit_body(req: AuditRequest) -> dict[str, Any]:
    """The fields of an audit as the admission path checks them (as stored)."""
    return {
        "response": req.response,
        "references": req.stored_references(),
        "question": req.question,
        "metadata": req.metadata,
        "config": req.stored_config(),
    }


def never_enqueued(audit: Audit) -> bool:
    """A replayed audit whose first enqueue failed: send it now (a duplicate chain is harmless)."""
    return audit.status == "queued" and audit.enqueued_at is None


def _bundleable(session: Session, audit_ids: list[uuid.UUID], settings: Settings) -> dict[uuid.UUID, int]:
    """Those of ``audit_ids`` whose components are all offline (``workers.pipeline.bundleable``),
    with their characters (response and references)."""
    offline = []
    for audit in repo.get_audits(session, audit_ids):
        try:
            if port.bundleable(audit.config, settings):
                offline.append(audit.id)
        except ValueError:  # validated at submission; a chain of its own reports the error
            continue
    return repo.audit_chars(session, offline)


def enqueue(session: Session, audit_ids: list[uuid.UUID], settings: Settings, *, bulk: bool = False) -> None:
    """Send each committed audit's chain (``bulk``: behind single audits, the offline ones in
    bundles of ``BUNDLE_SIZE``); on broker failure leave the rest to the sweeper.

    The audit is stored either way (202): with ``enqueued_at`` NULL the sweeper sends it within
    ``UNSENT_AFTER_S + SWEEP_INTERVAL_S`` seconds. Sends never wait for a broker that is down.
    """
    bundle = _bundleable(session, audit_ids, settings) if bulk and settings.bundle_size > 1 else {}
    sent = port.enqueue_audits(
        audit_ids,
        bulk=bulk,
        bundle=bundle,
        bundle_size=settings.bundle_size,
        bundle_chars=settings.bundle_max_chars,
    )
    if sent:
        try:
            leases.mark_sent(session, sent, pending_s=settings.requeue_after_s)
            session.commit()
        except DATABASE_DOWN:  # sent but not recorded: a duplicate send later is harmless (fencing)
            session.rollback()
            log.warning("could not record the enqueue of %d audits", len(sent))


def store_item(session: Session, req: AuditRequest, key: str | None, tenant_id: str) -> tuple[Audit, bool]:
    """:func:`store` for one item of many, in a savepoint and without committing (the caller
    commits every accepted item at once): a row Postgres refuses undoes only this item. Raises
    ``KeyConflict`` and ``DBAPIError`` as :func:`store` does."""
    sha = request_sha256(req)
    with session.begin_nested():
        audit, created = repo.create_audit(session, _new_audit(req, key, sha, tenant_id))
    if not created and audit.request_sha256 != sha:
        raise KeyConflict(
            f"idempotency_key {key!r} was already used for a different request (audit {audit.id})"
        )
    return audit, created


def list_audits(
    session: Session, filters: repo.AuditFilters, *, limit: int, offset: int, tenant_id: str
) -> dict[str, Any]:
    """One page of the tenant's audits, newest first: ``{"items", "total", "limit", "offset"}``
    (``items``: ``api.documents.audit_summary`` of each)."""
    rows, total = repo.list_audits(session, filters=filters, limit=limit, offset=offset, tenant_id=tenant_id)
    return {"items": [audit_summary(a) for a in rows], "total": total, "limit": limit, "offset": offset}


def rehearse_submission(session: Session, settings: Settings) -> str | None:
    """Run once what ``POST /audits`` and a read of its answer run against the database (store
    the audit, record its send, build its document), then roll everything back: the ORM's
    mapper set-up and the first compilation of each statement happen at start-up instead of in
    the first audit's request (docs/PERFORMANCE.md, "Warm start"). Nothing is stored and nothing
    is sent. Returns the rehearsed document's status (``queued``; never stored); raises what the
    database raises."""
    try:
        req = AuditRequest(
            response="The Halvorsen Bridge opened in 1989.",
            references=["The Halvorsen Bridge opened to traffic on 12 May 1998."],
        )
        audit, _ = repo.create_audit(session, _new_audit(req, None, request_sha256(req), DEFAULT_TENANT))
        leases.mark_sent(session, [audit.id], pending_s=settings.requeue_after_s)
        doc = audit_document(session, audit.id, settings, tenant_id=DEFAULT_TENANT)
        return None if doc is None else str(doc.get("status"))
    finally:
        session.rollback()
