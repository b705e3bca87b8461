"""A name of the claim whose slot a reference claim fills with another name, naming the claim's
name only in another role (``claims.verdict.value_slots.rival_name``): that reference claim is
no support, alone or in an inference, and at full clause coverage its name is the slot's value
(``contradicted``). Lists, symmetric relations, one name in two parts and places at another
granularity are no rivals. Sentences written for these tests."""

from __future__ import annotations

import numpy as np
import pytest

from claims.facets import extract
from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.value_slots import rival_name, slot_conflict


def _refs(texts: list[str]) -> list[ReferenceClaim]:
    return [ReferenceClaim(0, Claim(t, 0, len(t))) for t in texts]


def _rival(claim: str, text: str, *others: str) -> tuple[str, str] | None:
    found = rival_name(claim, text, others)
    return None if found is None else (found[0].text, found[1].text)


@pytest.mark.parametrize(
    ("claim", "reference", "want"),
    [
        # the claim's name is in the reference claim, but as the one behind / ahead of the finisher
        (
            "Anna Berg finished second in the 2003 Oslo marathon.",
            "Maria Lind finished second in the 2003 Oslo marathon, behind Anna Berg of Sweden.",
            ("Anna Berg", "Maria Lind"),
        ),
        (
            "Anna Berg won the race.",
            "Maria Lind won the race, ahead of Anna Berg.",
            ("Anna Berg", "Maria Lind"),
        ),
        # the claim's name is the club joined, not the one who made the debut
        (
            "Hartley Rovers made his league debut in 1993.",
            "After joining Hartley Rovers in 1990, Tom Ellis made his league debut in 1993.",
            ("Hartley Rovers", "Tom Ellis"),
        ),
        # the claim's name is absent: the slot is still another name's
        (
            "Lena Holm proposed the budget cut.",
            "Olav Brandt proposed the budget cut in March.",
            ("Lena Holm", "Olav Brandt"),
        ),
    ],
)
def test_another_name_in_the_slot_is_a_rival(claim: str, reference: str, want: tuple[str, str]) -> None:
    assert _rival(claim, reference) == want


@pytest.mark.parametrize(
    ("claim", "reference", "others"),
    [
        # the claim's name in the slot, in a list with the other
        ("Tom Reed founded the company.", "The company was founded by Ana Lopez and Tom Reed.", ()),
        ("Tom Reed founded the company.", "Ana Lopez and Tom Reed founded the company.", ()),
        # a symmetric relation: the other name is a name of the claim (the role checks' question)
        ("Ana Lopez married Tom Reed in 2001.", "Tom Reed married Ana Lopez in 2001.", ()),
        # one person in two parts, written as one name elsewhere in the evidence
        (
            "It reignites his rivalry with a now-successful LaRusso.",
            "It reignites his rivalry with a now-successful Daniel.",
            ("The duo reprise their roles as underdog Daniel LaRusso and bully Johnny Lawrence.",),
        ),
        # a short form of the same name
        ("The DNC approved the rule.", "The Democratic National Committee approved the rule.", ()),
        # a place after a preposition of place or in apposition is stated at any granularity
        ("Tom Ellis was born in Yorkshire.", "Tom Ellis was born in Leeds.", ()),
        (
            '"Merry Company on a Terrace" (1616) is in the collection of the Mauritshuis, the Hague.',
            "Mauritshuis, The HagueMerry Company on a Terrace (c. 1616–17), Willem Buytewech.",
            (),
        ),
        # the reference states the claim's name in its slot (another name beside it elsewhere)
        ("Maria Lind won the race.", "Maria Lind won the race, ahead of Anna Berg.", ()),
    ],
)
def test_no_rival(claim: str, reference: str, others: tuple[str, ...]) -> None:
    assert _rival(claim, reference, *others) is None


def test_a_rival_in_the_slot_of_a_named_claim_is_contradicted() -> None:
    """The exact pass (every word of the claim's clause in the reference claim) takes the rival
    as the slot's value: the claim's name stated only in another role does not state it."""
    found = slot_conflict(
        extract("Anna Berg finished second in the 2003 Oslo marathon."),
        _refs(["Maria Lind finished second in the 2003 Oslo marathon, behind Anna Berg of Sweden."]),
    )
    assert found is not None
    assert (found[1].response_value, found[1].reference_value) == ("Anna Berg", "Maria Lind")


def test_a_reference_claim_naming_the_name_in_another_role_is_no_support() -> None:
    """Every word of the claim is in the reference claim, at a support cosine (0.9, above
    ``T.support_cosine``), but its name is the one behind: not supported."""
    claim = "Anna Berg won the 2003 Oslo marathon."
    refs = _refs(["Maria Lind won the 2003 Oslo marathon, ahead of Anna Berg of Sweden."])
    [j] = judge([Claim(claim, 0, len(claim))], refs, np.array([[0.9]]))
    assert j.verdict is not Verdict.SUPPORTED, j.reason
    control = "Maria Lind won the 2003 Oslo marathon."
    [c] = judge([Claim(control, 0, len(control))], refs, np.array([[0.9]]))
    assert c.verdict is Verdict.SUPPORTED, c.reason


def test_the_losing_side_of_the_stated_match_is_no_support() -> None:
    """Every word of the claim is in the reference claim at a support cosine (0.7), "Belgium"
    among them, but as the side France beat: not supported (``contradicted`` here: the slot's
    value, every word of the clause stated)."""
    claim = "In 1986, Belgium won the match after extra time."
    refs = _refs(["In 1986, France won the match against Belgium after extra time."])
    [j] = judge([Claim(claim, 0, len(claim))], refs, np.array([[0.7]]))
    assert j.verdict is Verdict.CONTRADICTED, j.reason
    assert "Belgium" in j.reason and "France" in j.reason
