"""Error types of the LLM adapters and the translation of ``openai`` client errors into them.

Retries: ``TransientLLMError`` (HTTP 429, 5xx, timeouts, connection errors) is retried by the
Celery task with exponential backoff and jitter, ``LLM_RETRIES`` times; ``PermanentLLMError``
(other 4xx: bad key, unknown model, bad request) is not retried; ``MalformedOutputError`` (output
that is not valid JSON for the schema, cut off at ``max_tokens``, or a refusal, after one repair
attempt) and ``BudgetSpentError`` (the stage's time budget is spent) are not retried either.
What then happens is the audit's ``llm_on_error`` (``workers.adapters.policy``): the offline
component's result (recorded as a fallback), or ``LLMFailure``, which fails the audit with the
provider's message. ``FormatRejectedError`` (the server refused ``response_format``) never leaves
``workers.adapters.client``: the request is sent again with the next format. Messages carry the
provider's error text.
"""

from __future__ import annotations

__all__ = [
    "LLMError",
    "TransientLLMError",
    "PermanentLLMError",
    "MalformedOutputError",
    "BudgetSpentError",
    "FormatRejectedError",
    "LLMFailure",
    "translate_openai_error",
]


class LLMError(Exception):
    """Base class of every error raised by ``workers.adapters``."""


class TransientLLMError(LLMError):
    """The endpoint may answer if asked again later (429, 5xx, timeout, connection error)."""


class PermanentLLMError(LLMError):
    """Asking again will not help (authentication, unknown model, invalid request)."""


class MalformedOutputError(LLMError):
    """The model answered, but not with output that validates against the expected schema."""


class BudgetSpentError(LLMError):
    """The stage's time budget (``LLM_STAGE_BUDGET_S``) is spent: no further request is sent."""


class FormatRejectedError(PermanentLLMError):
    """The server refused the request's ``response_format`` (``service.llm_formats``)."""


class LLMFailure(LLMError):
    """An LLM step failed and the audit's ``llm_on_error`` is ``fail``: the audit fails with this
    message (the provider's own error, or why the answer was unusable)."""


def translate_openai_error(exc: BaseException, *, what: str) -> LLMError:
    """Map an ``openai`` exception to ``TransientLLMError`` or ``PermanentLLMError``.

    ``what`` names the request (e.g. ``"chat completion (decompose)"``) for the message. The
    message keeps the provider's own error text, e.g.
    ``"LLM endpoint error during chat completion (decompose): HTTP 500: upstream overloaded"``.
    Exceptions that are not ``openai`` errors are wrapped as permanent.
    """
    import openai  # local: keeps ``import workers.adapters.errors`` light

    if isinstance(exc, openai.APITimeoutError):
        return TransientLLMError(f"LLM endpoint timed out during {what}: {exc}")
    if isinstance(exc, openai.APIConnectionError):
        return TransientLLMError(f"LLM endpoint unreachable during {what}: {exc}")
    if isinstance(exc, openai.APIStatusError):
        detail = _provider_message(exc)
        msg = f"LLM endpoint error during {what}: HTTP {exc.status_code}: {detail}"
        if exc.status_code in (408, 409, 425, 429) or exc.status_code >= 500:
            return TransientLLMError(msg)
        return PermanentLLMError(msg)
    return PermanentLLMError(f"LLM endpoint error during {what}: {type(exc).__name__}: {exc}")


def _provider_message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(err, str):
            return err
    message = getattr(exc, "message", None)
    return str(message or exc)
