"""Check: same event. Whether a reference claim states the same event as the claim, for the
question of whether a year, age or amount of the two can conflict: the claim's content words
counted as stated when the reference has them, a verb of the same group
(``claims/data/predicate_synonyms.txt``: "costs" / "priced"), or the one word a phrase of the
claim paraphrases (``claims/data/event_paraphrases.txt``: "first role" / "debut"). Verbs that
only say that something took place (``claims/data/light_verbs.txt``: "came", "happened") are
not counted.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from claims.facets import content_tokens, token_match
from claims.facets.vocabulary import data_lines
from claims.verdict.clause_checks import PredicateSet


@lru_cache(maxsize=1)
def light_verbs() -> frozenset[str]:
    """Stems of ``claims/data/light_verbs.txt``."""
    return frozenset(t for _, line in data_lines("light_verbs.txt") for t in content_tokens(line))


@lru_cache(maxsize=1)
def event_paraphrases() -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """``claims/data/event_paraphrases.txt`` as (word stem, (phrase stems, ...)) rows."""
    rows = []
    for _, line in data_lines("event_paraphrases.txt"):
        word, _, phrases = line.partition(":")
        stems = content_tokens(word)
        if stems:
            rows.append((stems[0], tuple(tuple(content_tokens(p)) for p in phrases.split("|") if p.strip())))
    return tuple(rows)


def _paraphrased(tokens: Sequence[str], other: Sequence[str]) -> set[str]:
    """The claim tokens that make up a phrase paraphrasing a word of ``other``."""
    out: set[str] = set()
    for word, phrases in event_paraphrases():
        if not any(token_match(word, o) for o in other):
            continue
        for phrase in phrases:
            if phrase and all(p in tokens for p in phrase):
                out.update(phrase)
    return out


def event_coverage(tokens: Sequence[str], other: Sequence[str]) -> tuple[float, int]:
    """(share, size): the share of the claim's content tokens ``tokens`` (light verbs left out;
    ``size`` of them remain) that ``other``, a reference claim's stems, states as the same event.

    Examples
    --------
    >>> event_coverage(content_tokens("first major stage role came"), content_tokens("made her stage debut"))
    (0.75, 4)
    >>> event_coverage(content_tokens("plan costs"), content_tokens("plan, price"))
    (1.0, 2)
    """
    light = light_verbs()
    kept = [t for t in tokens if t not in light]
    if not kept:
        return 1.0, 0
    para = _paraphrased(kept, other)
    stated = PredicateSet(other)  # any(same_predicate(t, o) for o in other), in a few look-ups
    covered = sum(1 for t in kept if t in para or t in stated)
    return covered / len(kept), len(kept)
