"""``/admin/keys`` and ``/admin/sql-logins``: the API keys and the read-only SQL logins of the
caller's tenant (scope ``admin``).

An admin key manages its own tenant's keys and logins only: another tenant's is a 404, and a
key made here has the deployment's default rate limits (only the operator's ``claimaudit keys
create`` sets per-key limits or makes keys for other tenants). A SQL login (``db.sql_logins``)
is a Postgres role bound to the caller's tenant by row-level security; its URL names the API's
own database server.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, status
from pydantic import BaseModel, ConfigDict, Field, field_validator

from api.auth import AdminCaller
from api.deps import SessionDep, SettingsDep
from api.errors import ErrorBody
from api.schemas import Text
from db import auth_repository as keys_repo
from db import sql_logins
from db.auth_models import ApiKeyRow

router = APIRouter(prefix="/admin", tags=["admin"])

Scope = Literal["audits:write", "audits:read", "admin"]


class KeyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scopes: list[Scope] = Field(min_length=1, description="Scopes of the new key.")
    name: Text = Field("", max_length=200, description="A label for people (who uses the key).")
    expires_at: datetime | None = Field(None, description="Expiry (ISO 8601 with time zone); none: never.")

    @field_validator("expires_at")
    @classmethod
    def _future(cls, value: datetime | None) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("must have a time zone (e.g. 2027-01-01T00:00:00Z)")
        if value <= datetime.now(UTC):
            raise ValueError("must be in the future")
        return value


class KeyInfo(BaseModel):
    id: uuid.UUID
    tenant_id: str
    name: str
    prefix: str
    scopes: list[str]
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None


class KeyCreated(KeyInfo):
    key: str = Field(description="The key itself: shown this once, only its SHA-256 is stored.")


class KeyList(BaseModel):
    items: list[KeyInfo]


def key_info(row: ApiKeyRow) -> dict[str, Any]:
    """The public fields of a key row (never its hash)."""
    return {name: getattr(row, name) for name in KeyInfo.model_fields}


@router.post("/keys", status_code=status.HTTP_201_CREATED, response_model=KeyCreated)
def create_key(body: KeyRequest, caller: AdminCaller, session: SessionDep) -> dict[str, Any]:
    """Create an API key of your tenant; the key is in this response only."""
    row, key = keys_repo.create_api_key(
        session, tenant_id=caller.tenant_id, scopes=body.scopes, name=body.name, expires_at=body.expires_at
    )
    session.commit()
    return {**key_info(row), "key": key}


@router.get("/keys", response_model=KeyList)
def list_keys(caller: AdminCaller, session: SessionDep) -> dict[str, Any]:
    """The API keys of your tenant (prefix, scopes, expiry, revocation, last use; never the key)."""
    return {"items": [key_info(r) for r in keys_repo.list_api_keys(session, tenant_id=caller.tenant_id)]}


@router.delete(
    "/keys/{key_id}",
    response_model=KeyInfo,
    responses={404: {"model": ErrorBody, "description": "No such key."}},
)
def revoke_key(key_id: uuid.UUID, caller: AdminCaller, session: SessionDep) -> dict[str, Any]:
    """Revoke an API key of your tenant (idempotent); it gets 401 from now on."""
    row = keys_repo.revoke_api_key(session, key_id, tenant_id=caller.tenant_id)
    if row is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"API key {key_id} not found")
    session.commit()
    return key_info(row)


# --------------------------------------------------------------------------- SQL logins


class SqlLoginRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Text = Field(
        "",
        max_length=200,
        description="A label (who uses the login); its letters and digits name the role, "
        "ca_<tenant>_<name> (6 random hex digits when it has none).",
    )


class SqlLoginInfo(BaseModel):
    role: str = Field(description="The Postgres role (the URL's user name).")
    tenant_id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None


class SqlLoginCreated(SqlLoginInfo):
    password: str = Field(description="Shown this once; the server keeps a SCRAM-SHA-256 verifier.")
    url: str = Field(
        description="postgresql://role:password@host:port/database, on the API's database server."
    )


class SqlLoginList(BaseModel):
    items: list[SqlLoginInfo]


_LOGIN_STATUS = {
    "exists": status.HTTP_409_CONFLICT,
    "invalid": status.HTTP_422_UNPROCESSABLE_CONTENT,
}


def _login_failed(exc: sql_logins.SqlLoginError) -> HTTPException:
    code = _LOGIN_STATUS.get(exc.kind, status.HTTP_503_SERVICE_UNAVAILABLE)
    detail = (
        str(exc)
        if code != status.HTTP_503_SERVICE_UNAVAILABLE
        else f"this deployment cannot make SQL logins: {exc}"
    )
    return HTTPException(code, detail=detail)


@router.post(
    "/sql-logins",
    status_code=status.HTTP_201_CREATED,
    response_model=SqlLoginCreated,
    responses={
        409: {"model": ErrorBody, "description": "A login of that name exists."},
        503: {"model": ErrorBody, "description": "The database role cannot create roles."},
    },
)
def create_sql_login(
    body: SqlLoginRequest, caller: AdminCaller, session: SessionDep, settings: SettingsDep
) -> dict[str, Any]:
    """Make a read-only Postgres login bound to your tenant (README, "The claim store in SQL");
    its password and URL are in this response only."""
    try:
        login, password = sql_logins.create_sql_login(session, tenant_id=caller.tenant_id, name=body.name)
    except sql_logins.SqlLoginError as exc:
        raise _login_failed(exc) from None
    session.commit()
    url = sql_logins.login_url(settings.database_url, login.role, password)
    return {**asdict(login), "password": password, "url": url}


@router.get("/sql-logins", response_model=SqlLoginList)
def list_sql_logins(caller: AdminCaller, session: SessionDep) -> dict[str, Any]:
    """Your tenant's SQL logins, revoked ones too (never a password)."""
    return {"items": [asdict(x) for x in sql_logins.list_sql_logins(session, tenant_id=caller.tenant_id)]}


@router.delete(
    "/sql-logins/{role}",
    response_model=SqlLoginInfo,
    responses={404: {"model": ErrorBody, "description": "No active login of that role in your tenant."}},
)
def revoke_sql_login(role: str, caller: AdminCaller, session: SessionDep) -> dict[str, Any]:
    """Revoke an SQL login of your tenant: its sessions end and its role is dropped."""
    try:
        login = sql_logins.revoke_sql_login(session, role, tenant_id=caller.tenant_id)
    except sql_logins.SqlLoginError as exc:
        raise _login_failed(exc) from None
    if login is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"SQL login {role} not found")
    session.commit()
    return asdict(login)
