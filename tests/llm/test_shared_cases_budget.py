"""The shared cases (../shared/cases/audits.jsonl) in LLM mode through the queue, counting the
requests each audit makes at the fake endpoint: at most one decomposition request per distinct
text not decomposed before (a cached reference costs none), at most one judge request and one
embeddings request per audit. Prints the totals (``pytest -s``) used in docs/LLM.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claims.polarity_probe import flip_texts
from tests.fakes.openai_server import FakeOpenAI
from tests.llm.test_llm_pipeline import LLM, submit, wait

pytestmark = [pytest.mark.services, pytest.mark.slow]

CASES = Path(__file__).resolve().parents[3] / "shared" / "cases" / "audits.jsonl"


@pytest.mark.skipif(not CASES.exists(), reason="shared cases not present")
def test_shared_cases_request_budget(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    seen: set[str] = set()
    totals = {"decompose": 0, "judge": 0, "embeddings": 0}
    audits = 0
    per_case: list[tuple[str, int, int, int]] = []
    for line in CASES.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        config = {**LLM, **(case.get("config") or {})}
        body = {"response": case["response"], "references": case["references"], "config": config}
        before = {k: fake.count(k) for k in totals}
        r = api.post("/audits", json=body)
        if case.get("expect", {}).get("status") == "rejected":
            assert r.status_code == 422
            assert {k: fake.count(k) for k in totals} == before  # nothing sent for a rejected audit
            continue
        assert r.status_code == 202, r.text
        doc = wait(api, r.json()["id"])
        assert doc["status"] == "done", (case["id"], doc["error"])
        texts = [t for t in dict.fromkeys([case["response"], *case["references"]]) if t.strip()]
        new = [t for t in texts if t not in seen]
        seen.update(texts)
        delta = {k: fake.count(k) - before[k] for k in totals}
        assert delta["decompose"] <= len(new), case["id"]
        assert delta["judge"] <= 1 and delta["embeddings"] <= 1, case["id"]
        assert doc["usage"]["llm_calls"] == sum(delta.values())
        for k in totals:
            totals[k] += delta[k]
        per_case.append((case["id"], delta["decompose"], delta["judge"], delta["embeddings"]))
        audits += 1
    per_audit = {k: round(v / audits, 2) for k, v in totals.items()}
    print(f"\nshared cases in LLM mode: {audits} audits, requests {totals}, per audit {per_audit}")
    print("per case (decompose, judge, embeddings):", per_case)


#: a claim the offline decision supports (the fake's bag-of-words vectors lie close) whose
#: adverb the polarity probe flips ("poorly" -> "well"; the reference states neither pole)
PROBED = ("The Kelby bridge was poorly built in 1990.", ["The Kelby bridge was built in 1990 by Orm Vell."])


def test_polarity_probe_flips_cost_no_second_embeddings_request(api: Any, clean: FakeOpenAI) -> None:
    """The probe's flipped claims are embedded with the claims in the embed stage's one request
    and read from the cache in the match stage: an audit whose supported claim is probed sends
    one embeddings request (two before the flips were embedded with the claims)."""
    response, references = PROBED
    assert flip_texts([response], references), "precondition: the probe has a flip for the claim"
    before = clean.count("embeddings")
    doc = wait(api, submit(api, response, references, {**LLM, "judge": "none"}))
    assert doc["status"] == "done", doc["error"]
    (claim,) = [c for c in doc["claims"] if c["role"] == "response"]
    assert claim["verdict"] == "supported" or claim["finding"] == "polarity", claim  # the probe read it
    assert clean.count("embeddings") - before == 1
