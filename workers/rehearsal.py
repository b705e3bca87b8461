"""A pool process's rehearsal of the audit stages against its database, run once at start-up.

``claims.runtime.warm_up`` runs the engine once in memory; what it leaves cold is the way
through the database. The first audit of a fresh pool process paid, on top of a later audit's
time, for SQLAlchemy's first compilation of each stage's statements and the ORM's first set-up
of each query, for its Postgres backend's first reads of each table's and index's catalog
entries and plans, for its first pgvector values, and for the process's first broker publish
(measured in docs/PERFORMANCE.md, "Warm start").

:func:`rehearse_stages` runs the warm-up audit through the four stages as a worker runs them:
the lease of each stage (``db.leases``), the stage's own work (``workers.services``), the fenced
finish, then what ``workers.audit_end`` reads after an audit ends. All of it happens in one
transaction that is rolled back: nothing is stored (no audit, claim, cache row or run), and no
notification is delivered (Postgres sends a transaction's ``NOTIFY`` on commit only). The
audit's config is offline (``decomposer = offline``, ``embedder = local``, ``judge = none``), so
that no LLM is called whatever the deployment's defaults.
"""

from __future__ import annotations

import hashlib
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from db import leases
from db import repository as repo
from db import runs as runs_repo
from workers import services

__all__ = ["REHEARSAL_CONFIG", "rehearse_stages", "warm_database"]

log = logging.getLogger(__name__)

#: The rehearsal audit's config: the offline components only (``claims.options``).
REHEARSAL_CONFIG: dict[str, Any] = {"decomposer": "offline", "embedder": "local", "judge": "none"}

#: Each stage and its work, in the order of a chain (``workers.tasks``).
_STAGES: tuple[tuple[str, Callable[[Session, uuid.UUID], Any]], ...] = (
    ("decomposing", services.decompose_audit),
    ("embedding", services.embed_audit),
    ("matching", services.match_audit),
    ("scoring", services.score_audit_stage),
)

#: Lease and pending seconds of the rehearsal (nothing outlives its transaction).
_LEASE_S = 60.0


def rehearse_stages(factory: sessionmaker[Session]) -> str:
    """Run the warm-up audit (``claims.runtime.WARM_RESPONSE`` against ``WARM_REFERENCES``)
    through the four stages in one session of ``factory``, then roll everything back.

    Returns the audit's status before the rollback (``done`` when every stage ran; never
    stored). Raises what a stage raises (a database that does not answer, a stage error); the
    transaction is rolled back either way.
    """
    from claims.runtime import WARM_REFERENCES, WARM_RESPONSE

    session = factory()
    try:
        audit, _ = repo.create_audit(
            session,
            repo.NewAudit(
                response=WARM_RESPONSE,
                references=list(WARM_REFERENCES),
                request_sha256=hashlib.sha256(f"rehearsal {uuid.uuid4()}".encode()).hexdigest(),
                config=dict(REHEARSAL_CONFIG),
            ),
        )
        audit_id = audit.id
        for stage, work in _STAGES:
            start = leases.begin_stage(session, audit_id, stage, lease_s=_LEASE_S)
            if start.token is None:
                raise RuntimeError(f"rehearsal: {stage} did not start ({start.outcome.value})")
            work(session, audit_id)
            if not leases.finish_stage(session, audit_id, stage, start.token, pending_s=_LEASE_S):
                raise RuntimeError(f"rehearsal: {stage} lost its lease")
        # what workers.audit_end reads once an audit ended
        ended = repo.get_audits(session, [audit_id])
        runs_repo.audit_verdict_counts_of(session, [audit_id])
        runs_repo.complete_runs_for_audits(session, [audit_id])
        return str(ended[0].status) if ended else "missing"
    finally:
        session.rollback()
        session.close()


def warm_database(factory: sessionmaker[Session], *, rehearse: bool = True, connections: int = 2) -> float:
    """Open ``connections`` pooled connections at once (a stage's own and its lease heartbeat's),
    then (``rehearse``) :func:`rehearse_stages`; returns the wall seconds. Best effort: a database
    that does not answer, or a rehearsal that fails, is logged (WARNING) and left to the first
    audit."""
    import sqlalchemy

    started = time.perf_counter()
    engine = factory.kw["bind"]
    try:
        held = [engine.connect() for _ in range(connections)]
        try:
            for conn in held:
                conn.execute(sqlalchemy.text("SELECT 1"))
        finally:
            for conn in held:
                conn.close()
        if rehearse:
            rehearse_stages(factory)
    except Exception as exc:  # the stage that needs it reconnects and reports
        log.warning("database warm-up failed at worker start (%s: %s)", type(exc).__name__, exc)
    return time.perf_counter() - started
