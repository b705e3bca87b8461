"""Clauses of contrast and concession (``claims.decompose.adverbials``): "X, whereas Y", "X, while
Y", "X, although Y" assert both X and Y (Quirk et al. 1985), so where both clauses are a named
subject with an adjective predicate ("Rents are low, while wages are high") and the sentence
is just the two, the second is a claim of its own.
Before it, the reference "Rents in Dalby are low, while wages are high" was one claim holding
both poles, and "Rents in Dalby are high" was `supported` by it. Sentences written for these
tests (no dev example)."""

from __future__ import annotations

import re

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
        ("The north is dry, whereas the south is wet.", ["The north is dry.", "The south is wet."]),
        (
            "The Sarn tea is cheap, though the Tobb tea is very good.",
            ["The Sarn tea is cheap.", "The Tobb tea is very good."],
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
        # not two adjective predicates: a time, an elided predicate, a bare number or ordinal
        "The north is dry, whereas the south gets heavy rain.",
        "The Quorn factory produced steel, while the war lasted.",
        "The Brisk museum is large, while the Tann gallery is not.",
        "The Morl herb is not poisonous to cats, while the Tesk herb is.",
        "Lena Frost was the first woman to chair the board, while Anna Pike was the second.",
        "Ada Morn was famous, although Petra Voss was richer.",  # a comparative: than whom?
        "The Sorrel party is popular, though the Ambrel party is more popular.",
        # a pronoun or demonstrative whose referent the main clause gives
        "The Orlin vase is fake, although the Pell museum disputes this.",
        "Frell is large, although Dunmar is its largest city.",
        # a frame the second claim would lose: a fronted hedge or time, a trailing source
        "Reportedly, the Kell river is shallow, while the Brom river is deep.",
        "In 1920 the Varn mine was busy, while the Ossel mine was idle.",
        "Rents in Dalby are low, while wages are high, according to the Dalby survey.",
        "The Kell river is shallow, although the Brom river is deep (see map 3).",
    ],
)
def test_other_subordinate_clauses_stay_with_their_main_clause(text: str) -> None:
    """The clause after the subordinator is no claim alone (a past "while" may still be a
    temporal clause's state, anchored to its main clause: ``claims.decompose.adverbials``)."""
    clause = re.split(r"(?:^|,? )(?:while|whereas|although|though) ", text, maxsplit=1, flags=re.I)[1]
    alone = clause[:1].upper() + clause[1:].rstrip(".") + "."
    assert alone not in material(text)


def test_a_later_pronoun_still_takes_the_main_clause_subject() -> None:
    """A pronoun after the sentence prefers the main clause's subject, not the clause of
    contrast's ("It floods" is the Kell river)."""
    text = "The Kell river is shallow, although the Brom river is deep. It floods every spring."
    assert material(text)[-1] == "The Kell river floods every spring."


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
