"""Analyst logins neither hear nor fake the audit-end notifications, and create no tables.

Any role may ``LISTEN`` or ``NOTIFY`` on any channel: Postgres grants no privilege on channel
names. On the fixed channel ``claimaudit_audit_ended`` an analyst's SQL login heard every
tenant's audit ids as they ended, and could send false ones to the API's long poll. From this
revision the trigger notifies on a channel whose name holds a random part
(``claimaudit_audit_ended_<32 hex>``), kept in ``claimaudit_channels``, a table only the
deployment's roles read (forced row-level security, policy ``service_only`` of
``0011_analyst_logins``); the API reads the name there before it listens (``db.audit_events``).

A database grants ``TEMPORARY`` to ``PUBLIC`` by default, so a login could create temporary
tables although it may create nothing: ``TEMPORARY`` is revoked from ``PUBLIC`` and granted to
``claimaudit_service``.

Revision ID: 0018_private_channels
Revises: 0017_reference_cache
Create Date: 2026-12-05 13:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0018_private_channels"
down_revision: str | None = "0017_reference_cache"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SERVICE_ROLE = "claimaudit_service"
#: Must match ``db.audit_events.CHANNEL_KEY``.
CHANNEL_KEY = "audit_ended"

NOTIFY_FUNCTION = f"""
CREATE OR REPLACE FUNCTION claimaudit_notify_audit_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    name text;
BEGIN
    SELECT channel INTO name FROM claimaudit_channels WHERE key = '{CHANNEL_KEY}';
    PERFORM pg_notify(coalesce(name, 'claimaudit_audit_ended'), NEW.id::text);
    RETURN NULL;
END
$$
"""
OLD_NOTIFY_FUNCTION = """
CREATE OR REPLACE FUNCTION claimaudit_notify_audit_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('claimaudit_audit_ended', NEW.id::text);
    RETURN NULL;
END
$$
"""
TEMPORARY = """
DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO {role}', current_database());
END
$$
"""


def upgrade() -> None:
    op.execute(
        "CREATE TABLE claimaudit_channels (key text NOT NULL, channel text NOT NULL, "
        "CONSTRAINT pk_claimaudit_channels PRIMARY KEY (key))"
    )
    op.execute(
        "INSERT INTO claimaudit_channels (key, channel) VALUES "
        f"('{CHANNEL_KEY}', 'claimaudit_audit_ended_' || replace(gen_random_uuid()::text, '-', ''))"
    )
    op.execute("ALTER TABLE claimaudit_channels ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE claimaudit_channels FORCE ROW LEVEL SECURITY")
    op.execute(
        "CREATE POLICY service_only ON claimaudit_channels "
        "USING ((SELECT claimaudit_is_service())) WITH CHECK ((SELECT claimaudit_is_service()))"
    )
    op.execute(NOTIFY_FUNCTION)
    op.execute(TEMPORARY.replace("{role}", SERVICE_ROLE))


def downgrade() -> None:
    op.execute(
        "DO $$ BEGIN EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', current_database()); END $$"
    )
    op.execute(OLD_NOTIFY_FUNCTION)
    op.execute("DROP TABLE claimaudit_channels")
