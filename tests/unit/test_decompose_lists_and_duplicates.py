"""Decomposition of coordinations and lists (one claim per member, "respectively", "but not") and
deduplication (one fact stated twice is one claim; another number, a denial or a converse is
another claim).

Expected values come from the decomposition rules (docs/DECOMPOSITION.md: "has a pool, a gym and
a rooftop bar" -> three claims; "She was 23" -> "Ines Marlow was 23") and
from the shared cases (../shared/cases/audits.jsonl, the case named in each row).
"""

from __future__ import annotations

import pytest

from claims.decompose import decompose
from tests.unit.decompose_texts import material


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # case list_splitting: a list of three objects is three claims
        (
            "The Alder Hotel has a pool, a gym, and a rooftop bar.",
            [
                "The Alder Hotel has a pool.",
                "The Alder Hotel has a gym.",
                "The Alder Hotel has a rooftop bar.",
            ],
        ),
        # case mixed_paragraph: coordinated verb phrases share the subject
        (
            "The Orsen Tower stands 324 metres tall and was finished in 1931.",
            ["The Orsen Tower stands 324 metres tall.", "The Orsen Tower was finished in 1931."],
        ),
        # case mixed_paragraph: a participial clause set off by commas is a claim of its own
        (
            "The Kestrel Bridge, designed by Rosa Feld, crosses the river Aln.",
            ["The Kestrel Bridge crosses the river Aln.", "The Kestrel Bridge was designed by Rosa Feld."],
        ),
        # case unrelated_subject: "crosses ... and opened ..." -> two claims
        (
            "The Kestrel Bridge crosses the river Aln and opened to traffic in 1998.",
            ["The Kestrel Bridge crosses the river Aln.", "The Kestrel Bridge opened to traffic in 1998."],
        ),
    ],
)
def test_coordinations_and_lists_are_split(text: str, expected: list[str]) -> None:
    assert material(text) == expected


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # "respectively" pairs its lists member by member: whole, "Alice and Bob
        # were born in 1990 and 1992, respectively" would be unsupported against the same facts and
        # find both years against "Alice was born in 1992"; the verb and a predicate noun agree
        # with the single subject
        (
            "Alice and Bob were born in 1990 and 1992, respectively.",
            ["Alice was born in 1990.", "Bob was born in 1992."],
        ),
        (
            "Paris and Rome are the capitals of France and Italy respectively.",
            ["Paris is the capital of France.", "Rome is the capital of Italy."],
        ),
        (
            "Alice and Bob live in Oslo and Rome, respectively.",
            ["Alice lives in Oslo.", "Bob lives in Rome."],
        ),
        (
            "The film won the Oscar and the Golden Globe in 2001 and 2003, respectively.",
            ["The film won the Oscar in 2001.", "The film won the Golden Globe in 2003."],
        ),
        # one list only (a misparse): the sentence stays whole rather than pair the wrong words
        (
            "The two bridges opened in 1998 and 2004 respectively.",
            ["The two bridges opened in 1998 and 2004 respectively."],
        ),
        # "but not" denies its member (not "The phone supports not Bluetooth 5.3" read
        # as a statement), and the hyphen of "Wi-Fi" does not keep the list whole; with an auxiliary the
        # denial is "was not", without one a denying frame (no lemmatizer for "does not support")
        (
            "The phone supports Wi-Fi 6 but not Bluetooth 5.3.",
            ["The phone supports Wi-Fi 6.", "It is not the case that the phone supports Bluetooth 5.3."],
        ),
        ("He was a singer but not an actor.", ["He was a singer.", "He was not an actor."]),
    ],
)
def test_respectively_and_but_not(text: str, claims: list[str]) -> None:
    assert [c.text for c in decompose(text)] == claims


def test_duplicates_are_merged_and_counted() -> None:
    # case duplicate_claims: three statements of one fact -> one claim with 2 duplicates
    claims = decompose(
        "Ines Marlow won the Varga Prize in 2004. Ines Marlow won the Varga Prize in 2004. "
        "In 2004, Ines Marlow won the Varga Prize."
    )
    assert [(c.text, c.duplicates) for c in claims] == [("Ines Marlow won the Varga Prize in 2004.", 2)]


def test_different_numbers_are_not_duplicates() -> None:
    # a near-identical text with another year is another claim (2004 vs 2001)
    claims = decompose("Ines Marlow won the Varga Prize in 2004. Ines Marlow won the Varga Prize in 2001.")
    assert [c.duplicates for c in claims] == [0, 0]


def test_negation_is_not_a_duplicate() -> None:
    claims = decompose("The museum opens on Mondays. The museum does not open on Mondays.")
    assert len(claims) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the converse is another claim, however alike its words (dropping the second as a
        # duplicate of the first would make a reference stating both directions read as stating
        # one, and the converse check would call the other unsupported)
        (
            "Poverty leads to crime. Crime leads to poverty.",
            ["Poverty leads to crime.", "Crime leads to poverty."],
        ),
        (
            "Smoking causes lung cancer. Lung cancer causes smoking.",
            ["Smoking causes lung cancer.", "Lung cancer causes smoking."],
        ),
        # the same claim with an adjunct moved is still one
        ("The bridge opened in 1990. In 1990 the bridge opened.", ["The bridge opened in 1990."]),
        ("The bridge opened in 1990. The bridge opened in 1990.", ["The bridge opened in 1990."]),
    ],
)
def test_converse_claims_are_no_duplicates(text: str, expected: list[str]) -> None:
    assert [c.text for c in decompose(text)] == expected
