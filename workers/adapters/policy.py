"""What an audit does when its LLM decomposer or judge fails: ``llm_on_error``.

``settle(exc, cfg, run)`` is called with the error of one LLM step (a text's decomposition, an
audit's judge request) and either raises or returns:

1. a transient endpoint error (429, 5xx, timeout, connection) while the stage run is one of the
   first ``LLM_RETRIES`` (``StageRun.retries_left``) is raised again: the Celery task retries the
   stage with backoff, and what was answered before is read from the cache;
2. otherwise (retries used up, a permanent error such as a bad key or an unknown model, an answer
   still invalid after its repair or cut off at ``max_tokens``, the stage's time budget spent):
   under ``llm_on_error = "fail"`` it raises ``LLMFailure`` with the error's own message, and the
   audit ends ``failed`` with it; under ``"offline"`` (the default) it returns, and the caller
   keeps the offline result, records the fallback in the usage ledger (``usage.fallbacks``) with
   the claims it affects, and the audit goes on to ``done``.

The embedder is not governed by ``llm_on_error``: unusable vectors switch the audit to the local
embedder (``workers.adapters.hooks``), endpoint errors are retried and then fail the audit.
"""

from __future__ import annotations

from service.llm_config import LLMConfig
from workers.adapters.budget import StageRun
from workers.adapters.errors import LLMError, LLMFailure, TransientLLMError

__all__ = ["settle", "fallback_reason"]


def settle(exc: LLMError, cfg: LLMConfig, run: StageRun) -> None:
    """Raise ``exc`` (to retry), raise ``LLMFailure`` (to fail), or return (to fall back); see the
    module docstring."""
    if isinstance(exc, TransientLLMError) and run.retries_left(cfg.retries):
        raise exc
    if cfg.on_error == "fail":
        raise LLMFailure(f"{exc} (llm_on_error is fail)") from exc


def fallback_reason(kept: str, exc: LLMError) -> str:
    """The ``reason`` of a fallback row: what was kept and why, e.g.
    ``"offline decomposer used: TransientLLMError: LLM endpoint timed out ..."``."""
    return f"{kept}: {type(exc).__name__}: {' '.join(str(exc).split())[:900]}"
