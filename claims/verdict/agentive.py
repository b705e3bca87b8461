"""An agent noun with an adjective, read as its verb with an adverb: "Copper is a poor conductor
of electricity" says what "Copper conducts electricity poorly" says, so a reference's "Copper
conducts electricity well" states its opposite. For the counterpart check
(``claims.verdict.counterparts``), which looks for the opposites of the restated adverb.

Part of ``claims.verdict`` (its docstring: the method). Read from spaCy's parse of the claim:
a noun in "-er" or "-or" that a copula says the subject is ("is a poor conductor"), with an
adjective of its own ("poor"); its verb is the one a reference claim uses whose doer the noun
names (``claims.verdict.sole.agent_noun_verb``: "conductor" / "conducts", "runner" / "runs",
"writer" / "writes"), so no verb is guessed that the evidence does not use. The adverb is the adjective's
("poor" / "poorly", "good" / "well", "fast" / "fast"; English spelling rules of "-ly").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claims.facets.vocabulary import stem_of
from claims.parses import parse
from claims.verdict.sole import agent_noun_verb

__all__ = ["Restatement", "adverb_of", "agent_noun_of", "restatement"]

#: adjectives whose adverb is not their "-ly" form ("a good singer" sings well)
_IRREGULAR_ADVERBS = {
    "good": "well",
    "fast": "fast",
    "hard": "hard",
    "late": "late",
    "early": "early",
    "high": "high",
    "low": "low",
    "long": "long",
    "straight": "straight",
    "whole": "wholly",
    "true": "truly",
    "due": "duly",
    "public": "publicly",
}


@dataclass(frozen=True, slots=True)
class Restatement:
    """A claim restated with its agent noun's verb: ``text`` ("Copper conducts electricity
    poorly"), the claim's words it restates (``said``: "poor conductor"), and the ``adverb`` put
    for the adjective with its characters in ``text`` (``start``, ``end``)."""

    text: str
    said: str
    adverb: str
    start: int
    end: int


def adverb_of(adjective: str) -> str:
    """The adverb of an adjective ("rapid" -> "rapidly", "happy" -> "happily", "simple" ->
    "simply", "basic" -> "basically", "good" -> "well"); lower case."""
    a = adjective.lower()
    if a in _IRREGULAR_ADVERBS:
        return _IRREGULAR_ADVERBS[a]
    if a.endswith("y") and len(a) > 2 and a[-2] not in "aeiou":
        return a[:-1] + "ily"
    if a.endswith("le") and len(a) > 3 and a[-3] not in "aeiou":
        return a[:-1] + "y"
    if a.endswith("ic"):
        return a + "ally"
    if a.endswith("ll"):
        return a + "y"
    return a + "ly"


def agent_noun_of(verb: str) -> str:
    """The agent noun of a verb by English spelling rules ("export" -> "exporter", "lose" ->
    "loser", "win" -> "winner", "buy" -> "buyer"); lower case."""
    v = verb.lower()
    if v.endswith("e"):
        return v + "r"
    vowels = "aeiou"
    # a short verb ending consonant-vowel-consonant doubles its consonant ("win" -> "winner")
    cvc = len(v) in (3, 4) and v[-1] not in vowels + "wxy" and v[-2] in vowels and v[-3] not in vowels
    return v + v[-1] + "er" if cvc else v + "er"


def _verb_in(reference: str, noun: str) -> str | None:
    """The first verb of ``reference`` whose doer the agent noun ``noun`` names
    (``sole.agent_noun_verb``: "conductor" / "conducts"), as written; None when none."""
    want = stem_of(noun)
    for tok in parse(reference) or ():
        if tok.pos_ == "VERB" and agent_noun_verb(want, stem_of(tok.text)):
            return str(tok.text)
    return None


def _agent_noun(doc: Any) -> tuple[Any, Any, Any] | None:
    """(subject, adjective, noun) of "S is a ADJ NOUN-er" in the parsed claim, or None."""
    for tok in doc:
        if tok.pos_ != "NOUN" or tok.dep_ != "attr" or stem_of(tok.head.text) != "be":
            continue
        adj = next((c for c in tok.children if c.dep_ == "amod" and c.tag_ == "JJ"), None)
        subj = next((c for c in tok.head.children if c.dep_ == "nsubj"), None)
        if adj is not None and subj is not None and tok.lower_.endswith(("er", "or")):
            return subj, adj, tok
    return None


def restatement(claim: str, reference: str) -> Restatement | None:
    """``claim`` restated with its agent noun's verb as ``reference`` writes it (module
    docstring), or None when it has no such noun or the reference no such verb. The noun's "of"
    phrase becomes the verb's object; the other words after the noun are kept ("... of heat at room
    temperature" -> "conducts heat poorly at room temperature")."""
    doc = parse(claim)
    found = _agent_noun(doc) if doc is not None else None
    if found is None:
        return None
    subj, adj, noun = found
    verb = _verb_in(reference, noun.text)
    if verb is None:
        return None
    of = next((c for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"), None)
    obj = [t for t in of.subtree if t is not of] if of is not None else []
    inside = {t.i for t in of.subtree} if of is not None else set()
    rest = [t for t in doc[noun.i + 1 :] if t.i not in inside and not t.is_punct]
    adverb = adverb_of(adj.text)
    head = " ".join(x for x in (_text(list(subj.subtree)), verb, _text(obj)) if x)
    text = f"{head} {adverb}"
    start = len(text) - len(adverb)
    if rest:
        text += " " + " ".join(t.text for t in rest)
    return Restatement(text + ".", f"{adj.text} {noun.text}", adverb, start, start + len(adverb))


def _text(tokens: list[Any]) -> str:
    """The tokens' text as written (spacing kept), "" for none."""
    if not tokens:
        return ""
    doc = tokens[0].doc
    return str(doc[tokens[0].i : tokens[-1].i + 1].text)
