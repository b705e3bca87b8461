"""Pydantic request/response models of the HTTP API (contract: docs in README, ``/docs``).

Requests are strict: unknown keys are rejected (``extra="forbid"``), types are not coerced
(``"0.8"`` is not a float, ``1`` is not a bool), references must be non-blank. An empty
response string is valid (zero claims).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
)

AuditStatus = Literal[
    "queued", "decomposing", "embedding", "matching", "scoring", "done", "failed", "rejected"
]


def _non_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or whitespace only")
    return value


NonBlankStr = Annotated[StrictStr, AfterValidator(_non_blank)]


class AuditConfig(BaseModel):
    """Per-audit configuration; every key is optional, unknown keys are an error."""

    model_config = ConfigDict(extra="forbid")

    threshold: Annotated[StrictFloat | StrictInt, Field(ge=-1.0, le=1.0)] | None = Field(
        None, description="Cosine threshold in [-1, 1]; default: the engine's calibrated threshold."
    )
    case_insensitive: StrictBool | None = Field(None, description="Levenshtein scores ignore case.")
    remove_punctuation: StrictBool | None = Field(None, description="Levenshtein scores ignore punctuation.")
    decomposer: Literal["offline", "llm"] | None = None
    judge: Literal["none", "llm"] | None = None
    embedder: Literal["local", "openai"] | None = None
    llm_model: NonBlankStr | None = None
    embedding_model: NonBlankStr | None = None


class AuditRequest(BaseModel):
    """One audit: a response checked claim by claim against one or more references."""

    model_config = ConfigDict(extra="forbid")

    response: StrictStr = Field(description="The text under audit (may be empty).")
    references: list[NonBlankStr] = Field(min_length=1, description="Reference texts, each non-blank.")
    question: StrictStr | None = None
    metadata: dict[str, Any] | None = None
    config: AuditConfig | None = None

    def stored_config(self) -> dict[str, Any]:
        """The config keys the client set (defaults are resolved by the workers)."""
        return {} if self.config is None else self.config.model_dump(exclude_unset=True)


class BatchItem(AuditRequest):
    """One item of ``POST /audits/batch``: an audit plus its optional idempotency key."""

    idempotency_key: StrictStr | None = None


class AuditAccepted(BaseModel):
    id: uuid.UUID
    status: AuditStatus
    poll_url: str


class BatchItemResult(BaseModel):
    index: int
    id: uuid.UUID | None = None
    status: AuditStatus
    poll_url: str | None = None
    error: str | None = None


class BatchAccepted(BaseModel):
    audits: list[BatchItemResult]


class AuditSummary(BaseModel):
    id: uuid.UUID
    status: AuditStatus
    stage: str | None
    error: str | None
    created_at: datetime
    finished_at: datetime | None
    question: str | None
    metadata: dict[str, Any] | None
    config: dict[str, Any]
    poll_url: str


class AuditPage(BaseModel):
    items: list[AuditSummary]
    total: int
    limit: int
    offset: int


class ClaimHit(BaseModel):
    claim_id: int
    audit_id: uuid.UUID
    role: Literal["response", "reference"]
    reference: int | None
    position: int
    text: str
    start: int
    end: int
    kind: str
    similarity: float
    audit_created_at: datetime
    poll_url: str


class ClaimSearchResult(BaseModel):
    query: str
    model: str | None
    items: list[ClaimHit]


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    database: str
    redis: str
