"""LLM decomposition: one chat request per text, claims aligned back to character spans.

The model returns claim texts and kinds (``prompts.Decomposition``); ``claims.align_spans``
maps each claim to its span in the source (exact occurrence, else fuzzy alignment); blank
claims are dropped and near-identical claims merged (same rule as the offline decomposer:
RapidFuzz ``ratio`` >= ``claims.decompose.DEDUP_RATIO`` on lower-cased text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rapidfuzz import fuzz

from claims.align_spans import align_spans
from claims.decompose import DEDUP_RATIO
from claims.types import Claim, ClaimKind, Role
from service.llm_config import LLMConfig
from workers.adapters.budget import StageRun
from workers.adapters.client import ChatRequest, Ledger, cached_chat, make_client
from workers.adapters.errors import LLMError
from workers.adapters.policy import fallback_reason, settle
from workers.adapters.prompts import DECOMPOSE_PROMPT_VERSION, Decomposition, decompose_messages

__all__ = ["llm_decompose", "claims_from_decomposition", "decompose_or_fallback"]

STAGE = "decompose"


def claims_from_decomposition(text: str, output: Decomposition) -> list[Claim]:
    """Turn the model's claims into ``Claim`` values with spans in ``text`` (pure).

    Order is the model's; positions are 0-based after dropping blank claims and merging
    duplicates (``duplicates`` counts the merged ones). Every span satisfies
    ``0 <= start <= end <= len(text)``.
    """
    items = [c for c in output.claims if c.text.strip()]
    spans = align_spans(text, [c.text.strip() for c in items])
    kept: list[tuple[Any, Any]] = []
    dups: list[int] = []
    for item, span in zip(items, spans, strict=True):
        norm = item.text.strip().lower()
        for i, (other, _) in enumerate(kept):
            if fuzz.ratio(norm, other.text.strip().lower()) >= DEDUP_RATIO:
                dups[i] += 1
                break
        else:
            kept.append((item, span))
            dups.append(0)
    return [
        Claim(
            text=item.text.strip(),
            start=span.start,
            end=span.end,
            kind=ClaimKind(item.kind),
            position=i,
            duplicates=d,
            ambiguous=bool(item.ambiguous),
        )
        for i, ((item, span), d) in enumerate(zip(kept, dups, strict=True))
    ]


def llm_decompose(
    text: str, *, cfg: LLMConfig, ledger: Ledger, client: Any = None, run: StageRun | None = None
) -> list[Claim]:
    """Claims of ``text`` from the LLM (one request, cached; none for a blank text).

    The request's ``max_tokens`` is ``cfg.output_tokens("decompose", len(text))``: the claims
    restate the text, with a JSON object around each.

    Raises ``TransientLLMError`` / ``PermanentLLMError`` from the endpoint,
    ``MalformedOutputError`` when the answer stays invalid after one repair and
    ``BudgetSpentError`` when ``run``'s budget is spent.
    """
    if not text.strip():
        return []
    request = ChatRequest(
        stage=STAGE,
        prompt_version=DECOMPOSE_PROMPT_VERSION,
        messages=decompose_messages(text),
        schema=Decomposition,
        max_tokens=cfg.output_tokens(STAGE, len(text)),
    )
    output = cached_chat(client if client is not None else make_client(cfg), ledger, cfg, request, run)
    return claims_from_decomposition(text, output)


def decompose_or_fallback(
    text: str,
    *,
    cfg: LLMConfig,
    ledger: Ledger,
    client: Any = None,
    run: StageRun | None = None,
    document: Mapping[str, Any] | None = None,
) -> list[Claim]:
    """``llm_decompose``, or, when it fails and the audit's ``llm_on_error`` lets the offline
    result stand (``workers.adapters.policy.settle``), the offline ``claims.decompose.decompose``.

    A fallback is recorded in the usage ledger (``fallback`` = the reason, ``scope`` = the
    ``document``, ``{"role", "position"}``, whose claims it made) and so shows in
    ``usage.fallbacks`` of the audit and on each of those claims.
    """
    try:
        return llm_decompose(text, cfg=cfg, ledger=ledger, client=client, run=run)
    except LLMError as exc:
        settle(exc, cfg, run or StageRun())
        from claims.decompose import decompose

        reason = fallback_reason("offline decomposer used", exc)
        ledger.record(STAGE, cfg.llm_model, fallback=reason, scope=dict(document) if document else None)
        role = Role(document["role"]) if document and "role" in document else Role.RESPONSE
        return decompose(text, role=role)  # a reference's headings that state something: claims too
