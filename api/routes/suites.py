"""``/suites``: define, list and delete suites (schedule, source, sample size, webhook, gate)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response, status

from api.audit_service import admit
from api.auth import WriteCaller
from api.deps import SessionDep, SettingsDep
from api.routes.runs import TenantDep, WriteTenantDep
from api.run_schemas import Name, SuiteIn
from db import suites as suites_repo
from db.run_models import Suite
from service import admission, source_policy
from service.schedule import check_cron, due_slot
from service.settings import Settings

router = APIRouter(prefix="/suites", tags=["suites"])


def suite_document(suite: Suite) -> dict[str, Any]:
    """A suite as JSON; the webhook secret is never shown (``signed`` says whether there is one)."""
    source = None if suite.source_kind is None else {suite.source_kind: suite.source}
    webhook = (
        None if not suite.webhook_url else {"url": suite.webhook_url, "signed": bool(suite.webhook_secret)}
    )
    return {
        "name": suite.name,
        "tenant_id": suite.tenant_id,
        "cron": suite.cron,
        "source": source,
        "sample_size": suite.sample_size,
        "canaries": suite.canaries,
        "config": suite.config,
        "webhook": webhook,
        "gate": suite.gate,
        "enabled": suite.enabled,
        "last_slot_at": None if suite.last_slot_at is None else suite.last_slot_at.isoformat(),
        "created_at": suite.created_at.isoformat(),
        "updated_at": suite.updated_at.isoformat(),
    }


def check_allowed(body: SuiteIn, settings: Settings, *, tenant_id: str, admin: bool) -> None:
    """``SourceRefused`` (a ValueError) when the server's settings refuse the suite's source or
    webhook (``service.source_policy``; checked again when it runs and before each delivery)."""
    if body.source is not None:
        kind, source = body.source.kind_and_value()
        source_policy.check_source(kind, source, settings, tenant_id=tenant_id, admin=admin)
    if body.webhook is not None:
        source_policy.check_webhook_url(body.webhook.url, settings)


def _names(name: str, body: SuiteIn) -> list[admission.Name]:
    """The strings of a suite that its runs store with their audits."""
    names = [admission.Name(("path", "name"), name, admission.NAME_CHARS)]
    if body.source is not None:
        names.append(admission.Name(("body", "source"), body.source.kind_and_value()[1], 100_000))
    return names


def spec_of(name: str, body: SuiteIn, now: datetime) -> suites_repo.SuiteSpec:
    """The repository spec of a validated suite; ValueError on a bad cron or a cron without source."""
    kind, source = body.source.kind_and_value() if body.source is not None else (None, None)
    if body.cron is not None:
        check_cron(body.cron)
        if source is None:
            raise ValueError("cron: a scheduled suite needs a source (jsonl or sql)")
    return suites_repo.SuiteSpec(
        name=name,
        cron=body.cron,
        source_kind=kind,
        source=source,
        sample_size=body.sample_size,
        canaries=body.canaries,
        config={} if body.config is None else body.config.model_dump(exclude_unset=True),
        webhook_url=None if body.webhook is None else body.webhook.url,
        webhook_secret=None if body.webhook is None else body.webhook.secret,
        gate=dict(body.gate or {}),
        enabled=body.enabled,
        initial_slot=None if body.cron is None else due_slot(body.cron, now),
    )


@router.put("/{name}", responses={201: {"description": "Created."}, 422: {"description": "Invalid suite."}})
def put_suite(
    name: Name,
    body: SuiteIn,
    session: SessionDep,
    caller: WriteCaller,
    settings: SettingsDep,
    response: Response,
    request: Request,
) -> dict[str, Any]:
    """Create or replace a suite; a new cron first fires at its next slot (200 replaced, 201 created).

    422 when the server's settings refuse its source or webhook (README, "Suites and their sources"),
    and when the admission path (``service.admission``) refuses its config (a model outside the
    allow-list, an LLM component without an endpoint) or a name it stores.
    """
    tenant = caller.tenant_id
    config = {} if body.config is None else body.config.model_dump(exclude_unset=True)
    admit(caller, request, [], session, settings, names=_names(name, body), config=config)
    try:
        check_allowed(body, settings, tenant_id=tenant, admin="admin" in caller.scopes)
        spec = spec_of(name, body, datetime.now(UTC))
    except ValueError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=str(exc)) from None
    suite, created = suites_repo.upsert_suite(session, spec, tenant_id=tenant)
    session.commit()
    if created:
        response.status_code = status.HTTP_201_CREATED
    return suite_document(suite)


@router.get("")
def list_suites(session: SessionDep, tenant: TenantDep) -> dict[str, Any]:
    """Every suite of the tenant, by name."""
    return {"items": [suite_document(s) for s in suites_repo.list_suites(session, tenant_id=tenant)]}


@router.get("/{name}", responses={404: {"description": "No such suite."}})
def get_suite(name: str, session: SessionDep, tenant: TenantDep) -> dict[str, Any]:
    """One suite."""
    suite = suites_repo.get_suite(session, name, tenant_id=tenant)
    if suite is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"suite {name!r} not found")
    return suite_document(suite)


@router.delete(
    "/{name}", status_code=status.HTTP_204_NO_CONTENT, responses={404: {"description": "No such suite."}}
)
def delete_suite(name: str, session: SessionDep, tenant: WriteTenantDep) -> None:
    """Delete a suite definition (its schedule stops; its runs stay)."""
    if not suites_repo.delete_suite(session, name, tenant_id=tenant):
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"suite {name!r} not found")
    session.commit()
