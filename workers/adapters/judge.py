"""LLM judge: one chat request per audit giving material response claims a verdict.

The offline verdicts (``claims.audit.judge_step``: the rules' facet checks on numbers, dates,
units, entities, negation, qualifiers, then the calibrated decision's ``confidence``) are
computed first and always kept for comparison. Which claims are sent is
``claims.review.uncertain_band``'s choice: every material claim under ``judge = llm``; under
``judge = auto`` (the cascade) only the uncertain ones, those whose confidence lies in the
audit's ``llm_band`` or that have no confidence, and never a rule-detected conflict.
``reconcile`` merges the two: the judge's verdict wins, except that a rule-detected conflict
(``contradicted`` or ``qualification_dropped``) is never overruled to a supporting verdict;
every disagreement is written into the claim's reason and into ``llm_judgements``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from claims.review import RULE_CONFLICTS
from claims.types import SUPPORTING, Claim, ClaimKind, Judgement, ReferenceClaim, Verdict
from service.llm_config import LLMConfig
from workers.adapters.budget import StageRun
from workers.adapters.client import ChatRequest, Ledger, cached_chat, make_client
from workers.adapters.errors import LLMError, MalformedOutputError
from workers.adapters.policy import fallback_reason, settle
from workers.adapters.prompts import JUDGE_PROMPT_VERSION, JudgeItem, JudgeOutput, judge_messages

__all__ = ["judge_items", "reconcile", "llm_review", "review_or_fallback"]

STAGE = "judge"


def judge_items(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    top_k: int,
    only: Collection[int] | None = None,
) -> list[JudgeItem]:
    """The judge's input: material response claims with their ``top_k`` evidence claims.

    ``similarity`` is the (n_response, n_reference) cosine matrix the match stage computed
    (pgvector exact scan within the audit). Evidence ids read ``r<reference>.<n>`` with ``n``
    the index into ``reference_claims``; only material reference claims are offered. ``only``,
    when given, restricts the items to those response indices (``claims.review.uncertain_band``).
    """
    sim = np.asarray(similarity, dtype=np.float32)
    material_refs = [i for i, rc in enumerate(reference_claims) if rc.claim.kind is ClaimKind.MATERIAL]
    items: list[JudgeItem] = []
    for i, (claim, rule) in enumerate(zip(response_claims, judgements, strict=True)):
        if claim.kind is not ClaimKind.MATERIAL or rule.verdict is Verdict.OUTSIDE_SCOPE:
            continue
        if only is not None and i not in only:
            continue
        ranked = sorted(material_refs, key=lambda j: (-float(sim[i, j]), j))[:top_k] if sim.size else []
        evidence = [
            {
                "id": f"r{reference_claims[j].reference}.{j}",
                "text": reference_claims[j].claim.text,
                "similarity": round(float(sim[i, j]), 4),
            }
            for j in ranked
        ]
        items.append(JudgeItem(id=i, claim=claim.text, evidence=evidence))
    return items


def reconcile(rule: Judgement, judge_verdict: Verdict, judge_reason: str) -> Judgement:
    """Merge a rule judgement and the LLM judge's verdict on the same claim.

    Same verdict: the rule judgement with the judge's reason appended. Rule conflict
    (``contradicted`` / ``qualification_dropped``) vs a supporting judge verdict: the rule
    verdict stays and the reason says the judge disagreed. Otherwise the judge's verdict,
    with the rule's verdict and reason kept in the reason text. Evidence is unchanged.

    ``confidence`` stays the offline decision's while the offline verdict stands (the judge
    agrees, or a rule conflict is kept); it is None when the judge's verdict replaces it (the
    calibrated probability was of the other verdict; no calibrated figure exists for the judge's).
    """
    if judge_verdict is rule.verdict:
        reason = f"{rule.reason} | LLM judge agrees: {judge_reason}" if rule.reason else judge_reason
        return replace(rule, reason=reason)
    if rule.verdict in RULE_CONFLICTS and judge_verdict in SUPPORTING:
        reason = (
            f"{rule.reason} | LLM judge said {judge_verdict.value} ({judge_reason}); "
            f"rule-detected {rule.verdict.value} kept"
        )
        return replace(rule, reason=reason)
    reason = f"LLM judge: {judge_reason} | rules said {rule.verdict.value}" + (
        f": {rule.reason}" if rule.reason else ""
    )
    change = rule.change if judge_verdict in RULE_CONFLICTS else None
    return replace(rule, verdict=judge_verdict, reason=reason, change=change, confidence=None, finding=None)


def llm_review(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    cfg: LLMConfig,
    ledger: Ledger,
    client: Any = None,
    only: Collection[int] | None = None,
    run: StageRun | None = None,
) -> tuple[list[Judgement], list[dict[str, Any]]]:
    """Judge every material response claim (or those in ``only``) in one request and reconcile
    with the offline verdicts; the others keep theirs.

    Returns the final judgements (same order and length as ``judgements``) and the records
    for ``llm_judgements`` (``response_index``, ``rule_verdict``, ``judge_verdict``,
    ``judge_reason``, ``final_verdict``, ``model``). No request when no claim is left to judge.
    The request's ``max_tokens`` is ``cfg.output_tokens("judge", <claims sent>)``.

    Raises ``TransientLLMError`` / ``PermanentLLMError`` from the endpoint,
    ``MalformedOutputError`` when the answer stays invalid after one repair (for instance a
    verdict missing for a claim id) and ``BudgetSpentError`` when ``run``'s budget is spent.
    """
    items = judge_items(
        response_claims, reference_claims, similarity, judgements, top_k=cfg.judge_top_k, only=only
    )
    if not items:
        return list(judgements), []
    return _review(items, judgements, cfg=cfg, ledger=ledger, client=client, run=run)


def _review(
    items: Sequence[JudgeItem],
    judgements: Sequence[Judgement],
    *,
    cfg: LLMConfig,
    ledger: Ledger,
    client: Any,
    run: StageRun | None,
) -> tuple[list[Judgement], list[dict[str, Any]]]:
    """The judge request for ``items`` and its reconciliation with ``judgements``."""
    wanted = [item.id for item in items]

    def check(out: JudgeOutput) -> None:
        got = [v.id for v in out.verdicts]
        if sorted(got) != sorted(wanted):
            raise MalformedOutputError(f"verdicts for claim ids {sorted(got)}, expected exactly {wanted}")

    request = ChatRequest(
        stage=STAGE,
        prompt_version=JUDGE_PROMPT_VERSION,
        messages=judge_messages(items),
        schema=JudgeOutput,
        max_tokens=cfg.output_tokens(STAGE, len(items)),
        check=check,
    )
    output = cached_chat(client if client is not None else make_client(cfg), ledger, cfg, request, run)
    by_id = {v.id: v for v in output.verdicts}
    final = list(judgements)
    records: list[dict[str, Any]] = []
    for i in wanted:
        rule = judgements[i]
        v = by_id[i]
        merged = reconcile(rule, Verdict(v.verdict), v.reason.strip())
        final[i] = merged
        records.append(
            {
                "response_index": i,
                "rule_verdict": rule.verdict.value,
                "judge_verdict": v.verdict,
                "judge_reason": v.reason.strip(),
                "final_verdict": merged.verdict.value,
                "model": cfg.llm_model,
            }
        )
    return final, records


def review_or_fallback(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    cfg: LLMConfig,
    ledger: Ledger,
    client: Any = None,
    only: Collection[int] | None = None,
    run: StageRun | None = None,
) -> tuple[list[Judgement], list[dict[str, Any]]]:
    """``llm_review``, or, when it fails and the audit's ``llm_on_error`` lets the offline
    verdicts stand (``workers.adapters.policy.settle``), the rule judgements unchanged.

    The fallback is recorded in the usage ledger (``usage.fallbacks`` of the audit) with the
    response claims it affects (``scope``: ``{"response_claims": [index, ...]}``).
    """
    items = judge_items(
        response_claims, reference_claims, similarity, judgements, top_k=cfg.judge_top_k, only=only
    )
    if not items:
        return list(judgements), []
    try:
        return _review(items, judgements, cfg=cfg, ledger=ledger, client=client, run=run)
    except LLMError as exc:
        settle(exc, cfg, run or StageRun())
        ledger.record(
            STAGE,
            cfg.llm_model,
            fallback=fallback_reason("rule verdicts kept (no LLM judge)", exc),
            scope={"response_claims": [item.id for item in items]},
        )
        return list(judgements), []
