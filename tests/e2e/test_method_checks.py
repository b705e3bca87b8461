"""End to end, the audit method's own checks (README) on real services: HTTP (FastAPI TestClient)
→ Redis → a Celery worker in its own process → Postgres.

On the demo's references (``examples/``): planted-fault canaries of every kind, audited, with the
detection rate per kind; the wrong-date audit's corrected answer passes its re-audit; a sampled
second audit (the worker runs with ``SECOND_AUDIT_SHARE=1``) stores its agreement; imported
labels give an agreement report, and the shared dev labels imported as human labels give
``run_label_eval.py``'s confusion matrix; a suite with ``canaries: 1`` plants one canary of
every kind in its run's first item. Everything runs as a tenant other than ``default``, so the
audits the worker derives (canaries, second audits, corrections) must land in the parent's tenant.
"""

from __future__ import annotations

import importlib.util
import json
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import ROOT, WorkerProcess, make_key

pytestmark = [pytest.mark.services, pytest.mark.slow]

EXAMPLES = ROOT / "examples"
SHARED = ROOT.parent / "shared"
#: The four kinds the issue sets a floor for ("Done when": each >= 90 %).
FLOOR = 0.9


def _poll(client: TestClient, path: str, done: Callable[[dict[str, Any]], bool], timeout: float = 900) -> Any:
    deadline = time.monotonic() + timeout
    doc: dict[str, Any] = {}
    while time.monotonic() < deadline:
        doc = client.get(path).json()
        if done(doc):
            return doc
        time.sleep(0.5)
    raise AssertionError(f"{path} not finished after {timeout} s: {json.dumps(doc)[:2000]}")


def _finished(doc: dict[str, Any]) -> bool:
    return doc.get("status") in {"done", "failed", "rejected"}


@pytest.fixture(scope="module")
def api(
    start_worker: Callable[..., WorkerProcess], database_url: str, redis_server_url: str, session_factory: Any
) -> Iterator[TestClient]:
    """A worker that re-audits every ordinary audit with a stricter threshold (sampled second audit),
    and a client of a tenant of its own with every scope."""
    from db.auth_models import SCOPES
    from service.settings import Settings

    settings = Settings(database_url=database_url, redis_url=redis_server_url)
    worker = start_worker(
        {"SECOND_AUDIT_SHARE": "1.0", "SECOND_AUDIT_CONFIG": '{"threshold": 0.75}'}, concurrency=2
    )
    from api.main import create_app

    tenant = f"checks-{uuid.uuid4().hex[:8]}"
    key, _ = make_key(session_factory, tenant, SCOPES, requests_per_second=0, audits_per_minute=0)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {key}"}) as c:
        yield c
    worker.stop()


@pytest.fixture(scope="module")
def demo(api: TestClient) -> dict[str, dict[str, Any]]:
    """The demo's audits (examples/*.json), done: {file stem: result document}."""
    ids = {}
    for path in sorted(EXAMPLES.glob("*.json")):
        example = json.loads(path.read_text())
        body = {k: example[k] for k in ("response", "references", "question") if k in example}
        resp = api.post("/audits", json=body)
        assert resp.status_code == 202, resp.text
        ids[path.stem] = resp.json()["id"]
    docs = {stem: _poll(api, f"/audits/{aid}", _finished) for stem, aid in ids.items()}
    assert all(d["status"] == "done" for d in docs.values()), {s: d["error"] for s, d in docs.items()}
    return docs


@pytest.fixture(scope="module")
def canary_reports(api: TestClient, demo: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``POST /audits/{id}/canaries`` (3 per kind) for every demo audit, polled until complete."""
    for doc in demo.values():
        resp = api.post(f"/audits/{doc['id']}/canaries", json={"per_kind": 3})
        assert resp.status_code == 202, resp.text
    return {
        stem: _poll(api, f"/audits/{doc['id']}/canaries", lambda d: d["complete"])
        for stem, doc in demo.items()
    }


def _pooled(reports: dict[str, dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per kind over every demo audit: canaries done and detected (from each report's by_kind)."""
    out: dict[str, Counter[str]] = {}
    for report in reports.values():
        for kind, row in report["by_kind"].items():
            c = out.setdefault(kind, Counter())
            if row:
                c["done"] += row["done"]
                c["detected"] += row["detected"]
                c["exact"] += row["exact"]
    return {k: dict(v) for k, v in out.items()}


def test_the_canary_metric_counts_what_the_report_says(
    canary_reports: dict[str, dict[str, Any]], session_factory: Any
) -> None:
    """``checks.after_done`` counts each canary into ``claimaudit_canaries_total{kind,detected}``
    from ``canary_outcome``: the same kind and detection as the canary report."""
    from db import checks_repository as checks_repo

    rows = [c for report in canary_reports.values() for c in report["canaries"]]
    with session_factory() as session:
        for c in rows:
            assert checks_repo.canary_outcome(session, uuid.UUID(c["canary_audit_id"])) == (
                c["kind"],
                c["detected"],
            )


def test_canaries_of_every_kind_are_audited_and_reported(canary_reports: dict[str, dict[str, Any]]) -> None:
    pooled = _pooled(canary_reports)
    print("canary detection on the demo's references:", json.dumps(pooled))
    # every fault kind of claims.canary.CANARY_KINDS got at least one canary audited to the end
    assert set(pooled) == {"number", "date", "negation", "entity", "roles", "addition", "qualifier"}
    assert all(v.get("done", 0) >= 1 for v in pooled.values()), pooled
    for report in canary_reports.values():
        assert report["failed"] == 0
        for row in report["by_kind"].values():
            if row and row["done"]:  # the rate is detected / done, as the canary_detection view says
                assert row["detection_rate"] == pytest.approx(row["detected"] / row["done"])


@pytest.mark.parametrize("kind", ["number", "date", "negation"])
def test_detection_rate_of_values_dates_negations(
    canary_reports: dict[str, dict[str, Any]], kind: str
) -> None:
    row = _pooled(canary_reports)[kind]
    assert row["detected"] / row["done"] >= FLOOR, row


# entities: 10 of 10 (inferences borrow no other subject's name; subject swaps and rival names
# in the slot are compared)
def test_detection_rate_of_entities(canary_reports: dict[str, dict[str, Any]]) -> None:
    row = _pooled(canary_reports)["entity"]
    assert row["detected"] / row["done"] >= FLOOR, row


def test_the_wrong_date_audit_is_corrected_and_passes(
    api: TestClient, demo: dict[str, dict[str, Any]]
) -> None:
    doc = demo["02_wrong_date"]
    resp = api.post(f"/audits/{doc['id']}/correction", json={})
    assert resp.status_code == 202, resp.text
    corr = _poll(api, f"/audits/{doc['id']}/correction", lambda d: d["passes"] is not None, timeout=300)
    # examples/02_wrong_date.json: the response says 12 May 1989, the reference 12 May 1998
    assert "12 May 1998" in corr["corrected_text"] and "1989" not in corr["corrected_text"]
    assert any(e["op"] == "replace" and "1989" in e["before"] for e in corr["diff"])
    assert corr["passes"] is True and corr["flagged"] is False
    re_audit = api.get(f"/audits/{corr['corrected_audit_id']}").json()
    assert re_audit["status"] == "done"
    assert all(
        c["verdict"] in ("supported", "inferred") for c in re_audit["claims"] if c["role"] == "response"
    )
    # the audit's own document now shows its correction
    assert api.get(f"/audits/{doc['id']}").json()["correction"]["corrected_text"] == corr["corrected_text"]


def test_a_sampled_second_audit_stores_its_agreement(
    api: TestClient, demo: dict[str, dict[str, Any]]
) -> None:
    doc = demo["04_source_passages"]
    report = _poll(
        api,
        f"/audits/{doc['id']}/second-audit",
        lambda d: bool(d["second_audits"]) and all(s["computed_at"] for s in d["second_audits"]),
        timeout=300,
    )
    second = report["second_audits"][0]
    assert second["reason"] == "sample" and second["config"] == {"threshold": 0.75}
    material = [c for c in doc["claims"] if c["role"] == "response" and c["kind"] == "material"]
    assert second["claims"] == len(material) and 0 <= second["agreed"] <= second["claims"]
    # the first audit has supported and qualification_dropped claims, so kappa is defined
    assert second["kappa"] is not None and -1.0 <= second["kappa"] <= 1.0
    assert sum(map(sum, second["confusion"]["matrix"])) == second["claims"]
    assert len(second["disagreements"]) == second["claims"] - second["agreed"]
    pooled = api.get("/checks/second-audits").json()
    assert pooled["all"]["n"] >= second["claims"]
    # the worker made the second audit in the first audit's tenant: this tenant's key reads it
    assert api.get(f"/audits/{second['second_audit_id']}").json()["status"] == "done"


def test_imported_labels_give_an_agreement_report(api: TestClient, demo: dict[str, dict[str, Any]]) -> None:
    items = []
    for stem in ("02_wrong_date", "04_source_passages"):
        doc = demo[stem]
        for c in doc["claims"]:
            if c["role"] == "response" and c["kind"] == "material":
                items.append(
                    {"audit_id": doc["id"], "claim": c["position"], "label": c["verdict"], "reviewer": "e2e"}
                )
    # the reviewer disagrees on exactly one claim: '... is 1,420 metres long' (supported: the
    # reference says 1,420 metres) is called contradicted by a reviewer who misread the length.
    # ('... carries six lanes' would not do: the auditor contradicts it, six ≠ four lanes.)
    length = next(
        i
        for i, it in enumerate(items)
        if "1,420 metres" in demo["02_wrong_date"]["claims"][it["claim"]]["text"]
    )
    assert items[length]["label"] != "contradicted", "the auditor contradicts the length: pick another claim"
    items[length]["label"] = "contradicted"
    bad = api.post(
        "/labels",
        json={
            "labels": [*items, {"audit_id": demo["02_wrong_date"]["id"], "claim": 99, "label": "supported"}]
        },
    )
    assert bad.status_code == 422, bad.text  # all or none
    assert [d["loc"][:2] for d in bad.json()["detail"]] == [["body", "labels"]]
    assert api.post("/labels", json={"labels": items}).json() == {"stored": len(items)}
    report = api.get("/labels/agreement", params={"reviewer": "e2e"}).json()["claims"]
    assert report["n"] == len(items) and report["error_count"] == 1
    assert report["accuracy"] == pytest.approx((len(items) - 1) / len(items))
    assert report["kappa"] is not None and report["kappa"] < 1.0
    assert report["errors"][0]["label"] == "contradicted" and report["errors"][0]["claim_type"] == "number"
    assert "number" in report["by_claim_type"]
    put = api.put(
        f"/audits/{demo['02_wrong_date']['id']}/claims/0/label",
        json={"verdict": "contradicted", "reviewer": "e2e-put"},
    )
    assert put.status_code == 200 and put.json()["claim_type"] == "date"


def _run_label_eval() -> Any:
    path = SHARED / "eval/run_label_eval.py"
    if not path.exists():
        pytest.skip(f"{path} not present")
    spec = importlib.util.spec_from_file_location("run_label_eval", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shared_dev_labels_reproduce_run_label_eval(api: TestClient) -> None:
    """The first 16 Factcheck-GPT dev pairs as audits; their gold stances imported as audit labels;
    the report's confusion equals the one run_label_eval.py computes from the same results."""
    rle = _run_label_eval()
    items = rle.load("factcheck", SHARED / "data/factcheck_gpt/stance_dev.jsonl", 16)
    audits = [{"response": it["claim"], "references": it["references"]} for it in items]
    accepted = api.post("/audits/batch", json={"audits": audits}).json()["audits"]
    docs = [_poll(api, f"/audits/{a['id']}", _finished) for a in accepted]
    labels = [
        {"audit_id": d["id"], "claim": None, "label": it["gold"], "reviewer": "factcheck-dev"}
        for d, it in zip(docs, items, strict=True)
    ]
    assert api.post("/labels", json={"labels": labels}).status_code == 200
    report = api.get("/labels/agreement", params={"reviewer": "factcheck-dev"}).json()["audits"]
    expected = Counter((it["gold"], rle.predict(d)) for it, d in zip(items, docs, strict=True))
    got = {
        (g, p): report["confusion"][i][j]
        for i, g in enumerate(report["classes"])
        for j, p in enumerate(report["classes"])
    }
    assert report["classes"] == rle.LABELS
    assert {k: v for k, v in got.items() if v} == dict(expected)
    assert report["support_balanced_accuracy"] == rle.balanced_accuracy(
        [(it["gold"], rle.predict(d)) for it, d in zip(items, docs, strict=True)]
    )


def test_a_suite_with_canaries_plants_them_in_its_runs(api: TestClient) -> None:
    """``canaries: 1``: the run's first item gets one canary of every kind the references allow,
    the second none; GET /runs/{id} reports the detection per kind."""
    assert api.put("/suites/with-canaries", json={"canaries": 1}).status_code in (200, 201)
    assert api.get("/suites/with-canaries").json()["canaries"] == 1
    items = []
    for stem in ("02_wrong_date", "01_paraphrase"):
        example = json.loads((EXAMPLES / f"{stem}.json").read_text())
        items.append({"id": stem, **{k: example[k] for k in ("response", "references") if k in example}})
    resp = api.post("/runs", json={"suite": "with-canaries", "label": "r1", "items": items})
    assert resp.status_code in (200, 201, 202), resp.text
    run_id = resp.json()["run"]["id"]
    doc = _poll(
        api,
        f"/runs/{run_id}",
        lambda d: (
            d["status"] == "finished"
            and bool(d["canaries"])
            and all(v["done"] == v["canaries"] for v in d["canaries"].values())
        ),
    )
    first, second = (a["audit_id"] for a in doc["audits"]["items"])
    planted = api.get(f"/audits/{first}/canaries").json()
    assert {k: v["canaries"] for k, v in doc["canaries"].items()} == Counter(
        c["kind"] for c in planted["canaries"]
    )
    assert all(v["canaries"] == 1 for v in doc["canaries"].values())  # one per kind
    assert {"number", "date"} <= set(doc["canaries"])  # 02_wrong_date's reference has both
    # the second item's checks ran (its sampled second audit is stored in the same transaction
    # as any canaries would be) and planted none
    _poll(api, f"/audits/{second}/second-audit", lambda d: bool(d["second_audits"]), timeout=300)
    assert api.get(f"/audits/{second}/canaries").json()["canaries"] == []
