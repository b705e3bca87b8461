"""Opposites that are no pole of the claim's predicate, as tables of rows written for these tests
(no dev example; every place and person is invented):

- a word of a multi-word name ("Hot Springs Park", "the Dead Sea", "Rich Hill") against the same
  word said of the claim's subject: no conflict; two names that differ by an opposite ("Hot
  Springs" / "Cold Springs") are two names and still conflict
  (``claims.verdict.text.named_alike``);
- a measure ("300 metres deep", "12 metres wide") states an amount, not the pole: no
  contradiction, and no support of the opposite pole either (the opposite gap: ``unsupported``);
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

PARTS_OF_SPEECH: list[Row] = [
    # "right" is a noun here: no pole of the adjective "wrong"
    ("The Orm firm has the right to build.", "The Orm firm is wrong to build.", {S, INF, U}),
]

POLES: list[Row] = [
    # the same words as common words still conflict, whatever the evidence said of another time
    ("The Orm patient is alive.", ["The Orm patient was alive on Monday.", "The Orm patient is dead."], {C}),
    # a capital at a sentence start is no sign of a name
    ("Kelby Road is safe.", "Dangerous Kelby Road has claimed ten lives.", {C}),
    ("The Kelby road is safe.", "The Kelby road is dangerous.", {C}),
    ("The Orm lake is shallow.", "The Orm lake is deep.", {C}),
    ("The Kelby spring is cold.", "The Kelby spring is hot.", {C}),
]


@pytest.mark.parametrize("row", NAMES + MEASURES + PARTS_OF_SPEECH + POLES, ids=lambda r: f"{r[0]} / {r[1]}")
def test_opposites_as_poles(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        ("He sat on the High Court.", "high", True),
        ("The New River flows north.", "new", True),
        ("New River flows north.", "new", False),  # a sentence start: read as a common word
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
        # a capital at a sentence start, or after a measure's sentence, is no sign of a name
        ("Dangerous Kelby Road has claimed ten lives.", "dangerous", False),
        ("The river rose 3 metres. Dangerous currents followed.", "dangerous", False),
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
