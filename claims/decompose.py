"""Decomposition of a document into atomic, self-contained claims with character spans.

Method (FActScore, Min et al. 2023: an atomic claim carries one piece of information and
stands alone):

1. Sentences: line breaks and bullets first, then pysbd (Sadvilkar & Neumann 2020), then
   full-width sentence marks (。！？) for text pysbd leaves whole.
2. English sentences are parsed with spaCy (``en_core_web_sm``, loaded lazily once per
   process) and split into clauses:

   - coordinated verb phrases ("was completed in 1998 and is 520 metres long") -> one claim
     per conjunct, each with the shared subject;
   - coordinated objects and complements ("has a pool, a gym and a rooftop bar") -> one
     claim per conjunct;
   - participial and relative clauses on a noun ("X, designed by Rosa Feld, crosses ...")
     and appositions ("X, a cellist, won ...") -> claims of their own ("X was designed by
     Rosa Feld").
3. Subject pronouns (he, she, it, they, its, ...) are replaced by the last subject named
   in an earlier claim; with no antecedent the claim is marked ``ambiguous``. A definite
   description as subject ("the bridge", "the suspension bridge", "the company") takes the
   one earlier subject name it can describe ("The Halvorsen Bridge" -> "The Halvorsen
   suspension bridge", ``claims/data/definite_descriptions.tsv``), unless a modifier sets it
   apart ("the new bridge") or two names fit.
4. Questions, opinions ("I think", "best", "beautiful"), advice (imperatives, "you
   should"), greetings and exclamations are ``outside_scope``.
5. Identical or near-identical claims are merged (the first is kept, ``duplicates``
   counts the rest): rapidfuzz ``token_sort_ratio`` >= ``DEDUP_RATIO`` with the same numbers
   and the same negations.

Any other language passes through at sentence level. The span of a claim covers the
material it was built from: ``text[start:end]`` is that stretch of the original text.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any

from claims.answers import answered_question
from claims.blocks import Block, layout
from claims.dedupe import DEDUP_RATIO, dedupe
from claims.facets.vocabulary import data_lines
from claims.language import detect_language
from claims.parses import DISABLE, entity_type, parser, recognise, remember, repair_many
from claims.scope import is_outside_scope, outside_scope_reason
from claims.sentences import split_sentences
from claims.types import Claim, ClaimKind, odd_input

__all__ = [
    "decompose",
    "decompose_many",
    "split_sentences",
    "outside_scope_reason",
    "DEDUP_RATIO",
    "is_outside_scope",
    "parser",
]

#: Longest sentence (characters) handed to the parser; longer ones stay whole.
MAX_PARSE_CHARS = 600

# Citation marks and wiki clutter dropped from claim texts (not from spans).
_CLUTTER = re.compile(
    r"\[\s*(?:\d{1,3}|[a-z]|edit|citation needed|dead link|note \d+|clarification needed|who\?|when\?)\s*\]"
    r"|(?:^|\s)\^(?=\s|$)",
    re.IGNORECASE,
)
# A citation mark stuck to the word or stop before it ("founded in 2001[1] and", "Madrid.[2][3]"):
# read as blanks (same length, so spans stay), else the parser takes "2001[1" for a word and the
# sentence splitter misses the stop before it. A bracket after a blank or "(" (a JSON array, a
# reference list) is left alone, as is a Markdown link "[1](...)".
_CITATION = re.compile(r"(?<=[\w.,;:!?)\"'’”])(?:\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\])+(?!\()")


# --- parsing ------------------------------------------------------------------------------


def _is_person(tok: Any) -> bool:
    return entity_type(tok) == "PERSON"


_SUBJ = {"nsubj", "nsubjpass", "csubj", "expl"}
_CLAUSE_END = {",", ".", ";", "!", "?", "-", "\u2013", "\u2014", ")"}
_PLACE = {"GPE", "LOC", "FAC"}
_RAISING = {
    "seems",
    "seemed",
    "appears",
    "appeared",
    "remains",
    "remained",
    "becomes",
    "became",
    "takes",
    "took",
}
_CLAUSE_DEPS = {"conj"}
_MOD_CLAUSE = {"acl", "relcl"}
_PRONOUN_SUBJ = {"he", "she", "it", "they", "this", "that", "these", "those"}
_PRONOUN_POSS = {"his", "her", "its", "their"}
_RELATIVE = {"who", "which", "that", "whom", "whose", "where", "when"}


@dataclass(frozen=True, slots=True)
class _Piece:
    """One clause: token indices taken from the sentence, plus replacements."""

    tokens: frozenset[int]
    prefix: str = ""  # text put before the tokens (a subject carried over)
    suffix: str = ""  # text put after the tokens (a temporal anchor: "when X won the prize")
    replace: tuple[tuple[int, str], ...] = ()
    imperative: bool = False


def _subtree(tok: Any) -> set[int]:
    return {t.i for t in tok.subtree}


def _noun_conjuncts(tok: Any) -> list[Any]:
    out = []
    for c in tok.children:
        if c.dep_ == "conj" and c.pos_ in {"NOUN", "PROPN", "NUM", "ADJ", "PRON"} and not _after_nor(c):
            # "sells neither cars nor bikes" stays whole: apart it would say "sells bikes"
            out.append(c)
            out.extend(_noun_conjuncts(c))
    return out


def _own_span(tok: Any) -> set[int]:
    """A conjunct's own material: its subtree without further conjuncts, cc and commas."""
    drop: set[int] = set()
    for c in tok.children:
        if c.dep_ == "conj" or c.dep_ == "cc" or (c.dep_ == "punct" and c.i > tok.i):
            drop |= _subtree(c)
        if c.dep_ == "preconj":
            drop |= _subtree(c)
    return _subtree(tok) - drop


def _subject(verb: Any) -> Any | None:
    for c in verb.children:
        if c.dep_ in _SUBJ:
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


def _clause_tokens(verb: Any) -> set[int]:
    """The verb's subtree minus coordinated clauses (and their cc/punct) and noun modifiers'
    clauses that become claims of their own. A conjunction the parser hung on a word of the
    clause, right before a coordinated clause ("tracks the music you listen to and
    automatically adds it", "was re-elected in 2004 and co-wrote"), goes with its comma: kept,
    it ended the claim with "and."."""
    toks = _subtree(verb)
    has_verb_conj = any(_is_verb_conj(d) for d in verb.children)
    doc = verb.doc
    for c in verb.children:
        if _is_verb_conj(c) or (c.dep_ == "cc" and has_verb_conj):
            toks -= _subtree(c)
            cc = _cc_before(c) if _is_verb_conj(c) else None
            # a joining word (a merged title labelled "cc", "Faith and Devotion", is none)
            if cc is not None and cc.i in toks and cc.pos_ == "CCONJ" and cc.lower_ in _AND_LIKE:
                toks.discard(cc.i)
                if cc.i - 1 in toks and doc[cc.i - 1].text == ",":
                    toks.discard(cc.i - 1)
    return toks


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
        and entity_type(noun) not in _PLACE - {"FAC"}
        and any(k.dep_ == "det" for k in appos.children)
        and not any(doc[k].dep_ == "cc" for k in range(appos.left_edge.i, appos.right_edge.i + 1))
    )


#: verbs of consequence: "..., which killed 26,000 people" after a place or a year tells what
#: the event did, not what the place or year did
_CONSEQUENCE_VERBS = frozenset(
    {
        *("killed", "caused", "led", "triggered", "resulted", "prompted", "sparked", "made", "marked"),
        *("meant", "allowed", "enabled", "forced", "surprised", "shocked", "angered", "left", "drew"),
        "brought",
    }
)


def _event_which(noun: Any, clause: Any) -> bool:
    """A "which" clause about the whole event before it, not about ``noun``: after a number or
    year ("failed in 1975, which killed 26,000 people", not "1975 killed ..."), or with a verb
    of consequence after a prepositional object ("moved to Texas, which led to layoffs"). Such
    a sentence stays whole."""
    if clause.dep_ != "relcl" or not any(k.lower_ == "which" and k.dep_ == "nsubj" for k in clause.children):
        return False
    return noun.pos_ == "NUM" or (noun.dep_ == "pobj" and clause.lower_ in _CONSEQUENCE_VERBS)


def _trimmable(tok: Any) -> bool:
    """Punctuation a claim may lose at its edges; a unit written as a sign ("4.5%") is none."""
    return bool(tok.is_punct) and tok.text not in ("%", "‰", "°")


def _detach_modifiers(toks: set[int], doc: Any) -> tuple[set[int], list[tuple[Any, Any]]]:
    """Remove non-restrictive (comma-set) appositions and participial/relative clauses from
    ``toks``; return the rest and the ``(noun, modifier)`` pairs removed."""
    mods: list[tuple[Any, Any]] = []
    for noun in [doc[i] for i in sorted(toks)]:
        if noun.pos_ not in {"NOUN", "PROPN", "NUM"} or noun.i not in toks:
            continue
        for c in noun.children:
            if c.dep_ not in _MOD_CLAUSE | {"appos"} or c.i not in toks or c.i < noun.i:
                continue
            if c.dep_ == "appos" and not _describing_appos(noun, c, doc) or _event_which(noun, c):
                continue
            left = c.left_edge.i - 1
            if not (left >= 0 and doc[left].text == ","):
                continue
            right = c.right_edge.i + 1
            # a set-off clause ends at a comma, a dash or the end of the sentence
            if right < len(doc) and doc[right].text not in _CLAUSE_END:
                continue
            toks -= {t.i for t in c.subtree}
            for p in (left, c.right_edge.i + 1):
                if 0 <= p < len(doc) and doc[p].text in {",", "-", "–", "—"} and p in toks:
                    toks.discard(p)
            mods.append((noun, c))
    return toks, mods


def _render(doc: Any, piece: _Piece) -> str:
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
        if out[:1].isupper() and not _is_proper(doc, idx[0]):
            out = out[:1].lower() + out[1:]
        out = f"{piece.prefix} {out}"
    if piece.suffix:
        out = re.sub(r"[.!]$", "", out) + " " + piece.suffix
    return out[:1].upper() + out[1:] if out else out


def _is_proper(doc: Any, i: int) -> bool:
    return bool(doc[i].pos_ == "PROPN" or doc[i].text == "I")


def _np_text(tok: Any) -> str:
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
            keep |= _subtree(c)
    lo, hi = min(keep), max(keep)
    span = tok.doc[lo : hi + 1]
    return str(span.text)


def _is_verb_conj(tok: Any) -> bool:
    """A coordinated verb, also one tagged as a noun but taking an object ("holds 3,000
    paintings but displays only 400": "displays" NNS with a dobj). Not after "nor" without a
    subject of its own: "He was neither arrested nor charged" stays one (denied) claim, where
    apart it would give "He was charged"."""
    return bool(
        tok.dep_ == "conj"
        and (tok.pos_ in {"VERB", "AUX"} or any(k.dep_ == "dobj" for k in tok.children))
        and _joined(tok)
        and not _stranded_before(tok)
        and not (_after_nor(tok) and _subject(tok) is None)
        and not (_after_or(tok) and _subject(tok) is None)
    )


def _stranded_before(conj: Any) -> bool:
    """The clause before ``conj`` ends in a preposition without its object, which it shares with
    ``conj``'s ("Many shops depend on and sell the brand", "applied for, and won, the grant"):
    apart, "Many shops depend on." says nothing, so the sentence stays whole."""
    if _subject(conj) is not None:  # "... holding the edges in but, as it spins, stuff wants ..."
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


def _after_nor(tok: Any) -> bool:
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


def _clause_heads(root: Any) -> list[Any]:
    """The root and every verb coordinated with it, in tree order."""
    verbs = [root]
    stack = [root]
    while stack:
        v = stack.pop()
        for c in v.children:
            if _is_verb_conj(c):
                verbs.append(c)
                stack.append(c)
    return verbs


def _list_heads(v: Any, toks: set[int]) -> list[Any]:
    """Where a coordinated list may sit: the verb's objects and complements. A list inside a
    prepositional phrase stays whole: common nouns there usually restrict ("a professor of
    linguistics and computer science"), and names are often a place hierarchy misparsed as a
    list ("born in Maine Township, Otter Tail County, Minnesota")."""
    return [c for c in v.children if c.dep_ in {"dobj", "attr", "acomp", "oprd"} and c.i in toks]


def _coordinated_pieces(v: Any, toks: set[int], prefix: str, imperative: bool) -> list[_Piece]:
    """One piece per member of a coordinated object or complement, or ``[]`` if none.

    A range ("between €12 and €18") is one value, not a list; a comma inside the first
    member's own modifiers means a misparsed modifier list ("a dance-pop, hip hop and R&B
    song"), which stays whole."""
    for c in _list_heads(v, toks):
        if _enumerates(v, c):
            continue
        conj = _noun_conjuncts(c)
        # (not the hyphen of "Wi-Fi")
        listed_mods = any(k.dep_ == "punct" and k.i < c.i and k.text not in ("-", "‐") for k in c.children)
        ranged = c.head.lower_ == "between" or any(k.lower_ == "between" for k in c.children)
        if not conj or len(conj) > 8 or listed_mods or ranged or not _splittable(v, [c, *conj]):
            continue
        all_conj_toks: set[int] = set()
        for k in conj:
            all_conj_toks |= _subtree(k)
        for cc in c.children:
            if cc.dep_ in {"cc", "punct", "preconj"} and cc.i > c.i:
                all_conj_toks |= _subtree(cc)
        # "was both a painter and an engineer": "both" goes with the list
        base = (
            toks
            - (_subtree(c) | all_conj_toks)
            - {k.i for k in v.children if k.lower_ == "both" and k.i < c.i}
        )
        pieces = [
            _Piece(
                frozenset(base | _own_span(member)),
                prefix=prefix,
                imperative=imperative,
                replace=_shared_article(c, member),
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


def _splittable(v: Any, members: list[Any]) -> bool:
    """A list whose members each hold apart: joined by "and" ("as well as", "but not"); a
    choice ("either Sydney or Canberra", "fever or chills") or a replacement ("medicine instead
    of law") holds only whole, except under a negation of the verb ("did not confirm the layoffs
    or the closure" denies each)."""
    words = {k.lower_ for m in members for k in m.children if k.dep_ in ("cc", "preconj")}
    if words <= _SPLIT_CONJUNCTIONS:
        return True
    return words <= _SPLIT_CONJUNCTIONS | {"or"} and "either" not in words and _negated(v)


_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})


def _enumerates(v: Any, c: Any) -> bool:
    """A list of common words after "are" that names the members of a plural subject ("The
    three primary colors are red, yellow and blue", "The ingredients are flour, water and
    salt"): apart, "The three primary colors are red" reads false. Such a list stays whole; a
    list of names is split ("The founders were Erik Hersman, ..."), each name checked."""
    subj = _subject(v)
    if v.lower_ not in _BE or c.pos_ == "PROPN" or subj is None or subj.tag_ not in ("NNS", "NNPS"):
        return False
    # adjectives enumerate only a counted subject ("The three primary colors are red, ..."):
    # "The bridges are long and narrow" says both of every bridge
    return c.dep_ == "attr" or (c.dep_ == "acomp" and any(k.dep_ == "nummod" for k in subj.children))


def _contrasted(v: Any, member: Any, piece: _Piece) -> _Piece:
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
        if t.dep_ != "conj" and (conj := _noun_conjuncts(t)) and all(k.i in toks for k in conj)
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


def _singular_noun(word: str) -> str:
    """The singular of a regular plural noun ("capitals" -> "capital", "cities" -> "city")."""
    if re.search(r"[^aeiou]ies$", word):
        return word[:-3] + "y"
    if re.search(r"(?:ch|sh|ss|x)es$", word):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


_SCALE_WORDS = frozenset({"thousand", "million", "billion", "trillion"})


def _shares_a_scale(members: list[Any]) -> bool:
    """A list of numbers whose last member's scale word goes for all ("2 and 3 million")."""
    last = members[-1]
    after = last.doc[last.i + 1] if last.i + 1 < len(last.doc) else None
    return last.lower_ in _SCALE_WORDS or bool(
        last.like_num and after is not None and after.lower_ in _SCALE_WORDS
    )


def _respective_pieces(v: Any, toks: set[int], prefix: str) -> list[_Piece]:
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
        or _subject(v) is None
        or any(_shares_a_scale(m) for m in paired)
        or any(
            m[0].dep_ in ("nmod", "compound", "amod", "poss") for m in paired
        )  # "The iPhone 15 and iPhone 15 Pro"
    ):
        # three lists, a misparse without a subject, or "2 and 3 million dollars" (the scale
        # goes for both): the sentence stays whole rather than pair the wrong words
        return [_Piece(frozenset(toks), prefix=prefix)]
    listed: set[int] = {resp.i} | ({resp.i - 1} if doc[resp.i - 1].is_punct else set())
    for members in paired:
        for m in members:
            listed |= _subtree(m)
    base = toks - listed
    subject = _subject(v)
    plural = [a for a in (v, *v.children) if a.i in base and a.dep_ in ("ROOT", "aux", "auxpass", "conj")]
    agree = subject is not None and any(subject.i == members[0].i for members in paired)
    replace = tuple((a.i, _third_person(a)) for a in plural if agree and _third_person(a) != a.text)
    # "Paris and Rome are the capitals of ..." -> "Paris is the capital of ..."
    nouns = [k for k in v.children if agree and k.dep_ == "attr" and k.tag_ == "NNS" and k.i in base]
    replace += tuple((k.i, _singular_noun(k.text)) for k in nouns)
    return [
        _Piece(
            frozenset(base.union(*(_own_span(members[n]) for members in paired))),
            prefix=prefix,
            replace=replace,
        )
        for n in range(len(paired[0]))
    ]


def _where_place(noun: Any, clause: Any) -> Any:
    """The place a "where" clause is about: its noun, or when spaCy hung it on a year ("exiled
    to Elba in 1814, where he stayed") the last proper noun before that year."""
    if not noun.like_num:
        return noun
    names = [t for t in noun.doc[: noun.i] if t.pos_ == "PROPN" and t.dep_ == "pobj" and t.i < clause.i]
    return names[-1] if names else noun


def _shared_article(first: Any, member: Any) -> tuple[tuple[int, str], ...]:
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
    start = min(_own_span(member))
    word = member.doc[start]
    if word.dep_ in ("det", "poss", "nummod") or not word.text[:1].isalpha():
        return ()
    return ((start, f"{_indefinite(word.text)} {word.text}"),)


def _indefinite(word: str) -> str:
    """ "a" or "an" before ``word``, by its spelling: "an actress", "a university", "an hour"."""
    low = word.lower()
    if low.startswith(_A_BEFORE_VOWEL):
        return "a"
    return "an" if low[:1] in "aeiou" or low.startswith(("hour", "honest", "honou", "heir")) else "a"


#: words spelt with a vowel that sound with a consonant ("a university", "a European")
_A_BEFORE_VOWEL = (
    "univers",
    "unique",
    "unit",
    "union",
    "uniform",
    "use",
    "usual",
    "euro",
    "one",
    "once",
    "ukrain",
)


def _modifier_pieces(doc: Any, mods: list[tuple[Any, Any]]) -> list[_Piece]:
    """Claims from appositions and clauses detached from their noun (``_detach_modifiers``)."""
    pieces: list[_Piece] = []
    for noun, m in mods:
        head = _np_text(noun)
        mt = _own_span(m) if m.dep_ == "appos" else _subtree(m)
        if m.dep_ == "appos":
            # a reduced relative inside the apposition ("a 610-metre span designed by
            # Per Lunde") describes the same thing: a claim of its own about the noun
            mt, inner = _appos_relatives(m, mt, head)
            pieces.extend(inner)
        # the clause's own relative pronoun goes; a nested clause keeps its own ("aims to
        # champion initiatives that call for trust")
        own = {m.i, *(k.i for k in m.children if _is_verb_conj(k))}
        mt = {
            i
            for i in mt
            if not (
                doc[i].dep_ in {"nsubj", "nsubjpass", "dobj"}
                and doc[i].lower_ in _RELATIVE
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
            pieces.append(_Piece(frozenset(mt), prefix=f"{head} is"))
        elif m.dep_ == "acl" and m.tag_ == "VBN":
            pieces.append(_Piece(frozenset(mt), prefix=f"{head} was"))
        elif m.dep_ == "acl" and m.tag_ == "VBG":
            pieces.append(_Piece(frozenset(mt), prefix=f"{head}"))
        else:
            # a clause misparsed as the subject's modifier may hold coordinated verbs
            # ("The bridge, designed by ..., opened in 1998 and is 1,420 metres long"):
            # one claim per verb, each with the subject
            conj_verbs = [k for k in m.children if _is_verb_conj(k)]
            if conj_verbs:
                pieces.append(_Piece(frozenset(mt & _clause_tokens(m)), prefix=head))
                for k in conj_verbs:
                    pieces.append(_Piece(frozenset(mt & _clause_tokens(k)), prefix=head))
            else:
                pieces.append(_Piece(frozenset(mt), prefix=head))
    return pieces


def _relative_piece(noun: Any, m: Any, mt: set[int], head: str, own: set[int]) -> _Piece | None:
    """The claim of a relative clause ``m`` on ``noun`` (its tokens ``mt``, relative pronoun
    gone) that needs more than the noun put before it: a possessive "whose", a "when"/"where"
    of a time or place, or an object pronoun; None for the other clauses."""
    doc = noun.doc
    when = next((k for k in m.children if k.dep_ == "advmod" and k.lower_ in ("when", "where")), None)
    whose = next((doc[i] for i in mt if doc[i].lower_ == "whose" and doc[i].head.head.i in own), None)
    if whose is not None:
        # "the Bristol Choral Society, whose concerts are held in Bath" -> "The Bristol
        # Choral Society's concerts are held in Bath"
        return _Piece(frozenset(mt), replace=((whose.i, _possessive(head)),))
    if when is not None:
        # "since 2011, when it was created" -> "it was created in 2011" (not "2011 when ...")
        place = _where_place(noun, m) if when.lower_ == "where" else noun
        prep = place.head.lower_ if place.dep_ == "pobj" and place.head.lower_ in ("in", "on", "at") else "in"
        return _Piece(frozenset(mt - {when.i}), suffix=f"{prep} {_np_text(place)}")
    obj = _relative_object(m)
    if obj is not None:
        # "The Model T, which Ford introduced in 1908" -> "Ford introduced the Model T in
        # 1908" (not "The Model T Ford introduced in 1908")
        named = head[:1].lower() + head[1:] if head.split()[0] in ("The", "A", "An") else head
        return _Piece(frozenset(mt - {obj.i}), replace=((m.i, f"{m.text} {named}"),))
    return None


def _relative_object(clause: Any) -> Any | None:
    """The relative pronoun that is the object of a relative clause with a subject of its own
    ("which" in "which Ford introduced in 1908"), or None."""
    if not any(k.dep_ in ("nsubj", "nsubjpass") and k.lower_ not in _RELATIVE for k in clause.children):
        return None
    return next(
        (k for k in clause.children if k.dep_ == "dobj" and k.lower_ in _RELATIVE and k.i < clause.i), None
    )


def _shared_complements(v: Any) -> set[int]:
    """Tokens a bare passive participle shares with the participles coordinated after it: "The
    film was written and directed by Greta Gerwig" -> "The film was written by Greta Gerwig"
    (not "The film was written."), "Chen was born and raised in New York" -> "... born in New
    York". Only in a passive: an active verb may be intransitive ("He sang and played the
    guitar" is no "sang the guitar")."""
    if (
        not _passive(v)
        or _complements(v)
        or any(k.dep_ == "cc" and k.lower_ in ("but", "yet") for k in v.children)
    ):
        return set()
    c = next((k for k in v.children if _is_verb_conj(k)), None)
    while c is not None and not _complements(c):
        c = next((k for k in c.children if _is_verb_conj(k)), None)
    if c is None or any(
        k.dep_ in _OWN_CLAUSE_DEPS or (k.i < c.i and k.dep_ not in ("cc", "punct")) for k in c.children
    ):
        # "Jobs was ousted, but he returned in 1997", "was stolen and later recovered by police"
        return set()
    # only an agent and a place or time are shared: "arrested and charged with fraud" is no
    # "arrested with fraud", "captured and burned to the ground" no "captured to the ground"
    shared = [
        k for k in _complements(c) if k.dep_ == "agent" or (k.dep_ == "prep" and k.lower_ in _SHARED_PREPS)
    ]
    return {i for k in shared for i in _subtree(k)}


#: prepositions whose phrase a bare passive participle shares with the next ("born and raised in")
_SHARED_PREPS = frozenset({"in", "at", "on", "during"})


def _complements(v: Any) -> list[Any]:
    """The dependents after ``v`` other than conjuncts and punctuation."""
    return [k for k in v.children if k.i > v.i and k.dep_ not in ("cc", "conj", "punct")]


def _passive(v: Any) -> bool:
    """``v`` is a passive participle: it has a passive auxiliary, or is coordinated with one."""
    while True:
        if any(k.dep_ == "auxpass" for k in v.children):
            return True
        if v.dep_ != "conj" or v.tag_ not in ("VBN", "VBD"):
            return False
        v = v.head


def _shared_auxiliaries(v: Any) -> str:
    """The auxiliaries a coordinated verb shares with the verb before it, for a participle or
    bare verb without auxiliaries or subject of its own: "It was shown in May and given a
    release in June" -> "was", "will be closed in May and reopened in June" -> "will be",
    "will close and reopen" -> "will", "has won two titles and reached the final" -> "has".
    spaCy tags a regular "-ed" conjunct as past tense whichever it is: after a passive alone it
    shares nothing ("He was born in 1950 and died in 2010"), after a modal it shares the modal
    and a passive "be", after an active perfect the perfect; after "has been" nothing ("has been
    sued and lost in court" is active, "has been adopted and used on labels" passive). A
    negation is not shared ("was not shown and given a release" is ambiguous)."""
    if v.tag_ not in ("VBN", "VB", "VBD") or any(k.dep_ in _OWN_CLAUSE_DEPS for k in v.children):
        return ""
    head = v.head
    while head.dep_ == "conj" and not any(k.dep_ in ("aux", "auxpass") for k in head.children):
        head = head.head
    auxes = [k for k in head.children if k.dep_ in ("aux", "auxpass") and k.i < head.i]
    modal = [k for k in auxes if k.tag_ == "MD"]
    perfect = [k for k in auxes if k.lower_ in ("has", "have", "had")]
    passive = any(k.dep_ == "auxpass" for k in auxes)
    if v.tag_ == "VB":
        auxes = modal
    elif v.tag_ == "VBD" and modal:
        auxes = [k for k in auxes if k in modal or k.lower_ == "be"]
    elif v.tag_ == "VBD":
        # after "has been ..." a past form may be active ("has been sued and lost in court") or
        # passive ("has been adopted and used on labels"): nothing is shared
        auxes = [] if passive else perfect
    elif not passive and not perfect:
        return ""
    elif perfect and passive and not any(k.dep_ == "agent" for k in v.children):
        return ""  # "has been sued by Apple and lost in court": no agent, maybe active
    return " ".join(k.text for k in auxes)


#: adverbs between the subject and the first verb that qualify every verb of the subject
#: ("The suspect allegedly stole a car and fled" -> "The suspect allegedly fled")
_SHARED_HEDGES = frozenset(
    {
        *("allegedly", "reportedly", "reputedly", "supposedly", "purportedly", "apparently"),
        *("possibly", "probably", "likely", "perhaps", "potentially"),
    }
)


def _shared_lead(root: Any, subj: Any, v: Any, *, sources_only: bool = False) -> tuple[str, str]:
    """What the root's coordinated verb ``v`` shares besides the subject: the lead-in set off
    before the subject ("According to Reuters,", "Unless treated,", "Until 2015,"), and hedging
    adverbs between the subject and the root ("allegedly"). A temporal clause ("When she was
    17,") is a claim of its own (``_detach_adverbials``), not a lead-in; so is a lead-in without
    its comma. A time or place lead-in stays with the first verb when ``v`` sets its own ("In
    2010, Smith joined Google and later founded a startup in 2015"). ``sources_only``: only an
    "According to ..." lead-in (for a clause with a subject of its own)."""
    doc = root.doc
    own_setting = _own_setting(v)
    lead = [
        k
        for k in root.children
        if k.i < subj.left_edge.i
        and k.dep_ in ("prep", "advcl", "advmod", "npadvmod")
        and doc[k.right_edge.i + 1].text == ","
        and not any(m.dep_ in ("mark", "advmod") and m.lower_ in _TEMPORAL_MARKS for m in k.children)
        and not (own_setting and k.dep_ != "advcl" and k.lower_ != "according")
        and (k.lower_ == "according" or not sources_only)
    ]
    text = " ".join(f"{doc[k.left_edge.i : k.right_edge.i + 1].text}," for k in lead)
    hedges = [
        k
        for k in root.children
        if k.dep_ == "advmod" and subj.i < k.i < root.i and k.lower_ in _SHARED_HEDGES
    ]
    return text, " ".join(k.text for k in hedges)


#: adverbs that give a coordinated verb a time of its own ("and later founded a startup")
_OWN_TIME = frozenset({"later", "then", "subsequently", "afterwards", "eventually", "again", "now", "soon"})


def _own_setting(v: Any) -> bool:
    """``v`` has a time or place of its own: such an adverb, or a prepositional phrase of time or
    place or with a number (not a number in its object: "and had 300 employees")."""
    return any(
        (k.dep_ == "advmod" and k.lower_ in _OWN_TIME)
        or k.dep_ == "npadvmod"
        or (
            k.dep_ == "prep"
            and (k.lower_ in ("in", "on", "at", "during", "by") or any(t.like_num for t in k.subtree))
        )
        for k in v.children
        if k.dep_ not in ("nsubj", "nsubjpass")
    )


#: a verb with one of these children has its own clause: it shares no auxiliary
_OWN_CLAUSE_DEPS = frozenset({"aux", "auxpass", "nsubj", "nsubjpass", "expl"})


def _clause_pieces(doc: Any, v: Any, root: Any) -> list[_Piece]:
    """The claims of one clause head ``v``: the clause itself (split per coordinated object),
    then its adverbial clauses, then its nouns' appositions and relative clauses."""
    root_subj = _subject(root)
    toks = _clause_tokens(v) | _shared_complements(v)
    own_subj = _subject(v)
    prefix = ""
    if own_subj is None and v is not root and root_subj is not None:
        # carry the shared subject ("It was completed ... and [it] is 520 metres long")
        prefix_toks, _ = _detach_modifiers(_subtree(root_subj), doc)
        subject = _render(doc, _Piece(frozenset(prefix_toks)))
        lead, hedges = _shared_lead(root, root_subj, v)
        if lead and not _is_proper(doc, min(prefix_toks)):
            subject = subject[:1].lower() + subject[1:]
        prefix = " ".join(filter(None, (lead, subject, hedges, _shared_auxiliaries(v))))
    elif own_subj is not None and v is not root and root_subj is not None:
        # a source goes for every clause it leads ("According to the report, sales fell, but
        # profits rose": not the bare "Profits rose.")
        prefix = _shared_lead(root, root_subj, v, sources_only=True)[0]
    # subjects' appositions / participial clauses become claims of their own
    toks, mods = _detach_modifiers(toks, doc)
    sentence_level = v is root and not prefix
    denial = next((m for _, m in mods if _denies_the_clause(m)), None) if sentence_level else None
    judged = _judging_noun(v) if sentence_level else None
    if judged is not None:
        # "Bats are blind, a common myth (that persists today)" -> "It is false that bats are blind"
        toks -= _subtree(judged) | {judged.left_edge.i - 1}
        prefix = "It is false that"
    elif denial is not None:
        # "X is visible from space, which is a common myth" -> "It is false that X is visible
        # from space" (not "Space is a common myth")
        mods = [(n, m) for n, m in mods if m is not denial]
        prefix = "It is false that"
    # temporal clauses ("when she was 17") and set-off participles ("..., marking her
    # debut in ...") become claims of their own
    toks, adverbials = _detach_adverbials(v, toks, doc, root_subj)
    imperative = v is root and own_subj is None and v.tag_ == "VB" and v.i == _first_word(doc)
    pieces = (
        _respective_pieces(v, toks, prefix)
        or _coordinated_pieces(v, toks, prefix, imperative)
        or [_Piece(frozenset(toks), prefix=prefix, imperative=imperative)]
    )
    pieces = [
        replace(p, prefix=f"{p.prefix},") if p.prefix and _set_off_after_cc(v, p) else p for p in pieces
    ]
    return [_denied_by_nor(v, p) for p in pieces] + adverbials + _modifier_pieces(doc, mods)


def _set_off_after_cc(v: Any, piece: _Piece) -> bool:
    """The clause of ``v`` opens with a phrase set off by commas right after its conjunction
    ("and, two years later, became its captain"): the carried subject takes the opening comma
    ("He, two years later, became its captain", not "He two years later, became ...")."""
    doc = v.doc
    idx = sorted(i for i in piece.tokens if doc[i].text != ",")
    first = idx[0] if idx else 0
    if first < 2 or doc[first - 1].text != "," or doc[first - 2].dep_ != "cc":
        return False
    return any(doc[i].text == "," for i in range(first, v.i)) and all(
        i in piece.tokens for i in range(first, v.i)
    )


def _judging_noun(v: Any) -> Any | None:
    """A noun set off by a comma after the clause that judges it false: "Bats are blind, a common
    myth" (spaCy: a second ``attr``, or an apposition); None when there is none."""
    doc = v.doc
    for k in v.children:
        if (
            k.dep_ in ("attr", "appos", "npadvmod")
            and k.lower_ in _DENYING_WORDS
            and k.left_edge.i > v.i + 1
            and doc[k.left_edge.i - 1].text == ","
        ):
            return k
    return None


def _denies_the_clause(m: Any) -> bool:
    """``m`` is a relative clause "which is a (common) myth / false / not true" that ends the
    sentence: it judges the whole clause before it, not the noun it hangs on."""
    if m.dep_ != "relcl" or not any(k.lower_ == "which" and k.dep_ == "nsubj" for k in m.children):
        return False
    if m.right_edge.i < len(m.doc) - 2:
        return False
    return any(k.dep_ in ("attr", "acomp") and k.lower_ in _DENYING_WORDS for k in m.children)


def _denied_by_nor(v: Any, piece: _Piece) -> _Piece:
    """A clause after "nor" with its auxiliary before the subject denies: "The company did not
    acquire Slack, nor did it announce layoffs" -> "It did not announce layoffs" (not "Did it
    announce layoffs", the opposite claim)."""
    nor = v.dep_ == "conj" and _after_nor(v)
    subj = _subject(v)
    aux = next((k for k in v.children if k.dep_ == "aux" and subj is not None and k.i < subj.i), None)
    if not nor or aux is None or aux.i not in piece.tokens:
        return piece
    return replace(
        piece, tokens=piece.tokens - {aux.i}, replace=(*piece.replace, (v.i, f"{aux.lower_} not {v.text}"))
    )


#: demonstratives that, as a subject, point at a whole clause as often as at a noun
_CLAUSE_DEMONSTRATIVES = frozenset({"this", "that"})
#: predicates of a sentence-final "which" clause that deny the clause before it
_DENYING_WORDS = frozenset(
    [
        "false",
        "wrong",
        "incorrect",
        "untrue",
        "inaccurate",
        "misleading",
        "myth",
        "misconception",
        "mistake",
        "error",
        "lie",
        "rumour",
        "rumor",
    ]
)
#: predicates that judge a statement, not a thing ("that is false", "this is not true")
_TRUTH_WORDS = _DENYING_WORDS | frozenset({"true", "right", "correct", "accurate", "case", "exaggeration"})


def _clause_reference(subj: Any | None) -> bool:
    """True when ``subj`` is a demonstrative pronoun subject ("this", "that") of a
    coordinated clause, which refers to the clause before it, not to a noun."""
    return subj is not None and subj.pos_ == "PRON" and subj.lower_ in _CLAUSE_DEMONSTRATIVES


def _judges_statement(subj: Any) -> bool:
    """True when a demonstrative subject's predicate judges a statement ("That is false.",
    "This is a myth."): its antecedent is a clause, so no noun may replace it."""
    if subj.lower_ not in _CLAUSE_DEMONSTRATIVES:
        return False
    preds = [c for c in subj.head.children if c.dep_ in {"acomp", "attr"}]
    return any(p.lower_ in _TRUTH_WORDS for p in preds)


def _split_sentence(doc: Any) -> list[_Piece]:
    """Clauses of one parsed sentence (at least one piece covering the sentence)."""
    all_tokens = frozenset(t.i for t in doc if not t.is_space)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1:
        return [_Piece(all_tokens)]
    heads = _clause_heads(roots[0])
    if any(v is not roots[0] and _clause_reference(_subject(v)) for v in heads):
        # "..., but that is false": the clause judges the clause before it; apart, neither
        # half says what the sentence says, so the sentence stays whole
        return [_Piece(all_tokens)]
    pieces = [p for v in heads for p in _clause_pieces(doc, v, roots[0])]
    pieces = [p for p in pieces if any(not doc[i].is_punct for i in p.tokens)]
    # a bare subject ("The bridge.") is no claim: a piece without a verb and without a
    # prefix that supplies one is dropped when the sentence gives other claims
    with_verb = [p for p in pieces if p.prefix or any(doc[i].pos_ in {"VERB", "AUX"} for i in p.tokens)]
    if with_verb and len(with_verb) < len(pieces):
        kept = {i for p in with_verb for i in p.tokens}
        dropped = {i for p in pieces if p not in with_verb for i in p.tokens} - kept
        if any(doc[i].pos_ in {"NUM", "PROPN"} for i in dropped):
            # a verb misread as a noun ("The monitor refreshes at 144 Hz and costs $300":
            # "refreshes" NNS) would take its values with it: the sentence stays whole
            return [_Piece(all_tokens)]
        pieces = with_verb
    return pieces or [_Piece(all_tokens)]


#: subordinators of a temporal clause that holds a fact of its own ("when she was 17");
#: conditional and causal clauses ("if", "because") stay with their main clause, whose
#: truth depends on them
_TEMPORAL_MARKS = frozenset({"when", "while", "after", "before", "as", "since", "until", "once", "whenever"})
#: past tense of the irregular verbs that head participial clauses most often
#: (``claims/data/gerund_past.tsv``)
_IRREGULAR_PAST: dict[str, str] = {
    gerund: past for gerund, _, past in (line.partition("\t") for _, line in data_lines("gerund_past.tsv"))
}


def _past(gerund: str) -> str:
    """Simple past of an ``-ing`` form ("marking" -> "marked", "stopping" -> "stopped",
    "producing" -> "produced", "studying" -> "studied"); irregular verbs from a table."""
    low = gerund.lower()
    if low in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[low]
    stem = low[:-3] if low.endswith("ing") else low
    if stem.endswith("e"):
        return stem + "d"
    if stem.endswith("y") and len(stem) > 1 and stem[-2] not in "aeiou":
        return stem[:-1] + "ied"
    return stem + "ed"


def _set_off(tok: Any, doc: Any) -> bool:
    """The clause of ``tok`` stands between commas (or the sentence edges)."""
    left, right = tok.left_edge.i - 1, tok.right_edge.i + 1
    left_ok = left < 0 or doc[left].text in {",", "-", "\u2013", "\u2014", "("}
    right_ok = right >= len(doc) or doc[right].text in _CLAUSE_END
    return left_ok and right_ok


def _is_past(verb: Any) -> bool:
    return bool(
        verb.tag_ == "VBD" or any(c.dep_ in {"aux", "auxpass"} and c.tag_ == "VBD" for c in verb.children)
    )


def _participle_piece(part: Any, toks: set[int], subj: Any, past: bool) -> _Piece:
    """A participial clause as a claim about the main clause's subject: "marking her debut"
    -> "<subject> marked her debut"; "built in 1990" -> "<subject> was built in 1990"."""
    doc = part.doc
    plural = subj.tag_ in {"NNS", "NNPS"} or subj.lower_ in {"they", "we"}
    if part.tag_ == "VBN":
        word = f"{'were' if plural else 'was'} {part.text.lower()}"
    elif past:
        word = _past(part.text)
    else:
        word = f"{'are' if plural else 'is'} {part.text.lower()}"
    subject = subj.text if subj.pos_ == "PRON" else _np_text(subj)
    toks = {i for i in toks if not (_trimmable(doc[i]) and (i == min(toks) or i == max(toks)))}
    return _Piece(frozenset(toks), prefix=subject, replace=((part.i, word),))


def _temporal_pieces(verb: Any, clause: Any, mark: Any, sub: set[int], root_subj: Any | None) -> list[_Piece]:
    """The claims of a past temporal clause (``sub``: its tokens; ``mark``: "when", ...)."""
    doc = verb.doc
    inner = sub - _subtree(mark)
    inner, nested = _detach_adverbials(clause, inner, doc, root_subj)
    inner = {i for i in inner if not (_trimmable(doc[i]) and (i == min(inner) or i == max(inner)))}
    if _is_state(clause):
        # a state holds at the time of the main event: "she was 17" -> "<she> was 17 when
        # <X's first role came>"; the main clause stands without it
        return [_Piece(frozenset(inner), suffix=f"{mark.lower_} {_core(verb, doc, root_subj)}"), *nested]
    # an event in a temporal clause is a fact of its own ("when she won the Varga Prize" ->
    # "<she> won the Varga Prize"); the main clause keeps it, whole, as its anchor ("X was
    # 21 when she won the Varga Prize")
    return [_Piece(frozenset(inner)), *nested]


def _participle_pieces(verb: Any, part: Any, sub: set[int], root_subj: Any, past: bool) -> list[_Piece]:
    """The claims of a set-off participial clause ``part`` (``sub``: its tokens)."""
    doc = verb.doc
    finite_conj = _finite_conj(part)
    if not (part.tag_ == "VBN" and finite_conj and part.i > verb.i):
        return [_participle_piece(part, sub, root_subj, past)]
    # "closed in 1968, reopened in 1994 and now serves ...": a misparsed coordination of
    # finite verbs, one claim per verb with the subject
    subject = _np_text(root_subj) if root_subj.pos_ != "PRON" else root_subj.text
    out = []
    for head in [part, *finite_conj]:
        own = (_clause_tokens(head) if head is part else _subtree(head)) & sub
        own -= {i for i in own if _trimmable(doc[i]) and (i == min(own) or i == max(own))}
        out.append(_Piece(frozenset(own), prefix=subject))
    return out


def _finite_conj(verb: Any) -> list[Any]:
    return [k for k in verb.children if k.dep_ == "conj" and k.tag_ in {"VBD", "VBZ", "VBP"}]


def _detach_adverbials(
    verb: Any, toks: set[int], doc: Any, root_subj: Any | None
) -> tuple[set[int], list[_Piece]]:
    """Take temporal clauses with their own subject and comma-set participial clauses out of
    ``verb``'s clause (``toks``); return the rest and one piece per clause taken.

    FActScore (Min et al. 2023) splits "X came in 2006 when she was 17, marking her debut"
    into "X came in 2006", "She was 17", "X marked her debut"; conditional and causal
    clauses stay (the main clause is not a fact without them).
    """
    pieces: list[_Piece] = []
    past = _is_past(verb)
    for a in verb.children:
        if a.dep_ != "advcl" or a.i not in toks:
            continue
        sub = _subtree(a) & toks
        marks = [c for c in a.children if c.dep_ in {"mark", "advmod"} and c.i < a.i]
        # only a past clause is one event ("when he won the 1932 Grand Prix"); a present one
        # states a rule or a condition ("when it is disturbed", "once an animal is slaughtered")
        temporal = (
            len(marks) == 1
            and marks[0].lower_ in _TEMPORAL_MARKS
            and _subject(a) is not None
            and _is_past(a)
            and past
        )
        if temporal and a.pos_ in {"VERB", "AUX"}:
            if _is_state(a):
                toks = toks - sub
            pieces.extend(_temporal_pieces(verb, a, marks[0], sub, root_subj))
        elif (
            not marks
            and a.tag_ in {"VBG", "VBN"}
            and _subject(a) is None
            and root_subj is not None
            and _set_off(a, doc)
            # "Using X, developers ...": a means; "appeared in a film about X, titled Y": a
            # trailing past participle describes the noun before it, not the subject
            and ((a.i < verb.i) == (a.tag_ == "VBN") or _finite_conj(a))
            # an -ing clause after a present verb has no simple form we can build ("Linux is
            # supported ..., making it ..."): it stays with its clause
            and (a.tag_ == "VBN" or past)
        ):
            toks = toks - sub
            pieces.extend(_participle_pieces(verb, a, sub, root_subj, past))
    edge = {i for i in toks if doc[i].text == "," and (i + 1 not in toks or i - 1 not in toks)}
    return toks - edge, pieces


_COPULA = frozenset({"be", "is", "was", "were", "are", "am", "been", "being", "'s", "'re"})
_CORE_DEPS = frozenset(
    {"nsubj", "nsubjpass", "aux", "auxpass", "neg", "dobj", "attr", "acomp", "prt", "dative"}
)


def _is_state(verb: Any) -> bool:
    """A copular clause with a complement ("she was 17", "he was mayor")."""
    return bool(
        verb.lower_ in _COPULA and any(c.dep_ in {"attr", "acomp", "npadvmod"} for c in verb.children)
    )


def _core(verb: Any, doc: Any, shared_subj: Any | None = None) -> str:
    """The verb with its subject, auxiliaries and objects, without adjuncts: the event a
    temporal clause is anchored to ("Nadia Kors's first major stage role came"). A coordinated
    verb without a subject of its own takes ``shared_subj`` ("He moved to Paris and opened a
    bakery when he was 20": "he opened a bakery", not "opened a bakery")."""
    keep = {verb.i}
    if verb.dep_ == "conj" and shared_subj is not None and _subject(verb) is None:
        keep |= _detach_modifiers(_subtree(shared_subj), doc)[0]
    for c in verb.children:
        if c.dep_ in _CORE_DEPS:
            sub = _subtree(c)
            if c.dep_ in {"nsubj", "nsubjpass"}:
                sub, _ = _detach_modifiers(sub, doc)
            keep |= sub
    out = _render(doc, _Piece(frozenset(keep)))
    first = doc[min(keep)]
    return out if _is_proper(doc, first.i) else out[:1].lower() + out[1:]


def _appos_relatives(appos: Any, toks: set[int], head: str) -> tuple[set[int], list[_Piece]]:
    """Reduced relatives on an apposition's noun ("a span designed by Per Lunde") as claims
    about the noun the apposition describes ("<head> was designed by Per Lunde")."""
    out: list[_Piece] = []
    for c in appos.children:
        if c.dep_ != "acl" or c.i < appos.i or c.tag_ not in {"VBN", "VBG"}:
            continue
        sub = _subtree(c) & toks
        toks = toks - sub
        if c.tag_ == "VBN":
            out.append(_Piece(frozenset(sub), prefix=f"{head} was"))
        else:
            out.append(_Piece(frozenset(sub), prefix=head, replace=((c.i, _past(c.text)),)))
    return toks, out


def _first_word(doc: Any) -> int:
    for t in doc:
        if not (t.is_punct or t.is_space):
            return int(t.i)
    return 0


# --- pronoun resolution -------------------------------------------------------------------


def _of_name(prep: Any) -> bool:
    """``prep`` is the "of" of a name that goes on in capitals ("Bank of England")."""
    return bool(
        prep.dep_ == "prep"
        and prep.lower_ == "of"
        and prep.i == prep.head.i + 1
        and all(t.pos_ == "PROPN" or t.i == prep.i or t.lower_ == "the" for t in prep.subtree)
        and len(list(prep.subtree)) > 1
    )


def _core_mention(tok: Any) -> str:
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
            return _core_mention(c)
    return _mention(tok)


def _preconj(tok: Any) -> bool:
    """``tok`` opens with "both", "either" or "neither" (a ``preconj``)."""
    return any(c.dep_ == "preconj" for c in tok.children)


def _mention(tok: Any, *, conjuncts: bool = False) -> str:
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
    return _render(doc, _Piece(frozenset(keep)))


@dataclass(slots=True)
class _Antecedents:
    """The subjects named so far: the last one, the last one containing a proper noun (used
    for he / she, which refer to people, i.e. names), and the last one that is no person (used
    for it / its: "It will be widened" never means the engineer named just before).

    Whether a subject names a person is spaCy's PERSON entity, which needs the entity
    recogniser on its sentence (``claims.parses.entity_type``): it is asked only when "it" / "its" looks
    back, newest subject first, so most sentences are never run through the recogniser."""

    last: str | None = None
    named: str | None = None
    #: (mention, names a person: a bool or a function that finds out, plural), oldest first
    seen: list[tuple[str, bool | Callable[[], bool], bool]] = field(default_factory=list)
    #: the mentions holding a proper noun, oldest first (for definite descriptions)
    names: list[str] = field(default_factory=list)
    #: definite descriptions resolved in this text, lower case -> the name (a subject carried
    #: over to a coordinated verb is the description's text)
    described_as: dict[str, str] = field(default_factory=dict)
    #: the names of people whose sex ``_sex`` knows, anywhere in the sentences so far, oldest first
    people: list[str] = field(default_factory=list)
    named_at: int = 0  # len(people) when ``named`` was set
    #: subject name -> a function giving its entity type (asked only by ``described``)
    types: dict[str, Callable[[], str]] = field(default_factory=dict)

    def _person_for(self, want: str) -> str | None:
        """The person "he" (``want`` "m") or "she" ("f") points at: the last named subject,
        unless its first name or title says the other sex (then the last person of that sex
        named anywhere: "Ada Lovelace worked with Charles Babbage. He ..."), or it is a thing
        or a group (then a person of that sex named since: "Microsoft named Satya Nadella CEO.
        He ..." is never Microsoft). A subject whose sex no list tells, with a person of the
        pronoun's sex named since ("Elon Musk hired Linda Yaccarino. She ..."), is ambiguous:
        None, the pronoun stays, rather than a guess."""
        named = self.named
        if named is None:
            return next((p for p in reversed(self.people) if _sex(p) == want), None)
        sex = _sex(named)
        since = next((p for p in reversed(self.people[self.named_at :]) if _sex(p) == want), None)
        if sex is None and (self._plural(named) or not self._person(named)):
            return since
        if sex is None:
            return named if since is None else None
        if sex == want:
            return named
        return next((p for p in reversed(self.people) if _sex(p) == want), None)

    def _plural(self, mention: str) -> bool:
        return next((pl for m, _, pl in reversed(self.seen) if m == mention), False)

    def _person(self, mention: str) -> bool:
        """Whether ``mention``, a subject seen, names a person (spaCy's PERSON entity)."""
        person = next((p for m, p, _ in reversed(self.seen) if m == mention), False)
        return bool(person() if callable(person) else person)

    @property
    def thing(self) -> str | None:
        """The last subject "it" can point at: a singular that is no person ("The Romans built
        the Colosseum. It ..." never means the Romans)."""
        for mention, person, plural in reversed(self.seen):
            if not plural and not (person() if callable(person) else person):
                return mention
        return None

    @property
    def group(self) -> str | None:
        """The last subject "they" can point at: a plural, or a singular that is no person (a
        band, a company); never one person ("Before they turned professional, Van Roost ...")."""
        for mention, person, plural in reversed(self.seen):
            if plural or not (person() if callable(person) else person):
                return mention
        return None

    def pick(self, pronoun: str, *, copula: bool = False) -> str | None:
        if pronoun in _PRONOUN_SEX:
            # the last named subject, unless its first name or title says the other sex: then
            # the last person of that sex named anywhere ("Ada Lovelace worked with Charles
            # Babbage. He ..."), else none (the pronoun stays: ambiguous, not wrong)
            return self._person_for(_PRONOUN_SEX[pronoun])
        if pronoun in {"it", "its"}:
            return self.thing
        if pronoun in {"they", "their"}:
            return self.group
        # "this" / "that" as the subject of an action mostly points at the event just told
        # ("The bank collapsed in 2008. This triggered a crisis"), which no noun names: left as
        # it is; before "is" it describes the last subject ("This is the longest bridge")
        return self.last if copula else None

    def update(
        self,
        mention: str | None,
        proper: bool,
        person: bool | Callable[[], bool] = False,
        plural: bool = False,
        entity: Callable[[], str] | None = None,
    ) -> None:
        if mention:
            self.last = mention
            if proper:
                self.named, self.named_at = mention, len(self.people)
                self.names.append(mention)
                if entity is not None:
                    self.types[mention] = entity
            self.seen.append((mention, person, plural))

    def described(self, head: str) -> str | None:
        """The one name that the definite description with head noun ``head`` points back to: a
        subject named so far, no person ("Ada Hall" is no hall), whose last word is ``head`` or a
        designator listed for it (``claims/data/definite_descriptions.tsv``). None when no name
        or two different names fit ("the company" after Tessel Corp and Corvin Group). The heads
        of section "organisation" ("the company") also fit a name of any length that spaCy's
        entity recogniser calls an organisation or gives no type ("Tesla"), if no name fits by
        its last word."""
        heads = _description_heads()[0].get(head, frozenset({head}))
        persons = {mention: person for mention, person, _ in self.seen}
        fits = {
            name
            for name in self.names
            if len(words := re.findall(r"[\w'-]+", name.lower())) > 1 and words[-1] in heads
        }
        if not fits and head in _description_heads()[2]:
            # "Tesla was founded in 2003. The company ...": a name the recogniser calls an
            # organisation or leaves untyped (it misses "Tesla" there), no first name of a
            # person, for the heads listed in section "organisation"
            # a name ending in a common noun says what it is ("The Orla Health trial" is a
            # trial, no company): only a proper name fits, else the description stays
            fits = {
                name
                for name in self.names
                if name in self.types
                and _sex(name) is None
                and name.split()[-1][:1].isupper()
                and self.types[name]() in ("ORG", "")
            }
        fits = {n for n in fits if not (p() if callable(p := persons.get(n, False)) else p)}
        return next(iter(fits)) if len(fits) == 1 else None


#: the sex a third-person pronoun refers to
_PRONOUN_SEX = {"he": "m", "his": "m", "she": "f", "her": "f"}
#: titles and nouns of address before a name that say its sex
_TITLES = {
    **dict.fromkeys(("mr", "sir", "king", "lord", "prince", "duke", "emperor", "pope", "father"), "m"),
    **dict.fromkeys(("mrs", "ms", "miss", "lady", "queen", "princess", "duchess", "dame", "empress"), "f"),
}


@lru_cache(maxsize=1)
def _first_names() -> dict[str, str]:
    """First name -> "f" or "m" (``claims/data/first_names.tsv``: the 1990 US Census lists,
    public domain, built by tools/build_first_names.py; names given to both are left out)."""
    return dict(line.split("\t", 1) for _, line in data_lines("first_names.tsv"))


def _sex(mention: str) -> str | None:
    """The sex a person's name says by its title or first name ("Mrs Dalloway", "Ada Lovelace"
    -> "f"; "Charles Babbage" -> "m"); None when neither tells (most names of things, names
    given to both sexes, names the list lacks).

    >>> _sex("Ada Lovelace"), _sex("Sir Tim Berners-Lee"), _sex("The Kestrel Bridge")
    ('f', 'm', None)
    """
    for word in mention.split():
        low = word.lower().rstrip(".")
        if low in _TITLES:
            return _TITLES[low]
        if low != "the":
            return _first_names().get(word.capitalize())
    return None


def _note_people(doc: Any, ante: _Antecedents) -> None:
    """Add the names of people in ``doc`` (any role, not only subjects) to ``ante.people``."""
    for tok, mention in _named_people(doc):
        # "Florence", "Virginia": a first name that is also a place is no person there
        # (spaCy's small model often calls a person ORG, rarely a place GPE)
        if entity_type(tok) not in ("GPE", "LOC", "FAC", "NORP"):
            ante.people.append(mention)


def _names_people(doc: Any) -> bool:
    """``doc`` has a name ``_note_people`` asks the entity recogniser about (False on odd
    input that fails here: the text's own fallback in ``_decompose_batch`` handles it)."""
    try:
        return next(_named_people(doc), None) is not None
    except Exception as exc:  # never fail on odd input
        if not odd_input(exc):
            raise
        return False


def _named_people(doc: Any) -> Iterator[tuple[Any, str]]:
    """(proper-noun head, its mention) of ``doc`` whose name says a sex (``_sex``): the names
    ``_note_people`` asks the entity recogniser about."""
    for tok in doc:
        if tok.pos_ == "PROPN" and tok.dep_ not in ("compound", "flat"):
            mention = _core_mention(tok)
            if _sex(mention) is not None:
                yield tok, mention


@lru_cache(maxsize=1)
def _description_heads() -> tuple[dict[str, frozenset[str]], frozenset[str], frozenset[str]]:
    """(head noun -> the last words of names it can describe, the modifiers that set a thing
    apart: section "contrast", the heads that describe an organisation of any name: section
    "organisation") of ``claims/data/definite_descriptions.tsv``."""
    heads: dict[str, frozenset[str]] = {}
    sections = {"contrast": frozenset[str](), "organisation": frozenset[str]()}
    for _, line in data_lines("definite_descriptions.tsv"):
        head, _, words = line.partition("\t")
        if head.strip() in sections:
            sections[head.strip()] = frozenset(words.split())
        else:
            heads[head.strip()] = frozenset(words.split())
    return heads, sections["contrast"], sections["organisation"]


def _definite_description(subj: Any, piece: _Piece, ante: _Antecedents) -> _Piece | None:
    """The piece with its subject "the [adjectives/nouns] <head>" bound to the name it points
    back to: "The bridge is long" -> "The Halvorsen Bridge is long"; with modifiers the name's
    words join them ("The suspension bridge carries four lanes" -> "The Halvorsen suspension
    bridge carries four lanes", so the claim keeps what the description says). None: not such a
    subject (plural, a name, a possessive, a clause or phrase after the head, a contrasting or
    superlative modifier such as "new", "other", "longest", "only", a copula naming it), or not
    exactly one earlier subject name fits (``_Antecedents.described``)."""
    if subj.pos_ != "NOUN" or subj.tag_ != "NN":
        return None
    kids = list(subj.children)
    det = [c for c in kids if c.dep_ == "det"]
    mods = [c for c in kids if c.dep_ != "det"]
    if len(det) != 1 or det[0].lower_ != "the" or det[0].i != subj.left_edge.i:
        return None
    if any(c.dep_ not in {"amod", "compound"} or c.i > subj.i for c in mods):
        return None
    words = [t for t in subj.subtree if t.i != det[0].i]
    contrast = _description_heads()[1]
    if any(t.pos_ == "PROPN" or t.lower_ in contrast or t.tag_ in {"JJS", "RBS"} for t in words):
        return None  # a name of its own, "the new bridge", "the longest bridge", "the only bridge"
    if subj.head.lemma_ == "be" and any(c.dep_ == "attr" for c in subj.head.children):
        return None  # "The longest bridge is the Hardanger Bridge" names the thing itself
    name = ante.described(subj.lower_)
    if name is None:
        return None
    name_words = name.split()
    if mods and name_words[-1].lower() != subj.lower_:
        return None  # "the chip company" after "Tessel Corp": no natural way to join them
    if mods:  # "the suspension bridge" -> "the Halvorsen suspension bridge": the modifiers stay
        lead = " ".join(name_words[:-1])
        repl = dict(piece.replace) | {det[0].i: lead if lead.lower().startswith("the ") else f"the {lead}"}
        tokens = piece.tokens
        name = _render(subj.doc, _Piece(frozenset(t.i for t in subj.subtree), replace=tuple(repl.items())))
    else:
        repl = dict(piece.replace) | {subj.i: name}
        tokens = piece.tokens - {det[0].i}
    ante.described_as[subj.doc[subj.left_edge.i : subj.i + 1].text.lower()] = name
    return replace(piece, tokens=tokens, replace=tuple(sorted(repl.items())))


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _piece_subject(doc: Any, piece: _Piece) -> Any | None:
    """The subject of the piece's own clause: of its root or a coordinated verb, or of a
    temporal clause split off on its own."""
    for i in sorted(piece.tokens):
        t = doc[i]
        head = t.head
        top = head.dep_ in {"ROOT", "conj"} or (head.dep_ == "advcl" and head.head.i not in piece.tokens)
        if t.dep_ in _SUBJ and head.i in piece.tokens and top:
            return t
    return None


def _expletive(subj: Any) -> bool:
    """A pronoun subject that refers to nothing: "it is important to ...", "it seems that
    ...", "it was reported that ...", or one with its own relative clause."""
    verb = subj.head
    dummy_it = (
        subj.lower_ == "it"
        and any(c.dep_ in {"xcomp", "ccomp", "csubj"} for c in verb.children)
        and (
            verb.pos_ == "AUX"
            or verb.lower_ in _RAISING
            or any(c.dep_ in {"acomp", "attr", "auxpass"} for c in verb.children)
        )
    )
    return dummy_it or any(c.dep_ in {"relcl", "acl"} for c in subj.children)


def _resolve(
    doc: Any, piece: _Piece, ante: _Antecedents
) -> tuple[_Piece, bool, tuple[str, bool, Callable[[], bool], bool, Callable[[], str]] | None]:
    """Replace a subject pronoun (or a possessive pronoun in the subject) by its antecedent.

    Returns the piece, whether a pronoun stayed unresolved (ambiguous), and the subject
    mention this piece introduces with whether it holds a proper noun and whether it names a
    person (spaCy's PERSON entity), i.e. the next antecedent.
    """
    if piece.prefix:
        low = piece.prefix.lower()
        if low in _PRONOUN_SUBJ:
            target = ante.pick(low)
            return (replace(piece, prefix=target), False, None) if target else (piece, True, None)
        if low in ante.described_as:
            return replace(piece, prefix=ante.described_as[low]), False, None
        return piece, False, None
    repl = dict(piece.replace)
    subj = _piece_subject(doc, piece)
    if subj is None:
        return piece, False, None
    if subj.pos_ == "PRON":
        ambiguous = False
        if _judges_statement(subj):
            ambiguous = True
        elif subj.lower_ in _PRONOUN_SUBJ and not _expletive(subj):
            target = (_people_before(subj) if subj.lower_ == "they" else None) or ante.pick(
                subj.lower_, copula=subj.head.lower_ in _BE and not _explains(subj.head)
            )
            if target:
                repl[subj.i] = target
            else:
                ambiguous = True
        return replace(piece, replace=tuple(sorted(repl.items()))), ambiguous, None
    described = _definite_description(subj, piece, ante)
    if described is not None:
        return described, False, None
    ambiguous = _resolve_possessives(subj, piece, ante, repl)
    mention = _core_mention(subj)
    proper = any(doc[i].pos_ == "PROPN" for i in range(subj.left_edge.i, subj.right_edge.i + 1))
    person = partial(_is_person, subj)
    owner = next((c for c in subj.children if c.dep_ == "poss" and c.pos_ == "PROPN"), None)
    if owner is not None and subj.pos_ != "PROPN":
        # "Nadia Kors's first role came ... when she was 17": she/he point at the owner
        ante.update(_core_mention(owner), True, partial(_is_person, owner))
        proper = False
    plural = _plural_subject(subj)
    if any(ch.lower_ in _PRONOUN_POSS for ch in subj.children if ch.dep_ == "poss"):
        mention_out = None  # "its study" names nothing new worth pointing back to
    elif any(c.dep_ == "conj" for c in subj.children):
        # "they" = "Clijsters and Henin"; "Neither Clijsters nor Henin" names no "they"
        joined = all(c.lower_ == "and" for c in subj.children if c.dep_ == "cc")
        mention_out = _mention(subj, conjuncts=True) if joined and not _preconj(subj) else None
    else:
        mention_out = mention
    return (
        replace(piece, replace=tuple(sorted(repl.items()))),
        ambiguous,
        (mention_out, proper, person, plural, partial(entity_type, subj)) if mention_out else None,
    )


def _people_before(pronoun: Any) -> str | None:
    """Two or more people named together earlier in the pronoun's sentence, in any role: "they"
    points at them ("Google was founded by Larry Page and Sergey Brin while they were students"
    is no "Google were students"); None when the sentence names no such list. People are names
    whose first name or title tells a sex (``_sex``) or that spaCy calls a person."""
    for tok in pronoun.doc[: pronoun.i]:
        if tok.pos_ != "PROPN" or tok.dep_ in ("compound", "flat", "conj"):
            continue
        members = [
            tok,
            *(k for k in tok.children if k.dep_ == "conj" and k.pos_ == "PROPN" and k.i < pronoun.i),
        ]
        if len(members) > 1 and all(_sex(_core_mention(m)) is not None or _is_person(m) for m in members):
            return _mention(tok, conjuncts=True)
    return None


#: words after "This is" that explain an event rather than describe a thing ("This is because
#: pressure falls", "This was due to ...", "This is why ...")
_EXPLAINING = frozenset(
    {"because", "due", "why", "how", "what", "partly", "mainly", "largely", "thanks", "since"}
)


def _explains(verb: Any) -> bool:
    """The copula ``verb`` opens an explanation ("This is because ...", "That is why ..."): its
    "this"/"that" points at the event just told, which no noun names (left unresolved)."""
    nxt = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    return nxt is not None and nxt.lower_ in _EXPLAINING


def _plural_subject(subj: Any) -> bool:
    """A subject "they" may point back to: a common plural ("The Romans" with its article) or a
    list; a plural name alone is often one company ("Brenna Foods")."""
    return bool(
        subj.tag_ == "NNS"
        or (subj.tag_ == "NNPS" and any(c.dep_ == "det" for c in subj.children))
        or any(c.dep_ == "conj" for c in subj.children)
    )


def _resolve_possessives(subj: Any, piece: Any, ante: Any, repl: dict[int, str]) -> bool:
    """Bind the possessive pronouns on the subject ("its headquarters") to their antecedent in
    ``repl`` (token index -> text); True when one has no antecedent (the claim is ambiguous)."""
    ambiguous = False
    for c in subj.children:
        if c.dep_ == "poss" and c.lower_ in _PRONOUN_POSS and c.i in piece.tokens:
            target = ante.pick(c.lower_)
            if target:
                repl[c.i] = _possessive(target)
            else:
                ambiguous = True
    return ambiguous


# --- assembling ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Raw:
    text: str
    start: int
    end: int
    kind: ClaimKind
    ambiguous: bool


def _parse_ok(sentence: str) -> bool:
    if len(sentence) > MAX_PARSE_CHARS:
        return False
    letters = sum(ch.isalpha() for ch in sentence)
    latin = sum(("a" <= ch.lower() <= "z") for ch in sentence)
    return letters > 0 and latin / letters > 0.9


@dataclass(frozen=True, slots=True)
class _Sentence:
    """One sentence to parse: its source span and the lead-in parsed before it (a list's
    "The hotel has"); ``analysis`` is what the parser reads."""

    start: int
    end: int
    analysis: str
    lead: int = 0  # characters of ``analysis`` before the source text (lead-in + blank)

    def source(self, pos: int) -> int:
        """Source offset of ``analysis`` offset ``pos`` (lead-in words map to the start)."""
        return self.start + max(0, pos - self.lead)


@dataclass(frozen=True, slots=True)
class _Context:
    """A heading or lead-in: names what follows (an antecedent), never a claim."""

    text: str


_Item = _Sentence | _Raw | _Context


def _plain_claim(text: str, start: int, end: int) -> _Raw | None:
    """A sentence taken whole (another language, or too long to parse)."""
    cleaned = _clean(text[start:end])
    if not cleaned:
        return None
    kind = ClaimKind.OUTSIDE_SCOPE if is_outside_scope(cleaned) else ClaimKind.MATERIAL
    return _Raw(cleaned, start, end, kind, False)


#: a meta lead-in before the answer proper ("Here is a short summary: the shipyard ...")
_META_LEAD = re.compile(
    r"(?:here(?:'s| is| are)|below (?:is|are)|in short|in summary|to summari[sz]e|to sum up)\b"
    r"[^:.!?]{0,60}:\s*",
    re.IGNORECASE,
)


#: a courtesy or apology that opens a sentence with a fact after it ("Sorry, the museum is
#: closed on Mondays.", "Happy to help — the bridge opened in 1989."): the phrase is out of
#: scope, the rest is the claim; it needs a separator mark, so "Sure enough, ..." is no lead
_COURTESY_LEAD = re.compile(
    r"\s*(?:(?:(?:I'?m|I am|we'?re|we are)\s+)?(?:(?:so|very|really|terribly|truly)\s+)?sorry"
    r"|(?:(?:my|our|sincere|many)\s+)*apologies"
    r"|thanks(?:\s+(?:a lot|so much|for (?:asking|your question|the question)))?"
    r"|thank you(?:\s+(?:so much|very much|for (?:asking|your question|the question)))?"
    r"|(?:(?:I'?m|I am|we'?re|we are)\s+)?(?:happy|glad|pleased|delighted) to (?:help|assist|answer|explain)"
    r"|great question|good question|sure|of course|certainly|absolutely|okay|ok|hi|hello|hey"
    r")(?:\s*[,!.:;\u2014\u2013]+|\s+-+)\s*(?:(?:but|however),?\s+)?",
    re.IGNORECASE,
)


def _lead_off(text: str, s: int, e: int) -> tuple[_Raw | None, int]:
    """Split a meta lead-in ("Here is a summary:") or a courtesy/apology ("Sorry,") off the
    sentence ``text[s:e]``: the out-of-scope lead (or ``None``) and the new start."""
    for pattern in (_META_LEAD, _COURTESY_LEAD):
        lead = pattern.match(text, s, e)
        rest = text[lead.end() : e] if lead else ""
        # "Sorry, I don't know": a lead before what is itself out of scope stays with it
        if lead and _clean(rest) and (pattern is _META_LEAD or not is_outside_scope(rest)):
            head = text[s : lead.end()].rstrip()
            return _Raw(head.strip(), s, s + len(head), _OUT, False), lead.end()
    return None, s


def _prose_items(text: str, block: Block, english: bool, lang: str) -> list[_Item]:
    spans = split_sentences(text[block.start : block.end], language=lang)
    out: list[_Item] = []
    for k, (s, e) in enumerate(spans):
        s, e = s + block.start, e + block.start
        if english and k:
            out.extend(_answer_item(text, spans[k - 1][0] + block.start, spans[k - 1][1] + block.start, s, e))
        lead, s = _lead_off(text, s, e)
        if lead is not None:
            out.append(lead)
        if english and _parse_ok(text[s:e]):
            out.append(_Sentence(s, e, text[s:e]))
        else:
            raw = _plain_claim(text, s, e)
            if raw is not None:
                out.append(raw)
    return out


def _answer_item(text: str, qs: int, qe: int, s: int, e: int) -> list[_Item]:
    """The statement of the yes/no question at ``text[qs:qe]`` answered by the sentence at
    ``text[s:e]`` ("Does Jupiter have a solid surface? No."; ``claims.answers``), its span from the
    question's auxiliary to the answer word; nothing when it is no answered question."""
    question = text[qs:qe].rstrip()
    if not question.endswith("?"):
        return []
    found = answered_question(question, text[s:e])
    if found is None:
        return []
    statement, offset, answer_end = found
    return [_Raw(statement, qs + offset, s + answer_end, ClaimKind.MATERIAL, False)]


def _block_items(text: str, source: str, block: Block, english: bool, lang: str) -> list[_Item]:
    """The items of one structural block (see ``claims.blocks``); ``text`` is ``source`` with
    its markup and citation marks blanked."""
    if block.kind == "prose":
        return _prose_items(text, block, english, lang)
    if block.kind == "heading":
        return [_Context(block.text)] if block.text.strip() else []
    if block.kind == "outside":
        return [
            _Raw(source[block.start : block.end].strip() or block.reason, block.start, block.end, _OUT, False)
        ]
    if block.kind == "fact":
        claim = _clean(block.text)
        if not claim:
            return []
        claim = claim if claim.endswith((".", "!", "?", "。")) else claim + "."
        return [_Raw(claim, block.start, block.end, ClaimKind.MATERIAL, False)]
    # a list item: with its lead-in when that is English prose the item continues; an item
    # with no lead-in is a paragraph of its own (a numbered passage of several sentences)
    if not block.lead:
        return _prose_items(text, block, english, lang)
    item = text[block.start : block.end]
    analysis = f"{block.lead} {item}" if block.lead else item
    if english and _parse_ok(analysis):
        return [_Sentence(block.start, block.end, analysis, len(block.lead) + 1 if block.lead else 0)]
    raw = _plain_claim(text, block.start, block.end)
    return [raw] if raw is not None else []


_OUT = ClaimKind.OUTSIDE_SCOPE


def _prepare(text: str) -> list[_Item]:
    """Structure, language and sentences of ``text`` as items in document order."""
    found = layout(text)
    masked = _CITATION.sub(lambda m: " " * len(m.group(0)), found.plain)
    prose = " ".join(masked[b.start : b.end] for b in found.blocks if b.kind in {"prose", "item"})
    lang = detect_language(prose) if prose.strip() else "en"
    english = lang == "en"
    items: list[_Item] = []
    for block in found.blocks:
        items.extend(_block_items(masked, text, block, english, lang))
    return items


def _sentence_raws(sent: _Sentence, doc: Any, ante: _Antecedents) -> list[_Raw]:
    """The claims of one parsed sentence, pronouns resolved against ``ante`` (updated)."""
    out: list[_Raw] = []
    whole_outside = is_outside_scope(sent.analysis) and sent.analysis.rstrip().endswith(("?", "!"))
    for piece in _split_sentence(doc):
        piece, ambiguous, named = _resolve(doc, piece, ante)
        claim_text = _clean(_render(doc, piece))
        if not claim_text:
            continue
        ordered = sorted(piece.tokens)
        # a conjunct's span ends at its own last word, not at the sentence's final mark
        while len(ordered) > 1 and _trimmable(doc[ordered[-1]]) and ordered[-2] != ordered[-1] - 1:
            ordered.pop()
        lo, hi = doc[ordered[0]], doc[ordered[-1]]
        start = sent.source(lo.idx)
        end = max(start, sent.source(hi.idx + len(hi.text)))
        if whole_outside or is_outside_scope(claim_text, imperative=piece.imperative):
            kind = _OUT
            ambiguous = False
        else:
            kind = ClaimKind.MATERIAL
            if named:
                ante.update(*named)
        if not claim_text.endswith((".", "!", "?", "。", "！", "？")) and kind is ClaimKind.MATERIAL:
            claim_text += "."
        out.append(_Raw(claim_text, start, end, kind, ambiguous))
    _note_people(doc, ante)
    return out


def _assemble(items: list[_Item], docs: dict[int, Any]) -> list[_Raw]:
    """Claims of one text from its items; ``docs`` maps item index -> parsed sentence."""
    out: list[_Raw] = []
    ante = _Antecedents()
    for k, item in enumerate(items):
        if isinstance(item, _Context):
            ante.update(item.text, any(w[:1].isupper() for w in item.text.split()))
        elif isinstance(item, _Raw):
            out.append(item)
        elif k in docs:
            out.extend(_sentence_raws(item, docs[k], ante))
        else:
            raw = _plain_claim(item.analysis, 0, len(item.analysis))
            if raw is not None:
                out.append(replace(raw, start=item.start, end=item.end))
    return out


def _clean(text: str) -> str:
    """Drop citation marks and wiki clutter; '' when nothing worth a claim is left."""
    out = re.sub(r"\s{2,}", " ", _CLUTTER.sub(" ", text)).strip()
    out = re.sub(r"\s+([,.;:!?])", r"\1", out)
    if not re.search(r"[^\W\d_]{3,}|\d{2,}|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2}", out):
        return ""
    return out[:1].upper() + out[1:]


def _fallback(text: str) -> list[_Raw]:
    """Sentence-level claims: the answer when the structured path fails on odd input."""
    return [r for s, e in split_sentences(text) if (r := _plain_claim(text, s, e)) is not None]


#: most recent decompositions by text (the same reference is audited again and again)
_CACHE: dict[str, tuple[Claim, ...]] = {}
_CACHE_SIZE = 4096
_cache_lock = threading.Lock()


def _parsed_sentences(nlp: Any, sentences: list[str]) -> list[Any | None]:
    """Repaired parses of ``sentences`` (``repair_many``) from one ``nlp.pipe``, the entity
    recogniser run on those whose people ``_note_people`` will ask about. When the batch fails
    on odd input, each sentence is parsed and repaired alone, and one that fails again is None
    (its text gets sentence-level claims), so that one sentence never fails the others of the
    batch (audits of other users in a bundle)."""
    try:
        docs = repair_many(list(nlp.pipe(sentences, batch_size=64, disable=list(DISABLE))))
    except Exception as exc:
        if not odd_input(exc):
            raise
        docs = [_parsed_alone(nlp, sentence) for sentence in sentences]
    try:
        recognise([doc for doc in docs if doc is not None and _names_people(doc)])
    except Exception as exc:  # entity_type then runs the recogniser one parse at a time
        if not odd_input(exc):
            raise
    return docs


def _parsed_alone(nlp: Any, sentence: str) -> Any | None:
    try:
        return repair_many([nlp(sentence, disable=list(DISABLE))])[0]
    except Exception as exc:
        if not odd_input(exc):
            raise
        return None


def _decompose_batch(texts: list[str]) -> list[tuple[Claim, ...]]:
    """Decompose ``texts`` with one ``nlp.pipe`` over all their parsable sentences."""
    prepared: list[list[_Item] | None] = []
    for text in texts:
        try:
            prepared.append(_prepare(text))
        except Exception as exc:  # never fail on odd input
            if not odd_input(exc):
                raise
            prepared.append(None)
    jobs = [
        (t, k, item.analysis)
        for t, items in enumerate(prepared)
        if items is not None
        for k, item in enumerate(items)
        if isinstance(item, _Sentence)
    ]
    docs: list[dict[int, Any]] = [{} for _ in texts]
    nlp = parser() if jobs else None
    if nlp is not None:
        sentences = _parsed_sentences(nlp, [j[2] for j in jobs])
        for (t, k, _), doc in zip(jobs, sentences, strict=True):
            if doc is None:  # its parse could not be repaired: the text gets sentence-level claims
                prepared[t] = None
                continue
            docs[t][k] = doc
            remember(doc.text, doc)
    out: list[tuple[Claim, ...]] = []
    for text, items, parsed in zip(texts, prepared, docs, strict=True):
        try:
            raw = _assemble(items, parsed) if items is not None else _fallback(text)
        except Exception as exc:  # never fail on odd input: fall back to sentence-level claims
            if not odd_input(exc):
                raise
            raw = _fallback(text)
        if not raw:  # structure that yields nothing (invalid JSON, say): sentence claims
            raw = _fallback(text)
        out.append(tuple(dedupe(raw)))
    return out


def decompose_many(texts: Iterable[str]) -> list[list[Claim]]:
    """Decompose several texts at once: :func:`decompose` for each, with the spaCy parser
    run once over the sentences of all of them (``nlp.pipe``), which is faster than one call
    per text. Same results as ``[decompose(t) for t in texts]``.

    Raises
    ------
    TypeError
        If an element of ``texts`` is not a ``str``.
    claims.types.ModelUnavailable
        A model the decomposition needs (spaCy's pipeline, the language identifier) could not
        be loaded: a broken install (``claims.parses.parser``).
    """
    texts = list(texts)
    for t in texts:
        if not isinstance(t, str):
            raise TypeError(f"decompose needs a str, got {type(t).__name__}")
    with _cache_lock:
        todo = list(dict.fromkeys(t for t in texts if t.strip() and t not in _CACHE))
    if todo:
        done = _decompose_batch(todo)
        with _cache_lock:
            for t, claims in zip(todo, done, strict=True):
                if len(_CACHE) >= _CACHE_SIZE:
                    _CACHE.pop(next(iter(_CACHE)))
                _CACHE[t] = claims
            found = {t: _CACHE[t] for t in texts if t in _CACHE}
        found.update(zip(todo, done, strict=True))
    else:
        with _cache_lock:
            found = {t: _CACHE[t] for t in texts if t in _CACHE}
    return [list(found.get(t, ())) for t in texts]


def decompose(text: str) -> list[Claim]:
    """Decompose ``text`` into atomic, self-contained claims.

    Parameters
    ----------
    text : str
        Any text in any language (English gets clause-level splitting and pronoun
        resolution; other languages sentence-level claims).

    Returns
    -------
    list of Claim
        In document order, ``position`` 0..n-1 after deduplication. Each claim's
        ``[start, end)`` satisfies ``0 <= start <= end <= len(text)`` and covers the
        material the claim was built from. Empty or blank text gives ``[]``.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.
    claims.types.ModelUnavailable
        As ``decompose_many``: a broken install.

    Examples
    --------
    >>> [c.text for c in decompose("The Alder Hotel has a pool and a gym.")]
    ['The Alder Hotel has a pool.', 'The Alder Hotel has a gym.']
    """
    if not isinstance(text, str):
        raise TypeError(f"decompose needs a str, got {type(text).__name__}")
    if not text.strip():
        return []
    return decompose_many([text])[0]
