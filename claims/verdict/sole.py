"""Check: a party said to act alone where the other text gives the same verb a second party of the
same role, or the other way round ("Anna Berg founded Lumio alone" against "Anna Berg and Jonas
Lie founded Lumio"; "The firm was started solely by Karl Ode" against "Karl Ode and Eva Dahl
started the firm together"), read from spaCy's parse for ``claims.verdict.arguments``.

A party acts alone when its verb (or the party itself) has an adverb of sole agency (``SOLE``:
"alone", "solely", "single-handedly", "unaided", "unassisted") or a phrase of it ("by herself",
"on his own"), or when "only" modifies the party itself ("Only Anna Berg led the expedition";
"Anna Berg only led it once" scopes over the rest, not the party). A copula with an agent noun
(``agent_noun_verb``: "founder", "leader") reads as its verb: "Anna Berg was the sole founder
of the firm" (an adjective of ``SOLE_ADJECTIVES`` says alone), "Anna Berg and Tom Lund were the
founders" (two parties); a noun that is no agent noun ("the only bridge in town") is no party.

A verb has a second party when its agent (``claims.verdict.order.agent_patient``: the subject,
or the "by" phrase of a passive) is coordinated with another noun ("Anna Berg and Jonas Lie"),
or the verb has a "with" phrase naming a proper noun ("founded Lumio with Jonas Lie"). Both
texts must give the verb the same stem (or its agent noun) and the same agent (by noun key, or
the other text's second party); a denied verb has no parties. "Together" alone ("They started it together")
names no second party and is not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claims.facets.vocabulary import stem_of
from claims.parses import parse
from claims.verdict.order import agent_patient, noun_key, same_noun

__all__ = ["SOLE", "SOLE_ADJECTIVES", "Party", "agent_noun_verb", "parties", "sole_conflict", "sole_reason"]

#: adverbs of sole agency ("single-handedly" is parsed as "single" + "handedly")
SOLE = frozenset(
    {"alone", "solely", "singlehandedly", "single-handedly", "handedly", "unaided", "unassisted"}
)
#: adjectives of an agent noun that say its party acted alone ("the sole founder")
SOLE_ADJECTIVES = frozenset({"sole", "only", "lone", "single"})
#: the suffixes of an English agent noun ("founder", "creator"): its verb is the noun without it
_AGENT_SUFFIXES = ("er", "or")


@dataclass(frozen=True, slots=True)
class Party:
    """The agent of an affirmed verb: the verb's stem ``verb``, the agent's key ``agent`` and
    words ``name``, the words that say it acted alone (``sole``, "" when none), the keys and
    words of the second parties of the same role (``partners``) and the verb as written
    (``word``)."""

    verb: str
    agent: str
    name: str
    sole: str
    partners: tuple[tuple[str, str], ...]
    word: str = ""


def _name(tok: Any) -> str:
    parts = [c for c in tok.children if c.dep_ == "compound"] + [tok]
    return " ".join(p.text for p in sorted(parts, key=lambda t: t.i))


def _sole_words(verb: Any, agent: Any) -> str:
    by = [c for c in verb.children if c.dep_ == "agent"]  # "solely" may hang on a passive's "by"
    for tok in (*verb.children, *agent.children, *(c for b in by for c in b.children)):
        if tok.dep_ == "advmod" and tok.lower_ in SOLE:
            if tok.lower_ == "handedly":
                return "single-handedly"
            return str(tok.text)
    if any(c.dep_ == "advmod" and c.lower_ == "only" for c in agent.children):
        return "only"  # "Only Anna Berg led ..." (not "Anna Berg only led ...")
    for prep in verb.children:
        if prep.dep_ != "prep":
            continue
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None:
            continue
        if prep.lower_ == "by" and obj.lower_.endswith(("self", "selves")):
            return f"by {obj.text}"  # "by herself"
        if prep.lower_ == "on" and obj.lower_ == "own":
            return "on " + " ".join(t.text for t in obj.subtree)  # "on her own"
    return ""


def _partners(verb: Any, agent: Any) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    stack = [c for c in agent.children if c.dep_ == "conj"]
    while stack:
        tok = stack.pop(0)
        if tok.pos_ in ("NOUN", "PROPN"):
            out.append((noun_key(tok), _name(tok)))
        stack.extend(c for c in tok.children if c.dep_ == "conj")
    for prep in verb.children:
        if prep.dep_ == "prep" and prep.lower_ == "with":
            obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
            if obj is not None and obj.pos_ == "PROPN":
                out.append((noun_key(obj), _name(obj)))
    return tuple(out)


def _merged_agent(verb: Any) -> Any | None:
    """The name right after a passive's "by" that the parse hung on the verb, not on "by" (a
    merged entity: "written by [Tove Ask and Per Moe]")."""
    by = next(c for c in verb.children if c.dep_ == "agent")
    after = by.nbor(1) if by.i + 1 < len(by.doc) else None
    return after if after is not None and after.head.i == verb.i and after.pos_ == "PROPN" else None


def agent_noun_verb(noun: str, verb: str) -> bool:
    """Whether the stemmed agent noun ``noun`` names the doer of the stemmed verb ``verb``: the
    noun is the verb with an agent suffix (``_AGENT_SUFFIXES``), a final "e" of the verb dropped
    or its final consonant doubled ("founder" / "found", "creator" / "creat", "writer" /
    "write", "runner" / "run"). Stems of
    ``claims.facets.vocabulary.stem_of``.

    >>> agent_noun_verb("founder", "found"), agent_noun_verb("writer", "write")
    (True, True)
    >>> agent_noun_verb("bridge", "bridg")
    False
    """
    for suffix in _AGENT_SUFFIXES:
        base = noun[: -len(suffix)]
        doubled = base[:-1] if len(base) > 3 and base[-1] == base[-2] else base  # "runner" / "run"
        if noun.endswith(suffix) and len(base) >= 3 and verb in (base, base + "e", doubled):
            return True
    return False


def _same_act(a: str, b: str) -> bool:
    return a == b or agent_noun_verb(a, b) or agent_noun_verb(b, a)


def _copula_party(tok: Any) -> Party | None:
    """The party of a copula with an agent noun ``tok`` ("Anna Berg was the sole founder of the
    firm": the noun's stem as its verb); None when ``tok`` is no such noun."""
    if tok.dep_ != "attr" or tok.pos_ != "NOUN" or tok.head.lemma_ != "be":
        return None
    if not stem_of(tok.text).endswith(_AGENT_SUFFIXES) or any(c.dep_ == "neg" for c in tok.head.children):
        return None
    agent = next((c for c in tok.head.children if c.dep_ == "nsubj"), None)
    if agent is None or agent.pos_ not in ("NOUN", "PROPN"):
        return None
    adjective = next((c.text for c in tok.children if c.dep_ == "amod" and c.lower_ in SOLE_ADJECTIVES), "")
    sole = f"{tok.head.text} the {adjective} {tok.text}" if adjective else ""
    name = _name(agent)
    key = " ".join(stem_of(w) for w in name.split())
    return Party(stem_of(tok.text), key, name, sole, _partners(tok, agent))


def parties(text: str) -> list[Party]:
    """The agents of ``text``'s affirmed verbs whose agent is a noun or a name, and the subjects
    of its copulas with an agent noun (module docstring); an agent written as one merged name
    with "and" inside ("Tove Ask and Per Moe") is split at it."""
    out = []
    for tok in parse(text) or ():
        if (party := _copula_party(tok)) is not None:
            out.append(party)
            continue
        if tok.pos_ != "VERB" or any(c.dep_ == "neg" for c in tok.children):
            continue
        agent, _ = agent_patient(tok)
        if agent is None and any(c.dep_ == "agent" for c in tok.children):
            agent = _merged_agent(tok)
        if agent is None or agent.pos_ not in ("NOUN", "PROPN"):
            continue
        name, partners = _name(agent), _partners(tok, agent)
        if " and " in name:  # an entity merged into one token
            first, *rest = name.split(" and ")
            name = first
            partners += tuple((" ".join(stem_of(w) for w in r.split()), r) for r in rest)
        key = " ".join(stem_of(w) for w in name.split())
        out.append(Party(stem_of(tok.text), key, name, _sole_words(tok, agent), partners, tok.text))
    return out


def _among(key: str, party: Party) -> bool:
    return same_noun(key, party.agent) or any(same_noun(key, k) for k, _ in party.partners)


def sole_conflict(claim: str, reference: str) -> tuple[Party, Party] | None:
    """The first party of ``claim`` said to act alone whose verb ``reference`` gives a second
    party, or with a second party where ``reference`` says it acted alone; with the reference's
    party. None when none (module docstring)."""
    theirs = parties(reference)
    for m in parties(claim):
        for t in theirs:
            if not _same_act(t.verb, m.verb):
                continue
            if m.sole and t.partners and _among(m.agent, t):
                return m, t
            if t.sole and m.partners and _among(t.agent, m):
                return m, t
    return None


def sole_reason(claim: str, reference: str, at: str) -> str | None:
    """The reason of a :func:`sole_conflict` ("sole agent: 'Anna Berg' founded it alone, where
    reference 0 ... states it with 'Jonas Lie'"), or None."""
    found = sole_conflict(claim, reference)
    if found is None:
        return None
    mine, theirs = found
    if mine.sole:
        others = ", ".join(n for _, n in theirs.partners)
        did = f"{mine.word} it {mine.sole}" if mine.word else mine.sole  # a copula: "was the sole founder"
        return f"sole agent: '{mine.name}' {did}, where {at} states it with '{others}'"
    others = ", ".join(n for _, n in mine.partners)
    return (
        f"sole agent: '{mine.name}' {mine.word} it with '{others}', where {at} states "
        f"'{theirs.name}' {theirs.sole}"
    )
