"""Clause split, noun modifiers: participial and relative clauses on a noun ("X, designed by
Rosa Feld, crosses ...") and appositions ("X, a cellist, won ...") become pieces of their own
("X was designed by Rosa Feld")."""

from __future__ import annotations

from typing import Any

from claims.decompose.inflect import indefinite_article, past_tense, possessive_form
from claims.decompose.tree import (
    CLAUSE_END,
    MOD_CLAUSE,
    PLACE,
    RELATIVE,
    Piece,
    clause_tokens,
    is_verb_conj,
    np_text,
    own_span,
    subtree_ids,
)
from claims.decompose.words import word_list
from claims.spacy_pipeline import entity_type


def _describing_appos(noun: Any, appos: Any, doc: Any) -> bool:
    """An apposition that states a fact about its noun: a common noun with a determiner
    ("Gove, the education secretary") or a bare age after a name ("Lisbet Amund, 45,").
    A proper-noun one is usually a place or a list ("Blackville, New Brunswick"), and a
    place's apposition is usually its region; neither is split."""
    if appos.pos_ == "NUM":
        return bool(
            noun.pos_ == "PROPN" and appos.text.isdigit() and 0 < int(appos.text) <= 130 and not appos.n_lefts
        )
    return bool(
        appos.pos_ == "NOUN"
        and not any(k.dep_ == "conj" for k in appos.children)
        and entity_type(noun) not in PLACE - {"FAC"}
        and any(k.dep_ == "det" for k in appos.children)
        and not any(doc[k].dep_ == "cc" for k in range(appos.left_edge.i, appos.right_edge.i + 1))
    )


#: verbs of consequence: "..., which killed 26,000 people" after a place or a year tells what
#: the event did, not what the place or year did
_CONSEQUENCE_VERBS = word_list("consequence_verbs")


def _event_which(noun: Any, clause: Any) -> bool:
    """A "which" clause about the whole event before it, not about ``noun``: after a number or
    year ("failed in 1975, which killed 26,000 people", not "1975 killed ..."), or with a verb
    of consequence after a prepositional object ("moved to Texas, which led to layoffs"). Such
    a sentence stays whole."""
    if clause.dep_ != "relcl" or not any(k.lower_ == "which" and k.dep_ == "nsubj" for k in clause.children):
        return False
    return noun.pos_ == "NUM" or (noun.dep_ == "pobj" and clause.lower_ in _CONSEQUENCE_VERBS)


def detach_modifiers(toks: set[int], doc: Any) -> tuple[set[int], list[tuple[Any, Any]]]:
    """Remove non-restrictive (comma-set) appositions and participial/relative clauses from
    ``toks``; return the rest and the ``(noun, modifier)`` pairs removed."""
    mods: list[tuple[Any, Any]] = []
    for noun in [doc[i] for i in sorted(toks)]:
        if noun.pos_ not in {"NOUN", "PROPN", "NUM"} or noun.i not in toks:
            continue
        for c in noun.children:
            if c.dep_ not in MOD_CLAUSE | {"appos"} or c.i not in toks or c.i < noun.i:
                continue
            if c.dep_ == "appos" and not _describing_appos(noun, c, doc) or _event_which(noun, c):
                continue
            left = c.left_edge.i - 1
            if not (left >= 0 and doc[left].text == ","):
                continue
            right = c.right_edge.i + 1
            # a set-off clause ends at a comma, a dash or the end of the sentence
            if right < len(doc) and doc[right].text not in CLAUSE_END:
                continue
            toks -= {t.i for t in c.subtree}
            for p in (left, c.right_edge.i + 1):
                if 0 <= p < len(doc) and doc[p].text in {",", "-", "–", "—"} and p in toks:
                    toks.discard(p)
            mods.append((noun, c))
    return toks, mods


def _where_place(noun: Any, clause: Any) -> Any:
    """The place a "where" clause is about: its noun, or when spaCy hung it on a year ("exiled
    to Elba in 1814, where he stayed") the last proper noun before that year."""
    if not noun.like_num:
        return noun
    names = [t for t in noun.doc[: noun.i] if t.pos_ == "PROPN" and t.dep_ == "pobj" and t.i < clause.i]
    return names[-1] if names else noun


def shared_article(first: Any, member: Any) -> tuple[tuple[int, str], ...]:
    """The indefinite article a singular list member shares with the first: "is an American
    model, actress, and reality television personality" -> "is an actress", "is a reality
    television personality" (not "is actress"). As a replacement of the member's first word."""
    if (
        member is first
        or member.tag_ != "NN"
        or first.dep_ != "attr"  # a predicate noun ("is an actress"), not "owns a furniture"
        or not any(k.dep_ == "det" and k.lower_ in ("a", "an") for k in first.children)
    ):
        return ()
    start = min(own_span(member))
    word = member.doc[start]
    if word.dep_ in ("det", "poss", "nummod") or not word.text[:1].isalpha():
        return ()
    return ((start, f"{indefinite_article(word.text)} {word.text}"),)


def modifier_pieces(doc: Any, mods: list[tuple[Any, Any]]) -> list[Piece]:
    """Claims from appositions and clauses detached from their noun (``detach_modifiers``)."""
    pieces: list[Piece] = []
    for noun, m in mods:
        head = np_text(noun)
        mt = own_span(m) if m.dep_ == "appos" else subtree_ids(m)
        if m.dep_ == "appos":
            # a reduced relative inside the apposition ("a 610-metre span designed by
            # Per Lunde") describes the same thing: a claim of its own about the noun
            mt, inner = _appos_relatives(m, mt, head)
            pieces.extend(inner)
        # the clause's own relative pronoun goes; a nested clause keeps its own ("aims to
        # champion initiatives that call for trust")
        own = {m.i, *(k.i for k in m.children if is_verb_conj(k))}
        mt = {
            i
            for i in mt
            if not (
                doc[i].dep_ in {"nsubj", "nsubjpass", "dobj"}
                and doc[i].lower_ in RELATIVE
                and doc[i].head.i in own
            )
        }
        mt -= {i for i in mt if doc[i].dep_ == "punct" and (i == min(mt) or i == max(mt))}
        if not mt:
            continue
        relative = _relative_piece(noun, m, mt, head, own) if m.dep_ == "relcl" else None
        if relative is not None:
            pieces.append(relative)
        elif m.dep_ == "appos":
            pieces.append(Piece(frozenset(mt), prefix=f"{head} is"))
        elif m.dep_ == "acl" and m.tag_ == "VBN":
            pieces.append(Piece(frozenset(mt), prefix=f"{_described(noun) or head} was"))
        elif m.dep_ == "acl" and m.tag_ == "VBG":
            pieces.append(Piece(frozenset(mt), prefix=f"{_described(noun) or head}"))
        else:
            # a clause misparsed as the subject's modifier may hold coordinated verbs
            # ("The bridge, designed by ..., opened in 1998 and is 1,420 metres long"):
            # one claim per verb, each with the subject
            conj_verbs = [k for k in m.children if is_verb_conj(k)]
            if conj_verbs:
                pieces.append(Piece(frozenset(mt & clause_tokens(m)), prefix=head))
                for k in conj_verbs:
                    pieces.append(Piece(frozenset(mt & clause_tokens(k)), prefix=head))
            else:
                pieces.append(Piece(frozenset(mt), prefix=head))
    return pieces


def _described(noun: Any) -> str | None:
    """The subject a predicate noun describes: "Northbound" of "Northbound is an album by The
    Drifts, released in 2008" (the participle is about the album, which is Northbound); None
    for a noun in any other role, or a subject that is a pronoun."""
    verb = noun.head
    if noun.dep_ != "attr" or verb.lemma_ != "be":
        return None
    subj = next((k for k in verb.children if k.dep_ == "nsubj"), None)
    if subj is None or subj.pos_ == "PRON":
        return None
    return np_text(subj)


def _relative_piece(noun: Any, m: Any, mt: set[int], head: str, own: set[int]) -> Piece | None:
    """The claim of a relative clause ``m`` on ``noun`` (its tokens ``mt``, relative pronoun
    gone) that needs more than the noun put before it: a possessive "whose", a "when"/"where"
    of a time or place, or an object pronoun; None for the other clauses."""
    doc = noun.doc
    when = next((k for k in m.children if k.dep_ == "advmod" and k.lower_ in ("when", "where")), None)
    whose = next((doc[i] for i in mt if doc[i].lower_ == "whose" and doc[i].head.head.i in own), None)
    if whose is not None:
        # "the Bristol Choral Society, whose concerts are held in Bath" -> "The Bristol
        # Choral Society's concerts are held in Bath"
        return Piece(frozenset(mt), replace=((whose.i, possessive_form(head)),))
    if when is not None:
        # "since 2011, when it was created" -> "it was created in 2011" (not "2011 when ...")
        place = _where_place(noun, m) if when.lower_ == "where" else noun
        prep = place.head.lower_ if place.dep_ == "pobj" and place.head.lower_ in ("in", "on", "at") else "in"
        return Piece(frozenset(mt - {when.i}), suffix=f"{prep} {np_text(place)}")
    obj = _relative_object(m)
    if obj is not None:
        # "The Model T, which Ford introduced in 1908" -> "Ford introduced the Model T in
        # 1908" (not "The Model T Ford introduced in 1908")
        named = head[:1].lower() + head[1:] if head.split()[0] in ("The", "A", "An") else head
        return Piece(frozenset(mt - {obj.i}), replace=((m.i, f"{m.text} {named}"),))
    return None


def _relative_object(clause: Any) -> Any | None:
    """The relative pronoun that is the object of a relative clause with a subject of its own
    ("which" in "which Ford introduced in 1908"), or None."""
    if not any(k.dep_ in ("nsubj", "nsubjpass") and k.lower_ not in RELATIVE for k in clause.children):
        return None
    return next(
        (k for k in clause.children if k.dep_ == "dobj" and k.lower_ in RELATIVE and k.i < clause.i), None
    )


def _appos_relatives(appos: Any, toks: set[int], head: str) -> tuple[set[int], list[Piece]]:
    """Reduced relatives on an apposition's noun ("a span designed by Per Lunde") as claims
    about the noun the apposition describes ("<head> was designed by Per Lunde")."""
    out: list[Piece] = []
    for c in appos.children:
        if c.dep_ != "acl" or c.i < appos.i or c.tag_ not in {"VBN", "VBG"}:
            continue
        sub = subtree_ids(c) & toks
        toks = toks - sub
        if c.tag_ == "VBN":
            out.append(Piece(frozenset(sub), prefix=f"{head} was"))
        else:
            out.append(Piece(frozenset(sub), prefix=head, replace=((c.i, past_tense(c.text)),)))
    return toks, out
