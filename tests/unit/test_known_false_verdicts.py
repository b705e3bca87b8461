"""Known false verdicts, each held by a strict xfail so that a fix shows (the test then passes
and the mark must go) and a change of behaviour is noticed. Each reason names the document that
describes the limit and the measured attempt to lift it. Sentences written for this test."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts


def _verdict(response: str, reference: str) -> str:
    (j,) = audit_texts(response, [reference]).judgements
    return j.verdict.value


@pytest.mark.xfail(
    strict=True,
    reason="a subject without a determiner has no subject head, so another subject is not "
    "compared (docs/CALIBRATION.md, Known limits): supported today",
)
def test_a_bare_subject_of_another_noun_is_no_support() -> None:
    assert _verdict("Wages in Dalby are low.", "Rents in Dalby are low.") == "unsupported"


@pytest.mark.xfail(
    strict=True,
    reason="the negation flip does not ask for the denied verb (docs/LEXICON.md, Negation, "
    "Known limit): contradicted today",
)
def test_another_verb_of_the_same_parties_does_not_flip_a_denial() -> None:
    assert (
        _verdict("Kelby Rovers did not beat Orm United.", "Kelby Rovers played Orm United.") == "unsupported"
    )


@pytest.mark.xfail(
    strict=True,
    reason="a score line is no relation (docs/LEXICON.md, Roles and order): supported today",
)
def test_a_score_line_orders_its_winner_and_loser() -> None:
    assert (
        _verdict("Kelby Rovers beat Orm United in the cup.", "Cup, second round: Orm United 2–0 Kelby Rovers")
        == "contradicted"
    )


@pytest.mark.xfail(
    strict=True,
    reason="a paraphrased affirmation of a denial is supported below the probability (0.7) a "
    "contradiction needs, by the claim's cosines or by its own (docs/LEXICON.md, Current "
    "figures, the affirmation judged by its own vector): unsupported today",
)
def test_a_denial_of_what_the_evidence_states_in_other_words_is_contradicted() -> None:
    assert (
        _verdict(
            "Potatoes are not a main ingredient of Orm stew.",
            "Orm stew is made chiefly of potatoes, leeks and mutton.",
        )
        == "contradicted"
    )
