"""Stage timestamps read from the database measure the stages: ``finished_at`` is when the
audit was marked done or failed, not when the transaction that did so began."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from sqlalchemy import func, select

from db import repository as repo
from db.engine import session_scope

pytestmark = [pytest.mark.services]

#: The work between the start of the scoring transaction and ``mark_done`` (seconds).
WORK_S = 0.3


def _queued_audit(session_factory: Any) -> uuid.UUID:
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s, repo.NewAudit(response="x", references=["y"], request_sha256=uuid.uuid4().hex)
        )
        return audit.id


@pytest.mark.parametrize("finish", ["done", "failed"])
def test_finished_at_is_the_end_of_the_last_stage(session_factory: Any, finish: str) -> None:
    aid = _queued_audit(session_factory)
    with session_scope(session_factory) as s:
        repo.start_stage(s, aid, "scoring")
    with session_scope(session_factory) as s:
        began = s.scalar(select(func.now()))  # the transaction's start, as now() sees it
        time.sleep(WORK_S)  # the stage's work
        if finish == "done":
            repo.mark_done(s, aid)
        else:
            repo.mark_failed(s, aid, "boom")
    with session_scope(session_factory) as s:
        audit = repo.get_audit(s, aid)
        assert audit is not None and audit.finished_at is not None and began is not None
        assert audit.status == finish
        assert (audit.finished_at - began).total_seconds() >= WORK_S
