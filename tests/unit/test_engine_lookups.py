"""The engine's faster look-ups give what the plain ones give (docs/PERFORMANCE.md):
``facets.TokenSet`` against ``token_match`` over every token, ``clause_checks.PredicateSet``
against ``same_predicate``, and ``claims.sentences._Segmenter`` against pysbd's own
sentence spans. All must be exact: the verdicts may not change."""

from __future__ import annotations

import random

import pysbd
import pytest

from claims.facets import TokenSet, content_spans, content_tokens, token_match
from claims.sentences import _Segmenter
from claims.verdict.clause_checks import (
    PredicateSet,
    _load_synonym_groups,
    _synonym_groups_of,
    same_predicate,
)


def _random_cases(seed: int, n_words: int, n_cases: int) -> list[tuple[str, list[str]]]:
    """(token, 25 other tokens) pairs of random short words over a small alphabet: many share
    prefixes of 4 and 5 characters, the cases where token_match's prefix rules decide (seed
    fixed: the tests are reproducible)."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcde") for _ in range(rng.randint(1, 9))) for _ in range(n_words)]
    out = []
    for _ in range(n_cases):
        other = rng.sample(words, 25)
        out.append((rng.choice(words), other))
    return out


def test_token_set_equals_token_match_over_every_token() -> None:
    for t, other in _random_cases(0, 2000, 3000):
        assert (t in TokenSet(other)) == any(token_match(t, o) for o in other), (t, other)


def test_token_set_matches_lists_every_match() -> None:
    for t, other in _random_cases(2, 500, 1000):
        want = sorted({o for o in other if token_match(t, o)})
        assert sorted(TokenSet(other).matches(t)) == want, (t, other)


def test_token_set_on_stems() -> None:
    index = TokenSet(content_tokens("The enrolment certified the students"))
    assert "enrolled" in index and "certification" in index  # token_match's prefix rules
    assert "stud" in index  # a prefix of four characters matches ("stud" / "student")
    assert "stu" not in index  # three do not
    assert "bridge" not in index


def test_predicate_set_equals_same_predicate() -> None:
    # the stems of the synonym groups (pairs that match only through a group), their forms with
    # and without a final "e" and with suffixes, and random stems (seed fixed: reproducible)
    rng = random.Random(1)
    stems = sorted({s for group in _load_synonym_groups() for s in group})
    words = stems + [s + "e" for s in stems[::3]] + [s.rstrip("e") + "ing" for s in stems[::5]]
    words += ["".join(rng.choice("abcdeors") for _ in range(rng.randint(2, 8))) for _ in range(300)]
    for _ in range(3000):
        other = rng.sample(words, rng.randint(0, 12))
        t = rng.choice(words)
        assert (t in PredicateSet(other)) == any(same_predicate(t, o) for o in other), (t, other)
    groups = _load_synonym_groups()
    for w in words:  # the groups' index against every group tried with token_match
        assert _synonym_groups_of(w) == {
            i for i, g in enumerate(groups) if any(token_match(w, x) for x in g)
        }, w
    assert "acquir" in PredicateSet(content_tokens("Acme bought the mill"))  # a synonym group
    assert "sold" not in PredicateSet(content_tokens("Acme bought the mill"))


def test_content_spans_and_tokens_agree() -> None:
    text = "The state-of-the-art bridge opened; it carries trains."
    assert [t for t, _, _ in content_spans(text)] == content_tokens(text)
    assert all(text[s:e].lower().replace("-", "").find(t[:3]) >= 0 for t, s, e in content_spans(text))


@pytest.mark.parametrize(
    "text",
    [
        "It opened. It opened. It opened again.",  # a sentence repeated: each its own span
        "Dr. Smith arrived at 5 p.m. He left.  Then   it rained.\u00a0Done.",  # abbreviations, odd spaces
        "One.Two. Three!",
        "No sentence end at all",
        "",
    ],
)
def test_segmenter_spans_equal_pysbd(text: str) -> None:
    ours, theirs = _Segmenter(language="en", clean=False), pysbd.Segmenter(language="en", clean=False)
    assert ours.segment(text) == theirs.segment(text)
