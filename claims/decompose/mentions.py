"""Mentions of a subject as text: the noun phrase a later pronoun or definite description is
replaced by (``mention_text``), and its core without clauses and appositions (``core_mention``)."""

from __future__ import annotations

from typing import Any

from claims.decompose.tree import Piece, render


def first_word(doc: Any) -> int:
    for t in doc:
        if not (t.is_punct or t.is_space):
            return int(t.i)
    return 0


def _of_name(prep: Any) -> bool:
    """``prep`` is the "of" of a name that goes on in capitals ("Bank of England")."""
    return bool(
        prep.dep_ == "prep"
        and prep.lower_ == "of"
        and prep.i == prep.head.i + 1
        and all(t.pos_ == "PROPN" or t.i == prep.i or t.lower_ == "the" for t in prep.subtree)
        and len(list(prep.subtree)) > 1
    )


def core_mention(tok: Any) -> str:
    """Short name for an antecedent: a proper-noun head with its determiner and proper-noun
    compounds ("The Kestrel Bridge", "OB-17"), the name in a restrictive apposition ("the
    cellist Ines Marlow" -> "Ines Marlow"), else the whole mention ("the annual fee")."""
    doc = tok.doc
    if tok.pos_ in {"PROPN", "NUM"}:
        keep = {tok.i}
        for c in tok.children:
            if (
                (c.dep_ == "compound" and c.pos_ in {"PROPN", "NUM"})
                or (c.dep_ == "det" and c.i == tok.left_edge.i)
                or c.dep_ == "flat"
                or (c.dep_ == "nummod" and c.i == tok.i + 1)  # "Windows 11", "iPhone 15"
                or _of_name(c)  # "The Bank of England", "The University of Oslo"
            ):
                keep |= {t.i for t in c.subtree}
        lo, hi = min(keep), max(keep)
        if all(i in keep or doc[i].pos_ in {"PROPN", "NUM"} or doc[i].text == "-" for i in range(lo, hi + 1)):
            return str(doc[lo : hi + 1].text)
    for c in tok.children:
        if c.dep_ == "appos" and c.pos_ == "PROPN" and not (c.i > 0 and doc[c.i - 1].text == ","):
            return core_mention(c)
    return mention_text(tok)


def is_preconjunction(tok: Any) -> bool:
    """``tok`` opens with "both", "either" or "neither" (a ``preconj``)."""
    return any(c.dep_ == "preconj" for c in tok.children)


def mention_text(tok: Any, *, conjuncts: bool = False) -> str:
    """The subject's mention: its noun phrase with determiners, modifiers, restrictive
    appositions and prepositional phrases, without clauses, set-off appositions and (unless
    ``conjuncts``) conjuncts."""
    doc = tok.doc
    keep = {t.i for t in tok.subtree}
    for c in tok.children:
        if c.dep_ in ({"acl", "relcl"} if conjuncts else {"acl", "relcl", "conj", "cc"}) or (
            c.dep_ == "appos" and c.i > 0 and doc[c.i - 1].text == ","
        ):
            keep -= {t.i for t in c.subtree}
    return render(doc, Piece(frozenset(keep)))
