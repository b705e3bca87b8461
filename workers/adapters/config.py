"""Which components an audit uses (offline or LLM) and how to reach the endpoint.

Per-audit ``config`` keys override the process settings (``workers.settings.Settings``):

==================  ====================================  =====================================
config key          settings / environment default        values
==================  ====================================  =====================================
``decomposer``      ``DECOMPOSER`` (``offline``)           ``offline`` | ``llm``
``judge``           ``JUDGE`` (``none``)                   ``none`` | ``llm`` | ``auto``
``embedder``        ``EMBEDDER`` (``local``)               ``local`` | ``openai``
``llm_model``       ``LLM_MODEL`` (``gpt-4o-mini``)        chat model name at the endpoint
``embedding_model`` ``OPENAI_EMBEDDING_MODEL``             embedding model name at the endpoint
                    (``text-embedding-3-small``)
==================  ====================================  =====================================

The endpoint itself (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``), the request timeout
(``LLM_TIMEOUT_S``), the judge's evidence count (``LLM_JUDGE_TOP_K``) and the structured
output mode (``LLM_RESPONSE_FORMAT``: ``json_schema`` | ``json_object`` | ``none``) come from the
settings only: an audit cannot redirect the worker to another server. Temperature is always 0.
Importing this module loads nothing heavy (the API validates config values with it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from claims.options import DECOMPOSERS, EMBEDDERS, JUDGES, AuditOptions

__all__ = [
    "DECOMPOSERS",
    "JUDGES",
    "EMBEDDERS",
    "KNOWN_EMBEDDING_DIMS",
    "LLMConfig",
    "resolve_llm_config",
    "validate_llm_config_values",
]

RESPONSE_FORMATS = ("json_schema", "json_object", "none")

#: Output dimension of well-known embedding models (OpenAI docs, "Embeddings" guide; the
#: model cards of the open models). Others: set ``OPENAI_EMBEDDING_DIM``, or the first
#: response fixes it.
KNOWN_EMBEDDING_DIMS: dict[str, int] = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
    "nomic-embed-text": 768,
    "mxbai-embed-large": 1024,
    "BAAI/bge-small-en-v1.5": 384,
    "BAAI/bge-base-en-v1.5": 768,
}


@dataclass(frozen=True, slots=True)
class LLMConfig:
    """The resolved LLM-related configuration of one audit (see module docstring)."""

    decomposer: str = "offline"
    judge: str = "none"
    embedder: str = "local"
    llm_model: str = "gpt-4o-mini"
    embedding_model: str = "text-embedding-3-small"
    embedding_dim: int | None = 1536
    base_url: str | None = None
    api_key: str | None = None
    timeout_s: float = 60.0
    judge_top_k: int = 3
    response_format: str = "json_schema"

    @property
    def uses_llm(self) -> bool:
        """True when any stage may talk to the endpoint."""
        return self.decomposer == "llm" or self.judge in ("llm", "auto") or self.embedder == "openai"


def validate_llm_config_values(config: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming the key when an LLM config value is not allowed.

    Checks ``decomposer``, ``judge``, ``embedder`` (one of their values) and ``llm_model``,
    ``embedding_model`` (non-blank strings); other keys are ignored.
    """
    for key, allowed in (("decomposer", DECOMPOSERS), ("judge", JUDGES), ("embedder", EMBEDDERS)):
        if key in config and config[key] not in allowed:
            raise ValueError(f"config.{key} must be one of {', '.join(allowed)}; got {config[key]!r}")
    for key in ("llm_model", "embedding_model"):
        if key in config and (not isinstance(config[key], str) or not config[key].strip()):
            raise ValueError(f"config.{key} must be a non-blank string")


def resolve_llm_config(config: Mapping[str, Any] | None, settings: Any = None) -> LLMConfig:
    """Merge an audit's ``config`` over the process ``settings`` (``get_settings()`` if None).

    Raises ``ValueError`` for values that ``validate_llm_config_values`` rejects.
    """
    if settings is None:
        from workers.settings import get_settings

        settings = get_settings()
    config = dict(config or {})
    validate_llm_config_values(config)

    def pick(key: str, attr: str, default: Any) -> Any:
        if config.get(key) is not None:
            return config[key]
        return getattr(settings, attr, default)

    options = AuditOptions.from_config(
        {k: v for k, v in config.items() if k in ("decomposer", "judge", "embedder")}, settings
    )
    embedding_model = str(pick("embedding_model", "openai_embedding_model", "text-embedding-3-small"))
    dim = getattr(settings, "openai_embedding_dim", None)
    if dim is None or config.get("embedding_model") is not None:
        dim = KNOWN_EMBEDDING_DIMS.get(embedding_model, dim)
    fmt = str(getattr(settings, "llm_response_format", "json_schema"))
    if fmt not in RESPONSE_FORMATS:
        raise ValueError(f"LLM_RESPONSE_FORMAT must be one of {', '.join(RESPONSE_FORMATS)}; got {fmt!r}")
    return LLMConfig(
        decomposer=options.decomposer,
        judge=options.judge,
        embedder=options.embedder,
        llm_model=str(pick("llm_model", "llm_model", "gpt-4o-mini")),
        embedding_model=embedding_model,
        embedding_dim=int(dim) if dim is not None else None,
        base_url=getattr(settings, "openai_base_url", None),
        api_key=getattr(settings, "openai_api_key", None),
        timeout_s=float(getattr(settings, "llm_timeout_s", 60.0)),
        judge_top_k=int(getattr(settings, "llm_judge_top_k", 3)),
        response_format=fmt,
    )
