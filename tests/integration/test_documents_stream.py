"""``POST /audits/documents`` streams its answer: the same bytes as one ``JSONResponse`` of the
whole answer built at once (the route's construction before it streamed), ``application/json``,
on done audits seeded in this process (``harness.run_in_process``), with more audits than one
``DOCUMENT_GROUP``, a pending audit, a missing id and truncation."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.responses import JSONResponse

from api.documents import audit_documents
from api.routes import audit_status
from db import repository as repo
from tests.faults import harness

pytestmark = [pytest.mark.services]


@pytest.fixture(scope="module")
def seeded(session_factory: Any) -> list[uuid.UUID]:
    """13 done audits (more than one ``DOCUMENT_GROUP`` of 10) and one queued audit."""
    done = [harness.run_in_process(session_factory, body) for body in harness.workload(13)]
    with session_factory() as s:
        queued, _ = repo.create_audit(
            s, repo.NewAudit(response="Paris.", references=["Paris."], request_sha256=uuid.uuid4().hex)
        )
        s.commit()
    return [*done[:5], queued.id, *done[5:]]


def _whole(session_factory: Any, ids: list[uuid.UUID], taken: int, missing: list[uuid.UUID]) -> bytes:
    """The answer as one ``JSONResponse`` of the documents built at once."""
    with session_factory() as s:
        audits = {a.id: a for a in repo.get_audits(s, ids)}
        ordered = [audits[i] for i in ids if i in audits]
        docs = audit_documents(s, ordered[:taken])
        content = {
            "items": [docs[a.id] for a in ordered[:taken]],
            "missing": [str(i) for i in missing],
            "truncated": [str(a.id) for a in ordered[taken:]],
        }
    return bytes(JSONResponse(content).body)


def test_streamed_documents_equal_the_whole_answer(
    client: Any, session_factory: Any, seeded: list[uuid.UUID]
) -> None:
    unknown = uuid.uuid4()
    asked = [*seeded[:3], unknown, *seeded[3:]]
    resp = client.post("/audits/documents", json={"ids": [str(i) for i in asked]})
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"] == "application/json"
    assert "content-length" not in resp.headers  # streamed (chunked), not rendered whole
    assert resp.content == _whole(session_factory, seeded, len(seeded), [unknown])
    page = resp.json()
    assert [d["id"] for d in page["items"]] == [str(i) for i in seeded]
    assert sum(d["status"] == "done" for d in page["items"]) == 13
    # each document is exactly GET /audits/{id}
    assert page["items"][7] == client.get(f"/audits/{seeded[7]}").json()


def test_truncated_answer_streams_the_same_bytes(
    client: Any, session_factory: Any, seeded: list[uuid.UUID], monkeypatch: pytest.MonkeyPatch
) -> None:
    with session_factory() as s:
        counts = repo.claim_counts(s, seeded)
    # room for the claims of the first 12 asked audits: the 13th and 14th are truncated
    monkeypatch.setattr(audit_status, "MAX_DOCUMENT_CLAIMS", sum(counts.get(i, 0) for i in seeded[:12]))
    resp = client.post("/audits/documents", json={"ids": [str(i) for i in seeded]})
    assert resp.status_code == 200, resp.text
    assert resp.content == _whole(session_factory, seeded, 12, [])
    assert resp.json()["truncated"] == [str(i) for i in seeded[12:]]
