"""The ``openai`` client factory and the one cached, validated, repairable chat request.

``make_client`` builds ``openai.OpenAI(base_url=..., api_key=..., max_retries=0,
timeout=...)``: no hidden retries, Celery owns them. ``cached_chat`` is the only place a chat
completion is requested: it picks the structured-output format the endpoint accepts
(``service.llm_formats``: negotiated once per base URL and model, remembered in Postgres),
looks the request up in ``llm_cache``, sends it on a miss with ``max_tokens`` and a timeout that
fits the stage's time budget (``workers.adapters.budget``), validates the answer against a
pydantic schema, asks once for a repair when it does not validate (or is a refusal, or was cut
off at ``max_tokens``), stores the valid answer and records calls, tokens and the format in the
usage ledger. Cache writes, format choices and usage rows go through ``Ledger`` in their own
short transactions so that they survive a failure of the surrounding stage.
"""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import Session, sessionmaker

from db import llm_repository as repo
from db.engine import session_scope
from service import metrics
from service.llm_config import LLMConfig
from service.llm_formats import (
    RENEGOTIATE_AFTER_S,
    next_format,
    rejects_format,
    response_format_field,
)
from workers.adapters.budget import StageRun
from workers.adapters.errors import (
    BudgetSpentError,
    FormatRejectedError,
    LLMError,
    MalformedOutputError,
    PermanentLLMError,
    translate_openai_error,
)
from workers.adapters.prompts import repair_message

__all__ = ["Ledger", "ChatRequest", "make_client", "endpoint_of", "request_sha256", "cached_chat"]

M = TypeVar("M", bound=BaseModel)

#: Placeholder key for endpoints that need none (vLLM, Ollama); the openai client requires one.
NO_KEY = "not-needed"

_clients: dict[tuple[str | None, str, float], Any] = {}
_clients_lock = threading.Lock()


def make_client(cfg: LLMConfig) -> Any:
    """An ``openai.OpenAI`` client for ``cfg`` (cached per base URL, key and timeout).

    ``max_retries=0`` and ``timeout=cfg.timeout_s`` seconds. ``base_url`` None means the
    client's default (``https://api.openai.com/v1`` or ``OPENAI_BASE_URL``).
    """
    import openai

    key = (cfg.base_url, cfg.api_key or NO_KEY, cfg.timeout_s)
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = openai.OpenAI(
                base_url=cfg.base_url, api_key=cfg.api_key or NO_KEY, max_retries=0, timeout=cfg.timeout_s
            )
            _clients[key] = client
        return client


def endpoint_of(client: Any) -> str:
    """The base URL ``client`` sends to, without credentials or a trailing slash (the key of
    ``llm_formats``)."""
    import httpx

    url = httpx.URL(str(getattr(client, "base_url", "") or ""))
    return str(url.copy_with(username=None, password=None, query=None, fragment=None)).rstrip("/")


def request_sha256(payload: Mapping[str, Any]) -> str:
    """Hex SHA-256 of the canonical JSON (sorted keys, no blanks, UTF-8) of ``payload``."""
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass
class Ledger:
    """Usage ledger, cache and format memory for one audit (``audit_id`` None: not tied to an audit).

    Every method runs in its own transaction from ``factory`` and commits at once.
    """

    factory: sessionmaker[Session]
    audit_id: uuid.UUID | None
    #: Tenant of usage not tied to an audit (a search); an audit's rows take the audit's tenant.
    tenant_id: str = "default"

    def cache_get(self, model: str, prompt_version: str, sha: str) -> dict[str, Any] | None:
        with session_scope(self.factory) as s:
            return repo.get_cached_response(s, model=model, prompt_version=prompt_version, input_sha256=sha)

    def cache_put(
        self, model: str, prompt_version: str, sha: str, response: Mapping[str, Any], pt: int, ct: int
    ) -> None:
        with session_scope(self.factory) as s:
            repo.put_cached_response(
                s,
                model=model,
                prompt_version=prompt_version,
                input_sha256=sha,
                response=response,
                prompt_tokens=pt,
                completion_tokens=ct,
            )

    def record(self, stage: str, model: str, **counts: Any) -> None:
        with session_scope(self.factory) as s:
            repo.record_usage(
                s, audit_id=self.audit_id, stage=stage, model=model, tenant_id=self.tenant_id, **counts
            )
        metrics.observe_llm(stage, counts)

    def format_for(self, base_url: str, model: str, first: str) -> tuple[str, bool]:
        """The format to send to ``model`` at ``base_url`` and whether it is remembered: the
        remembered one (unless older than ``RENEGOTIATE_AFTER_S``), else ``(first, False)``."""
        with session_scope(self.factory) as s:
            known = repo.remembered_format(s, base_url=base_url, model=model, max_age_s=RENEGOTIATE_AFTER_S)
        return (known, True) if known else (first, False)

    def remember_format(self, base_url: str, model: str, fmt: str, reason: str | None) -> None:
        with session_scope(self.factory) as s:
            repo.remember_format(s, base_url=base_url, model=model, response_format=fmt, reason=reason)


@dataclass(frozen=True)
class ChatRequest:
    """One request of an LLM step: its ``stage`` (``decompose`` | ``judge``: ledger, budget), the
    cache's ``prompt_version``, the ``messages``, the ``schema`` the answer must validate against,
    ``max_tokens`` and an extra ``check`` (raises ``MalformedOutputError``, e.g. one verdict per
    claim id)."""

    stage: str
    prompt_version: str
    messages: Sequence[Mapping[str, str]]
    schema: type[BaseModel]
    max_tokens: int
    check: Callable[[Any], None] | None = None


def _tokens(resp: Any) -> tuple[int, int]:
    usage = getattr(resp, "usage", None)
    if usage is None:
        return 0, 0
    return int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0)


def _content(resp: Any, max_tokens: int) -> str:
    """The text of the first choice; a refusal, an empty answer or one cut off at ``max_tokens``
    (``finish_reason`` ``length``: its JSON is incomplete) raises ``MalformedOutputError``."""
    choices = getattr(resp, "choices", None) or []
    if not choices:
        raise MalformedOutputError("the answer has no choices")
    message = choices[0].message
    refusal = getattr(message, "refusal", None)
    if refusal:
        raise MalformedOutputError(f"the model refused: {str(refusal)[:200]}")
    if getattr(choices[0], "finish_reason", None) == "length":
        raise MalformedOutputError(
            f"the answer was cut off at max_tokens={max_tokens} (finish_reason length); "
            "answer with fewer words"
        )
    content = message.content
    if not content or not content.strip():
        raise MalformedOutputError("the answer is empty")
    return str(content)


def _parse(content: str, schema: type[M]) -> M:
    text = content.strip()
    if text.startswith("```"):  # tolerate a fenced block (some local models add one)
        text = text.strip("`")
        text = text[text.find("{") :] if "{" in text else text
    try:
        return schema.model_validate_json(text)
    except ValidationError as exc:
        snippet = content.strip().replace("\n", " ")[:120]
        raise MalformedOutputError(
            f"not valid {schema.__name__} JSON ({exc.error_count()} errors: "
            f"{exc.errors()[0]['msg']}); answer began {snippet!r}"
        ) from None


def cached_chat(
    client: Any, ledger: Ledger, cfg: LLMConfig, request: ChatRequest, run: StageRun | None = None
) -> Any:
    """One chat request through the cache, validated against ``request.schema``, with one repair.

    Parameters
    ----------
    client : openai.OpenAI
        From ``make_client``.
    ledger : Ledger
        Cache, usage and format memory of the audit.
    cfg : LLMConfig
        Model name, first response format, request timeout.
    request : ChatRequest
        Stage, prompt version, messages, schema, ``max_tokens``, extra check.
    run : StageRun, optional
        The stage run: each request waits at most what is left of its time budget.

    Returns
    -------
    The validated answer, an instance of ``request.schema`` (from the cache when this exact
    request, ``max_tokens`` aside, was answered before).

    Raises
    ------
    TransientLLMError
        HTTP 429/5xx, timeout or connection error (the Celery task may retry).
    PermanentLLMError
        Other HTTP errors.
    MalformedOutputError
        The answer and the one repair attempt both failed validation (or were refusals, or were
        cut off at ``max_tokens``).
    BudgetSpentError
        The stage's time budget ran out before a request could be sent.
    """
    run = run or StageRun()
    base_url = endpoint_of(client)
    found, known = ledger.format_for(base_url, cfg.llm_model, cfg.response_format)
    fmt: str | None = found
    while fmt is not None:
        payload = _chat_payload(cfg, request, fmt)
        sha = request_sha256({k: v for k, v in payload.items() if k != "max_tokens"})
        hit = ledger.cache_get(cfg.llm_model, request.prompt_version, sha)
        if hit is not None:
            ledger.record(request.stage, cfg.llm_model, cache_hits=1, response_format=fmt)
            return request.schema.model_validate(hit)
        try:
            value = _ask(client, ledger, cfg, request, payload, sha, run)
        except FormatRejectedError as exc:  # never retried: the next format, at once
            fmt = next_format(fmt)
            if fmt is not None:
                ledger.remember_format(base_url, cfg.llm_model, fmt, reason=str(exc))
                known = True
            continue
        if not known:  # the first format tried was accepted: remember it (and when)
            ledger.remember_format(base_url, cfg.llm_model, fmt, reason=None)
        return value
    raise PermanentLLMError(f"{request.stage}: every response format was rejected")


def _ask(
    client: Any,
    ledger: Ledger,
    cfg: LLMConfig,
    request: ChatRequest,
    payload: dict[str, Any],
    sha: str,
    run: StageRun,
) -> Any:
    """Send ``payload``, and at most one repair request; cache and record the valid answer."""
    fmt = _format_of(payload)
    calls = pt = ct = 0
    conversation = list(payload["messages"])
    last_error: MalformedOutputError | None = None
    for attempt in range(2):  # the request, then at most one repair
        sent = {**payload, "messages": conversation}
        used = (calls, pt, ct)
        timeout = _timeout(run, cfg, ledger, request.stage, used, fmt)
        resp = _send_chat(client, ledger, sent, stage=request.stage, used=used, timeout=timeout)
        calls += 1
        p, c = _tokens(resp)
        pt, ct = pt + p, ct + c
        try:
            value = _parse(_content(resp, request.max_tokens), request.schema)
            if request.check is not None:
                request.check(value)
        except MalformedOutputError as exc:
            last_error = exc
            if attempt == 0:
                answer = {"role": "assistant", "content": _safe_content(resp)}
                conversation = [*conversation, answer, repair_message(str(exc))]
            continue
        ledger.cache_put(cfg.llm_model, request.prompt_version, sha, value.model_dump(mode="json"), pt, ct)
        last_error = None
        break
    counts = {"calls": calls, "prompt_tokens": pt, "completion_tokens": ct, "response_format": fmt}
    if last_error is None:
        ledger.record(request.stage, cfg.llm_model, **counts)
        return value
    ledger.record(request.stage, cfg.llm_model, error=str(last_error), **counts)
    raise MalformedOutputError(f"{request.stage}: invalid answer after one repair attempt: {last_error}")


def _timeout(
    run: StageRun, cfg: LLMConfig, ledger: Ledger, stage: str, used: tuple[int, int, int], fmt: str
) -> float:
    """``run.timeout(cfg.timeout_s)``; when the budget is spent after requests were answered
    (before a repair), their ``used`` calls and tokens are recorded before ``BudgetSpentError``."""
    try:
        return run.timeout(cfg.timeout_s)
    except BudgetSpentError as exc:
        calls, pt, ct = used
        if calls:
            ledger.record(
                stage, cfg.llm_model, calls=calls, prompt_tokens=pt, completion_tokens=ct,
                error=str(exc), response_format=fmt,
            )  # fmt: skip
        raise


def _format_of(payload: Mapping[str, Any]) -> str:
    field = payload.get("response_format")
    return "prompted" if field is None else str(field["type"])


def _chat_payload(cfg: LLMConfig, request: ChatRequest, fmt: str) -> dict[str, Any]:
    """The request body: model, messages, temperature 0, ``max_tokens`` and the ``fmt`` field."""
    payload: dict[str, Any] = {
        "model": cfg.llm_model,
        "messages": list(request.messages),
        "temperature": 0,
        "max_tokens": request.max_tokens,
    }
    field = response_format_field(fmt, request.schema)
    if field is not None:
        payload["response_format"] = field
    return payload


def _send_chat(
    client: Any,
    ledger: Ledger,
    request: dict[str, Any],
    *,
    stage: str,
    used: tuple[int, int, int],
    timeout: float,
) -> Any:
    """Send one chat completion (waiting at most ``timeout`` seconds). An error is recorded (with
    the ``used`` calls and tokens so far) and raised as ``FormatRejectedError`` when the server
    refused ``response_format``, else as ``TransientLLMError`` or ``PermanentLLMError``."""
    try:
        return client.chat.completions.create(**request, timeout=timeout)
    except LLMError:
        raise
    except Exception as exc:  # openai errors → rejected format / transient / permanent
        err: LLMError = translate_openai_error(exc, what=f"chat completion ({stage})")
        fmt = _format_of(request)
        if fmt != "prompted" and rejects_format(exc):
            err = FormatRejectedError(f"response_format {fmt} rejected: {err}")
        calls, pt, ct = used
        ledger.record(
            stage,
            request["model"],
            calls=calls,
            failed_calls=1,
            prompt_tokens=pt,
            completion_tokens=ct,
            error=str(err),
            response_format=fmt,
        )
        raise err from exc


def _safe_content(resp: Any) -> str:
    try:
        choice = resp.choices[0].message
        return str(choice.content or choice.refusal or "")
    except (AttributeError, IndexError, TypeError):
        return ""
