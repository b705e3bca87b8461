"""Clauses of contrast and concession (``claims.decompose.adverbials``): "X, whereas Y", "X, while
Y", "X, although Y" assert both X and Y (Quirk et al. 1985), so a clause that follows its main
clause after a comma, with a subject of its own that names something, is a claim of its own.
Before it, the reference "Rents in Dalby are low, while wages are high" was one claim holding
both poles, and "Rents in Dalby are high" was `supported` by it. Sentences written for these
tests (no dev example)."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.decompose import decompose
from claims.types import ClaimKind, Role, Verdict


def material(text: str) -> list[str]:
    return [c.text for c in decompose(text, role=Role.REFERENCE) if c.kind is ClaimKind.MATERIAL]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Rents in Dalby are low, while wages in Dalby are high.",
            ["Rents in Dalby are low.", "Wages in Dalby are high."],
        ),
        (
            "The Kell river is shallow, although the Brom river is deep.",
            ["The Kell river is shallow.", "The Brom river is deep."],
        ),
        (
            "The north is dry, whereas the south gets heavy rain.",
            ["The north is dry.", "The south gets heavy rain."],
        ),
        (
            "The old mill closed in 1990, though the bakery stayed open.",
            ["The old mill closed in 1990.", "The bakery stayed open."],
        ),
    ],
)
def test_a_trailing_clause_of_contrast_is_a_claim_of_its_own(text: str, expected: list[str]) -> None:
    assert material(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "She was injured, while playing football.",  # no subject of its own
        "The team lost the final, although it had led at half time.",  # a pronoun: the main clause names it
        "Although the council banned the book, the book became a bestseller.",  # fronted
        "Rents are low while wages are high.",  # no comma: may be a time ("while")
    ],
)
def test_other_subordinate_clauses_stay_with_their_main_clause(text: str) -> None:
    assert len(material(text)) == 1


def test_a_locator_points_at_each_clause() -> None:
    text = "Rents in Dalby are low, while wages in Dalby are high."
    spans = [
        text[c.start : c.end] for c in decompose(text, role=Role.REFERENCE) if c.kind is ClaimKind.MATERIAL
    ]
    assert spans == ["Rents in Dalby are low", "wages in Dalby are high"]


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("Rents in Dalby are high.", Verdict.CONTRADICTED),  # was supported
        ("Rents in Dalby are low.", Verdict.SUPPORTED),
        ("The Kell river is deep.", Verdict.CONTRADICTED),
        ("The Brom river is deep.", Verdict.SUPPORTED),
    ],
)
def test_the_opposite_in_the_other_clause_no_longer_hides_a_conflict(claim: str, verdict: Verdict) -> None:
    refs = [
        "Rents in Dalby are low, while wages in Dalby are high. "
        "The Kell river is shallow, although the Brom river is deep."
    ]
    report = audit_texts(claim, refs)
    assert [j.verdict for j in report.judgements] == [verdict]
