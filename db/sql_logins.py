"""Tenant-bound, read-only SQL logins for analysts (migration ``0011_analyst_logins``).

A login is a Postgres role ``ca_<tenant>_<name>`` with ``LOGIN``, a generated password and
membership in ``claimaudit_analyst`` (``SELECT`` on the analyst tables and views, nothing else),
bound to one tenant by a row of ``sql_logins``. The row-level security policies read that
binding through ``current_user`` (``db.tenancy``), so nothing the login's session can set widens
what it sees. Only the table's owner writes ``sql_logins``, through the ``SECURITY DEFINER``
functions this module calls (``claimaudit_create_sql_login`` / ``claimaudit_revoke_sql_login``,
executable by ``claimaudit_service`` only), so the migrations' role must be able to create roles
(a superuser, or ``CREATEROLE`` with admin of ``claimaudit_analyst``).

The password is 24 random bytes (``secrets.token_urlsafe``), shown once; it reaches the server
only as a SCRAM-SHA-256 verifier computed here by libpq (``PQencryptPasswordConn``), so it never
appears in a statement or a server log. Its statements stop after 60 s: the role's default
``statement_timeout`` (migration ``0020_sql_login_timeout``), which its own session may ``SET``.
Revoking drops the role (its sessions are ended), or leaves it ``NOLOGIN`` without privileges
when it cannot be dropped.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

import db.auth_models  # noqa: F401  (registers ``tenants`` for the foreign key)
from db.analyst_models import SqlLoginRow

__all__ = [
    "tenant_exists",
    "SqlLogin",
    "SqlLoginError",
    "login_role",
    "create_sql_login",
    "list_sql_logins",
    "revoke_sql_login",
    "login_url",
]

_CREATE = text("SELECT claimaudit_create_sql_login(:tenant, :role, :verifier, :name)")
_REVOKE = text("SELECT claimaudit_revoke_sql_login(:role, :tenant)")
#: SQLSTATE -> kind of :class:`SqlLoginError`.
_KINDS = {
    "42710": "exists",  # duplicate_object: the role exists
    "23505": "exists",  # unique_violation: a login of that name is active
    "42602": "invalid",  # invalid_name
    "23514": "invalid",  # check_violation: not a tenant id
    "42501": "forbidden",  # insufficient_privilege: another tenant, or no CREATEROLE
    "42883": "unsupported",  # undefined_function: the database is not migrated
}


class SqlLoginError(ValueError):
    """A login could not be made or revoked; ``kind``: exists, invalid, forbidden, unsupported."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class SqlLogin:
    """A login: its role, tenant, label, creation and revocation (None while active)."""

    role: str
    tenant_id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None


def _slug(value: str, limit: int) -> str:
    return re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")[:limit].strip("_")


def login_role(tenant_id: str, name: str = "") -> str:
    """``ca_<tenant>_<name>``: both lower-cased, other characters ``_``, the tenant cut to 30 and
    the name to 24 characters; 6 random hex digits when ``name`` has none of a-z, 0-9."""
    suffix = _slug(name, 24) or secrets.token_hex(3)
    return f"ca_{_slug(tenant_id, 30) or 't'}_{suffix}"


def _verifier(session: Session, role: str, password: str) -> str:
    """The SCRAM-SHA-256 verifier of ``password`` (libpq's ``PQencryptPasswordConn``)."""
    raw: Any = session.connection().connection.driver_connection
    verifier: bytes = raw.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256")
    return verifier.decode("ascii")


def _error(exc: DBAPIError, role: str) -> SqlLoginError:
    state = getattr(exc.orig, "sqlstate", None) or ""
    kind = _KINDS.get(state, "failed")
    if kind == "exists":
        return SqlLoginError(f"a login or role {role} exists already: revoke it or pick another name", kind)
    diag = getattr(getattr(exc.orig, "diag", None), "message_primary", None)
    if state == "23514":
        return SqlLoginError(
            "not a tenant id: 1 to 63 letters, digits, '_', '.' or '-', starting with a letter or digit", kind
        )
    return SqlLoginError(diag or str(exc.orig).splitlines()[0], kind)


def _login(row: SqlLoginRow) -> SqlLogin:
    return SqlLogin(row.role_name, row.tenant_id, row.name, row.created_at, row.revoked_at)


def tenant_exists(session: Session, tenant_id: str) -> bool:
    """Whether the deployment knows ``tenant_id``: a ``tenants`` row (keys, logins) or audits."""
    found = session.execute(
        text(
            "SELECT 1 FROM tenants WHERE id = :id"
            " UNION ALL (SELECT 1 FROM audits WHERE tenant_id = :id LIMIT 1)"
        ),
        {"id": tenant_id},
    ).first()
    return found is not None


def create_sql_login(session: Session, *, tenant_id: str, name: str = "") -> tuple[SqlLogin, str]:
    """Make a login bound to ``tenant_id`` (a ``tenants`` row is added when missing); return
    ``(login, password)``. The password is in this return value only.

    The caller commits; the role itself exists from then on. A session bound to a tenant
    (``db.tenancy.bind_tenant``) can make logins of that tenant only. Raises
    :class:`SqlLoginError`: a login of that name exists, a name or tenant id that is not valid,
    another tenant or a migrations role without ``CREATEROLE`` (forbidden).
    """
    role = login_role(tenant_id, name)
    password = secrets.token_urlsafe(24)
    try:
        with session.begin_nested():
            params = {"tenant": tenant_id, "role": role, "verifier": _verifier(session, role, password)}
            session.execute(_CREATE, {**params, "name": name})
    except DBAPIError as exc:
        raise _error(exc, role) from None
    row = session.scalars(
        select(SqlLoginRow).where(SqlLoginRow.role_name == role, SqlLoginRow.revoked_at.is_(None))
    ).one()
    return _login(row), password


def list_sql_logins(session: Session, *, tenant_id: str | None = None) -> list[SqlLogin]:
    """Every login (revoked ones too), oldest first; of ``tenant_id`` only when given."""
    stmt = select(SqlLoginRow).order_by(SqlLoginRow.created_at, SqlLoginRow.id)
    if tenant_id is not None:
        stmt = stmt.where(SqlLoginRow.tenant_id == tenant_id)
    return [_login(row) for row in session.scalars(stmt)]


def revoke_sql_login(session: Session, role: str, *, tenant_id: str | None = None) -> SqlLogin | None:
    """Revoke the active login ``role`` (of ``tenant_id`` when given); None when there is none.

    Its row gets ``revoked_at``, its sessions are ended and its role dropped (or left ``NOLOGIN``
    without privileges). The caller commits. Raises :class:`SqlLoginError` as
    :func:`create_sql_login`.
    """
    try:
        with session.begin_nested():
            owner = session.execute(_REVOKE, {"role": role, "tenant": tenant_id}).scalar_one()
    except DBAPIError as exc:
        raise _error(exc, role) from None
    if owner is None:
        return None
    row = session.scalars(
        select(SqlLoginRow)
        .where(SqlLoginRow.role_name == role, SqlLoginRow.revoked_at.is_not(None))
        .order_by(SqlLoginRow.revoked_at.desc())
        .limit(1)
    ).one()
    return _login(row)


def login_url(database_url: str, role: str, password: str) -> str:
    """``postgresql://role:password@host:port/database`` on the server of ``database_url``."""
    url = make_url(database_url).set(drivername="postgresql", username=role, password=password)
    return url.render_as_string(hide_password=False)
