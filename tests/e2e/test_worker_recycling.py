"""Worker recycling: a pool process past ``WORKER_MAX_MEMORY_MB`` resident after a task is
replaced by a fresh one (Celery's ``worker_max_memory_per_child``), and no audit is lost or left
half done by it. A limit of 1 MB, which every process exceeds, recycles after every task."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import WorkerProcess

pytestmark = [pytest.mark.services, pytest.mark.slow]

REFERENCE = "The Halvorsen Bridge opened to traffic on 12 May 1998."


@pytest.fixture(scope="module")
def recycling_worker(start_worker: Callable[..., WorkerProcess]) -> Iterator[WorkerProcess]:
    worker = start_worker({"WORKER_MAX_MEMORY_MB": "1"}, concurrency=1)
    yield worker
    worker.stop()


def test_a_process_past_the_memory_limit_is_replaced_and_every_audit_finishes(
    recycling_worker: WorkerProcess, settings: Any, auth_headers: dict[str, str]
) -> None:
    from api.main import create_app

    responses = [f"The Halvorsen Bridge opened in {year}." for year in (1989, 1998, 2001)]
    with TestClient(create_app(settings), headers=auth_headers) as api:
        ids = []
        for response in responses:
            r = api.post("/audits", json={"response": response, "references": [REFERENCE]})
            assert r.status_code == 202, r.text
            ids.append(r.json()["id"])
        deadline = time.monotonic() + 600
        docs: dict[str, dict[str, Any]] = {}
        while time.monotonic() < deadline and len(docs) < len(ids):
            for audit_id in set(ids) - set(docs):
                doc = api.get(f"/audits/{audit_id}").json()
                if doc["status"] in {"done", "failed"}:
                    docs[audit_id] = doc
            time.sleep(0.5)
    assert [docs[i]["status"] for i in ids] == ["done"] * 3
    verdicts = [[c["verdict"] for c in docs[i]["claims"] if c["role"] == "response"] for i in ids]
    # 1998 is the reference's year, 1989 and 2001 are not (the README's first example)
    assert verdicts == [["contradicted"], ["supported"], ["contradicted"]]
    # with one pool process, tasks ran in several: each recycle starts ForkPoolWorker-<n+1>
    ran_in = set(re.findall(r"ForkPoolWorker-(\d+)\] Task \S+ succeeded", recycling_worker.output()))
    assert len(ran_in) >= 3, ran_in
