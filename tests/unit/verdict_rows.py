"""Helpers for the verdict tables of tests/unit/test_verdict_*_kinds.py: one row is a response,
its reference (one text or several) and the verdicts it may get.

Rule-level rows (``claims.verdict.judge``) use the cosine ``HIGH`` (0.93, as in
tests/unit/test_verdict_checks.py) so that only the checks decide. Decision rows
(``claims.decision.decide``) use ``cosine_model``, a hand-made model whose score is a function of
the cosine only, so that the guard under test is the only thing that can change the verdict.
"""

from __future__ import annotations

import numpy as np

from claims.decision import FEATURE_NAMES, DecisionModel, decide
from claims.facets import extract
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.affirmed import Decider
from claims.verdict.value_slots import slot_conflict

C, S, U, INF = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.INFERRED
Q = Verdict.QUALIFICATION_DROPPED
HIGH = 0.93
#: (response, reference or references, the verdicts it may get)
Row = tuple[str, str | list[str], set[Verdict]]


def judge_claim(
    response: str, refs: list[str], cos: float = HIGH, decider: Decider | None = None
) -> tuple[Verdict, str]:
    """The rule verdict and reason of ``response`` against ``refs``, every cosine ``cos``;
    ``decider``: as ``claims.verdict.judge`` takes it (the audit passes the learned decision)."""
    rcs = [ReferenceClaim(i, Claim(t, 0, len(t))) for i, t in enumerate(refs)]
    sim = np.full((1, len(refs)), cos, dtype=np.float32)
    j = judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=refs, decider=decider)[0]
    return j.verdict, j.reason


def check_row(row: Row) -> None:
    """Assert that the row's response gets one of its allowed verdicts at cosine ``HIGH``."""
    response, reference, allowed = row
    refs = reference if isinstance(reference, list) else [reference]
    got, reason = judge_claim(response, refs)
    assert got in allowed, f"{response!r} vs {refs!r} -> {got.value} ({reason})"


def cosine_model() -> DecisionModel:
    """P(support) = sigmoid(10 * (cos1 - 0.7)); threshold 0.5; no margin."""
    d = len(FEATURE_NAMES)
    coef = np.zeros(d)
    coef[FEATURE_NAMES.index("cos1")] = 10.0
    return DecisionModel("test", FEATURE_NAMES, np.zeros(d), np.ones(d), coef, -7.0, -1.0, 0.0, 0.5, 0.0,
                         {"contradicted": 0.9, "qualification_dropped": 0.8})  # fmt: skip


def decide_claim(response: str, refs: list[str], cos: float, rule: Verdict) -> Verdict:
    """The decided verdict of ``response`` with the rule verdict ``rule``, under ``cosine_model``."""
    rcs = [ReferenceClaim(0, Claim(t, 0, len(t), position=i)) for i, t in enumerate(refs)]
    sim = np.full((1, len(refs)), cos, dtype=np.float32)
    out = decide([Claim(response, 0, len(response))], rcs, sim, [Judgement(0, rule)], model=cosine_model())
    return out[0].verdict


def slot_pair(claim: str, *evidence: str | tuple[int, str]) -> tuple[str, str] | None:
    """The value-slot check (``claims.verdict.value_slots.slot_conflict``) of ``claim`` against
    reference claims: each evidence item is a claim of reference 0, or (reference index, text).
    Returns (the claim's value, the reference's value) of the conflict, None without one."""
    rows = [e if isinstance(e, tuple) else (0, e) for e in evidence]
    refs = [ReferenceClaim(i, Claim(t, 0, len(t))) for i, t in rows]
    found = slot_conflict(extract(claim), refs)
    return None if found is None else (found[1].response_value, found[1].reference_value)
