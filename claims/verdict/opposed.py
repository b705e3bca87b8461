"""The counterparts of a claim: texts that state what it denies or the opposite of it.

Part of ``claims.verdict`` (the counterpart check, ``claims.verdict.counterparts``, judges them).
A counterpart replaces one word of the claim by its opposite in the lexicon
(``claims.lexicon.opposites``, and the negative-prefix forms of
``claims/data/negative_prefixes.tsv``: "able" / "unable"), removes the claim's negation ("did
not serve" -> "did serve"), or, under a negation, affirms the opposite ("is not closed" -> "is
open": agrees when the pair is complementary), or puts the negative-prefix form in place of the
negated word ("is not able" -> "is unable": agrees). An agent noun's adjective said with its verb
("is a poor conductor" -> "conducts well") is ``agentive_counterparts``. Degrees, comparisons
and measures ("20 years old") make none: other checks read them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from claims import lexicon
from claims.parses import parse
from claims.verdict.agentive import adverb_of, restatement
from claims.verdict.alike import GRADED_TAGS, TIME_LIMITS, WORD
from claims.verdict.contractions import expand_contractions
from claims.verdict.lexical import unprefixed

__all__ = ["NEGATION_WORDS", "Counterpart", "agentive_counterparts", "counterpart_texts"]

#: bounds and degrees: the quantity and degree checks read them ("at least 18" / "at most 18")
_DEGREE_WORDS = frozenset(["most", "least", "more", "less", "fewer", "greater"])
_NEG = re.compile(r"\b(?:(?<=\w)n't|not)\b\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Counterpart:
    """A text that states what ``claim`` denies or the opposite of it: ``text``, the kind
    ("opposite", "negation", "negated opposite", "negative prefix"), the claim's word
    (``word``) and the word put in its place (``other``); ``agrees``: when the reference
    states ``text``, it states the claim (a complementary opposite under negation, "not X" /
    "un-X") rather than contradicting it."""

    text: str
    kind: str
    word: str
    other: str
    agrees: bool
    #: for a negation, the word it denies ("did not serve" -> "serve"; ``_denied_word``)
    denied: str = ""
    #: the claim's own words when the counterpart is made from a restatement of the claim
    #: ("poor conductor" for "conducts ... well"; ``agentive_counterparts``); "" otherwise
    said: str = ""
    #: the claim's word is an adjective before its noun ("a good cook")
    attributive: bool = False


def _prefixed_forms(word: str) -> list[str]:
    """The negative-prefix forms of ``word`` that the prefix table reads back as ``word``
    (``claims.verdict.lexical.unprefixed``: "able" -> "unable")."""
    forms = [p + word for p in ("un", "in", "im", "il", "ir", "non", "non-", "dis")]
    return [f for f in forms if unprefixed(f) == word]


def _opposites(word: str, tok: Any | None = None) -> list[lexicon.Opposite]:
    """The lexicon's opposites of ``word`` that apply to its token ``tok`` in the parse
    (``claims.lexicon.applies_to``; all when None) and its negative-prefix forms ("able" /
    "unable", ``claims/data/negative_prefixes.tsv``: complementary)."""
    found = [o for o in lexicon.opposites(word) if lexicon.applies_to(o, tok)]
    bare = unprefixed(word)
    forms = [bare] if bare else _prefixed_forms(word)
    return found + [lexicon.Opposite(f, "adj", "complementary", "prefix") for f in forms]


def counterpart_texts(claim: str, *, attributive: bool = False) -> list[Counterpart]:
    """The counterparts of ``claim`` (module docstring): for each word, one for each of its
    opposites and negative-prefix forms, however unlikely the form ("undoor": a reference that
    never writes it states nothing of it), and one for the negation removed; a contracted
    negation is read written out (``expand_contractions``). An adjective before its noun ("a
    good cook") has counterparts only with ``attributive``: a reference then states its
    opposite only as an adjective of the same noun (``claims.verdict.alike.stated_alike``)."""
    out: list[Counterpart] = []
    claim = expand_contractions(claim)
    neg = _NEG.search(claim)
    negated = neg is not None
    words = list(WORD.finditer(claim))
    comparison = " than " in claim
    doc = parse(claim) or ()
    before_noun = {t.idx for t in doc if t.dep_ == "amod" and t.tag_ not in GRADED_TAGS}
    skipped = set() if attributive else before_noun
    # a measure ("20 years old", "100 metres high") states an amount, not a pole of the word
    measured = {t.idx for t in doc if lexicon.measured(t)}
    tags = {t.idx: t for t in doc}
    for m in words:
        w = m.group(0).lower()
        if w in ("not", "no") or w in _DEGREE_WORDS or comparison or m.start() in skipped | measured:
            continue  # degrees, comparisons, measures: other checks'; adjectives before nouns if asked
        for o in _opposites(w, tags.get(m.start())):
            text = claim[: m.start()] + o.word + claim[m.end() :]
            if not negated:
                out.append(
                    Counterpart(
                        text, "opposite", m.group(0), o.word, False, attributive=m.start() in before_noun
                    )
                )
            else:
                assert neg is not None
                plain = _remove(text, neg)
                agrees = o.kind == "complementary"
                out.append(Counterpart(plain, "negated opposite", f"not {m.group(0)}", o.word, agrees))
        if negated and neg is not None:
            for form in _prefixed_forms(w):
                text = _remove(claim[: m.start()] + form + claim[m.end() :], neg)
                out.append(Counterpart(text, "negative prefix", f"not {m.group(0)}", form, True))
    limited = neg is not None and bool(set(WORD.findall(claim[neg.end() :].lower())) & TIME_LIMITS)
    if negated and neg is not None and not limited:  # "did not arrive until 1570" is a time
        affirmed = _remove(claim, neg)
        out.append(
            Counterpart(affirmed, "negation", neg.group(0).strip(), "affirmed", False, _denied_word(claim))
        )
    return out


def agentive_counterparts(claim: str, references: Sequence[str]) -> list[Counterpart]:
    """The opposite of an agent noun's adjective said with its verb (``claims.verdict.agentive``:
    "Copper is a poor conductor" -> "Copper conducts well", as a reference of ``references``
    writes the verb with its adverb): the restated adverb replaced by the reference's adverb
    when that is a lexicon opposite of the adverb or the adverb of an opposite of the adjective
    ("poor" / "good" -> "well"); [] otherwise."""
    if _NEG.search(claim):
        return []
    for ref in references:
        r = restatement(claim, ref)
        if r is None:
            continue
        adjective = r.said.split()[0].lower()
        others = [adverb_of(o.word) for o in _opposites(adjective) if o.pos in ("adj", "")]
        others += [o.word for o in _opposites(r.adverb)]
        if r.theirs == r.adverb or r.theirs not in others:
            return []  # the same manner, or one the lexicon does not oppose to it
        text = r.text[: r.start] + r.theirs + r.text[r.end :]
        return [Counterpart(text, "opposite", r.adverb, r.theirs, False, said=r.said)]
    return []


_AUXILIARY = frozenset(
    ["be", "been", "being", "have", "has", "had", "do", "does", "did", "ever", "yet", "always"]
)


def _denied_word(claim: str) -> str:
    """The first word after the claim's negation that is no auxiliary ("did not serve" ->
    "serve"); "" when none."""
    neg = _NEG.search(claim)
    words = WORD.findall(claim[neg.end() :]) if neg else []
    return next((w for w in words if w.lower() not in _AUXILIARY), "")


def _remove(text: str, neg: re.Match[str]) -> str:
    """``text`` without the negation ``neg`` found in the unedited claim (offsets before any edit
    that lies after it hold; an edit before it shifted it: searched again)."""
    again = _NEG.search(text)
    return text[: again.start()] + text[again.end() :] if again else text


#: a negation word: a reference claim holding one states no opposite and affirms nothing
NEGATION_WORDS = re.compile(r"\b(?:not|never|no|none|neither|nor)\b|n't\b", re.IGNORECASE)
