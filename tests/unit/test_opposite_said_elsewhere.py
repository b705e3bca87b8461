"""An opposite in the reference is a statement of the claim's opposite only where it is said of
the same thing (``claims.verdict.alike.said_elsewhere``, read by the counterpart check and the
opposite gap of ``claims.verdict.counterparts``): not of another subject ("while salaries are
low"), not with another complement of the same preposition or another time than the claim's
("bad at golf" for "good at tennis", "high in May" for "low in October"), not as an adjective
of another noun ("a new bell"). A complement or a time only the reference gives adds to it ("open
to the public"), unless it dates a past the claim does not speak of ("In 1990 ... was poor" for
"is rich"). An adjective before its noun is read in its noun's clause. Sentences written for
these tests (places and people invented); the expected values are those rules. Whole audits:
``tests/unit/test_short_opposites.py``, ``tests/unit/test_attributive_opposites.py``."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.verdict.alike import said_elsewhere

ELSEWHERE = [
    # another calendar time ("now" against a year); a word of another kind; a modal "may" is no month
    ("The Orm harvest is good now.", "good", "The Orm harvest was bad in 2001.", "bad"),
    ("Ida Vell is good at chess.", "good", "Ida Vell is bad at games that may last hours.", "bad"),
    (
        "The Orm harvest was good in 2012.",
        "good",
        "The Orm harvest was bad in 2011 but excellent in 2012.",
        "bad",
    ),
    (
        "Ida Vell said she was glad to retire.",
        "glad",
        "Ida Vell said she was happy to retire, though sad to leave.",
        "sad",
    ),
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
    # an adjective before its noun is said in its noun's clause: another subject ("Eva was a slow
    # runner"), another subject of the object, a comparative of another noun, another time of the
    # subject, the noun's own complement, the subject of "one of"
    ("Ada Marr was a fast runner.", "fast", "Ada Marr's sister Eva was a slow runner.", "slow"),
    ("Ada Marr had a long career.", "long", "Her brother Tom Marr had a short career.", "short"),
    ("The Orm bridge is a narrow bridge.", "narrow", "A wider replacement was proposed in 1970.", "wider"),
    ("Ada Marr is a good judge of wine.", "good", "Ada Marr is a bad judge of character.", "bad"),
    (
        "Ada Marr is one of the fast runners in Kesh.",
        "fast",
        "Her cousin is one of the slow runners in Kesh.",
        "slow",
    ),
    # a past the claim does not speak of, dated; an adjective before its noun in the past; a
    # former state
    ("Tom Marr is a rich farmer.", "rich", "In 1990 Tom Marr was a poor farmer.", "poor"),
    ("Tom Marr is a rich farmer.", "rich", "Tom Marr was a poor farmer in his youth.", "poor"),
    ("Tom Marr is a rich farmer.", "rich", "Tom Marr, once a poor farmer, now owns land.", "poor"),
]
#: said elsewhere, though another check decides the whole audit: the year check reads "2015"
#: against the other hall's "1880", the antonym check "rich" against "poor" (known limits)
ELSEWHERE_OTHER_CHECKS = [
    ("The new hall in Kesh opened in 2015.", "new", "The old hall in Kesh opened in 1880.", "old"),
    ("Tom Marr is rich.", "rich", "In 1990 Tom Marr was poor.", "poor"),
]
SAME = [
    # a measure is no time; a relative time is not compared
    ("The Kesh lake is shallow in May.", "shallow", "The Kesh lake is 1800 metres deep.", "deep"),
    ("The Orm lake is low in August.", "low", "The Orm lake is high late this summer.", "high"),
    # a complement only the reference gives adds to it; a noun after a copula is its subject's
    ("The Orm museum is closed.", "closed", "The Orm museum is open to the public.", "open"),
    ("Kelby is rich.", "rich", "Kelby is a poor town.", "poor"),
    # the stretch of a coordination that holds the word: its own time, not the other's
    (
        "The Orm harvest was good in 2011.",
        "good",
        "The Orm harvest was bad in 2011 but excellent in 2012.",
        "bad",
    ),
    ("The Vell chapel is old.", "old", "The Vell chapel is new.", "new"),
    ("Ida Vell is good at tennis.", "good", "Ida Vell is bad at tennis.", "bad"),
    ("The Kesh lake is low in October.", "low", "In October the Kesh lake is high.", "high"),
    # a measure is an amount of the word, no complement: the gap still reads it as the other pole
    ("The Kesh lake is shallow.", "shallow", "The Kesh lake is 80 metres deep.", "deep"),
    # a copula's predicate noun names its subject: "Kesh's swiftest flier" is the Orm falcon
    (
        "The Orm falcon is the slowest animal in Kesh.",
        "slowest",
        "Kesh's swiftest flier is the Orm falcon.",
        "swiftest",
    ),
    # the same time, or no time and the same tense
    ("Tom Marr was poor in 1990.", "poor", "In 1990 Tom Marr was rich.", "rich"),
    ("Tom Marr is rich.", "rich", "Tom Marr is poor.", "poor"),
    ("Ada Marr was a fast runner.", "fast", "Ada Marr was a slow runner.", "slow"),
]


@pytest.mark.parametrize(
    ("text", "word", "ref", "other"),
    ELSEWHERE + ELSEWHERE_OTHER_CHECKS,
    ids=[r[2] for r in ELSEWHERE + ELSEWHERE_OTHER_CHECKS],
)
def test_said_elsewhere(text: str, word: str, ref: str, other: str) -> None:
    assert said_elsewhere(text, word, ref, other)


def test_an_adjective_against_a_word_of_another_kind() -> None:
    """ "well" of degree ("well known") says nothing of health ("sick")."""
    assert said_elsewhere("The Orm mayor is sick.", "sick", "The Orm mayor is well known.", "well")


@pytest.mark.parametrize(("text", "word", "ref", "other"), SAME, ids=[r[2] for r in SAME])
def test_said_of_the_same_thing(text: str, word: str, ref: str, other: str) -> None:
    assert not said_elsewhere(text, word, ref, other)


@pytest.mark.parametrize(("claim", "_word", "reference", "_other"), ELSEWHERE, ids=[r[0] for r in ELSEWHERE])
def test_audit_of_an_opposite_said_elsewhere(claim: str, _word: str, reference: str, _other: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict.value != "contradicted" and j.finding != "opposite", j.reason


@pytest.mark.xfail(
    strict=True,
    reason="a clause of contrast stays in its main clause's claim, which then holds both poles "
    "(docs/DECOMPOSITION.md, Known limits): supported today",
)
def test_both_poles_in_one_reference_claim_still_hide_the_opposite() -> None:
    """ "high" is said of the wages, "low" of the rents: the claim about rents is contradicted."""
    (j,) = audit_texts(
        "Rents in Dalby are high.", ["Rents in Dalby are low, while wages in Dalby are high."]
    ).judgements
    assert j.verdict.value == "contradicted", j.reason
