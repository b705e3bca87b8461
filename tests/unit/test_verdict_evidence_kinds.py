"""Verdict kinds found in the WiCE dev-set error analysis (2026-11-29, second session).

Each row is one kind of gold-supported claim the rules missed (or a near miss that must stay
missed). The expected verdict follows from ``claims.verdict``'s module docstring; cosines are
all-MiniLM-L6-v2 values measured with ``claims.embed.default_embedder()`` on these very texts.

Kinds:
- a dateline ("May 20, 2019") dates the report it heads: a claim's year stated only there and
  the rest stated by one sentence is ``inferred`` from the two (the dateline's cosine with the
  claim is low, 0.166, so it joins on the value, not on the cosine);
- a date stated in parts: the month and day by a year-less date ("from March 4th"), the year
  by the dateline; alone, neither part states the date;
- a name is stated by its initialism ("the DNC" names the Democratic National Committee);
- an adjective is never the subject head ("The busy centre" is about the centre), but another
  adjective on the same noun is another subject ("the new bridge" / "the old bridge"); a noun
  modifier picks out the subject ("the apple tree" is not "the pear tree").

The rows marked "review" are adversarial rows: each is a false support of a simpler rule.
Where no cosine was measured for a review row, the cosines are ``HIGH`` (0.93: "very close", as
in tests/unit/test_verdict.py), so that only the facet rules can keep the claim out.
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge, subject_heads

INF, S, U = Verdict.INFERRED, Verdict.SUPPORTED, Verdict.UNSUPPORTED

COACH = "Todd Watson has been the head coach of the Odessa Jackalopes since 2019."
AIRED = "The series aired on March 4, 2019, in Australia."
WEEKLY = "The series will air weekly in Australia from March 4th."
HIRED = "The Odessa Jackalopes announced on Monday that they have hired Todd Watson as their head coach."


HIGH = 0.93


def _judge(response: str, refs: list[str], cos: list[float]):
    rcs = [ReferenceClaim(i, Claim(t, 0, len(t))) for i, t in enumerate(refs)]
    return judge(
        [Claim(response, 0, len(response))], rcs, np.array([cos], dtype=np.float32), reference_texts=refs
    )[0]


# (kind, response, references, measured cosines, expected verdict, evidence references)
TABLE = [
    ("dateline gives the year", COACH, [HIRED, "May 20, 2019"], [0.943, 0.166], INF, [0, 1]),
    ("dateline of another year", COACH, [HIRED, "May 20, 2017"], [0.943, 0.166], U, None),
    ("report without its year", COACH, [HIRED], [0.943], U, None),
    (
        "date in parts: month-day + dateline",
        AIRED,
        [WEEKLY, "February 20, 2019"],
        [0.803, 0.444],
        INF,
        [0, 1],
    ),
    (
        "date in parts: dateline of another year",
        AIRED,
        [WEEKLY, "February 20, 2018"],
        [0.803, 0.417],
        U,
        None,
    ),
    ("date in parts: month-day alone", AIRED, [WEEKLY], [0.803], U, None),
    (
        "name stated by its initialism",
        "Tom Perez is the chairman of the Democratic National Committee.",
        ["Tom Perez is the chairman of the DNC."],
        [0.9],
        S,
        [0],
    ),
    (
        "initialism stated by the name",
        "Tom Perez is the chairman of the DNC.",
        ["Tom Perez is the chairman of the Democratic National Committee."],
        [0.9],
        S,
        [0],
    ),
    (
        "adjective before the subject noun",
        "The busy centre works with young people aged 10-24.",
        ["The centre works with young people aged 10-24 from all regions."],
        [0.851],
        S,
        [0],
    ),
    (
        "the subject noun is another",
        "The gravitational forces of black holes are stronger than those of neutron stars.",
        ["A neutron star cannot produce as strong a gravity field as a black hole."],
        [0.796],
        U,
        None,
    ),
    # review: a dated sentence that is no dateline does not lend its year or date
    (
        "review: dated event sentence is no dateline",
        "The Jackalopes hired Todd Watson as head coach on June 3, 2019.",
        [
            "The Odessa Jackalopes hired Todd Watson as their head coach.",
            "A water main burst downtown on June 3, 2019.",
        ],
        [HIGH, 0.2],
        U,
        None,
    ),
    (
        "review: year part from a plain year",
        "The film premiered on March 4, 2019.",
        [
            "The film premiered on March 4 at the Sundance festival.",
            "The director's previous film was released in 2019.",
        ],
        [HIGH, 0.5],
        U,
        None,
    ),
    (
        "review: dateline over a relative year",
        COACH,
        ["Last year, the Odessa Jackalopes hired Todd Watson as their head coach.", "May 20, 2019"],
        [HIGH, 0.166],
        U,
        None,
    ),
    # review: short names
    (
        "review: two-letter initials are no name",
        "AP reported the merger in 2019.",
        ["Air Products reported the merger in 2019."],
        [HIGH],
        U,
        None,
    ),
    (
        "review: initials are no ordinary word",
        "The pandemic was declared by the World Health Organization in March 2020.",
        ["The pandemic was declared by health officials who met in Geneva in March 2020."],
        [HIGH],
        U,
        None,
    ),
    (
        "review: initialism of a name after The",
        "The DNC fined the campaign in 2019.",
        ["The Democratic National Committee fined the campaign in 2019."],
        [HIGH],
        S,
        [0],
    ),
    (
        "review: name as subject, initialism in the reference",
        "The Democratic National Committee fined the campaign in 2019.",
        ["The DNC fined the campaign in 2019."],
        [HIGH],
        S,
        [0],
    ),
    (
        "well-known two-letter short form",
        "New Jersey is a top peach-producing state in the U.S.",
        ["New Jersey is a top peach-producing state in the United States."],
        [HIGH],
        S,
        [0],
    ),
    # review: modifiers that pick out the subject
    (
        "review: noun modifier",
        "The apple tree produces fruit after three years.",
        ["The pear tree produces fruit after three years."],
        [HIGH],
        U,
        None,
    ),
    (
        "review: other adjective",
        "The new bridge carries 40,000 vehicles a day.",
        ["The old bridge carries 40,000 vehicles a day."],
        [HIGH],
        U,
        None,
    ),
    (
        "review: compound subject, modifier stated",
        "The oxygen atom in the water molecule has a negative charge.",
        ["The oxygen in a water molecule has a partial negative charge."],
        [HIGH],
        S,
        [0],
    ),
]


@pytest.mark.parametrize(
    ("kind", "response", "refs", "cos", "verdict", "evidence"), TABLE, ids=[t[0] for t in TABLE]
)
def test_evidence_kinds(
    kind: str, response: str, refs: list[str], cos: list[float], verdict: Verdict, evidence: list[int] | None
) -> None:
    j = _judge(response, refs, cos)
    assert j.verdict is verdict, j.reason
    if evidence is not None:
        assert sorted(e.reference for e in j.evidence) == evidence


@pytest.mark.parametrize(
    ("text", "heads"),
    [
        ("The busy centre works with young people.", ("centre",)),
        ("The oxygen atom in the molecule has a negative charge.", ("oxygen",)),
        ("The Halvorsen Bridge carries four lanes.", ("halvorsen", "bridge")),
        ("The museum in Tromsø was built in 1943.", ("museum",)),
        ("He was born in 1950.", ()),
    ],
)
def test_subject_heads(text: str, heads: tuple[str, ...]) -> None:
    assert subject_heads(text) == heads
