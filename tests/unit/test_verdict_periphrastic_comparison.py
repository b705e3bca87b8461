"""A comparison written with a degree word (``claims.verdict.order``): "A is more X than B" is "A
is X-er than B", and "A is less X than B" is the same comparison read the other way round ("B is
X-er than A"), so it agrees with the converse ("B is deeper than A", "A is shallower than B")
and conflicts with the comparison kept the claim's way ("A is deeper than B"). Rows written for
these tests (no dev example, none of the contrast suite's). Adjectives with a comparative form in
``claims.lexicon`` (a converse or a comparative opposite: deeper/shallower, safer/riskier) and
adjectives without one (the key is the regular comparative, "less hard" -> "harder", or, for a
long adjective with no "-er" form, the adjective itself: "reactive") are all read. A denied "less"
("no less deep than") is the comparative the claim's way round, and "less deep than" against "not
as deep as" the same way round is no flip.

Rule rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide; the relation rows read the parse alone.
"""

from __future__ import annotations

import pytest

from claims.lexicon import regular_comparative
from claims.verdict.order import order_conflict, relations, told_conversely
from tests.unit.verdict_rows import INF, C, Row, S, U, check_row

AGREE = {S, INF}

ROWS: list[Row] = [
    # "less X than" against the comparative, the sides swapped: one comparison
    ("The Tana is less deep than the Alta.", "The Alta is deeper than the Tana.", AGREE),
    ("Silver is less reactive than copper.", "Copper is more reactive than silver.", AGREE),
    # ... the sides kept: the order is reversed
    ("The Alta is less deep than the Tana.", "The Alta is deeper than the Tana.", {C}),
    ("Copper is less reactive than silver.", "Copper is more reactive than silver.", {C}),
    ("Rail is less safe than road transport.", "Rail is safer than road transport.", {C}),
    # against the opposite adjective: "less shallow" is "deeper"
    ("The Tana is less shallow than the Alta.", "The Alta is deeper than the Tana.", {C}),
    ("The Alta is less deep than the Tana.", "The Tana is shallower than the Alta.", {C}),
    # "more X than" is the comparative itself
    ("The Alta is more shallow than the Tana.", "The Alta is shallower than the Tana.", AGREE),
    ("The Alta is more shallow than the Tana.", "The Tana is shallower than the Alta.", {C}),
    # an adjective the lexicon holds no pair for: "less hard" is keyed as "harder"
    ("Pine is less hard than maple.", "Pine is harder than maple.", {C}),
    ("Granite is less hard than quartz.", "Quartz is harder than granite.", AGREE),
    # a denied "less" ("no less deep") is the comparative the claim's way round
    ("The Tana is no less deep than the Alta.", "The Alta is deeper than the Tana.", {C}),
    # "less deep than" and "not as deep as", the same way round: no flip between them
    ("The Tana is less deep than the Alta.", "The Tana is not as deep as the Alta.", {S, INF, U}),
    # invariance: the same comparison in the same words
    ("Silver is less reactive than copper.", "Silver is less reactive than copper.", {S}),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r[0]} / {r[1]}")
def test_periphrastic_comparisons(row: Row) -> None:
    check_row(row)


def test_less_reads_the_comparison_the_other_way_round() -> None:
    """The relation of "less deep than" is the comparative's, with its sides exchanged."""
    (less,) = relations("The Tana is less deep than the Alta.")
    (more,) = relations("The Alta is deeper than the Tana.")
    assert (less.key, less.first, less.second) == (more.key, more.first, more.second)
    assert less.reversed is True and more.reversed is False
    assert told_conversely("The Tana is less deep than the Alta.", "The Alta is deeper than the Tana.")
    assert order_conflict("The Alta is less deep than the Tana.", "The Alta is deeper than the Tana.")


def test_without_a_comparative_form_the_adjective_is_the_key() -> None:
    (rel,) = relations("Silver is less reactive than copper.")
    assert rel.key == "cmp:reactive"
    assert (rel.first, rel.second, rel.reversed) == ("copper", "silver", True)


@pytest.mark.parametrize(
    ("adjective", "comparative"),
    [
        ("hard", "harder"),
        ("large", "larger"),
        ("safe", "safer"),
        ("easy", "easier"),
        ("big", "bigger"),
        ("new", "newer"),
        ("good", "better"),
        ("far", "farther"),
        # a longer adjective has only "more X": it stays itself
        ("reactive", "reactive"),
        ("expensive", "expensive"),
    ],
)
def test_regular_comparative(adjective: str, comparative: str) -> None:
    """English comparative spelling (one vowel group before a final "e"; a final consonant
    doubled after one vowel; consonant + "y" -> "ier"; a few irregular forms)."""
    assert regular_comparative(adjective) == comparative
