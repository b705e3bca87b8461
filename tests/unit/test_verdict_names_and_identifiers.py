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
verdict (both helpers from tests/unit/verdict_rows.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.decision import decide
from claims.decompose import decompose, split_sentences
from claims.facets.identifiers import identifiers, mentioned, same_identifier
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from tests.unit.verdict_rows import cosine_model, judge_claim

C, S, U = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED
Row = tuple[str, str, set[Verdict]]


def _check(row: Row) -> None:
    response, reference, allowed = row
    got, reason = judge_claim(response, [reference])
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
    # a fragment, ".git", a default port, an old-style arXiv number's version,
    # arXiv's own notation are the same resource; a case-sensitive path, another page's
    # parenthesised title, a file's ".pdf" on another host are not
    ("https://docs.tessel.no/guide#install", "https://docs.tessel.no/guide", True),
    ("https://github.com/tessel/core.git", "https://github.com/tessel/core", True),
    ("example.org:443/a", "https://example.org/a", True),
    ("arxiv.org/abs/hep-th/9711200v3", "https://arxiv.org/abs/hep-th/9711200", True),
    ("arXiv:2302.13971", "https://arxiv.org/abs/2302.13971", True),
    ("youtube.com/watch?v=dQw4w9WgXcQ", "youtube.com/watch?v=dqw4w9wgxcq", False),
    (
        "https://en.wikipedia.org/wiki/Mercury_(planet)",
        "https://en.wikipedia.org/wiki/Mercury_(element)",
        False,
    ),
    ("https://tessel.no/report.pdf", "https://tessel.no/report", False),
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


# Markdown, quotes and an ellipsis around an address are not the address's; a link's closing
# parenthesis neither, a balanced one inside is
AROUND_ADDRESSES = [
    ("The guide is at **https://docs.tessel.no/guide**.", "https://docs.tessel.no/guide"),
    ("The guide is at `https://docs.tessel.no/guide`.", "https://docs.tessel.no/guide"),
    ("The guide is at “https://docs.tessel.no/guide”…", "https://docs.tessel.no/guide"),
    ("Read [the guide](https://docs.tessel.no/guide).", "https://docs.tessel.no/guide"),
    ("See https://en.wikipedia.org/wiki/Mercury_(planet).", "https://en.wikipedia.org/wiki/Mercury_(planet)"),
    ("The preprint is arXiv:2302.13971.", "arXiv:2302.13971"),
    ("The article is doi 10.1002/(SICI)1097-4636.", "10.1002/(SICI)1097-4636"),  # Wiley's SICI form
]


@pytest.mark.parametrize(("text", "address"), AROUND_ADDRESSES)
def test_address_without_what_surrounds_it(text: str, address: str) -> None:
    assert [i.text for i in identifiers(text)] == [address]


# ordinary text with a dot and a slash or an "@" is no address
NOT_ADDRESSES = [
    "The backend is built with Node.js/Express.",
    "The tour visits St.Louis/Kansas City.",
    "The app pins react@18.2.0.",
    "Power costs 10.2500/kWh.",
    "The score was 3.5/5, e.g. for U.S. users.",
]


@pytest.mark.parametrize("text", NOT_ADDRESSES)
def test_ordinary_text_is_no_address(text: str) -> None:
    assert identifiers(text) == []


# a text names an address written otherwise ("tessel.no", a bare arXiv number with its version);
# a longer host, path or e-mail address that contains it does not
MENTIONS = [
    ("https://tessel.no", "Visit tessel.no.", True),
    ("https://tessel.no", "The site (tessel.no) is new.", True),
    ("https://arxiv.org/abs/2302.13971", "The preprint 2302.13971v2 is out.", True),
    ("https://example.org", "See example.org.uk for more.", False),
    ("https://example.org", "Write to press@example.org.", False),
    ("example.org/a", "See example.org/a-b.", False),
]


@pytest.mark.parametrize(("address", "text", "named"), MENTIONS)
def test_mentioned(address: str, text: str, named: bool) -> None:
    assert mentioned(address, text) is named


def test_an_address_query_ends_no_sentence() -> None:
    # pysbd split at the "?" of the query: "The guide is at https://docs.tessel.no/guide?" was a
    # question (outside scope) and "Utm_source=chatgpt.com." a claim
    text = "The guide is at https://docs.tessel.no/guide?utm_source=chatgpt.com and it is free. It works."
    claims = [c.text for c in decompose(text)]
    assert claims[0].startswith("The guide is at https://docs.tessel.no/guide?utm_source=chatgpt.com")
    assert len(claims) == 3
    # an address without a slash ("www.example.com?ref=a")
    spans = split_sentences("See www.example.com?ref=a. Then go home.")
    assert len(spans) == 2


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
    # the same resource written otherwise, or around Markdown
    (
        "The user guide is at **https://docs.tessel.no/guide**.",
        "The user guide is at https://docs.tessel.no/guide.",
        {S},
    ),
    ("The company's website is https://tessel.no.", "The company's website is tessel.no.", {S}),
    # one of two addresses stated: the other is missing, not contradicted
    ("Contact press@tessel.no or info@tessel.no for details.", "Contact press@tessel.no for details.", {U}),
    (
        "The page https://en.wikipedia.org/wiki/Mercury_(planet) describes the planet.",
        "The page https://en.wikipedia.org/wiki/Mercury_(element) describes the planet.",
        {C},
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
        [Claim(response, 0, len(response))], rcs, sim, [j], reference_texts=refs, model=cosine_model()
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


@pytest.mark.parametrize(
    ("name", "stated"),
    [
        ("Shizuoka Prefecture", "The command is headquartered at Hamamatsu, Shizuoka."),
        ("Moscow Oblast", "The plant is in Podolsk, Moscow."),
        ("Zurich Canton", "The bank moved to Zurich in 1998."),
        ("Hackney Borough", "The market is held in Hackney."),
    ],
)
def test_an_administrative_designator_does_not_tell_a_place_name_apart(name: str, stated: str) -> None:
    # claims/data/name_heads.txt: "Shizuoka" names Shizuoka Prefecture as "Halvorsen" names
    # the Halvorsen Bridge; another first word still does not ("Aichi Prefecture")
    from claims.facets import content_tokens
    from claims.verdict.names import entity_present, lower_words

    words, stems = lower_words(stated), content_tokens(stated)
    assert entity_present(name, words, stems)
    assert not entity_present("Aichi " + name.split()[1], words, stems)
