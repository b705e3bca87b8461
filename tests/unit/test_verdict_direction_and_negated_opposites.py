"""Kinds of the order and polarity checks (``claims.verdict.order``, ``counterparts``,
``clause_checks``, ``degree``), each as a table of rows written for these tests (no dev example):

- a path or period read the other way round ("from 1995 to 1990" / "from 1990 to 1995", "moved to
  Paris from Lyon" / "moved from Paris to Lyon") is contradicted; the same path in the other
  word order ("to Paris from Lyon" / "from Lyon to Paris") is supported;
- a negated word against its opposite in the same clause ("did not play well" / "played poorly",
  "not often" / "rarely") is no flipped negation and no quantifier conflict;
- a claim stated word for word is supported, whatever opposite a sibling claim states;
- the reason of an order conflict names only words of the two texts.

Rows are judged at the cosine ``HIGH`` (tests/unit/verdict_rows.py), so that only the checks
decide.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge
from tests.unit.verdict_rows import C, Row, S, U, check_row, judge_claim

REVERSED_PATHS: list[Row] = [
    # a period read backwards: the years the other way round, whatever the verb or noun
    ("He served as mayor from 1995 to 1990.", "He served as mayor from 1990 to 1995.", {C}),
    ("The bridge was closed from 2012 to 2008.", "The bridge was closed from 2008 to 2012.", {C}),
    ("Orla Penn coached the club from 1987 to 1979.", "Orla Penn coached the club from 1979 to 1987.", {C}),
    # values of one path
    ("The fare rose from 20 dollars to 10 dollars.", "The fare rose from 10 dollars to 20 dollars.", {C}),
    # "to X from Y" against "from X to Y"
    ("She moved to Paris from Lyon.", "She moved from Paris to Lyon.", {C}),
    ("The ferry sails to Bergen from Stavanger.", "The ferry sails from Bergen to Stavanger.", {C}),
    (
        "The company moved its office to Leeds from Hull.",
        "The company moved its office from Leeds to Hull.",
        {C},
    ),
]

SAME_PATHS: list[Row] = [
    ("He served as mayor from 1990 to 1995.", "He served as mayor from 1990 to 1995.", {S}),
    ("She moved to Paris from Lyon.", "She moved from Lyon to Paris.", {S}),
    ("The ferry sails to Bergen from Stavanger.", "The ferry sails from Stavanger to Bergen.", {S}),
    (
        "The company moved its office to Leeds from Hull.",
        "The company moved its office from Hull to Leeds.",
        {S},
    ),
    ("The fare rose from 10 dollars to 20 dollars.", "The fare rose from 10 dollars to 20 dollars.", {S}),
]


@pytest.mark.parametrize("row", REVERSED_PATHS + SAME_PATHS, ids=lambda r: f"{r[0]} / {r[1]}")
def test_paths_and_periods(row: Row) -> None:
    check_row(row)


#: a negated word against one of its opposites (``claims.lexicon``) in the same words: the
#: reference entails the claim ("poorly" excludes "well"); gradable pairs stay unsupported
#: (``counterparts``: "not hot" does not state "cold"), never contradicted
NEGATED_OPPOSITES: list[Row] = [
    ("The team did not play well in the final.", "The team played poorly in the final.", {S, U}),
    ("The bus does not run often on Sundays.", "The bus rarely runs on Sundays.", {S, U}),
    (
        "Patients do not recover quickly after the surgery.",
        "Patients recover slowly after the surgery.",
        {S, U},
    ),
    ("The choir does not sing loudly.", "The choir sings quietly.", {S, U}),
    ("Visitors do not come often in winter.", "Visitors seldom come in winter.", {S, U}),
]


@pytest.mark.parametrize("row", NEGATED_OPPOSITES, ids=lambda r: r[0])
def test_negated_opposite_is_no_flip(row: Row) -> None:
    check_row(row)


#: the same pairs with the claim's word itself, or its opposite said of something else: the
#: polarity check still reads them
DENIALS: list[Row] = [
    ("The team did not play well in the final.", "The team played well in the final.", {C}),
    ("The bus does not run often on Sundays.", "The bus runs often on Sundays.", {C}),
]


@pytest.mark.parametrize("row", DENIALS, ids=lambda r: r[0])
def test_denial_of_the_same_word_still_flips(row: Row) -> None:
    check_row(row)


#: texts whose sentences state an opposite of another sentence's word ("open" / "closes")
SIBLINGS = [
    "The Orsen Tower does not open on Mondays. The Orsen Tower closes at 5 pm.",
    "Rosa Feld does not open on Mondays. Rosa Feld opened on 3 July 1990. Rosa Feld closes at 7 pm.",
    "The museum does not open early. The museum closes late.",
]


@pytest.mark.parametrize("text", SIBLINGS)
def test_text_against_itself_with_opposites_in_siblings(text: str) -> None:
    """Every sentence judged against all of them (identity cosines): supported word for word."""
    sentences = [s.strip() + "." for s in text.split(".") if s.strip()]
    claims = [Claim(s, 0, len(s)) for s in sentences]
    refs = [ReferenceClaim(i, c) for i, c in enumerate(claims)]
    js = judge(claims, refs, np.eye(len(claims), dtype=np.float32))
    assert all(j.verdict is Verdict.SUPPORTED for j in js), [(j.verdict, j.reason) for j in js]


#: order conflicts and denials of a converse verb: (response, reference)
REASON_ROWS = [
    ("Brazil did not win the final.", "Brazil lost the final."),
    ("Brazil did not win the final against Italy.", "Brazil lost the final to Italy."),
    ("Germany won the final against Brazil.", "Germany lost the final to Brazil."),
    ("She moved to Paris from Lyon.", "She moved from Paris to Lyon."),
    ("He served as mayor from 1995 to 1990.", "He served as mayor from 1990 to 1995."),
    ("Federer won the final.", "Nadal lost the final to Federer."),
]


@pytest.mark.parametrize(("response", "reference"), REASON_ROWS)
def test_reasons_quote_only_the_two_texts(response: str, reference: str) -> None:
    """Every quoted word of the reason is a word of the claim or of the reference (no stem such as
    'ita' for "Italy", no object read as a party: "'final' and 'brazil'")."""
    _, reason = judge_claim(response, [reference])
    words = set(re.findall(r"[\w-]+", (response + " " + reference).lower()))
    for quoted in re.findall(r"'([^']+)'", reason):
        assert set(re.findall(r"[\w-]+", quoted.lower())) <= words, reason
    assert "roles swapped" not in reason or "not" not in response.split()


#: the subject and object of "won" / "lost" between two names trade places: the verb's own order
OUTCOME_SWAPS: list[Row] = [
    ("FA Cup won Arsenal in 1993.", "Arsenal won the FA Cup in 1993.", {C}),
    ("Arsenal won the FA Cup in 1993.", "Arsenal won the FA Cup in 1993.", {S}),
    # the contest is no party: no order between "won the final" and "lost the final"
    ("Federer won the final.", "Nadal lost the final to Federer.", {S, U}),
]


@pytest.mark.parametrize("row", OUTCOME_SWAPS, ids=lambda r: f"{r[0]} / {r[1]}")
def test_outcome_verbs_between_names(row: Row) -> None:
    check_row(row)
