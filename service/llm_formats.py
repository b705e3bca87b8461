"""Structured-output formats and their negotiation with the endpoint.

Chat requests ask for JSON in one of three ways, strongest first (``FORMATS``):

``json_schema``  ``response_format: {"type": "json_schema", "json_schema": {...strict schema}}``
                 (OpenAI structured outputs; vLLM, Ollama and llama.cpp's ``llama-server`` too)
``json_object``  ``response_format: {"type": "json_object"}``: any JSON (llama-cpp-python's server)
``prompted``     no ``response_format`` at all: the prompt asks for JSON

Every answer is validated with pydantic whatever the format. A server that rejects a format
(``rejects_format``: an HTTP 4xx other than 401/403/404/408/409/425/429, or a 5xx, whose error
names ``response_format``) gets the next one at once, in the same request; such a rejection is
never retried as a transient error. The format that worked is remembered per base URL and model in
Postgres (``llm_formats``, with the time: ``db.llm_repository.remember_format``), so only the
first request to a server pays for the negotiation. A remembered format older than
``RENEGOTIATE_AFTER_S`` is tried again from ``LLM_RESPONSE_FORMAT`` (a server upgraded in the
meantime may accept a stronger one). Importing this module loads nothing heavy.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

__all__ = [
    "FORMATS",
    "RENEGOTIATE_AFTER_S",
    "canonical_format",
    "next_format",
    "response_format_field",
    "rejects_format",
]

#: Strongest first; a rejection moves to the next.
FORMATS: tuple[str, ...] = ("json_schema", "json_object", "prompted")
#: Seconds after which a remembered format is negotiated again (7 days).
RENEGOTIATE_AFTER_S = 7 * 24 * 3600.0
#: HTTP statuses that say nothing about the request's fields (auth, routing, load).
_NOT_A_FORMAT_REJECTION = frozenset({401, 403, 404, 408, 409, 425, 429})


def canonical_format(name: str) -> str:
    """``name`` with the old spelling ``none`` read as ``prompted``."""
    return "prompted" if name == "none" else name


def next_format(fmt: str) -> str | None:
    """The format after ``fmt`` in ``FORMATS`` (None after ``prompted``).

    >>> next_format("json_schema"), next_format("json_object"), next_format("prompted")
    ('json_object', 'prompted', None)
    """
    i = FORMATS.index(fmt)
    return FORMATS[i + 1] if i + 1 < len(FORMATS) else None


def response_format_field(fmt: str, schema: type[BaseModel]) -> dict[str, Any] | None:
    """The ``response_format`` request field for ``fmt`` (None: the field is left out)."""
    if fmt == "prompted":
        return None
    if fmt == "json_object":
        return {"type": "json_object"}
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": True},
    }


def rejects_format(exc: BaseException) -> bool:
    """True when ``exc`` (an ``openai.APIStatusError``) is the server refusing ``response_format``.

    A 4xx other than 401/403/404/408/409/425/429, or a 5xx (llama-cpp-python's server answers an
    unknown format with HTTP 500), whose message or body names ``response_format`` (also spelled
    "response format"). Anything else is not a rejection of the format.
    """
    import openai  # local: keeps ``import service.llm_formats`` light

    if not isinstance(exc, openai.APIStatusError) or exc.status_code in _NOT_A_FORMAT_REJECTION:
        return False
    if exc.status_code < 400:
        return False
    body = getattr(exc, "body", None)
    try:
        text = f"{exc.message} {json.dumps(body, default=str)}"
    except (TypeError, ValueError):
        text = f"{exc.message} {body}"
    text = text.lower()
    return "response_format" in text or "response format" in text
