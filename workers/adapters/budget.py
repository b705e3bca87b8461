"""The run of a stage as the LLM adapters see it: which run it is, and how much time is left.

One run of the decomposing stage (its LLM step: ``decompose``) or the matching stage (``judge``)
may spend ``LLM_STAGE_BUDGET_S[step]`` seconds of wall time, counted from the run's start
(``audits.<stage>_at``, set when the run took its lease). Each request waits at most what is left
of it, and never longer than ``LLM_TIMEOUT_S``; once it is spent no request is sent
(``BudgetSpentError``) and the audit's ``llm_on_error`` decides. ``runs`` is the run's number
(``audits.stage_runs``: 1 for the first), which ``workers.adapters.policy`` compares with
``LLM_RETRIES``. Outside a Celery stage (no audit) there is no budget and no retry to come.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from sqlalchemy.orm import Session, sessionmaker

from db import llm_repository as repo
from db.engine import session_scope
from service.llm_config import STAGE_OF_STEP
from workers.adapters.errors import BudgetSpentError

__all__ = ["StageRun", "stage_run"]


@dataclass(frozen=True, slots=True)
class StageRun:
    """``runs``: the run's number (None: not a stage run, no retry will follow); ``deadline``:
    ``time.monotonic()`` at which the step's budget is spent (None: no budget); ``budget_s``: the
    budget, seconds (for messages)."""

    runs: int | None = None
    deadline: float | None = None
    budget_s: float | None = None

    def retries_left(self, retries: int) -> bool:
        """True when a transient error may still be retried: this is run ``<= retries``."""
        return self.runs is not None and self.runs <= retries

    def timeout(self, ceiling: float) -> float:
        """Seconds the next request may wait: ``ceiling``, or less when the budget ends sooner.

        Raises ``BudgetSpentError`` when the budget is spent (less than 0.05 s left).
        """
        if self.deadline is None:
            return ceiling
        left = self.deadline - time.monotonic()
        if left < 0.05:
            raise BudgetSpentError(f"the stage's LLM time budget of {self.budget_s:g} s is spent")
        return min(ceiling, left)


def stage_run(
    factory: sessionmaker[Session], audit_id: uuid.UUID | None, step: str, budget_s: float | None
) -> StageRun:
    """The current run of the stage holding ``step`` of ``audit_id`` (one query), with its deadline.

    ``audit_id`` None, or an audit not in that stage (the adapters called outside the pipeline):
    no run number, and the budget counted from now.
    """
    found = None
    if audit_id is not None:
        with session_scope(factory) as s:
            found = repo.stage_run(s, audit_id, STAGE_OF_STEP[step])
    runs, elapsed = found if found is not None else (None, 0.0)
    if budget_s is None:
        return StageRun(runs=runs)
    return StageRun(runs=runs, deadline=time.monotonic() + budget_s - elapsed, budget_s=budget_s)
