"""The LLM route against a real OpenAI-compatible server: llama-cpp-python's server with
SmolLM2-135M-Instruct (``tests/llm/local_server.py``), through the queue (HTTP → Celery worker in
its own process with the default settings → real ``openai`` client → the server → Postgres).

These tests check protocol and robustness: the requests made, the usage recorded, cache hits,
the negotiated response format, fallbacks, bounds on output and time. They never judge the small
model's claims or verdicts: whatever it answers, valid or not, the audit must end ``done`` and its
usage must say what happened. Expected numbers come from the texts sent and the defaults of
``service.llm_config`` (``max_tokens``: 1.5 per character decomposed, 80 per claim judged).

The server is llama-cpp-python 0.3.36: it refuses ``response_format`` ``json_schema`` with an HTTP
500 naming the field and accepts ``json_object`` (docs/LLM.md, "Servers").
"""

from __future__ import annotations

import contextlib
import math
import time
from typing import Any

import pytest
import sqlalchemy

from tests.llm.local_server import MODEL_ALIAS, LocalLLMServer
from tests.llm.test_llm_pipeline import run

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: Short texts: on a CPU the server generates a few tokens per second under json_object's grammar
#: (docs/LLM.md), and max_tokens follows the length of the text.
REFERENCE = "In 2004, the cellist Ines Marlow won the Varga Prize in Vienna. Teodor Halm chaired the jury."
RESPONSE = "Ines Marlow won the Varga Prize in 2001. Marlow plays the oboe."
CHAT = {"decomposer": "llm", "judge": "llm"}
CONFLICTS = ("contradicted", "qualification_dropped")
#: A request ends in an error only when the server refused the format, or (a slow machine) timed out.
REJECTED = "response_format json_schema rejected"


@pytest.fixture
def fresh(db_engine: Any, local_llm: LocalLLMServer) -> LocalLLMServer:
    """No remembered format and no cached answer of the local model: a fresh stack's state."""
    with db_engine.begin() as conn:
        conn.execute(sqlalchemy.text("DELETE FROM llm_formats"))
        conn.execute(sqlalchemy.text("DELETE FROM llm_cache WHERE model = :m"), {"m": MODEL_ALIAS})
    return local_llm


def judgeable(doc: dict[str, Any]) -> list[int]:
    """Response indices the judge may see: material claims whose verdict is not outside_scope."""
    responses = [c for c in doc["claims"] if c["role"] == "response"]
    return [i for i, c in enumerate(responses) if c["kind"] == "material" and c["verdict"] != "outside_scope"]


def sent_to_judge(doc: dict[str, Any]) -> list[int]:
    """Response indices the judge request carried: those with a judge record, or in the scope of
    the judge's fallback."""
    responses = [c for c in doc["claims"] if c["role"] == "response"]
    judged = [i for i, c in enumerate(responses) if c.get("judge")]
    scoped = [
        i for f in doc["usage"]["fallbacks"] if f["stage"] == "judge" for i in f["scope"]["response_claims"]
    ]
    return sorted(judged + scoped)


def assert_fallbacks_marked(doc: dict[str, Any]) -> None:
    """Every claim a fallback names says so, once per fallback, and no other claim does."""
    marked = [m for c in doc["claims"] for m in c.get("llm_fallbacks", [])]
    named = 0
    for f in doc["usage"]["fallbacks"]:
        scope = f["scope"]
        if f["stage"] == "decompose":
            named += sum(
                1
                for c in doc["claims"]
                if c["role"] == scope["role"]
                and (c["role"] == "response" or c["reference"] == scope["position"])
            )
        else:
            named += len(scope["response_claims"])
    assert len(marked) == named


def errors(db_engine: Any, audit_id: str) -> list[str]:
    """The errors of the audit's failed requests, in order."""
    with db_engine.connect() as conn:
        query = "SELECT error FROM llm_usage WHERE audit_id = :a AND failed_calls > 0 ORDER BY id"
        return [str(e) for e in conn.execute(sqlalchemy.text(query), {"a": audit_id}).scalars()]


def test_an_llm_audit_against_the_local_server_ends_done_with_the_negotiated_format(
    local_api: Any, fresh: LocalLLMServer, db_engine: Any
) -> None:
    doc = run(local_api, RESPONSE, [REFERENCE], CHAT, timeout=900)
    assert doc["status"] == "done", doc["error"]
    usage = doc["usage"]
    decompose, judge = usage["stages"]["decompose"], usage["stages"]["judge"]
    # json_schema refused once (HTTP 500 naming response_format) and at once replaced by
    # json_object, never retried; any other failed request is a timeout of a slow machine
    failed = errors(db_engine, doc["id"])
    assert REJECTED in failed[0] and "HTTP 500" in failed[0] and decompose["failed_calls"] >= 1
    assert sum(REJECTED in e for e in failed) == 1
    assert all("timed out" in e for e in failed[1:]), failed
    with db_engine.connect() as conn:
        row = conn.execute(
            sqlalchemy.text("SELECT * FROM llm_formats WHERE base_url = :u AND model = :m"),
            {"u": fresh.base_url, "m": MODEL_ALIAS},
        ).one()
    assert row.response_format == "json_object" and REJECTED in row.reason
    assert "Input should be 'text' or 'json_object'" in row.reason  # the server's own words
    assert f'base_url="{fresh.base_url}",model="{MODEL_ALIAS}",response_format="json_object"' in (
        local_api.get("/metrics").text
    )
    # LLM requests: one per text (and at most one repair each), one judge request when a claim
    # is judgeable; answered ones in json_object
    assert decompose["llm_calls"] + decompose["failed_calls"] >= 2 + 1
    assert (judge["llm_calls"] + judge["failed_calls"] >= 1) == bool(judgeable(doc))
    if usage["llm_calls"]:
        assert usage["response_format"] == "json_object"
    # bounded output: no answer longer than its max_tokens (a repair has the same)
    assert decompose["completion_tokens"] <= 2 * math.ceil(1.5 * len(RESPONSE)) + 2 * math.ceil(
        1.5 * len(REFERENCE)
    )
    assert judge["completion_tokens"] <= 2 * 80 * len(sent_to_judge(doc))
    assert_fallbacks_marked(doc)
    assert all(f["stage"] in ("decompose", "judge") for f in usage["fallbacks"])

    # the same audit again: every valid answer comes from the cache, the format stays remembered
    again = run(local_api, RESPONSE, [REFERENCE], CHAT, timeout=900)
    assert again["status"] == "done", again["error"]
    assert not any(REJECTED in e for e in errors(db_engine, again["id"]))
    fell_back = [f["stage"] for f in usage["fallbacks"]]
    stages = again["usage"]["stages"]
    assert stages["decompose"]["cache_hits"] == 2 - fell_back.count("decompose")
    if sent_to_judge(doc) and not fell_back:  # the same judge request, answered validly before
        assert stages["judge"]["cache_hits"] == 1 and stages["judge"]["llm_calls"] == 0


def test_the_cascade_sends_only_the_uncertain_claims(local_api: Any, fresh: LocalLLMServer) -> None:
    band = [0.0, 0.95]
    offline = run(local_api, RESPONSE, [REFERENCE], {"judge": "none"}, timeout=900)
    responses = [c for c in offline["claims"] if c["role"] == "response"]
    uncertain = [
        i
        for i in judgeable(offline)
        if responses[i]["verdict"] not in CONFLICTS
        and (responses[i]["confidence"] is None or band[0] <= responses[i]["confidence"] <= band[1])
    ]
    doc = run(local_api, RESPONSE, [REFERENCE], {"judge": "auto", "llm_band": band}, timeout=900)
    assert doc["status"] == "done", doc["error"]
    assert sent_to_judge(doc) == uncertain
    judge = doc["usage"]["stages"]["judge"]
    assert (judge["llm_calls"] + judge["failed_calls"] + judge["cache_hits"] >= 1) == bool(uncertain)
    assert doc["usage"]["stages"]["decompose"]["llm_calls"] == 0  # the offline decomposer
    assert_fallbacks_marked(doc)


def test_output_and_time_are_bounded(local_llm: LocalLLMServer, database_url: str, db_engine: Any) -> None:
    from db.engine import make_engine, make_session_factory
    from service.llm_config import LLMConfig
    from workers.adapters.budget import StageRun
    from workers.adapters.client import ChatRequest, Ledger, cached_chat, make_client
    from workers.adapters.errors import BudgetSpentError, MalformedOutputError, TransientLLMError
    from workers.adapters.prompts import Decomposition, decompose_messages

    cfg = LLMConfig(decomposer="llm", llm_model=MODEL_ALIAS, base_url=local_llm.base_url, api_key="k")
    engine = make_engine(database_url)
    ledger = Ledger(make_session_factory(engine), None)
    client = make_client(cfg)

    def ask(text: str, max_tokens: int, run: StageRun | None = None) -> Any:
        request = ChatRequest("decompose", "bounds-test", decompose_messages(text), Decomposition, max_tokens)
        return cached_chat(client, ledger, cfg, request, run)

    def usage_rows() -> int:
        with db_engine.connect() as conn:
            return int(conn.execute(sqlalchemy.text("SELECT count(*) FROM llm_usage")).scalar_one())

    # 8 tokens cannot hold the claims of REFERENCE: cut off (finish_reason length) twice, then given up
    with pytest.raises(MalformedOutputError, match="finish_reason length"):
        ask(REFERENCE, 8)
    with db_engine.connect() as conn:
        last = conn.execute(sqlalchemy.text("SELECT * FROM llm_usage ORDER BY id DESC LIMIT 1")).one()
    assert (last.calls, last.stage) == (2, "decompose") and last.completion_tokens <= 2 * 8
    # a budget of 0.5 s: the request waits at most that long, then nothing more is sent
    began = time.monotonic()
    run_ = StageRun(runs=1, deadline=began + 0.5, budget_s=0.5)
    # timed out, or answered in time (valid or not): either way within the budget
    with contextlib.suppress(TransientLLMError, MalformedOutputError):
        ask(RESPONSE + " A second sentence about the prize.", 200, run_)
    assert time.monotonic() - began < 0.5 + 1.0  # one second for the connection to close
    time.sleep(max(0.0, run_.deadline - time.monotonic()))
    before = usage_rows()
    with pytest.raises(BudgetSpentError):
        ask("Another text the server never sees.", 200, run_)
    assert usage_rows() == before  # nothing sent, nothing recorded
    engine.dispose()
