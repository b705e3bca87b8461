"""Kind: a denial against a reference that names the event without asserting it
(``claims.verdict.factive``). "The quartet did not play in Linz" is no contradiction of "The
quartet was invited to play in Linz", "Reviewers claimed that the quartet played in Linz" or "If
the quartet had played in Linz, it would have sold out"; it is one of "The quartet played in
Linz" and of "The quartet managed to play in Linz" (an implicative verb asserts its complement).
Rows written for this test (no dev example, none of the contrast suite's); rule rows judged at
the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks decide.
"""

from __future__ import annotations

import pytest

from claims.verdict.factive import asserts
from tests.unit.verdict_rows import INF, C, Row, S, U, check_row

NOT_CONTRADICTED = {S, INF, U}

ROWS: list[Row] = [
    ("The quartet did not play in Linz.", "The quartet was invited to play in Linz.", NOT_CONTRADICTED),
    ("The quartet did not play in Linz.", "The quartet had hoped to play in Linz.", NOT_CONTRADICTED),
    (
        "The quartet did not play in Linz.",
        "Reviewers claimed that the quartet played in Linz.",
        NOT_CONTRADICTED,
    ),
    (
        "The quartet did not play in Linz.",
        "If the quartet had played in Linz, it would have sold out.",
        NOT_CONTRADICTED,
    ),
    ("Ivo Brand did not build the mill.", "Ivo Brand wanted to build the mill.", NOT_CONTRADICTED),
    ("Ivo Brand did not build the mill.", "Ivo Brand planned to build the mill.", NOT_CONTRADICTED),
    ("Ivo Brand did not repair the mill.", "Ivo Brand tried to repair the mill.", NOT_CONTRADICTED),
    (
        "The quartet did not play in Linz.",
        "Unless the hall closes, the quartet will play in Linz.",
        NOT_CONTRADICTED,
    ),
    # asserted: the denial contradicts
    ("The quartet did not play in Linz.", "The quartet played in Linz.", {C}),
    ("The quartet did not play in Linz.", "The quartet managed to play in Linz.", {C}),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r[0]} / {r[1]}")
def test_a_denial_contradicts_only_an_asserted_event(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(
    ("text", "verb", "asserted"),
    [
        ("The quartet played in Linz.", "play", True),
        ("The quartet went on to play in Linz.", "play", True),
        ("The quartet was invited to play in Linz.", "play", False),
        ("The quartet plans to play in Linz.", "play", False),
        ("Reviewers said the quartet played in Linz.", "play", False),
        ("If the quartet plays in Linz, it will sell out.", "play", False),
        ("The quartet would play in Linz.", "play", False),
        # no verb of that stem: nothing to read, the other checks decide
        ("The quartet's concert in Linz sold out.", "play", True),
    ],
)
def test_asserts(text: str, verb: str, asserted: bool) -> None:
    assert asserts(text, verb) is asserted
