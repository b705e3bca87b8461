"""Stage timestamps read from the database measure the stages: ``finished_at`` is when the
audit was marked done or failed, not when the transaction that did so began."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from sqlalchemy import func, select, update

from db import leases
from db import repository as repo
from db.engine import session_scope
from db.models import Audit

pytestmark = [pytest.mark.services]

#: The work between the start of the scoring transaction and the end of the stage (seconds).
WORK_S = 0.3


def _scoring_audit(session_factory: Any) -> tuple[uuid.UUID, uuid.UUID]:
    """An audit whose scoring stage runs (a run holds its lease): its id and the run's token."""
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s, repo.NewAudit(response="x", references=["y"], request_sha256=uuid.uuid4().hex)
        )
        aid = audit.id
    with session_scope(session_factory) as s:  # the earlier stages, by hand
        s.execute(update(Audit).where(Audit.id == aid).values(status="scoring", stage="scoring"))
    with session_scope(session_factory) as s:
        start = leases.begin_stage(s, aid, "scoring", lease_s=60)
        assert start.outcome is leases.Outcome.STARTED and start.token is not None
        return aid, start.token


@pytest.mark.parametrize(
    ("finish", "path"),
    [("done", "leases"), ("failed", "leases"), ("done", "repository"), ("failed", "repository")],
)
def test_finished_at_is_the_end_of_the_last_stage(session_factory: Any, finish: str, path: str) -> None:
    aid, token = _scoring_audit(session_factory)
    with session_scope(session_factory) as s:
        began = s.scalar(select(func.now()))  # the transaction's start, as now() sees it
        time.sleep(WORK_S)  # the stage's work
        if path == "leases":  # what the workers use: the fenced end of the stage
            if finish == "done":
                assert leases.finish_stage(s, aid, "scoring", token, pending_s=60)
            else:
                assert leases.fail_stage(s, aid, "scoring", "boom", token=token)
        elif finish == "done":
            repo.mark_done(s, aid)
        else:
            repo.mark_failed(s, aid, "boom")
    with session_scope(session_factory) as s:
        audit = repo.get_audit(s, aid)
        assert audit is not None and audit.finished_at is not None and began is not None
        assert audit.status == finish
        assert (audit.finished_at - began).total_seconds() >= WORK_S
