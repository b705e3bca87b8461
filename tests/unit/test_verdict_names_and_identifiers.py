"""Kinds of fault judged ``supported`` in the Factcheck-GPT dev split (refuted claims), each as a
table of our own sentences: rows that must change and rows that must not.

- A web address, DOI or e-mail address names one thing exactly, as a number does; the embedding
  sees two arXiv addresses as one (cosine 0.98) and the content words leave the digits out.
- The learned decision never turns into support a claim with an address or a name (places
  aside: "Franeker, Netherlands") that the references never give, as it never does for a
  number (``claims.decision_guards``): "the N2 road" for "National Route 10", "the Canadian
  singer Kai" for "the singer Kai".

Rule rows use the cosine 0.93 so that only the checks decide, and decision rows a model whose
score is the cosine only, so that the guard under test is the only thing that can keep the rule's
verdict (both helpers from tests/unit/test_verdict_fault_kinds.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.decision import decide
from claims.facets.identifiers import identifiers, same_identifier
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from tests.unit.test_verdict_fault_kinds import _cosine_model, _judge

C, S, U = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED
Row = tuple[str, str, set[Verdict]]


def _check(row: Row) -> None:
    response, reference, allowed = row
    got, reason = _judge(response, [reference])
    assert got in allowed, f"{response!r} vs {reference!r} -> {got.value} ({reason})"


# --------------------------------------------------------------- identifiers

IDENTIFIER_SPELLINGS = [
    # (a, b, same resource)
    ("https://www.Example.org/docs/", "example.org/docs", True),
    ("arxiv.org/pdf/2302.13971v1.pdf", "https://arxiv.org/abs/2302.13971", True),
    ("https://doi.org/10.48550/arXiv.2302.13971", "https://arxiv.org/abs/2302.13971", True),
    ("https://doi.org/10.1038/nature14539", "10.1038/nature14539", True),
    ("https://arxiv.org/abs/2012.15730", "https://arxiv.org/abs/2302.13971", False),
    ("https://example.org/docs", "https://example.org/blog", False),
    ("press@tessel.no", "info@tessel.no", False),
]


@pytest.mark.parametrize(("a", "b", "same"), IDENTIFIER_SPELLINGS)
def test_same_identifier(a: str, b: str, same: bool) -> None:
    assert same_identifier(a, b) is same


def test_identifiers_leave_the_sentence_punctuation_out() -> None:
    text = "See https://tessel.no/report.pdf, or write to press@tessel.no. DOI: 10.1000/xyz123."
    assert [i.text for i in identifiers(text)] == [
        "https://tessel.no/report.pdf",
        "press@tessel.no",
        "10.1000/xyz123",
    ]
    assert all(text[i.start : i.end] == i.text for i in identifiers(text))
    assert identifiers("Version 2.1 was released on 3.4.2020 by Tessel Inc.") == []


# another address in the reference claim conflicts; none there leaves the claim's missing; the
# same resource in another spelling states it
IDENTIFIER_CLAIMS: list[Row] = [
    (
        "The paper is at https://arxiv.org/abs/2012.15730.",
        "The paper is at https://arxiv.org/abs/2302.13971.",
        {C},
    ),
    ("The report's DOI is 10.1038/nature14539.", "The report's DOI is 10.1038/nature14540.", {C}),
    (
        "Tessel's press office is reached at press@tessel.no.",
        "Tessel's press office is reached at info@tessel.no.",
        {C},
    ),
    ("The paper is at https://arxiv.org/abs/2012.15730.", "The paper is available on arXiv.", {U}),
    (
        "The paper is at https://arxiv.org/abs/2302.13971.",
        "The paper is at arxiv.org/pdf/2302.13971v2.pdf.",
        {S},
    ),
    (
        "The paper is at https://arxiv.org/abs/2302.13971.",
        "The paper is at https://arxiv.org/abs/2302.13971.",
        {S},
    ),
    # no address in the claim: the reference's address is an extra detail
    (
        "The paper is available on arXiv.",
        "The paper is available on arXiv at https://arxiv.org/abs/2302.13971.",
        {S},
    ),
]


@pytest.mark.parametrize("row", IDENTIFIER_CLAIMS, ids=[f"{r[0]} / {r[1]}" for r in IDENTIFIER_CLAIMS])
def test_identifier_claims(row: Row) -> None:
    _check(row)


# --------------------------------------------------------------- the learned decision's guards


def _decide(response: str, refs: list[str], cos: float = 0.9) -> Verdict:
    """The decision over a rule ``unsupported`` at ``cos`` (the model alone: sigmoid(2) = 0.88)."""
    rcs = [ReferenceClaim(0, Claim(t, 0, len(t), position=i)) for i, t in enumerate(refs)]
    sim = np.full((1, len(refs)), cos, dtype=np.float32)
    j = Judgement(0, U)
    return decide(
        [Claim(response, 0, len(response))], rcs, sim, [j], reference_texts=refs, model=_cosine_model()
    )[0].verdict


# (response, references, verdict after the decision): a name or an address the references never
# give keeps the rule's unsupported; given anywhere in them, the model decides
GUARDED: list[tuple[str, list[str], Verdict]] = [
    ("Abong is located on the N2 road.", ["Abong lies at a crossroads of National Route 10."], U),
    ("Abong is located on the N10 road.", ["Abong lies at a crossroads of the N10 road and the N2."], S),
    (
        "The paper is at https://arxiv.org/abs/2012.15730.",
        ["The paper is at doi.org/10.48550/arXiv.2302.13971."],
        U,
    ),
    (
        "The paper is at https://arxiv.org/abs/2302.13971.",
        ["The paper is at doi.org/10.48550/arXiv.2302.13971."],
        S,
    ),
    ("The Halvorsen Bridge spans the fjord.", ["The Sandvik Tunnel runs under the fjord."], U),
    # named in short, or by a description with its designator, it is the model's to weigh
    ("The Halvorsen Bridge spans the fjord.", ["The Halvorsen spans the fjord."], S),
    ("The Halvorsen Bridge spans the fjord.", ["The suspension bridge spans the fjord."], S),
    # a person, a nationality, a company, a work the references never name: a detail they do
    # not give (kinds of the WiCE dev split's partly supported claims)
    ("Per Lunde wrote the report.", ["The report was written by a consultant."], U),
    ("The single features the Canadian singer Kai.", ["The single features the singer Kai."], U),
    ("The single was released by Sony Music.", ["The single was released by a major label."], U),
    ("Per Lunde wrote the report.", ["The report was written by the consultant Per Lunde."], S),
    # a place is the model's to weigh (name_cov): evidence often leaves out the country of a
    # town it names, and human labels count such a claim supported (Factcheck-GPT)
    ("Abong is a town in Cameroon.", ["Abong is a town and commune in the East Region."], S),
    (
        "Eisinga built the planetarium in Franeker, Netherlands.",
        ["Eisinga built the planetarium in Franeker."],
        S,
    ),
]


@pytest.mark.parametrize(("response", "refs", "expected"), GUARDED, ids=[r[0] for r in GUARDED])
def test_decision_keeps_unstated_names_and_addresses_unsupported(
    response: str, refs: list[str], expected: Verdict
) -> None:
    assert _decide(response, refs) is expected
