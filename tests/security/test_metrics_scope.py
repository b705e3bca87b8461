"""``/metrics``: a tenant's admin key reads its own tenant's figures alone; the deployment-wide
figures (every tenant's audits, queue depth, worker counters) need the ``operator`` scope, which
a tenant admin cannot grant."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from tests.conftest import make_key
from tests.security.conftest import new_tenant

pytestmark = pytest.mark.services

VALID = {"references": ["Water boils at 100 °C at sea level."], "response": "Water boils at 90 °C."}


def _value(text: str, name: str, labels: str) -> float | None:
    found = re.search(rf"^{re.escape(name)}\{{{re.escape(labels)}\}} ([0-9.e+]+)$", text, re.M)
    return None if found is None else float(found.group(1))


def test_a_tenant_key_reads_only_its_tenants_figures(bare: Any, session_factory: Any) -> None:
    a = new_tenant(session_factory, "ma")
    b = new_tenant(session_factory, "mb")
    for _ in range(2):
        assert bare.post("/audits", json=VALID, headers=a.headers).status_code == 202
    assert bare.post("/audits", json=VALID, headers=b.headers).status_code == 202
    own = bare.get("/metrics", headers=a.headers)
    assert own.status_code == 200
    # A's 2 audits (queued: no worker here), nothing of B, nothing of the deployment
    assert _value(own.text, "claimaudit_audits", f'status="queued",tenant="{a.id}"') == 2.0
    assert b.id not in own.text
    for deployment_wide in (
        "claimaudit_queue_depth",
        "claimaudit_stage_duration_seconds",
        'status="queued"} ',
    ):
        assert deployment_wide not in own.text
    assert _value(own.text, "claimaudit_tenant_llm_tokens_today", f'tenant="{a.id}"') == 0.0
    # a tenant admin cannot mint the operator scope for itself
    minted = bare.post("/admin/keys", json={"scopes": ["admin", "operator"]}, headers=a.headers)
    assert minted.status_code == 422


def test_the_operator_scope_reads_the_deployment(bare: Any, session_factory: Any) -> None:
    key, _ = make_key(session_factory, f"ops-{uuid.uuid4().hex[:6]}", ("admin", "operator"))
    resp = bare.get("/metrics", headers={"Authorization": f"Bearer {key}"})
    assert resp.status_code == 200
    assert "claimaudit_queue_depth" in resp.text
    queued = _value(resp.text, "claimaudit_audits", 'status="queued"')
    assert queued is not None and queued >= 3  # every tenant's (the test above stored 3)
