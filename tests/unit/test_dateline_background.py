"""A dateline dates the news of its report, not the background the report tells about the
people and things it names.

The sentences are written for this test (invented people, clubs and places, not from the dev
sets or the contrast suite).

* Perfect participles are decomposed in the past perfect ("having founded the club in 2001, she
  ..." -> "<she> had founded the club in 2001"; "not having seen" -> "had not seen";
  ``claims.decompose.adverbials``), a claim as faithful as the sentence: the rendering was
  "<she> having was founded ...".
* A reference claim decomposed from a modifier of a noun (a relative clause, an appositive, a
  clausal modifier, a past participle) or in the past perfect is background
  (``claims.verdict.background.is_background``): the rules do not join it with the report's
  dateline into an inference (``claims.verdict.infer``), and the learned decision may not make
  one (the finding "background" stands). Each BACKGROUND row was `inferred` or `supported`
  before; the NEWS rows (the main clause's event) were and stay `inferred`.
* Not background (NEWS_IN_A_MODIFIER, each `inferred` before and after): a modifier that tells a
  time of its own the dateline anchors ("which hit the coast on Tuesday"), an appositive the
  claim states as a state with a copula ("was the chief executive ... in 2019"), and background
  that only adds words to the news (the inference is tried again without it).
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.decompose import decompose
from claims.types import Role, Verdict

DATELINE = "March 3, 2019"

#: (response, report): the response dates background of the report with the dateline's year
BACKGROUND = [
    (
        "Dana Pirell founded the Kelby Rowing Club in 2019.",
        "Dana Pirell, who founded the Kelby Rowing Club, announced her retirement on Monday.",
    ),
    (
        "Dana Pirell founded the Kelby Rowing Club in 2019.",
        "Dana Pirell, the founder of the Kelby Rowing Club, announced her retirement on Monday.",
    ),
    (
        "Todd Walsh coached the Orm Otters in 2019.",
        "The club announced on Monday that it had hired Todd Walsh, who previously coached the Orm Otters.",
    ),
    (
        "The club was founded by Dana Pirell in 2019.",
        "The club, founded by Dana Pirell, announced a new coach on Monday.",
    ),
    (
        "The senator served two terms in 2019.",
        "The senator, having served two terms, announced her retirement on Monday.",
    ),
]

#: (response, report): the response dates the report's news with the dateline's year
NEWS = [
    (
        "Dana Pirell announced her retirement in 2019.",
        "Dana Pirell, who founded the Kelby Rowing Club, announced her retirement on Monday.",
    ),
    (
        "The club hired Todd Walsh in 2019.",
        "The club announced on Monday that it had hired Todd Walsh, who previously coached the Orm Otters.",
    ),
    (
        "The club announced a new coach in 2019.",
        "The club, founded by Dana Pirell, announced a new coach on Monday.",
    ),
]


@pytest.mark.parametrize(("response", "report"), BACKGROUND)
def test_a_dateline_does_not_date_background(response: str, report: str) -> None:
    (j,) = audit_texts(response, [DATELINE, report]).judgements
    assert j.verdict is Verdict.UNSUPPORTED, j.reason
    assert j.finding == "background"


@pytest.mark.parametrize(("response", "report"), NEWS)
def test_a_dateline_dates_the_news(response: str, report: str) -> None:
    (j,) = audit_texts(response, [DATELINE, report]).judgements
    assert j.verdict is Verdict.INFERRED, j.reason


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        (
            "Dana Pirell, having founded the Kelby Rowing Club in 2001, retired on Monday.",
            "Dana Pirell had founded the Kelby Rowing Club in 2001.",
        ),
        ("Having won the cup twice, the club hired a new coach.", "The club had won the cup twice."),
        ("Having been elected in 2010, the mayor resigned in 2014.", "The mayor had been elected in 2010."),
    ],
)
def test_a_perfect_participle_is_decomposed_in_the_past_perfect(sentence: str, claim: str) -> None:
    assert claim in [c.text for c in decompose(sentence, role=Role.REFERENCE)]


def test_a_value_of_a_perfect_participle_is_compared() -> None:
    report = "Dana Pirell, having founded the Kelby Rowing Club in 2001, retired on Monday."
    (j,) = audit_texts("Dana Pirell founded the Kelby Rowing Club in 2003.", [report]).judgements
    assert j.verdict is Verdict.CONTRADICTED, j.reason
    (j,) = audit_texts("Dana Pirell founded the Kelby Rowing Club in 2001.", [report]).judgements
    assert j.verdict is Verdict.SUPPORTED, j.reason


#: (response, report): background the report tells outside a modifier of the news, dated with
#: another year than the dateline's: no verdict step finds a conflict (a probe that contradicted
#: a claim whose year the dateline's year would make inferred called each of these
#: `contradicted`; it is not part of the engine)
BACKGROUND_ELSEWHERE = [
    # the past perfect: before the news (``background.is_background``)
    (
        "Ruth Calloway joined the Kelby Gazette as a copy clerk in 1981.",
        "Ruth Calloway, editor of the Kelby Gazette, retired on Friday. "
        "She had joined the paper as a copy clerk.",
    ),
    # a noun's modifier inside the news: another verb than the claim's
    (
        "Irina Sokal served as health minister in 2011.",
        "Former health minister Irina Sokal was named ambassador to Norland this week.",
    ),
    # a copula: no verb of the claim's
    (
        "Victor Amsel served as a naval officer in 1995.",
        "Victor Amsel opened a sailing school in Kelby on Monday. Victor Amsel is a former naval officer.",
    ),
]


@pytest.mark.parametrize(("response", "report"), BACKGROUND_ELSEWHERE)
def test_background_outside_a_modifier_is_not_contradicted(response: str, report: str) -> None:
    (j,) = audit_texts(response, [DATELINE, report]).judgements
    assert j.verdict is Verdict.UNSUPPORTED, j.reason


#: (response, report): the report tells the claim as news, in a modifier of a noun
NEWS_IN_A_MODIFIER = [
    (
        "Storm Ada hit the coast of Orm in 2019.",
        "Storm Ada, which hit the coast of Orm on Tuesday, killed five people.",
    ),
    (
        "Mira Oyelaran was the chief executive of Vessa Airlines in 2019.",
        "Mira Oyelaran, the chief executive of Vessa Airlines, said on Monday that fares will rise.",
    ),
    (
        "Vessa Airlines chief executive Mira Oyelaran resigned in 2019.",
        "Mira Oyelaran, the chief executive of Vessa Airlines, resigned on Monday.",
    ),
]


@pytest.mark.parametrize(("response", "report"), NEWS_IN_A_MODIFIER)
def test_news_told_in_a_modifier_is_dated(response: str, report: str) -> None:
    (j,) = audit_texts(response, [DATELINE, report]).judgements
    assert j.verdict is Verdict.INFERRED, j.reason


def test_a_denied_perfect_participle_keeps_its_denial() -> None:
    claims = [c.text for c in decompose("Not having seen the film, Dana Pirell left.", role=Role.REFERENCE)]
    assert "Dana Pirell had not seen the film." in claims
