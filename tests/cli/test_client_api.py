"""The Python client (``claimaudit.Client`` / ``AsyncClient``) against the real API: uvicorn in a
thread on the test Postgres + Redis, one real Celery worker (``live_api``)."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from claimaudit import AsyncClient, Client, models
from claimaudit._flows import call
from claimaudit.errors import AuthenticationError, InvalidRequest, NotFound, PayloadTooLarge

pytestmark = [pytest.mark.services, pytest.mark.slow]

REF = "The Halvorsen Bridge opened to traffic on 12 May 1998."
#: The README's first example: 1989 against the reference's 1998 is contradicted at any threshold.
WRONG = "The Halvorsen Bridge opened in 1989."


def _extras(value: Any, path: str = "doc") -> list[str]:
    """Every field of a parsed document that no model declares (``model_extra``), by path."""
    found: list[str] = []
    if isinstance(value, BaseModel):
        found += [f"{path}.{k}" for k in value.model_extra or {}]
        for name in type(value).model_fields:
            found += _extras(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _extras(item, f"{path}[{i}]")
    return found


def test_audit_returns_the_typed_document_with_verdict_reason_and_evidence(live_api: str) -> None:
    with Client(live_api) as client:
        doc = client.audit(WRONG, [REF], question="When did the bridge open?", timeout=300)
    assert isinstance(doc, models.AuditDocument) and doc.status == "done"
    assert _extras(doc) == []  # every field the API sends is a declared field of the models
    (claim,) = doc.response_claims
    assert claim.verdict == "contradicted" and "1989" in (claim.reason or "")
    assert claim.evidence[0].reference == 0 and claim.evidence[0].text == REF
    assert doc.counts is not None and doc.counts.contradicted == 1
    assert doc.scores is not None and doc.scores.claim_precision == 0.0  # 0 supported of 1 claim
    assert doc.question == "When did the bridge open?"


def test_wait_is_a_long_poll(live_api: str) -> None:
    requests: list[httpx.Request] = []
    with Client(live_api) as client:
        client._http.event_hooks["request"].append(requests.append)
        accepted = client.submit("The Halvorsen Bridge opened in 1998.", [REF])
        doc = client.wait(accepted.id, timeout=300)
    assert doc.status == "done" and doc.id == accepted.id
    gets = [r for r in requests if r.method == "GET"]
    # the API holds each GET until the audit ends (or 30 s): a handful of requests, not a poll loop
    assert 1 <= len(gets) <= 3 and all(float(r.url.params["wait"]) > 0 for r in gets)


def test_errors_name_the_status_and_the_field(live_api: str) -> None:
    with Client(live_api) as client:
        with pytest.raises(InvalidRequest) as invalid:
            client.submit("x", ["  "])
        with pytest.raises(NotFound) as missing:
            client.get(uuid.uuid4())
        with pytest.raises(InvalidRequest) as bad_config:
            client.submit("x", [REF], config={"threshold": "high"})
    assert invalid.value.status_code == 422 and invalid.value.field == "references"
    assert "whitespace only" in str(invalid.value)
    assert missing.value.status_code == 404 and missing.value.field == "path.audit_id"
    assert bad_config.value.field == "config.threshold"
    with Client(live_api, api_key="ca_not-a-key") as stranger, pytest.raises(AuthenticationError) as refused:
        stranger.get(uuid.uuid4())
    assert refused.value.status_code == 401


def test_batch_keeps_order_and_rejects_items_one_by_one(live_api: str) -> None:
    items = [
        {"response": WRONG, "references": [REF], "idempotency_key": f"b-{uuid.uuid4()}"},
        {"response": "x", "references": [""]},  # every reference blank: rejected, stored nowhere
        {"response": "The Halvorsen Bridge opened in 1998.", "references": [REF]},
    ]
    with Client(live_api) as client:
        results = client.batch(items, stall_timeout=300)
        again = client.batch(items[:1], stall_timeout=300)  # same key and body: the same audit
    assert [r.status for r in results] == ["done", "rejected", "done"]
    assert results[1].audit_id is None and "references" in (results[1].error or "")
    assert results[0].document is not None and results[0].document.counts is not None
    assert results[0].document.counts.contradicted == 1
    assert again[0].audit_id == results[0].audit_id


def test_retries_wait_out_a_429_for_its_retry_after(live_api: str, session_factory: Any) -> None:
    from db.auth_models import SCOPES
    from tests.conftest import make_key

    key, _ = make_key(session_factory, "default", SCOPES, name="slow", requests_per_second=1)
    statuses: list[int] = []
    with Client(live_api, api_key=key) as client:
        client._http.event_hooks["response"].append(lambda r: statuses.append(r.status_code))
        pages = [client.list_audits(limit=1) for _ in range(3)]  # 3 requests, 1 allowed per second
    assert all(isinstance(p, models.AuditPage) for p in pages)
    assert 429 in statuses and statuses[-1] == 200  # refused, waited Retry-After, then answered


def test_runs_submit_list_get_and_compare(live_api: str) -> None:
    suite = f"client-{uuid.uuid4().hex[:8]}"
    night = [{"id": "bridge", "response": "The Halvorsen Bridge opened in 1998.", "references": [REF]}]
    worse = [{**night[0], "response": WRONG}]
    with Client(live_api) as client:
        for label, items in (("n1", night), ("n2", worse)):
            submitted = client.runs.submit(suite, label, items)
            assert [s.item_id for s in submitted] == ["bridge"]
            client.poll([str(s.audit_id) for s in submitted], stall_timeout=300)
            _wait_finished(client, f"{suite}/{label}")
        page = client.runs.list(suite=suite)
        comparison = client.runs.compare(f"{suite}/n2", "previous")
        items = list(client.runs.items(f"{suite}/n2", documents=True))
        with pytest.raises(NotFound):
            list(client.runs.items(f"{suite}/n9"))

    async def read_async() -> list[dict[str, Any]]:
        async with AsyncClient(live_api) as aclient:
            return [item async for item in aclient.runs.items(f"{suite}/n2", documents=True)]

    assert asyncio.run(read_async()) == items
    assert [(i["item_id"], i["status"], i["contradicted"]) for i in items] == [("bridge", "done", 1)]
    with Client(live_api) as client:  # the document is what GET /audits/{id} answers
        assert items[0]["document"] == client.run(call("GET", f"/audits/{items[0]['audit_id']}"))
    assert [r.label for r in page.items] == ["n2", "n1"]
    assert comparison.base.label == "n1" and comparison.new.label == "n2"
    assert [c["after"]["verdict"] for c in comparison.changed_claims] == ["contradicted"]
    assert not comparison.gate.passed  # the contradicted share rose from 0 to 100 %


def _wait_finished(client: Client, ref: str) -> models.Run:
    deadline = time.monotonic() + 120
    while (run := client.runs.get(ref)).status != "finished":
        assert time.monotonic() < deadline, f"run {ref} still {run.status}"
        time.sleep(0.3)
    return run


def test_async_client_audits_and_batches(live_api: str) -> None:
    async def go() -> tuple[models.AuditDocument, list[models.BatchResult]]:
        async with AsyncClient(live_api) as client:
            doc = await client.audit(WRONG, [REF], timeout=300)
            batch = await client.batch([{"response": WRONG, "references": [REF]}], stall_timeout=300)
            with pytest.raises(PayloadTooLarge):
                await client.submit("x" * 1_000_001, [REF])
            return doc, batch

    doc, batch = asyncio.run(go())
    assert [c.verdict for c in doc.response_claims] == ["contradicted"]
    assert batch[0].status == "done" and batch[0].document is not None


def test_models_match_the_openapi_schema(live_api: str) -> None:
    schema = httpx.get(f"{live_api}/openapi.json").json()["components"]["schemas"]
    compared = []
    for name in models.__all__:
        model = getattr(models, name)
        if not (isinstance(model, type) and issubclass(model, BaseModel)) or name not in schema:
            continue
        declared = schema[name]
        assert set(model.model_fields) == set(declared["properties"]), name
        required = {n for n, f in model.model_fields.items() if f.is_required()}
        assert required <= set(declared.get("required", [])), name
        compared.append(name)
    # the API's declared answers (api.schemas, api.routes.audit_status, api.errors), all of them
    assert set(compared) >= {
        "AuditAccepted", "BatchItemResult", "BatchAccepted", "AuditSummary", "AuditPage",
        "StatusItem", "StatusPage", "ClaimHit", "ClaimSearchResult", "Health", "ErrorItem",
    }  # fmt: skip
