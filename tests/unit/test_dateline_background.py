"""A dateline dates the news of its report, not the background the report tells about the
people and things it names.

The sentences are written for this test (invented people, clubs and places, not from the dev
sets or the contrast suite).

* Perfect participles are decomposed in the past perfect ("having founded the club in 2001, she
  ..." -> "<she> had founded the club in 2001"; "not having seen" -> "had not seen";
  ``claims.decompose.adverbials``), a claim as faithful as the sentence: the rendering was
  "<she> having was founded ...".
* A reference claim that tells a past event as background (a relative clause or a clausal
  modifier of a noun in the past, a fronted past participle, the past perfect:
  ``claims.verdict.background.is_background``) does not give the claim's event to an inference
  with the report's dateline (``claims.verdict.infer``), and the learned decision may not make
  one (the finding "background" stands). Each BACKGROUND row was `inferred` before; the NEWS
  rows (the main clause's event) were and stay `inferred`.
* NEWS_IN_OTHER_FORMS: the report tells the claim as news, or as a state at its date, in a
  modifier or in other words; each was `inferred` before and stays so (each was `unsupported`
  in a first form of the rule, which took every modifier for background).
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
    (
        "Ruth Calloway joined the Kelby Gazette as a copy clerk in 2019.",
        "Ruth Calloway, editor of the Kelby Gazette, retired on Friday. "
        "She had joined the paper as a copy clerk.",
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

NEWS_IN_OTHER_FORMS = [
    # a modifier with a time of its own, which the dateline anchors
    (
        "Storm Ada hit the coast of Orm in 2019.",
        "Storm Ada, which hit the coast of Orm on Tuesday, killed five people.",
    ),
    (
        "Storm Ada hit the coast of Orm in 2019.",
        "Storm Ada, which hit the coast of Orm Tuesday, killed five people.",
    ),
    (
        "The Kelby bridge collapsed in 2019.",
        "Engineers are inspecting the Kelby bridge, which collapsed on February 28.",
    ),
    # a state at the report's date: an appositive, a relative clause in the present
    (
        "Mira Oyelaran was the chief executive of Vessa Airlines in 2019.",
        "Mira Oyelaran, the chief executive of Vessa Airlines, said on Monday that fares will rise.",
    ),
    (
        "Vessa Airlines employed 500 people in 2019.",
        "Vessa Airlines, which employs 500 people, filed for bankruptcy on Monday.",
    ),
    # background that describes whom the news is about, the news in the claim's verb or in others
    (
        "Vessa Airlines chief executive Mira Oyelaran resigned in 2019.",
        "Mira Oyelaran, the chief executive of Vessa Airlines, resigned on Monday.",
    ),
    (
        "Vessa Airlines founder Mira Oyelaran resigned in 2019.",
        "Mira Oyelaran, who founded Vessa Airlines, resigned on Monday.",
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


@pytest.mark.parametrize(("response", "report"), NEWS_IN_OTHER_FORMS)
def test_news_in_a_modifier_or_in_other_words_is_dated(response: str, report: str) -> None:
    (j,) = audit_texts(response, [DATELINE, report]).judgements
    assert j.verdict is Verdict.INFERRED, j.reason


@pytest.mark.xfail(
    strict=True,
    reason="an appositive tells no event of its own ('the founder of'), so the founding it implies "
    "is not read as background: the dateline still dates it (a known false support)",
)
def test_an_appositive_role_does_not_date_its_event() -> None:
    report = "Dana Pirell, the founder of the Kelby Rowing Club, announced her retirement on Monday."
    (j,) = audit_texts("Dana Pirell founded the Kelby Rowing Club in 2019.", [DATELINE, report]).judgements
    assert j.verdict is Verdict.UNSUPPORTED, j.reason


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        (
            "Dana Pirell, having founded the Kelby Rowing Club in 2001, retired on Monday.",
            "Dana Pirell had founded the Kelby Rowing Club in 2001.",
        ),
        ("Having won the cup twice, the club hired a new coach.", "The club had won the cup twice."),
        ("Having been elected in 2010, the mayor resigned in 2014.", "The mayor had been elected in 2010."),
        ("Not having seen the film, Dana Pirell left.", "Dana Pirell had not seen the film."),
        ("Never having seen the sea, Dana Pirell moved to Kelby.", "Dana Pirell had never seen the sea."),
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
