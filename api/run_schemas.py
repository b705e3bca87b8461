"""Request models of ``/runs`` and ``/suites`` (strict like ``api.schemas``: unknown keys are errors)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    field_validator,
)

from api.schemas import AuditConfig, AuditRequest, NonBlankStr, no_nul, non_blank
from claims.run_diff import Gate

__all__ = ["RunItemIn", "RejectedLine", "RunRequest", "SuiteSource", "SuiteWebhook", "SuiteIn", "Name"]

#: A suite name or run label: 1-200 characters, no NUL, no slash (``suite/label`` names a run).
Name = Annotated[
    StrictStr, Field(max_length=200, pattern=r"^[^/]+$"), AfterValidator(no_nul), AfterValidator(non_blank)
]
#: An item id: 1-500 characters, not blank, no NUL.
ItemId = Annotated[
    StrictStr, Field(min_length=1, max_length=500), AfterValidator(no_nul), AfterValidator(non_blank)
]


#: A 1-based line number of the caller's input file (a Postgres integer).
LineNumber = Annotated[int, Field(strict=True, ge=1, le=2**31 - 1)]


class RunItemIn(AuditRequest):
    """One item of a run: an audit plus the caller's item id (items of two runs match by id)."""

    id: ItemId | StrictInt
    line: LineNumber | None = Field(
        None,
        description="The item's 1-based line in the caller's input file (optional, never audited nor "
        "part of the item's content): a rejected item is recorded with it and its reason names it.",
    )

    def item_id(self) -> str:
        return str(self.id)

    def body(self) -> dict[str, Any]:
        """The audit fields as stored (``config``: the keys the caller set)."""
        out: dict[str, Any] = {"response": self.response, "references": self.stored_references()}
        out["config"] = self.stored_config()
        for key in ("question", "metadata"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


def inlined_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON schema with its ``$defs`` written in place (no ``$ref`` left): for a field
    validated by hand, whose schema still documents (and lets fuzzers generate) typed values."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[str(node["$ref"]).rsplit("/", 1)[-1]])
            return {key: walk(value) for key, value in node.items()}
        if isinstance(node, list):
            return [walk(value) for value in node]
        return node

    out: dict[str, Any] = walk(schema)
    return out


#: One run item as the OpenAPI schema shows it; validated item by item in the route, so that one
#: bad item is ``rejected`` and the others go on.
RunItemAny = Annotated[Any, WithJsonSchema(inlined_schema(RunItemIn))]


class RejectedLine(BaseModel):
    """An input line the client could not send as an item (undecodable bytes, malformed JSON, no
    id): counted and listed in the run, never audited."""

    model_config = ConfigDict(extra="forbid")

    line: LineNumber | None = Field(None, description="1-based line number (a Postgres integer).")
    id: Annotated[StrictStr, Field(min_length=1, max_length=500), AfterValidator(no_nul)] | None = Field(
        None, description="Its item id, if any (as the line gave it)."
    )
    reason: Annotated[StrictStr, Field(max_length=2000), AfterValidator(no_nul), AfterValidator(non_blank)]

    def key(self) -> str:
        """One row per line of a resumed batch: the item id, else ``line N``."""
        return self.id if self.id is not None else f"line {self.line}"


class RunRequest(BaseModel):
    """``POST /runs``: items of the run ``suite``/``label`` (created on first use)."""

    model_config = ConfigDict(extra="forbid")

    suite: Name
    label: Name | None = Field(None, description="Default: the current UTC time, e.g. 2026-11-30T02:00Z.")
    source: Annotated[StrictStr, Field(max_length=500), AfterValidator(no_nul)] = "api"
    items: list[RunItemAny] = Field(
        description="Run items {id, response, references, question?, metadata?, config?}; each is "
        "validated on its own (an invalid one is rejected, the others go on)."
    )
    rejected: list[RejectedLine] = Field(
        default_factory=list,
        description="Lines the client rejected before sending (counted in summary.counts.rejected).",
    )
    final: StrictBool = Field(
        True,
        description="No more items will come: the run finishes once its audits end. "
        "Send false for every chunk but the last when items come in several requests.",
    )


class SuiteSource(BaseModel):
    """Where a scheduled run reads its items: exactly one of ``jsonl`` (a path or an http(s) URL)
    or ``sql`` (a read-only query returning id, question, response, references)."""

    model_config = ConfigDict(extra="forbid")

    jsonl: NonBlankStr | None = None
    sql: NonBlankStr | None = None

    def kind_and_value(self) -> tuple[str, str]:
        given = [(k, v) for k, v in (("jsonl", self.jsonl), ("sql", self.sql)) if v is not None]
        if len(given) != 1:
            raise ValueError("source: give exactly one of jsonl (path or URL) or sql (query)")
        return given[0]


class SuiteWebhook(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: Annotated[StrictStr, Field(pattern=r"^https?://"), AfterValidator(no_nul), AfterValidator(non_blank)]
    secret: NonBlankStr | None = Field(None, description="HMAC-SHA256 key of the signature header.")


class SuiteIn(BaseModel):
    """``PUT /suites/{name}`` (and one entry of the suites YAML file)."""

    model_config = ConfigDict(extra="forbid")

    cron: NonBlankStr | None = Field(None, description="Five-field cron expression in UTC, e.g. '0 2 * * *'.")
    source: SuiteSource | None = None
    sample_size: Annotated[int, Field(strict=True, gt=0, le=1_000_000)] | None = None
    canaries: Annotated[int, Field(strict=True, gt=0, le=50)] | None = Field(
        None,
        description="Canaries per fault kind per run: the run's first N items each get one canary of "
        "every fault kind, audited after the item (GET /runs/{run_id} reports the detection rate per kind).",
    )
    config: AuditConfig | None = None
    webhook: SuiteWebhook | None = None
    gate: dict[str, float | int | None] | None = Field(
        None, description="Limits against the previous run, in points: " + ", ".join(Gate().to_dict())
    )
    enabled: StrictBool = True

    @field_validator("source")
    @classmethod
    def _one_source(cls, value: SuiteSource | None) -> SuiteSource | None:
        if value is not None:
            value.kind_and_value()
        return value

    @field_validator("gate")
    @classmethod
    def _gate(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        Gate.from_dict(value)
        return value


RunStatus = Literal["open", "running", "finished", "failed"]
