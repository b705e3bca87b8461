"""The exact pass of the value-slot check: the statements of a value's slot among the reference
claims that hold the words of the value's clause (``MIN_CONTEXT``), and ``slot_conflict``.

Part of ``claims.verdict.value_slots`` (its docstring: the method).
"""

from __future__ import annotations

from collections.abc import Sequence

from claims.facets import Facets, TokenSet, content_tokens
from claims.parses import parse
from claims.types import ClaimKind, ReferenceClaim
from claims.verdict.findings import Conflict
from claims.verdict.order import relations, told_conversely
from claims.verdict.slot_names import one_name
from claims.verdict.text import clause_spans, subject_heads
from claims.verdict.value_slots.align import MIN_CLAUSE_WORDS, aligned_conflict
from claims.verdict.value_slots.antecedents import antecedent_words, held_share, subject_words
from claims.verdict.value_slots.name_rivals import rival_name
from claims.verdict.value_slots.reading import (
    PREFILTER,
    Statement,
    Value,
    another_event,
    claim_values,
    decide,
    listed,
    lone_range,
    masked_text,
    names_event_or_modifies,
    place_slot,
    reference_values,
    same_slot,
    slot_of,
    words,
)
from claims.verdict.values import is_dateline, value_kind

MIN_CONTEXT = 0.75
#: a name's statement must hold every other word of the claim's clause (the same statement of
#: another name, as the entity swap of ``roles`` asks)
MIN_CONTEXT_NAME = 1.0


#: the most words a name of a slot may have (longer spans are table rows and titles)
def _statements(claim: Facets, v: Value, texts: dict[int, str], cov: dict[int, float]) -> list[Statement]:
    """Every statement of ``v``'s slot among the candidate reference claims ``texts``."""
    mine = slot_of(claim.text, v.start, v.end)
    if mine is None or place_slot(claim.text, v, mine) or names_event_or_modifies(v, mine):
        return []
    out = []
    for j, text in texts.items():
        if v.kind == "name" and _names_it(text, v):
            # its own name in its slot states the claim's value ("A is 30 m tall. B is 30 m tall.");
            # named only in another role, a rival name in the slot is the slot's value ("Anna
            # Berg finished second" / "Maria Lind finished second, behind Anna Berg")
            own = [o for o in reference_values(text, "name") if words(o.text) & words(v.text)]
            slots = [(o, slot_of(text, o.start, o.end)) for o in own]
            stated = [Statement(j, o, cov[j], False) for o, sl in slots if sl and same_slot(v, mine, sl)]
            rival = rival_name(claim.text, text) if not stated else None
            if rival is not None and rival[0].start == v.start:
                stated = [Statement(j, rival[1], cov[j], listed(text, rival[1], "name"))]
            out += stated
            continue
        for o in reference_values(text, v.kind):
            theirs = slot_of(text, o.start, o.end)
            if theirs is None or not same_slot(v, mine, theirs) or another_event(claim, v, text, o):
                continue
            out.append(Statement(j, o, cov[j], listed(text, o, v.kind), lone_range(text, o, v.kind)))
    return out


def _names_it(text: str, v: Value) -> bool:
    """The reference claim names ``v`` itself: its slot holds ``v``'s value only where it names
    ``v`` in that slot, or where it names ``v`` in another role and a rival in the slot
    (``name_rivals``); a symmetric relation or swapped roles (the rival a name of the claim) are
    for the role checks (``roles``, ``counterparts``)."""
    return any(words(o.text) & words(v.text) for o in reference_values(text, "name"))


def value_clause(text: str, masked: str, v: Value) -> tuple[int, int]:
    """The span of the clause of ``text`` (``text.clause_spans``) that holds ``v``, joined with
    its neighbours while it holds fewer than ``MIN_CLAUSE_WORDS`` content words of ``masked``
    (``text`` with its values blanked): a fronted adverbial ("In 2016, Bakir was awarded ...")
    joins the clause after it, a trailing one ("... in Calgary, Alberta on May 7, 2021") the
    clause before it. A clause with a verb of its own is never joined: "and released in April
    2010" is a predicate whose subject is the sentence's (``_local_tokens`` adds it), not an
    adjunct of the clause before it. A name's clause is never joined: a name alone before a parenthesis is the
    subject ("Abigail Adams (1797-1801) was a female president ..."), whose rival in another
    statement is for the role checks (``roles``); joined, it gave false contradictions on
    Factcheck-GPT dev. Offsets into ``text``; (0, len(text)) when no clause holds ``v``."""
    spans = clause_spans(text)
    i = next((k for k, (s, e) in enumerate(spans) if s <= v.start < e), None)
    if i is None:
        return 0, len(text)
    if v.kind == "name":
        return spans[i]
    lo = hi = i
    if _has_verb(text, *spans[i]):
        return spans[i]  # a predicate of its own ("... jailed for fraud and released in 2010")
    while len(content_tokens(masked[spans[lo][0] : spans[hi][1]])) < MIN_CLAUSE_WORDS:
        if lo == 0 and hi == len(spans) - 1:
            break
        if lo > 0 and (hi == len(spans) - 1 or i > 0):
            lo -= 1
        else:
            hi += 1
    return spans[lo][0], spans[hi][1]


def _has_verb(text: str, start: int, end: int) -> bool:
    """The characters ``start:end`` of ``text`` hold a verb in the parse (no auxiliary alone)."""
    doc = parse(text)
    return doc is not None and any(t.pos_ == "VERB" and start <= t.idx < end for t in doc)


def _local_tokens(claim: Facets, v: Value, values: list[Value]) -> tuple[list[str], tuple[str, ...]]:
    """The words the statement of ``v``'s slot must share with the claim: the content tokens of
    the claim's clause that holds ``v`` (``text.clause_spans``), its years, dates and numbers and
    ``v`` itself masked, with the claim's subject (``subject_heads``; for a clause of a verb and
    fewer than ``MIN_CLAUSE_WORDS`` other words, else the subjects of the parse,
    ``antecedents.subject_words``; empty when ``v`` is in the subject)."""
    masked = masked_text(claim.text, [v] + [o for o in values if o.kind != "name"])
    a, b = value_clause(claim.text, masked, v)
    short = len(content_tokens(masked[a:b])) < MIN_CLAUSE_WORDS  # a predicate alone: "and released in 2010"
    heads = subject_heads(claim.text) or (tuple(sorted(subject_words(claim.text))) if short else ())
    subject = tuple(t for t in heads if t not in words(v.text))
    if len(subject) < len(heads):
        subject = ()
    return list(dict.fromkeys(content_tokens(masked[a:b]) + list(subject))), subject


def _candidates(
    claim: Facets, v: Value, values: list[Value], refs: dict[int, str], ante: dict[int, frozenset[str]]
) -> dict[int, float]:
    """The reference claims (index -> masked context coverage) that may state ``v``'s slot:
    a value of its kind (``PREFILTER``), ``MIN_CONTEXT`` of the claim's words around it
    (``_local_tokens``), the claim's subject, the other names of ``v``'s clause and the claim's
    codes ("OB-17"); a pronoun subject holds the words it may stand for (``ante``:
    ``antecedents.antecedent_words``)."""
    pattern = PREFILTER[v.kind]
    ids = [j for j, t in refs.items() if pattern.search(t)]
    tokens, subject = _local_tokens(claim, v, values)
    if not ids or len(tokens) < 2:
        return {}
    none: frozenset[str] = frozenset()
    cov = held_share(tokens, [refs[j] for j in ids], [ante.get(j, none) for j in ids])
    # the names of the value's own clause ("In 2011 she returned to the Freer, where she is now
    # the curator of Chinese Art": "Chinese" names no part of the return)
    a, b = value_clause(claim.text, masked_text(claim.text, [v] + [o for o in values if o.kind != "name"]), v)
    names = [words(o.text) for o in values if o.kind == "name" and o is not v and a <= o.start < b]
    # codes name the subject exactly: "OB-17" / "OB-71", "U-30" / "UB-30"
    codes = [e.lower() for e, _, _ in claim.entities if any(ch.isdigit() for ch in e)]
    keep = {}
    for j, c in zip(ids, cov, strict=True):
        if c < (MIN_CONTEXT_NAME if v.kind == "name" else MIN_CONTEXT):
            continue
        held = TokenSet(content_tokens(refs[j]) + sorted(ante.get(j, ())))
        if (
            all(code in refs[j].lower() for code in codes)
            and all(all(t in held for t in n) for n in names)
            and (not subject or any(t in held for t in subject))
        ):
            keep[j] = float(c)
    return keep


def _sides_exchanged(claim: str, name: str, other: str, reference: str) -> bool:
    """The reference tells the claim's comparison from its other side (``order.told_conversely``:
    "Quenby employs more nurses than Mirth" / "Mirth employs fewer nurses than Quenby") and the
    two names are that comparison's two sides (``Relation.names``): no other name for the slot."""
    sides = [{n.lower() for n in r.names} for r in relations(claim) if r.key.startswith("cmp:")]
    return {name.lower(), other.lower()} in sides and told_conversely(claim, reference)


def slot_conflict(claim: Facets, reference_claims: Sequence[ReferenceClaim]) -> tuple[int, Conflict] | None:
    """The reference claim (index into ``reference_claims``) that states the slot of one of the
    claim's values with another, single value, and the conflict (span of that value in the
    reference claim's text); None when there is none (module docstring). ``claim`` is the
    claim's facets (``claims.facets.extract``); a negated claim is never compared. Needs spaCy."""
    if claim.negated:
        return None
    values = claim_values(claim.text)
    if not values:
        return None
    refs = {
        j: rc.claim.text
        for j, rc in enumerate(reference_claims)
        if rc.claim.kind is ClaimKind.MATERIAL and not is_dateline(rc.claim.text)
    }
    ante = {j: w for j, w in antecedent_words(reference_claims).items() if j in refs}
    best: tuple[float, int, Conflict] | None = None
    for v in values:
        cov = _candidates(claim, v, values, refs, ante)
        found = _statements(claim, v, {j: refs[j] for j in cov}, cov) if cov else []
        s = decide(v, found) if found else aligned_conflict(claim, v, values, refs, ante)
        if s is not None and v.kind == "name":  # one name written two ways, or the sides exchanged
            named_alike = one_name(v.text, s.o.text, refs.values())
            s = None if named_alike or _sides_exchanged(claim.text, v.text, s.o.text, refs[s.j]) else s
        if s is not None and (best is None or s.cov > best[0]):
            kind = {"name": "entity", "number": value_kind(v.q, s.o.q) if v.q and s.o.q else "number"}.get(
                v.kind, v.kind
            )
            unit_only = v.kind == "number" and v.q is not None and s.o.q is not None and v.q.raw == s.o.q.raw
            best = (s.cov, s.j, Conflict(kind, v.text, s.o.text, s.o.start, s.o.end, unit_only))
    return (best[1], best[2]) if best else None
