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

__all__ = ["audit_offline", "OFFLINE_CONFIG_KEYS"]

#: The config keys the in-memory engine uses (the LLM components need the service).
OFFLINE_CONFIG_KEYS = frozenset({"threshold", "case_insensitive", "remove_punctuation", "references"})


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
    ``remove_punctuation`` and ``references`` (``full`` or ``evidence``, ``claims.options``).
    Raises ``ValueError`` on invalid input or config (every reference blank, another config key,
    a threshold out of range, an unknown ``references`` mode) and ``ClaimauditError`` when a
    local model cannot be loaded (a broken install).
    """
    quiet_model_loading()
    from claims.audit import audit_texts, report_to_dict
    from claims.options import AuditOptions
    from claims.types import ModelUnavailable

    cfg = dict(config or {})
    unknown = sorted(set(cfg) - OFFLINE_CONFIG_KEYS)
    if unknown:
        raise ValueError(f"config: offline audits use only {sorted(OFFLINE_CONFIG_KEYS)}; got {unknown}")
    options = AuditOptions.from_config(cfg)
    try:
        report = audit_texts(response, list(references), options=options)
    except ModelUnavailable as exc:
        raise ClaimauditError(f"{exc} (reinstall claimaudit)") from exc
    doc = report_to_dict(report, list(references), response)
    doc.update(question=question, config=cfg)
    return AuditDocument.model_validate(doc)
