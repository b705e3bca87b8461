"""The LLM path of ``workers.components``: what each seam function does for an LLM config.

``workers.components`` calls these only when the audit's config asks for an LLM component,
so the offline default never imports ``openai``.

Fallbacks (recorded in the usage ledger, shown in ``usage.fallbacks`` and on each claim affected)
under ``llm_on_error = "offline"`` (``workers.adapters.policy``):

* decomposer: a text whose request failed (after ``LLM_RETRIES`` retried runs for a transient
  error, at once for any other, or when the stage's time budget is spent) is decomposed offline;
* judge: the rule verdicts stand unchanged;
* embedder: unusable embeddings twice in a row → the fallback is recorded and the stage is
  retried (``TransientLLMError``); on the retry ``embedder_for`` sees the recorded fallback
  and embeds the whole audit with the local model, so one audit never mixes models.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session, sessionmaker

from claims.embed import Embedder, EmbedderWrapper
from claims.types import Claim, Judgement, ReferenceClaim
from db import llm_repository as llm_repo
from db.engine import session_scope
from service.llm_config import LLMConfig, resolve_llm_config
from service.settings import get_settings
from workers.adapters.budget import stage_run
from workers.adapters.client import Ledger
from workers.adapters.decomposer import decompose_or_fallback
from workers.adapters.embedder import OpenAIEmbedder
from workers.adapters.errors import MalformedOutputError, TransientLLMError
from workers.adapters.judge import review_or_fallback

__all__ = ["llm_config", "decompose_text_llm", "embedder_llm", "LLMJudge"]


def llm_config(config: Mapping[str, Any] | None) -> LLMConfig:
    """The audit's resolved LLM configuration (``service.llm_config``)."""
    return resolve_llm_config(config, get_settings())


def _factory(factory: sessionmaker[Session] | None) -> sessionmaker[Session]:
    if factory is not None:
        return factory
    from workers.database import get_session_factory

    return get_session_factory()


def decompose_text_llm(
    text: str,
    cfg: LLMConfig,
    *,
    audit_id: uuid.UUID | None,
    factory: sessionmaker[Session] | None,
    document: Mapping[str, Any] | None = None,
) -> list[Claim]:
    """Claims of ``text`` (the audit's ``document``, ``{"role", "position"}``) from the LLM
    decomposer: cached, within the stage's time budget, offline when it fails and the audit's
    ``llm_on_error`` allows."""
    f = _factory(factory)
    run = stage_run(f, audit_id, "decompose", cfg.budget_s("decompose"))
    return decompose_or_fallback(text, cfg=cfg, ledger=Ledger(f, audit_id), run=run, document=document)


class _FallbackSignal(EmbedderWrapper):
    """Wraps ``OpenAIEmbedder``: unusable embeddings → record the fallback, retry the stage."""

    inner: OpenAIEmbedder

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        try:
            return self.inner.embed(texts)
        except MalformedOutputError as exc:
            if self.inner.ledger.audit_id is None:
                raise
            self.inner.ledger.record(
                "embed", self.inner.model_name, fallback=f"local embedder used for the whole audit: {exc}"
            )
            raise TransientLLMError(
                f"embeddings from {self.inner.model_name!r} unusable ({exc}); "
                "the stage is retried with the local embedder"
            ) from exc


def embedder_llm(
    cfg: LLMConfig,
    *,
    audit_id: uuid.UUID | None,
    factory: sessionmaker[Session] | None,
    tenant_id: str = "default",
) -> Embedder:
    """The endpoint's embedder, or the local one when this audit's embeddings already fell back."""
    f = _factory(factory)
    if audit_id is not None:
        with session_scope(f) as s:
            if llm_repo.has_fallback(s, audit_id, "embed"):
                from claims.embed import default_embedder

                return default_embedder()
    return _FallbackSignal(OpenAIEmbedder(cfg, Ledger(f, audit_id, tenant_id)))


@dataclass(frozen=True)
class LLMJudge:
    """The LLM judge of one audit (a ``claims.review.Judge``): one request for the claims it is
    given (``only``), reconciled with the offline verdicts (``workers.adapters.judge.reconcile``),
    within the stage's time budget; the offline verdicts stand when it fails and the audit's
    ``llm_on_error`` allows.

    The judge records go into ``llm_judgements`` in the stage's own transaction (``session``),
    so they are replaced together with the verdicts when the stage re-runs.
    """

    session: Session
    audit_id: uuid.UUID
    cfg: LLMConfig
    factory: sessionmaker[Session] | None = None

    def review(
        self,
        response_claims: Sequence[Claim],
        reference_claims: Sequence[ReferenceClaim],
        similarity: np.ndarray,
        judgements: Sequence[Judgement],
        *,
        only: frozenset[int] | None,
    ) -> list[Judgement]:
        f = _factory(self.factory)
        final, records = review_or_fallback(
            response_claims,
            reference_claims,
            similarity,
            judgements,
            cfg=self.cfg,
            ledger=Ledger(f, self.audit_id),
            only=only,
            run=stage_run(f, self.audit_id, "judge", self.cfg.budget_s("judge")),
        )
        llm_repo.replace_llm_judgements(self.session, self.audit_id, records)
        return final
