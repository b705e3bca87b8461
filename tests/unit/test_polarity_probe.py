"""The polarity probe (``claims.polarity_probe``): which words it flips, and when a lead of the
flipped claim over the claim makes a supported claim ``unsupported``.

The flips are read with the real parser and lexicon; ``probe`` is given the cosines of the
flipped texts as a plain function (``flip_similarity``), so that each case states the lead it
tests; ``test_audit_*`` run the whole audit with the real embedder. Every sentence is written
for these tests (no dev example; places are invented).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from claims.facets import content_tokens
from claims.polarity_probe import PROBE_MARGIN, flip_texts, flips, probe
from claims.types import Claim, Evidence, Judgement, ReferenceClaim, Verdict


def _flips(claim: str, reference: str) -> list[tuple[str, str]]:
    return [
        (f.word, f.opposite) for f in flips(claim, sorted(set(content_tokens(reference))), reference.lower())
    ]


@pytest.mark.parametrize(
    ("claim", "reference", "expected"),
    [
        # the word is absent from the evidence: flipped to its first opposite
        ("The Orm lake is shallow.", "The Orm lake lies above the town.", [("shallow", "deep")]),
        # the evidence states the word (another form of it): nothing to ask the embedder
        ("The Orm lake is shallow.", "The Orm lake is the shallowest in Kelby.", []),
        # nor a word it states through a synonym of the lexicon
        ("The Orm lake is large.", "The Orm lake is big.", []),
        # a word of a name is no pole
        ("Orm lies on the Dead River.", "Orm lies on a river.", []),
        # the evidence states the other pole, here under a negation: the lexicon's checks read it
        ("The Orm museum is open on Sundays.", "The Orm museum is not closed on Sundays.", []),
        ("Senator Vail was present at the vote.", "Senator Vail was not absent from the vote.", []),
        # a comparison with "than": its converse swaps the sides too, one flipped word does not
        ("Orm is larger than Kelby.", "Kelby is a town near Orm.", []),
        ("Quenby employs more nurses than Mirth.", "Mirth is a town near Quenby.", []),
        # a word with a converse: "B borrowed from A" restates "A lent to B"
        ("The Orm library lent books to the school.", "The school got books from the Orm library.", []),
        # nouns are no poles ("the fall" is autumn)
        ("The Orm fair is held in the fall.", "The Orm fair is held in October.", []),
        # a word that takes a measure names a dimension, not a pole ("17 years young" says nothing)
        ("Ada Vell joined the Orm choir as a 17-year-old.", "Ada Vell was 17 when she joined the choir.", []),
        ("The Orm tower is 50 metres tall.", "The Orm tower stands by the harbour.", []),
        ("The Orm canal is 12 km long.", "The Orm canal links two lakes.", []),
    ],
)
def test_flips(claim: str, reference: str, expected: list[tuple[str, str]]) -> None:
    assert _flips(claim, reference) == expected


def _audit(
    verdict: Verdict, finding: str | None = None
) -> tuple[list[Judgement], list[Claim], list[ReferenceClaim]]:
    claim = Claim("The Orm lake is shallow.", 0, 24)
    ref = ReferenceClaim(0, Claim("The Orm lake lies above the town.", 0, 33))
    ev = (Evidence(0, 0, 0, 33, ref.claim.text, 0.8),)
    return [Judgement(0, verdict, ev, "stated", finding=finding)], [claim], [ref]


def _leading(lead: float) -> tuple[np.ndarray, object]:
    similarity = np.array([[0.8]], np.float32)

    def cosines(texts: Sequence[str]) -> np.ndarray:
        assert list(texts) == ["The Orm lake is deep."]
        return np.array([[0.8 + lead]], np.float32)

    return similarity, cosines


def _probe(js: list[Judgement], claims: list[Claim], refs: list[ReferenceClaim], lead: float) -> Judgement:
    similarity, cosines = _leading(lead)
    doc = refs[0].claim.text
    return probe(js, claims, refs, similarity, cosines, doc_tokens=sorted(set(content_tokens(doc))),
                 doc_lower=doc.lower())[0]  # fmt: skip


@pytest.mark.parametrize("verdict", [Verdict.SUPPORTED, Verdict.INFERRED])
def test_a_lead_beyond_the_margin_unsupports(verdict: Verdict) -> None:
    got = _probe(*_audit(verdict), lead=PROBE_MARGIN + 0.01)
    assert got.verdict is Verdict.UNSUPPORTED and got.finding == "polarity" and got.confidence is None
    assert "'deep'" in got.reason and "'shallow'" in got.reason


@pytest.mark.parametrize("lead", [PROBE_MARGIN, 0.0, -0.05])
def test_a_lead_within_the_margin_keeps_the_support(lead: float) -> None:
    js, claims, refs = _audit(Verdict.SUPPORTED)
    assert _probe(js, claims, refs, lead) == js[0]


@pytest.mark.parametrize(
    ("verdict", "finding"),
    [
        (Verdict.SUPPORTED, "counterpart"),  # the lexicon equates the words: left alone
        (Verdict.CONTRADICTED, None),
        (Verdict.UNSUPPORTED, None),
    ],
)
def test_other_verdicts_are_left_alone(verdict: Verdict, finding: str | None) -> None:
    js, claims, refs = _audit(verdict, finding)
    assert _probe(js, claims, refs, lead=0.5) == js[0]


#: (claim, reference, verdict): one word and its opposite, neither in the reference, which states
#: the first pole in other words; the margin between the two cosines is what the embedder
#: (all-MiniLM-L6-v2) gives, measured when these rows were written: 0.16 and 0.22 for the
#: flipped rows, within the margin for the faithful ones
AUDITS = [
    (
        "The Orm dialect is often spoken today.",
        "Most people in the valley speak the Orm dialect every day.",
        "supported",
    ),
    (
        "The Orm dialect is rarely spoken today.",
        "Most people in the valley speak the Orm dialect every day.",
        "unsupported",
    ),
    (
        "The Kelby bridge was well built.",
        "The Kelby bridge was built with great skill and care.",
        "supported",
    ),
    (
        "The Kelby bridge was poorly built.",
        "The Kelby bridge was built with great skill and care.",
        "unsupported",
    ),
]


@pytest.mark.parametrize(("claim", "reference", "verdict"), AUDITS, ids=[a[0] for a in AUDITS])
def test_audit_with_the_real_embedder(claim: str, reference: str, verdict: str) -> None:
    from claims.audit import audit_texts

    (j,) = audit_texts(claim, [reference]).judgements
    assert j.verdict.value == verdict
    assert (j.finding == "polarity") is (verdict == "unsupported")


def test_only_the_cited_evidence_is_asked() -> None:
    """A flip closer to a reference claim the verdict does not cite (another entity, another year)
    is no lean of the claim's evidence."""
    js, claims, refs = _audit(Verdict.SUPPORTED)
    other = ReferenceClaim(0, Claim("The Kelby pool has a diving board.", 34, 68))
    similarity = np.array([[0.8, 0.5]], np.float32)

    def cosines(texts: Sequence[str]) -> np.ndarray:
        return np.array([[0.8, 0.95]], np.float32)  # the flip leads only on the uncited claim

    doc = refs[0].claim.text + " " + other.claim.text
    tokens = sorted(set(content_tokens(doc)))
    assert flips(claims[0].text, tokens, doc.lower()), "the word is flipped: only the citation decides"
    out = probe(js, claims, [*refs, other], similarity, cosines, doc_tokens=tokens, doc_lower=doc.lower())
    assert out == js
    cited = [replace(js[0], evidence=(Evidence(0, 1, 34, 68, other.claim.text, 0.5),))]
    assert probe(cited, claims, [*refs, other], similarity, cosines, doc_tokens=tokens,
                 doc_lower=doc.lower())[0].verdict is Verdict.UNSUPPORTED  # fmt: skip


def test_flip_texts_are_every_flip_of_every_claim() -> None:
    """``flip_texts``: what the probe may embed, before any verdict (the embed stage caches them)."""
    reference = "The Orm lake lies above the town."
    assert flip_texts(["The Orm lake is shallow.", "The Orm lake lies above the town."], [reference]) == [
        "The Orm lake is deep."
    ]
    assert flip_texts(["The Orm lake is shallow."], []) == []  # no references: the probe reads nothing
    assert flip_texts(["The Orm lake is shallow."], ["  "]) == []  # nor blank ones
