"""The ``Judge`` protocol (``claims.review``): which claims a second opinion sees, what it may
change, and that an in-memory audit (``claims.audit.audit_texts``) scores its verdicts.

The judge here is a test double of the protocol (a class that records what it was given), not
an LLM endpoint; the LLM judge behind the protocol is tested against a real llama.cpp server in
tests/llm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pytest

from claims.audit import audit_texts
from claims.options import AuditOptions
from claims.review import Judge, second_opinion, uncertain_band
from claims.types import Claim, Judgement, ReferenceClaim, Verdict

#: one claim the reference states, one it contradicts by its year (the engine's year check:
#: "year 1991 ≠ 1993"), one it does not state
RESPONSE = "The Lindholm Bridge opened in 1991. The bridge is painted red. It has four lanes."
REFERENCE = "The Lindholm Bridge opened in 1993. The bridge has four lanes."


@dataclass
class Recorder:
    """A judge that records the band it was given and calls every claim in it ``unsupported``."""

    seen: list[frozenset[int] | None] = field(default_factory=list)

    def review(
        self,
        response_claims: Sequence[Claim],
        reference_claims: Sequence[ReferenceClaim],
        similarity: np.ndarray,
        judgements: Sequence[Judgement],
        *,
        only: frozenset[int] | None,
    ) -> list[Judgement]:
        self.seen.append(only)
        band = range(len(judgements)) if only is None else only
        return [
            replace(j, verdict=Verdict.UNSUPPORTED, confidence=None) if j.response_index in band else j
            for j in judgements
        ]


def test_the_recorder_is_a_judge() -> None:
    assert isinstance(Recorder(), Judge)


def test_no_judge_is_asked_unless_the_options_say_so() -> None:
    judge = Recorder()
    report = audit_texts(RESPONSE, [REFERENCE], judge=judge)  # options.judge defaults to "none"
    assert judge.seen == []
    assert any(j.verdict is Verdict.SUPPORTED for j in report.judgements)


def test_llm_mode_hands_every_claim_and_the_scores_follow_the_judge() -> None:
    judge = Recorder()
    report = audit_texts(RESPONSE, [REFERENCE], judge=judge, options=AuditOptions(judge="llm"))
    assert judge.seen == [None]
    verdicts = [j.verdict for j in report.judgements]
    assert verdicts == [Verdict.UNSUPPORTED] * len(verdicts)
    # the score step reads the judge's verdicts: nothing is supported any more
    assert report.result.counts["supported"] == 0


def test_auto_mode_hands_only_the_uncertain_band_and_never_a_rule_conflict() -> None:
    judge = Recorder()
    options = AuditOptions(judge="auto", llm_band=(0.0, 1.0))  # every confidence is uncertain
    report = audit_texts(RESPONSE, [REFERENCE], judge=judge, options=options)
    conflicts = {j.response_index for j in report.judgements if j.verdict is Verdict.CONTRADICTED}
    assert conflicts, "the year claim is a rule conflict (the engine's year check)"
    (band,) = judge.seen
    assert band is not None and band.isdisjoint(conflicts)
    assert band | conflicts == set(range(len(report.judgements)))


def _judgements() -> list[Judgement]:
    return [
        Judgement(0, Verdict.SUPPORTED, confidence=0.95),
        Judgement(1, Verdict.UNSUPPORTED, confidence=0.5),
        Judgement(2, Verdict.CONTRADICTED),
    ]


def test_a_judge_that_loses_a_claim_is_an_error() -> None:
    class Loser(Recorder):
        def review(self, *args: object, only: frozenset[int] | None) -> list[Judgement]:  # type: ignore[override]
            return _judgements()[:2]

    with pytest.raises(ValueError, match="returned 2 judgements for 3 claims"):
        second_opinion(Loser(), AuditOptions(judge="llm"), [], [], np.zeros((3, 0)), _judgements())


def test_a_judge_that_changes_a_claim_outside_its_band_is_an_error() -> None:
    class Overreach(Recorder):
        def review(self, *args: object, only: frozenset[int] | None) -> list[Judgement]:  # type: ignore[override]
            return [replace(j, verdict=Verdict.SUPPORTED) for j in _judgements()]

    options = AuditOptions(judge="auto", llm_band=(0.35, 0.75))
    assert uncertain_band(_judgements(), options) == {1}
    with pytest.raises(ValueError, match=r"changed response claims \[2\]"):
        second_opinion(Overreach(), options, [], [], np.zeros((3, 0)), _judgements())
