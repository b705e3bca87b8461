"""The ``GET /audits/{id}`` document, built from the stored rows with the engine's own builder.

The claims, verdicts, evidence, scores, counts and edit script are rebuilt as the engine's value
types (``db.repository.load_audit_state``) and rendered by ``claims.audit.report_to_dict``, the
function the in-memory harness uses, so the API and the harness cannot drift. The database
fields (id, status, stage, error, timestamps, question, metadata, config, usage, and the
``threshold`` the audit was scored with, and ``references``: per reference index, the ``id``,
``url`` and ``title`` the caller sent with it, null when not sent) are added here.

``config`` is what the client sent (``{}`` when nothing); ``effective_config`` is what the
workers use, worked out by ``claims.options.AuditOptions.from_config`` as the workers do:
``threshold`` (the stored scoring threshold once done, else the config's value or
``claims.match.DEFAULT_THRESHOLD``), ``case_insensitive`` and ``remove_punctuation`` (default
false), and ``llm_band`` when the judge is ``auto``; null for a stored config that is not valid
(only a row edited by hand: the audit fails with the reason in ``error``). The LLM component
keys (``decomposer``, ``judge``, ``embedder``) follow the deployment's defaults and appear there
only when the client set them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from api.check_documents import correction_documents
from claims.audit import ScoredClaims, judgeable, report_to_dict
from claims.options import AuditOptions
from db import llm_repository
from db import repository as repo
from db.models import TERMINAL_STATUSES, Audit
from service.llm_config import resolve_llm_config

__all__ = ["audit_document", "audit_documents", "json_bytes", "poll_url"]


def json_bytes(value: Any) -> bytes:
    """``value`` as ``JSONResponse.render`` encodes it (compact, UTF-8, NaN refused): what a
    streamed answer writes, piece by piece, so that it equals the answer rendered whole."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


def poll_url(audit_id: uuid.UUID | str) -> str:
    return f"/audits/{audit_id}"


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _header(audit: Audit) -> dict[str, Any]:
    return {
        "id": str(audit.id),
        "status": audit.status,
        "stage": audit.stage,
        "error": audit.error,
        "created_at": _iso(audit.created_at),
        "finished_at": _iso(audit.finished_at),
        "question": audit.question,
        "metadata": audit.metadata_,
        "config": audit.config,
    }


def effective_config(
    config: dict[str, Any], scored_threshold: float | None, settings: object | None = None
) -> dict[str, Any]:
    """The config the audit runs with (see the module docstring); JSON-ready."""
    options = AuditOptions.from_config(config, settings)
    if scored_threshold is not None:
        options = replace(options, threshold=float(scored_threshold))
    return options.effective_config(config)


def audit_document(
    session: Session, audit_id: uuid.UUID, settings: object | None = None, *, tenant_id: str | None = None
) -> dict[str, Any] | None:
    """The result document of one audit, or None when it does not exist (or, with ``tenant_id``,
    is another tenant's).

    Before the score stage finished: ``scores``/``counts`` null, ``claims``/``edit_script`` empty;
    the claims, vectors and verdicts are then not loaded at all, so polling a pending audit costs
    one row read however large the audit.
    """
    if tenant_id is None:
        audit = repo.get_audit(session, audit_id)
    else:
        audit = repo.get_tenant_audit(session, audit_id, tenant_id=tenant_id)
    if audit is None:
        return None
    return audit_documents(session, [audit], settings)[audit.id]


def audit_documents(
    session: Session, audits: Sequence[Audit], settings: object | None = None
) -> dict[uuid.UUID, dict[str, Any]]:
    """:func:`audit_document` of each of ``audits`` (rows already read), with the same number
    of queries for many audits as for one (``POST /audits/documents``)."""
    done = [a for a in audits if a.status == "done"]
    states = repo.load_audit_states(session, [a.id for a in done], vectors=False, audits=done) if done else {}
    # An ended audit's usage and LLM judgements are read from their tables (the workers chose
    # its components with their own settings, which this process cannot know). A running audit
    # whose config calls no LLM under this process's settings has no usage yet: zeros, with
    # llm_judged_share None until it ends. The method checks run after the end, so only ended
    # audits can have a correction. Polling a running offline audit reads its row and nothing
    # else; a done audit that no LLM touched and nothing corrected reads, besides its own rows,
    # one query that says so (``side_rows``), not six.
    ended = [a for a in audits if a.status in TERMINAL_STATUSES]
    side = llm_repository.side_rows(session, [a.id for a in ended]) if ended else {}
    usage = {
        a.id: _offline_usage(states[a.id])
        for a in done
        if a.id in states and not side.get(a.id, frozenset()) & {"usage", "judgements"}
    }
    usage_ids = [
        a.id
        for a in audits
        if a.id not in usage and (a.status in TERMINAL_STATUSES or _may_call_llm(a, settings))
    ]
    if usage_ids:
        usage |= llm_repository.usage_for_audits(session, usage_ids)
    judged_ids = [a.id for a in done if "judgements" in side.get(a.id, frozenset())]
    judged = llm_repository.llm_judgements_for_audits(session, judged_ids) if judged_ids else {}
    corrected = [a for a in ended if "correction" in side.get(a.id, frozenset())]
    corrections: dict[uuid.UUID, dict[str, Any]] = {}
    for tenant in {a.tenant_id for a in corrected}:
        mine = [a.id for a in corrected if a.tenant_id == tenant]
        corrections |= correction_documents(session, mine, tenant_id=tenant)
    out: dict[uuid.UUID, dict[str, Any]] = {}
    for audit in audits:
        doc = _header(audit)
        doc.update({"scores": None, "counts": None, "claims": [], "edit_script": []})
        state = states.get(audit.id)
        if state is not None and state.result is not None:
            doc.update(_result_body(state))
            _add_llm_judgements(judged.get(audit.id, {}), doc["claims"])
            _add_llm_fallbacks(usage.get(audit.id, {}).get("fallbacks") or [], doc["claims"])
        scored = state.threshold if state is not None else None
        try:
            doc["effective_config"] = effective_config(dict(audit.config or {}), scored, settings)
        except ValueError:  # a row edited by hand (the API validates configs): its error says why
            doc["effective_config"] = None
        doc["usage"] = usage[audit.id] if audit.id in usage else llm_repository.empty_usage()
        if audit.id in corrections:  # method checks, if made
            doc["correction"] = corrections[audit.id]
        out[audit.id] = doc
    return out


def _offline_usage(state: repo.AuditState) -> dict[str, Any]:
    """``usage`` of a done audit with no ``llm_usage`` and no ``llm_judgements`` row: zero counts,
    and ``llm_judged_share`` 0.0, or None when no claim could have been judged: what
    ``llm_repository.usage_for_audits`` reads from the tables, here from the loaded claims and
    verdicts (``claims.audit.judgeable``: the same count as ``llm_judged_shares``)."""
    usage = llm_repository.empty_usage()
    usage["llm_judged_share"] = 0.0 if judgeable(state.response_claims, state.judgements or []) else None
    return usage


def _may_call_llm(audit: Audit, settings: object | None) -> bool:
    """Whether the audit's config, with this process's deployment defaults (``settings``, else
    the environment's), calls the LLM endpoint (an invalid config: True, so its usage is read)."""
    try:
        return resolve_llm_config(audit.config or {}, settings).uses_llm
    except ValueError:
        return True


def _result_body(state: repo.AuditState) -> dict[str, Any]:
    """Claims, verdicts, scores, counts and edit script of a scored audit, and its threshold."""
    assert state.result is not None
    report = ScoredClaims(
        response_claims=state.response_claims,
        reference_claims=state.reference_claims,
        judgements=state.judgements or [],
        result=state.result,
    )
    body = report_to_dict(report, state.reference_texts, state.response_text)
    for key in ("status", "error"):  # the database's values win
        body.pop(key, None)
    body["threshold"] = state.threshold  # the cosine threshold the audit was scored with
    # what evidence's ``reference`` index points at: the caller's id, URL and title when sent
    body["references"] = [{"index": i, **source} for i, source in enumerate(state.reference_sources)]
    return body


def _add_llm_judgements(judged: dict[int, dict[str, Any]], claims: list[dict[str, Any]]) -> None:
    """Add ``judge`` (LLM verdict, reason, rule verdict, agrees) to each response claim when the LLM
    judge judged any claim of the audit (``judged``: the records by response index): null on the
    claims it was not sent (``judge = auto`` keeps confident claims and rule conflicts offline;
    non-material claims are never sent)."""
    if not judged:
        return
    responses = [c for c in claims if c.get("role") == "response"]
    for index, claim in enumerate(responses):
        claim["judge"] = judged.get(index)


def _add_llm_fallbacks(fallbacks: list[dict[str, Any]], claims: list[dict[str, Any]]) -> None:
    """Add ``llm_fallbacks`` (``[{"stage", "reason"}, ...]``) to each claim an LLM fallback
    affects (the claims of a document decomposed offline, the response claims whose offline
    verdict stood for want of the LLM judge; ``usage.fallbacks[].scope``); other claims get none."""
    responses = [c for c in claims if c.get("role") == "response"]
    for fallback in fallbacks:
        scope = fallback.get("scope") or {}
        mark = {"stage": fallback["stage"], "reason": fallback["reason"]}
        if "response_claims" in scope:
            hit = [responses[i] for i in scope["response_claims"] if 0 <= i < len(responses)]
        elif "role" in scope:
            hit = [
                c
                for c in claims
                if c.get("role") == scope["role"]
                and (scope["role"] == "response" or c.get("reference") == scope.get("position"))
            ]
        else:
            hit = []
        for claim in hit:
            claim.setdefault("llm_fallbacks", []).append(mark)


def audit_summary(audit: Audit) -> dict[str, Any]:
    """One item of ``GET /audits``."""
    return {**_header(audit), "poll_url": poll_url(audit.id)}
