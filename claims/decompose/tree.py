"""Parse-tree helpers of the clause split: a clause (``Piece``), token sets of subtrees and
clauses, coordination tests, and rendering a piece back to text. Tokens are spaCy tokens of
one sentence parsed by ``claims.spacy_pipeline.parser``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from claims.spacy_pipeline import entity_type


def is_person(tok: Any) -> bool:
    return entity_type(tok) == "PERSON"


SUBJ = {"nsubj", "nsubjpass", "csubj", "expl"}
CLAUSE_END = {",", ".", ";", "!", "?", "-", "\u2013", "\u2014", ")"}
PLACE = {"GPE", "LOC", "FAC"}
_CLAUSE_DEPS = {"conj"}
MOD_CLAUSE = {"acl", "relcl"}
PRONOUN_SUBJ = {"he", "she", "it", "they", "this", "that", "these", "those"}
PRONOUN_POSS = {"his", "her", "its", "their"}
RELATIVE = {"who", "which", "that", "whom", "whose", "where", "when"}


@dataclass(frozen=True, slots=True)
class Piece:
    """One clause: token indices taken from the sentence, plus replacements."""

    tokens: frozenset[int]
    prefix: str = ""  # text put before the tokens (a subject carried over)
    suffix: str = ""  # text put after the tokens (a temporal anchor: "when X won the prize")
    replace: tuple[tuple[int, str], ...] = ()
    imperative: bool = False


def subtree_ids(tok: Any) -> set[int]:
    return {t.i for t in tok.subtree}


def noun_conjuncts(tok: Any) -> list[Any]:
    out = []
    for c in tok.children:
        if c.dep_ == "conj" and c.pos_ in {"NOUN", "PROPN", "NUM", "ADJ", "PRON"} and not after_nor(c):
            # "sells neither cars nor bikes" stays whole: apart it would say "sells bikes"
            out.append(c)
            out.extend(noun_conjuncts(c))
    return out


def own_span(tok: Any) -> set[int]:
    """A conjunct's own material: its subtree without further conjuncts, cc and commas."""
    drop: set[int] = set()
    for c in tok.children:
        if c.dep_ == "conj" or c.dep_ == "cc" or (c.dep_ == "punct" and c.i > tok.i):
            drop |= subtree_ids(c)
        if c.dep_ == "preconj":
            drop |= subtree_ids(c)
    return subtree_ids(tok) - drop


def subject_of(verb: Any) -> Any | None:
    for c in verb.children:
        if c.dep_ in SUBJ:
            return c
    return None


#: conjunctions that join two statements, each true on its own ("or" and "nor" do not: such a
#: pair stays one claim, ``_after_or``)
_AND_LIKE = frozenset({"and", "but", "&", "plus"})


def _cc_before(conj: Any) -> Any | None:
    """The "cc" right before the conjunct ``conj``'s words, wherever the parser hung it (on
    ``conj``'s head, or on a word of the clause before: "tracks the music you listen to and
    automatically adds it"); None without one."""
    before = conj.left_edge.i - 1
    tok = conj.doc[before] if before >= 0 else None
    return tok if tok is not None and tok.dep_ == "cc" else None


def clause_tokens(verb: Any) -> set[int]:
    """The verb's subtree minus coordinated clauses (and their cc/punct) and noun modifiers'
    clauses that become claims of their own. A conjunction the parser hung on a word of the
    clause, right before a coordinated clause ("tracks the music you listen to and
    automatically adds it", "was re-elected in 2004 and co-wrote"), goes with its comma: kept,
    it ended the claim with "and."."""
    toks = subtree_ids(verb)
    has_verb_conj = any(is_verb_conj(d) for d in verb.children)
    doc = verb.doc
    for c in verb.children:
        if is_verb_conj(c) or (c.dep_ == "cc" and has_verb_conj):
            toks -= subtree_ids(c)
            cc = _cc_before(c) if is_verb_conj(c) else None
            # a joining word (a merged title labelled "cc", "Faith and Devotion", is none)
            if cc is not None and cc.i in toks and cc.pos_ == "CCONJ" and cc.lower_ in _AND_LIKE:
                toks.discard(cc.i)
                if cc.i - 1 in toks and doc[cc.i - 1].text == ",":
                    toks.discard(cc.i - 1)
    return toks


def trimmable(tok: Any) -> bool:
    """Punctuation a claim may lose at its edges; a unit written as a sign ("4.5%") is none."""
    return bool(tok.is_punct) and tok.text not in ("%", "‰", "°")


def render(doc: Any, piece: Piece) -> str:
    repl = dict(piece.replace)
    parts: list[str] = []
    idx = sorted(piece.tokens)
    for n, i in enumerate(idx):
        tok = doc[i]
        word = repl.get(i, tok.text)
        if n == 0 and i in repl and word[:1].islower():
            word = word[0].upper() + word[1:]
        elif n > 0 and i in repl and re.match(r"(?:The|A|An) ", word):
            word = word[0].lower() + word[1:]
        parts.append(word)
        nxt = idx[n + 1] if n + 1 < len(idx) else None
        if nxt is not None:
            parts.append(tok.whitespace_ if nxt == i + 1 else " ")
    out = "".join(parts).strip()
    out = re.sub(r"\s+([,.;:!?])", r"\1", out)
    out = re.sub(r"^[,;:\s]+|[,;:\s]+$", "", out)
    out = re.sub(r",\s*([.!?])$", r"\1", out)
    if piece.prefix:
        if out[:1].isupper() and not is_proper(doc, idx[0]):
            out = out[:1].lower() + out[1:]
        out = f"{piece.prefix} {out}"
    if piece.suffix:
        out = re.sub(r"[.!]$", "", out) + " " + piece.suffix
    return out[:1].upper() + out[1:] if out else out


def is_proper(doc: Any, i: int) -> bool:
    return bool(doc[i].pos_ == "PROPN" or doc[i].text == "I")


def np_text(tok: Any) -> str:
    """The noun phrase headed by ``tok`` without clauses, appositions and conjuncts."""
    keep = {tok.i}
    for c in tok.children:
        if (
            c.i < tok.i
            and c.dep_
            in {
                "det",
                "compound",
                "amod",
                "nummod",
                "poss",
                "case",
                "nmod",
                "quantmod",
            }
            or c.i > tok.i
            and c.dep_ in {"compound", "case"}
            # a name's number: "The iPhone 15, which was released in 2023" is about the iPhone 15
            or (c.i == tok.i + 1 and c.dep_ == "nummod" and tok.pos_ == "PROPN")
        ):
            keep |= subtree_ids(c)
    lo, hi = min(keep), max(keep)
    span = tok.doc[lo : hi + 1]
    return str(span.text)


def is_verb_conj(tok: Any) -> bool:
    """A coordinated verb, also one tagged as a noun but taking an object ("holds 3,000
    paintings but displays only 400": "displays" NNS with a dobj). Not after "nor" without a
    subject of its own: "He was neither arrested nor charged" stays one (denied) claim, where
    apart it would give "He was charged"."""
    return bool(
        tok.dep_ == "conj"
        and (tok.pos_ in {"VERB", "AUX"} or any(k.dep_ == "dobj" for k in tok.children))
        and _joined(tok)
        and not _stranded_before(tok)
        and not (after_nor(tok) and subject_of(tok) is None)
        and not (_after_or(tok) and subject_of(tok) is None)
    )


def _stranded_before(conj: Any) -> bool:
    """The clause before ``conj`` ends in a preposition without its object, which it shares with
    ``conj``'s ("Many shops depend on and sell the brand", "applied for, and won, the grant"):
    apart, "Many shops depend on." says nothing, so the sentence stays whole."""
    if subject_of(conj) is not None:  # "... holding the edges in but, as it spins, stuff wants ..."
        return False
    doc = conj.doc
    k = conj.left_edge.i - 1
    while k >= 0 and (doc[k].dep_ == "cc" or doc[k].text == ","):
        k -= 1
    return k >= 0 and doc[k].dep_ == "prep" and not any(doc[k].children) and doc[k].head == conj.head


#: punctuation that can join two clauses without a conjunction ("came, saw, conquered")
_JOINING_PUNCT = frozenset({",", ";", ":", "-", "–", "—"})


def _joined(conj: Any) -> bool:
    """Something joins the conjunct ``conj`` to the clause before it: a conjunction on its head
    before it (or one hung right before it), or punctuation right before its words. A "conj"
    right after a plain word is a misparse, usually of a clause that is a subject: "What Moen was
    re-elected for is unclear" ("is" a conjunct of "re-elected") split into "What Moen was
    re-elected for." and "Is unclear.". A capitalised common word opening the conjunct joins it
    too: a sentence whose full stop the source lost ("... in size The LLaMA collection ranges
    ...")."""
    if any(k.dep_ in ("cc", "preconj") and k.i < conj.i for k in conj.head.children):
        return True
    first = conj.left_edge
    if first.i == 0:
        return False
    # right before its words, or among its own words before it (", encourages", "and also she is")
    if any(t.dep_ == "cc" or t.text in _JOINING_PUNCT for t in conj.doc[first.i - 1 : conj.i]):
        return True
    return bool(first.is_title and first.pos_ != "PROPN" and first.text != "I")


def _after_or(tok: Any) -> bool:
    """``tok`` is a conjunct after "or": "may approve the deal or reject it" is one choice, and
    "never charged fees or closed on Mondays" apart would lose the denial of the second verb."""
    return _after_cc(tok, "or")


def after_nor(tok: Any) -> bool:
    """``tok`` is a conjunct after "nor" (a "cc" "nor" on its head, before it)."""
    return _after_cc(tok, "nor")


def _after_cc(tok: Any, word: str) -> bool:
    """``tok`` is a conjunct after the conjunction ``word``: a "cc" on its head before it, or
    one the parser hung on another word, right before the conjunct ("either tracks the songs
    you listen to or adds them")."""
    if any(k.dep_ == "cc" and k.lower_ == word and k.i < tok.i for k in tok.head.children):
        return True
    cc = _cc_before(tok)
    return cc is not None and cc.lower_ == word


def clause_heads(root: Any) -> list[Any]:
    """The root and every verb coordinated with it, in tree order."""
    verbs = [root]
    stack = [root]
    while stack:
        v = stack.pop()
        for c in v.children:
            if is_verb_conj(c):
                verbs.append(c)
                stack.append(c)
    return verbs


def list_heads(v: Any, toks: set[int]) -> list[Any]:
    """Where a coordinated list may sit: the verb's objects and complements. A list inside a
    prepositional phrase stays whole: common nouns there usually restrict ("a professor of
    linguistics and computer science"), and names are often a place hierarchy misparsed as a
    list ("born in Maine Township, Otter Tail County, Minnesota")."""
    return [c for c in v.children if c.dep_ in {"dobj", "attr", "acomp", "oprd"} and c.i in toks]
