"""A value of the claim set against every statement of its slot in the whole evidence
(``claims.verdict.value_slots``): another single value is a contradiction, also when the
reference states it in a long sentence with other facts and far from the nearest reference
claims; several values, the same value in other words, a bound or approximation, another
event, and a place at another granularity are not. Sentences written for these tests."""

from __future__ import annotations

import numpy as np
import pytest

from claims.facets import extract
from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.value_slots import claim_values, slot_conflict
from claims.verdict.value_slots.exact import value_clause
from claims.verdict.value_slots.reading import masked_text

#: reference claims on the same person and club that state no value of the tested slots
_OTHERS = [
    "The club was founded by railway workers.",
    "Its stadium stands next to the river.",
    "Tom Ellis was born in Leeds.",
    "He played as a winger for most of his career.",
    "The team is managed by Ann Holt.",
    "Tom Ellis became a coach after his playing days.",
]
_LONG = (
    "After joining Hartley Rovers in 1990 from a youth side in Bradford, Tom Ellis made his "
    "league debut in 1993 against Norwich, scoring twice."
)


def _refs(texts: list[str]) -> list[ReferenceClaim]:
    return [ReferenceClaim(0, Claim(t, 0, len(t))) for t in texts]


def _conflict(claim: str, *evidence: str) -> tuple[str, str] | None:
    found = slot_conflict(extract(claim), _refs(list(evidence)))
    return None if found is None else (found[1].response_value, found[1].reference_value)


def test_year_stated_in_a_long_sentence_outside_the_nearest_claims_is_contradicted() -> None:
    """The long sentence has the lowest cosine of all (0.2 against 0.55; the engine compares
    the ``TOP_K`` nearest as wholes), and it states two years of two slots: the debut's is
    set against the claim's, the joining's is not."""
    refs = _refs(_OTHERS + [_LONG])
    sim = np.full((1, len(refs)), 0.55)
    sim[0, -1] = 0.2
    claim = "Tom Ellis made his debut in 1991."
    j = judge([Claim(claim, 0, len(claim))], refs, sim)[0]
    assert j.verdict is Verdict.CONTRADICTED
    assert "1991" in j.reason and "1993" in j.reason
    start = _LONG.index("1993")
    assert f"chars {start}–{start + 4}" in j.reason
    assert j.evidence[0].claim_index == len(refs) - 1


@pytest.mark.parametrize(
    ("claim", "evidence", "want"),
    [
        ("Tom Ellis made his debut in 1991.", _LONG, ("1991", "1993")),
        ("Tom Ellis joined Hartley Rovers in 1992.", _LONG, ("1992", "1990")),
        (
            "Tom Ellis scored 14 goals in the 1995 season.",
            "In the 1995 season, in which the club finished fourth, Tom Ellis scored 12 goals.",
            ("14", "12"),
        ),
        (
            "Tom Ellis signed for Leeds United in 1998.",
            "In 1998, after a long dispute with the board, Tom Ellis signed for Bradford City.",
            ("Leeds United", "Bradford City"),
        ),
        (
            "Night Songs was the band's third album.",
            "Night Songs was the band's second album, released in 1999.",
            ("third", "second"),
        ),
        (
            "He was born on 3 May 1991 in Oslo.",
            "Born in Oslo on 3 May 1993, he studied law.",
            ("3 May 1991", "3 May 1993"),
        ),
    ],
)
def test_another_single_value_of_the_slot_conflicts(claim: str, evidence: str, want: tuple[str, str]) -> None:
    assert _conflict(claim, evidence) == want


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the same value, also in other words or another precision
        ("Tom Ellis made his debut in 1993.", _LONG),
        ("He was born on May 3, 1993 in Oslo.", "Born in Oslo on 3 May 1993, he studied law."),
        ("He was born in May 1993 in Oslo.", "Born in Oslo on 3 May 1993, he studied law."),
        (
            "Tom Ellis scored three goals in the final.",
            "In the final, played in front of a record crowd, Tom Ellis scored 3 goals.",
        ),
        (
            "The Kestrel bridge is 7.46 miles long.",
            "Opened after four years of work, the Kestrel bridge is 12 km long.",
        ),
        (
            "The Kestrel bridge is about 400 metres long.",
            "Opened after four years of work, the Kestrel bridge is 410 metres long.",
        ),
        # several values of the slot: a list, a range, two statements
        (
            "Tom Ellis visited Paris in 2004.",
            "Tom Ellis, the winger, visited Paris in 2003 and 2005 with the club.",
        ),
        (
            "The museum opens for 5 hours.",
            "The museum, rebuilt after the fire, opens for between 4 and 6 hours.",
        ),
        (
            "Tom Ellis visited Paris in 2004.",
            ("Tom Ellis visited Paris in 2003.", "Tom Ellis visited Paris again in 2006."),
        ),
        # a bound; a count of another year; a place at another granularity
        ("Tom Ellis retired before 2004.", "Tom Ellis retired in 2001 after a knee injury."),
        ("The club had 120 staff in 2020.", "The club had 450 staff in 2023, after the merger."),
        ("Tom Ellis was born in Yorkshire.", "Tom Ellis was born in Leeds, where his father worked."),
    ],
)
def test_no_conflict(claim: str, evidence: str | tuple[str, ...]) -> None:
    assert _conflict(claim, *((evidence,) if isinstance(evidence, str) else evidence)) is None


def test_claim_values_are_read_by_kind() -> None:
    """Years, dates with a month, numbers with a slot, ordinals and names, in text order."""
    got = [(v.kind, v.text) for v in claim_values("Tom Ellis scored 12 goals in his second season, 1993.")]
    assert got == [("name", "Tom Ellis"), ("number", "12"), ("ordinal", "second"), ("year", "1993")]


@pytest.mark.parametrize(
    "claim",
    ["Ines Marlow stands 30 metres tall.", "Tomas Brell enrolled 30 patients in 2019."],
)
def test_a_name_the_evidence_states_in_its_slot_is_no_conflict_with_a_parallel_fact(claim: str) -> None:
    """Parallel facts of two subjects ("A stands 30 m tall. B stands 30 m tall."): the claim's
    own statement gives its name in the slot, so the other subject's is no rival value."""
    other = claim.replace("Ines Marlow", "Rosa Feld").replace("Tomas Brell", "Paul Reyes")
    assert _conflict(claim, claim, other) is None
    refs = _refs([claim, other])
    [j] = judge([Claim(claim, 0, len(claim))], refs, np.eye(1, 2, dtype=np.float32))
    assert j.verdict is Verdict.SUPPORTED, j.reason


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # one person by first name and surname: the evidence writes "Daniel LaRusso" elsewhere
        (
            "It reignites his rivalry with a now-successful LaRusso.",
            (
                "It reignites his rivalry with a now-successful Daniel.",
                "The duo reprise their roles as underdog Daniel LaRusso and bully Johnny Lawrence.",
            ),
        ),
        # the claim's second event: the evidence dates another one (the first birth)
        (
            "Bender gave birth to her second daughter in October 2013.",
            ("In March 2011, Bender gave birth to a healthy baby girl, Alice.",),
        ),
    ],
)
def test_one_name_or_a_later_event_is_no_conflict(claim: str, evidence: tuple[str, ...]) -> None:
    assert _conflict(claim, *evidence) is None


def test_a_rival_first_name_still_conflicts() -> None:
    """The other person's name is no part of the claim's name: still a conflict."""
    evidence = (
        "It reignites his rivalry with a now-successful Johnny.",
        "The duo reprise their roles as underdog Daniel LaRusso and bully Johnny Lawrence.",
    )
    assert _conflict("It reignites his rivalry with a now-successful LaRusso.", *evidence) == (
        "LaRusso",
        "Johnny",
    )


@pytest.mark.parametrize(
    ("claim", "evidence", "want"),
    [
        # a fronted adverbial cut off by its comma: its clause ("In 2004") has no word of its own
        (
            "In 2004, Tom Ellis retired.",
            ("Tom Ellis retired in 2001 after a knee injury.",),
            ("2004", "2001"),
        ),
        # a trailing one after a parenthesis ("(the club) since 2009")
        (
            "Tom Ellis has been the head coach of Hartley Rovers (the club) since 2009.",
            ("Tom Ellis has been the head coach of Hartley Rovers since 2006, after a spell in Bradford.",),
            ("2009", "2006"),
        ),
        # still no conflict: the claim's value stated, or several values of the slot
        ("In 2001, Tom Ellis retired.", ("Tom Ellis retired in 2001 after a knee injury.",), None),
        (
            "In 2004, Tom Ellis retired.",
            ("Tom Ellis retired in 2001 after a knee injury.", "Tom Ellis retired again in 2006."),
            None,
        ),
    ],
)
def test_a_value_in_a_clause_without_words_of_its_own_is_read_with_its_neighbour(
    claim: str, evidence: tuple[str, ...], want: tuple[str, str] | None
) -> None:
    """The value's clause is joined with the clause it modifies while it holds fewer than
    ``MIN_CLAUSE_WORDS`` content words (``exact.value_clause``); read alone, "In 2004" gave the
    slot no words to find, and the claim (three words masked) is too short for the aligned pass."""
    assert _conflict(claim, *evidence) == want


@pytest.mark.parametrize(
    ("text", "value", "want"),
    [
        ("In 2016, Bakir was awarded the prize.", "2016", "In 2016, Bakir was awarded the prize."),
        # "Alberta on May 7" holds one word: joined with the clause before it
        (
            "He died in Calgary, Alberta on May 7, 2021.",
            "May 7, 2021",
            "He died in Calgary, Alberta on May 7",
        ),
        # a clause with words of its own stays alone
        ("He joined Leeds in 1990 and made his debut in 1993.", "1993", "made his debut in 1993."),
    ],
)
def test_value_clause(text: str, value: str, want: str) -> None:
    values = claim_values(text)
    v = next(o for o in values if o.text == value)
    a, b = value_clause(text, masked_text(text, [o for o in values if o.kind != "name"]), v)
    assert text[a:b] == want
