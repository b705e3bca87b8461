"""SQL of retention: delete finished audits older than a cutoff, in small batches. Never commits.

Each batch deletes at most ``limit`` audits chosen with ``FOR UPDATE SKIP LOCKED`` (a running
stage's row is never waited for), and their documents, claims, verdicts, evidence and scores go
by ``ON DELETE CASCADE``; ``run_items.audit_id`` becomes NULL and the runs keep their frozen
summaries. Small batches, each in its own transaction, keep the row locks on the claim tables short.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from db.models import TERMINAL_STATUSES, Audit

__all__ = ["delete_old_audits"]


def delete_old_audits(session: Session, *, older_than_days: float, limit: int = 500) -> int:
    """Delete up to ``limit`` finished audits created more than ``older_than_days`` days ago; the count.

    Every tenant's audits (there is no per-tenant filter).
    Call repeatedly, one transaction each, until it returns less than ``limit``.
    """
    if older_than_days <= 0 or limit <= 0:
        raise ValueError(f"older_than_days and limit must be > 0, got {older_than_days}, {limit}")
    victims = (
        select(Audit.id)
        .where(
            Audit.created_at < func.now() - timedelta(days=older_than_days),
            Audit.status.in_(TERMINAL_STATUSES),
        )
        .order_by(Audit.created_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    result = session.execute(delete(Audit).where(Audit.id.in_(victims.scalar_subquery())).returning(Audit.id))
    return len(result.all())
