"""Secrets never reach logs or responses: after LLM-mode audits (one that succeeds, one whose
endpoint fails) and a search, the worker's log, the API's log and answers and the stored errors
hold no endpoint key, and the worker's log not the search query (the task's ``argsrepr``, which
Flower shows too, is redacted: ``tests/security/test_deployment.py``)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import sqlalchemy

from tests.fakes.openai_server import FakeOpenAI
from tests.llm.conftest import OPENAI_TEST_KEY
from tests.llm.test_llm_pipeline import LLM, run

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_no_secret_in_logs_responses_or_errors(
    api: Any, clean: FakeOpenAI, llm_worker: Any, db_engine: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    fresh = uuid.uuid4().hex[:8]  # texts no earlier test cached: the endpoint is really called
    ok = run(
        api, f"Ines Marlow won the Varga Prize {fresh} in 2001.", [f"In 2004 Ines Marlow won it {fresh}."]
    )
    assert ok["status"] == "done" and ok["usage"]["stages"]["decompose"]["llm_calls"] >= 1
    clean.fail_always("decompose", "500")
    # llm_on_error "fail": the endpoint's error is stored as the audit's error (the default,
    # "offline", would finish the audit offline and store the error only as a fallback reason)
    failed = run(
        api,
        f"Tomas Reyes founded Corvid Labs {fresh}.",
        [f"Corvid Labs {fresh} began in 2012."],
        {**LLM, "llm_on_error": "fail"},
    )
    assert failed["status"] == "failed" and failed["error"]
    query = "lighthouse-query-5f2b painted vermilion"
    search = api.get("/claims/search", params={"q": query, "k": 2, "model": "text-embedding-3-small"})
    assert search.status_code == 200

    answers = [str(ok), str(failed), search.text, api.get("/audits?limit=500").text]
    with db_engine.connect() as conn:
        stored = [str(v) for v in conn.execute(sqlalchemy.text(
            "SELECT error FROM audits WHERE error IS NOT NULL UNION ALL "
            "SELECT error FROM llm_usage WHERE error IS NOT NULL")).scalars()]  # fmt: skip
    worker_log = llm_worker.output()
    assert "Task claims.search" in worker_log  # the search went through this worker
    for where, text in {"worker log": worker_log, "API answers": "\n".join(answers),
                        "stored errors": "\n".join(stored), "API log": caplog.text}.items():  # fmt: skip
        assert OPENAI_TEST_KEY not in text, where
    assert query not in worker_log  # the search task's argsrepr hides the query
