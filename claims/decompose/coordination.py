"""Clause split, coordination: one piece per conjunct of a coordinated object, complement or
list ("has a pool, a gym and a rooftop bar"), and "respectively" lists paired member by member."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from claims.decompose.inflect import singular_noun
from claims.decompose.modifiers import shared_article
from claims.decompose.tree import Piece, list_heads, noun_conjuncts, own_span, subject_of, subtree_ids
from claims.decompose.words import word_list


def coordinated_pieces(v: Any, toks: set[int], prefix: str, imperative: bool) -> list[Piece]:
    """One piece per member of a coordinated object or complement, or ``[]`` if none.

    A range ("between €12 and €18") is one value, not a list; a comma inside the first
    member's own modifiers means a misparsed modifier list ("a dance-pop, hip hop and R&B
    song"), which stays whole."""
    for c in list_heads(v, toks):
        if _enumerates(v, c):
            continue
        conj = noun_conjuncts(c)
        # (not the hyphen of "Wi-Fi")
        listed_mods = any(k.dep_ == "punct" and k.i < c.i and k.text not in ("-", "‐") for k in c.children)
        ranged = c.head.lower_ == "between" or any(k.lower_ == "between" for k in c.children)
        if not conj or len(conj) > 8 or listed_mods or ranged or not _splittable(v, [c, *conj]):
            continue
        all_conj_toks: set[int] = set()
        for k in conj:
            all_conj_toks |= subtree_ids(k)
        for cc in c.children:
            if cc.dep_ in {"cc", "punct", "preconj"} and cc.i > c.i:
                all_conj_toks |= subtree_ids(cc)
        # "was both a painter and an engineer": "both" goes with the list
        base = (
            toks
            - (subtree_ids(c) | all_conj_toks)
            - {k.i for k in v.children if k.lower_ == "both" and k.i < c.i}
        )
        pieces = [
            Piece(
                frozenset(base | own_span(member)),
                prefix=prefix,
                imperative=imperative,
                replace=shared_article(c, member),
            )
            for member in [c, *conj]
        ]
        return [_contrasted(v, member, piece) for member, piece in zip([c, *conj], pieces, strict=True)]
    return []


#: conjunctions whose members each hold on their own ("A and B", "A as well as B", "A but not B")
_SPLIT_CONJUNCTIONS = frozenset({"and", "but", "&", "plus", "as", "well", "nor"})


def _negated(v: Any) -> bool:
    """``v`` is denied ("not", "never" on it)."""
    return any(k.dep_ == "neg" or k.lower_ == "never" for k in v.children)


def _sum(v: Any, first: Any) -> bool:
    """A list joined by "plus" is a sum, one value, when its first member is what a copula says
    the subject is ("The fee is 20 dollars plus tax", "The total is price plus tax"): apart,
    "The fee is tax" reads false. A list of things after another verb ("won 3 gold medals plus
    a silver medal", "includes a tent plus two poles") is split as "and" is."""
    return v.lower_ in BE and first.dep_ in ("attr", "acomp")


def _splittable(v: Any, members: list[Any]) -> bool:
    """A list whose members each hold apart: joined by "and" ("as well as", "but not"); a
    choice ("either Sydney or Canberra", "fever or chills") or a replacement ("medicine instead
    of law") holds only whole, except under a negation of the verb ("did not confirm the layoffs
    or the closure" denies each); a sum ("20 dollars plus tax": ``_sum``) is one value."""
    words = {k.lower_ for m in members for k in m.children if k.dep_ in ("cc", "preconj")}
    if "plus" in words and _sum(v, members[0]):
        return False
    if words <= _SPLIT_CONJUNCTIONS:
        return True
    return words <= _SPLIT_CONJUNCTIONS | {"or"} and "either" not in words and _negated(v)


BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})


def _enumerates(v: Any, c: Any) -> bool:
    """A list of common words after "are" that names the members of a plural subject ("The
    three primary colors are red, yellow and blue", "The ingredients are flour, water and
    salt"): apart, "The three primary colors are red" reads false. Such a list stays whole; a
    list of names is split ("The founders were Erik Hersman, ..."), each name checked."""
    subj = subject_of(v)
    if v.lower_ not in BE or c.pos_ == "PROPN" or subj is None or subj.tag_ not in ("NNS", "NNPS"):
        return False
    # adjectives enumerate only a counted subject ("The three primary colors are red, ..."):
    # "The bridges are long and narrow" says both of every bridge
    return c.dep_ == "attr" or (c.dep_ == "acomp" and any(k.dep_ == "nummod" for k in subj.children))


def _contrasted(v: Any, member: Any, piece: Piece) -> Piece:
    """A member after "but" in a denied clause holds ("not a planet but a dwarf planet"). A
    member denied by "but not" denies the clause: "supports Wi-Fi 6 but not Bluetooth 5.3"
    -> "The phone does not support ..." is said as "It is not the case that the phone supports
    Bluetooth 5.3" (no lemmatizer for "does not support"), or with the clause's auxiliary: "is
    not", "has not" (not "The phone supports not Bluetooth 5.3", which reads as a statement)."""
    # "not" on the member or its modifier ("not satellite messaging"), or on the "but" before
    # it (spaCy's parse of "but not Wi-Fi 7")
    buts = [k for k in member.head.children if k.dep_ == "cc" and k.lower_ == "but" and k.i < member.i]
    negs = [k for t in (*member.subtree, *buts) for k in t.children if k.dep_ == "neg" and k.i < member.i]
    neg = negs[0] if negs else None
    denied = next((k for k in v.children if k.dep_ == "neg" and k.i < member.head.i), None)
    if neg is None and buts and member.dep_ == "conj" and denied is not None:
        # "Pluto is not a planet but a dwarf planet": the member after "but" is what holds
        # ("Pluto is a dwarf planet"; "did not win gold but silver" -> "did win silver")
        return replace(piece, tokens=piece.tokens - {denied.i})
    if neg is None or member.dep_ != "conj":
        return piece
    tokens = piece.tokens - {neg.i}
    aux = next((k for k in (v, *v.children) if k.pos_ == "AUX" and k.i in tokens and k.i < member.i), None)
    if aux is not None:
        return replace(piece, tokens=tokens, replace=(*piece.replace, (aux.i, f"{aux.text} not")))
    frame = "It is not the case that"
    return replace(piece, tokens=tokens, prefix=f"{frame} {piece.prefix}" if piece.prefix else frame)


#: a plural verb form made singular when "respectively" leaves one member as the subject
_SINGULAR = {"are": "is", "were": "was", "have": "has", "do": "does"}


def _lists_in(toks: set[int], doc: Any) -> list[list[Any]]:
    """The coordinated lists of a clause (each the first member and its conjuncts), in order."""
    return [
        [t, *conj]
        for t in (doc[i] for i in sorted(toks))
        if t.dep_ != "conj" and (conj := noun_conjuncts(t)) and all(k.i in toks for k in conj)
    ]


def _third_person(verb: Any) -> str:
    """The singular of a plural present verb ("live" -> "lives"); auxiliaries by ``_SINGULAR``."""
    low, text = str(verb.lower_), str(verb.text)
    if low in _SINGULAR:
        return _SINGULAR[low]
    if verb.tag_ != "VBP":
        return text
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return text + "es"
    return text[:-1] + "ies" if re.search(r"[^aeiou]y$", low) else text + "s"


SCALE_WORDS = word_list("scale")


def _shares_a_scale(members: list[Any]) -> bool:
    """A list of numbers whose last member's scale word goes for all ("2 and 3 million")."""
    last = members[-1]
    after = last.doc[last.i + 1] if last.i + 1 < len(last.doc) else None
    return last.lower_ in SCALE_WORDS or bool(
        last.like_num and after is not None and after.lower_ in SCALE_WORDS
    )


def respective_pieces(v: Any, toks: set[int], prefix: str) -> list[Piece]:
    """One piece per position of lists paired by "respectively": "Alice and Bob were born in
    1990 and 1992, respectively" -> "Alice was born in 1990", "Bob was born in 1992" (whole, the
    claim pairs nothing: against "Alice was born in 1992" both years are found). Two lists of the
    same length, in the clause of the verb that "respectively" modifies, are paired member by
    member; the clause whole when "respectively" cannot pair its lists so (three lists, no
    subject, a scale word that goes for all the numbers: "2 and 3 million"); ``[]`` without
    "respectively"."""
    doc = v.doc
    resp = next((doc[i] for i in sorted(toks) if doc[i].lower_ == "respectively"), None)
    lists = _lists_in(toks, doc) if resp is not None and resp.head.i == v.i else []
    paired = [members for members in lists if len(members) == len(lists[-1])] if lists else []
    paired = [members for members in paired if _splittable(v, members)]
    if resp is None:
        return []
    if (
        len(paired) != 2
        or len(lists) > 2
        or subject_of(v) is None
        or any(_shares_a_scale(m) for m in paired)
        or any(
            m[0].dep_ in ("nmod", "compound", "amod", "poss") for m in paired
        )  # "The iPhone 15 and iPhone 15 Pro"
    ):
        # three lists, a misparse without a subject, or "2 and 3 million dollars" (the scale
        # goes for both): the sentence stays whole rather than pair the wrong words
        return [Piece(frozenset(toks), prefix=prefix)]
    listed: set[int] = {resp.i} | ({resp.i - 1} if doc[resp.i - 1].is_punct else set())
    for members in paired:
        for m in members:
            listed |= subtree_ids(m)
    base = toks - listed
    subject = subject_of(v)
    plural = [a for a in (v, *v.children) if a.i in base and a.dep_ in ("ROOT", "aux", "auxpass", "conj")]
    agree = subject is not None and any(subject.i == members[0].i for members in paired)
    replace = tuple((a.i, _third_person(a)) for a in plural if agree and _third_person(a) != a.text)
    # "Paris and Rome are the capitals of ..." -> "Paris is the capital of ..."
    nouns = [k for k in v.children if agree and k.dep_ == "attr" and k.tag_ == "NNS" and k.i in base]
    replace += tuple((k.i, singular_noun(k.text)) for k in nouns)
    return [
        Piece(
            frozenset(base.union(*(own_span(members[n]) for members in paired))),
            prefix=prefix,
            replace=replace,
        )
        for n in range(len(paired[0]))
    ]
