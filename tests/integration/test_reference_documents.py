"""A reference sent as ``{"text", "id"?, "url"?, "title"?}`` (README, "The claim store in SQL"):
accepted by ``POST /audits``, ``/audits/batch`` and ``/runs`` next to plain strings, stored with
its document, validated like the rest of a request; a request of plain strings hashes as before.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

import pytest
import sqlalchemy

from claimaudit.models import AuditDocument
from tests.integration.test_stages import run_all

pytestmark = pytest.mark.services

BRIDGE = {
    "text": "The Halvorsen Bridge opened to traffic on 12 May 1998.",
    "id": "kb-17",
    "url": "https://kb.example.com/17",
    "title": "Halvorsen Bridge",
}
RESPONSE = "The Halvorsen Bridge opened in 1989."


def _documents(session_factory: Any, audit_id: str) -> list[tuple[Any, ...]]:
    with session_factory() as s:
        return list(
            s.execute(
                sqlalchemy.text(
                    "SELECT position, text, source_id, source_url, source_title FROM documents"
                    " WHERE audit_id = :a AND role = 'reference' ORDER BY position"
                ),
                {"a": audit_id},
            ).all()
        )


def test_an_object_reference_is_stored_with_its_source(client: Any, session_factory: Any) -> None:
    body = {"references": [BRIDGE, "Water boils at 100 °C.", {"text": "Untitled."}], "response": RESPONSE}
    resp = client.post("/audits", json=body)
    assert resp.status_code == 202, resp.text
    assert _documents(session_factory, resp.json()["id"]) == [
        (0, BRIDGE["text"], "kb-17", BRIDGE["url"], "Halvorsen Bridge"),
        (1, "Water boils at 100 °C.", None, None, None),
        (2, "Untitled.", None, None, None),
    ]
    key = {"Idempotency-Key": f"ref-{uuid.uuid4().hex}"}
    first = client.post("/audits", json=body, headers=key)
    again = client.post("/audits", json=body, headers=key)
    assert (first.status_code, again.status_code) == (202, 200) and first.json()["id"] == again.json()["id"]
    other = {**body, "references": [{**BRIDGE, "title": "Another title"}]}
    assert client.post("/audits", json=other, headers=key).status_code == 409


def test_a_done_audit_names_each_references_source(client: Any, session_factory: Any) -> None:
    """``GET /audits/{id}`` lists, per reference index (what evidence points at), the id, URL and
    title sent with it; null for what was not sent. The claim contradicts BRIDGE (1989 ≠ 1998)."""
    body = {"references": ["Water boils at 100 °C.", BRIDGE], "response": RESPONSE}
    audit_id = client.post("/audits", json=body).json()["id"]
    run_all(session_factory, uuid.UUID(audit_id))
    doc = client.get(f"/audits/{audit_id}").json()
    assert doc["status"] == "done"
    assert doc["references"] == [
        {"index": 0, "id": None, "url": None, "title": None},
        {"index": 1, "id": "kb-17", "url": BRIDGE["url"], "title": "Halvorsen Bridge"},
    ]
    evidence = [e for c in doc["claims"] if c["role"] == "response" for e in c["evidence"]]
    assert evidence and {e["reference"] for e in evidence} == {1}
    assert AuditDocument.model_validate(doc).references[1].title == "Halvorsen Bridge"  # the client's model


def test_a_batch_takes_object_references(client: Any, session_factory: Any) -> None:
    items = [{"references": [BRIDGE], "response": RESPONSE}, {"references": [{"id": "x"}], "response": "r"}]
    resp = client.post("/audits/batch", json={"audits": items})
    assert resp.status_code == 202, resp.text
    done, rejected = resp.json()["audits"]
    assert done["status"] == "queued" and rejected["status"] == "rejected" and "text" in rejected["error"]
    assert _documents(session_factory, done["id"])[0][2:] == ("kb-17", BRIDGE["url"], "Halvorsen Bridge")


def test_a_run_item_takes_object_references(client: Any, session_factory: Any) -> None:
    item = {"id": "q1", "references": [BRIDGE], "response": RESPONSE}
    resp = client.post("/runs", json={"suite": f"refs-{uuid.uuid4().hex[:6]}", "items": [item]})
    assert resp.status_code in (201, 202), resp.text
    audit_id = resp.json()["items"][0]["audit_id"]
    assert _documents(session_factory, audit_id)[0][2:] == ("kb-17", BRIDGE["url"], "Halvorsen Bridge")


@pytest.mark.parametrize(
    "reference",
    [
        {"text": 1},
        {"id": "kb-1"},
        {"text": "x", "author": "someone"},
        {"text": "x\u0000"},
        {"text": "x", "url": "u" * 2001},
        ["x"],
    ],
    ids=["text-not-a-string", "no-text", "unknown-key", "nul", "url-too-long", "a-list"],
)
def test_a_bad_object_reference_is_422(client: Any, reference: Any) -> None:
    resp = client.post("/audits", json={"references": [reference], "response": "r"})
    assert resp.status_code == 422, resp.text


def test_blank_object_references_are_refused_and_long_ones_are_413(client: Any, settings: Any) -> None:
    blank = client.post("/audits", json={"references": [{"text": "  ", "title": "t"}], "response": "r"})
    assert blank.status_code == 422 and "whitespace" in blank.text
    long = {"text": "x" * (settings.max_text_chars + 1)}
    resp = client.post("/audits", json={"references": [long], "response": "r"})
    assert resp.status_code == 413 and "references[0]" in resp.text


def test_a_request_of_plain_strings_hashes_as_before(client: Any, session_factory: Any) -> None:
    """Idempotency keys stored before object references existed still match their bodies."""
    body = {"references": ["The bridge opened in 1998."], "response": "It opened in 1998."}
    resp = client.post("/audits", json=body, headers={"Idempotency-Key": f"plain-{uuid.uuid4().hex}"})
    payload = {**body, "question": None, "metadata": None, "config": {}}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    with session_factory() as s:
        stored = s.execute(
            sqlalchemy.text("SELECT request_sha256 FROM audits WHERE id = :a"), {"a": resp.json()["id"]}
        ).scalar_one()
    assert stored == hashlib.sha256(blob.encode("utf-8")).hexdigest()
