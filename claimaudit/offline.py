"""``audit_offline``: the engine in memory, no services, nothing stored.

The same engine and the same document builder as the API (``claims.audit.audit_texts`` and
``report_to_dict``), so a claim's verdict, reason and evidence are those the API would give
for the same texts and config. The models load once per process (a few seconds the first time).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from claimaudit.errors import ClaimauditError
from claimaudit.models import AuditDocument

__all__ = ["audit_offline", "checked_config", "OFFLINE_CONFIG_KEYS"]

#: The config keys the in-memory engine uses (the LLM components need the service).
OFFLINE_CONFIG_KEYS = frozenset({"threshold", "case_insensitive", "remove_punctuation", "references"})
#: service keys accepted offline with the value an offline audit has anyway, so that one config
#: file serves both ways (``api.schemas.AuditConfig``)
OFFLINE_VALUES = {"decomposer": "offline", "judge": "none", "embedder": "local"}


def quiet_model_loading() -> None:
    """No "Loading weights" or download progress bars from transformers, sentence-transformers or
    huggingface_hub (set before they are imported; the engine is untouched)."""
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    if "transformers" in sys.modules:  # imported already: switch its bars off directly
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]


def audit_offline(
    response: str,
    references: Sequence[str],
    *,
    question: str | None = None,
    config: Mapping[str, Any] | None = None,
) -> AuditDocument:
    """Audit ``response`` against ``references`` in this process (the document of
    ``GET /audits/{id}`` without the database fields: ``id`` and the timestamps are None).

    ``config``: only ``threshold`` (cosine in [-1, 1]), ``case_insensitive``,
    ``remove_punctuation`` and ``references`` (``full`` or ``evidence``, ``claims.options``), and
    the service keys with their offline values (``OFFLINE_VALUES``: ``decomposer`` "offline",
    ``judge`` "none", ``embedder`` "local").
    Raises ``ValueError`` on invalid input or config (every reference blank, a config the API
    refuses (``checked_config``: an unknown key, a wrong type, an explicit null, a threshold out
    of range, an unknown ``references`` mode) or one that needs the service) and ``ClaimauditError`` when a
    local model cannot be loaded (a broken install).
    """
    quiet_model_loading()
    from claims.audit import audit_texts, report_to_dict
    from claims.options import AuditOptions
    from claims.types import ModelUnavailable

    cfg = checked_config(config)
    unknown = sorted(k for k in set(cfg) - OFFLINE_CONFIG_KEYS if OFFLINE_VALUES.get(k) != cfg[k])
    if unknown:
        raise ValueError(
            f"config: offline audits use only {sorted(OFFLINE_CONFIG_KEYS)} and "
            f"{', '.join(f'{k}={v!r}' for k, v in OFFLINE_VALUES.items())}; got {unknown}"
        )
    options = AuditOptions.from_config({k: v for k, v in cfg.items() if k in OFFLINE_CONFIG_KEYS})
    try:
        report = audit_texts(response, list(references), options=options)
    except ModelUnavailable as exc:
        raise ClaimauditError(f"{exc} (reinstall claimaudit)") from exc
    doc = report_to_dict(report, list(references), response)
    # the keys of GET /audits/{id} (api.documents): the database fields None, the rest as the
    # API works them out for the same config
    doc.update(
        id=None,
        stage=None,
        created_at=None,
        finished_at=None,
        question=question,
        metadata=None,
        config=cfg,
        threshold=options.threshold,
        references=[{"index": i} for i in range(len(references))],
        effective_config=options.effective_config(cfg),
    )
    return AuditDocument.model_validate(doc)


def checked_config(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """``config`` checked by the API's own model (``api.schemas.AuditConfig``: unknown keys, types,
    ranges, an explicit null), as the API stores it (the keys sent). Raises ``ValueError`` naming
    each bad key (``config.threshold: ...``) as the API's 422 does."""
    from pydantic import ValidationError

    from api.schemas import AuditConfig

    if config is not None and not isinstance(config, Mapping):
        raise ValueError(f"config: must be a JSON object, got {type(config).__name__}")
    try:
        model = AuditConfig.model_validate(dict(config or {}))
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        raise ValueError(
            "; ".join(f"config.{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors)
        ) from None
    return model.model_dump(exclude_unset=True)
