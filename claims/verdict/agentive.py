"""An agent noun with an adjective, read as its verb with an adverb: "Copper is a poor conductor
of electricity" says what "Copper conducts electricity poorly" says, so a reference's "Copper
conducts electricity well" states its opposite. For the counterpart check: the counterparts
of the restated adverb are made by ``claims.verdict.opposed.agentive_counterparts`` and judged
by ``claims.verdict.counterparts``.

Part of ``claims.verdict`` (its docstring: the method). Read from spaCy's parse of the claim:
a noun in "-er" or "-or" that a copula says the subject is ("is a poor conductor"), with an
adjective of its own ("poor"); its verb is the one a reference claim uses whose doer the noun
names (``claims.verdict.sole.agent_noun_verb``: "conductor" / "conducts", "runner" / "runs",
"writer" / "writes"), so no verb is guessed that the evidence does not use, said of the same
subject with one adverb of manner and no other adjunct ("sings badly when she is ill" may be
the occasion, not the singer: no restatement). The adverb is the adjective's
("poor" / "poorly", "good" / "well", "fast" / "fast"; English spelling rules of "-ly").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claims.facets.vocabulary import stem_of
from claims.parses import parse
from claims.verdict.sole import agent_noun_verb

__all__ = ["Restatement", "adverb_of", "restatement"]

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
    poorly"), the claim's words it restates (``said``: "poor conductor"), the ``adverb`` put for
    the adjective with its characters in ``text`` (``start``, ``end``), and the reference's own
    adverb of that verb (``theirs``)."""

    text: str
    said: str
    adverb: str
    start: int
    end: int
    #: the adverb of the reference's verb ("well" in "conducts electricity well")
    theirs: str


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


#: what a manner verb of the reference may hold besides its one adverb: its subject, its object,
#: auxiliaries, a particle and punctuation; any other adjunct ("when she is ill", "uphill",
#: "now", "to clients") may be the occasion of the manner, not the doer's way in general
_PLAIN_DEPS = frozenset({"nsubj", "dobj", "aux", "prt", "punct"})


def _manner_verb(reference: str, noun: str, subject: str) -> tuple[str, str] | None:
    """(verb as written, its adverb in lower case) of the first verb of ``reference`` whose doer
    the agent noun ``noun`` names (``sole.agent_noun_verb``: "conductor" / "conducts"), whose
    subject has the stem ``subject`` and that holds one adverb of manner and nothing else but
    ``_PLAIN_DEPS`` ("Copper conducts electricity well"); None when there is none."""
    want = stem_of(noun)
    for tok in parse(reference) or ():
        if tok.pos_ != "VERB" or not agent_noun_verb(want, stem_of(tok.text)):
            continue
        subj = next((c for c in tok.children if c.dep_ == "nsubj"), None)
        adverbs = [c for c in tok.children if c.dep_ == "advmod"]
        others = [c for c in tok.children if c.dep_ not in _PLAIN_DEPS and c.dep_ != "advmod"]
        if subj is None or stem_of(subj.text) != subject or others or len(adverbs) != 1:
            continue
        if adverbs[0].pos_ == "ADV":
            return str(tok.text), adverbs[0].lower_
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
    manner = _manner_verb(reference, noun.text, stem_of(subj.text))
    if manner is None:
        return None
    verb, theirs = manner
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
    return Restatement(text + ".", f"{adj.text} {noun.text}", adverb, start, start + len(adverb), theirs)


def _text(tokens: list[Any]) -> str:
    """The tokens' text as written (spacing kept), "" for none."""
    if not tokens:
        return ""
    doc = tokens[0].doc
    return str(doc[tokens[0].i : tokens[-1].i + 1].text)
