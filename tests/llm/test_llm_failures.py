"""Failures of the LLM decomposer and judge through the queue, injected by the fake endpoint: the
response-format negotiation, bounded output, the ``llm_on_error`` policy and the crash-loop guard.

HTTP submit → Celery worker (own process, ``tests/llm/conftest.py``: ``LLM_TIMEOUT_S=1``,
``LLM_RETRIES`` 2, the default) → real ``openai`` client → fake endpoint → Postgres → poll.
Expected request counts come from the texts submitted (one decomposition request per distinct
text, one judge request per audit) and from ``LLM_RETRIES``: a transient error is retried in
``LLM_RETRIES`` more runs of the stage, so an endpoint that always fails is asked 1 + 2 times.
"""

from __future__ import annotations

import math
import uuid
from typing import Any

import pytest
import sqlalchemy

from db import repository as repo
from db.engine import session_scope
from tests.fakes.openai_server import FakeOpenAI
from tests.llm.conftest import LLM_RETRIES
from tests.llm.test_llm_pipeline import REFERENCE, RESPONSE, run

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: Decomposer and judge from the endpoint, embeddings local (the default).
CHAT = {"decomposer": "llm", "judge": "llm"}


def formats_row(db_engine: Any, base_url: str) -> Any:
    with db_engine.connect() as conn:
        return conn.execute(
            sqlalchemy.text("SELECT * FROM llm_formats WHERE base_url = :u AND model = 'fake-chat'"),
            {"u": base_url},
        ).first()


@pytest.fixture
def no_formats(db_engine: Any) -> None:
    """No remembered format: the negotiation starts again from LLM_RESPONSE_FORMAT (json_schema)."""
    with db_engine.begin() as conn:
        conn.execute(sqlalchemy.text("DELETE FROM llm_formats"))


def request_formats(fake: FakeOpenAI, kind: str) -> list[str]:
    return [(b.get("response_format") or {}).get("type", "prompted") for k, _, b in fake.log if k == kind]


def test_a_rejected_json_schema_moves_to_json_object_at_once_and_is_remembered(
    api: Any, clean: FakeOpenAI, no_formats: None, db_engine: Any
) -> None:
    fake = clean
    fake.accepted_formats = {"json_object", "prompted"}  # llama-cpp-python's server
    doc = run(api, RESPONSE, [REFERENCE], CHAT)
    assert doc["status"] == "done", doc["error"]
    # one rejected request, then every request in json_object (no Celery retry: the same run)
    assert request_formats(fake, "decompose") == ["json_schema", "json_object", "json_object"]
    assert request_formats(fake, "judge") == ["json_object"]
    usage = doc["usage"]
    assert usage["response_format"] == "json_object" and usage["fallbacks"] == []
    assert usage["failed_calls"] == 1 and usage["llm_calls"] == 3  # 2 texts + 1 judge request
    row = formats_row(db_engine, fake.base_url)
    assert row.response_format == "json_object" and "response_format json_schema rejected" in row.reason
    assert "Input should be 'text' or 'json_object'" in row.reason  # the server's own words
    metrics = api.get("/metrics").text
    assert (
        f'claimaudit_llm_response_format_negotiated_timestamp_seconds{{base_url="{fake.base_url}",'
        'model="fake-chat",response_format="json_object"}'
    ) in metrics

    fake.reset()
    fake.accepted_formats = {"json_object", "prompted"}
    again = run(api, "Marlow plays the cello.", [REFERENCE], CHAT)  # remembered: no rejection
    assert again["status"] == "done", again["error"]
    assert "format_rejected" not in {outcome for _, outcome, _ in fake.log}
    assert again["usage"]["failed_calls"] == 0


def test_a_server_rejecting_both_formats_gets_prompted_json(
    api: Any, clean: FakeOpenAI, no_formats: None, db_engine: Any
) -> None:
    fake = clean
    fake.accepted_formats = {"prompted"}
    fake.format_rejection = (400, {"error": {"message": "response_format is not supported", "type": "x"}})
    doc = run(api, RESPONSE, [REFERENCE], CHAT)
    assert doc["status"] == "done", doc["error"]
    assert request_formats(fake, "decompose") == ["json_schema", "json_object", "prompted", "prompted"]
    assert doc["usage"]["response_format"] == "prompted"
    assert formats_row(db_engine, fake.base_url).response_format == "prompted"


def test_a_4xx_that_does_not_name_the_format_is_no_rejection(
    api: Any, clean: FakeOpenAI, no_formats: None, db_engine: Any
) -> None:
    fake = clean
    fake.fail("judge", "400")  # "HTTP 400 (fake)": a bad request, not about response_format
    doc = run(api, RESPONSE, [REFERENCE], CHAT)
    assert doc["status"] == "done", doc["error"]
    assert request_formats(fake, "judge") == ["json_schema"]  # not sent again in another format
    [fallback] = doc["usage"]["fallbacks"]
    assert fallback["stage"] == "judge" and "PermanentLLMError" in fallback["reason"]
    assert formats_row(db_engine, fake.base_url).response_format == "json_schema"  # accepted before


def test_every_request_has_max_tokens_from_the_expected_answer(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    doc = run(api, RESPONSE, [REFERENCE], CHAT)
    assert doc["status"] == "done", doc["error"]
    bodies = {k: [b for kk, _, b in fake.log if kk == k] for k in ("decompose", "judge")}
    # decomposition: LLM_DECOMPOSE_TOKENS_PER_CHAR (1.5) per character of the text, at least 64
    expected = [math.ceil(1.5 * len(RESPONSE)), math.ceil(1.5 * len(REFERENCE))]
    assert sorted(b["max_tokens"] for b in bodies["decompose"]) == sorted(expected)
    # judge: LLM_JUDGE_TOKENS_PER_CLAIM (80) per claim sent (the response's 3 material claims)
    [judge] = bodies["judge"]
    assert judge["max_tokens"] == 80 * 3


def test_an_answer_cut_off_at_max_tokens_is_repaired_once_then_the_offline_verdicts_stand(
    api: Any, clean: FakeOpenAI
) -> None:
    fake = clean
    fake.fail("judge", "length", "length")
    doc = run(api, RESPONSE, [REFERENCE], CHAT)
    assert doc["status"] == "done", doc["error"]
    assert fake.count("judge") == 2  # the request and its one repair; not retried as transient
    [fallback] = doc["usage"]["fallbacks"]
    assert fallback["stage"] == "judge" and "finish_reason length" in fallback["reason"]
    responses = [c for c in doc["claims"] if c["role"] == "response"]
    assert fallback["scope"] == {"response_claims": [0, 1, 2]}
    assert all([m["stage"] for m in c["llm_fallbacks"]] == ["judge"] for c in responses)
    assert not any("judge" in c for c in responses)  # no judge record: the offline verdicts


def test_a_judge_that_times_out_leaves_the_offline_verdicts(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    offline = run(api, RESPONSE, [REFERENCE], {"decomposer": "llm"})  # the same claims, no judge
    fake.fail_always("judge", "timeout")
    doc = run(api, RESPONSE, [REFERENCE], CHAT)
    assert doc["status"] == "done", doc["error"]
    assert fake.count("judge") == 1 + LLM_RETRIES
    usage = doc["usage"]
    assert usage["stages"]["judge"]["failed_calls"] == 1 + LLM_RETRIES
    [fallback] = usage["fallbacks"]
    assert fallback["stage"] == "judge" and "timed out" in fallback["reason"]
    verdicts = [(c["text"], c["verdict"], c["reason"]) for c in doc["claims"] if c["role"] == "response"]
    expected = [(c["text"], c["verdict"], c["reason"]) for c in offline["claims"] if c["role"] == "response"]
    assert verdicts == expected
    assert doc["scores"] == offline["scores"]
    assert usage["llm_judged_share"] == 0.0


def test_a_decomposer_failing_for_good_decomposes_offline_and_marks_the_claims(
    api: Any, clean: FakeOpenAI
) -> None:
    fake = clean
    fake.fail_always("decompose", "500")
    doc = run(api, RESPONSE, [REFERENCE], {"decomposer": "llm"})
    assert doc["status"] == "done", doc["error"]
    # the first text: 1 + LLM_RETRIES runs; then the retries are spent and the second text's one
    # failing request falls back at once
    assert fake.count("decompose") == 1 + LLM_RETRIES + 1
    fallbacks = doc["usage"]["fallbacks"]
    assert [f["scope"] for f in fallbacks] == [
        {"role": "response", "position": 0},
        {"role": "reference", "position": 0},
    ]
    assert all("HTTP 500" in f["reason"] and "offline decomposer used" in f["reason"] for f in fallbacks)
    assert doc["claims"] and all(
        [m["stage"] for m in c["llm_fallbacks"]] == ["decompose"] for c in doc["claims"]
    )
    assert doc["effective_config"]["llm_on_error"] == "offline"


def test_under_fail_a_judge_error_fails_the_audit_with_the_provider_error(
    api: Any, clean: FakeOpenAI
) -> None:
    fake = clean
    fake.fail_always("judge", "503")
    doc = run(api, RESPONSE, [REFERENCE], {**CHAT, "llm_on_error": "fail"})
    assert doc["status"] == "failed"
    assert doc["error"].startswith("matching failed: LLMFailure: ")
    assert "HTTP 503: HTTP 503 (fake)" in doc["error"] and "llm_on_error is fail" in doc["error"]
    assert fake.count("judge") == 1 + LLM_RETRIES
    assert doc["scores"] is None


def test_the_crash_loop_guard_keeps_the_known_error(session_factory: Any, redis_url: str) -> None:
    from service.settings import get_settings
    from workers import tasks

    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s, repo.NewAudit(response="A.", references=["B."], request_sha256=uuid.uuid4().hex)
        )
        audit.stage_runs = get_settings().stage_max_runs  # the next run is one too many
    known = "decomposing failed: TransientLLMError: LLM endpoint error during chat completion: HTTP 500: boom"
    result = tasks.decompose.apply(args=[str(audit.id)], kwargs={"last_error": known})
    assert result.state == "IGNORED"
    with session_factory() as s:
        failed = repo.get_audit(s, audit.id)
    assert failed is not None and failed.status == "failed"
    assert failed.error is not None and failed.error.startswith(known + " (the stage started 6 times")
