"""Bundles through the real queue (``workers.bundle_tasks``): a batch's offline audits run their
stages together and come out exactly as single-audit chains do; one audit's error fails only
that audit; a worker killed in the middle of a bundle loses nothing.

Workers run with a 3 s lease and a sweep every second (production: 60 s and 15 s)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from api.routes import audit_status
from db import repository as repo
from db.models import Audit
from tests.conftest import WorkerProcess, wait_for_status

pytestmark = [pytest.mark.services, pytest.mark.slow]

FAST = {"STAGE_LEASE_S": "3", "SWEEP_INTERVAL_S": "1"}

REFERENCES = [
    "The Halvorsen Bridge opened to traffic on 12 May 1998. It is 1,420 metres long and carries four lanes.",
    "Tessel Corp was founded in 2004 in Oslo. It makes industrial sensors and employs 320 people.",
]
#: Supported, contradicted (date, number), unsupported and inferred claims: the verdicts differ,
#: so equal documents are not equal by accident.
RESPONSES = [
    "The Halvorsen Bridge opened in 1998. It carries four lanes.",
    "The Halvorsen Bridge opened on 12 May 1989. It is 1,240 metres long.",
    "Tessel Corp was founded in 2004. It employs 230 people.",
    "Tessel Corp makes sensors in Oslo. It was founded by two engineers.",
    "The bridge carries a railway line.",
    "Tessel Corp was founded in Bergen in 2004.",
]


def _bodies() -> list[dict[str, Any]]:
    return [{"references": REFERENCES, "response": r} for r in RESPONSES]


def _verdict_view(doc: dict[str, Any]) -> dict[str, Any]:
    """What must be identical: claims, verdicts, reasons, counts, edit script; similarities and
    scores to 5 decimals (a vector can differ in the 7th digit with the texts of its model batch,
    docs/PERFORMANCE.md)."""
    claims = [
        {
            k: (round(v, 6) if isinstance(v, float) else v)
            for k, v in c.items()
            if k not in ("evidence", "judge")
        }
        | {
            "evidence": [
                (e["reference"], e["start"], e["end"], round(e["similarity"], 5))
                for e in c.get("evidence") or []
            ]
        }
        for c in doc["claims"]
    ]
    return {
        "claims": claims,
        "counts": doc["counts"],
        "edit_script": doc["edit_script"],
        "scores": {k: (None if v is None else round(v, 5)) for k, v in doc["scores"].items()},
    }


def _wait_all(
    session_factory: Any, ids: list[str], worker: WorkerProcess, timeout: float = 240
) -> dict[str, str]:
    out = {}
    for aid in ids:
        try:
            out[aid] = wait_for_status(session_factory, uuid.UUID(aid), {"done", "failed"}, timeout=timeout)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{worker.output()[-4000:]}") from None
    return out


def test_bundled_audits_equal_single_audits_and_come_back_in_one_documents_request(
    client: TestClient,
    session_factory: Any,
    start_worker: Callable[..., WorkerProcess],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    singles = [client.post("/audits", json=b).json()["id"] for b in _bodies()]
    batch = client.post("/audits/batch", json={"audits": _bodies()})
    assert batch.status_code == 202, batch.text
    bundled = [item["id"] for item in batch.json()["audits"]]
    worker = start_worker(concurrency=1)
    try:
        statuses = _wait_all(session_factory, singles + bundled, worker)
        output = worker.output()
    finally:
        worker.stop()
    assert set(statuses.values()) == {"done"}
    assert "Task bundles.decompose[" in output and "Task audits.decompose[" in output  # both paths ran

    page = client.post("/audits/documents", json={"ids": [*bundled, singles[0]]})
    assert page.status_code == 200, page.text
    docs = {d["id"]: d for d in page.json()["items"]}
    assert [d["id"] for d in page.json()["items"]] == [*bundled, singles[0]]  # the order asked
    assert page.json()["missing"] == []
    for single_id, bundle_id in zip(singles, bundled, strict=True):
        single = client.get(f"/audits/{single_id}").json()
        assert _verdict_view(docs[bundle_id]) == _verdict_view(single), RESPONSES[bundled.index(bundle_id)]
    # each document of the endpoint is exactly GET /audits/{id}
    assert docs[singles[0]] == client.get(f"/audits/{singles[0]}").json()
    assert docs[bundled[1]] == client.get(f"/audits/{bundled[1]}").json()
    verdicts = {c["verdict"] for d in docs.values() for c in d["claims"] if c["role"] == "response"}
    assert {"supported", "contradicted", "unsupported"} <= verdicts  # the mix the inputs were chosen for

    # an answer is bounded by its claims: over the bound, the rest is named to be asked again
    monkeypatch.setattr(audit_status, "MAX_DOCUMENT_CLAIMS", 1)
    page = client.post("/audits/documents", json={"ids": bundled[:3]}).json()
    assert [d["id"] for d in page["items"]] == bundled[:1]  # the first audit is always answered
    assert page["truncated"] == bundled[1:3] and page["missing"] == []


def test_documents_endpoint_names_unknown_ids_and_refuses_over_100(client: TestClient) -> None:
    unknown = str(uuid.uuid4())
    aid = client.post("/audits", json=_bodies()[0]).json()["id"]
    page = client.post("/audits/documents", json={"ids": [aid, unknown, aid]}).json()
    # a queued audit's document: status, no claims yet (no worker here), as GET answers it
    assert [d["id"] for d in page["items"]] == [aid] and page["missing"] == [unknown]
    assert page["items"][0] == client.get(f"/audits/{aid}").json()
    too_many = client.post("/audits/documents", json={"ids": [str(uuid.uuid4()) for _ in range(101)]})
    assert too_many.status_code == 422


def test_an_audit_that_fails_in_a_bundle_fails_alone(
    client: TestClient, session_factory: Any, start_worker: Callable[..., WorkerProcess]
) -> None:
    batch = client.post("/audits/batch", json={"audits": _bodies()[:4]}).json()["audits"]
    ids = [item["id"] for item in batch]
    # a hand-edited row (the API validates configs): the stage cannot read this audit's options
    with session_factory() as s:
        s.execute(update(Audit).where(Audit.id == uuid.UUID(ids[1])).values(config={"threshold": "high"}))
        s.commit()
    worker = start_worker(concurrency=1)
    try:
        statuses = _wait_all(session_factory, ids, worker)
    finally:
        worker.stop()
    assert statuses == {ids[0]: "done", ids[1]: "failed", ids[2]: "done", ids[3]: "done"}
    failed = client.get(f"/audits/{ids[1]}").json()
    # decomposition and embedding read no threshold; the match stage's options do, and fail
    assert failed["stage"] == "matching" and "threshold" in (failed["error"] or "")
    assert failed["effective_config"] is None
    with session_factory() as s:
        rows = repo.count_rows(s, uuid.UUID(ids[1]))
    assert rows["verdicts"] == 0 and rows["scores"] == 0  # nothing of the failed stage stored


def test_worker_killed_in_the_middle_of_a_bundle_loses_nothing(
    client: TestClient, session_factory: Any, start_worker: Callable[..., WorkerProcess]
) -> None:
    # Worker 1 sleeps 60 s once a bundle's embed stage holds its audits: we kill it then.
    first = start_worker({**FAST, "CLAIMAUDIT_TEST_STAGE_DELAY": "embedding:60"})
    ids = [item["id"] for item in client.post("/audits/batch", json={"audits": _bodies()}).json()["audits"]]
    try:
        wait_for_status(session_factory, uuid.UUID(ids[0]), {"embedding"}, timeout=120)
        with session_factory() as s:  # held: the bundle run took the lease
            while (audit := repo.get_audit(s, uuid.UUID(ids[0]))) is not None and audit.attempt is None:
                s.expire_all()
    finally:
        first.kill()
    with session_factory() as s:
        claims_before = {aid: repo.count_rows(s, uuid.UUID(aid))["claims"] for aid in ids[:2]}
    # Worker 2's sweeper finds the expired leases and sends each audit again from its stage.
    second = start_worker(FAST)
    try:
        statuses = _wait_all(session_factory, ids, second)
    finally:
        second.stop()
    assert set(statuses.values()) == {"done"}
    with session_factory() as s:
        for aid in ids:
            rows = repo.count_rows(s, uuid.UUID(aid))
            state = repo.load_audit_state(s, uuid.UUID(aid))
            assert (
                state is not None and rows["verdicts"] == len(state.response_claims) and rows["scores"] == 1
            )
        for aid, n in claims_before.items():
            assert repo.count_rows(s, uuid.UUID(aid))["claims"] == n  # no duplicate claims
