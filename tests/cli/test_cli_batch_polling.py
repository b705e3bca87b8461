"""Waiting for a batch costs one status request per round, not one GET per audit: the CLI asks
``POST /audits/status`` for every pending audit and fetches a document once, when it is final
(``POST /audits/documents``, many per request)."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.routes.audit_status import MAX_IDS
from claimaudit import Client

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


def test_poll_fetches_each_document_once(live_api: str) -> None:
    requests: list[tuple[str, list[str]]] = []

    def record(request: Any) -> None:
        if request.url.path in ("/audits/status", "/audits/documents"):
            import json

            requests.append((request.url.path, json.loads(request.content)["ids"]))

    bodies = [{"references": [REF], "response": f"The bridge opened in {1980 + i}."} for i in range(3)]
    with Client(live_api) as api:
        api._http.event_hooks["request"].append(record)
        ids = [str(s.id) for s in api.submit_many([(b, None) for b in bodies])]
        docs = api.poll(ids, stall_timeout=300)
    assert sorted(docs) == sorted(ids)
    assert {d["status"] for d in docs.values()} == {"done"}
    assert all(d["claims"] for d in docs.values())  # full documents, not status rows
    fetched = Counter(i for path, chunk in requests if path == "/audits/documents" for i in chunk)
    rounds = [chunk for path, chunk in requests if path == "/audits/status"]
    # polled every 0.3 s for seconds, yet each document was fetched exactly once, in at most one
    # request per round that saw audits finish (three audits: at most three requests), and no
    # round asked for an audit that had already ended
    assert fetched == Counter(ids)
    assert 1 <= sum(1 for path, _ in requests if path == "/audits/documents") <= len(ids)
    assert all(len(chunk) <= len(ids) for chunk in rounds) and len(rounds[-1]) >= 1
