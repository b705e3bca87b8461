"""SQL of runs and their items. Never commits: the request or the task owns the transaction.

A run is one execution of a suite (``runs``); its items (``run_items``) map the caller's item id
to the audit it became. Every function takes ``tenant_id`` (keyword, default ``"default"``) and
reads or writes that tenant's rows only; the scheduler's cross-tenant reads say so.

The summary of a run (``run_summary``) is what ``GET /runs/{id}`` shows and what is frozen into
``runs.summary`` when the run finishes::

    {"items": int, "counts": {"queued"|...|"done"|"failed"|"rejected"|"pending": int},
     "scores": {"claim_precision"|"claim_recall"|"claim_f1"|"claim_overlap": mean or null},
     "verdicts": {"supported"|...|"outside_scope": int},
     "response_claims": int,                       # material response claims of the done audits
     "shares": {"supported"|...|"unsupported": share of response_claims in [0, 1] or null}}

A mean over no scored audit, and a share of zero response claims, is null (never NaN).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import delete, exists, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session, aliased

from claims.run_diff import ClaimChange
from db import repository as repo
from db.analyst_models import RunClaimChange
from db.models import (
    TERMINAL_STATUSES,
    VERDICTS,
    Audit,
    ScoreRow,
)
from db.run_models import Run, RunBaseline, RunItem, RunRejection

__all__ = [
    "SUMMARY_SCORES",
    "SUMMARY_VERDICTS",
    "NewRunItem",
    "ItemResult",
    "get_or_create_run",
    "get_run",
    "find_run",
    "list_runs",
    "add_run_items",
    "seal_run",
    "fail_run",
    "run_summary",
    "previous_run",
    "record_claim_changes",
    "earlier_running_run",
    "finish_run_if_complete",
    "complete_runs_for_audits",
    "unfinished_complete_runs",
    "audit_verdict_counts_of",
    "unsealed_scheduled_runs",
    "get_run_any_tenant",
    "item_ids_of",
    "Rejection",
    "add_rejections",
    "list_rejections",
    "Additions",
    "additions_to",
    "pin_baseline",
    "baseline_run",
    "BASELINE_PINNED",
    "BASELINE_GATE_HELD",
]

#: How a run's baseline was chosen (``baseline_run``).
BASELINE_PINNED = "pinned"
BASELINE_GATE_HELD = "last run whose gate held"
#: Longest reason of a rejected line that is stored, in characters.
REASON_CHARS = 2000

#: Scores averaged over a run's done audits (``summary["scores"]``).
SUMMARY_SCORES: tuple[str, ...] = ("claim_precision", "claim_recall", "claim_f1", "claim_overlap")
#: Verdict kinds counted over a run's done audits (``summary["verdicts"]``).
SUMMARY_VERDICTS: tuple[str, ...] = VERDICTS


@dataclass(frozen=True, slots=True)
class NewRunItem:
    """One item of a run: the caller's id, the SHA-256 of its canonical request, the audit to create."""

    item_id: str
    request_sha256: str
    audit: repo.NewAudit


@dataclass(frozen=True, slots=True)
class ItemResult:
    """What became of one submitted item: its audit (new or stored before), or why it was refused."""

    item_id: str
    audit_id: uuid.UUID | None
    status: str
    created: bool
    error: str | None = None


# --------------------------------------------------------------------------- runs


def get_or_create_run(
    session: Session,
    *,
    suite: str,
    label: str,
    source: str,
    scheduled_for: datetime | None = None,
    tenant_id: str = "default",
) -> tuple[Run, bool]:
    """The run ``(tenant_id, suite, label)``, inserted when missing; ``(run, created)``.

    ``INSERT ... ON CONFLICT DO NOTHING`` on the natural key, so a concurrent or repeated call
    (a resumed batch, a second scheduler) gets the stored run with ``created=False``.
    """
    stmt = (
        pg_insert(Run)
        .values(
            id=uuid.uuid4(),
            tenant_id=tenant_id,
            suite=suite,
            label=label,
            source=source,
            scheduled_for=scheduled_for,
        )
        .on_conflict_do_nothing(index_elements=[Run.tenant_id, Run.suite, Run.label])
        .returning(Run.id)
    )
    inserted = session.execute(stmt).scalar_one_or_none()
    run = find_run(session, suite, label, tenant_id=tenant_id)
    if run is None:  # pragma: no cover - deleted between the two statements
        raise RuntimeError(f"run {suite}/{label} vanished")
    return run, inserted is not None


def get_run(session: Session, run_id: uuid.UUID, *, tenant_id: str = "default") -> Run | None:
    """The run, or None (also when it belongs to another tenant)."""
    run = session.get(Run, run_id, populate_existing=True)
    return run if run is not None and run.tenant_id == tenant_id else None


def find_run(session: Session, suite: str, label: str, *, tenant_id: str = "default") -> Run | None:
    """The run of ``suite`` labelled ``label``, or None."""
    return session.scalars(
        select(Run)
        .where(Run.tenant_id == tenant_id, Run.suite == suite, Run.label == label)
        .execution_options(populate_existing=True)
    ).one_or_none()


def list_runs(
    session: Session,
    *,
    suite: str | None = None,
    label: str | None = None,
    limit: int = 50,
    offset: int = 0,
    tenant_id: str = "default",
) -> tuple[list[Run], int]:
    """Runs newest first (optionally of one suite, and one label), and their total."""
    conds = [Run.tenant_id == tenant_id]
    if suite is not None:
        conds.append(Run.suite == suite)
    if label is not None:
        conds.append(Run.label == label)
    total = session.scalar(select(func.count()).select_from(Run).where(*conds)) or 0
    rows = session.scalars(
        select(Run).where(*conds).order_by(Run.created_at.desc(), Run.id).limit(limit).offset(offset)
    ).all()
    return list(rows), int(total)


def add_run_items(
    session: Session, run: Run, items: Sequence[NewRunItem], *, tenant_id: str = "default"
) -> list[ItemResult]:
    """Add items to an unsealed run: one audit per new item id; a known id returns its audit.

    Idempotent per (run, item id): the item row is inserted first (``ON CONFLICT DO NOTHING``),
    and only an inserted row gets a new audit, so a resumed or concurrent submission never
    audits an item twice. A known id with another ``request_sha256`` is refused (status
    ``rejected``, error names the id), and so is every new id once the run is sealed (a known id
    still returns its audit, so a finished batch can be resumed). Returns one result per item,
    in order.
    """
    out: list[ItemResult] = []
    position = session.scalar(select(func.count()).where(RunItem.run_id == run.id)) or 0
    for item in items:
        if run.sealed_at is not None:  # a resubmitted item gets its audit, a new one is refused
            known = session.get(RunItem, (run.id, item.item_id)) is not None
            sealed = f"run {run.suite}/{run.label} is sealed: no items can be added"
            out.append(_existing(session, run, item) if known else _refused(item, sealed))
            continue
        stmt = (
            pg_insert(RunItem)
            .values(
                run_id=run.id,
                item_id=item.item_id,
                tenant_id=tenant_id,
                request_sha256=item.request_sha256,
                position=position,
            )
            .on_conflict_do_nothing(index_elements=[RunItem.run_id, RunItem.item_id])
            .returning(RunItem.item_id)
        )
        if session.execute(stmt).scalar_one_or_none() is None:
            out.append(_existing(session, run, item))
            continue
        position += 1
        # the run's tenant owns its audits (the item was built without one: service.runs.new_run_item)
        audit, _ = repo.create_audit(session, replace(item.audit, tenant_id=tenant_id))
        session.execute(
            update(RunItem)
            .where(RunItem.run_id == run.id, RunItem.item_id == item.item_id)
            .values(audit_id=audit.id)
        )
        out.append(ItemResult(item.item_id, audit.id, audit.status, True))
    return out


def _refused(item: NewRunItem, error: str) -> ItemResult:
    return ItemResult(item.item_id, None, "rejected", False, error)


def _existing(session: Session, run: Run, item: NewRunItem) -> ItemResult:
    row = session.get(RunItem, (run.id, item.item_id))
    assert row is not None
    if row.request_sha256 != item.request_sha256:
        return _refused(item, f"item {item.item_id!r} is already in this run with other content")
    audit = None if row.audit_id is None else repo.get_audit(session, row.audit_id)
    status = audit.status if audit is not None else "rejected"
    return ItemResult(item.item_id, row.audit_id, status, False)


def seal_run(session: Session, run_id: uuid.UUID) -> None:
    """No more items: ``sealed_at = now()`` (kept when already sealed)."""
    session.execute(update(Run).where(Run.id == run_id, Run.sealed_at.is_(None)).values(sealed_at=func.now()))


def fail_run(session: Session, run_id: uuid.UUID, error: str) -> None:
    """A run that could not start (unreadable source): sealed with ``error``; it finishes with no items."""
    session.execute(
        update(Run)
        .where(Run.id == run_id, Run.finished_at.is_(None))
        .values(error=error[:4000], sealed_at=func.coalesce(Run.sealed_at, func.now()))
    )


# --------------------------------------------------------------------------- summary


def run_summary(session: Session, run_id: uuid.UUID) -> dict[str, Any]:
    """The run's live summary (shape in the module docstring), in two aggregate queries; a rejected
    input line (``run_rejections``) counts as an item and in ``counts.rejected``."""
    terminal = Audit.status.in_(TERMINAL_STATUSES)
    columns = [
        func.count(RunItem.item_id).label("items"),
        func.count(RunItem.item_id).filter(~terminal).label("pending"),
        func.coalesce(func.sum(ScoreRow.response_claims), 0).label("response_claims"),
        *[func.count(RunItem.item_id).filter(Audit.status == s).label(s) for s in sorted(TERMINAL_STATUSES)],
        *[func.avg(getattr(ScoreRow, name)).label(name) for name in SUMMARY_SCORES],
        *[func.coalesce(func.sum(getattr(ScoreRow, v)), 0).label(f"v_{v}") for v in SUMMARY_VERDICTS],
    ]
    row = (
        session.execute(
            select(*columns)
            .select_from(RunItem)
            .outerjoin(Audit, Audit.id == RunItem.audit_id)
            .outerjoin(ScoreRow, (ScoreRow.audit_id == Audit.id) & (Audit.status == "done"))
            .where(RunItem.run_id == run_id)
        )
        .one()
        ._mapping
    )
    material = int(row["response_claims"])
    verdicts = {v: int(row[f"v_{v}"]) for v in SUMMARY_VERDICTS}
    rejected = session.scalar(select(func.count()).where(RunRejection.run_id == run_id)) or 0
    counts = {**{s: int(row[s]) for s in sorted(TERMINAL_STATUSES)}, "pending": int(row["pending"])}
    counts["rejected"] += int(rejected)
    return {
        "items": int(row["items"]) + int(rejected),
        "counts": counts,
        "scores": {n: None if row[n] is None else float(row[n]) for n in SUMMARY_SCORES},
        "verdicts": verdicts,
        "response_claims": material,
        "shares": {
            v: (verdicts[v] / material if material else None)
            for v in SUMMARY_VERDICTS
            if v != "outside_scope"
        },
    }


# --------------------------------------------------------------------------- finishing


def previous_run(session: Session, run: Run, *conditions: Any) -> Run | None:
    """The newest finished run of the same tenant and suite created before ``run`` (that also
    meets ``conditions``), or None."""
    return session.scalars(
        select(Run)
        .where(
            Run.tenant_id == run.tenant_id,
            Run.suite == run.suite,
            Run.id != run.id,
            Run.finished_at.is_not(None),
            Run.created_at < run.created_at,
            *conditions,
        )
        .order_by(Run.created_at.desc())
        .limit(1)
    ).one_or_none()


def earlier_running_run(session: Session, run: Run) -> Run | None:
    """A sealed, unfinished run of the same tenant and suite created before ``run`` (or None):
    runs finish in creation order, so each is compared with the run before it."""
    return session.scalars(
        select(Run)
        .where(
            Run.tenant_id == run.tenant_id,
            Run.suite == run.suite,
            Run.id != run.id,
            Run.created_at < run.created_at,
            Run.sealed_at.is_not(None),
            Run.finished_at.is_(None),
        )
        .limit(1)
    ).one_or_none()


def _pending_items(run_id: Any) -> Any:
    """EXISTS an audit of the run that has not ended (aliases: never correlated with an outer run_items)."""
    item, audit = aliased(RunItem), aliased(Audit)
    return exists().where(
        item.run_id == run_id,
        item.audit_id == audit.id,
        audit.status.not_in(TERMINAL_STATUSES),
    )


def record_claim_changes(session: Session, run: Run, previous: Run, changes: Sequence[ClaimChange]) -> int:
    """Store ``changes`` (``claims.run_diff.RunDiff.changed_claims`` of ``run`` against
    ``previous``: paired claims whose verdict differs) in ``run_claim_changes``, the rows of the
    view ``run_claim_flips``; replaces the run's earlier rows. Returns the rows stored."""
    session.execute(delete(RunClaimChange).where(RunClaimChange.run_id == run.id))
    rows = [
        {
            "run_id": run.id,
            "item_id": c.item_id,
            "position": c.after.position,
            "tenant_id": run.tenant_id,
            "previous_run_id": previous.id,
            "previous_position": c.before.position,
            "similarity": 1.0 if c.similarity is None else float(c.similarity),
        }
        for c in changes
        if c.before is not None and c.after is not None
    ]
    if rows:
        session.execute(insert(RunClaimChange), rows)
    return len(rows)


def finish_run_if_complete(session: Session, run_id: uuid.UUID, summary: dict[str, Any]) -> Run | None:
    """Mark the run finished with ``summary`` when it is sealed, unfinished and has no pending audit.

    One conditional ``UPDATE ... RETURNING``: of two concurrent callers exactly one gets the run
    back (the other waits for the row lock, re-checks ``finished_at IS NULL`` and gets None).
    """
    stmt = (
        update(Run)
        .where(
            Run.id == run_id,
            Run.finished_at.is_(None),
            Run.sealed_at.is_not(None),
            ~_pending_items(Run.id),
        )
        .values(finished_at=func.now(), summary=summary)
        .returning(Run)
        .execution_options(synchronize_session=False, populate_existing=True)
    )
    return session.scalars(stmt).one_or_none()


def complete_runs_for_audits(session: Session, audit_ids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
    """The runs of ``audit_ids`` that are now ready to finish (sealed, unfinished, nothing pending),
    each once. Called after audits end, so only a run's last audit triggers its finish."""
    if not audit_ids:
        return []
    stmt = (
        select(Run.id)
        .join(RunItem, RunItem.run_id == Run.id)
        .where(
            RunItem.audit_id.in_(list(audit_ids)),
            Run.finished_at.is_(None),
            Run.sealed_at.is_not(None),
            ~_pending_items(Run.id),
        )
        .distinct()
    )
    return list(session.scalars(stmt).all())


def unfinished_complete_runs(session: Session, *, limit: int = 100) -> list[uuid.UUID]:
    """Every tenant's runs that are ready to finish but not finished (a lost finish message)."""
    stmt = (
        select(Run.id)
        .where(Run.finished_at.is_(None), Run.sealed_at.is_not(None), ~_pending_items(Run.id))
        .order_by(Run.created_at)
        .limit(limit)
    )
    return list(session.scalars(stmt).all())


def audit_verdict_counts_of(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[str, int]:
    """The verdict counts of scored audits added up (``SUMMARY_VERDICTS`` keys; 0 before scoring)."""
    columns = [func.coalesce(func.sum(getattr(ScoreRow, v)), 0) for v in SUMMARY_VERDICTS]
    row = session.execute(select(*columns).where(ScoreRow.audit_id.in_(list(audit_ids)))).one()
    return {v: int(n) for v, n in zip(SUMMARY_VERDICTS, row, strict=True)}


def tenant_verdict_counts(session: Session, tenant_id: str) -> dict[str, int]:
    """The verdict counts of the tenant's scored audits added up (``SUMMARY_VERDICTS`` keys; for
    a tenant's ``/metrics``)."""
    columns = [func.coalesce(func.sum(getattr(ScoreRow, v)), 0) for v in SUMMARY_VERDICTS]
    row = session.execute(select(*columns).where(ScoreRow.tenant_id == tenant_id)).one()
    return {v: int(n) for v, n in zip(SUMMARY_VERDICTS, row, strict=True)}


def unsealed_scheduled_runs(session: Session, *, older_than_s: float, limit: int = 100) -> list[uuid.UUID]:
    """Every tenant's scheduled runs still unsealed ``older_than_s`` after creation (their start
    message was lost: ``runs.start`` is sent again; it is idempotent)."""
    from datetime import timedelta

    stmt = (
        select(Run.id)
        .where(
            Run.scheduled_for.is_not(None),
            Run.sealed_at.is_(None),
            Run.created_at < func.now() - timedelta(seconds=older_than_s),
        )
        .order_by(Run.created_at)
        .limit(limit)
    )
    return list(session.scalars(stmt).all())


def get_run_any_tenant(session: Session, run_id: uuid.UUID) -> Run | None:
    """The run whatever its tenant (the workers' read: a task gets only the id)."""
    return session.get(Run, run_id, populate_existing=True)


def item_ids_of(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The run item id (the batch line's id) of each of ``audit_ids`` that is a run's item."""
    if not audit_ids:
        return {}
    stmt = select(RunItem.audit_id, RunItem.item_id).where(RunItem.audit_id.in_(list(audit_ids)))
    return {aid: item for aid, item in session.execute(stmt).all() if aid is not None}


# --------------------------------------------------------------------------- rejected lines


@dataclass(frozen=True, slots=True)
class Rejection:
    """An input line of a run that was not audited: its key (the item id, else ``line N``), its
    1-based line number (None when unknown), item id (None when it had none) and the reason."""

    key: str
    line: int | None
    item_id: str | None
    reason: str


def _as_text(value: str) -> str:
    """``value`` as Postgres text: a rejection quotes the input it rejects, which may hold what
    text cannot (a NUL character, written ``\\u0000``; a lone surrogate, written as its escape)."""
    return value.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")


def add_rejections(session: Session, run: Run, rejections: Sequence[Rejection], *, tenant_id: str) -> int:
    """Record ``rejections`` in an unfinished run, once per key (``ON CONFLICT DO NOTHING``: a
    resumed batch sends them again); the number recorded now. Keys, item ids and reasons are
    stored as text (``_as_text``)."""
    if not rejections or run.finished_at is not None:
        return 0
    rows = [
        {
            "run_id": run.id,
            "tenant_id": tenant_id,
            "key": _as_text(r.key)[:1000],
            "line": r.line,
            "item_id": None if r.item_id is None else _as_text(r.item_id),
            "reason": _as_text(r.reason)[:REASON_CHARS],
        }
        for r in {_as_text(r.key): r for r in rejections}.values()
    ]
    stmt = (
        pg_insert(RunRejection)
        .values(rows)
        .on_conflict_do_nothing(index_elements=[RunRejection.run_id, RunRejection.key])
        .returning(RunRejection.id)
    )
    return len(session.execute(stmt).all())


@dataclass(frozen=True)
class Additions:
    """What a request would add to a stored run: ``new_ids`` (item ids not in it), ``changed_ids``
    (ids in it with another ``request_sha256``), ``new_keys`` (rejection keys not recorded)."""

    new_ids: tuple[str, ...]
    changed_ids: tuple[str, ...]
    new_keys: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.new_ids or self.changed_ids or self.new_keys)


def additions_to(
    session: Session, run: Run, items: Sequence[tuple[str, str]], rejection_keys: Sequence[str]
) -> Additions:
    """Which of ``items`` (``(item id, request_sha256)``) and ``rejection_keys`` the run does not
    hold yet (keys compared as ``add_rejections`` stores them: their first 1,000 characters).
    A key that is an item id of the run is no addition (a resubmitted item the request refused
    keeps its audit). Two queries; reads only."""
    ids = list(dict.fromkeys(item_id for item_id, _ in items))
    keys = list(dict.fromkeys(k[:1000] for k in rejection_keys))
    stored: dict[str, str] = {}
    if ids or keys:
        rows = session.execute(
            select(RunItem.item_id, RunItem.request_sha256).where(
                RunItem.run_id == run.id, RunItem.item_id.in_([*ids, *keys])
            )
        ).all()
        stored = {str(r[0]): str(r[1]) for r in rows}
    known: set[str] = set()
    if keys:
        query = select(RunRejection.key).where(RunRejection.run_id == run.id, RunRejection.key.in_(keys))
        known = set(session.scalars(query).all())
    return Additions(
        new_ids=tuple(i for i in ids if i not in stored),
        changed_ids=tuple(dict.fromkeys(i for i, sha in items if i in stored and stored[i] != sha)),
        # a refusal of an item the run holds adds nothing: the item keeps its audit
        new_keys=tuple(k for k in keys if k not in known and k not in stored),
    )


def list_rejections(
    session: Session, run_id: uuid.UUID, *, tenant_id: str = "default"
) -> list[dict[str, Any]]:
    """The run's rejected lines by line number: ``{line, item_id, reason}``."""
    rows = session.scalars(
        select(RunRejection)
        .where(RunRejection.run_id == run_id, RunRejection.tenant_id == tenant_id)
        .order_by(RunRejection.line.nulls_last(), RunRejection.id)
    ).all()
    return [{"line": r.line, "item_id": r.item_id, "reason": r.reason} for r in rows]


# --------------------------------------------------------------------------- baselines


def pin_baseline(session: Session, run: Run) -> datetime:
    """Pin ``run`` as the baseline of its suite (replacing a pinned one); when it was pinned."""
    stmt = (
        pg_insert(RunBaseline)
        .values(tenant_id=run.tenant_id, suite=run.suite, run_id=run.id)
        .on_conflict_do_update(
            index_elements=[RunBaseline.tenant_id, RunBaseline.suite],
            set_={"run_id": run.id, "pinned_at": func.now()},
        )
        .returning(RunBaseline.pinned_at)
    )
    return session.execute(stmt).scalar_one()


def _gate_held() -> Any:
    """The run's frozen summary has no crossed gate (a run compared with nothing held it)."""
    crossed = Run.summary["gate"]["crossed"]
    return func.coalesce(func.jsonb_array_length(crossed), 0) == 0


def baseline_run(session: Session, run: Run) -> tuple[Run | None, str]:
    """The run ``run`` is compared with, and how it was chosen: the suite's pinned run
    (``BASELINE_PINNED``) unless that is ``run`` itself, else the newest finished run of the suite
    created before ``run`` whose gate held and that did not fail (``BASELINE_GATE_HELD``); None
    when there is no such run."""
    pinned = session.scalars(
        select(Run)
        .join(RunBaseline, RunBaseline.run_id == Run.id)
        .where(RunBaseline.tenant_id == run.tenant_id, RunBaseline.suite == run.suite, Run.id != run.id)
    ).one_or_none()
    if pinned is not None:
        return pinned, BASELINE_PINNED
    held = previous_run(session, run, Run.error.is_(None), _gate_held())
    return held, BASELINE_GATE_HELD
