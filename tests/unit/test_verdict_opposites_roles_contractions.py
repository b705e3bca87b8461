"""Kinds of the opposite, role and negation checks (``claims.verdict.counterparts``,
``claims.verdict.arguments``, ``claims.verdict.contractions``), each as a table of rows written
for these tests (no dev example):

- a name in the other role of the same verb ("FA Cup won Arsenal" / "Arsenal ... win the FA Cup")
  is contradicted; a common noun at the start of a sentence is no name ("Insomnia can cause
  stress"), and a rival name in the other text's other role is no swap;
- a contracted negation reads as the written-out one ("wasn't ratified" / "was not ratified");
- a claim's word that the evidence about its subject never states, while it states an opposite
  of it, is not supported (finding "opposite", which the learned decision keeps); a converse
  word of another subject ("lost the final to" / "won the final against") is no gap.

Rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide.
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.decision import STANDING_FINDINGS
from claims.types import Claim, ReferenceClaim
from claims.verdict import judge
from claims.verdict.arguments import role_conflict
from claims.verdict.contractions import expand_contractions
from tests.unit.verdict_rows import HIGH, C, Row, S, U, check_row

ROLES: list[Row] = [
    ("FA Cup won Arsenal in 1998.", "This made Arsenal the first side to win the FA Cup in 1998.", {C}),
    ("Bolt Motors acquired Dana Kerr in 2010.", "Dana Kerr acquired the company in 2010.", {C}),
    # the reference's "Eisinga" fits both names of the claim: no swap read
    (
        "Eise Eisinga built the Eisinga Planetarium in Franeker.",
        "Eisinga was an amateur astronomer and built the working model in Franeker.",
        {S, U},
    ),
    ("Arsenal won the FA Cup in 1998.", "Arsenal won the FA Cup in 1998 after beating Newcastle.", {S}),
    ("The planetarium was built by Eise Eisinga.", "Eise Eisinga built the planetarium in Franeker.", {S}),
]

CONTRACTIONS: list[Row] = [
    ("The treaty wasn't ratified by the Senate.", "The Senate ratified the treaty in March 1920.", {C}),
    ("The treaty was not ratified by the Senate.", "The Senate ratified the treaty in March 1920.", {C}),
    ("He didn't attend the meeting.", "He did not attend the meeting on Monday.", {S}),
    ("He did not attend the meeting.", "He didn't attend the meeting on Monday.", {S}),
]

OPPOSITE_GAPS: list[Row] = [
    (
        "Arsenal lost the FA Cup in 1993.",
        "Arsenal won the replay of the 1993 FA Cup final after extra time.",
        {U, C},
    ),
    (
        "The red sauce is atypically used in patatas bravas.",
        "The red sauce is typically served with patatas bravas.",
        {U, C},
    ),
    # a converse word of another subject reads the same event from its other side
    ("Germany lost the final to Brazil.", "Brazil won the final against Germany.", {S}),
]

#: no opposite gap: the claim states both poles itself, or the word is a preposition
NO_OPPOSITE_GAP: list[tuple[str, str]] = [
    ("The members left before the police arrived.", "The police arrived at the house after midnight."),
    ("Powell sued the newspaper for libel.", "Powell sued the newspaper, which had campaigned against him."),
]


@pytest.mark.parametrize("row", ROLES + CONTRACTIONS + OPPOSITE_GAPS, ids=lambda r: f"{r[0]} / {r[1]}")
def test_roles_contractions_and_opposite_gaps(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(("text", "ref"), NO_OPPOSITE_GAP)
def test_no_opposite_gap_for_both_poles_or_prepositions(text: str, ref: str) -> None:
    j = judge(
        [Claim(text, 0, len(text))], [ReferenceClaim(0, Claim(ref, 0, len(ref)))], np.full((1, 1), HIGH)
    )[0]
    assert j.finding != "opposite", j.reason


def test_no_role_swap_of_common_nouns_or_rival_names() -> None:
    assert role_conflict("Insomnia can cause stress.", "Stress can cause insomnia.") is None
    assert role_conflict("Lee succeeded Park as chair.", "Park succeeded Cho as chair.") is None
    found = role_conflict("Park succeeded Lee as chair.", "Lee succeeded Park as chair.")
    assert found is not None and (found[0].role, found[1].role) == ("agent", "patient")


def test_opposite_gap_stands() -> None:
    # without the check the claim is supported at this cosine (every other word is stated)
    text, ref = (
        "The red sauce is atypically used in patatas bravas.",
        "The red sauce is typically served with patatas bravas.",
    )
    j = judge(
        [Claim(text, 0, len(text))], [ReferenceClaim(0, Claim(ref, 0, len(ref)))], np.full((1, 1), HIGH)
    )[0]
    assert (j.verdict, j.finding) == (U, "opposite"), j.reason
    assert "'atypically'" in j.reason and "'typically'" in j.reason
    assert "opposite" in STANDING_FINDINGS


@pytest.mark.parametrize(
    ("text", "expanded"),
    [
        ("He didn't go.", "He did not go."),
        ("It won't rain.", "It will not rain."),
        ("Penguins cannot fly.", "Penguins can not fly."),
        ("Can't stop.", "Can not stop."),
        ("She wasn’t there.", "She was not there."),
        ("The cannon fired.", "The cannon fired."),
        # a direct quotation keeps the speaker's wording; the words around it are written out
        ("He said \"we haven't won\" and didn't stay.", 'He said "we haven\'t won" and did not stay.'),
        ("She said \u201cI can't\u201d.", "She said \u201cI can't\u201d."),
    ],
)
def test_expand_contractions(text: str, expanded: str) -> None:
    assert expand_contractions(text) == expanded
