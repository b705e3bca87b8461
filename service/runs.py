"""Run services: submit items, finish a run, compare two runs (glue: ``db.runs`` + ``claims.run_diff``).

Services never commit: the API request or the Celery task that calls them owns the transaction
and enqueues what they return only after its commit. Imported by the API (loads no engine code).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from claims.run_diff import ClaimChange, Gate, RunDiff, check_gate, check_unscored, diff_runs
from db import repository as repo
from db import run_outcomes
from db import runs as runs_repo
from db import suites as suites_repo
from db.run_models import Run

__all__ = [
    "AUDIT_FIELDS",
    "Finished",
    "request_sha256",
    "new_run_item",
    "sealed_run_refusal",
    "submit_items",
    "run_status",
    "run_document",
    "finish_run",
    "compare_runs",
    "DIFF_CHUNK",
    "diff_two_runs",
    "diff_document",
    "baseline_document",
]

#: Keys of an item that make up its audit (``id`` names the item).
AUDIT_FIELDS: tuple[str, ...] = ("response", "references", "question", "metadata", "config")


def request_sha256(body: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of an item's audit fields (what a resubmitted id must match)."""
    payload = {k: body.get(k) for k in AUDIT_FIELDS}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def new_run_item(item_id: str, body: Mapping[str, Any]) -> runs_repo.NewRunItem:
    """A validated item (``AUDIT_FIELDS``; ``config`` the keys the caller set) as a run item to store.

    The audit gets no idempotency key: idempotency is per (run, item id) in ``run_items``, so
    the same item in tonight's run is audited afresh and not taken from last night's.
    """
    sha = request_sha256(body)
    audit = repo.NewAudit(
        response=body["response"],
        references=list(body["references"]),
        request_sha256=sha,
        question=body.get("question"),
        metadata=body.get("metadata"),
        config=dict(body.get("config") or {}),
    )
    return runs_repo.NewRunItem(item_id=item_id, request_sha256=sha, audit=audit)


def _listed(one: str, many: str, ids: Sequence[str]) -> str:
    shown = ", ".join(repr(i) for i in ids[:3]) + (", …" if len(ids) > 3 else "")
    return f"{len(ids)} {one if len(ids) == 1 else many} ({shown})"


def sealed_run_refusal(
    session: Session,
    run: Run,
    items: Sequence[tuple[str, Mapping[str, Any]]],
    rejection_keys: Sequence[str],
) -> str | None:
    """Why a request may not add to the sealed ``run``, or None when it adds nothing.

    ``items``: ``(item id, validated body)``; ``rejection_keys``: the keys of the lines it would
    record as rejected (``db.runs.Rejection.key``). A sealed run (its last items came; finished
    or not) takes no new item, no other content for a known id and no new rejected line: such a
    request is refused whole, naming the run and what it would add, so that nothing of it is
    stored under an outcome already reported. A request that only repeats what the run holds
    (a resumed batch collecting its results) adds nothing and passes. Reads only."""
    if run.sealed_at is None:
        return None
    shas = [(item_id, request_sha256(body)) for item_id, body in items]
    added = runs_repo.additions_to(session, run, shas, rejection_keys)
    if not added:
        return None
    parts = [
        _listed(one, many, ids)
        for one, many, ids in (
            ("new item id", "new item ids", added.new_ids),
            ("known id with other content", "known ids with other content", added.changed_ids),
            ("rejected line it does not hold", "rejected lines it does not hold", added.new_keys),
        )
        if ids
    ]
    when = (run.finished_at or run.sealed_at).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    state = (
        f"finished at {when}" if run.finished_at is not None else f"sealed at {when} (its audits are running)"
    )
    return (
        f"run {run.suite}/{run.label} is {state} and takes nothing new; this request would add "
        f"{'; '.join(parts)}. Nothing was stored. Start a new run under another label, or resend "
        "exactly the run's items to collect their results"
    )


def submit_items(
    session: Session,
    *,
    suite: str,
    label: str,
    source: str,
    items: Sequence[tuple[str, Mapping[str, Any]]],
    final: bool = True,
    scheduled_for: datetime | None = None,
    tenant_id: str = "default",
) -> tuple[Run, bool, list[runs_repo.ItemResult]]:
    """Create (or find) the run ``suite``/``label`` and add ``(item id, validated body)`` items.

    Returns ``(run, created, results)``; the caller commits, then enqueues the audits of the
    results with ``created=True``. ``final`` seals the run (no more items): it finishes once
    every audit has ended. Resubmitting the same items is a no-op (idempotent per item id).
    """
    run, created = runs_repo.get_or_create_run(
        session, suite=suite, label=label, source=source, scheduled_for=scheduled_for, tenant_id=tenant_id
    )
    new = [new_run_item(item_id, body) for item_id, body in items]
    results = runs_repo.add_run_items(session, run, new, tenant_id=tenant_id)
    if final:
        runs_repo.seal_run(session, run.id)
    return run, created, results


def run_status(run: Run) -> str:
    """``open`` (items may come), ``running`` (sealed, audits pending), ``finished`` or ``failed``
    (could not start: ``error`` says why)."""
    if run.finished_at is not None:
        return "failed" if run.error else "finished"
    return "open" if run.sealed_at is None else "running"


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def run_document(run: Run, summary: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON of a run (``GET /runs``, ``GET /runs/{id}``, webhook payloads).

    ``summary``: the frozen one once finished, else the given live one (``db.runs.run_summary``).
    ``duration_s``: created → finished in seconds, null while it runs.
    """
    duration = None if run.finished_at is None else (run.finished_at - run.created_at).total_seconds()
    return {
        "id": str(run.id),
        "tenant_id": run.tenant_id,
        "suite": run.suite,
        "label": run.label,
        "source": run.source,
        "status": run_status(run),
        "error": run.error,
        "scheduled_for": _iso(run.scheduled_for),
        "created_at": _iso(run.created_at),
        "sealed_at": _iso(run.sealed_at),
        "finished_at": _iso(run.finished_at),
        "duration_s": duration,
        "summary": run.summary if run.summary is not None else summary,
    }


@dataclass(frozen=True)
class Finished:
    """A run this call finished, and the webhook delivery to send after the commit (or None)."""

    run: Run
    event: str
    delivery_id: int | None


def finish_run(session: Session, run_id: uuid.UUID) -> Finished | None:
    """Finish the run if it is sealed and every audit has ended; None otherwise (or already finished).

    A run whose suite has an earlier run still running waits for it (None now; the scheduler
    tick, which re-sends the finish of every complete run, finishes it after its predecessor).
    Freezes the summary with the comparison against the run's baseline (``baseline``: the suite's
    pinned run, else the last finished run whose gate held; ``previous_run_id``: its id;
    ``gate``: the suite's limits and the crossed ones) and, when the suite
    has a webhook, adds a pending delivery: event ``run.quality_drop`` when the gate was
    crossed, else ``run.finished``. The run's own limit (its unscored items,
    ``claims.run_diff.check_unscored``) is checked with or without a baseline.
    """
    run = runs_repo.get_run_any_tenant(session, run_id)
    if run is None or run.finished_at is not None or run.sealed_at is None:
        return None
    if runs_repo.earlier_running_run(session, run) is not None:
        return None  # finishes after its predecessor (the scheduler tick tries again)
    suite = suites_repo.get_suite(session, run.suite, tenant_id=run.tenant_id)
    gate = Gate.from_dict(suite.gate if suite is not None else None, check_range=False)
    summary: dict[str, Any] = runs_repo.run_summary(session, run.id)
    base, chosen = runs_repo.baseline_run(session, run)
    crossed = unscored_crossed(summary, gate)
    comparison = None
    if base is not None:
        diff = diff_two_runs(session, base, run)
        crossed += check_gate(diff, gate)
        comparison = _brief(diff)
    summary.update(
        previous_run_id=None if base is None else str(base.id),
        baseline=baseline_document(base, chosen),
        comparison=comparison,
        gate={"limits": gate.to_dict(), "crossed": crossed},
    )
    finished = runs_repo.finish_run_if_complete(session, run.id, summary)
    if finished is None:
        return None
    if base is not None:  # the rows of the view run_claim_flips
        runs_repo.record_claim_changes(session, finished, base, diff.changed_claims)
    event = "run.quality_drop" if crossed else "run.finished"
    delivery_id = None
    if suite is not None and suite.webhook_url:
        payload = {"event": event, "run": run_document(finished), "links": _links(finished)}
        delivery = suites_repo.create_delivery(
            session,
            run_id=finished.id,
            event=event,
            url=suite.webhook_url,
            payload=payload,
            tenant_id=finished.tenant_id,
        )
        delivery_id = delivery.id
    return Finished(finished, event, delivery_id)


def unscored_crossed(summary: dict[str, Any], gate: Gate) -> list[str]:
    """``check_unscored`` over a run summary (``db.runs.run_summary``'s shape: ``items`` and
    ``counts`` with ``rejected`` and ``failed``)."""
    counts = summary.get("counts") or {}
    return check_unscored(
        int(summary.get("items") or 0), int(counts.get("rejected") or 0), int(counts.get("failed") or 0), gate
    )


def _links(run: Run) -> dict[str, str]:
    return {"run": f"/runs/{run.id}", "compare": f"/runs/{run.id}/compare?with=baseline"}


def baseline_document(base: Run | None, chosen: str) -> dict[str, Any] | None:
    """Which run a comparison used: ``{run_id, label, chosen}`` (``chosen``: ``pinned``, ``last run
    whose gate held``, or ``given`` for a base the caller named), or None without one."""
    if base is None:
        return None
    return {"run_id": str(base.id), "label": base.label, "chosen": chosen}


#: Matched items whose claims a comparison reads and holds at once (:func:`diff_two_runs`).
DIFF_CHUNK = 200


def diff_two_runs(session: Session, base: Run, new: Run) -> RunDiff:
    """``claims.run_diff.diff_runs`` of the two runs, without holding either run's claims: the
    items' statuses, scores and counts are read whole (one row an item), then the response claims
    of ``DIFF_CHUNK`` matched items of each run at a time (new-run order), each chunk's claim
    changes kept and its claims let go. The same ``RunDiff`` as ``diff_runs`` of both runs read
    whole: claim pairing is per item, and every other field comes from the claimless items."""
    before = run_outcomes.run_outcomes(session, base.id, tenant_id=base.tenant_id, claims=False)
    after = run_outcomes.run_outcomes(session, new.id, tenant_id=new.tenant_id, claims=False)
    whole = diff_runs(before, after)
    by_id = {item.item_id: item for item in before}
    both = [(by_id[item.item_id], item) for item in after if item.item_id in by_id]
    changed: list[ClaimChange] = []
    added: list[ClaimChange] = []
    vanished: list[ClaimChange] = []
    for start in range(0, len(both), DIFF_CHUNK):
        chunk = both[start : start + DIFF_CHUNK]
        part = diff_runs(
            run_outcomes.with_claims(session, [a for a, _ in chunk]),
            run_outcomes.with_claims(session, [b for _, b in chunk]),
        )
        changed += part.changed_claims
        added += part.new_claims
        vanished += part.vanished_claims
    return replace(
        whole, changed_claims=tuple(changed), new_claims=tuple(added), vanished_claims=tuple(vanished)
    )


def _brief(diff: RunDiff) -> dict[str, Any]:
    return {
        "items_compared": diff.items_compared,
        "changed_claims": len(diff.changed_claims),
        "new_claims": len(diff.new_claims),
        "vanished_claims": len(diff.vanished_claims),
        "worse_items": [w.item_id for w in diff.worse_items],
        "shares": {k: dict(v) for k, v in diff.shares.items()},
    }


def compare_runs(
    session: Session, base: Run, new: Run, *, gate: Gate | None = None, chosen: str = "given"
) -> dict[str, Any]:
    """The comparison document of ``new`` against ``base`` (``GET /runs/{id}/compare``); ``chosen``
    says how ``base`` was chosen (``baseline``, see :func:`baseline_document`).

    ``gate`` default: the suite's gate (``Gate()`` defaults when the suite has none).
    """
    if gate is None:
        suite = suites_repo.get_suite(session, new.suite, tenant_id=new.tenant_id)
        gate = Gate.from_dict(suite.gate if suite is not None else None, check_range=False)
    diff = diff_two_runs(session, base, new)
    doc = diff_document(diff)
    summary = new.summary if new.finished_at is not None and new.summary else None
    crossed = unscored_crossed(summary or runs_repo.run_summary(session, new.id), gate)
    crossed += check_gate(diff, gate)
    doc.update(
        base=run_document(base),
        new=run_document(new),
        gate={"limits": gate.to_dict(), "crossed": crossed, "passed": not crossed},
        baseline=baseline_document(base, chosen),
    )
    return doc


def _claim_change(change: ClaimChange) -> dict[str, Any]:
    return {
        "item_id": change.item_id,
        "before": None if change.before is None else asdict(change.before),
        "after": None if change.after is None else asdict(change.after),
        "similarity": change.similarity,
    }


def diff_document(diff: RunDiff) -> dict[str, Any]:
    """``RunDiff`` as JSON (claims as {position, text, verdict, reason, evidence})."""
    return {
        "items_compared": diff.items_compared,
        "items_added": list(diff.items_added),
        "items_removed": list(diff.items_removed),
        "status_changed": [{"item_id": i, "before": a, "after": b} for i, a, b in diff.status_changed],
        "score_deltas": {k: dict(v) for k, v in diff.score_deltas.items()},
        "shares": {k: dict(v) for k, v in diff.shares.items()},
        "worse_items": [
            {"item_id": w.item_id, "before": dict(w.before), "after": dict(w.after)} for w in diff.worse_items
        ],
        "changed_claims": [_claim_change(c) for c in diff.changed_claims],
        "new_claims": [_claim_change(c) for c in diff.new_claims],
        "vanished_claims": [_claim_change(c) for c in diff.vanished_claims],
    }
