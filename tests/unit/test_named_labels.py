"""A "Name: value" item whose value names its own attribute ("- Oslo: 285,000 inhabitants",
"- Bergen: population 212,000") is a key-value claim about the name
(``claims.verdict.key_values.named_label``), judged against the reference claims about it; a
counted noun and the labels that share its phrase in ``claims/data/label_predicates.tsv``
("inhabitants", "population", "residents": ``has {v} inhabitants``) name one slot
(``claims.labels.count_synonyms``).

Texts are written for this test (no shared or dev case). Expected values follow the module
notes of ``claims.verdict.key_values``: the subject's own reference value decides.
"""

from __future__ import annotations

import pytest

from claims.decompose import decompose
from claims.labels import count_synonyms
from claims.types import ReferenceClaim, Role
from claims.verdict.key_values import key_value_finding, named_label, other_subject_value

OSLO = "Oslo has a population of 709,000."
CITIES = f"{OSLO} Bergen has a population of 285,000. Trondheim has a population of 212,000."


def _finding(claim: str, text: str) -> tuple[bool, str] | None:
    refs = [ReferenceClaim(0, c) for c in decompose(text, role=Role.REFERENCE)]
    found = key_value_finding(claim, refs, with_subject=True)
    return None if found is None else (found.same, found.reference_value)


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (("", "Oslo", "285,000 inhabitants"), ("Oslo", "inhabitants", "285,000")),
        (("", "Bergen", "population 212,000"), ("Bergen", "population", "212,000")),
        (("", "Ness Bridge", "4,200 vehicles a day"), ("Ness Bridge", "vehicles", "4,200")),
        (("", "Population", "285,000 inhabitants"), None),  # a listed label is the attribute
        (("", "Oslo", "285,000"), None),  # no attribute word
        (("", "Note", "Oslo is big"), None),  # no number
        (("Norway", "Oslo", "285,000 inhabitants"), None),  # has a subject already
    ],
)
def test_a_name_label_with_an_attribute_in_its_value_is_read_as_its_subject(parts, expected) -> None:
    assert named_label(*parts) == expected


def test_counted_nouns_of_one_phrase_are_one_slot() -> None:
    assert count_synonyms("Inhabitants") == ["population", "inhabitants", "residents"]
    assert count_synonyms("architect") == []  # "was designed by": no counted noun


def test_a_name_item_is_judged_by_the_names_own_value() -> None:
    # the synonym alone: no other subject states 285,000 in the reference
    assert _finding("Oslo: 285,000 inhabitants.", OSLO) == (False, "709,000")
    assert _finding("Oslo: 709,000 residents.", OSLO) == (True, "709,000")
    # Bergen's figure given to Oslo; Trondheim's list item takes Bergen's number
    assert _finding("Oslo: 285,000 people live there.", CITIES) == (False, "709,000")
    assert _finding("Trondheim: population 285,000.", CITIES) == (False, "212,000")
    assert _finding("Trondheim: population 212,000.", CITIES) == (True, "212,000")


ELSEWHERE = "Bergen has a population of 285,000. Trondheim was founded in 997."


def _other(claim: str, text: str) -> str | None:
    refs = [ReferenceClaim(0, c) for c in decompose(text, role=Role.REFERENCE)]
    found = other_subject_value(claim, refs)
    return None if found is None else found[1]


def test_a_value_stated_only_of_another_subject_is_found_there() -> None:
    # the references name Trondheim but state 285,000 only of Bergen: no support, no inference
    assert _other("Trondheim, population: 285,000.", ELSEWHERE) == "285,000"
    assert _other("Trondheim: population 285,000.", ELSEWHERE) == "285,000"
    # the subject's own claim holds the value: the other steps decide
    assert _other("Trondheim, founded: 997.", ELSEWHERE) is None
    # no reference claim names the subject (another name for it?): left alone
    assert _other("Tromsø, population: 285,000.", ELSEWHERE) is None
    # the value only in a claim naming no entity: its unnamed subject may be the claim's
    assert (
        _other("Trondheim, population: 285,000.", "Trondheim was founded in 997. The population is 285,000.")
        is None
    )


def test_a_name_that_opens_no_claim_is_no_other_subject() -> None:
    # "Halden" is where the crossing ends, not the subject of the reference claim
    ferry = "The Skarvik ferry entered service in 1998. The crossing to Halden takes 35 minutes."
    assert _other("Skarvik ferry, crossing to Halden: 35 minutes.", ferry) is None


def test_a_name_the_rewriting_put_in_for_a_pronoun_is_no_other_subject() -> None:
    # the document writes "It has ..."; its claim was rewritten about Bergen (a wrong antecedent)
    from dataclasses import replace

    doc = "Trondheim was founded in 997. It has a population of 285,000."
    refs = [ReferenceClaim(0, c) for c in decompose(doc, role=Role.REFERENCE)]
    refs[-1] = ReferenceClaim(0, replace(refs[-1].claim, text="Bergen has a population of 285,000."))
    claim = "Trondheim, population: 285,000."
    assert other_subject_value(claim, refs) is not None  # the claim texts alone: Bergen's
    assert other_subject_value(claim, refs, [doc]) is None  # the document names no Bergen there
