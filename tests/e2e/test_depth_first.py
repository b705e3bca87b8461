"""Scheduling through the real queue: an audit that has started finishes before new audits start
(later stages have higher priority), and a single audit goes ahead of a bulk backlog.

Everything is enqueued before the one worker (concurrency 1) starts, so the order in which it
takes the messages is the broker's priority order, not a race. The order is read from the
stage timestamps Postgres stores (``decomposing_at``, ``finished_at``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from db.models import Audit
from tests.conftest import WorkerProcess, wait_for_status

pytestmark = [pytest.mark.services, pytest.mark.slow]

REFERENCE = "The Halvorsen Bridge opened to traffic on 12 May 1998. It spans 420 metres."


def _times(session_factory: Any, audit_id: str) -> Audit:
    with session_factory() as session:
        audit = session.get(Audit, uuid.UUID(audit_id))
        assert audit is not None
        return audit


def test_started_audits_finish_first_and_single_audits_jump_the_bulk_backlog(
    client: TestClient, session_factory: Any, start_worker: Callable[..., WorkerProcess]
) -> None:
    batch = [
        {
            "references": [REFERENCE],
            "response": f"The bridge opened in {1990 + i}. It spans {400 + i} metres.",
        }
        for i in range(4)
    ]
    resp = client.post("/audits/batch", json={"audits": batch})
    assert resp.status_code == 202, resp.text
    bulk_ids = [item["id"] for item in resp.json()["audits"]]
    single = client.post(
        "/audits", json={"references": [REFERENCE], "response": "The bridge opened in 1998."}
    )
    assert single.status_code == 202, single.text
    single_id = single.json()["id"]

    worker = start_worker(concurrency=1)
    try:
        for aid in [single_id, *bulk_ids]:
            assert wait_for_status(session_factory, uuid.UUID(aid), {"done", "failed"}, timeout=300) == "done"
    finally:
        worker.stop()

    first = _times(session_factory, single_id)
    bulk = [_times(session_factory, aid) for aid in bulk_ids]
    assert first.finished_at is not None
    # the single audit, sent after the batch, was taken first (decompose priority 5 < bulk 7)
    assert all(a.decomposing_at is not None and first.finished_at <= a.decomposing_at for a in bulk)
    # depth-first: each bulk audit finished before the next one started (breadth-first would run
    # all four decompositions before the first embedding)
    for earlier, later in zip(bulk, bulk[1:], strict=False):
        assert earlier.finished_at is not None and later.decomposing_at is not None
        assert earlier.finished_at <= later.decomposing_at, (earlier.id, later.id)
