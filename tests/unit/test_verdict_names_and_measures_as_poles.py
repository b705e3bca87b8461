"""Opposites that are no pole of the claim's predicate, as tables of rows written for these tests
(no dev example; every place and person is invented):

- a word of a multi-word name ("Hot Springs Park", "the Dead Sea", "Rich Hill") against the same
  word said of the claim's subject: no conflict; two names that differ by an opposite ("Hot
  Springs" / "Cold Springs") are two names and still conflict
  (``claims.verdict.text.named_alike``);
- a measure ("300 metres deep", "12 metres wide") states an amount, not the pole: no
  contradiction, and no support of the opposite pole either (the opposite gap: ``unsupported``);
- a claim whose support states the claim's own word beside its opposite of another time ("was
  dangerous in 2009 but is safe now") is no conflict;
- a WordNet opposite is read only for a word of its part of speech
  (``claims.lexicon.applies_to``): "right" in "has the right to" is a noun, no pole of "wrong".

Rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide.
"""

from __future__ import annotations

import pytest

from claims.verdict.text import as_name_only
from tests.unit.verdict_rows import INF, C, Row, S, U, check_row

NAMES: list[Row] = [
    ("The Kelby spring is cold.", "Kelby is known for Hot Springs Park.", {S, INF, U}),
    ("The Orm district is poor.", "The Orm district borders Rich Hill.", {S, INF, U}),
    ("Court fees in Kelby are dangerous.", "The Safe Harbour Court of Kelby sets the fees.", {S, INF, U}),
    ("Kelby lies on the Dead River.", "The river at Kelby is alive with fish.", {S, INF, U}),
    # two names that differ by an opposite are two names
    ("Hot Springs is a town in Orm.", "Cold Springs is a town in Orm.", {C, U}),
]

MEASURES: list[Row] = [
    ("The Orm lake is shallow.", "The Orm lake is 300 metres deep.", {U}),
    ("The Orm road is narrow.", "The Orm road is 12 metres wide.", {U}),
]

OTHER_TIMES: list[Row] = [
    ("The Kelby road is safe.", "The Kelby road was dangerous in 2009 but is safe now.", {S, INF}),
    (
        "Rents in Kelby are cheap.",
        ["Rents in Kelby were expensive in 2015.", "Rents in Kelby are cheap in 2023."],
        {S, INF},
    ),
]

PARTS_OF_SPEECH: list[Row] = [
    # "right" is a noun here: no pole of the adjective "wrong"
    ("The Orm firm has the right to build.", "The Orm firm is wrong to build.", {S, INF, U}),
]

POLES: list[Row] = [
    # the same words as common words still conflict
    ("The Kelby road is safe.", "The Kelby road is dangerous.", {C}),
    ("The Orm lake is shallow.", "The Orm lake is deep.", {C}),
    ("The Kelby spring is cold.", "The Kelby spring is hot.", {C}),
]


@pytest.mark.parametrize(
    "row", NAMES + MEASURES + OTHER_TIMES + PARTS_OF_SPEECH + POLES, ids=lambda r: f"{r[0]} / {r[1]}"
)
def test_opposites_as_poles(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        ("He sat on the High Court.", "high", True),
        ("New River flows north.", "new", True),
        ("The town of Old Kelby is small.", "old", True),
        ("The firm is one of the Big Four.", "big", True),
        ("The house is 20 years old.", "old", True),
        ("A 100-metre-high tower.", "high", True),
        ("In New York it is cold.", "new", True),
        # a capitalised first word before a lower-case one is a common word
        ("Old houses are cheap.", "old", False),
        ("Prices are high.", "high", False),
        ("Mount Kelby is high.", "high", False),
        # a headline in title case tells no name by its spelling
        ("CBSN Live Streaming Free", "live", False),
        ("Jackalopes Hire Todd Watson As New Head Coach", "new", False),
        # one common use is enough
        ("The new High Court building is new.", "new", False),
        # not in the text at all
        ("Prices are low.", "high", False),
    ],
)
def test_as_name_only_reads_names_and_measures_from_spelling(text: str, word: str, expected: bool) -> None:
    assert as_name_only(text, word) is expected


def test_a_measure_is_no_count() -> None:
    assert as_name_only("The lake is 300 metres deep.", "deep")
    assert not as_name_only("The crash left 2 passengers dead.", "dead")
