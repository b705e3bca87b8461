"""LLM usage belongs to the tenant that caused it: an audit's rows take the audit's tenant, a
search's embedding request is counted for the searching tenant (what its daily budget reads)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import sqlalchemy

from tests.conftest import make_key
from tests.fakes.openai_server import FakeOpenAI

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_search_usage_counts_for_the_searching_tenant(
    api: Any, clean: FakeOpenAI, session_factory: Any
) -> None:
    from db import auth_repository as keys_repo

    tenant = f"usage-{uuid.uuid4().hex[:8]}"
    key, _ = make_key(session_factory, tenant, ("audits:read",), requests_per_second=0)
    query = f"a query nobody embedded before {uuid.uuid4().hex}"
    resp = api.get(
        "/claims/search",
        params={"q": query, "k": 3, "model": "text-embedding-3-small"},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert resp.status_code == 200, resp.text
    assert clean.count("embeddings") == 1  # the query went to the endpoint once
    with session_factory() as s:
        rows = s.execute(
            sqlalchemy.text("SELECT audit_id, stage, prompt_tokens FROM llm_usage WHERE tenant_id = :t"),
            {"t": tenant},
        ).all()
        assert [(r[0], r[1]) for r in rows] == [(None, "embed")] and rows[0][2] > 0
        assert keys_repo.tokens_today(s, tenant) == rows[0][2]
