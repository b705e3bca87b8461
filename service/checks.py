"""Services of the audit method's checks: canaries, second audits, corrections, and what runs
after an audit is done (``checks.after_done``).

Light (no Celery, no model weights): the API calls the ``create_*`` functions too. Like
``workers.services`` they never commit; each returns the ids of the audits it created, for the
caller to enqueue after its commit. Tenants: the API passes the caller's ``tenant_id`` (another
tenant's audit is ``CheckError``, "not found"); the workers pass none. Every derived audit (canary,
second audit, correction) is created in its parent audit's tenant, and its check rows get that
tenant from the parent audit (triggers of ``0008_method_checks``).
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy.orm import Session

from claims.agreement import agreement, claim_type, pair_spans
from claims.canary import plant_canaries
from claims.correct import correct_response
from claims.types import SUPPORTING, ClaimKind
from db import checks_repository as checks_repo
from db import repository as repo
from db.models import VERDICTS, Audit

__all__ = [
    "CheckError",
    "NotDone",
    "sampled",
    "second_config",
    "create_canaries",
    "create_second_audit",
    "create_correction",
    "after_done",
]

log = logging.getLogger(__name__)


class CheckError(LookupError):
    """The audit does not exist."""


class NotDone(ValueError):
    """The audit is not done yet (its verdicts are the input of the check)."""


def _done_audit(session: Session, audit_id: uuid.UUID, tenant_id: str | None) -> Audit:
    audit = repo.get_audit(session, audit_id)
    if audit is None or (tenant_id is not None and audit.tenant_id != tenant_id):
        raise CheckError(f"audit {audit_id} not found")
    if audit.status != "done":
        raise NotDone(f"audit {audit_id} is {audit.status}; checks need a done audit")
    return audit


def _texts(session: Session, audit_id: uuid.UUID) -> tuple[str, list[str]]:
    docs = repo.get_documents(session, audit_id)
    response = next((d.text for d in docs if d.role == "response"), "")
    return response, [d.text for d in docs if d.role == "reference"]


def _short_sha(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


def sampled(audit_id: uuid.UUID, share: float) -> bool:
    """Whether ``audit_id`` falls in a sample of ``share`` (0 to 1) of all audits: the first 32 bits
    of SHA-256 of the id, as a fraction, are below ``share`` (deterministic, so re-running the
    decision for one audit always gives the same answer)."""
    if share <= 0:
        return False
    return int(hashlib.sha256(str(audit_id).encode()).hexdigest()[:8], 16) / 2**32 < share


def second_config(settings: Any) -> dict[str, Any]:
    """The second auditor's config overrides: ``SECOND_AUDIT_CONFIG`` when set, else the LLM judge
    where an endpoint is configured (``{"judge": "llm"}``), else a stricter threshold
    (``{"threshold": 0.75}``: support cutoffs 0.10 higher, see README 'Per-audit config')."""
    explicit = getattr(settings, "second_audit_config", None)
    if explicit:
        return dict(explicit)
    if getattr(settings, "openai_base_url", None) or getattr(settings, "openai_api_key", None):
        return {"judge": "llm"}
    return {"threshold": 0.75}


def create_canaries(
    session: Session,
    audit_id: uuid.UUID,
    *,
    per_kind: int = 3,
    kinds: Iterable[str] | None = None,
    seed: int = 0,
    tenant_id: str | None = None,
) -> list[uuid.UUID]:
    """Plant canaries in the references of done audit ``audit_id`` (``claims.canary``) and store
    each as an audit (same references and config) with its canary row. Idempotent for the same
    seed: stored canaries are found by their idempotency keys. Returns the canary audit ids to
    enqueue (new ones, and stored ones never enqueued).

    Raises ``CheckError`` (no audit), ``NotDone``, ``ValueError`` (bad kinds or per_kind).
    """
    parent = _done_audit(session, audit_id, tenant_id)
    _, references = _texts(session, audit_id)
    planted = plant_canaries(references, per_kind=per_kind, kinds=kinds, seed=seed)
    to_enqueue: list[uuid.UUID] = []
    rows: list[dict[str, Any]] = []
    for c in planted:
        metadata = {"check": "canary", "of": str(audit_id), "fault": c.kind, "change": c.change}
        key = f"canary:{audit_id}:{seed}:{c.kind}:{_short_sha(c.response)}"
        audit, created = checks_repo.create_derived_audit(
            session, parent, response=c.response, references=references, config=parent.config,
            metadata=metadata, key=key,
        )  # fmt: skip
        if created or (audit.status == "queued" and audit.enqueued_at is None):
            to_enqueue.append(audit.id)
        rows.append(
            {
                "audit_id": audit_id, "canary_audit_id": audit.id, "kind": c.kind, "expected": c.expected,
                "original": c.original, "change": c.change, "reference": c.reference,
                "fault_start": c.fault_start, "fault_end": c.fault_end, "seed": seed,
            }
        )  # fmt: skip
    checks_repo.add_canaries(session, rows)
    return to_enqueue


def create_second_audit(
    session: Session,
    audit_id: uuid.UUID,
    *,
    config: Mapping[str, Any],
    reason: str = "request",
    tenant_id: str | None = None,
) -> uuid.UUID | None:
    """Re-audit done audit ``audit_id``'s texts with ``config`` merged over its config; record it.
    Returns the second audit's id when it needs enqueueing, else None (already stored and sent).
    Idempotent per (audit, config). Raises ``CheckError``, ``NotDone``."""
    parent = _done_audit(session, audit_id, tenant_id)
    response, references = _texts(session, audit_id)
    merged = {**(parent.config or {}), **dict(config)}
    key = f"second-audit:{audit_id}:{_short_sha(repr(sorted(merged.items())))}"
    metadata = {"check": "second_audit", "of": str(audit_id)}
    audit, created = checks_repo.create_derived_audit(
        session, parent, response=response, references=references, config=merged, metadata=metadata, key=key
    )
    checks_repo.add_second_audit(session, audit_id, audit.id, config=config, reason=reason)
    return audit.id if created or (audit.status == "queued" and audit.enqueued_at is None) else None


def create_correction(
    session: Session, audit_id: uuid.UUID, *, insert_missing: bool = False, tenant_id: str | None = None
) -> uuid.UUID | None:
    """Build the corrected response of done audit ``audit_id`` from its edit script
    (``claims.correct``) and store it with a re-audit against the same references and config.
    Nothing to correct: stored with no re-audit, ``passes`` true. Returns the re-audit's id when
    it needs enqueueing. One correction per audit (a second call changes nothing).
    Raises ``CheckError``, ``NotDone``."""
    parent = _done_audit(session, audit_id, tenant_id)
    existing = checks_repo.correction_for(session, audit_id, tenant_id=parent.tenant_id)
    if existing is not None:
        return None
    state = repo.load_audit_state(session, audit_id)
    assert state is not None and state.result is not None
    fixed = correct_response(
        state.response_text, state.response_claims, state.reference_claims, state.judgements or [],
        state.result.edit_script, insert_missing=insert_missing,
    )  # fmt: skip
    edits = [
        {"op": e.op, "start": e.start, "end": e.end, "before": e.before, "after": e.after,
         "reason": e.reason, "claim": e.claim}
        for e in fixed.edits
    ]  # fmt: skip
    new_id: uuid.UUID | None = None
    if fixed.changed:
        metadata = {"check": "correction", "of": str(audit_id)}
        audit, _ = checks_repo.create_derived_audit(
            session, parent, response=fixed.text, references=state.reference_texts, config=parent.config,
            metadata=metadata, key=f"correction:{audit_id}",
        )  # fmt: skip
        new_id = audit.id
    checks_repo.add_correction(
        session,
        audit_id,
        corrected_audit_id=new_id,
        corrected_text=fixed.text,
        edits=edits,
    )
    return new_id


def _second_agreement(session: Session, row: Any) -> None:
    """Pair the two audits' response claims by span and store the per-claim verdicts and kappa."""
    first = repo.load_audit_state(session, row.audit_id)
    second = repo.load_audit_state(session, row.second_audit_id)
    if first is None or second is None:
        return
    verdict_1 = {j.response_index: j.verdict.value for j in first.judgements or []}
    verdict_2 = {j.response_index: j.verdict.value for j in second.judgements or []}
    spans_2 = [(c.start, c.end) for c in second.response_claims]
    claims: list[dict[str, Any]] = []
    for i, j in pair_spans([(c.start, c.end) for c in first.response_claims], spans_2):
        c = first.response_claims[i]
        if c.kind is not ClaimKind.MATERIAL or i not in verdict_1:
            continue
        other = None if j is None else verdict_2.get(j)
        claims.append(
            {
                "claim_position": c.position, "claim_text": c.text, "claim_type": claim_type(c.text),
                "second_position": None if j is None else second.response_claims[j].position,
                "verdict": verdict_1[i], "second_verdict": other, "agrees": other == verdict_1[i],
            }
        )  # fmt: skip
    paired = [c for c in claims if c["second_verdict"] is not None]
    figures = agreement([c["verdict"] for c in paired], [c["second_verdict"] for c in paired], VERDICTS)
    confusion = {"classes": list(figures.classes), "matrix": [list(r) for r in figures.confusion]}
    checks_repo.store_second_agreement(
        session,
        row.id,
        claims,
        agreed=sum(c["agrees"] for c in claims),
        kappa=figures.kappa,
        confusion=confusion,
    )


def _check_correction(session: Session, corr: Any) -> None:
    """``passes``: every material claim of the re-audit is supported or inferred."""
    state = repo.load_audit_state(session, corr.corrected_audit_id)
    if state is None:
        return
    material = {i for i, c in enumerate(state.response_claims) if c.kind is ClaimKind.MATERIAL}
    passes = all(j.verdict in SUPPORTING for j in state.judgements or [] if j.response_index in material)
    checks_repo.set_correction_result(session, corr.id, passes=passes)


def after_done(session: Session, audit_id: uuid.UUID, settings: Any) -> list[uuid.UUID]:
    """What follows a done audit: a second audit's agreement is computed, a correction's re-audit
    decides ``passes``; an ordinary audit in the ``SECOND_AUDIT_SHARE`` sample gets a second audit,
    with ``AUTO_CORRECT`` a correction, and as one of the first N items of a run of a suite with
    ``canaries: N`` one canary of every fault kind. Returns the ids of audits to enqueue."""
    audit = repo.get_audit(session, audit_id)
    if audit is None or audit.status != "done":
        return []
    role = checks_repo.check_role(session, audit_id)
    if role == "second_audit":
        row = checks_repo.second_audit_row(session, audit_id)
        if row is not None:
            _second_agreement(session, row)
        return []
    if role == "correction":
        corr = checks_repo.correction_by_audit(session, audit_id)
        if corr is not None:
            _check_correction(session, corr)
        return []
    if role == "canary":
        return []
    out: list[uuid.UUID] = []
    if sampled(audit_id, float(getattr(settings, "second_audit_share", 0.0))):
        second = create_second_audit(session, audit_id, config=second_config(settings), reason="sample")
        out += [second] if second else []
    if getattr(settings, "auto_correct", False):
        fixed = create_correction(session, audit_id)
        out += [fixed] if fixed else []
    per_kind = checks_repo.run_canaries_for(session, audit_id)
    if per_kind:
        out += create_canaries(session, audit_id, per_kind=per_kind)
    return out
