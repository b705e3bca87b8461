"""The same event under other words: a typed value (year, amount) of a claim conflicts with the
reference's value when the two state the same event in other words ("first role came" /
"debut", "costs" / "price"), and never when the event differs. Kinds from the shared cases
``long_claim_two_conflicts`` and ``table_reference_wrong``, with new wordings."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.facets import content_tokens
from claims.types import Verdict
from claims.verdict.events import event_coverage


def _verdict_of(response: str, reference: str, needle: str) -> Verdict:
    report = audit_texts(response, [reference])
    for claim, judgement in zip(report.response_claims, report.judgements, strict=True):
        if needle in claim.text:
            return judgement.verdict
    raise AssertionError(f"no claim contains {needle!r}: {[c.text for c in report.response_claims]}")


@pytest.mark.parametrize(
    ("response", "reference", "needle"),
    [
        # paraphrase "first ... role" = "debut"; "came" only says that it took place
        ("Ilse Varn's first stage role came in 2011.", "Ilse Varn made her stage debut in 2013.", "2011"),
        (
            "Tomas Reyl's first appearance for the club came in 1999.",
            "Tomas Reyl debuted for the club in 1997.",
            "1999",
        ),
        # a light verb against a verb: "her debut came in 2004" / "she debuted in 2005"
        ("Mara Osk's debut came in 2004.", "Mara Osk debuted in 2005.", "2004"),
        # verb group cost / price (claims/data/predicate_synonyms.txt)
        ("The Team plan costs $40 per month.", "Team plan, price per month: $30.", "$40"),
        ("The ferry ticket is priced at 12 euros.", "A ferry ticket costs 15 euros.", "12"),
    ],
)
def test_value_of_the_same_event_in_other_words_is_contradicted(
    response: str, reference: str, needle: str
) -> None:
    assert _verdict_of(response, reference, needle) is Verdict.CONTRADICTED


@pytest.mark.parametrize(
    ("response", "reference", "needle"),
    [
        # another domain of the event: a film role is not the stage debut
        ("Ilse Varn's first film role came in 2011.", "Ilse Varn made her stage debut in 2013.", "2011"),
        # another event altogether
        ("Ilse Varn was born in 1990.", "Ilse Varn made her stage debut in 2013.", "1990"),
        ("The Team plan launched in 2019.", "Team plan, price per month: $30.", "2019"),
    ],
)
def test_value_of_another_event_is_not_contradicted(response: str, reference: str, needle: str) -> None:
    assert _verdict_of(response, reference, needle) is not Verdict.CONTRADICTED


def test_event_coverage_leaves_light_verbs_out_and_counts_paraphrases() -> None:
    # 4 words once "came" is left out; "first" + "role" paraphrase "debut", "stage" is stated
    assert event_coverage(content_tokens("first major stage role came"), content_tokens("stage debut")) == (
        0.75,
        4,
    )
    # only light verbs: nothing to compare, the event is not told apart
    assert event_coverage(content_tokens("came"), content_tokens("debut")) == (1.0, 0)
