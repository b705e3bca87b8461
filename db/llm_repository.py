"""Every SQL statement of the LLM path: response cache, usage ledger, judge records, the formats
each endpoint accepts, and the stage run an LLM step belongs to.

Functions take a ``Session`` and never commit (the caller owns the transaction). The LLM
adapters write cache entries and usage rows in their own short transactions so that a
request that was paid for stays cached and counted even when the stage later fails.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, literal, or_, select, union_all
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from db.check_models import CorrectionRow
from db.llm_models import LLMCacheRow, LLMFormatRow, LLMJudgementRow, LLMUsageRow
from db.models import STAGES, Audit, ClaimRow, VerdictRow

__all__ = [
    "USAGE_STAGES",
    "get_cached_response",
    "put_cached_response",
    "record_usage",
    "usage_for_audits",
    "empty_usage",
    "llm_judged_shares",
    "replace_llm_judgements",
    "has_fallback",
    "llm_judgements_for_audits",
    "side_rows",
    "remembered_format",
    "remember_format",
    "response_formats",
    "stage_run",
]

#: Stages that appear in an audit's ``usage`` document, in pipeline order.
USAGE_STAGES: tuple[str, ...] = ("decompose", "embed", "judge")
_COUNTERS: tuple[str, ...] = ("calls", "failed_calls", "cache_hits", "prompt_tokens", "completion_tokens")
#: Names of the counters in the ``usage`` document (``calls`` reads ``llm_calls`` there, as in
#: ``claims.audit.report_to_dict``'s in-memory zeros).
_DOC_NAMES: dict[str, str] = {"calls": "llm_calls"}


def _doc(name: str) -> str:
    return _DOC_NAMES.get(name, name)


def get_cached_response(
    session: Session, *, model: str, prompt_version: str, input_sha256: str
) -> dict[str, Any] | None:
    """The cached JSON answer for this request, or None."""
    row = session.get(LLMCacheRow, (model, prompt_version, input_sha256))
    return None if row is None else dict(row.response)


def put_cached_response(
    session: Session,
    *,
    model: str,
    prompt_version: str,
    input_sha256: str,
    response: Mapping[str, Any],
    prompt_tokens: int,
    completion_tokens: int,
) -> None:
    """Store an answer; a concurrent insert of the same key wins (``ON CONFLICT DO NOTHING``)."""
    stmt = (
        insert(LLMCacheRow)
        .values(
            model=model,
            prompt_version=prompt_version,
            input_sha256=input_sha256,
            response=dict(response),
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
        )
        .on_conflict_do_nothing(index_elements=["model", "prompt_version", "input_sha256"])
    )
    session.execute(stmt)


def record_usage(
    session: Session,
    *,
    audit_id: uuid.UUID | None,
    stage: str,
    model: str,
    calls: int = 0,
    failed_calls: int = 0,
    cache_hits: int = 0,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    fallback: str | None = None,
    error: str | None = None,
    tenant_id: str = "default",
    response_format: str | None = None,
    scope: Mapping[str, Any] | None = None,
) -> None:
    """Append one row to the usage ledger (counts are non-negative). ``tenant_id`` counts for a row
    without an audit (a search); with an audit the row takes the audit's tenant (trigger).
    ``response_format``: the format the chat request(s) used; ``scope``: the claims a fallback
    affects (``db.llm_models.LLMUsageRow.scope``)."""
    counts = (calls, failed_calls, cache_hits, prompt_tokens, completion_tokens)
    if min(counts) < 0:
        raise ValueError(f"usage counts must be non-negative, got {counts}")
    session.add(
        LLMUsageRow(
            audit_id=audit_id,
            tenant_id=tenant_id,
            stage=stage,
            model=model,
            calls=calls,
            failed_calls=failed_calls,
            cache_hits=cache_hits,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            fallback=fallback,
            error=error,
            response_format=response_format,
            scope=dict(scope) if scope is not None else None,
        )
    )


def empty_usage() -> dict[str, Any]:
    """The ``usage`` document of an audit that made no LLM request (all zeros;
    ``llm_judged_share`` None: no verdict known)."""
    zero = {_doc(c): 0 for c in _COUNTERS}
    return {
        **zero,
        "stages": {s: dict(zero) for s in USAGE_STAGES},
        "fallbacks": [],
        "response_format": None,
        "llm_judged_share": None,
    }


def llm_judged_shares(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, float | None]:
    """Share in [0, 1] of each audit's judgeable response claims that the LLM judge judged (two
    queries).

    Judgeable (the denominator): material response claims whose stored verdict is not
    ``outside_scope`` (what ``workers.adapters.judge.judge_items`` may send; the same count as
    ``claims.audit.judgeable``). Judged: rows of ``llm_judgements`` (one per claim the judge
    answered; none after a fallback). None while the audit has no judgeable verdict.
    """
    ids = list(audit_ids)
    judgeable = dict(
        session.execute(
            select(VerdictRow.audit_id, func.count())
            .join(ClaimRow, ClaimRow.id == VerdictRow.claim_id)
            .where(
                VerdictRow.audit_id.in_(ids),
                VerdictRow.verdict != "outside_scope",
                ClaimRow.kind == "material",
            )
            .group_by(VerdictRow.audit_id)
        ).all()
    )
    judged = (
        dict(
            session.execute(
                select(LLMJudgementRow.audit_id, func.count())
                .where(LLMJudgementRow.audit_id.in_([a for a in ids if judgeable.get(a)]))
                .group_by(LLMJudgementRow.audit_id)
            ).all()
        )
        if judgeable
        else {}
    )
    return {a: (int(judged.get(a, 0)) / int(judgeable[a]) if judgeable.get(a) else None) for a in ids}


def side_rows(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, frozenset[str]]:
    """Which of ``audit_ids`` have rows in the tables an ended audit's document may read besides
    its own (one query): ``"usage"`` (``llm_usage``), ``"judgements"`` (``llm_judgements``),
    ``"correction"`` (``corrections``, any tenant: the caller reads it with its tenant filter).

    An audit no LLM touched and no method check corrected has none, and its document then needs
    none of :func:`usage_for_audits`' four queries, :func:`llm_judgements_for_audits` or the
    correction's. Audits with no such row are absent from the result.
    """
    ids = list(audit_ids)
    if not ids:
        return {}
    found: Sequence[Any] = session.execute(
        union_all(
            select(LLMUsageRow.audit_id, literal("usage")).where(LLMUsageRow.audit_id.in_(ids)).distinct(),
            select(LLMJudgementRow.audit_id, literal("judgements"))
            .where(LLMJudgementRow.audit_id.in_(ids))
            .distinct(),
            select(CorrectionRow.audit_id, literal("correction")).where(CorrectionRow.audit_id.in_(ids)),
        )
    ).all()
    out: dict[uuid.UUID, set[str]] = {}
    for audit_id, kind in found:
        out.setdefault(audit_id, set()).add(kind)
    return {a: frozenset(kinds) for a, kinds in out.items()}


def usage_for_audits(session: Session, audit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, dict[str, Any]]:
    """The ``usage`` document of ``GET /audits/{id}`` of each of ``audit_ids`` (four queries).

    ``{"llm_calls", "failed_calls", "cache_hits", "prompt_tokens", "completion_tokens",
    "stages": {"decompose"|"embed"|"judge": {same counters}}, "fallbacks": [{"stage", "model",
    "reason", "scope"}], "response_format", "llm_judged_share"}``; all zeros (``empty_usage``)
    when the audit used no LLM. ``response_format`` is the structured-output format of the
    audit's last chat request the endpoint answered (or the cache did): ``json_schema``,
    ``json_object`` or ``prompted``; None without one. A fallback's ``scope`` names the claims it
    affects (``{"role", "position"}`` of a document decomposed offline, or ``{"response_claims":
    [index, ...]}`` whose offline verdicts stood), None when it names none.
    ``llm_judged_share`` is ``llm_judged_shares(...)``: 0.0 without an LLM judge, None before
    the match stage stored verdicts. ``llm_calls`` counts requests the endpoint answered (a
    repair request counts), ``failed_calls`` those that ended in an error, ``cache_hits``
    requests served from the cache.
    """
    ids = list(audit_ids)
    usages = {a: empty_usage() for a in ids}
    sums = session.execute(
        select(
            LLMUsageRow.audit_id,
            LLMUsageRow.stage,
            *(func.coalesce(func.sum(getattr(LLMUsageRow, c)), 0) for c in _COUNTERS),
        )
        .where(LLMUsageRow.audit_id.in_(ids))
        .group_by(LLMUsageRow.audit_id, LLMUsageRow.stage)
    ).all()
    for audit_id, stage, *values in sums:
        usage = usages[audit_id]
        bucket = usage["stages"].setdefault(stage, {_doc(c): 0 for c in _COUNTERS})
        for name, value in zip(_COUNTERS, values, strict=True):
            bucket[_doc(name)] += int(value)
            usage[_doc(name)] += int(value)
    _fallbacks_and_format(session, ids, usages)
    for audit_id, share in llm_judged_shares(session, ids).items():
        usages[audit_id]["llm_judged_share"] = share
    return usages


def _fallbacks_and_format(
    session: Session, ids: Sequence[uuid.UUID], usages: dict[uuid.UUID, dict[str, Any]]
) -> None:
    """Fill ``fallbacks`` and ``response_format`` of ``usages`` (one query, rows in ledger order)."""
    answered = or_(LLMUsageRow.calls > 0, LLMUsageRow.cache_hits > 0)
    rows = session.execute(
        select(
            LLMUsageRow.audit_id,
            LLMUsageRow.stage,
            LLMUsageRow.model,
            LLMUsageRow.fallback,
            LLMUsageRow.scope,
            LLMUsageRow.response_format,
            answered,
        )
        .where(
            LLMUsageRow.audit_id.in_(ids),
            or_(LLMUsageRow.fallback.is_not(None), LLMUsageRow.response_format.is_not(None)),
        )
        .order_by(LLMUsageRow.id)
    ).all()
    for audit_id, stage, model, reason, scope, fmt, was_answered in rows:
        assert audit_id is not None  # selected by audit id
        if reason is not None:
            usages[audit_id]["fallbacks"].append(
                {"stage": stage, "model": model, "reason": reason, "scope": scope}
            )
        if fmt is not None and was_answered:
            usages[audit_id]["response_format"] = fmt


def replace_llm_judgements(session: Session, audit_id: uuid.UUID, rows: Iterable[Mapping[str, Any]]) -> None:
    """Replace the judge records of an audit (idempotent: a re-run stage leaves only its own).

    Each row: ``response_index``, ``rule_verdict``, ``judge_verdict``, ``judge_reason``,
    ``final_verdict``, ``model``. An empty ``rows`` just deletes.
    """
    session.execute(delete(LLMJudgementRow).where(LLMJudgementRow.audit_id == audit_id))
    values = [{"audit_id": audit_id, **dict(r)} for r in rows]
    if values:
        session.execute(insert(LLMJudgementRow).values(values))


def has_fallback(session: Session, audit_id: uuid.UUID, stage: str) -> bool:
    """True when the audit's ``stage`` already fell back to its offline component."""
    stmt = select(LLMUsageRow.id).where(
        LLMUsageRow.audit_id == audit_id, LLMUsageRow.stage == stage, LLMUsageRow.fallback.is_not(None)
    )
    return session.execute(stmt.limit(1)).first() is not None


def llm_judgements_for_audits(
    session: Session, audit_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, dict[int, dict[str, Any]]]:
    """The judge records of each audit by response claim index (empty without an LLM judge),
    one query."""
    out: dict[uuid.UUID, dict[int, dict[str, Any]]] = {a: {} for a in audit_ids}
    rows = session.scalars(select(LLMJudgementRow).where(LLMJudgementRow.audit_id.in_(list(audit_ids)))).all()
    for r in rows:
        out[r.audit_id][r.response_index] = {
            "verdict": r.judge_verdict,
            "reason": r.judge_reason,
            "rule_verdict": r.rule_verdict,
            "final_verdict": r.final_verdict,
            "agrees": r.judge_verdict == r.rule_verdict,
            "model": r.model,
        }
    return out


def remembered_format(session: Session, *, base_url: str, model: str, max_age_s: float) -> str | None:
    """The structured-output format remembered for ``model`` at ``base_url``, unless it was
    negotiated more than ``max_age_s`` seconds ago (then None, as when there is none)."""
    stmt = select(LLMFormatRow.response_format).where(
        LLMFormatRow.base_url == base_url,
        LLMFormatRow.model == model,
        LLMFormatRow.negotiated_at > func.now() - func.make_interval(0, 0, 0, 0, 0, 0, max_age_s),
    )
    return session.execute(stmt).scalar_one_or_none()


def remember_format(
    session: Session, *, base_url: str, model: str, response_format: str, reason: str | None
) -> None:
    """Remember ``response_format`` for ``model`` at ``base_url`` from now on (upsert), with the
    rejection that led to it (``reason``; None when the first format tried was accepted)."""
    stmt = insert(LLMFormatRow).values(
        base_url=base_url, model=model, response_format=response_format, reason=reason
    )
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=["base_url", "model"],
            set_={
                "response_format": stmt.excluded.response_format,
                "reason": stmt.excluded.reason,
                "negotiated_at": func.now(),
            },
        )
    )


def response_formats(session: Session) -> list[tuple[str, str, str, datetime]]:
    """Every remembered format: ``(base_url, model, response_format, negotiated_at)``, sorted."""
    rows = session.execute(
        select(
            LLMFormatRow.base_url,
            LLMFormatRow.model,
            LLMFormatRow.response_format,
            LLMFormatRow.negotiated_at,
        ).order_by(LLMFormatRow.base_url, LLMFormatRow.model)
    ).all()
    return [(r[0], r[1], r[2], r[3]) for r in rows]


def stage_run(session: Session, audit_id: uuid.UUID, stage: str) -> tuple[int, float] | None:
    """``(stage_runs, seconds since the run started)`` of the audit while it stands at ``stage``
    (one of ``db.models.STAGES``), else None. The run started at ``audits.<stage>_at``."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}")
    started = getattr(Audit, f"{stage}_at")
    row = session.execute(
        select(Audit.stage_runs, func.extract("epoch", func.now() - started)).where(
            Audit.id == audit_id, Audit.status == stage, started.is_not(None)
        )
    ).first()
    return None if row is None else (int(row[0]), max(0.0, float(row[1])))
