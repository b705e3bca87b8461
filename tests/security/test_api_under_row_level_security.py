"""The API connected as a plain member of ``claimaudit_service`` (not a superuser, so row-level
security applies), as the README advises for production: every route still works for its own
tenant, and another tenant's audit stays a 404 (real Postgres, real Redis; no worker needed)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy
from sqlalchemy.engine import make_url

from db.tenancy import SERVICE_ROLE
from tests.security.conftest import Tenant

pytestmark = pytest.mark.services

ROLE = "claimaudit_api_probe"
VALID = {"references": ["The Halvorsen Bridge opened in 1998."], "response": "It opened in 1998."}


@pytest.fixture(scope="module")
def plain_url(engine: Any, database_url: str) -> str:
    """``database_url`` as a LOGIN role with only table privileges (the local server trusts loopback)."""
    with engine.begin() as conn:
        if not conn.execute(
            sqlalchemy.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": ROLE}
        ).first():
            conn.execute(sqlalchemy.text(f"CREATE ROLE {ROLE} LOGIN NOSUPERUSER NOBYPASSRLS"))
        conn.execute(sqlalchemy.text(f"GRANT {SERVICE_ROLE} TO {ROLE}"))  # the deployment's role
        conn.execute(
            sqlalchemy.text(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {ROLE}")
        )
        conn.execute(sqlalchemy.text(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {ROLE}"))
        conn.execute(sqlalchemy.text(f"GRANT EXECUTE ON FUNCTION tenant_from_audit() TO {ROLE}"))
    return make_url(database_url).set(username=ROLE, password=None).render_as_string(hide_password=False)


@pytest.fixture
def plain_api(settings: Any, redis_url: str, plain_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from api.main import create_app

    with TestClient(create_app(settings.model_copy(update={"database_url": plain_url}))) as c:
        yield c


def test_the_api_works_under_row_level_security(plain_api: Any, tenant_a: Tenant, tenant_b: Tenant) -> None:
    with sqlalchemy.create_engine(plain_api.app.state.settings.database_url).connect() as conn:
        assert (
            conn.execute(
                sqlalchemy.text("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user")
            ).scalar()
            is False
        )
    a = plain_api.post("/audits", json=VALID, headers={**tenant_a.headers, "Idempotency-Key": "rls-1"})
    b = plain_api.post("/audits", json=VALID, headers={**tenant_b.headers, "Idempotency-Key": "rls-1"})
    assert a.status_code == b.status_code == 202 and a.json()["id"] != b.json()["id"]
    replay = plain_api.post("/audits", json=VALID, headers={**tenant_a.headers, "Idempotency-Key": "rls-1"})
    assert replay.status_code == 200 and replay.json()["id"] == a.json()["id"]
    batch = plain_api.post("/audits/batch", json={"audits": [VALID]}, headers=tenant_a.headers)
    assert batch.status_code == 202 and batch.json()["audits"][0]["id"]
    assert plain_api.get(f"/audits/{a.json()['id']}", headers=tenant_a.headers).status_code == 200
    assert plain_api.get(f"/audits/{b.json()['id']}", headers=tenant_a.headers).status_code == 404
    ids = {i["id"] for i in plain_api.get("/audits?limit=500", headers=tenant_a.headers).json()["items"]}
    assert a.json()["id"] in ids and b.json()["id"] not in ids
    made = plain_api.post("/admin/keys", json={"scopes": ["audits:read"]}, headers=tenant_a.headers)
    assert made.status_code == 201
    keys = plain_api.get("/admin/keys", headers=tenant_a.headers).json()["items"]
    assert {k["tenant_id"] for k in keys} == {tenant_a.id}
    assert plain_api.delete(f"/admin/keys/{made.json()['id']}", headers=tenant_a.headers).status_code == 200
    # the method checks' routes read their tables and views (security_invoker) under the policy
    own, other = a.json()["id"], b.json()["id"]
    assert plain_api.get(f"/audits/{own}/canaries", headers=tenant_a.headers).json()["canaries"] == []
    assert plain_api.get(f"/audits/{other}/canaries", headers=tenant_a.headers).status_code == 404
    for path in ("/checks/canaries", "/checks/second-audits", "/labels/agreement"):
        assert plain_api.get(path, headers=tenant_a.headers).status_code == 200, path


def test_the_sweeper_claims_every_tenants_audits_under_row_level_security(
    plain_url: str, session_factory: Any, tenant_a: Tenant, tenant_b: Tenant
) -> None:
    """Worker sessions bind no tenant, so the sweeper (``db.leases.claim_due``) sees and claims
    the due audits of every tenant even as a role under row-level security; a session bound to
    one tenant would claim only that tenant's (the policy applies). Rolled back: nothing is sent."""
    import uuid

    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from db import leases
    from db import repository as repo
    from db.models import Audit
    from db.tenancy import bind_tenant

    owners = {}
    with session_factory() as s:
        for tenant in (tenant_a, tenant_b):
            audit, _ = repo.create_audit(
                s,
                repo.NewAudit(
                    tenant_id=tenant.id, response="x", references=["y"], request_sha256=uuid.uuid4().hex
                ),
            )
            owners[audit.id] = tenant.id
        # both leases expired: due for the sweeper
        s.execute(
            update(Audit)
            .where(Audit.id.in_(list(owners)))
            .values(lease_expires_at=sqlalchemy.func.now() - sqlalchemy.text("interval '1 minute'"))
        )
        s.commit()
    engine = sqlalchemy.create_engine(plain_url)
    try:
        for bound in (None, tenant_a.id):
            with Session(engine) as s:
                if bound is not None:
                    bind_tenant(s, bound)
                claimed = {
                    d.audit_id for d in leases.claim_due(s, unsent_after_s=30, pending_s=60, limit=100_000)
                }
                s.rollback()
            mine = {aid for aid in owners if aid in claimed}
            expected = set(owners) if bound is None else {a for a, t in owners.items() if t == bound}
            assert mine == expected, (bound, mine)
    finally:
        engine.dispose()


def test_the_pages_work_under_row_level_security(plain_api: Any, tenant_a: Tenant, tenant_b: Tenant) -> None:
    """A browser signed in to /ui as A (session cookie: the key is read before any tenant is bound)
    sees A's queued audit and not B's."""
    from fastapi.testclient import TestClient

    from tests.ui_login import ui_login

    a = plain_api.post("/audits", json=VALID, headers={**tenant_a.headers, "Idempotency-Key": "rls-ui"})
    b = plain_api.post("/audits", json=VALID, headers={**tenant_b.headers, "Idempotency-Key": "rls-ui"})
    a_id, b_id = a.json()["id"], b.json()["id"]
    browser = TestClient(plain_api.app, follow_redirects=False)
    ui_login(browser, tenant_a.key)
    assert browser.get(f"/ui/audits/{a_id}").status_code == 200
    assert browser.get(f"/ui/audits/{a_id}/status").status_code == 200
    assert browser.get(f"/ui/audits/{b_id}").status_code == 404
    listing = browser.get("/ui/audits", params={"limit": 200}).text
    assert a_id in listing and b_id not in listing
    assert browser.get("/ui/runs").status_code == 200
