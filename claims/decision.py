"""The calibrated decision that runs after the rule verdicts and sets each verdict's confidence.

# placeholder: replaced by the learned decision

Until the learned decision (issue 9, item 3) lands, ``decide`` returns the judgements unchanged:
every ``confidence`` stays None. Callers must treat None as "no calibrated confidence" (the LLM
cascade, ``judge = "auto"``, counts it as uncertain).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from claims.types import Claim, Judgement, ReferenceClaim

__all__ = ["decide"]


def decide(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    reference_texts: Sequence[str] | None = None,
) -> list[Judgement]:
    """Final verdicts with a calibrated ``confidence`` each.

    Parameters
    ----------
    response_claims, reference_claims : sequence
        The claims ``judgements`` were computed from (``claims.verdict.judge``'s inputs).
    similarity : ndarray, float32, shape (len(response_claims), len(reference_claims))
        Cosine of every response claim with every reference claim.
    judgements : sequence of Judgement
        The rule verdicts, one per response claim, in response order.
    reference_texts : sequence of str, optional
        The reference documents (evidence spans index into them).

    Returns
    -------
    list of Judgement
        Same order and length as ``judgements``; ``confidence`` in [0, 1] (probability that
        the verdict is right), or None from this placeholder.
    """
    del response_claims, reference_claims, similarity, reference_texts  # used by the learned decision
    return list(judgements)
