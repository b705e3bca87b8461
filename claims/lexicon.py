"""The project's lexicon of opposites, converses and synonyms: one source, read by the verdict
checks (through ``claims.facets.vocabulary``), the planted-fault perturbations
(``claims.perturb``, and so the canaries) and the behavioural suite (``tools/contrast_suite.py``).

Data: ``claims/data/lexicon.tsv``, built by ``tools/build_lexicon.py`` from WordNet 3.0
(Princeton University; licence in ``claims/data/WORDNET_LICENSE.txt``) and the pairs written for
claimaudit (``claims/data/antonyms.tsv`` and the converse and complementary pairs of the build
script). See docs/LEXICON.md.

Every look-up takes a lower-case word form and returns word forms; an unknown word gives an
empty tuple (never raises).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from claims.facets.vocabulary import LEXICON_ROWS

__all__ = [
    "comparative_form",
    "comparative_opposites",
    "regular_comparative",
    "Opposite",
    "opposites",
    "converses",
    "synonyms",
    "complementary",
    "applies_to",
    "measured",
    "words",
    "converse_words",
    "SOURCE_ORDER",
]


@dataclass(frozen=True, slots=True)
class Opposite:
    """One opposite of a word form: ``word`` (lower case); ``pos`` ("adj", "adv", "verb", or ""
    for the pairs written for claimaudit); ``kind``: "complementary" (one excludes the other and
    "not X" states the opposite: open / closed), "gradable" (both may be false: hot / cold), or
    a kind of ``antonyms.tsv`` ("comparative", "direction", "outcome", "state"); ``source``:
    "hand", "wordnet" (a direct antonym), "wordnet-similar" (an indirect one, through a
    similar-to cluster: "rapid" / "slow"), "wordnet-synset" (a synset-mate of a direct antonym:
    "well" / "poorly", from "well" / "ill") or "wordnet-derived" (adverbs of an adjective pair)."""

    word: str
    pos: str
    kind: str
    source: str


#: sources in the order their opposites are listed (the surest first)
SOURCE_ORDER = ("hand", "wordnet", "wordnet-synset", "wordnet-derived", "wordnet-similar")

_OPPOSITES: dict[str, list[Opposite]] = defaultdict(list)
_CONVERSES: dict[str, list[str]] = defaultdict(list)
_SYNONYMS: dict[str, list[str]] = defaultdict(list)
for _a, _b, _relation, _pos, _kind, _source in LEXICON_ROWS:
    for _x, _y in ((_a, _b), (_b, _a)):
        if _relation == "antonym":
            _OPPOSITES[_x].append(Opposite(_y, _pos, _kind, _source))
        elif _relation == "converse":
            _CONVERSES[_x].append(_y)
        elif _relation == "synonym":
            _SYNONYMS[_x].append(_y)
for _found in _OPPOSITES.values():
    _found.sort(key=lambda o: (SOURCE_ORDER.index(o.source), o.word, o.pos))


def opposites(word: str) -> tuple[Opposite, ...]:
    """The opposites of ``word`` (lower-case form), the surest source first (``SOURCE_ORDER``),
    then by word; () when it has none."""
    return tuple(_OPPOSITES.get(word, ()))


def converses(word: str) -> tuple[str, ...]:
    """The converse word forms of ``word`` ("bought" -> "sold", "parent" -> "child", "above" ->
    "below", "deeper" -> "shallower"): "A <word> B" states "B <converse> A". () when none."""
    return tuple(_CONVERSES.get(word, ()))


def synonyms(word: str) -> tuple[str, ...]:
    """Word forms whose most frequent WordNet sense is that of ``word`` ("big" -> "large"). ()
    when none."""
    return tuple(_SYNONYMS.get(word, ()))


def converse_words() -> frozenset[str]:
    """Every word form that has a converse in the lexicon."""
    return frozenset(_CONVERSES)


def words() -> frozenset[str]:
    """Every word form that has an opposite in the lexicon."""
    return frozenset(_OPPOSITES)


def complementary(a: str, b: str) -> bool:
    """``a`` and ``b`` are complementary opposites: "not a" states b (open / closed)."""
    return any(o.word == b and o.kind == "complementary" for o in opposites(a))


def opposite_of(a: str, b: str) -> Opposite | None:
    """The lexicon's entry for ``b`` as an opposite of ``a``, None when they are no pair."""
    return next((o for o in opposites(a) if o.word == b), None)


#: spaCy's universal part of speech -> the lexicon parts of speech a word so tagged may have
#: (a participle is often an adjective: "complicated", "closed")
_LEXICON_POS = {"ADJ": ("adj",), "ADV": ("adv",), "VERB": ("verb", "adj"), "AUX": ("verb",)}


def applies_to(o: Opposite, tok: Any | None) -> bool:
    """Whether the opposite ``o`` applies to the claim's token ``tok`` (a spaCy token; None:
    no parse). A WordNet opposite (its part of speech given) is read only for a word the parse
    tags with that part of speech ("right" in "has the right to" is a noun: no pole of the
    adjective "wrong"), or an adverb after its verb for an adjective (the parser's adverb in
    "The door stood open"); a degree or focus adverb before its head ("even better") is none.
    A pair written for claimaudit (no part of speech) and a word without a parse always fit.
    The reference's word is not tagged: its part of speech is not checked."""
    if not o.pos or o.source in ("hand", "prefix") or tok is None or tok.pos_ == "PROPN":
        return True  # the parser calls every word of a title-case line a name: "The Town Is Rich"
    if o.pos in _LEXICON_POS.get(tok.pos_, ()):
        return True
    return o.pos == "adj" and tok.pos_ == "ADV" and tok.head.pos_ in ("VERB", "AUX") and tok.i > tok.head.i


def measured(tok: Any) -> bool:
    """Whether the spaCy token ``tok`` takes a measure phrase ("17 years old", "a 17-year-old",
    "50 metres tall": a noun of dependency ``npadvmod`` under it): the word then names the
    dimension an amount is given in, not a pole of it, and its opposites do not apply."""
    return any(c.dep_ == "npadvmod" for c in tok.children)


def comparative_opposites(word: str) -> tuple[str, ...]:
    """The comparative opposites of ``word`` ("safer" -> ("dangerous", "riskier"))."""
    return tuple(o.word for o in opposites(word) if o.kind == "comparative")


def comparative_form(adjective: str) -> str:
    """The comparative of ``adjective`` that the lexicon holds a converse or a comparative
    opposite of ("deep" -> "deeper", "big" -> "bigger", "early" -> "earlier", "safe" -> "safer");
    "" when none."""
    forms = (adjective + "er", adjective + "r", adjective[:-1] + "ier", adjective + adjective[-1:] + "er")
    return next((f for f in forms if converses(f) or comparative_opposites(f)), "")


#: comparatives that are no suffix of their adjective
_IRREGULAR_COMPARATIVES = {"good": "better", "well": "better", "bad": "worse", "far": "farther"}


def regular_comparative(adjective: str) -> str:
    """The "-er" comparative of a short adjective, the key of a comparison whose adjective the
    lexicon holds no pair for ("hard" -> "harder", "large" -> "larger", "easy" -> "easier",
    "big" -> "bigger", "good" -> "better"): one vowel group before a final "e", or two ending in
    a consonant and "y". A longer adjective, whose comparative is only "more X", stays itself
    ("reactive", "expensive")."""
    a = adjective.lower()
    if a in _IRREGULAR_COMPARATIVES:
        return _IRREGULAR_COMPARATIVES[a]
    groups = len(re.findall(r"[aeiouy]+", a[:-1] if a.endswith("e") else a))
    if a.endswith("y") and groups <= 2 and len(a) > 2 and a[-2] not in "aeiou":
        return a[:-1] + "ier"
    if groups != 1:
        return a
    if a.endswith("e"):
        return a + "r"
    if re.search(r"[^aeiou][aeiou][^aeiouwxy]$", a):
        return a + a[-1] + "er"
    return a + "er"
