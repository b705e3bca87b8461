"""SQLAlchemy models of the LLM path: response cache, usage ledger, judge records.

llm_cache       one chat-completion answer per (model, prompt_version, input_sha256): the parsed,
                schema-valid JSON the model returned, with the tokens it cost. Shared by every
                audit: an identical request is never sent twice.
llm_usage       append-only ledger, one row per LLM interaction of an audit's stage: calls made,
                failed calls, cache hits, prompt/completion tokens, and a fallback note when the
                stage fell back to the offline component. View ``llm_usage_daily`` sums it per day.
llm_judgements  one row per response claim the LLM judge saw: the rule verdict, the judge's
                verdict and reason, and the verdict kept (disagreements stay visible).
llm_formats     one row per endpoint (base URL) and chat model: the structured-output format it
                accepts (``service.llm_formats``), since when, and the rejection that led
                there. Deployment-wide, no tenant.

Registered on ``db.models.Base.metadata`` (imported by ``migrations/env.py``); created by
migrations ``0002_llm`` and ``0013_llm_formats`` (``llm_formats``, and ``llm_usage``'s
``response_format`` and ``scope``).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text, func
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from db.models import DEFAULT_TENANT, Base

__all__ = ["LLMCacheRow", "LLMUsageRow", "LLMJudgementRow", "LLMFormatRow"]


class LLMCacheRow(Base):
    __tablename__ = "llm_cache"

    #: Model name at the endpoint (e.g. ``gpt-4o-mini``).
    model: Mapped[str] = mapped_column(Text, primary_key=True)
    #: ``workers.adapters.prompts.*_PROMPT_VERSION``.
    prompt_version: Mapped[str] = mapped_column(Text, primary_key=True)
    #: Hex SHA-256 of the canonical JSON of the request (messages, response format, temperature).
    input_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    response: Mapped[dict[str, Any]] = mapped_column(JSONB)
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class LLMUsageRow(Base):
    __tablename__ = "llm_usage"
    __table_args__ = (
        Index("ix_llm_usage_created_at", "created_at"),
        Index("ix_llm_usage_tenant_id_created_at", "tenant_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    audit_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("audits.id", ondelete="CASCADE"), index=True
    )
    tenant_id: Mapped[str] = mapped_column(
        Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT
    )  # copied from the audit by trigger
    #: ``decompose`` | ``embed`` | ``judge``.
    stage: Mapped[str] = mapped_column(String(16))
    model: Mapped[str] = mapped_column(Text)
    #: Requests answered by the endpoint (a repair request counts).
    calls: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    #: Requests that ended in an error (HTTP 429/5xx, timeout, connection error).
    failed_calls: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    #: Requests answered from ``llm_cache`` / the embedding cache instead of the endpoint.
    cache_hits: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0, server_default=sql_text("0"))
    #: Set when the stage fell back to the offline component: why.
    fallback: Mapped[str | None] = mapped_column(Text)
    #: The provider's error of a failed request.
    error: Mapped[str | None] = mapped_column(Text)
    #: Structured-output format of the chat request(s): json_schema | json_object | prompted.
    response_format: Mapped[str | None] = mapped_column(Text)
    #: Claims a fallback affects: ``{"role", "position"}`` (a decomposed document) or
    #: ``{"response_claims": [index, ...]}`` (claims the judge was to see).
    scope: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())


class LLMJudgementRow(Base):
    __tablename__ = "llm_judgements"

    audit_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("audits.id", ondelete="CASCADE"), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(
        Text, default=DEFAULT_TENANT, server_default=DEFAULT_TENANT
    )  # copied from the audit by trigger
    #: Index of the response claim in the audit's response claims (``claims.position``).
    response_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    rule_verdict: Mapped[str] = mapped_column(String(32))
    judge_verdict: Mapped[str] = mapped_column(String(32))
    judge_reason: Mapped[str] = mapped_column(Text, default="", server_default="")
    #: The verdict stored in ``verdicts`` after reconciling rule and judge.
    final_verdict: Mapped[str] = mapped_column(String(32))
    model: Mapped[str] = mapped_column(Text)


class LLMFormatRow(Base):
    __tablename__ = "llm_formats"

    #: The endpoint's base URL as the client sends to it, without credentials (``endpoint_of``).
    base_url: Mapped[str] = mapped_column(Text, primary_key=True)
    model: Mapped[str] = mapped_column(Text, primary_key=True)
    #: json_schema | json_object | prompted (``service.llm_formats.FORMATS``).
    response_format: Mapped[str] = mapped_column(Text)
    #: The server's rejection of the format before it (None when the first one tried was kept).
    reason: Mapped[str | None] = mapped_column(Text)
    negotiated_at: Mapped[datetime] = mapped_column(server_default=func.now())
