"""The affirmation probe (``claims.affirmation_probe``): a negated claim whose affirmation the
references state is ``contradicted``; a denial the references neither state nor deny stays
``unsupported``.

``affirmation`` is read with the real parser; ``affirm`` is given the cosines of the affirmations
as a plain function (``flip_similarity``) and, where a case states the probability of support it
tests, a stand-in for the learned decision; ``test_audit_*`` run the whole audit with the real
embedder and the shipped decision. Every
sentence is written for these tests (no dev example; names and places are invented).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

import claims.affirmation_probe as probe_module
from claims.affirmation_probe import AFFIRMED_P, affirm, affirmation, affirmation_texts
from claims.types import Claim, Evidence, Judgement, ReferenceClaim, Verdict


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Ines Marlow did not win the Varga Prize in 2004.", "Ines Marlow won the Varga Prize in 2004."),
        # a dropped "do" puts the verb in its tense and person (irregular forms from the table)
        ("The Kelby bridge does not carry trains.", "The Kelby bridge carries trains."),
        ("They did not stop the Orm ferry.", "They stopped the Orm ferry."),
        ("Ines Marlow did not study in Paris.", "Ines Marlow studied in Paris."),
        ("The Kelby ferry isn't running this winter.", "The Kelby ferry is running this winter."),
        # the comma after the removed negation keeps its place
        (
            "They were not, by their own account, paid for the work.",
            "They were, by their own account, paid for the work.",
        ),
        # a negation narrowed to a part of the claim, a time limit, a double negation: no affirmation
        ("The Orm library is not only a library.", None),
        ("The Orm library did not open until 1990.", None),
        ("Nobody said the Orm library was not open.", None),
        ("The Orm library opened in 1990.", None),  # nothing to remove
        # under a modal the affirmation states a possibility, not the fact
        ("The Varn manuscript could not have been written by Abbot Oswin.", None),
        ("Kelby penguins cannot fly.", None),
        # a contrast or a polarity item after the negation: removing it states no opposite
        ("The Orm fair was not held in Kelby but in Dalby.", None),
        ("Ines Marlow did not win any prizes.", None),
        # the punctuation repair is local: ".5" and ".NET" keep their space
        ("The Kelby tax rate is not .5 percent.", "The Kelby tax rate is .5 percent."),
    ],
)
def test_affirmation(claim: str, expected: str | None) -> None:
    assert affirmation(claim) == expected


def _setup(verdict: Verdict = Verdict.UNSUPPORTED, finding: str | None = "denial"):
    claims = [Claim("The Kelby museum does not open on Mondays.", 0, 42)]
    refs = [ReferenceClaim(0, Claim("The Kelby museum opens on Mondays and Fridays.", 0, 46))]
    js = [Judgement(0, verdict, (), "no reference claim denies it", finding=finding)]
    return js, claims, refs


def _cosines(value: float):
    def cosines(texts: Sequence[str]) -> np.ndarray:
        return np.full((len(texts), 1), value, np.float32)

    return cosines


def _decided(p: float):
    """A stand-in for the learned decision that supports the affirmation with probability ``p``,
    citing the reference claim it was given (the rules' evidence)."""

    def decide_one(
        claim: Claim, rule: Judgement, refs: Sequence[ReferenceClaim], row: np.ndarray, texts=None
    ):
        ev = (Evidence(0, 0, 0, len(refs[0].claim.text), refs[0].claim.text, float(row[0])),)
        return replace(rule, verdict=Verdict.SUPPORTED, evidence=ev, confidence=p)

    return decide_one


def test_a_stated_affirmation_contradicts_the_denial(monkeypatch: pytest.MonkeyPatch) -> None:
    """The affirmation supported with P = ``AFFIRMED_P``: the denial is contradicted, citing the
    reference claim that states the affirmation."""
    monkeypatch.setattr(probe_module, "decide_one", _decided(AFFIRMED_P))
    js, claims, refs = _setup()
    (j,) = affirm(js, claims, refs, _cosines(0.9), threshold=0.6, reference_texts=[refs[0].claim.text])
    assert j.verdict is Verdict.CONTRADICTED and j.finding == "affirmed", j
    assert j.evidence[0].claim_index == 0
    assert "reference 0, chars 0–46" in j.reason


def test_a_weak_affirmation_leaves_the_denial_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    """P just under ``AFFIRMED_P``: absence of a denial is no contradiction."""
    monkeypatch.setattr(probe_module, "decide_one", _decided(AFFIRMED_P - 0.01))
    js, claims, refs = _setup()
    assert affirm(js, claims, refs, _cosines(0.9), threshold=0.6, reference_texts=[refs[0].claim.text]) == js


def test_a_far_affirmation_leaves_the_denial_unsupported() -> None:
    """The shipped decision, cosine 0.1: the reference is about something else."""
    js, claims, refs = _setup()
    assert affirm(js, claims, refs, _cosines(0.1), threshold=0.6, reference_texts=[refs[0].claim.text]) == js


@pytest.mark.parametrize(
    ("verdict", "finding"),
    [
        (Verdict.SUPPORTED, None),
        (Verdict.CONTRADICTED, None),
        (Verdict.UNSUPPORTED, None),
        (Verdict.UNSUPPORTED, "rival"),
    ],
)
def test_other_judgements_are_left_alone(verdict: Verdict, finding: str | None) -> None:
    js, claims, refs = _setup(verdict, finding)

    def never(texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("nothing to embed")

    assert affirm(js, claims, refs, never, threshold=0.6, reference_texts=[refs[0].claim.text]) == js


@pytest.mark.parametrize(
    "reference",
    ["The Kelby museum opens on Mondays, not on Fridays.", "The Kelby museum never closes on Mondays."],
)
def test_a_reference_that_holds_a_denial_affirms_nothing(
    monkeypatch: pytest.MonkeyPatch, reference: str
) -> None:
    """A negation word in the reference claim that supports the affirmation: it denies something,
    and the probe reads no affirmation from it (as the rule check, ``claims.verdict.affirmed``)."""
    monkeypatch.setattr(probe_module, "decide_one", _decided(0.99))
    claims = [Claim("The Kelby museum does not open on Mondays.", 0, 42)]
    refs = [ReferenceClaim(0, Claim(reference, 0, len(reference)))]
    js = [Judgement(0, Verdict.UNSUPPORTED, (), "", finding="denial")]
    assert affirm(js, claims, refs, _cosines(0.9), threshold=0.6, reference_texts=[reference]) == js


@pytest.mark.parametrize(
    "reference",
    [
        "It is often said that the Kelby museum opens on Mondays, but this is a myth.",
        "Critics claimed that the Kelby museum opens on Mondays.",
        "The Kelby museum opens on Mondays; the Orm gallery does not.",
    ],
)
def test_a_reported_or_denying_sentence_affirms_nothing(
    monkeypatch: pytest.MonkeyPatch, reference: str
) -> None:
    """The sentence that holds the cited evidence reports the event ("it is often said",
    "claimed": ``claims.verdict.factive.asserts``) or holds a denial: it does not state the
    affirmation as fact, whatever its clause read alone says."""
    monkeypatch.setattr(probe_module, "decide_one", _decided(0.99))
    claims = [Claim("The Kelby museum does not open on Mondays.", 0, 42)]
    start = reference.index("the Kelby museum") if "the Kelby" in reference else 0
    cut = reference.index("Mondays") + len("Mondays")
    refs = [ReferenceClaim(0, Claim(reference[start:cut], start, cut))]
    js = [Judgement(0, Verdict.UNSUPPORTED, (), "", finding="denial")]
    assert affirm(js, claims, refs, _cosines(0.9), threshold=0.6, reference_texts=[reference]) == js


def test_affirmation_texts() -> None:
    """What the probe may embed, before any verdict (the embed stage caches them)."""
    assert affirmation_texts(
        ["The Kelby museum does not open on Mondays.", "The Kelby museum opens on Fridays.",
         "The Kelby museum does not open on Mondays."]
    ) == ["The Kelby museum opens on Mondays."]  # fmt: skip


AUDITS = [
    # the reference is about the same subject and says nothing of what the claim denies
    (
        "Ines Marlow did not serve on the Kelby city council.",
        "Ines Marlow was born in Kelby in 1950 and trained as a nurse.",
        "unsupported",
    ),
]


@pytest.mark.parametrize(("claim", "reference", "verdict"), AUDITS, ids=[a[0][:40] + a[2] for a in AUDITS])
def test_audit_with_the_real_embedder(claim: str, reference: str, verdict: str) -> None:
    from claims.audit import audit_texts

    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict.value == verdict, j


def test_the_threshold_is_a_probability() -> None:
    assert 0.0 < AFFIRMED_P < 1.0
