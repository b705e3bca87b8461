"""Pydantic request/response models of the HTTP API (contract: docs in README, ``/docs``).

Requests are strict: unknown keys are rejected (``extra="forbid"``), types are not coerced
(``"0.8"`` is not a float, ``1`` is not a bool). A blank (empty or whitespace-only) reference
among others is kept as an empty document with no claims, so reference indices stay those of
the request; only all-blank references are an error. An empty response string is valid (zero
claims). No text anywhere (response, references, question, config strings, metadata keys and
values) may contain a NUL character (Postgres text cannot hold it) or a lone surrogate
(``"\\ud800"``: no UTF-8 encoding exists for it), and no number may be NaN or infinite (JSON has
neither). A config key sent as ``null`` is rejected (omit the key to get the default).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictStr,
    Tag,
    field_validator,
)

from claims.types import AuditStatus as AuditStatus
from service.storable import NUL_MESSAGE as NUL_MESSAGE
from service.storable import SURROGATE_MESSAGE as SURROGATE_MESSAGE
from service.storable import text_problem as text_problem
from service.storable import value_problem as json_problem

#: Largest ``offset`` of a paginated listing (Postgres OFFSET is a bigint; far beyond any table).
MAX_OFFSET = 2**31 - 1


def no_nul(value: str) -> str:
    """``value`` unchanged; ``ValueError`` naming the problem when it holds a NUL or a lone surrogate."""
    problem = text_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def non_blank(value: str) -> str:
    """``value`` unchanged; ``ValueError`` when it is empty or whitespace only."""
    if not value.strip():
        raise ValueError("must not be empty or whitespace only")
    return value


#: A string without NUL characters. A length or pattern constraint goes BEFORE the validators
#: (``Annotated[StrictStr, Field(max_length=N), AfterValidator(no_nul)]``): after them, pydantic
#: checks it generically and its message speaks of "items", not characters.
Text = Annotated[StrictStr, AfterValidator(no_nul)]
NonBlankStr = Annotated[StrictStr, AfterValidator(no_nul), AfterValidator(non_blank)]


def _without_null(schema: dict[str, Any]) -> None:
    """Drop ``null`` from every property's ``anyOf`` (``X | None`` fields that refuse an explicit
    null: ``AuditConfig._not_null``), so the schema says what the API accepts; validation, and
    its single error for a wrong type, are unchanged."""
    for prop in schema.get("properties", {}).values():
        options = [o for o in prop.get("anyOf", []) if o != {"type": "null"}]
        if "anyOf" in prop and len(options) == 1:
            del prop["anyOf"]
            prop.update(options[0])
        elif "anyOf" in prop:
            prop["anyOf"] = options


class AuditConfig(BaseModel):
    """Per-audit configuration; every key is optional, unknown keys are an error, and an explicit
    null is an error (omit the key for the default), so the schema shows no key as nullable."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_without_null)

    threshold: Annotated[float, Field(strict=True, ge=-1.0, le=1.0, allow_inf_nan=False)] | None = Field(
        None,
        description=(
            "Cosine threshold in [-1, 1] (finite; an integer is accepted); default: the engine's "
            "calibrated claims.match.DEFAULT_THRESHOLD. See README 'Per-audit config'."
        ),
    )
    case_insensitive: StrictBool | None = Field(None, description="Levenshtein scores ignore case.")
    remove_punctuation: StrictBool | None = Field(None, description="Levenshtein scores ignore punctuation.")
    decomposer: Literal["offline", "llm"] | None = None
    judge: Literal["none", "llm", "auto"] | None = Field(
        None,
        description=(
            "LLM judge: none; llm (every material claim); auto (only claims whose confidence lies "
            "in llm_band, never a rule-detected conflict). Default: the JUDGE setting."
        ),
    )
    llm_band: (
        tuple[
            Annotated[float, Field(strict=True, ge=0.0, le=1.0, allow_inf_nan=False)],
            Annotated[float, Field(strict=True, ge=0.0, le=1.0, allow_inf_nan=False)],
        ]
        | None
    ) = Field(
        None,
        description="[low, high] confidence band sent to the LLM judge under judge=auto; default LLM_BAND.",
    )
    embedder: Literal["local", "openai"] | None = None
    llm_model: NonBlankStr | None = None
    embedding_model: NonBlankStr | None = None
    llm_on_error: Literal["offline", "fail"] | None = Field(
        None,
        description=(
            "When the LLM decomposer or judge fails: offline (the offline result stands, marked on "
            "each claim and in usage.fallbacks) or fail (the audit fails with the LLM's error). "
            "Default: the LLM_ON_ERROR setting (offline)."
        ),
    )
    references: Literal["full", "evidence"] | None = Field(
        None,
        description=(
            "full (default): every reference is decomposed, as a ground truth whose recall counts; "
            "evidence: in an audit with 20 or more references, only those that can be evidence for "
            "a response claim are decomposed (the others keep their index with no claims)."
        ),
    )

    @field_validator("*", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        # Only runs for keys the client sent (defaults are not validated): explicit null is an error.
        if value is None:
            raise ValueError("must not be null; omit the key to use the default")
        return value

    @field_validator("llm_band")
    @classmethod
    def _ordered(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and value[0] > value[1]:
            raise ValueError(f"must be [low, high] with low <= high, got [{value[0]}, {value[1]}]")
        return value


class ReferenceDocument(BaseModel):
    """A reference with the caller's names for its source document (stored with it, grouped by
    in the view ``reference_verdicts``)."""

    model_config = ConfigDict(extra="forbid")

    text: Text = Field(description="The reference text.")
    id: (
        Annotated[
            StrictStr, Field(min_length=1, max_length=500), AfterValidator(no_nul), AfterValidator(non_blank)
        ]
        | None
    ) = Field(None, description="Your id of the document (1-500 characters).")
    url: (
        Annotated[
            StrictStr, Field(min_length=1, max_length=2000), AfterValidator(no_nul), AfterValidator(non_blank)
        ]
        | None
    ) = Field(None, description="Where the document lives (1-2000 characters).")
    title: (
        Annotated[
            StrictStr, Field(min_length=1, max_length=1000), AfterValidator(no_nul), AfterValidator(non_blank)
        ]
        | None
    ) = Field(None, description="Its title (1-1000 characters).")


def _reference_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict | ReferenceDocument):
        return "document"
    return None


#: A reference: its text, or ``{"text", "id"?, "url"?, "title"?}``. The union is tagged so that an
#: error's ``loc`` reads ``references.0.document.id``, never a validator's internal name.
Reference = Annotated[
    Annotated[Text, Tag("text")] | Annotated[ReferenceDocument, Tag("document")],
    Discriminator(
        _reference_kind,
        custom_error_type="reference_type",
        custom_error_message='a reference is a string or an object {"text", "id"?, "url"?, "title"?}',
    ),
]


def reference_text(reference: str | ReferenceDocument) -> str:
    """The text of a reference given either way."""
    return reference if isinstance(reference, str) else reference.text


class AuditRequest(BaseModel):
    """One audit: a response checked claim by claim against one or more references."""

    model_config = ConfigDict(extra="forbid")

    response: Text = Field(description="The text under audit (may be empty).")
    references: list[Reference] = Field(
        min_length=1,
        description=(
            'Reference texts, each a string or {"text", "id"?, "url"?, "title"?}; a blank one is '
            "kept as an empty document (no claims), but at least one must have text."
        ),
    )
    question: Text | None = None
    metadata: dict[str, Any] | None = None
    config: AuditConfig | None = None

    @field_validator("references")
    @classmethod
    def _some_text(cls, value: list[str | ReferenceDocument]) -> list[str | ReferenceDocument]:
        if value and not any(reference_text(r).strip() for r in value):
            raise ValueError("every reference is empty or whitespace only (at least one needs text)")
        return value

    @field_validator("metadata")
    @classmethod
    def _json_safe_metadata(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        problem = None if value is None else json_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    def stored_config(self) -> dict[str, Any]:
        """The config keys the client set (defaults are resolved by the workers)."""
        return {} if self.config is None else self.config.model_dump(exclude_unset=True)

    def reference_texts(self) -> list[str]:
        """The references' texts, in order."""
        return [reference_text(r) for r in self.references]

    def stored_references(self) -> list[str | dict[str, str]]:
        """The references as sent: a string, or an object of the keys given (JSON)."""
        return [r if isinstance(r, str) else r.model_dump(exclude_none=True) for r in self.references]


#: Longest idempotency key, in characters: the ``Idempotency-Key`` header's limit, also for a
#: batch item's key (a key stored in the unique index must fit one btree row: 2,704 bytes).
MAX_IDEMPOTENCY_KEY = 255


class BatchItem(AuditRequest):
    """One item of ``POST /audits/batch``: an audit plus its optional idempotency key (at most
    ``MAX_IDEMPOTENCY_KEY`` characters, as the header)."""

    idempotency_key: (
        Annotated[StrictStr, Field(max_length=MAX_IDEMPOTENCY_KEY), AfterValidator(no_nul)] | None
    ) = None


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
    similarity: float = Field(description="1 - cosine distance to the query, in [-1, 1].")
    audit_created_at: datetime
    verdict: str | None = Field(None, description="The response claim's verdict; null for a reference claim.")
    suite: str | None = Field(None, description="Suite of the run whose item the audit is; null: none.")
    run_id: uuid.UUID | None = None
    run_label: str | None = None
    poll_url: str


class ClaimSearchResult(BaseModel):
    query: str
    model: str | None
    items: list[ClaimHit]


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    database: str
    redis: str
    workers: int | None = Field(
        None, description="Celery workers that answered a ping (cached a few seconds); null: not checked."
    )
