"""An adjective before its noun against the opposite adjective of the same noun in the reference
(``claims.verdict.counterparts``, ``claims.verdict.alike``; rule in docs/LEXICON.md):

* where the noun says what the subject is (a predicate noun or an apposition: "is a good cook" /
  "is a bad cook"), the two describe one thing: ``contradicted``;
* anywhere else the adjective may pick out another thing of that noun ("the old bridge was
  closed" / "the new bridge was closed"; "removed the primary tumour" / "... the secondary
  tumour"): the evidence speaks of the other one, so the claim is ``unsupported`` (the opposite
  gap), never ``supported`` and never ``contradicted``;
* the opposite as an adjective of another noun says nothing of the claim's ("a big house" / "a
  house with a little garden").

Also here: a number the reference states too is no other occasion for the counterpart check
("in 2010" / "in 2010"), and a time that dates a past the claim does not speak of is another
occasion ("was poor in 1990" for "is rich"). Whole audits with the real embedder; sentences
written for these tests (places and people invented); the expected verdicts are the rules above.
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.verdict.alike import stated_alike
from claims.verdict.opposed import counterpart_texts

AUDITS = [
    # a predicate noun or an apposition: one thing, contradicted
    ("Ida Vell is a good cook.", "Ida Vell is a bad cook.", "contradicted"),
    ("Orm is a large town in Kesh.", "Orm is a small town in Kesh.", "contradicted"),
    ("Kelby is a poor town.", "Kelby is a rich town in the north.", "contradicted"),
    # another place of the noun: perhaps another thing, unsupported
    (
        "The old bridge over the Orm was closed in 2010.",
        "The new bridge over the Orm was closed in 2010.",
        "unsupported",
    ),
    ("Surgeons removed the primary tumour.", "Surgeons removed the secondary tumour.", "unsupported"),
    ("The club hired a young coach in 2015.", "The club hired an old coach in 2015.", "unsupported"),
    # the opposite of another subject's predicate noun; a comparative of perhaps other members
    (
        "Ada Marr was a fast runner.",
        "Ada Marr ran the mile in four minutes, and her sister Eva was a slow runner.",
        "not contradicted",
    ),
    (
        "The young members of the Orm choir sang in Kesh.",
        "The older members of the Orm choir sang in Kesh.",
        "not contradicted",
    ),
    # the same pole, or the opposite of another noun
    ("Ida Vell is a good cook.", "Ida Vell is a good cook and a bad driver.", "supported"),
    ("The Orm church is very old.", "The Orm church has a new roof.", "supported"),
    # a year the reference states too is the same occasion; another year is another one
    ("The Orm lake was shallow in 2010.", "The Orm lake was deep in 2010.", "contradicted"),
    ("The Orm lake was shallow in 2010.", "The Orm lake was deep in 2012.", "not contradicted"),
]


@pytest.mark.parametrize(("claim", "reference", "verdict"), AUDITS, ids=[a[0] + " / " + a[1] for a in AUDITS])
def test_audit(claim: str, reference: str, verdict: str) -> None:
    judgements = audit_texts(claim, [reference]).judgements
    got = [j.verdict.value for j in judgements]
    if verdict == "not contradicted":
        assert "contradicted" not in got, [j.reason for j in judgements]
    else:
        assert got == [verdict], [j.reason for j in judgements]


def test_attributive_adjectives_only_when_asked() -> None:
    """The gap and the counterpart check ask for them; other callers get none."""
    assert not [c for c in counterpart_texts("Ida Vell is a good cook.") if c.word == "good"]


def test_a_number_the_reference_states_too_is_no_other_occasion() -> None:
    """``stated_alike`` read every number as a word the reference lacks (its words are letters):
    a counterpart with a year never counted as stated."""
    ref = "The Orm stadium was old in 2010."
    assert stated_alike("The Orm stadium was old in 2010.", ref, "old")
    assert not stated_alike("The Orm stadium was old in 2012.", ref, "old")


@pytest.mark.parametrize(
    ("claim", "references"),
    [
        (
            "Big farms in Kesh have high costs.",
            ["Costs are high on large farms in Kesh.", "Small farms in Kesh have low costs."],
        ),
        (
            "The old bridge in Kesh was closed to traffic.",
            [
                "The original bridge in Kesh was closed to traffic.",
                "The new bridge in Kesh was also closed to traffic.",
            ],
        ),
    ],
)
def test_other_things_of_the_noun_in_other_reference_claims_leave_a_support_alone(
    claim: str, references: list[str]
) -> None:
    """The opposite gap reads an adjective before its noun only in the claim the support rests
    on: "Small farms in Kesh have low costs" is of other farms."""
    judgements = audit_texts(claim, references).judgements
    assert [j.verdict.value for j in judgements] == ["supported"], [j.reason for j in judgements]
