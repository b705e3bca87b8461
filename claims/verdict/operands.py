"""The operands of an arithmetic relation in a parsed text, for the order check
(``claims.verdict.order.relations``): which side is divided by, or subtracted from, which.

Part of ``claims.verdict`` (its docstring: the method). Read from spaCy's parse:

* division, keyed ``op:divide`` whatever its words (and the name of what the formula defines,
  the subject of its clause: ``op:divide:speed``), so that one wording is compared with
  another and two formulas of two things are not: "A divided by B" (the first operand is the
  word "divided" hangs on, its subject, or the noun just before it, which the parser may tag as
  an adverb: "mass divided by volume"), "the ratio of A to B", and "A over B" / "A per B" where
  A is a bare common noun (no determiner) stated as a copula's or "equals"' complement ("Speed
  is distance over time"; "the bridge over the river" and a name's "Kelby over Orm" are no
  quotient);
* subtraction, keyed ``op:subtract`` with the subtrahend first: "subtract A from B" (any form of
  the verb: "subtracting revenue from cost") and "B minus A".

Addition and multiplication are symmetric: they have no order to compare.
"""

from __future__ import annotations

from typing import Any

from claims.facets.vocabulary import stem_of

#: the key of division and of subtraction (``claims.verdict.relation.Relation.key``)
DIVIDE = "op:divide"
SUBTRACT = "op:subtract"

#: stems (``stem_of``) of the verbs that state a formula: "Speed equals distance over time"
_EQUATING = frozenset(
    stem_of(w) for w in ("is", "equals", "means", "defined", "given", "calculated", "computed")
)

#: words that name an operation, never a modifier of its operand ("minus costs")
OPERATION_WORDS = frozenset(["minus", "plus", "times", "over", "per"])

#: one operation: (key, first operand, second operand, the words that name it)
Operation = tuple[str, Any, Any, str]


def _dep(tok: Any, *deps: str) -> Any | None:
    return next((c for c in tok.children if c.dep_ in deps), None) if tok is not None else None


def _word(tok: Any, lower: str) -> Any | None:
    return next((c for c in tok.children if c.lower_ == lower), None) if tok is not None else None


def _noun_before(tok: Any) -> Any | None:
    """The word just before ``tok`` when it can be an operand: an open-class word, whatever the
    parser tagged it ("mass" an adverb before "divided", "cost" a verb before "minus"), not an
    "-ly" adverb ("simply divided by")."""
    if tok.i == 0:
        return None
    prev = tok.doc[tok.i - 1]
    if not prev.is_alpha or prev.is_stop or prev.lower_.endswith("ly"):
        return None
    return prev if prev.pos_ in ("NOUN", "PROPN", "ADV", "ADJ", "VERB") else None


def _formula_side(tok: Any) -> bool:
    """``tok`` is a bare noun stated as what a copula or an equating verb says the subject is
    ("Speed is distance over time", "Power equals work per time")."""
    if tok.pos_ != "NOUN" or any(c.dep_ in ("det", "poss") for c in tok.children):
        return False
    return tok.dep_ in ("attr", "dobj", "oprd", "acomp") and stem_of(tok.head.text) in _EQUATING


def _named(key: str, tok: Any) -> str:
    """``key`` with the name of what the formula defines: the subject of the nearest clause
    above ``tok`` that has one, in lower case ("Speed is distance over time" ->
    "op:divide:speed"), so that formulas of two things ("Pace is minutes per kilometre" /
    "Speed is kilometres per minute") are not compared; ``key`` alone without such a subject."""
    head, subj = tok, _dep(tok, "nsubj", "nsubjpass")
    while subj is None and head.head.i != head.i:  # up to the clause that has a subject
        head = head.head
        subj = _dep(head, "nsubj", "nsubjpass")
    return f"{key}:{subj.lower_}" if subj is not None and subj.pos_ in ("NOUN", "PROPN") else key


def operation(tok: Any) -> Operation | None:
    """The operation the token ``tok`` of a parsed text names (module docstring), keyed with the
    name of what it defines (``_named``), or None; a side may be None when the parse gives none
    (the caller drops such an operation)."""
    op = _operation(tok)
    return None if op is None else (_named(op[0], tok), op[1], op[2], op[3])


def _operation(tok: Any) -> Operation | None:
    low = tok.lower_
    by = next((c for c in tok.children if c.dep_ in ("agent", "prep") and c.lower_ == "by"), None)
    if low == "divided" and by is not None:  # not "divided into" (the other way round), "among"
        # "volume divided by ..." (a participle of its noun), else its subject or the word before
        a = tok.head if tok.dep_ in ("acl", "amod") else _dep(tok, "nsubjpass", "nsubj") or _noun_before(tok)
        return DIVIDE, a, _dep(by, "pobj"), "divided by"
    if low == "ratio":
        of = _word(tok, "of")
        a = _dep(of, "pobj")
        to = _word(tok, "to") or _dep(a, "prep")
        return DIVIDE, a, _dep(to, "pobj"), "ratio of … to"
    if low in ("over", "per") and tok.dep_ == "prep" and _formula_side(tok.head):
        return DIVIDE, tok.head, _dep(tok, "pobj"), low
    if stem_of(low) == "subtract":
        frm = _word(tok, "from")
        return SUBTRACT, _dep(tok, "dobj", "nsubjpass"), _dep(frm, "pobj"), "subtract … from"
    if low == "minus":
        return SUBTRACT, *_minus_sides(tok), "minus"
    return None


def _minus_sides(tok: Any) -> tuple[Any | None, Any | None]:
    """(subtrahend, minuend) of "B minus A": the parser hangs "minus" between its sides in
    several ways ("revenue minus cost": "minus" a compound of "cost", "revenue" under it)."""
    after = next((t for t in tok.doc[tok.i + 1 : tok.i + 4] if t.pos_ in ("NOUN", "PROPN", "VERB")), None)
    before = _noun_before(tok)
    return after, before
