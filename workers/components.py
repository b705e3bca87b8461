"""The seam between the pipeline's stages and the claim engine's components.

Offline (the default) every function delegates to the pure engine in ``claims``; the LLM path
(docs/LLM.md) plugs in here, chosen by the audit's ``config`` (``decomposer``, ``judge``,
``embedder``). Keyword arguments ``audit_id`` / ``factory`` let an LLM component record usage
and use its cache in transactions of its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sqlalchemy.orm import Session, sessionmaker

from claims.decompose import decompose, decompose_many
from claims.embed import Embedder, default_embedder
from claims.options import AuditOptions
from claims.review import second_opinion
from claims.types import Claim, Judgement, ReferenceClaim, Role
from db.models import Audit
from service.llm_config import resolve_llm_config  # light: no openai import
from service.settings import get_settings

__all__ = [
    "decompose_text",
    "document_role",
    "embedder_for",
    "local_embedder",
    "offline_decomposer",
    "prepare_decomposition",
    "preload_local_models",
    "review_judgements",
]


def preload_local_models(config: Mapping[str, Any] | None = None, *, warm: bool = True) -> None:
    """Load what the default audit needs (the local embedder, the spaCy parser) now, once per
    process, so that the first audit a worker takes does not pay for it; the LLM components
    (``EMBEDDER=openai``, ``DECOMPOSER=llm``) load nothing here. The language identifier
    (``py3langid``, about a second to load) is loaded for both: every text is checked. With both
    local components, one small audit then runs in memory (:func:`claims.runtime.warm_up`) so the
    first real audit is as fast as the later ones (``warm=False``: not, as in the worker's main
    process, which loads the models for its pool processes to inherit but runs no model: a process
    forked after a model ran could inherit a thread pool that no longer exists). Then
    :func:`claims.runtime.settle_heap`."""
    from claims.engine_version import engine_version
    from claims.runtime import load_offline_models, settle_heap, warm_up

    cfg = resolve_llm_config(config or {}, get_settings())
    local_embedder, local_parser = cfg.embedder != "openai", cfg.decomposer != "llm"
    load_offline_models(embedder=local_embedder, parser=local_parser)
    engine_version()  # the reference cache's key: a hash of the engine's files (tens of ms), once
    if warm and local_embedder and local_parser:
        warm_up()
    # the loaded models out of the collector's full passes (claims.runtime: 0.2-0.46 s a pass)
    settle_heap()


def prepare_decomposition(
    texts: list[str], config: Mapping[str, Any], *, roles: Sequence[str] | None = None
) -> None:
    """Decompose all ``texts`` of a stage with one parser pass (``decompose_many`` batches
    ``nlp.pipe``); the following ``decompose_text`` calls read the result from the cache.
    ``roles``: the role of each text (``response`` or ``reference``; ``decompose_text``);
    None: every text is a response.
    Does nothing for the LLM decomposer."""
    if resolve_llm_config(config, get_settings()).decomposer != "llm":
        decompose_many(texts, roles=[Role(r) for r in roles] if roles is not None else Role.RESPONSE)


def offline_decomposer(config: Mapping[str, Any]) -> bool:
    """Whether the audit decomposes offline (not with the LLM decomposer); False for an invalid
    config (the single-audit service then reports it)."""
    try:
        return resolve_llm_config(config, get_settings()).decomposer != "llm"
    except ValueError:
        return False


def local_embedder(config: Mapping[str, Any]) -> bool:
    """Whether the audit embeds with the process-wide local model (not an endpoint); False for
    an invalid config (the single-audit service then reports it)."""
    try:
        return resolve_llm_config(config, get_settings()).embedder != "openai"
    except ValueError:
        return False


def decompose_text(
    text: str,
    config: Mapping[str, Any],
    *,
    audit_id: uuid.UUID | None = None,
    factory: sessionmaker[Session] | None = None,
    document: Mapping[str, Any] | None = None,
) -> list[Claim]:
    """Atomic claims of ``text`` with character spans (``claims.decompose.decompose`` offline);
    ``document`` (``{"role", "position"}``) names the text in an LLM fallback record, and its
    role is the text's (``claims.decompose.decompose``: a reference's headings that state
    something are claims too; no ``document``: a response)."""
    cfg = resolve_llm_config(config, get_settings())
    if cfg.decomposer == "llm":
        from workers.adapters.hooks import decompose_text_llm

        return decompose_text_llm(text, cfg, audit_id=audit_id, factory=factory, document=document)
    return decompose(text, role=document_role(document))


def document_role(document: Mapping[str, Any] | None) -> Role:
    """The role of ``document`` (``{"role", "position"}``); ``Role.RESPONSE`` for None.
    Raises ``ValueError`` for a role that is none of ``claims.types.Role``."""
    return Role(document["role"]) if document is not None and "role" in document else Role.RESPONSE


def embedder_for(
    config: Mapping[str, Any],
    *,
    audit_id: uuid.UUID | None = None,
    factory: sessionmaker[Session] | None = None,
    tenant_id: str = "default",
) -> Embedder:
    """The embedder the audit asks for (offline: the process-wide local all-MiniLM-L6-v2);
    ``tenant_id`` is who pays for endpoint calls not tied to an audit (a search)."""
    cfg = resolve_llm_config(config, get_settings())
    if cfg.embedder == "openai":
        from workers.adapters.hooks import embedder_llm

        return embedder_llm(cfg, audit_id=audit_id, factory=factory, tenant_id=tenant_id)
    return default_embedder()


def review_judgements(
    session: Session,
    audit: Audit,
    options: AuditOptions,
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: list[Judgement],
    *,
    factory: sessionmaker[Session] | None = None,
) -> list[Judgement]:
    """Second opinion on the offline verdicts (``claims.review.second_opinion``): the LLM judge
    (``workers.adapters.hooks.LLMJudge``) sees every claim under ``judge = llm``, the uncertain
    band under ``auto`` (``claims.review.uncertain_band``); with ``judge = none`` returns
    ``judgements`` unchanged."""
    if not options.uses_llm_judge:
        return judgements
    from workers.adapters.hooks import LLMJudge

    judge = LLMJudge(session, audit.id, resolve_llm_config(audit.config, get_settings()), factory)
    return second_opinion(judge, options, response_claims, reference_claims, similarity, judgements)
