"""The comparison of two runs (``GET /runs/{id}/compare``, a finished run's summary) reads the
claims of ``DIFF_CHUNK`` matched items at a time, never both runs' claims whole, and gives the
same ``RunDiff`` as ``claims.run_diff.diff_runs`` of both runs read whole.

Two runs of 5 items with the same ids, each audit run through the stage services in this process
(``harness.run_in_process``): the base run on the first 5 bodies of ``harness.workload(9)``, the
new run on bodies 4 to 8 (different responses, so claims change, vanish and appear).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import insert

from claims.run_diff import diff_runs
from db import run_outcomes
from db import runs as runs_repo
from db.engine import session_scope
from db.run_models import RunItem
from service import runs as run_service
from tests.faults import harness

pytestmark = [pytest.mark.services]

ITEMS = 5


@pytest.fixture(scope="module")
def two_runs(session_factory: Any) -> tuple[uuid.UUID, uuid.UUID]:
    bodies = harness.workload(ITEMS + 4)
    ids = []
    for label, start in (("base", 0), ("new", 4)):
        audits = [harness.run_in_process(session_factory, b) for b in bodies[start : start + ITEMS]]
        with session_scope(session_factory) as s:
            run, _ = runs_repo.get_or_create_run(
                s, suite=f"cmp-{uuid.uuid4().hex[:8]}", label=label, source="api"
            )
            rows = [
                {"run_id": run.id, "item_id": f"item-{p}", "tenant_id": "default",
                 "request_sha256": "0" * 64, "position": p, "audit_id": a}
                for p, a in enumerate(audits)
            ]  # fmt: skip
            s.execute(insert(RunItem), rows)
            ids.append(run.id)
    return ids[0], ids[1]


def test_chunked_comparison_equals_the_whole_one_and_reads_a_chunk_at_a_time(
    session_factory: Any, two_runs: tuple[uuid.UUID, uuid.UUID], monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[int] = []
    original = run_outcomes._response_claims  # noqa: SLF001 - the one query that reads claims

    def counting(session: Any, audit_ids: Any) -> Any:
        read.append(len(audit_ids))
        return original(session, audit_ids)

    with session_factory() as s:
        base = runs_repo.get_run_any_tenant(s, two_runs[0])
        new = runs_repo.get_run_any_tenant(s, two_runs[1])
        assert base is not None and new is not None
        whole = diff_runs(run_outcomes.run_outcomes(s, base.id), run_outcomes.run_outcomes(s, new.id))
        monkeypatch.setattr(run_service, "DIFF_CHUNK", 2)
        monkeypatch.setattr(run_outcomes, "_response_claims", counting)
        chunked = run_service.diff_two_runs(s, base, new)
    assert chunked == whole
    assert whole.items_compared == ITEMS
    assert whole.changed_claims or whole.new_claims or whole.vanished_claims  # the runs differ
    # 5 matched items in chunks of 2: 2, 2, 1 audits per claims query, one per run and chunk
    assert read == [2, 2, 2, 2, 1, 1]
