"""An opposite in the reference is a statement of the claim's opposite only where it is said of
the same thing (``claims.verdict.alike.said_elsewhere``, read by the counterpart check and the
opposite gap of ``claims.verdict.counterparts``): not of another subject ("while salaries are
low"), not with a complement or a time of its own that the claim lacks ("bad at golf", "high in
May"), not as an adjective of another noun ("a new bell"). An adjective before its noun, which
those checks do not read, is still asked of the embedder by the polarity probe where the
reference states the other pole ("a bad cook"). Comparatives of a pair of opposites are one
relation from its two sides ("newer than" / "older than"). Each audit runs whole, with the real
embedder; sentences written for these tests (places and people invented); the expected verdicts
are those rules. Whole audits of the opposites said of the same thing, of an adjective before its
noun and of comparatives from two sides: ``tests/unit/test_short_opposites.py``."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.verdict.alike import said_elsewhere

ELSEWHERE = [
    # another subject in the same sentence
    (
        "Fees at the Orm school are high.",
        "high",
        "Fees at the Orm school are steep, while salaries are low.",
        "low",
    ),
    ("The Vell dam is old.", "old", "The Vell dam was built in 1890, and its keeper is young.", "young"),
    # a complement of its own the claim lacks
    ("Ida Vell is good at tennis.", "good", "Ida Vell excels at tennis but is bad at golf.", "bad"),
    # a time of its own the claim lacks
    (
        "The Kesh lake is low in October.",
        "low",
        "In October the Kesh lake is shallow, though it is high in May.",
        "high",
    ),
    # an adjective of another noun
    ("The Vell chapel is old.", "old", "The Vell chapel dates from 1200 and has a new bell.", "new"),
]
SAME = [
    ("The Vell chapel is old.", "old", "The Vell chapel is new.", "new"),
    ("Ida Vell is good at tennis.", "good", "Ida Vell is bad at tennis.", "bad"),
    ("The Kesh lake is low in October.", "low", "In October the Kesh lake is high.", "high"),
    # a measure is an amount of the word, no complement: the gap still reads it as the other pole
    ("The Kesh lake is shallow.", "shallow", "The Kesh lake is 80 metres deep.", "deep"),
]


@pytest.mark.parametrize(("text", "word", "ref", "other"), ELSEWHERE, ids=[r[2] for r in ELSEWHERE])
def test_said_elsewhere(text: str, word: str, ref: str, other: str) -> None:
    assert said_elsewhere(text, word, ref, other)


@pytest.mark.parametrize(("text", "word", "ref", "other"), SAME, ids=[r[2] for r in SAME])
def test_said_of_the_same_thing(text: str, word: str, ref: str, other: str) -> None:
    assert not said_elsewhere(text, word, ref, other)


@pytest.mark.parametrize(("claim", "_word", "reference", "_other"), ELSEWHERE, ids=[r[0] for r in ELSEWHERE])
def test_audit_of_an_opposite_said_elsewhere(claim: str, _word: str, reference: str, _other: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict.value != "contradicted" and j.finding != "opposite", j.reason
