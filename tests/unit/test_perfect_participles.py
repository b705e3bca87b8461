"""Perfect participles are decomposed in the past perfect (``claims.decompose.adverbials``).

"Having been elected in 2010, the mayor resigned in 2014" gives "The mayor had been elected in
2010."; the rendering was "The mayor having been was elected in 2010.", a claim no reader would
write and one the verdict checks compared badly. The sentences are written for this test
(invented people, clubs and places, not from the dev sets).
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.decompose import decompose
from claims.types import Role, Verdict


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        (
            "Dana Pirell, having founded the Kelby Rowing Club in 2001, retired on Monday.",
            "Dana Pirell had founded the Kelby Rowing Club in 2001.",
        ),
        ("Having won the cup twice, the club hired a new coach.", "The club had won the cup twice."),
        ("Having been elected in 2010, the mayor resigned in 2014.", "The mayor had been elected in 2010."),
        ("Not having seen the film, Dana Pirell left.", "Dana Pirell had not seen the film."),
        ("Never having seen the sea, Dana Pirell moved to Kelby.", "Dana Pirell had never seen the sea."),
    ],
)
def test_a_perfect_participle_is_decomposed_in_the_past_perfect(sentence: str, claim: str) -> None:
    assert claim in [c.text for c in decompose(sentence, role=Role.REFERENCE)]


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("Dana Pirell founded the Kelby Rowing Club in 2001.", Verdict.SUPPORTED),
        ("Dana Pirell founded the Kelby Rowing Club in 2003.", Verdict.CONTRADICTED),
    ],
)
def test_a_value_of_a_perfect_participle_is_compared(response: str, verdict: Verdict) -> None:
    report = "Dana Pirell, having founded the Kelby Rowing Club in 2001, retired on Monday."
    (j,) = audit_texts(response, [report]).judgements
    assert j.verdict is verdict, j.reason


def test_a_passive_perfect_participle_supports_its_claim() -> None:
    report = "Having been elected in 2010, the mayor of Kelby resigned in 2014."
    (j,) = audit_texts("The mayor of Kelby was elected in 2010.", [report]).judgements
    assert j.verdict is Verdict.SUPPORTED, j.reason
