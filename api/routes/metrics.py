"""``/metrics``: Prometheus text format (``service.metrics``).

Needs ``admin``. A key that also holds ``operator`` (granted only by ``claimaudit keys create``,
never by a tenant's ``POST /admin/keys``) reads the deployment: the processes' counters and
histograms, plus the gauges of the present read at scrape time: audits of every tenant by status,
the broker's queue depth per queue and priority, the age of the oldest unfinished audit, the
workers that answer a ping (``api.routes.health.count_workers``, cached a few seconds), LLM
formats. Any other admin key reads its own tenant's figures alone
(``service.metrics.scrape_tenant``)."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST

from api.auth import AdminCaller
from api.deps import SessionDep, SettingsDep
from api.routes.health import count_workers
from db import auth_repository as keys_repo
from db import backlog, llm_repository
from db import repository as repo
from db import runs as runs_repo
from db.tenancy import deployment_session
from service.metrics import Present, broker_depths, scrape, scrape_tenant
from service.settings import Settings

router = APIRouter(tags=["health"])


def queue_depths(settings: Settings) -> dict[tuple[str, int], int]:
    """``{(queue, priority): messages}`` of the audit and search queues (``broker_depths``);
    empty when Redis does not answer (the scrape still succeeds)."""
    import redis

    try:
        client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return broker_depths(client, (settings.celery_queue, settings.search_queue_name))
        finally:
            client.close()
    except redis.RedisError:
        return {}


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}})
def metrics(caller: AdminCaller, session: SessionDep, settings: SettingsDep) -> Response:
    """Prometheus metrics (needs ``admin``): the whole deployment's with ``operator`` (audits by
    status, the backlog: queue depth and oldest audit, workers, stage and end-to-end latency, HTTP
    requests, admission refusals, verdicts, LLM, runs, webhooks), else the caller's tenant's own
    (its audits by status, verdict mix, LLM tokens today)."""
    if "operator" not in caller.scopes:
        tenant = caller.tenant_id
        body = scrape_tenant(
            tenant,
            repo.audits_by_status(session, tenant),
            runs_repo.tenant_verdict_counts(session, tenant),
            keys_repo.tokens_today(session, tenant),
        )
        return Response(content=body, media_type=CONTENT_TYPE_LATEST)

    # deployment-wide: not the admin's tenant's rows only (the request's session is bound to it)
    with deployment_session(session) as everyone:

        def present() -> Present:
            depths = queue_depths(settings)
            return Present(
                audits=repo.audits_by_status(everyone),
                depths=depths,
                oldest_age_s=backlog.measure(everyone).oldest_age_s or 0.0,
                workers=count_workers(settings.celery_queue) if depths else 0,
            )

        body = scrape(
            present,
            multiproc_dir=settings.prometheus_multiproc_dir,
            formats=lambda: llm_repository.response_formats(everyone),
        )
    return Response(content=body, media_type=CONTENT_TYPE_LATEST)
