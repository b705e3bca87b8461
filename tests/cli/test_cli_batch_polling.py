"""Waiting for a batch costs one status request per round, not one GET per audit: the CLI asks
``POST /audits/status`` for every pending audit and fetches a document once, when it is final
(``POST /audits/documents``, many per request; one GET each against an API without it)."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.routes.audit_status import MAX_IDS
from cli import client as client_module
from cli.client import Client

pytestmark = [pytest.mark.services, pytest.mark.slow]

REF = "The Halvorsen Bridge opened to traffic on 12 May 1998."


def test_status_endpoint_answers_many_audits_and_names_the_unknown(client: TestClient) -> None:
    batch = [{"references": [REF], "response": f"The bridge opened in {1990 + i}."} for i in range(3)]
    ids = [a["id"] for a in client.post("/audits/batch", json={"audits": batch}).json()["audits"]]
    unknown = str(uuid.uuid4())
    resp = client.post("/audits/status", json={"ids": [*ids, unknown, ids[0]]})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    # no worker consumes this session's queue here: all three are still queued
    assert sorted(item["id"] for item in body["items"]) == sorted(ids)
    assert {item["status"] for item in body["items"]} == {"queued"}
    assert body["missing"] == [unknown]


@pytest.mark.parametrize("count", [0, MAX_IDS + 1])
def test_status_endpoint_refuses_empty_and_oversized_requests(client: TestClient, count: int) -> None:
    resp = client.post("/audits/status", json={"ids": [str(uuid.uuid4()) for _ in range(count)]})
    assert resp.status_code == 422


def test_poll_many_fetches_each_document_once(live_api: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fetched: Counter[str] = Counter()
    requests: list[int] = []
    original = client_module._Looker._documents

    async def counting(self: Any, chunk: list[str]) -> dict[str, dict[str, Any]] | None:
        fetched.update(chunk)
        requests.append(len(chunk))
        return await original(self, chunk)

    async def no_single_gets(self: Any, audit_id: str) -> dict[str, Any]:
        raise AssertionError(f"GET /audits/{audit_id}: the documents endpoint should have been used")

    monkeypatch.setattr(client_module._Looker, "_documents", counting)
    monkeypatch.setattr(client_module._Looker, "fetch", no_single_gets)
    bodies = [{"references": [REF], "response": f"The bridge opened in {1980 + i}."} for i in range(3)]
    with Client(live_api) as api:
        subs = api.submit_many([(b, None) for b in bodies])
        ids = [s.audit_id for s in subs if s.audit_id]
        docs = api.poll_many(ids, interval=0.05, stall_timeout=300)
    assert sorted(docs) == sorted(ids)
    assert {d["status"] for d in docs.values()} == {"done"}
    assert all(d["claims"] for d in docs.values())  # full documents, not status rows
    # polled at 20 rounds a second for seconds, yet each document was fetched exactly once, in at
    # most one request per round that saw audits finish (three audits: at most three requests)
    assert fetched == Counter(ids)
    assert 1 <= len(requests) <= len(ids)
