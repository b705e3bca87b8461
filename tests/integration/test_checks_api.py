"""The checks' HTTP errors (real Postgres and Redis, no worker): nothing is stored on bad input."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.services

BODY = {"response": "The bridge opened in 1989.", "references": ["The bridge opened in 1998."]}


@pytest.fixture
def queued(client: TestClient) -> str:
    """An audit that stays queued (no worker runs in this module)."""
    resp = client.post("/audits", json=BODY)
    assert resp.status_code == 202
    return str(resp.json()["id"])


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "canaries", {"per_kind": 2}),
        ("post", "second-audit", {"config": {"threshold": 0.7}}),
        ("post", "correction", {}),
    ],
)
def test_checks_need_a_done_audit(client: TestClient, queued: str, method: str, path: str, body: Any) -> None:
    resp = client.request(method, f"/audits/{queued}/{path}", json=body)
    assert resp.status_code == 409 and "queued" in resp.json()["detail"][0]["msg"]
    missing = client.request(method, f"/audits/{uuid.uuid4()}/{path}", json=body)
    assert missing.status_code == 404


def test_bad_check_requests_are_422(client: TestClient, queued: str) -> None:
    assert client.post(f"/audits/{queued}/canaries", json={"per_kind": 0}).status_code == 422
    assert client.post(f"/audits/{queued}/canaries", json={"colour": "red"}).status_code == 422
    bad_config = client.post(f"/audits/{queued}/second-audit", json={"config": {"threshold": "high"}})
    assert bad_config.status_code == 422
    no_llm = client.post(f"/audits/{queued}/second-audit", json={"config": {"judge": "llm"}})
    assert no_llm.status_code == 422 and "no LLM endpoint configured" in no_llm.text


def test_reports_of_an_audit_without_checks(client: TestClient, queued: str) -> None:
    report = client.get(f"/audits/{queued}/canaries").json()
    assert (
        report["canaries"] == []
        and report["complete"]
        and set(report["not_generated"]) == set(report["by_kind"])
    )
    assert client.get(f"/audits/{queued}/second-audit").json()["second_audits"] == []
    assert client.get(f"/audits/{queued}/correction").status_code == 404
    assert "correction" not in client.get(f"/audits/{queued}").json()


def test_labels_are_all_or_none(client: TestClient, queued: str) -> None:
    labels = [
        {"audit_id": queued, "claim": None, "label": "refute", "reviewer": "r1"},
        {"audit_id": queued, "claim": 0, "label": "contradicted", "reviewer": "r1"},  # not done yet
        {"audit_id": str(uuid.uuid4()), "claim": None, "label": "refute"},
        {"audit_id": queued, "claim": None, "label": "contradicted", "reviewer": "r2"},  # a claim label
    ]
    resp = client.post("/labels", json={"labels": labels})
    assert resp.status_code == 422
    detail = resp.json()["detail"]
    assert [d["loc"] for d in detail] == [["body", "labels", i] for i in (1, 2, 3)]  # every bad row
    assert (
        client.get("/labels/agreement", params={"reviewer": "r1"}).json()["audits"]["n"] == 0
    )  # none stored
    ok = client.post("/labels", json={"labels": labels[:1]})
    assert ok.json() == {"stored": 1}
    again = client.post("/labels", json={"labels": [{**labels[0], "label": "partial"}]})  # replaces
    assert again.json() == {"stored": 1}
    report = client.get("/labels/agreement", params={"reviewer": "r1"}).json()["audits"]
    # the audit is not done, so run_label_eval.py's mapping predicts not_supported for it
    assert report["n"] == 1 and report["confusion"][1][2] == 1
    assert client.put(f"/audits/{queued}/claims/0/label", json={"verdict": "supported"}).status_code == 409
    assert (
        client.put(f"/audits/{uuid.uuid4()}/claims/0/label", json={"verdict": "supported"}).status_code == 404
    )
