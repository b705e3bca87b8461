"""``/metrics``: Prometheus text format (``workers.metrics``).

Needs ``admin``. A key that also holds ``operator`` (granted only by ``claimaudit keys create``,
never by a tenant's ``POST /admin/keys``) reads the deployment: worker counters and histograms,
audits of every tenant by status, queue depth, LLM formats. Any other admin key reads its own
tenant's figures alone (``workers.metrics.scrape_tenant``)."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST

from api.auth import AdminCaller
from api.deps import SessionDep, SettingsDep
from db import auth_repository as keys_repo
from db import llm_repository
from db import repository as repo
from db import runs as runs_repo
from workers.metrics import scrape, scrape_tenant

router = APIRouter(tags=["health"])


def _queue_depth(redis_url: str, queue: str) -> dict[str, int]:
    """``{queue: LLEN}``; empty when Redis does not answer (the scrape still succeeds)."""
    import redis

    try:
        client = redis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return {queue: int(client.llen(queue))}
        finally:
            client.close()
    except redis.RedisError:
        return {}


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}})
def metrics(caller: AdminCaller, session: SessionDep, settings: SettingsDep) -> Response:
    """Prometheus metrics (needs ``admin``): the whole deployment's with ``operator`` (audits by
    status, stage durations, verdicts, queue depth, LLM, runs, webhooks), else the caller's
    tenant's own (its audits by status, verdict mix, LLM tokens today)."""
    if "operator" not in caller.scopes:
        tenant = caller.tenant_id
        body = scrape_tenant(
            tenant,
            repo.audits_by_status(session, tenant),
            runs_repo.tenant_verdict_counts(session, tenant),
            keys_repo.tokens_today(session, tenant),
        )
        return Response(content=body, media_type=CONTENT_TYPE_LATEST)

    def snapshot() -> tuple[Mapping[str, int], Mapping[str, int]]:
        return repo.audits_by_status(session), _queue_depth(settings.redis_url, settings.celery_queue)

    body = scrape(
        snapshot,
        multiproc_dir=settings.prometheus_multiproc_dir,
        formats=lambda: llm_repository.response_formats(session),
    )
    return Response(content=body, media_type=CONTENT_TYPE_LATEST)
