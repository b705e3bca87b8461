"""``/admin/keys``: create, list and revoke the API keys of the caller's tenant (scope ``admin``).

An admin key manages its own tenant's keys only: another tenant's key is a 404, and a key made
here has the deployment's default rate limits (only the operator's ``claimaudit keys create``
sets per-key limits or makes keys for other tenants).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, status
from pydantic import BaseModel, ConfigDict, Field, field_validator

from api.auth import AdminCaller
from api.deps import SessionDep
from api.errors import ErrorBody
from api.schemas import Text
from db import auth_repository as keys_repo
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
