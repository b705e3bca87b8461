"""Inference: two or three reference claims that together state a claim (greedy set cover).

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from claims.facets import (
    Facets,
)
from claims.verdict.background import main_verb
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


def _cover(
    usable: list[Pair], needed: set[str], words: set[str], start: tuple[Pair, ...] = ()
) -> tuple[list[Pair], set[str], set[str]]:
    """Greedy set cover: up to ``inferred_max_claims`` pairs (``start`` first), each the one that
    adds most (``inferred_facet_gain`` per facet, ``inferred_word_gain`` per word), until the
    facets and ``coverage_inferred`` of the words are stated. Returns the chosen pairs and the
    facet keys and words they state together."""
    chosen: list[Pair] = list(start)
    have_f: set[str] = set().union(*(p.stated for p in start))
    have_t: set[str] = set().union(*(p.tokens_covered for p in start))
    for _ in range(T.inferred_max_claims - len(start)):
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


def _inference(
    r: Facets, usable: list[Pair], heads: Mapping[int, str | None], start: tuple[Pair, ...] = ()
) -> list[Pair]:
    """The cover of ``infer_pairs`` over ``usable`` pairs (``start`` chosen first), before its
    background test."""
    needed = _needed_facets(r)
    words = set(word_tokens(r))
    if len(usable) < 2:
        return []
    chosen, have_f, have_t = _cover(usable, needed, words, start)
    if len(chosen) < 2 or not _all_stated(needed, have_f):
        return []
    if any(p.dated for p in chosen) and any(p.relative_time for p in chosen):
        return []
    if r.negated and not any(p.reference_negated for p in chosen):
        return []  # a denial is inferred only with a denial among the claims (absence is not denial)
    if words and len(have_t & words) < T.coverage_inferred * len(words):
        return []
    return chosen if _each_adds(chosen) and _about_subject(r, chosen, heads) else []


def _dated_background(r: Facets, chosen: list[Pair], background: Callable[[int], bool]) -> int | None:
    """The index (into the reference claims) of a background claim of an inference that takes
    its year from a dateline and the claim's event from that background: the background claim
    states the claim's verb (``background.main_verb``, its stem) and no other claim of the
    inference but the dateline does. None otherwise: a claim whose root is no verb ("was the
    chief executive"), a verb no claim of the inference states (the news in other words), or
    background that only describes whom the news is about ("Mira Oyelaran, who founded Vessa
    Airlines, resigned on Monday" for "Vessa Airlines founder Mira Oyelaran resigned in
    2019")."""
    verb = main_verb(r.text) if any(p.dated for p in chosen) else None
    if verb is None:
        return None
    told = [p for p in chosen if not p.dated and verb in p.tokens_covered]
    return next((p.j for p in told if background(p.j)), None) if all(background(p.j) for p in told) else None


def infer_pairs(
    r: Facets,
    pairs: list[Pair],
    heads: Mapping[int, str | None],
    background: Callable[[int], bool] = lambda j: False,
) -> list[Pair]:
    """Greedy set cover of the claim's facets and content words by 2-3 reference claims
    (``_cover``); empty when they do not state every facet and ``coverage_inferred`` of the
    words, when one would suffice, or when a dateline's year meets a relative time ("May 20,
    2019. Last year, the club hired ...": the dateline's year is not the event's) or a
    background claim (``background(j)`` of the reference claim's index,
    ``claims.verdict.background``: "Dana Pirell, who founded the club, retired" dates the
    retirement, not the founding: ``_dated_background``). A cover refused for its background is
    tried once more, starting from the claim nearest by cosine that states the claim's verb and
    is no background: the background may then describe whom the news is about."""
    usable = [p for p in pairs if _usable(p)]
    chosen = _inference(r, usable, heads)
    if _dated_background(r, chosen, background) is None:
        return chosen
    verb = main_verb(r.text)
    news = [p for p in usable if not p.dated and verb in p.tokens_covered and not background(p.j)]
    if not news:
        return []
    chosen = _inference(r, usable, heads, (max(news, key=lambda p: p.cos),))
    return chosen if _dated_background(r, chosen, background) is None else []


def dateline_background(
    r: Facets,
    pairs: list[Pair],
    heads: Mapping[int, str | None],
    background: Callable[[int], bool],
) -> int | None:
    """The index of the background reference claim (``background(j)``) for which ``infer_pairs``
    refuses the inference it would make without its background test; None otherwise."""
    if infer_pairs(r, pairs, heads, background):
        return None
    return _dated_background(r, _inference(r, [p for p in pairs if _usable(p)], heads), background)
