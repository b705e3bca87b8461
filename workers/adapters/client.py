"""The ``openai`` client factory and the one cached, validated, repairable chat request.

``make_client`` builds ``openai.OpenAI(base_url=..., api_key=..., max_retries=0,
timeout=...)``: no hidden retries, Celery owns them. ``cached_chat`` is the only place a chat
completion is requested: it looks the request up in ``llm_cache``, sends it on a miss,
validates the answer against a pydantic schema, asks once for a repair when it does not
validate (or is a refusal), stores the valid answer and records calls and tokens in the
usage ledger. Cache writes and usage rows go through ``Ledger`` in their own short
transactions so that they survive a failure of the surrounding stage.
"""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import Session, sessionmaker

from db import llm_repository as repo
from db.engine import session_scope
from workers import metrics
from workers.adapters.config import LLMConfig
from workers.adapters.errors import LLMError, MalformedOutputError, translate_openai_error
from workers.adapters.prompts import repair_message, response_format_for

__all__ = ["Ledger", "make_client", "request_sha256", "cached_chat", "ChatResult"]

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


def request_sha256(payload: Mapping[str, Any]) -> str:
    """Hex SHA-256 of the canonical JSON (sorted keys, no blanks, UTF-8) of ``payload``."""
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass
class Ledger:
    """Usage ledger and cache access for one audit (``audit_id`` None: not tied to an audit).

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


@dataclass(frozen=True)
class ChatResult:
    """A validated answer: ``value`` (the schema instance) and whether it came from the cache."""

    value: BaseModel
    cached: bool


def _tokens(resp: Any) -> tuple[int, int]:
    usage = getattr(resp, "usage", None)
    if usage is None:
        return 0, 0
    return int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0)


def _content(resp: Any) -> str:
    """The text of the first choice; a refusal or empty answer raises ``MalformedOutputError``."""
    choices = getattr(resp, "choices", None) or []
    if not choices:
        raise MalformedOutputError("the answer has no choices")
    message = choices[0].message
    refusal = getattr(message, "refusal", None)
    if refusal:
        raise MalformedOutputError(f"the model refused: {str(refusal)[:200]}")
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
    *,
    client: Any,
    ledger: Ledger,
    cfg: LLMConfig,
    stage: str,
    prompt_version: str,
    messages: Sequence[Mapping[str, str]],
    schema: type[M],
    check: Any = None,
) -> M:
    """One chat request through the cache, validated against ``schema``, with one repair.

    Parameters
    ----------
    client : openai.OpenAI
        From ``make_client``.
    ledger : Ledger
        Cache and usage of the audit.
    cfg : LLMConfig
        Model name and response-format mode.
    stage : str
        ``decompose`` or ``judge`` (usage ledger).
    prompt_version : str
        Part of the cache key.
    messages : sequence of {"role", "content"}
        The request.
    schema : pydantic model class
        The answer must validate against it.
    check : callable(schema instance) -> None, optional
        Extra validation (e.g. one verdict per claim id); raises ``MalformedOutputError``.

    Returns
    -------
    The validated answer (from the cache when this exact request was answered before).

    Raises
    ------
    TransientLLMError
        HTTP 429/5xx, timeout or connection error (the Celery task retries).
    PermanentLLMError
        Other HTTP errors.
    MalformedOutputError
        The answer and the one repair attempt both failed validation (or were refusals).
    """
    model = cfg.llm_model
    payload = _chat_payload(cfg, messages, schema)
    sha = request_sha256(payload)
    hit = ledger.cache_get(model, prompt_version, sha)
    if hit is not None:
        ledger.record(stage, model, cache_hits=1)
        return schema.model_validate(hit)

    calls = pt = ct = 0
    conversation = list(payload["messages"])
    last_error: MalformedOutputError | None = None
    for attempt in range(2):  # the request, then at most one repair
        request = {**payload, "messages": conversation}
        resp = _send_chat(client, ledger, request, stage=stage, calls=calls, pt=pt, ct=ct)
        calls += 1
        p, c = _tokens(resp)
        pt, ct = pt + p, ct + c
        try:
            value = _parse(_content(resp), schema)
            if check is not None:
                check(value)
        except MalformedOutputError as exc:
            last_error = exc
            if attempt == 0:
                answer = _safe_content(resp)
                conversation = [
                    *conversation,
                    {"role": "assistant", "content": answer},
                    repair_message(str(exc)),
                ]
            continue
        ledger.cache_put(model, prompt_version, sha, value.model_dump(mode="json"), pt, ct)
        ledger.record(stage, model, calls=calls, prompt_tokens=pt, completion_tokens=ct)
        return value
    assert last_error is not None
    ledger.record(stage, model, calls=calls, prompt_tokens=pt, completion_tokens=ct, error=str(last_error))
    raise MalformedOutputError(f"{stage}: invalid answer after one repair attempt: {last_error}")


def _chat_payload(
    cfg: LLMConfig, messages: Sequence[Mapping[str, str]], schema: type[BaseModel]
) -> dict[str, Any]:
    """The request of ``cached_chat``: model, messages, temperature 0 and ``cfg``'s response format."""
    fmt = response_format_for(cfg.response_format, schema)
    payload: dict[str, Any] = {"model": cfg.llm_model, "messages": list(messages), "temperature": 0}
    if fmt is not None:
        payload["response_format"] = fmt
    return payload


def _send_chat(
    client: Any, ledger: Ledger, request: dict[str, Any], *, stage: str, calls: int, pt: int, ct: int
) -> Any:
    """Send one chat completion; an openai error is recorded (with the ``calls``/tokens so far) and
    raised as ``TransientLLMError`` or ``PermanentLLMError``."""
    try:
        return client.chat.completions.create(**request)
    except LLMError:
        raise
    except Exception as exc:  # openai errors → transient / permanent
        err = translate_openai_error(exc, what=f"chat completion ({stage})")
        ledger.record(
            stage,
            request["model"],
            calls=calls,
            failed_calls=1,
            prompt_tokens=pt,
            completion_tokens=ct,
            error=str(err),
        )
        raise err from exc


def _safe_content(resp: Any) -> str:
    try:
        choice = resp.choices[0].message
        return str(choice.content or choice.refusal or "")
    except (AttributeError, IndexError, TypeError):
        return ""
