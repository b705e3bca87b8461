"""SQL logins get a ``statement_timeout`` of 60 s (a role default, ``ALTER ROLE ... SET``).

Without one, an analyst's query over more than it meant (a join of a tenant's whole
``claim_verdicts``, a missing ``WHERE``) runs until someone cancels it, holding one of the
login's 10 connections and a snapshot that keeps vacuum from cleaning behind it. From this
revision ``claimaudit_create_sql_login`` sets the new role's ``statement_timeout`` to
``SQL_LOGIN_STATEMENT_TIMEOUT`` (``60s``): a statement running longer is cancelled with SQLSTATE
``57014`` (``query_canceled``). Every analyst query of the README runs in under 0.25 s (p95) on
a 1M-claim store (``docs/PERFORMANCE.md``, ``make bench-store``), far inside it. The logins made
before this revision (not revoked, role present) get it too.

It is a default, not a ceiling: ``statement_timeout`` is a user setting, so the login's own
session may change it with ``SET`` (a deliberate long query); an operator changes one login's
default with ``ALTER ROLE ca_... SET statement_timeout = '5min'``.

Downgrade: the function of ``0011_analyst_logins`` again, and the logins' default removed.

Revision ID: 0020_sql_login_timeout
Revises: 0019_reference_rollup
Create Date: 2026-12-05 18:00:00
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision: str = "0020_sql_login_timeout"
down_revision: str | None = "0019_reference_rollup"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The role default of every SQL login (a Postgres interval; ``SHOW statement_timeout``: ``1min``).
SQL_LOGIN_STATEMENT_TIMEOUT = "60s"

#: The line of 0011's function after which the new role gets its default.
_AFTER = "'INHERIT CONNECTION LIMIT 10 PASSWORD %L', p_role, p_verifier);"
_SET_TIMEOUT = (
    "\n    EXECUTE format('ALTER ROLE %I SET statement_timeout = %L', p_role, "
    f"'{SQL_LOGIN_STATEMENT_TIMEOUT}');"
)

#: ``{action}``: ``SET statement_timeout = '60s'`` or ``RESET statement_timeout``.
EXISTING_LOGINS = """
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT l.role_name FROM sql_logins l JOIN pg_catalog.pg_roles g ON g.rolname = l.role_name
        WHERE l.revoked_at IS NULL
    LOOP
        EXECUTE format('ALTER ROLE %I {action}', r.role_name);
    END LOOP;
END $$
"""


def _v11() -> ModuleType:
    """``0011_analyst_logins.py`` of this folder, loaded as a module (its function text)."""
    path = Path(__file__).with_name("0011_analyst_logins.py")
    spec = importlib.util.spec_from_file_location(f"_claimaudit_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _create_login(with_timeout: bool) -> str:
    """``CREATE OR REPLACE`` of 0011's ``claimaudit_create_sql_login`` for this schema, with the
    timeout line after the ``CREATE ROLE`` when ``with_timeout``."""
    v11 = _v11()
    schema = str(op.get_bind().execute(sa.text("SELECT current_schema()")).scalar_one())
    body = v11._sql(v11.CREATE_LOGIN, schema)
    assert body.count(_AFTER) == 1 and body.lstrip().startswith("CREATE FUNCTION")
    if with_timeout:
        body = body.replace(_AFTER, _AFTER + _SET_TIMEOUT)
    return body.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)


def upgrade() -> None:
    op.execute(_create_login(with_timeout=True))
    op.execute(EXISTING_LOGINS.format(action=f"SET statement_timeout = ''{SQL_LOGIN_STATEMENT_TIMEOUT}''"))


def downgrade() -> None:
    op.execute(_create_login(with_timeout=False))
    op.execute(EXISTING_LOGINS.format(action="RESET statement_timeout"))
