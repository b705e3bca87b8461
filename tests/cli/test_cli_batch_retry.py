"""``claimaudit batch --retry-failed`` against the real API and one real worker: a failed audit
is submitted once more, and its line reaches the journal (``OUTPUT.partial``) when the retry
ends, as every other line does when its audit ends."""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from db.models import Audit

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: the worker sleeps 2 s in each decomposition, long enough for the test to fail an audit by hand
WORKER_ENV = {"CLAIMAUDIT_TEST_STAGE_DELAY": "decomposing:2"}


def _fail_the_first_decomposing_audit(session_factory: Any, failed: list[str], timeout_s: float = 60) -> None:
    """Mark the first audit seen in ``decomposing`` failed (the worker's fenced finish then changes
    nothing): an audit that fails once, whatever made it fail."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not failed:
        with session_factory() as s:
            one = select(Audit.id).where(Audit.status == "decomposing").limit(1).scalar_subquery()
            rows = s.execute(
                update(Audit)
                .where(Audit.id == one, Audit.status == "decomposing")
                .values(status="failed", error="failed by the test")
                .returning(Audit.id)
            ).all()
            s.commit()
        failed.extend(str(r.id) for r in rows)
        time.sleep(0.05)


def test_a_retried_failed_audit_reaches_the_journal_when_its_retry_ends(
    live_api: str, session_factory: Any, tmp_path: Path
) -> None:
    from claimaudit import Client
    from cli.batch import read_batch_input, run_batch

    path = tmp_path / "in.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(
                {
                    "id": f"r{k}",
                    "references": [f"The mill at Orsa was built in 17{k}0."],
                    "response": f"The mill at Orsa was built in 17{k}0.",
                }
            )
            for k in range(2)
        )
        + "\n",
        encoding="utf-8",
    )
    failed: list[str] = []
    failer = threading.Thread(target=_fail_the_first_decomposing_audit, args=(session_factory, failed))
    failer.start()
    journal: list[dict[str, Any]] = []
    with Client(live_api) as client:
        results = run_batch(client, read_batch_input(path), retry_failed=True, journal=journal.append)
    failer.join()
    with session_factory() as s:
        ended = dict(s.execute(select(Audit.id, Audit.status).where(Audit.id == uuid.UUID(failed[0]))).all())
    assert len(failed) == 1 and list(ended.values()) == ["failed"]  # one audit failed once
    assert [(r["id"], r["status"]) for r in results] == [("r0", "done"), ("r1", "done")]
    # every line in the journal once, with its final result: the retried one too
    assert sorted((j["id"], j["status"]) for j in journal) == [("r0", "done"), ("r1", "done")]
    assert failed[0] not in {j["audit_id"] for j in journal}  # the retry's audit, not the failed one
