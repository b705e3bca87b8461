"""Inference: two or three reference claims that together state a claim (greedy set cover).

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from collections.abc import Mapping

from claims.facets import (
    Facets,
)
from claims.verdict.findings import MONTH_DAY, YEAR, Pair
from claims.verdict.text import subject_head
from claims.verdict.thresholds import T
from claims.verdict.values import noun_ordinals, word_tokens


def _all_stated(needed: set[str], have: set[str]) -> bool:
    """Every needed facet key is stated, a date also by its month/day and year parts."""
    return all(k in have or (k + MONTH_DAY in have and k + YEAR in have) for k in needed)


def _needed_facets(r: Facets) -> set[str]:
    """Keys of the claim's facets an inference must state: values, the ordinals that order a
    noun ("her second appearance"; ``values.noun_ordinals``: no adverb, "first reached", no
    word of a name, "First Division"; an ordinal is no content word, so the words' coverage
    never asks for it), dates and names."""
    ordinals = {id(q) for q in noun_ordinals(r)}
    needed = {"q:" + q.text.lower() for q in r.quantities if not q.ordinal or id(q) in ordinals}
    needed |= {"d:" + d.text.lower() for d in r.dates}
    return needed | {"e:" + e.lower() for e, _, _ in r.entities}


def _usable(p: Pair) -> bool:
    """A pair may join an inference: no finding against the claim, and a cosine of at least
    ``inferred_min_cosine`` — except a reference claim that states the claim's year or date
    with a calendar date: a dateline ("May 20, 2019", "PUBLISHED: 2018-03-07") dates the
    report it heads, and its cosine with any claim is low."""
    clean = not p.conflicts and p.polarity_flip is None
    clean = (
        clean
        and p.predicate_swap is None
        and p.object_swap is None
        and p.comparative_flip is None
        and p.hedge_dropped is None
    )
    return clean and (p.cos >= T.inferred_min_cosine or p.dated) and bool(p.stated or p.tokens_covered)


def _cover(usable: list[Pair], needed: set[str], words: set[str]) -> tuple[list[Pair], set[str], set[str]]:
    """Greedy set cover: up to ``inferred_max_claims`` pairs, each the one that adds most
    (``inferred_facet_gain`` per facet, ``inferred_word_gain`` per word), until the facets
    and ``coverage_inferred`` of the words are stated. Returns the chosen pairs and the facet
    keys and words they state together."""
    chosen: list[Pair] = []
    have_f: set[str] = set()
    have_t: set[str] = set()
    for _ in range(T.inferred_max_claims):
        best, gain = None, 0.0
        for p in usable:
            if p in chosen:
                continue
            g = (
                len(p.stated - have_f) * T.inferred_facet_gain
                + len(p.tokens_covered - have_t) * T.inferred_word_gain
            )
            if g > gain:
                best, gain = p, g
        if best is None:
            break
        chosen.append(best)
        have_f |= best.stated
        have_t |= best.tokens_covered
        if _all_stated(needed, have_f) and len(have_t) >= T.coverage_inferred * len(words):
            break
    return chosen, have_f, have_t


def _each_adds(chosen: list[Pair]) -> bool:
    """Every chosen claim adds a facet or a word the others lack (otherwise fewer suffice)."""
    for p in chosen:
        others: set[str] = set().union(*(o.stated for o in chosen if o is not p))
        if not (p.stated - others) and not (
            p.tokens_covered - set().union(*(o.tokens_covered for o in chosen if o is not p))
        ):
            return False
    return True


def _about_subject(r: Facets, chosen: list[Pair], heads: Mapping[int, str | None]) -> bool:
    """No claim of an inference that gives a value or date of the claim is about another
    subject: its own subject head (``heads[j]``) other than the claim's, and the claim's head not
    in it. A value of another subject joined with the claim's name from a third claim ("The
    museum opened in 1981" + "The museum stands by the Sandvik fjord" for "The Sandvik opened in
    1981") is no inference; a dateline or a claim without a subject of its own ("From 1932 the
    race became a handicap event") may give the value."""
    head = subject_head(r.text)

    def other_subject(p: Pair) -> bool:
        gives_value = any(k.startswith(("q:", "d:")) for k in p.stated)
        own = heads.get(p.j)
        return gives_value and not p.head_covered and not p.dated and own is not None and own != head

    return head is None or not any(other_subject(p) for p in chosen)


def infer_pairs(r: Facets, pairs: list[Pair], heads: Mapping[int, str | None]) -> list[Pair]:
    """Greedy set cover of the claim's facets and content words by 2-3 reference claims
    (``_cover``); empty when they do not state every facet and ``coverage_inferred`` of the
    words, when one would suffice, or when a dateline's year meets a relative time ("May 20,
    2019. Last year, the club hired ...": the dateline's year is not the event's)."""
    needed = _needed_facets(r)
    words = set(word_tokens(r))
    usable = [p for p in pairs if _usable(p)]
    if len(usable) < 2:
        return []
    chosen, have_f, have_t = _cover(usable, needed, words)
    if len(chosen) < 2 or not _all_stated(needed, have_f):
        return []
    if any(p.dated for p in chosen) and any(p.relative_time for p in chosen):
        return []
    if r.negated and not any(p.reference_negated for p in chosen):
        return []  # a denial is inferred only with a denial among the claims (absence is not denial)
    if words and len(have_t & words) < T.coverage_inferred * len(words):
        return []
    return chosen if _each_adds(chosen) and _about_subject(r, chosen, heads) else []
