"""Kind: a negated claim against a reference that affirms the same fact in other words
(``claims.verdict.affirmed``): "The Tessel Company was not founded by Marek Dolny" against
"Marek Dolny set up the Tessel Company in 1902" is ``contradicted``; an affirmation that is only
related, partial or of another value stays ``unsupported``, and a negation whose scope is a part
of the claim ("not only", "not until", a subordinate clause, a double negation) is no denial of
the predicate.

Rows are made up for this file (invented names and places). The rule-level rows use
``tests/unit/verdict_rows.py``'s ``judge_claim`` with the hand-made ``cosine_model`` standing in
for the shipped decision, so that the affirmation's probability of support is a function of the
cosine only: at ``HIGH`` (0.93) it is 0.91, at 0.75 it is 0.62, under ``AFFIRMED_P``.
"""

from __future__ import annotations

import pytest

from claims import decision
from claims.types import Claim, Evidence, Judgement, ReferenceClaim, Verdict
from claims.verdict.affirmed import AFFIRMED_P, affirmed_in_other_words, main_negation
from tests.unit.verdict_rows import HIGH, C, S, U, cosine_model, judge_claim

# (claim, the negation denies the claim's main predicate)
MAIN_NEGATION: list[tuple[str, bool]] = [
    ("The Tessel Company was not founded by Marek Dolny.", True),
    ("Lina Sorel did not write the novel Grey Harbour.", True),
    ("The Orla Bridge isn't the longest bridge in Venn.", True),
    ("The Kaldera Museum is not only a museum but also a school.", False),
    ("The Kaldera Museum did not open until 1990.", False),
    ("The falcon is not always the fastest bird in the valley.", False),
    ("Lina Sorel said that the novel was not finished in 1990.", False),
    ("It is not true that nobody lives on the island of Perr.", False),
    ("The Vesna Dam never supplied water to Korr.", False),
    ("The Vesna Dam supplies water to Korr.", False),
]


@pytest.mark.parametrize(("text", "main"), MAIN_NEGATION)
def test_main_negation(text: str, main: bool) -> None:
    assert main_negation(text) is main


_REFS = ["Marek Dolny set up the Tessel Company in 1902.", "Marek Dolny did not set up a bank."]
_TEXT = "The Tessel Company was not founded by Marek Dolny."

# (the affirmation's decided verdict, its confidence, the reference claim it leans on, the
# candidates, whether the negated claim is contradicted)
AFFIRMATIONS: list[tuple[Verdict, float, int, list[int], bool]] = [
    (Verdict.SUPPORTED, 0.9, 0, [0, 1], True),
    (Verdict.SUPPORTED, AFFIRMED_P, 0, [0], True),
    (Verdict.SUPPORTED, AFFIRMED_P - 0.01, 0, [0], False),  # not sure enough
    (Verdict.INFERRED, 0.95, 0, [0], False),  # only inferred
    (Verdict.UNSUPPORTED, 0.95, 0, [0], False),
    (Verdict.CONTRADICTED, 0.95, 0, [0], False),
    (Verdict.SUPPORTED, 0.9, 0, [1], False),  # no candidate of the claim
    (Verdict.SUPPORTED, 0.9, 1, [0, 1], False),  # a reference claim with a negation of its own
]


@pytest.mark.parametrize(("verdict", "p", "j", "top", "contradicted"), AFFIRMATIONS)
def test_affirmation_judged(verdict: Verdict, p: float, j: int, top: list[int], contradicted: bool) -> None:
    rcs = [ReferenceClaim(0, Claim(t, 0, len(t))) for t in _REFS]
    ev = (Evidence(0, j, 0, len(_REFS[j]), _REFS[j], 0.8),)

    def judge_text(text: str, decided: bool = False) -> Judgement:
        assert decided and "not" not in text
        return Judgement(0, verdict, ev, "stated", confidence=p)

    affirmation = "The Tessel Company was founded by Marek Dolny."
    got = affirmed_in_other_words(0, _TEXT, affirmation, "not", top, rcs, judge_text,
                                  lambda k: f"reference claim {k}", lambda t: "not" in t)  # fmt: skip
    assert (got is not None and got.verdict is Verdict.CONTRADICTED) is contradicted
    if got is not None:
        assert "reference claim 0" in got.reason and "other words" in got.reason


# (negated claim, reference, cosine, allowed verdicts): paraphrased affirmations contradicted
# at a high probability of support; related, partial, other-value and narrowed negations not;
# faithful negations ("not open" / "closed") stay supported
PARAPHRASES: list[tuple[str, str, float, set[Verdict]]] = [
    ("The Tessel Company was not founded by Marek Dolny.",
     "Marek Dolny set up the Tessel Company in a small workshop in 1902.", HIGH, {C}),
    ("Quartz sand does not turn into glass when it is heated strongly.",
     "When quartz sand is heated to very high temperatures it becomes glass.", HIGH, {C}),
    ("Lina Sorel did not write the novel Grey Harbour.",
     "Grey Harbour, the best-known novel of Lina Sorel, appeared in 1961.", HIGH, {C}),
    # the affirmation's probability of support under AFFIRMED_P
    ("The Tessel Company was not founded by Marek Dolny.",
     "Marek Dolny set up the Tessel Company in a small workshop in 1902.", 0.75, {U}),
    # only a related statement
    ("The Vesna Dam does not supply water to the city of Korr.",
     "The Vesna Dam was built near the city of Korr.", 0.75, {U}),
    # the negation narrows a part of the claim
    ("The Kaldera Museum is not only a museum but also a school.",
     "The Kaldera Museum is a museum.", HIGH, {S, U}),
    ("The Kaldera Museum did not open until 1990.", "The Kaldera Museum opened in 1990.", HIGH, {S, U}),
    # faithful negations
    ("The shop was not open on Sunday.", "The shop was closed on Sunday.", HIGH, {S}),
    ("The Kaldera Museum is not open on Mondays.", "The Kaldera Museum is closed on Mondays.", HIGH, {S}),
]  # fmt: skip


@pytest.mark.parametrize(("response", "reference", "cos", "allowed"), PARAPHRASES)
def test_paraphrased_affirmation(
    response: str, reference: str, cos: float, allowed: set[Verdict], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(decision, "load_model", cosine_model)
    got, reason = judge_claim(response, [reference], cos, decider=decision.decide_one)
    assert got in allowed, f"{response!r} vs {reference!r} at {cos} -> {got.value} ({reason})"
