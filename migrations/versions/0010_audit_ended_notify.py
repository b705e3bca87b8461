"""Notify when an audit ends: ``NOTIFY claimaudit_audit_ended, '<audit id>'`` from a trigger.

When an UPDATE of ``audits`` sets ``status`` to ``done`` or ``failed`` from another status, the
trigger ``audits_ended_notify`` sends the audit's id on channel ``claimaudit_audit_ended``
(delivered at commit, dropped on rollback). The API's long poll (``GET /audits/{id}?wait=S``,
``db.audit_events``) listens on it, so a waiting client hears of the end at once instead of
polling.

Revision ID: 0010_audit_ended_notify
Revises: 0009_runs_row_security
Create Date: 2026-12-02 16:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0010_audit_ended_notify"
down_revision: str | None = "0009_runs_row_security"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Must match ``db.audit_events.AUDIT_ENDED_CHANNEL``.
CHANNEL = "claimaudit_audit_ended"


def upgrade() -> None:
    op.execute(
        f"""
        CREATE FUNCTION claimaudit_notify_audit_ended() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('{CHANNEL}', NEW.id::text);
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER audits_ended_notify
        AFTER UPDATE OF status ON audits
        FOR EACH ROW
        WHEN (NEW.status IN ('done', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
        EXECUTE FUNCTION claimaudit_notify_audit_ended()
        """
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS audits_ended_notify ON audits")
    op.execute("DROP FUNCTION IF EXISTS claimaudit_notify_audit_ended()")
