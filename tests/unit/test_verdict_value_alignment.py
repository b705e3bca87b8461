"""Kinds of changed values the value-slot check (``claims.verdict.value_slots``) calls
contradicted, and the kinds it must not: a slot the reference words otherwise (the aligned pass,
``value_slots.align``), an approximation against a point rounded alike, and one value written
in other Unicode forms (zero-width characters, full-width digits, decomposed accents).
Sentences written for these tests; none is from a dev set."""

from __future__ import annotations

import numpy as np
import pytest

from claims.decision_guards import dates_stated
from claims.facets import extract
from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.value_slots import slot_conflict


def _refs(texts: list[str]) -> list[ReferenceClaim]:
    return [ReferenceClaim(0, Claim(t, 0, len(t))) for t in texts]


def _conflict(claim: str, *evidence: str) -> tuple[str, str] | None:
    found = slot_conflict(extract(claim), _refs(list(evidence)))
    return None if found is None else (found[1].response_value, found[1].reference_value)


def _verdict(claim: str, reference: str, cos: float = 0.9) -> tuple[Verdict, str]:
    j = judge([Claim(claim, 0, len(claim))], _refs([reference]), np.array([[cos]]))[0]
    return j.verdict, j.reason


@pytest.mark.parametrize(
    ("claim", "evidence", "want"),
    [
        # the reference words the award otherwise ("has taken out the title ... for 2013"): no
        # word in common around the two years, one year on each side's main predicate
        (
            "In 2016, Ines Varga was awarded the Halden Prize for Young Architects.",
            "Architect Ines Varga has taken out the title of Halden Prize for Young Architects for 2013.",
            ("2016", "2013"),
        ),
        # one slot in the parse ("by ..." of the salary), fewer of the claim's words (a vote)
        (
            "In March 2011, Lena Ortiz was the only member of the Brenford Water Board who voted "
            "against raising the salary of the board's director by 19%.",
            "The Brenford Water Board raised the salary of its director Tomas Brell by 13 percent.",
            ("19%", "13 percent"),
        ),
        # the count of a dated period set against the same period's count, the subject a pronoun
        (
            "Between 1990 and 2004, Hartley Rovers won four league titles.",
            "Between 1990 and 2004, they won five league titles and three cups.",
            ("four", "five"),
        ),
    ],
)
def test_a_slot_the_reference_words_otherwise_is_contradicted(
    claim: str, evidence: str, want: tuple[str, str]
) -> None:
    assert _conflict(claim, evidence) == want


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the one year is of a noun inside the sentence (the founding), not of the win
        (
            "Hartley Rovers won the Halden Cup in 2002.",
            "Hartley Rovers won the Halden Cup ten times (since the founding of the Halden League in 1888).",
        ),
        # a count the claim dates against a count of all time
        (
            "Between 1990 and 2004, Hartley Rovers won four league titles.",
            "Hartley Rovers have won eleven league titles, a record six cups and two shields.",
        ),
        # another team: the claim's object name is not in the reference claim
        (
            "On 20 October 2015, Tom Ellis signed to the Hartley Rovers reserve squad.",
            "Tom Ellis was signed to the Bradford City reserve squad on 29 October 2013.",
        ),
        # another vessel: the code differs
        (
            "The MV Tern-12 ferry was launched by the Halden yard on 3 May 1994.",
            "She was launched by the Halden yard on 9 June 1996 as MV Tern-21.",
        ),
    ],
)
def test_a_value_of_another_slot_is_no_conflict(claim: str, evidence: str) -> None:
    assert _conflict(claim, evidence) is None


def test_the_value_stated_in_a_further_reference_claim_vetoes_the_rival() -> None:
    """The claim's value stated of its slot close enough (``align.ALIGN_VETO_COVER``) anywhere
    in the references: no conflict (the first row of the contradicted kinds, with this added)."""
    claim = "In 2016, Ines Varga was awarded the Halden Prize for Young Architects."
    refs = (
        "Architect Ines Varga has taken out the title of Halden Prize for Young Architects for 2013.",
        "Ines Varga was awarded the Halden Prize for Young Architects again in 2016.",
    )
    assert _conflict(claim, *refs) is None


@pytest.mark.parametrize(
    ("claim", "reference", "contradicted"),
    [
        # rounded alike (to the hundred thousand) and a whole step apart: two different values
        (
            "Brenford has a population of about 1.3 million.",
            "Brenford has a population of 1.2 million.",
            True,
        ),
        # a full count the approximation rounds (rounding.rounds_to: within half a step)
        ("Brenford has a population of about 1.2 million.", "Brenford has a population of 1,215,000.", False),
        # trailing zeros write the approximation to the hundred million
        (
            "The Tessel dam cost about 1,200 million kroner.",
            "The Tessel dam cost 1,234 million kroner.",
            False,
        ),
        # a finer point within a step of the approximation
        (
            "Brenford has a population of about 1.3 million.",
            "Brenford has a population of 1.26 million.",
            False,
        ),
    ],
)
def test_an_approximation_against_a_point_rounded_alike(
    claim: str, reference: str, contradicted: bool
) -> None:
    verdict, reason = _verdict(claim, reference)
    assert (verdict is Verdict.CONTRADICTED) is contradicted, reason


_ZWSP = "\u200b"


@pytest.mark.parametrize(
    ("claim", "reference", "contradicted", "named"),
    [
        # a zero-width space inside a number hides nothing: 420 is 420, 410 is 410
        (
            f"The Kestrel Bridge is 4{_ZWSP}20 metres long.",
            "The Kestrel Bridge is 410 metres long.",
            True,
            "420",
        ),
        (
            f"The Kestrel Bridge is 4{_ZWSP}10 metres long.",
            "The Kestrel Bridge is 410 metres long.",
            False,
            "",
        ),
        # full-width digits are the same digits
        ("The Kestrel Bridge is ４２０ metres long.", "The Kestrel Bridge is 410 metres long.", True, "410"),
        # ... with a full-width comma, and as a bare year (U+FF01..U+FF5E read as ASCII)
        ("The arena holds ４５，０００ people.", "The arena holds 45,000 people.", False, ""),
        ("The arena holds ４６，０００ people.", "The arena holds 45,000 people.", True, "45,000"),
        ("Nightglass debuted in １９９１.", "Nightglass debuted in 1993.", True, "1993"),
        ("Nightglass debuted in 1991.", "Nightglass debuted in １９９３.", True, "1991"),
        # a name with decomposed accents (NFD) is the same name, and its year still compared
        ("José Martí was born in 1853.", "Jose\u0301 Marti\u0301 was born in 1853.", False, ""),
        ("José Martí was born in 1855.", "Jose\u0301 Marti\u0301 was born in 1853.", True, "1853"),
    ],
)
def test_one_value_in_other_unicode_forms(claim: str, reference: str, contradicted: bool, named: str) -> None:
    verdict, reason = _verdict(claim, reference)
    assert (verdict is Verdict.CONTRADICTED) is contradicted, reason
    assert named in reason


@pytest.mark.parametrize(
    ("claim", "references", "stated"),
    [
        # the year's digits are in the references, the month is not: no support from the model
        ("Lena Ortiz joined the Brenford Water Board in July 2016.", ["Posted on 25 October 2016."], False),
        (
            "The Kestrel Bridge opened on August 15, 2017.",
            ["The Kestrel Bridge opened in August 2017."],
            False,
        ),
        ("The Kestrel Bridge opened in August 2017.", ["The Kestrel Bridge opened on 22 August 2017."], True),
        # a reference date without a year may state the month
        (
            "The Kestrel film was screened in Brenford in May 2018.",
            ["Screenings are set for May 2, 5 and 6."],
            True,
        ),
        # a month named alone states a date without a day, not one with a day
        ("The Kestrel tour ended in October 2007.", ["The tour will run through October."], True),
        ("The Kestrel tour ended on 6 October 2007.", ["The tour will run through October."], False),
        # a month named in a date of another year states that year's month only ("July 1970"
        # says nothing of July 2010; the year's digits written elsewhere give no month)
        (
            "Tom Vell was released in July 2010.",
            ["Tom Vell first ran with the bulls in July 1970.", "He was released in April 2010."],
            False,
        ),
        ("Tom Vell was released in July 2010.", ["In July, Tom Vell was released.", "It was 2010."], True),
        # a date without a month is not this guard's
        ("The Kestrel Bridge opened in 2017.", ["Posted on 22 August 2019."], True),
    ],
)
def test_a_date_with_a_month_must_be_stated_for_the_model_to_support(
    claim: str, references: list[str], stated: bool
) -> None:
    """``claims.decision_guards.dates_stated``: the guard that keeps the learned decision from
    turning an unstated month or day into support (the year's digits written elsewhere)."""
    assert dates_stated(claim, references) is stated
