"""Planted faults of the canaries (``claims.canary``), each as a kind: a denial
of a sentence with a grouped number ("1,420": the comma is no clause boundary), a surname
swapped within one first name, a place name swapped into a name phrase, a count written in
words. Reference: the demo's bridge text (examples/01_paraphrase.json)."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.types import Verdict

REF = (
    "The Halvorsen Bridge opened to traffic on 12 May 1998. The suspension bridge is 1,420 metres "
    "long and carries four lanes of the E39 motorway across the Sandvik fjord. It was designed by "
    "the engineer Marit Olsen."
)


def _verdict(response: str) -> Verdict:
    report = audit_texts(response, [REF])
    assert len(report.judgements) == 1, [c.text for c in report.response_claims]
    return report.judgements[0].verdict


@pytest.mark.parametrize(
    ("response", "allowed"),
    [
        # inserted negation around a grouped number
        ("The suspension bridge is not 1,420 metres long.", {Verdict.CONTRADICTED}),
        # another surname: never support (the claim's subject is named differently, so no swap)
        (
            "The Halvorsen Bridge was designed by the engineer Marit Larsen.",
            {Verdict.CONTRADICTED, Verdict.UNSUPPORTED},
        ),
        # a name of the references put where another stands
        (
            "The suspension bridge carries four lanes of the E39 motorway across the Halvorsen Bridge fjord.",
            {Verdict.CONTRADICTED},
        ),
        # a count in words that no reference states
        ("The Halvorsen Bridge carries six lanes of traffic.", {Verdict.CONTRADICTED, Verdict.UNSUPPORTED}),
    ],
)
def test_planted_fault_is_not_supported(response: str, allowed: set[Verdict]) -> None:
    assert _verdict(response) in allowed


@pytest.mark.parametrize(
    "response",
    [
        "The Halvorsen Bridge was designed by the engineer Marit Olsen.",
        "The suspension bridge is 1,420 metres long.",
        "The Halvorsen Bridge carries four lanes of the E39 motorway.",
    ],
)
def test_the_unchanged_sentence_is_supported(response: str) -> None:
    assert _verdict(response) in {Verdict.SUPPORTED, Verdict.INFERRED}
