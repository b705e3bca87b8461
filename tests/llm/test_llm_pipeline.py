"""The LLM path end to end: HTTP submit → Celery worker (own process) → real ``openai`` client →
fake OpenAI-compatible endpoint → Postgres → poll. Real Postgres + pgvector and Redis.

Call counts come from the fake endpoint's request log; expected counts are derived in each
test from the texts submitted (one decomposition request per distinct text, one judge request
per audit, one embeddings request per audit) and from the fixture's ``LLM_RETRIES``.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import sqlalchemy

from tests.fakes.openai_server import FakeOpenAI
from tests.llm.conftest import LLM_RETRIES

pytestmark = [pytest.mark.services, pytest.mark.slow]

REFERENCE = (
    "In 2004, the 23-year-old cellist Ines Marlow won the Varga Prize in Vienna. "
    "She was chosen by a jury chaired by the composer Teodor Halm. "
    "The prize launched her career as a soloist."
)
RESPONSE = "Ines Marlow won the Varga Prize in Vienna. Teodor Halm chaired the jury. Marlow plays the oboe."
REFERENCE_2 = "The Varga Prize is awarded every two years in Vienna."
LLM = {"decomposer": "llm", "judge": "llm", "embedder": "openai", "threshold": 0.5}
#: Keys of the result document that must be byte-identical for identical audits.
RESULT_KEYS = ("claims", "scores", "counts", "edit_script")


def submit(api: Any, response: str, references: list[str], config: dict[str, Any]) -> str:
    r = api.post("/audits", json={"response": response, "references": references, "config": config})
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


def wait(api: Any, audit_id: str, timeout: float = 90.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc = api.get(f"/audits/{audit_id}").json()
        if doc["status"] in ("done", "failed", "rejected"):
            return dict(doc)
        time.sleep(0.2)
    raise AssertionError(f"audit {audit_id} not finished after {timeout} s: {doc}")


def run(
    api: Any, response: str, references: list[str], config: dict[str, Any] = LLM, *, timeout: float = 90.0
) -> dict[str, Any]:
    return wait(api, submit(api, response, references, config), timeout)


def canonical(doc: dict[str, Any]) -> str:
    return json.dumps({k: doc[k] for k in RESULT_KEYS}, sort_keys=True, ensure_ascii=False)


def test_llm_audit_completes_repeat_is_free_and_cached_reference_costs_nothing(
    api: Any, clean: FakeOpenAI, db_engine: Any
) -> None:
    fake = clean
    doc = run(api, RESPONSE, [REFERENCE, REFERENCE_2, REFERENCE])
    assert doc["status"] == "done", doc["error"]
    # 3 distinct texts (the third reference repeats the first): at most one request each
    assert fake.count("decompose") == 3
    assert fake.count("judge") == 1  # one batched judge request per audit
    assert fake.count("embeddings") == 1  # every claim of the audit in one request
    usage = doc["usage"]
    assert usage["llm_calls"] == 5 and usage["failed_calls"] == 0 and usage["fallbacks"] == []
    assert usage["stages"]["decompose"]["llm_calls"] == 3
    assert usage["stages"]["decompose"]["cache_hits"] == 1  # the repeated reference
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    # spans point into the texts; the fake moved "In 2004," to the end, alignment found it
    refs = [c for c in doc["claims"] if c["role"] == "reference" and c["reference"] == 0]
    first = refs[0]
    assert first["text"].endswith("in 2004")
    assert 0 <= first["start"] < first["end"] <= len(REFERENCE)
    assert "Ines Marlow won the Varga Prize" in REFERENCE[first["start"] : first["end"]]
    # verdicts: the fake judge supports claims whose best evidence has cosine >= 0.5
    response_claims = [c for c in doc["claims"] if c["role"] == "response"]
    assert len(response_claims) == 3
    assert all("judge" in c for c in response_claims)
    assert all(s is None or s >= 0 for s in doc["scores"].values())
    # vectors of the endpoint's model, 1536 dims, beside (never mixed with) local ones
    with db_engine.connect() as conn:
        models = conn.execute(
            sqlalchemy.text("SELECT DISTINCT embedding_model, embedding_dim FROM claims WHERE audit_id = :a"),
            {"a": doc["id"]},
        ).all()
    assert models == [("text-embedding-3-small", 1536)]

    # the same audit again: zero new requests, byte-identical claims, verdicts and scores
    before = dict(fake.calls)
    again = run(api, RESPONSE, [REFERENCE, REFERENCE_2, REFERENCE])
    assert again["status"] == "done", again["error"]
    assert dict(fake.calls) == before
    assert again["usage"]["llm_calls"] == 0 and again["usage"]["cache_hits"] >= 4
    assert canonical(again) == canonical(doc)

    # a new response against a cached reference: one decomposition request (the response)
    third = run(api, "Ines Marlow won the Varga Prize in 2004.", [REFERENCE])
    assert third["status"] == "done", third["error"]
    assert fake.count("decompose") == 4
    assert fake.count("judge") == 2


def test_rate_limit_is_retried_then_done(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    fake.fail("decompose", "429")
    doc = run(api, RESPONSE, [REFERENCE])
    assert doc["status"] == "done", doc["error"]
    assert fake.count("decompose", "429") == 1
    assert fake.count("decompose", "ok") == 2  # response and reference, once each
    assert doc["usage"]["failed_calls"] == 1 and doc["usage"]["fallbacks"] == []


def test_timeout_is_retried_then_done(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    fake.fail("judge", "timeout")
    doc = run(api, RESPONSE, [REFERENCE])
    assert doc["status"] == "done", doc["error"]
    assert fake.count("judge") == 2  # the timed-out request and the retry
    assert doc["usage"]["stages"]["judge"]["failed_calls"] == 1
    assert doc["usage"]["stages"]["judge"]["llm_calls"] == 1


def test_server_error_exhausting_retries_fails_with_the_provider_error_under_fail(
    api: Any, clean: FakeOpenAI
) -> None:
    fake = clean
    fake.fail_always("decompose", "500")
    doc = run(api, RESPONSE, [REFERENCE], {**LLM, "llm_on_error": "fail"})
    assert doc["status"] == "failed"
    assert "HTTP 500" in doc["error"] and "upstream model crashed (fake)" in doc["error"]
    assert "STAGE_MAX_RUNS" not in doc["error"]  # the provider's error, not the crash-loop guard's
    assert doc["scores"] is None and doc["counts"] is None  # never a fabricated score
    # the first request of each run fails: 1 run + LLM_RETRIES retried runs (the default, 2)
    assert fake.count("decompose") == 1 + LLM_RETRIES
    assert doc["usage"]["failed_calls"] == 1 + LLM_RETRIES


def test_malformed_once_is_repaired(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    fake.fail("decompose", "malformed")
    doc = run(api, RESPONSE, [REFERENCE])
    assert doc["status"] == "done", doc["error"]
    assert fake.count("decompose") == 3  # 2 texts + 1 repair request
    assert doc["usage"]["fallbacks"] == []


def test_malformed_twice_falls_back_to_offline_decomposer(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    fake.fail("decompose", "malformed", "malformed")
    doc = run(api, RESPONSE, [REFERENCE])
    assert doc["status"] == "done", doc["error"]
    assert fake.count("decompose") == 3  # request + repair for the first text, 1 for the other
    [fallback] = doc["usage"]["fallbacks"]
    assert fallback["stage"] == "decompose" and "offline decomposer used" in fallback["reason"]
    assert all(s is None or s >= 0 for s in doc["scores"].values())


def test_refusal_falls_back_to_rule_verdicts(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    fake.fail("judge", "refusal", "refusal")
    doc = run(api, RESPONSE, [REFERENCE])
    assert doc["status"] == "done", doc["error"]
    assert fake.count("judge") == 2  # the request and the one repair attempt
    [fallback] = doc["usage"]["fallbacks"]
    assert fallback["stage"] == "judge" and "rule verdicts kept" in fallback["reason"]
    assert not any("judge" in c for c in doc["claims"])  # no judge record: rule verdicts stand


def test_rule_contradiction_is_not_overruled_by_the_judge(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    fake.judge_policy = "always_supported"
    doc = run(api, "Ines Marlow won the Varga Prize in Vienna in 2001.", [REFERENCE])
    assert doc["status"] == "done", doc["error"]
    [claim] = [c for c in doc["claims"] if c["role"] == "response"]
    assert claim["judge"]["verdict"] == "supported"
    assert claim["judge"]["rule_verdict"] == "contradicted"
    assert claim["verdict"] == "contradicted" and claim["judge"]["agrees"] is False
    assert "kept" in claim["reason"]


def test_malformed_embeddings_fall_back_to_local_model_for_the_whole_audit(
    api: Any, clean: FakeOpenAI, db_engine: Any
) -> None:
    fake = clean
    fake.fail("embeddings", "malformed", "malformed")
    doc = run(api, RESPONSE, [REFERENCE], {**LLM, "threshold": 0.75})
    assert doc["status"] == "done", doc["error"]
    assert [f["stage"] for f in doc["usage"]["fallbacks"]] == ["embed"]
    with db_engine.connect() as conn:
        models = conn.execute(
            sqlalchemy.text("SELECT DISTINCT embedding_model FROM claims WHERE audit_id = :a"),
            {"a": doc["id"]},
        ).scalars()
        assert list(models) == ["sentence-transformers/all-MiniLM-L6-v2"]


def test_usage_is_summed_per_day_in_the_view(api: Any, clean: FakeOpenAI, db_engine: Any) -> None:
    query = sqlalchemy.text(
        "SELECT stage, sum(calls) AS calls, sum(prompt_tokens) AS prompt_tokens, "
        "sum(completion_tokens) AS completion_tokens FROM llm_usage_daily GROUP BY stage"
    )

    def daily() -> dict[str, Any]:
        with db_engine.connect() as conn:
            return {r.stage: r for r in conn.execute(query).all()}

    before = daily()
    doc = run(api, RESPONSE, [REFERENCE])
    assert doc["status"] == "done", doc["error"]
    after = daily()
    for stage, usage in doc["usage"]["stages"].items():
        old = before.get(stage)
        for name, key in (("calls", "llm_calls"), ("prompt_tokens", "prompt_tokens")):
            grown = getattr(after[stage], name) - (getattr(old, name) if old else 0) if stage in after else 0
            assert grown == usage[key], (stage, name)
    assert doc["usage"]["llm_calls"] == 4  # 2 texts + 1 judge request + 1 embeddings request


def test_components_switch_independently(api: Any, clean: FakeOpenAI, db_engine: Any) -> None:
    fake = clean
    config = {"decomposer": "llm", "llm_model": "other-model"}  # judge none, embedder local
    doc = run(api, "Marlow plays the cello in Vienna.", [REFERENCE], config)
    assert doc["status"] == "done", doc["error"]
    assert (fake.count("decompose"), fake.count("judge"), fake.count("embeddings")) == (2, 0, 0)
    assert {body["model"] for _, _, body in fake.log} == {"other-model"}  # per-audit model name
    assert not any("judge" in c for c in doc["claims"])
    with db_engine.connect() as conn:
        models = conn.execute(
            sqlalchemy.text("SELECT DISTINCT embedding_model FROM claims WHERE audit_id = :a"),
            {"a": doc["id"]},
        ).scalars()
        assert list(models) == ["sentence-transformers/all-MiniLM-L6-v2"]
