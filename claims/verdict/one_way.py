"""One-way relations read from spaCy's parse: a verb whose subject and object cannot trade places
("A displaced B"), and a comparison with "than" (``one_way_roles``, for the role checks of
``claims.verdict.roles``).

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from typing import Any

from claims.facets import content_tokens
from claims.facets.vocabulary import data_lines, stem_of
from claims.parses import parse

#: verbs whose subject and object cannot trade places (``claims/data/one_way_verbs.txt``)
ONE_WAY_VERBS = frozenset(w for _, line in data_lines("one_way_verbs.txt") for w in line.split())
#: a one-way verb -> the first word of its line: the words of a line name one relation ("bought"
#: and "acquired" are one)
_ONE_WAY_GROUP = {w: line.split()[0] for _, line in data_lines("one_way_verbs.txt") for w in line.split()}
ONE_WAY_STEMS = frozenset(content_tokens(" ".join(ONE_WAY_VERBS)))


def one_way_roles(text: str) -> list[tuple[str, str, str, tuple[int, int], tuple[int, int]]]:
    """(relation, subject, object, subject span, object span) of each one-way relation between
    two nouns in ``text``'s parse: "v:<verb stem>" for a verb of ``one_way_verbs.txt`` with a
    subject and a direct object (or, in the passive, an agent and a subject: "B was bought by A"
    is "A bought B"; the verbs of one line of the file are one relation, named by its first
    word), "c:<more|less>:<adjective>" for a comparison with "than" (a
    comparative form such as "larger" counts as "more"). A noun is its stem with the stems of its
    compound modifiers ("stock market" and "bond market" differ)."""
    doc = parse(text)
    out: list[tuple[str, str, str, tuple[int, int], tuple[int, int]]] = []
    for tok in doc or ():
        if tok.lower_ in ONE_WAY_VERBS and tok.pos_ != "VERB":
            # a one-way verb read as a noun ("Copper displaces iron": "Copper displaces" a
            # compound): its neighbours are its subject and object
            subj, obj = _neighbour(doc, tok.i - 1, -1), _neighbour(doc, tok.i + 1, 1)
            relation = f"v:{_ONE_WAY_GROUP[tok.lower_]}"
        elif tok.pos_ == "VERB" and tok.lower_ in ONE_WAY_VERBS:
            subj, obj = _noun_child(tok, "nsubj"), _noun_child(tok, "dobj")
            agent = next((k for k in tok.children if k.dep_ == "agent"), None)
            if subj is None and obj is None and agent is not None:
                # the passive: "Tessel was acquired by Corvin Group" is Corvin Group acquiring Tessel
                subj, obj = _noun_child(agent, "pobj"), _noun_child(tok, "nsubjpass")
            relation = f"v:{_ONE_WAY_GROUP[tok.lower_]}"
        elif tok.pos_ in ("ADJ", "ADV"):
            than = next((k for k in tok.children if k.dep_ == "prep" and k.lower_ == "than"), None)
            subj, obj = _noun_child(tok.head, "nsubj"), _noun_child(than, "pobj") if than else None
            degree = next((k.lower_ for k in tok.children if k.lower_ in ("more", "less")), "more")
            relation = f"c:{degree}:{tok.lower_}"
        else:
            continue
        if subj is not None and obj is not None and noun_key(subj) != noun_key(obj):
            out.append((relation, noun_key(subj), noun_key(obj), span_of(subj), span_of(obj)))
    return out


def verb_arguments(text: str) -> list[tuple[str, Any, Any]]:
    """(relation, subject, object) of each verb of ``text``'s parse with a noun subject and a
    noun object: its direct object, or the object of its one preposition ("leads to crime": the
    relation "lead to"); in the passive its agent and subject ("The mayor was sued by the
    newspaper" is "the newspaper sued the mayor"). The relation is the verb's ``verb_key``, with
    the preposition; subject and object are spaCy tokens (``noun_key``, ``span_of``)."""
    out: list[tuple[str, Any, Any]] = []
    for tok in parse(text) or ():
        if tok.pos_ != "VERB":
            continue
        stem = verb_key(tok.lower_)
        subj, obj, prep = _noun_child(tok, "nsubj"), _noun_child(tok, "dobj"), ""
        agent = next((k for k in tok.children if k.dep_ == "agent"), None)
        if subj is None and agent is not None:
            subj, obj = _noun_child(agent, "pobj"), _noun_child(tok, "nsubjpass")
        elif obj is None:
            preps = [k for k in tok.children if k.dep_ == "prep"]
            if len(preps) == 1:
                obj, prep = _noun_child(preps[0], "pobj"), f" {preps[0].lower_}"
        if stem and subj is not None and obj is not None:
            out.append((stem + prep, subj, obj))
    return out


def verb_key(word: str) -> str:
    """A verb form's key, the same for its tenses ("caused", "causes", "cause" -> "caus"; "owns"
    -> "own"): its stem (``vocabulary.stem_of``) without a final "e"; irregular forms stay apart
    ("drew")."""
    return stem_of(word.lower()).rstrip("e")


def _neighbour(doc: Any, i: int, step: int) -> Any:
    """The noun at ``doc[i]``, or after its determiners in the direction ``step`` (+1: "displaces
    the iron"); None when another word stands there."""
    while 0 <= i < len(doc) and doc[i].pos_ == "DET" and step > 0:
        i += step
    if not 0 <= i < len(doc) or doc[i].pos_ not in ("NOUN", "PROPN"):
        return None
    return doc[i]


def _noun_child(tok: Any, dep: str) -> Any:
    """The first child of ``tok`` with dependency ``dep`` that is a noun, or None."""
    return next((k for k in tok.children if k.dep_ == dep and k.pos_ in ("NOUN", "PROPN")), None)


def noun_key(tok: Any) -> str:
    """A noun's stem with its compound modifiers' ("bond market")."""
    mods = [k for k in tok.children if k.dep_ == "compound" and k.lower_ not in ONE_WAY_VERBS]
    return " ".join(stem_of(k.lower_) for k in [*mods, tok])


def span_of(tok: Any) -> tuple[int, int]:
    """A noun's span with its compound and adjective modifiers ("coal power")."""
    mods = (
        k
        for k in tok.children
        if k.dep_ in ("compound", "amod") and k.i < tok.i and k.lower_ not in ONE_WAY_VERBS
    )
    start = min([tok.idx, *(k.idx for k in mods)])
    return int(start), int(tok.idx + len(tok.text))
