"""Which components an audit uses (offline or LLM) and how to reach the endpoint.

Per-audit ``config`` keys override the process settings (``service.settings.Settings``):

==================  ====================================  =====================================
config key          settings / environment default        values
==================  ====================================  =====================================
``decomposer``      ``DECOMPOSER`` (``offline``)           ``offline`` | ``llm``
``judge``           ``JUDGE`` (``none``)                   ``none`` | ``llm`` | ``auto``
``embedder``        ``EMBEDDER`` (``local``)               ``local`` | ``openai``
``llm_model``       ``LLM_MODEL`` (``gpt-4o-mini``)        chat model name at the endpoint
``embedding_model`` ``OPENAI_EMBEDDING_MODEL``             embedding model name at the endpoint
                    (``text-embedding-3-small``)
``llm_on_error``    ``LLM_ON_ERROR`` (``offline``)         ``offline`` | ``fail``
==================  ====================================  =====================================

The endpoint itself (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``) and how requests are bounded come
from the settings only: an audit cannot redirect the worker to another server or lift a limit.

- ``LLM_TIMEOUT_S``: the longest wait for one request; ``LLM_STAGE_BUDGET_S``: the wall time one
  run of a stage may spend on the endpoint, counted from the run's start (``{"decompose": 300,
  "judge": 120}``); each request waits at most what is left of it (``workers.adapters.budget``).
- ``LLM_RETRIES``: runs of a stage retried after a transient endpoint error before
  ``llm_on_error`` decides (``workers.adapters.policy``).
- ``max_tokens`` of every request (``output_tokens``): decomposition
  ``LLM_DECOMPOSE_TOKENS_PER_CHAR`` per character of the text, the judge
  ``LLM_JUDGE_TOKENS_PER_CLAIM`` per claim sent, each at least ``MIN_OUTPUT_TOKENS`` and at most
  ``LLM_MAX_TOKENS``.
- ``LLM_RESPONSE_FORMAT``: the structured-output request tried first (``json_schema``, then
  ``json_object``, then ``prompted``: no ``response_format``, the prompt asks for JSON); a
  server that rejects one moves the model down the chain (``service.llm_formats``).
- ``LLM_JUDGE_TOP_K``: evidence claims per judged claim.

Temperature is always 0. Importing this module loads nothing heavy (the API validates config
values with it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from claims.options import DECOMPOSERS, EMBEDDERS, JUDGES, AuditOptions
from service.llm_formats import FORMATS, canonical_format

__all__ = [
    "DECOMPOSERS",
    "JUDGES",
    "EMBEDDERS",
    "KNOWN_EMBEDDING_DIMS",
    "LLMConfig",
    "MIN_OUTPUT_TOKENS",
    "DEFAULT_STAGE_BUDGET_S",
    "STAGE_OF_STEP",
    "resolve_llm_config",
    "validate_llm_config_values",
]

#: ``max_tokens`` is never below this (the JSON of an empty answer and a short claim fit).
MIN_OUTPUT_TOKENS = 64
#: The pipeline stage (``audits.status``) in which each LLM step runs.
STAGE_OF_STEP: dict[str, str] = {"decompose": "decomposing", "judge": "matching"}
#: Seconds one run of a stage may spend on the endpoint (``LLM_STAGE_BUDGET_S``).
DEFAULT_STAGE_BUDGET_S: dict[str, float] = {"decompose": 300.0, "judge": 120.0}

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
    on_error: str = "offline"
    retries: int = 2
    stage_budget_s: tuple[tuple[str, float], ...] = tuple(DEFAULT_STAGE_BUDGET_S.items())
    max_tokens: int = 4096
    decompose_tokens_per_char: float = 1.5
    judge_tokens_per_claim: int = 80

    @property
    def uses_llm(self) -> bool:
        """True when any stage may talk to the endpoint."""
        return self.decomposer == "llm" or self.judge in ("llm", "auto") or self.embedder == "openai"

    def budget_s(self, stage: str) -> float | None:
        """Seconds one run of ``stage`` may spend on the endpoint (None: only ``timeout_s`` per request)."""
        return dict(self.stage_budget_s).get(stage)

    def output_tokens(self, stage: str, size: int) -> int:
        """``max_tokens`` of a request of ``stage`` for ``size`` characters of text (``decompose``)
        or ``size`` claims (``judge``): the expected answer, within ``[MIN_OUTPUT_TOKENS, max_tokens]``.

        The defaults cover the answers measured with SmolLM2's tokenizer (docs/LLM.md, "Bounded
        output"): the offline decomposer's claims of 400 texts as ``Decomposition`` JSON take
        0.45 tokens per character of the text (median; 95th percentile 1.03, 99th 1.49), so 1.5;
        one judge entry with a one-sentence reason takes 50 tokens, so 80.

        >>> LLMConfig().output_tokens("judge", 3), LLMConfig().output_tokens("decompose", 100_000)
        (240, 4096)
        """
        per = self.judge_tokens_per_claim if stage == "judge" else self.decompose_tokens_per_char
        return max(MIN_OUTPUT_TOKENS, min(self.max_tokens, math.ceil(per * size)))


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


def resolve_llm_config(config: Mapping[str, Any] | None, settings: Any) -> LLMConfig:
    """Merge an audit's ``config`` over the process ``settings`` (``service.settings.Settings``).

    Raises ``ValueError`` for values that ``validate_llm_config_values`` rejects.
    """
    config = dict(config or {})
    validate_llm_config_values(config)

    def pick(key: str, attr: str, default: Any) -> Any:
        if config.get(key) is not None:
            return config[key]
        return getattr(settings, attr, default)

    options = AuditOptions.from_config(
        {k: v for k, v in config.items() if k in ("decomposer", "judge", "embedder", "llm_on_error")},
        settings,
    )
    embedding_model = str(pick("embedding_model", "openai_embedding_model", "text-embedding-3-small"))
    dim = getattr(settings, "openai_embedding_dim", None)
    if dim is None or config.get("embedding_model") is not None:
        dim = KNOWN_EMBEDDING_DIMS.get(embedding_model, dim)
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
        on_error=options.llm_on_error,
        **_bounds(settings),
    )


def _bounds(settings: Any) -> dict[str, Any]:
    """The request bounds and format of ``LLMConfig`` from ``settings`` (defaults where absent)."""
    fmt = canonical_format(str(getattr(settings, "llm_response_format", "json_schema")))
    if fmt not in FORMATS:
        raise ValueError(f"LLM_RESPONSE_FORMAT must be one of {', '.join(FORMATS)}; got {fmt!r}")
    budget = getattr(settings, "llm_stage_budget_s", None)
    return {
        "response_format": fmt,
        "retries": int(getattr(settings, "llm_retries", 2)),
        "stage_budget_s": tuple(sorted((budget if budget is not None else DEFAULT_STAGE_BUDGET_S).items())),
        "max_tokens": int(getattr(settings, "llm_max_tokens", 4096)),
        "decompose_tokens_per_char": float(getattr(settings, "llm_decompose_tokens_per_char", 1.5)),
        "judge_tokens_per_claim": int(getattr(settings, "llm_judge_tokens_per_claim", 80)),
    }
