"""Celery tasks of bundle chains: one stage for every audit of a bundle submitted in bulk.

``POST /audits/batch`` and ``POST /runs`` send their offline audits in bundles
(``workers.pipeline.bundle_chain``, ``BUNDLE_SIZE``). A bundle step runs its stage through the
stage runner (``workers.stage_runner.run_stage``) that runs a single audit's, with the stage's
bundle steps (``workers.bundle_stages``): one lease token for the run, each audit fenced on its
own, the work that crosses audits done once (one parser pass, one model call) and every audit's
rows written in one transaction. An audit's own error fails that audit only; a transient error
retries the step; over the soft time limit each unfinished audit goes on in a chain of its own.
The step returns normally, so the chain carries the finished audits on at once; nothing
reaches the chain's error callback.

Bundling changes where the work happens, not the method: the rows are built by the functions of
the single-audit services. A claim's vector can differ in the 7th digit with the texts that
share its model batch (padding changes the float summation order), so a cosine that lies within
1e-7 of a threshold could in principle decide differently; no verdict differed on the bench
workload, the shared cases or the e2e tests (docs/PERFORMANCE.md, "Bundles").
"""

from __future__ import annotations

from celery import Task

from workers import services
from workers.bundle_stages import STAGES
from workers.database import get_session_factory
from workers.stage_runner import Work, run_stage
from workers.tasks import STAGE_OPTIONS, stage_limits, task


def _run(
    task: Task, stage: str, audit_ids: list[str], work: Work, previous: str | None, last: str | None
) -> None:
    """``stage`` for the audits of a bundle, with its bundle steps; ``work``: one audit's stage
    by the single-audit service (an audit that needs it, or each audit when the shared work fails)."""
    run_stage(task, stage, audit_ids, work, bundle=STAGES[stage], previous=previous, last_error=last)


@task(name="bundles.decompose", **STAGE_OPTIONS, **stage_limits("decomposing"))
def decompose(
    self: Task, audit_ids: list[str], previous: str | None = None, last_error: str | None = None
) -> None:
    """Decompose each audit of the bundle (one parser pass over all their documents, one write).

    Idempotent and fenced per audit, as ``audits.decompose``.
    """
    factory = get_session_factory()
    work: Work = lambda s, a: services.decompose_audit(s, a, factory=factory)  # noqa: E731
    _run(self, "decomposing", audit_ids, work, previous, last_error)


@task(name="bundles.embed", **STAGE_OPTIONS, **stage_limits("embedding"))
def embed(
    self: Task, audit_ids: list[str], previous: str | None = None, last_error: str | None = None
) -> None:
    """Embed the claims of each audit of the bundle (one model call through the shared embedding
    cache, one write). Idempotent and fenced per audit, as ``audits.embed``."""
    factory = get_session_factory()
    work: Work = lambda s, a: services.embed_audit(s, a, factory=factory)  # noqa: E731
    _run(self, "embedding", audit_ids, work, previous, last_error)


@task(name="bundles.match", **STAGE_OPTIONS, **stage_limits("matching"))
def match(
    self: Task, audit_ids: list[str], previous: str | None = None, last_error: str | None = None
) -> None:
    """Judge the response claims of each audit of the bundle (their rows read in one set of
    queries, one write). Idempotent and fenced per audit, as ``audits.match``."""
    factory = get_session_factory()
    work: Work = lambda s, a: services.match_audit(s, a, factory=factory)  # noqa: E731
    _run(self, "matching", audit_ids, work, previous, last_error)


@task(name="bundles.score", **STAGE_OPTIONS, **stage_limits("scoring"))
def score(
    self: Task, audit_ids: list[str], previous: str | None = None, last_error: str | None = None
) -> None:
    """Score each audit of the bundle and mark it done (one read, one write). Idempotent and
    fenced per audit, as ``audits.score``."""
    _run(self, "scoring", audit_ids, services.score_audit_stage, previous, last_error)


__all__ = ["decompose", "embed", "match", "score"]
