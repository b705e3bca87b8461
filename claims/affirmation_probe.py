"""The affirmation probe: a denial of what the evidence states is contradicted.

A negated claim that no reference claim denies is ``unsupported`` (finding "denial": absence is
no denial). But when the references state the claim's affirmation ("Douglas served on the
Supreme Court from 1939" for "Douglas did not serve on the Supreme Court from 1939"), the claim
denies what the evidence states: the contradiction the audit exists to catch. The rule check
``claims.verdict.affirmed`` asks this inside the rules with the negated claim's own cosines; a
negation moves the sentence embedding (all-MiniLM-L6-v2), so the affirmation read with them
falls short of the support the same words get as a claim of their own. The probe asks the
question as contrast sets do (Gardner et al., Findings of EMNLP 2020): the affirmation is
embedded itself and judged by the whole engine, as a response claim would be.

For each judgement with finding "denial" whose claim negates its main predicate with one "not"
(``claims.verdict.affirmed.main_negation``):

1. the affirmation: the claim with its negation removed (``claims.verdict.opposed
   .counterpart_texts``, kind "negation": "did not serve" -> "did serve");
2. its cosines with the reference claims (``flip_similarity``, one call for all), then the rules
   (``claims.verdict.judge``) and the learned decision (``claims.decision.decide_one``);
3. the affirmation ``supported`` with a calibrated probability of support of at least
   ``AFFIRMED_P`` (the decision's confidence, Platt-scaled on the natural label mix of the dev
   sets), by a reference claim that holds no negation word -> the claim is ``contradicted``,
   finding "affirmed", the reason naming that reference claim and the probability.

A negation narrowed to a part of the claim ("not only", "not until 1990") or a double negation is
left alone (``main_negation``). ``AFFIRMED_P`` and its measured effect: docs/CALIBRATION.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from claims.decision import decide_one
from claims.labels import embedding_text
from claims.polarity_probe import FlipSimilarity
from claims.types import Claim, ClaimKind, Judgement, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.affirmed import AFFIRMED_P as AFFIRMED_IN_OTHER_WORDS_P
from claims.verdict.affirmed import main_negation
from claims.verdict.opposed import NEGATION_WORDS, counterpart_texts
from claims.verdict.reasons import evidence_at, where_stated

__all__ = ["AFFIRMED_P", "affirm", "affirmation", "affirmation_texts"]

#: the least calibrated probability of support (``claims.decision``) of the affirmation, by its
#: own embedding, for the claim to be ``contradicted``: the rule check's (0.7,
#: ``claims.verdict.affirmed.AFFIRMED_P``), not refitted; docs/CALIBRATION.md gives its effect
AFFIRMED_P = AFFIRMED_IN_OTHER_WORDS_P

#: a space left before punctuation where the negation was ("They were not, by ..." -> "They were, by ...")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+(?=[,.;:!?])")


def affirmation(text: str) -> str | None:
    """``text`` with its one negation of the main predicate removed ("Arsenal did not win the FA
    Cup in 1993." -> "Arsenal did win the FA Cup in 1993."); None when ``text`` has no such
    negation (``claims.verdict.affirmed.main_negation``) or the parser is not installed."""
    if not main_negation(text):
        return None
    found = next((cp.text for cp in counterpart_texts(text) if cp.kind == "negation"), None)
    return _SPACE_BEFORE_PUNCT.sub("", found) if found else None


def _todo(judgements: Sequence[Judgement], response_claims: Sequence[Claim]) -> list[tuple[int, str]]:
    """(position in ``judgements``, affirmation) of every judgement the probe reads."""
    out = []
    for i, j in enumerate(judgements):
        claim = response_claims[j.response_index]
        if j.verdict is Verdict.UNSUPPORTED and j.finding == "denial" and claim.kind is ClaimKind.MATERIAL:
            text = affirmation(claim.text)
            if text:
                out.append((i, text))
    return out


def affirmation_texts(claim_texts: Sequence[str]) -> list[str]:
    """The texts the probe may ask the embedder for (``embedding_text`` of the affirmation of
    every negated claim of ``claim_texts``; distinct, in order), whatever the verdicts turn out to
    be: an embedder with a cache embeds them with the claims (``workers.services.embed_audit``)."""
    found = (affirmation(t) for t in claim_texts)
    return list(dict.fromkeys(embedding_text(t) for t in found if t))


def _contradicted(
    j: Judgement, got: Judgement, reference_claims: Sequence[ReferenceClaim], reference_texts: Sequence[str]
) -> Judgement | None:
    """``j`` made ``contradicted`` by its affirmation's decided judgement ``got`` (step 3), or None."""
    if got.verdict is not Verdict.SUPPORTED or not got.evidence or (got.confidence or 0.0) < AFFIRMED_P:
        return None
    ev = got.evidence[0]
    rc = reference_claims[ev.claim_index]
    if NEGATION_WORDS.search(rc.claim.text):
        return None  # a reference claim that denies something affirms nothing (as the rule check)
    where = where_stated(rc, 0, len(rc.claim.text), reference_texts)
    reason = (
        f"the claim denies what {where} states: without its negation it is supported "
        f"(P(support) = {got.confidence:.2f})"
    )
    return replace(
        j,
        verdict=Verdict.CONTRADICTED,
        evidence=(evidence_at(reference_claims, ev.claim_index, ev.similarity),),
        reason=reason,
        change="not → affirmed",
        confidence=None,
        finding="affirmed",
    )


def affirm(
    judgements: Sequence[Judgement],
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    flip_similarity: FlipSimilarity,
    *,
    threshold: float,
    reference_texts: Sequence[str],
) -> list[Judgement]:
    """The judgements with the probe applied (module docstring); same order and length.

    ``flip_similarity`` gives the cosines of other texts with ``reference_claims``, float32
    ``(n_texts, len(reference_claims))`` (one call for all of the audit's affirmations);
    ``threshold``: the audit's matching threshold (``claims.verdict.judge``)."""
    todo = _todo(judgements, response_claims)
    if not todo or not reference_claims:
        return list(judgements)
    rows = np.asarray(flip_similarity([embedding_text(t) for _, t in todo]), np.float32)
    out = list(judgements)
    for (i, text), row in zip(todo, rows, strict=True):
        j = out[i]
        claim = response_claims[j.response_index]
        other = replace(claim, text=text, end=claim.start + len(text))
        rule = judge(
            [other],
            reference_claims,
            row.reshape(1, -1),
            threshold=threshold,
            reference_texts=reference_texts,
            decider=decide_one,
        )[0]
        got = decide_one(other, rule, reference_claims, row, reference_texts)
        found = _contradicted(j, got, reference_claims, reference_texts)
        out[i] = found or j
    return out
