"""The aligned pass of the value-slot check: a value's slot found by masked-value similarity over
every reference claim, when the exact pass (``exact``) finds no statement of it.

Part of ``claims.verdict.value_slots`` (its docstring: the method). The exact pass asks the
reference claim to hold the words of the value's own clause and both values to hang on a common
word in the parse; a reference sentence that words the slot otherwise ("raised the salary ... by
13 percent" / "voted against increasing the salary ... by 19%"; "has taken out the title of
Young Entrepreneur of the Year for 2013" / "was awarded Young Entrepreneur of the Year in 2016")
fails one of the two. Here the claim, every value masked, is set against every reference claim,
its values masked (``antecedents.held_share``):

1. the claim holds one value of the kind (with two, which is which is the parse's question)
   and ``ALIGN_MIN_WORDS`` masked words; not an approximation, a bound, an event's year or a
   name (names keep the exact pass);
2. a reference claim names the claim's subject (``text.subject_heads``), its other names (all
   but a subject's: "they" may stand for the subject) and its codes ("SM U-30", as the exact
   pass asks) and states a value of the kind in the same slot: both values
   hang on a common word (``reading.same_slot``) and it covers ``ALIGN_SLOT_COVER`` of the
   claim's masked words, or it covers ``ALIGN_MIN_COVER``, states exactly one value of the
   kind, as the claim does, and each is an argument or adjunct of its sentence's main
   predicate (the time, amount or rank of the statement itself, not of a noun phrase or
   another clause inside it); a count or rank the claim dates (in its clause or an adjunct next
   to it) needs one of its years there;
3. the decision is the exact pass's (``reading.decide``: the claim's value stated, a list or a
   range, several other values -> no conflict), and any reference claim that covers
   ``ALIGN_VETO_COVER`` of the masked words and states the claim's value (after normalisation)
   vetoes it: the value is stated of something close enough to be the same slot.
"""

from __future__ import annotations

from collections.abc import Sequence

from claims.facets import Facets, TokenSet, content_tokens, slots_compatible
from claims.parses import parse
from claims.verdict.text import clause_spans, subject_heads
from claims.verdict.value_slots.antecedents import held_share
from claims.verdict.value_slots.reading import (
    PREFILTER,
    Statement,
    Value,
    agrees,
    another_event,
    decide,
    listed,
    lone_range,
    masked_text,
    names_event_or_modifies,
    reference_values,
    same_slot,
    slot_of,
    token_at,
    words,
)

#: least share of the claim's masked content words a reference claim must hold (its own values
#: masked) to state the same statement with another value; the exact pass's ``MIN_CONTEXT``
#: asks as much of the value's clause alone
ALIGN_MIN_COVER = 0.75
#: the least share when both values hang on a common word in the parse (``reading.same_slot``):
#: the parse places the slot, the words need only say it is the same statement
ALIGN_SLOT_COVER = 0.6
#: a reference claim holding this share of the claim's masked words and the claim's value
#: vetoes a conflict found elsewhere (the value is stated of a slot close enough)
ALIGN_VETO_COVER = 0.5
#: the least number of masked content words a claim must have to be aligned at all: with three
#: ("'Square One' was released in 2016") two shared words place no slot (a namesake's release)
ALIGN_MIN_WORDS = 4
#: value kinds the aligned pass compares (names keep the exact pass: a name of another slot
#: shares the claim's words as well as a rival does)
ALIGN_KINDS = frozenset({"year", "date", "number", "ordinal"})
#: the fewest content words (values masked) a clause must hold to place a value's slot; a
#: clause with fewer ("In 2016," / "on May 7," / "since 2022.") is a time or place adjunct cut
#: off by its comma, and belongs to its neighbour (``exact.value_clause``)
MIN_CLAUSE_WORDS = 2


def _masked_words(claim: Facets, values: Sequence[Value]) -> list[str]:
    """The claim's content tokens, its years, dates, numbers and ordinals masked."""
    masked = masked_text(claim.text, [o for o in values if o.kind != "name"])
    return list(dict.fromkeys(content_tokens(masked)))


def _on_predicate(text: str, v: Value) -> bool:
    """``v`` is an argument or adjunct of the main predicate of ``text`` ("In 2016, Bakir was
    awarded ...", "has taken out the title ... for 2013"), directly or through its preposition;
    not a value inside a noun phrase or another clause ("the formation of the League in 1888")."""
    doc = parse(text)
    tok = token_at(doc, v.start, v.end) if doc is not None else None
    while tok is not None and tok.dep_ == "conj" and tok.head.i != tok.i:
        tok = tok.head
    if tok is None or tok.head.i == tok.i:
        return False
    head = tok.head.head if tok.dep_ == "pobj" else tok.head
    return head.dep_ == "ROOT" and head.pos_ in ("VERB", "AUX")


def _other_time(claim: str, v: Value, text: str) -> bool:
    """The claim dates the statement of ``v`` ("Between 1989 and 2005, Arsenal won four titles")
    and the reference claim gives none of its years: a count or rank of another period ("has
    won 13 league titles" in all). The claim's years that date ``v`` are those of its clause
    and of the adjuncts of fewer than ``MIN_CLAUSE_WORDS`` content words next to it ("In 2005,",
    "Between 1989 and 2005,"):
    a year of another clause dates another predicate ("In November 2013, she was the only
    member ... who voted against increasing the salary by 19%")."""
    spans = clause_spans(claim)
    i = next((k for k, (a, b) in enumerate(spans) if a <= v.start < b), None)
    lo, hi = (0, len(spans) - 1) if i is None else (i, i)

    def short(k: int) -> bool:
        return len(content_tokens(_unvalued(claim, *spans[k]))) < MIN_CLAUSE_WORDS

    while lo > 0 and short(lo - 1):
        lo -= 1  # "Between 1989 | and 2005, | Arsenal won ...": the split adjunct is one
    while hi < len(spans) - 1 and short(hi + 1):
        hi += 1
    mine = [y for y in reference_values(claim, "year") if spans[lo][0] <= y.start < spans[hi][1]]
    theirs = reference_values(text, "year")
    return bool(mine) and not any(agrees(y, x) for y in mine for x in theirs)


def _unvalued(text: str, start: int, end: int) -> str:
    """The characters ``start:end`` of ``text``, its years, dates and numbers blanked."""
    values = [x for k in ("year", "date", "number") for x in reference_values(text, k)]
    return masked_text(text, values)[start:end]


def _states_value(v: Value, o: Value) -> bool:
    """``o`` is a point value that states ``v``'s value (after normalisation), a number of the
    same slot ("five League titles" does not state "four titles" by being "five FA Cups")."""
    if o.loose or o.bound or (v.q is not None and o.q is not None and not slots_compatible(v.q, o.q)):
        return False
    return agrees(v, o)


def _in_slot(
    v: Value, mine: tuple[str, frozenset[str]], claim: str, text: str, o: Value, single: bool
) -> bool:
    """``o`` of the reference claim ``text`` fills ``v``'s slot: a common word in the parse, or the
    one value of the kind on both sides, each on its sentence's main predicate."""
    theirs = slot_of(text, o.start, o.end)
    if theirs is None:
        return False
    if same_slot(v, mine, theirs):
        return True
    return single and _on_predicate(claim, v) and _on_predicate(text, o)


def aligned_statements(
    claim: Facets, v: Value, values: Sequence[Value], refs: dict[int, str], ante: dict[int, frozenset[str]]
) -> list[Statement]:
    """The statements of ``v``'s slot in the reference claims ``refs`` (index -> text) found by
    masked-value similarity (module docstring); empty when ``v`` is not compared here or a
    reference claim close enough states ``v``'s value. A reference claim with a pronoun subject
    holds the words it may stand for (``ante``: ``antecedents.antecedent_words``)."""
    mine = slot_of(claim.text, v.start, v.end)
    if v.kind not in ALIGN_KINDS or v.loose or v.bound or mine is None or names_event_or_modifies(v, mine):
        return []
    if sum(o.kind == v.kind for o in values) != 1:
        return []
    tokens = _masked_words(claim, values)
    subject = subject_heads(claim.text)
    codes = [e.lower() for e, _, _ in claim.entities if any(ch.isdigit() for ch in e)]
    names = [
        words(o.text)
        for o in values
        if o.kind == "name" and (slot_of(claim.text, o.start, o.end) or ("",))[0] != "subj"
    ]
    ids = [j for j, t in refs.items() if PREFILTER[v.kind].search(t)]
    if len(tokens) < ALIGN_MIN_WORDS or not ids:
        return []
    out: list[Statement] = []
    none: frozenset[str] = frozenset()
    shares = held_share(tokens, [refs[j] for j in ids], [ante.get(j, none) for j in ids])
    for j, c in zip(ids, shares, strict=True):
        found = reference_values(refs[j], v.kind)
        if c >= ALIGN_VETO_COVER and any(_states_value(v, o) for o in found):
            return []
        held = TokenSet(content_tokens(refs[j]) + sorted(ante.get(j, ())))
        if c < ALIGN_SLOT_COVER or (subject and not any(t in held for t in subject)):
            continue
        if not all(code in refs[j].lower() for code in codes):
            continue  # another vessel, model or trial: "SM U-30" / "SM UB-30"
        if not all(all(t in held for t in n) for n in names):
            continue  # another team or party: "signed to the Colts" / "to the Panthers"
        if v.kind in ("number", "ordinal") and _other_time(claim.text, v, refs[j]):
            continue
        for o in found:
            if _in_slot(
                v, mine, claim.text, refs[j], o, len(found) == 1 and c >= ALIGN_MIN_COVER
            ) and not another_event(claim, v, refs[j], o):
                lone = lone_range(refs[j], o, v.kind)
                out.append(Statement(j, o, float(c), listed(refs[j], o, v.kind), lone))
    return out


def aligned_conflict(
    claim: Facets, v: Value, values: Sequence[Value], refs: dict[int, str], ante: dict[int, frozenset[str]]
) -> Statement | None:
    """The statement of the aligned pass that contradicts ``v`` (``reading.decide``), or None."""
    return decide(v, aligned_statements(claim, v, values, refs, ante))
