"""Check: a negated claim whose affirmation a reference claim states in other words.

The negation counterpart of a claim ("The falcon is not the fastest bird" -> "The falcon is the
fastest bird": ``claims.verdict.opposed.counterpart_texts``) is judged by the whole engine,
the rules and the learned decision (``claims.decision.decide_one``). When a candidate reference
claim supports it with a calibrated probability of support of at least ``AFFIRMED_P``, and the
negation is the claim's main predicate (``main_negation``), the claim denies what the reference
affirms -> ``contradicted``, the reason naming the affirming reference claim. An affirmation
that is only inferred, unsupported or contradicted ("X won in 2005" for "X did not win in
2003") finds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from claims.parses import parse
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from claims.verdict.alike import TIME_LIMITS
from claims.verdict.contractions import expand_contractions
from claims.verdict.reasons import evidence_at

__all__ = ["AFFIRMED_P", "Decider", "JudgeText", "affirmed_in_other_words", "main_negation"]

#: the least calibrated probability of support (``claims.decision``, Platt-scaled on the natural
#: label mix) of the affirmation: on the Factcheck-GPT dev pairs, rule supports at this
#: probability or above are stated or partly stated by the evidence 7 times in 10, above the
#: precision of the engine's refutations there (0.53)
AFFIRMED_P = 0.7

#: negation words; a claim with two of them is a double negation
_NEGATIONS = frozenset(
    ["not", "n't", "never", "no", "none", "neither", "nor", "nothing", "nobody", "without"]
)

#: words after "not" that narrow the negation to a part of the claim ("not only", "not always",
#: "not until 1570") rather than deny its predicate
_SCOPE_WORDS = frozenset(
    [
        "only", "just", "merely", "simply", "solely", "until", "till", "before", "always",
        "necessarily", "all", "every", "entirely", "fully", "completely", "quite", "very", "too",
        "so", "as", "yet", "even", "much", "many", "exactly", "precisely", "mainly", "mostly",
    ]
)  # fmt: skip


class Decider(Protocol):
    """The learned decision for one text outside the audit's claims (``claims.decision.decide_one``,
    passed in by the caller of ``claims.verdict.judge``: the decision reads the verdict package,
    so the verdict package never imports it): the claim, its rule judgement, the reference claims,
    the claim's cosines (shape ``(len(reference_claims),)``) and the reference texts."""

    def __call__(
        self,
        claim: Claim,
        judgement: Judgement,
        reference_claims: Sequence[ReferenceClaim],
        row: np.ndarray,
        reference_texts: Sequence[str] | None = None,
    ) -> Judgement: ...


class JudgeText(Protocol):
    """Judges a text against the claim's references with the claim's cosines; ``decided``: with
    the learned decision (a ``Decider``: confidence set) where the caller gave one, else the
    rules'."""

    def __call__(self, text: str, decided: bool = False) -> Judgement: ...


def main_negation(text: str) -> bool:
    """``text`` holds one negation word, "not" (or "n't"), that negates the predicate of its main
    clause (the parse's root), followed by no word that narrows it (``_SCOPE_WORDS``) and by no
    time limit (``claims.verdict.alike.TIME_LIMITS``)."""
    doc = parse(expand_contractions(text))
    if doc is None:
        return False
    negs = [t for t in doc if t.lower_ in _NEGATIONS or t.dep_ == "neg"]
    if len(negs) != 1 or negs[0].lower_ not in ("not", "n't"):
        return False
    neg = negs[0]
    after = doc[neg.i + 1].lower_ if neg.i + 1 < len(doc) else ""
    limited = any(t.lower_ in TIME_LIMITS for t in doc[neg.i + 1 :])  # "did not open until 1990"
    return neg.head.dep_ == "ROOT" and after not in _SCOPE_WORDS and not limited


def affirmed_in_other_words(
    index: int,
    text: str,
    affirmation: str,
    word: str,
    top: list[int],
    reference_claims: Sequence[ReferenceClaim],
    judge_text: JudgeText,
    where: Callable[[int], str],
    negation_words: Callable[[str], object],
) -> Judgement | None:
    """``contradicted`` when the negated claim ``text`` (its negation ``word``) negates its main
    predicate and its ``affirmation`` is ``supported`` by a candidate of ``top`` holding no
    negation word (``negation_words``) with a probability of at least ``AFFIRMED_P``; else None."""
    if not main_negation(text):
        return None
    got = judge_text(affirmation, decided=True)
    if got.verdict is not Verdict.SUPPORTED or not got.evidence or (got.confidence or 0.0) < AFFIRMED_P:
        return None
    j = got.evidence[0].claim_index
    if j not in top or negation_words(reference_claims[j].claim.text):
        return None
    reason = (
        f"'{word}' denies what {where(j)} affirms in other words "
        f"(the affirmation's P(support) = {got.confidence:.2f})"
    )
    ev = (evidence_at(reference_claims, j, got.evidence[0].similarity),)
    return Judgement(index, Verdict.CONTRADICTED, ev, reason, f"{word} → affirmed")
