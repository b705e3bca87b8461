"""Check: a word of the claim replaced by another in the same place of the same statement
("treated with aspirin" / "treated with ibuprofen", "the silver medal" / "the gold medal",
"is the son of" / "is the grandson of").

Part of ``claims.verdict`` (see its docstring for the method). The direct object has its own
check (``clause_checks.object_swap_of``); this one covers the other places a word fills in spaCy's
parse (``claims.parses.parse``):

- the object of a preposition other than one of place or time, under the same head word;
- a noun modifying the same noun ("silver medal" / "gold medal"); adjectives are left alone:
  too many are synonyms ("famous" / "renowned") or describe in two ways ("horror" /
  "independent");
- the relational noun after a copula ("is the son of" / "is the grandson of"; not "is a
  solid" / "is a metal").

It applies only when the reference clause states every other word of the claim (one or two
words missing), and the rival is a plain common word (no name, no modifier of its own) that is
none of the claim's words. Such a claim is unsupported by the rules (both may be true: "treated
with aspirin and rest"); the learned decision may still judge it supported, since the rival can
be a synonym ("a doctor" / "a physician"), which no word list here knows.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from claims.facets import Facets, content_tokens, token_match
from claims.parses import parse
from claims.verdict.findings import Conflict

#: the most claim words a slot swap may leave unstated (the swapped word and one modifier)
MAX_MISSING = 2
_MODIFIERS = frozenset({"amod", "compound", "nmod"})
#: prepositions of place and time: "in the evening" / "in the hotel" fill no common slot
_ADJUNCTS = frozenset({"in", "at", "on", "during", "from", "to", "near", "by", "after", "before"})


def first_stem(tok: Any) -> str | None:
    """The first content token of a spaCy token's text ("voters" -> "voter"), or None."""
    stems = content_tokens(tok.text)
    return stems[0] if stems else None


def _slot(tok: Any) -> tuple[str, ...] | None:
    """Where ``tok`` sits: ("pobj", preposition, stem of the preposition's head), ("mod", stem
    of the modified noun) or ("attr", the copula); None elsewhere."""
    if tok.dep_ == "pobj" and tok.head.dep_ == "prep" and tok.head.lower_ not in _ADJUNCTS:
        anchor = first_stem(tok.head.head) or tok.head.head.lower_
        return ("pobj", tok.head.lower_, anchor)
    if tok.dep_ in _MODIFIERS and tok.pos_ == "NOUN" and tok.head.pos_ in ("NOUN", "PROPN"):
        anchor = first_stem(tok.head)
        return ("mod", anchor) if anchor else None
    if tok.dep_ == "attr" and any(k.dep_ == "prep" and k.lower_ == "of" for k in tok.children):
        # a relation ("is the son of the founder"), not a class ("is a solid", "is a metal")
        return ("attr", tok.head.lower_)
    return None


def _plain_word(tok: Any) -> bool:
    """A common word with no modifier of its own but an article or a prepositional phrase:
    names are the entity checks' ("the DNC" / "the Democratic National Committee"), and a
    described rival ("lanes of the E39 motorway" / "lanes of traffic") is often the same thing
    told in more detail."""
    return tok.pos_ != "PROPN" and all(k.dep_ in ("det", "prep") for k in tok.children)


#: prepositional phrases that are no statement's slot ("the fastest animal in the world" /
#: "in fact")
_IDIOMS = frozenset({"fact", "particular", "general", "addition", "course", "total", "part", "turn", "short"})


def _idiom(tok: Any) -> bool:
    return tok.dep_ == "pobj" and tok.lower_ in _IDIOMS and not any(k.dep_ == "det" for k in tok.children)


def _same_slot(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    if a[0] != b[0] or len(a) != len(b):
        return False
    if a[0] == "pobj":
        return a[1] == b[1] and token_match(a[2], b[2])
    if a[0] == "mod":
        return token_match(a[1], b[1])
    return a[1] == b[1]


def slot_swap(r: Facets, clause_text: str, clause_start: int, covered: AbstractSet[str]) -> Conflict | None:
    """The claim's word whose place the reference clause (``clause_text``, at ``clause_start``
    in its claim) fills with another word, as a conflict of kind "slot" (span in the reference
    claim); None when the claim leaves more than ``MAX_MISSING`` words unstated or no missing word
    has a rival (values are no words: the value checks compare them). Needs spaCy."""
    missing = [t for t in r.tokens if t not in covered]
    if not 1 <= len(missing) <= MAX_MISSING:
        return None
    mine = parse(r.text)
    slotted = [
        (tok, slot)
        for tok in mine or ()
        if tok.pos_ != "PROPN" and first_stem(tok) in missing and (slot := _slot(tok)) is not None
    ]
    # the reference clause is parsed only for a claim word that has a slot (a hot path)
    theirs = parse(clause_text) if slotted else None
    for tok, slot in slotted:
        for o in theirs or ():
            o_stem = first_stem(o)
            if not o_stem or not _plain_word(o) or o.pos_ != tok.pos_ or _idiom(o):
                continue
            o_slot = _slot(o)
            if (
                o_slot is None
                or not _same_slot(slot, o_slot)
                or any(token_match(o_stem, t) for t in r.tokens)
            ):
                continue
            start = clause_start + o.idx
            return Conflict("slot", tok.text, o.text, start, start + len(o.text))
    return None
