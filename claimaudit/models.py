"""Typed results of the claimaudit API: pydantic models of what the API answers.

The answers the API declares in its OpenAPI schema are the API's own models (``api.schemas``:
``AuditAccepted``, ``BatchItemResult``, ``BatchAccepted``, ``AuditSummary``, ``AuditPage``,
``ClaimHit``, ``ClaimSearchResult``, ``Health``); ``StatusItem``, ``StatusPage`` and
``ErrorItem`` match theirs field for field, and the documents the API returns as free-form JSON
(``GET /audits/{id}``, ``/runs``, ``/suites``) are modelled here. Unknown fields of those are
kept (``model_extra``), so a newer server never breaks an older client; the test suite checks
that no model leaves one out.

Scores are in [0, 1] except the edit distances (claims, >= 0); a score whose denominator is
zero is ``None``, never NaN (``claims.score``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# The answers the API declares in its OpenAPI schema are its own models (one definition, so the
# client's types cannot drift from what the server sends); the rest are defined here.
from api.schemas import (
    AuditAccepted,
    AuditPage,
    AuditStatus,
    AuditSummary,
    BatchAccepted,
    BatchItemResult,
    ClaimHit,
    ClaimSearchResult,
    Health,
)
from claims.types import Role, Verdict

__all__ = [
    "AuditStatus",
    "VerdictName",
    "VERDICTS",
    "AuditAccepted",
    "BatchItemResult",
    "BatchAccepted",
    "BatchResult",
    "Evidence",
    "Claim",
    "EditOp",
    "ReferenceSource",
    "Scores",
    "Counts",
    "Usage",
    "AuditDocument",
    "AuditSummary",
    "AuditPage",
    "StatusItem",
    "StatusPage",
    "ClaimHit",
    "ClaimSearchResult",
    "Health",
    "ErrorItem",
    "Run",
    "RunPage",
    "RunItemResult",
    "RunSubmission",
    "GateOutcome",
    "Comparison",
    "Suite",
]

#: A claim's verdict (``claims.types.Verdict``, a ``StrEnum``: each member equals its value
#: as a string) and the verdict names in the engine's order.
VerdictName = Verdict
VERDICTS: tuple[str, ...] = tuple(v.value for v in Verdict)
#: Statuses after which an audit never changes.
TERMINAL: frozenset[str] = frozenset({"done", "failed", "rejected"})


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Evidence(_Model):
    """A reference span behind a verdict: reference index, character span [start, end) in code
    points of the submitted reference, its text and the cosine similarity in [-1, 1]."""

    reference: int
    start: int
    end: int
    text: str
    similarity: float


class Claim(_Model):
    """An atomic claim with its locator (``start``/``end`` in the text it came from).

    Response claims carry ``verdict``, ``confidence`` (calibrated probability in [0, 1] that the
    verdict is right, or None), ``reason`` and ``evidence``; reference claims have ``reference``
    (index into the request's references) and no verdict. ``judge``: the LLM judge's record when
    one judged the audit.
    """

    role: Role
    reference: int | None
    position: int
    text: str
    start: int
    end: int
    kind: str
    duplicates: int
    ambiguous: bool
    verdict: VerdictName | None
    confidence: float | None
    reason: str | None
    evidence: list[Evidence]
    judge: dict[str, Any] | None = None


class ReferenceSource(_Model):
    """A reference of the audit by its index (what ``Evidence.reference`` points at), with the
    caller's ``id``, ``url`` and ``title`` of its source document (None when not sent)."""

    index: int
    id: str | None = None
    url: str | None = None
    title: str | None = None


class EditOp(_Model):
    """One step of the claim edit script (response → references)."""

    op: Literal["insert", "delete", "substitute"]
    response_claim: str | None
    reference_claim: str | None
    reason: str


class Scores(_Model):
    """The audit's scores (``claims.types.AuditScores``); None where a denominator is zero."""

    claim_overlap: float | None
    claim_similarity: float | None
    claim_precision: float | None
    claim_recall: float | None
    claim_f1: float | None
    claim_edit_distance: int | None
    normalized_claim_edit_distance: float | None
    levenshtein_similarity: float | None
    normalized_levenshtein_distance: float | None


class Counts(_Model):
    """Material claims per role and response claims per verdict."""

    response_claims: int
    reference_claims: int
    supported: int
    inferred: int
    contradicted: int
    qualification_dropped: int
    unsupported: int
    outside_scope: int


class Usage(_Model):
    """LLM use of the audit (all zero offline): requests, failed requests, cache hits and tokens,
    in all and per ``stages`` (decompose, embed, judge), the ``fallbacks`` to the offline
    component (``{stage, model, reason, scope}``), the ``response_format`` of the last chat
    request the endpoint answered (``json_schema``, ``json_object``, ``prompted``; None without
    one), and ``llm_judged_share`` in [0, 1] or None. The in-memory engine reports only the first
    three counters and the share."""

    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    llm_judged_share: float | None
    failed_calls: int | None = None
    cache_hits: int | None = None
    stages: dict[str, dict[str, int]] | None = None
    fallbacks: list[dict[str, Any]] | None = None
    response_format: str | None = None


class AuditDocument(_Model):
    """``GET /audits/{id}`` (and :func:`claimaudit.audit_offline`, whose ``id`` is None).

    Until the audit is done, ``scores`` and ``counts`` are None and ``claims`` empty.
    """

    id: uuid.UUID | None = None
    status: AuditStatus
    stage: str | None = None
    error: str | None = None
    created_at: datetime | None = None
    finished_at: datetime | None = None
    question: str | None = None
    metadata: dict[str, Any] | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    scores: Scores | None = None
    counts: Counts | None = None
    claims: list[Claim] = Field(default_factory=list)
    edit_script: list[EditOp] = Field(default_factory=list)
    effective_config: dict[str, Any] | None = None
    usage: Usage | None = None
    threshold: float | None = None
    correction: dict[str, Any] | None = None
    references: list[ReferenceSource] = Field(default_factory=list)

    @property
    def response_claims(self) -> list[Claim]:
        """The response claims in response order."""
        return sorted((c for c in self.claims if c.role == "response"), key=lambda c: c.position)

    def claims_with(self, verdicts: Iterable[str]) -> list[Claim]:
        """The response claims whose verdict is one of ``verdicts``."""
        wanted = set(verdicts)
        return [c for c in self.response_claims if c.verdict in wanted]


class BatchResult(_Model):
    """One item of :meth:`claimaudit.Client.batch`, in input order: its audit's id and final
    document, or ``status == "rejected"`` with the API's ``error`` (nothing stored)."""

    index: int
    audit_id: uuid.UUID | None
    status: AuditStatus
    error: str | None = None
    document: AuditDocument | None = None


class StatusItem(_Model):
    """One item of ``POST /audits/status``."""

    id: uuid.UUID
    status: AuditStatus
    stage: str | None
    error: str | None
    finished_at: datetime | None


class StatusPage(_Model):
    items: list[StatusItem]
    missing: list[uuid.UUID]


class ErrorItem(_Model):
    """One item of an error body: where (``loc``), what (``msg``), which kind (``type``)."""

    loc: list[str | int]
    msg: str
    type: str
    input: Any | None = None


class Run(_Model):
    """A run of a suite (``GET /runs``, ``GET /runs/{id}``); ``summary`` as documented in the
    README ("A run's summary"): items, counts, mean scores, verdicts, shares, and once finished
    the baseline it was compared with and the gate's outcome."""

    id: uuid.UUID
    tenant_id: str
    suite: str
    label: str
    source: str
    status: Literal["open", "running", "finished", "failed"]
    error: str | None
    scheduled_for: datetime | None
    created_at: datetime
    sealed_at: datetime | None
    finished_at: datetime | None
    duration_s: float | None
    summary: dict[str, Any] | None


class RunPage(_Model):
    items: list[Run]
    total: int
    limit: int
    offset: int


class RunItemResult(_Model):
    """One item of ``POST /runs``: its audit, or ``status == "rejected"`` with the ``error``."""

    index: int
    item_id: str | None
    audit_id: uuid.UUID | None = None
    status: str
    created: bool = False
    poll_url: str | None = None
    error: str | None = None


class RunSubmission(_Model):
    run: Run
    items: list[RunItemResult]


class GateOutcome(_Model):
    """The gate of a comparison: its limits (points or items; None: off) and the crossed ones."""

    limits: dict[str, float | int | None]
    crossed: list[str]
    passed: bool


class Comparison(_Model):
    """``GET /runs/{id}/compare``: a run against its baseline, item by item and claim by claim."""

    items_compared: int
    items_added: list[str]
    items_removed: list[str]
    status_changed: list[dict[str, Any]]
    score_deltas: dict[str, dict[str, float | int | None]]
    shares: dict[str, dict[str, float | None]]
    worse_items: list[dict[str, Any]]
    changed_claims: list[dict[str, Any]]
    new_claims: list[dict[str, Any]]
    vanished_claims: list[dict[str, Any]]
    base: Run
    new: Run
    gate: GateOutcome
    baseline: dict[str, Any] | None = None


class Suite(_Model):
    """``GET /suites/{name}`` (the webhook secret is never shown)."""

    name: str
    tenant_id: str
    cron: str | None
    source: dict[str, str] | None
    sample_size: int | None
    canaries: int | None
    config: dict[str, Any] | None
    webhook: dict[str, Any] | None
    gate: dict[str, float | int | None] | None
    enabled: bool
    last_slot_at: datetime | None
    created_at: datetime
    updated_at: datetime
