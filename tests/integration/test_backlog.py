"""Backlog bounds and the metrics of a backlog, on a private stack: a database of this module's
own (migrated), the session's Redis queue, the API in process and no worker consuming.

With ``MAX_QUEUED_AUDITS=50`` and ``MAX_QUEUED_AUDITS_PER_TENANT=40`` (the ``private`` fixture of
``tests/integration/conftest.py``), 200 audits
submitted by two tenants at once: the bounds refuse the rest with 503/429 and ``Retry-After``,
nothing refused is stored, and ``/metrics`` shows the real backlog (one Celery message per
accepted audit in Redis, at its stage's priority list) and the age of the oldest audit; once a
worker starts, every accepted audit ends done.
"""

from __future__ import annotations

import os
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select, text

from db.models import Audit
from tests.conftest import wait_for_status
from tests.integration.conftest import MAX_PER_TENANT, MAX_QUEUED

pytestmark = pytest.mark.services

VALID: dict[str, Any] = {
    "response": "Water boils at 90 °C.",
    "references": ["Water boils at 100 °C at sea level."],
}


def _client(settings: Any, key: str) -> Any:
    from fastapi.testclient import TestClient

    from api.main import create_app

    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {key}"})


def _stored(factory: Any, tenant: str | None = None) -> set[str]:
    with factory() as s:
        stmt = select(Audit.id)
        if tenant is not None:
            stmt = stmt.where(Audit.tenant_id == tenant)
        return {str(i) for i in s.scalars(stmt)}


def _samples(client: Any, admin_key: str) -> dict[str, list[Any]]:
    body = client.get("/metrics", headers={"Authorization": f"Bearer {admin_key}"}).text
    out: dict[str, list[Any]] = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            out.setdefault(sample.name, []).append(sample)
    return out


def _age_and_finish(factory: Any, *, age_s: float, finished: int) -> None:
    """Every audit created ``age_s`` seconds ago; ``finished`` of them done now."""
    with factory() as s:
        s.execute(text("UPDATE audits SET created_at = now() - make_interval(secs => :a)"), {"a": age_s})
        s.execute(
            text(
                "UPDATE audits SET status = 'done', finished_at = now() "
                "WHERE id IN (SELECT id FROM audits WHERE status = 'queued' LIMIT :n)"
            ),
            {"n": finished},
        )
        s.commit()


def _clear(factory: Any) -> None:
    with factory() as s:
        s.execute(text("DELETE FROM audits"))
        s.commit()


def test_200_audits_at_once_are_bounded_and_nothing_refused_is_stored(
    private: dict[str, Any], redis_url: str, start_worker: Any
) -> None:
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    queue = os.environ["CELERY_QUEUE"]
    with _client(settings, keys["flood"]) as flood, _client(settings, keys["other"]) as other:
        # the flooding tenant sends 150, the other 50, all at once (8 at a time)
        calls = [flood] * 150 + [other] * 50
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda c: c.post("/audits", json=VALID), calls))
        codes = [r.status_code for r in answers]
        accepted = {r.json()["id"] for r in answers if r.status_code == 202}
        refused = [r for r in answers if r.status_code != 202]
        assert set(codes) <= {202, 429, 503}, sorted(set(codes))
        assert refused and {429, 503} & set(codes)
        for r in refused:
            assert int(r.headers["Retry-After"]) >= 1, r.headers
            assert r.json()["detail"][0]["type"] in ("backlog", "tenant_backlog")
        # admission is serialised (service.backlog): the 8 requests in flight never pass a bound
        # together. The flood's 150 come first and fill its quota, the other tenant's 50 the rest
        assert len(_stored(factory, "flood")) == MAX_PER_TENANT
        assert len(accepted) == MAX_QUEUED
        # nothing refused is stored: the stored audits are exactly the accepted ones
        assert _stored(factory) == accepted

        # the metrics of this backlog: one message per accepted audit, counted at every priority
        samples = _samples(flood, keys["flood"])
        depth = sum(s.value for s in samples["claimaudit_queue_depth"] if s.labels["queue"] == queue)
        assert depth == len(accepted)
        assert {s.labels["priority"] for s in samples["claimaudit_queue_depth"]} == {
            str(p) for p in range(10)
        }
        age = samples["claimaudit_oldest_queued_audit_age_seconds"][0].value
        assert age > 0
        refusals = {s.labels["reason"]: s.value for s in samples["claimaudit_admission_refusals_total"]}
        assert refusals["backlog"] + refusals["tenant_backlog"] >= len(refused)
        routes = {
            (s.labels["method"], s.labels["route"], s.labels["status"]): s.value
            for s in samples["claimaudit_http_requests_total"]
        }
        assert routes[("POST", "/audits", "202")] >= len(accepted)
        # templates, not raw paths: no audit id in a route label (metrics then GET /audits/{audit_id})
        flood.get(f"/audits/{next(iter(accepted))}")
        labels = {s.labels["route"] for s in _samples(flood, keys["flood"])["claimaudit_http_requests_total"]}
        assert "/audits/{audit_id}" in labels
        assert not any(re.search(r"[0-9a-f]{8}-[0-9a-f]{4}", label) for label in labels), labels

    # a worker starts: every accepted audit ends done, and nothing else appears
    worker = start_worker({"DATABASE_URL": settings.database_url}, concurrency=2)
    try:
        for audit_id in accepted:
            assert wait_for_status(factory, uuid.UUID(audit_id), {"done", "failed"}, timeout=600) == "done"
    finally:
        worker.stop()
    assert _stored(factory) == accepted


def test_concurrent_singles_and_batches_never_pass_the_bounds(
    private: dict[str, Any], redis_url: str
) -> None:
    """16 requests at a time, single audits and batches of 3 from both tenants: the count of the
    backlog and the insert of a request are one step, so no two requests pass a bound on the same
    count, and a batch is admitted only when all of it fits (queued + its audits <= the bound)."""
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    with _client(settings, keys["flood"]) as flood, _client(settings, keys["other"]) as other:
        calls = [(flood, "/audits", VALID), (flood, "/audits/batch", {"audits": [VALID] * 3})] * 30
        calls += [(other, "/audits", VALID), (other, "/audits/batch", {"audits": [VALID] * 3})] * 10
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda c: c[0].post(c[1], json=c[2]), calls))
        codes = {r.status_code for r in answers}
        assert codes <= {202, 429, 503} and {429, 503} & codes, sorted(codes)
        accepted = set()
        for r in answers:
            if r.status_code == 202:
                body = r.json()
                accepted |= {a["id"] for a in body["audits"]} if "audits" in body else {body["id"]}
            else:
                assert int(r.headers["Retry-After"]) >= 1
        # the bounds of the private stack (tests/integration/conftest.py): 50 in all, 40 a tenant
        assert len(_stored(factory)) <= MAX_QUEUED
        assert len(_stored(factory, "flood")) <= MAX_PER_TENANT
        assert _stored(factory) == accepted


def test_batch_and_runs_are_refused_whole_when_the_backlog_is_full(
    private: dict[str, Any], redis_url: str
) -> None:
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    with _client(settings, keys["other"]) as other:
        # a batch larger than the bound passes while the queue is short (admission is by the
        # backlog before the request), then the deployment is full
        first = other.post("/audits/batch", json={"audits": [VALID] * 60})
        assert first.status_code == 202
        before = _stored(factory)
        assert len(before) == 60
        batch = other.post("/audits/batch", json={"audits": [VALID] * 3})
        assert batch.status_code == 503
        assert "MAX_QUEUED_AUDITS" in batch.json()["detail"][0]["msg"]
        run = other.post("/runs", json={"suite": "s", "items": [{"id": "a", **VALID}]})
        assert run.status_code == 503, run.text
        single = other.post("/audits", json=VALID)
        assert single.status_code == 503
        assert _stored(factory) == before
        with factory() as s:
            assert s.scalar(text("SELECT count(*) FROM runs")) == 0


def test_retry_after_follows_the_measured_drain_rate(private: dict[str, Any], redis_url: str) -> None:
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    with _client(settings, keys["other"]) as other:
        assert other.post("/audits/batch", json={"audits": [VALID] * (MAX_QUEUED + 30)}).status_code == 202
        # nothing finished yet in a backlog 4.2 s old (and the test's own milliseconds): no rate,
        # a probe as long as the backlog is old, rounded up (service.backlog.retry_after), and
        # the refusal says so
        _age_and_finish(factory, age_s=4.2, finished=0)
        probe = other.post("/audits", json=VALID)
        assert probe.headers["Retry-After"] == "5"
        assert "no audit has finished yet in this backlog, 4 s old" in probe.json()["detail"][0]["msg"]
        # past a minute's age the probe is capped (RETRY_AFTER_NEW_BACKLOG_S = 10)
        _age_and_finish(factory, age_s=30, finished=0)
        assert other.post("/audits", json=VALID).headers["Retry-After"] == "10"
        # nothing finished for a whole window (the oldest 90 s old): no worker drains, the fixed
        # wait (service.backlog.RETRY_AFTER_NO_DRAIN_S = 60)
        _age_and_finish(factory, age_s=90, finished=0)
        assert other.post("/audits", json=VALID).headers["Retry-After"] == "60"
        # created 90 s ago, 30 of them finish now (as a worker leaves them): the drain window is
        # the oldest age within [10, 60] s = 60 s, 30 / 60 s = 0.5 audits/s; 50 remain, the
        # excess over the bound is 50 - 50 + 1 = 1 audit → ceil(1 / 0.5) = 2 s
        _age_and_finish(factory, age_s=90, finished=30)
        assert other.post("/audits", json=VALID).headers["Retry-After"] == "2"


def test_retry_after_at_the_start_of_a_backlog_uses_its_own_seconds(
    private: dict[str, Any], redis_url: str
) -> None:
    """A backlog 3 s old whose workers finished 15 audits drains at 5 audits/s: measured over a
    window longer than the backlog (10 s, most of it before the backlog began), the rate read
    1.5/s and the wait 11 s, 3.3 times the 4 s the excess takes."""
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    with _client(settings, keys["other"]) as other:
        assert other.post("/audits/batch", json={"audits": [VALID] * (MAX_QUEUED + 30)}).status_code == 202
        # 80 created 3 s ago, 15 finish now: the window is the backlog's age (3 s and the test's
        # milliseconds), 15 / 3 s = 5 audits/s; 65 remain, the excess is 65 + 1 - 50 = 16 audits
        # → ceil(16 / 5) = 4 s (5 only if the test took over 0.75 s between the two statements)
        _age_and_finish(factory, age_s=3, finished=15)
        refused = other.post("/audits", json=VALID)
        assert refused.status_code == 503, refused.text
        assert refused.headers["Retry-After"] == "4"
        msg = refused.json()["detail"][0]["msg"]
        # the rate is 15 / (3 s + the test's milliseconds): 4.9 or so
        basis = (
            r"retry after 4 s \(16 audits over the bound at (4\.\d\d|5\.00) finished per second "
            r"over the last 3 s\)"
        )
        assert re.search(basis, msg), msg


def test_the_age_bound_refuses_what_would_wait_longer_than_it(
    private: dict[str, Any], redis_url: str
) -> None:
    """By the oldest age alone, a queue filled within one bound would take longer than the bound
    to drain; the expected wait (queued / drain rate) refuses before the oldest audit is old."""
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    by_age = settings.model_copy(
        update={"max_backlog_age_s": 60, "max_queued_audits": 0, "max_queued_audits_per_tenant": 0}
    )
    with _client(by_age, keys["other"]) as other:
        assert other.post("/audits/batch", json={"audits": [VALID] * 70}).status_code == 202
        # nothing finished yet: no rate to predict with, and the oldest is seconds old
        assert other.post("/audits", json=VALID).status_code == 202
        # created 48 s ago (under the bound), 30 finish now: 30 over a 48 s window = 0.625
        # audits/s; 41 remain, a new one would wait 41 / 0.625 = 66 s > 60 (the window grows by
        # the test's own milliseconds: 0.624 audits/s, the same figures)
        _age_and_finish(factory, age_s=48, finished=30)
        refused = other.post("/audits", json=VALID)
        assert refused.status_code == 503, refused.text
        assert refused.json()["detail"][0]["type"] == "backlog_age"
        assert "would wait about 66 s" in refused.json()["detail"][0]["msg"]
        # the excess is what does not drain within the bound: 41 - floor(60 x 0.625) = 4, 4 / 0.625 → 7 s
        assert refused.headers["Retry-After"] == "7"
        assert len(_stored(factory)) == 71


def test_readyz_names_the_full_backlog_and_the_missing_worker(
    private: dict[str, Any], redis_url: str
) -> None:
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    with _client(settings, keys["other"]) as other:
        empty = other.get("/readyz")
        assert empty.status_code == 503  # no worker consumes this session's queue
        assert empty.json()["reasons"] == [f"no worker consumes {settings.celery_queue}"]
        assert other.post("/audits/batch", json={"audits": [VALID] * MAX_QUEUED}).status_code == 202
        full = other.get("/readyz").json()
        assert full["status"] == "degraded"
        assert any(
            f"{MAX_QUEUED} audits queued, the bound is {MAX_QUEUED} (server setting MAX_QUEUED_AUDITS)" in r
            for r in full["reasons"]
        ), full
        assert full["queued"] == MAX_QUEUED
        # liveness is unchanged by the backlog
        assert other.get("/healthz").status_code == 200


#: A plain member of ``claimaudit_service`` (row-level security applies), as production connects.
PLAIN_ROLE = "claimaudit_backlog_probe"


def test_the_bounds_count_every_tenant_under_row_level_security(
    private: dict[str, Any], redis_url: str
) -> None:
    """The request's session is bound to the caller's tenant; a superuser (the local stack, the
    other tests) bypasses the policy, a production role does not. The deployment bound must
    still count the other tenants' audits, and /metrics must show them."""
    import sqlalchemy
    from sqlalchemy.engine import make_url

    from db.tenancy import SERVICE_ROLE

    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    _clear(factory)
    with factory() as s:
        if not s.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": PLAIN_ROLE}).first():
            s.execute(text(f"CREATE ROLE {PLAIN_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS"))
        s.execute(text(f"GRANT {SERVICE_ROLE} TO {PLAIN_ROLE}"))
        s.execute(
            text(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {PLAIN_ROLE}")
        )
        s.execute(text(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {PLAIN_ROLE}"))
        s.execute(text(f"GRANT EXECUTE ON FUNCTION tenant_from_audit() TO {PLAIN_ROLE}"))
        s.commit()
    plain_url = make_url(settings.database_url).set(username=PLAIN_ROLE, password=None)
    plain = settings.model_copy(update={"database_url": plain_url.render_as_string(hide_password=False)})
    with sqlalchemy.create_engine(plain.database_url).connect() as conn:
        who = "SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user"
        assert conn.execute(text(who)).scalar() is False
    with _client(plain, keys["other"]) as other, _client(plain, keys["flood"]) as flood:
        assert other.post("/audits/batch", json={"audits": [VALID] * MAX_QUEUED}).status_code == 202
        # "flood" has no audit of its own: only the deployment-wide count refuses it
        refused = flood.post("/audits", json=VALID)
        assert refused.status_code == 503, refused.text
        assert not _stored(factory, "flood")
        queued = [
            s for s in _samples(flood, keys["flood"])["claimaudit_audits"] if s.labels["status"] == "queued"
        ]
        assert queued[0].value == MAX_QUEUED
