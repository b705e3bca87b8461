"""Scheduling through the real queue: an audit that has started finishes before new audits start
(later stages have higher priority), and a single audit goes ahead of a bulk backlog; a batch's
audits travel in bundles (2, 4, ... audits), and a bundle that has started finishes before the
next one starts.

Everything is enqueued before the one worker (concurrency 1) starts, so the order in which it
takes the messages is the broker's priority order, not a race. The order is read from the
stage timestamps Postgres stores (``decomposing_at``, ``finished_at``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from db.models import Audit
from tests.conftest import WorkerProcess, wait_for_status

pytestmark = [pytest.mark.services, pytest.mark.slow]

REFERENCE = "The Halvorsen Bridge opened to traffic on 12 May 1998. It spans 420 metres."


def _times(session_factory: Any, audit_id: str) -> Audit:
    with session_factory() as session:
        audit = session.get(Audit, uuid.UUID(audit_id))
        assert audit is not None
        return audit


def _run(
    client: TestClient, session_factory: Any, start_worker: Callable[..., WorkerProcess]
) -> tuple[Audit, list[Audit]]:
    """Four bulk audits, then one single audit, all enqueued before one worker (concurrency 1)
    starts; returns the single audit and the bulk ones, once all are done."""
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
    return _times(session_factory, single_id), [_times(session_factory, aid) for aid in bulk_ids]


def test_started_audits_finish_first_and_single_audits_jump_the_bulk_backlog(
    settings: Any,
    auth_headers: dict[str, str],
    session_factory: Any,
    start_worker: Callable[..., WorkerProcess],
) -> None:
    with TestClient(
        create_app(settings.model_copy(update={"bundle_size": 1})), headers=auth_headers
    ) as client:
        first, bulk = _run(client, session_factory, start_worker)
    assert first.finished_at is not None
    # the single audit, sent after the batch, was taken first (decompose priority 5 < bulk 7)
    assert all(a.decomposing_at is not None and first.finished_at <= a.decomposing_at for a in bulk)
    # depth-first: each bulk audit finished before the next one started (breadth-first would run
    # all four decompositions before the first embedding)
    for earlier, later in zip(bulk, bulk[1:], strict=False):
        assert earlier.finished_at is not None and later.decomposing_at is not None
        assert earlier.finished_at <= later.decomposing_at, (earlier.id, later.id)


def test_bundles_of_a_batch_run_depth_first_behind_single_audits(
    client: TestClient, session_factory: Any, start_worker: Callable[..., WorkerProcess]
) -> None:
    first, bulk = _run(client, session_factory, start_worker)
    assert first.finished_at is not None
    assert all(a.decomposing_at is not None and first.finished_at <= a.decomposing_at for a in bulk)
    # BUNDLE_SIZE 16 (the default): bundles grow 2, 4, ..., so four audits are two bundles of
    # two; one run takes the leases of a bundle's audits in one statement (the same start time)
    assert bulk[0].decomposing_at == bulk[1].decomposing_at
    assert bulk[2].decomposing_at == bulk[3].decomposing_at != bulk[0].decomposing_at
    # depth-first: the first bundle finished before the second started
    assert max(a.finished_at for a in bulk[:2] if a.finished_at) <= min(
        a.decomposing_at for a in bulk[2:] if a.decomposing_at
    )
