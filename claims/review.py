"""The second opinion on offline verdicts: the ``Judge`` protocol and the band of claims it sees.

The offline verdicts come from the rules (``claims.verdict.judge``) and the calibrated decision
(``claims.decision.decide``), which gives every verdict a ``confidence`` in [0, 1]. A judge (the
LLM judge behind an OpenAI-compatible endpoint, ``workers.adapters.hooks.LLMJudge``; any other
reviewer a caller plugs into ``claims.audit.audit_texts``) may then give a second opinion:

* ``judge = "none"`` (``AuditOptions.judge``): no judge is asked;
* ``judge = "llm"``: every material claim goes to it;
* ``judge = "auto"`` (the cascade): only the uncertain band, the verdicts whose confidence lies
  in the audit's ``llm_band`` (bounds included) or that have none, and never a rule-detected
  conflict (``RULE_CONFLICTS``: a conflict is not sent to be overruled).

The judge returns the final judgements; how its verdict is merged with the offline one is the
judge's own (the LLM judge's ``workers.adapters.judge.reconcile`` never turns a rule-detected
conflict into support).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from claims.options import AuditOptions
from claims.types import Claim, Judgement, ReferenceClaim, Verdict

__all__ = ["RULE_CONFLICTS", "Judge", "uncertain_band", "second_opinion"]

#: Rule verdicts a judge is never asked about under ``auto`` and may not turn into support.
RULE_CONFLICTS: frozenset[Verdict] = frozenset({Verdict.CONTRADICTED, Verdict.QUALIFICATION_DROPPED})


@runtime_checkable
class Judge(Protocol):
    """A second opinion on offline verdicts.

    ``review`` gets the audit's response and reference claims, the (n_response, n_reference)
    float32 cosine matrix ``similarity``, the offline ``judgements`` (one per response claim,
    ``response_index`` into ``response_claims``) and ``only``: the response indices it may
    change (None: any material claim). It returns the final judgements, same order and length,
    every index outside ``only`` unchanged. A judge that fails either raises or returns the
    offline judgements, as its own policy says (the LLM judge: ``llm_on_error``).
    """

    def review(
        self,
        response_claims: Sequence[Claim],
        reference_claims: Sequence[ReferenceClaim],
        similarity: np.ndarray,
        judgements: Sequence[Judgement],
        *,
        only: frozenset[int] | None,
    ) -> list[Judgement]: ...


def uncertain_band(judgements: Sequence[Judgement], options: AuditOptions) -> frozenset[int] | None:
    """Response indices a judge may see: None (no restriction) unless ``options.judge == "auto"``;
    under ``auto`` the judgements whose confidence is uncertain (``AuditOptions.is_uncertain``)
    and whose verdict is not in ``RULE_CONFLICTS``. Non-material and ``outside_scope`` claims are
    the judge's to drop (the LLM judge: ``workers.adapters.judge.judge_items``).

    >>> js = [Judgement(0, Verdict.SUPPORTED, confidence=0.95),
    ...       Judgement(1, Verdict.UNSUPPORTED, confidence=0.5),
    ...       Judgement(2, Verdict.CONTRADICTED), Judgement(3, Verdict.SUPPORTED)]
    >>> sorted(uncertain_band(js, AuditOptions(judge="auto", llm_band=(0.35, 0.75))))
    [1, 3]
    >>> uncertain_band(js, AuditOptions(judge="llm")) is None
    True
    """
    if options.judge != "auto":
        return None
    return frozenset(
        j.response_index
        for j in judgements
        if options.is_uncertain(j.confidence) and j.verdict not in RULE_CONFLICTS
    )


def second_opinion(
    judge: Judge | None,
    options: AuditOptions,
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
) -> list[Judgement]:
    """``judgements`` after ``judge``'s review of the claims ``uncertain_band`` selects; unchanged
    when there is no judge or ``options.judge`` is ``"none"``. The judge is called even with an
    empty band (it may have records of an earlier run to clear) and must then change nothing.

    Raises ``ValueError`` when the judge returns another number of judgements than it was given,
    or changes a claim outside the band (a judge that lost, invented or overreached a claim must
    not be scored silently).
    """
    if judge is None or not options.uses_llm_judge:
        return list(judgements)
    only = uncertain_band(judgements, options)
    final = judge.review(response_claims, reference_claims, similarity, judgements, only=only)
    if len(final) != len(judgements):
        raise ValueError(f"the judge returned {len(final)} judgements for {len(judgements)} claims")
    if only is not None:
        pairs = enumerate(zip(judgements, final, strict=True))
        outside = [i for i, (before, after) in pairs if before != after and i not in only]
        if outside:
            raise ValueError(f"the judge changed response claims {outside}, outside the band it was given")
    return list(final)
