"""Opposites of three letters: the lexicon's WordNet pairs of common adjectives whose shorter
word has three letters ("old" / "new", "high" / "low", "bad" / "good"), which ``MIN_LEN`` alone
leaves out (``tools/build_lexicon.py``, ``MIN_LEN_COMMON``).

The pairs are WordNet 3.0's direct antonyms of adjectives among the first senses of both words,
both senses tagged at least ``MIN_TAGS`` times in SemCor and both words tagged more often as
adjectives than as adverbs; short verbs stay out (their first senses are many and broad: "lie" /
"stand"). Each audit runs whole, with the real embedder;
the sentences are written for these tests (places and people invented), the expected verdicts
are the rule of docs/LEXICON.md (an opposite said of the same thing, the reference lacking the
claim's word, is ``contradicted``; a name's word or a measure is no pole of it).
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.facets.vocabulary import WORDNET_ANTONYMS

PAIRS = [
    ("old", "new"),
    ("high", "low"),
    ("bad", "good"),
    ("old", "young"),
    ("big", "little"),
    ("fat", "thin"),
]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_the_lexicon_holds_short_common_opposites(a: str, b: str) -> None:
    assert WORDNET_ANTONYMS[a][b] == {"adj"} and WORDNET_ANTONYMS[b][a] == {"adj"}


def test_short_verbs_stay_out() -> None:
    """Only adjectives get the shorter length: WordNet's verb pairs "lie" / "stand" and "let" /
    "prevent" (first senses many and broad) are no opposites of a claim."""
    assert "stand" not in WORDNET_ANTONYMS.get("lie", {})
    assert "prevent" not in WORDNET_ANTONYMS.get("let", {})


def test_words_mostly_adverbs_stay_out() -> None:
    """SemCor tags "well" and "even" more often as adverbs ("well worth a visit", "even more"):
    no short opposites of them."""
    assert "ill" not in WORDNET_ANTONYMS.get("well", {})
    assert "odd" not in WORDNET_ANTONYMS.get("even", {})


AUDITS = [
    # an opposite said of the same thing: contradicted
    ("The Orm library is old.", "The Orm library is new.", "contradicted"),
    (
        "The water level of the Orm lake is low in summer.",
        "In summer the water level of the Orm lake is high.",
        "contradicted",
    ),  # fmt: skip
    ("The harvest in Kesh was bad in 2011.", "The harvest in Kesh was good in 2011.", "contradicted"),
    ("The Tesk nurses are young.", "The Tesk nurses are old.", "contradicted"),
    # the same pole: supported
    ("The Orm library is new.", "The Orm library, built in 2019, is new.", "supported"),
    ("Prices in Orm were high in 2010.", "Prices in Orm were high in 2010 and low in 2015.", "supported"),
    # a name's word and a measure are no poles
    ("Ida Marr attended Orm High School.", "Ida Marr attended Orm High School, a low building.", "supported"),
    ("The Kesh tower is 30 metres high.", "The Kesh tower, 30 metres high, is low for its age.", "supported"),
    # an opposite said of the same thing (tests/unit/test_opposite_said_elsewhere.py)
    ("The Vell chapel is old.", "The Vell chapel is new.", "contradicted"),
    ("Ida Vell is good at tennis.", "Ida Vell is bad at tennis.", "contradicted"),
    # an adjective of a predicate noun against its stated opposite (tests/unit/test_attributive_opposites.py)
    ("Ida Vell is a good cook.", "Ida Vell is a bad cook.", "contradicted"),
    # comparatives of a pair of opposites from the two sides
    ("The Kesh hall is newer than the Orm hall.", "The Orm hall is older than the Kesh hall.", "supported"),
]


@pytest.mark.parametrize(
    ("claim", "reference", "verdict"), AUDITS, ids=[a[0] if isinstance(a, tuple) else None for a in AUDITS]
)
def test_audit(claim: str, reference: str, verdict: str) -> None:
    (j,) = audit_texts(claim, [reference]).judgements
    if verdict == "not supported":
        assert j.verdict.value not in ("supported", "inferred"), j.reason
    else:
        assert j.verdict.value == verdict, j.reason
