"""The start-up rehearsals run the real statements and store nothing: the worker's four stages
(``workers.rehearsal.rehearse_stages``) and the API's submission
(``api.audit_service.rehearse_submission``); docs/PERFORMANCE.md, "Warm start"."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from db.models import Audit, ClaimRow, Document, EmbeddingCacheRow

pytestmark = [pytest.mark.services]


def _counts(session_factory: Any) -> tuple[int, ...]:
    with session_factory() as s:
        tables = (Audit, Document, ClaimRow, EmbeddingCacheRow)
        return tuple(s.scalar(select(func.count()).select_from(t)) or 0 for t in tables)


@pytest.mark.slow  # loads the parser and the model in the test process
def test_the_stage_rehearsal_runs_every_stage_and_stores_nothing(session_factory: Any) -> None:
    from workers.rehearsal import rehearse_stages

    before = _counts(session_factory)
    # "done": the audit went through the four stages' leases, work and fenced finishes (the
    # status finish_stage sets after scoring, db.leases) before the rollback
    assert rehearse_stages(session_factory) == "done"
    assert _counts(session_factory) == before


def test_the_submission_rehearsal_stores_nothing(session_factory: Any, settings: Any) -> None:
    from api.audit_service import rehearse_submission

    before = _counts(session_factory)
    with session_factory() as session:
        # "queued": the stored audit's document as GET /audits/{id} builds it, before the rollback
        assert rehearse_submission(session, settings) == "queued"
    assert _counts(session_factory) == before
