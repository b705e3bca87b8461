"""Check: the same name in the other role of the same verb ("FA Cup won Arsenal" against "Arsenal
won the FA Cup"; "The Eisinga Planetarium built Eise Eisinga" against "Eisinga built the
planetarium"), read from spaCy's parse (``claims.verdict.order``'s agent and patient), for
``claims.verdict.counterparts``.

A name is the agent of a verb in one text (subject; the "by" phrase of a passive) and its patient
in the other (object; the subject of a passive), the other text never puts it in the first
text's role of that verb, and the other party of the other text is no other name (``"Lee
succeeded Park"`` against ``"Park succeeded Cho"`` is no swap: Park may have been both). Denied
verbs and symmetric verbs (``claims/data/symmetric_relations.tsv``) have no roles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from claims.facets.vocabulary import stem_of
from claims.parses import parse
from claims.types import Judgement, ReferenceClaim, Verdict
from claims.verdict.order import (
    SYMMETRIC,
    Relation,
    agent_patient,
    endpoint_conflict,
    noun_key,
    order_agrees,
    order_conflict,
    same_noun,
)
from claims.verdict.reasons import evidence_at
from claims.verdict.sole import sole_reason

__all__ = ["Role", "role_conflict", "roles", "roles_swapped", "subject_of"]


@dataclass(frozen=True, slots=True)
class Role:
    """A name in a role of a verb: the verb's stem ``verb``, the name's key ``noun`` and words
    ``name``, ``role`` ("agent" or "patient"), and whether the other party is a name
    (``other_named``) and its key (``other``, "" when there is none)."""

    verb: str
    noun: str
    name: str
    role: str
    other: str
    other_named: bool
    #: the name is a proper noun (spaCy's tag)
    named: bool = True


def _party(tok: Any | None) -> tuple[str, str, bool] | None:
    if tok is None or tok.pos_ not in ("NOUN", "PROPN") or tok.like_num:
        return None
    parts = [c for c in tok.children if c.dep_ == "compound"] + [tok]
    name = " ".join(p.text for p in sorted(parts, key=lambda t: t.i))
    return noun_key(tok), name, tok.pos_ == "PROPN"


def roles(text: str) -> list[Role]:
    """The agents and patients of ``text``'s affirmed, non-symmetric verbs (module docstring)."""
    out = []
    for tok in parse(text) or ():
        if tok.pos_ != "VERB" or stem_of(tok.text) in SYMMETRIC or any(c.dep_ == "neg" for c in tok.children):
            continue
        agent, patient = (_party(t) for t in agent_patient(tok))
        for mine, other, role in ((agent, patient, "agent"), (patient, agent, "patient")):
            if mine is not None:
                key, name, named = mine
                out.append(
                    Role(
                        stem_of(tok.text),
                        key,
                        name,
                        role,
                        other[0] if other else "",
                        bool(other and other[2]),
                        named,
                    )
                )
    return out


def role_conflict(claim: str, reference: str) -> tuple[Role, Role] | None:
    """The first name of ``claim`` in one role of a verb whose other role ``reference`` gives it
    (and never the claim's role), the reference's other party being no other name; with the
    reference's role. Only names (proper nouns) of the claim are read. None when none."""
    theirs = roles(reference)
    for m in roles(claim):
        if not m.named:
            continue
        # written with a capital in the reference too: "Insomnia can cause stress" opens with no name
        alike = [t for t in theirs if t.verb == m.verb and same_noun(t.noun, m.noun) and t.name[:1].isupper()]
        if any(t.role == m.role for t in alike):
            continue
        for t in alike:
            if m.other and same_noun(t.noun, m.other):
                continue  # the reference's name fits both of the claim's ("Eisinga" of "Eise
                # Eisinga built the Eisinga Planetarium"): no telling which it is
            if not t.other_named or (m.other and same_noun(t.other, m.other)):
                return m, t
    return None


def roles_swapped(
    index: int,
    text: str,
    top: list[int],
    reference_claims: Sequence[ReferenceClaim],
    where: Callable[[int], str],
) -> Judgement | None:
    """``contradicted`` when a candidate states the claim's two roles the other way round and no
    candidate states them in the claim's order (``claims.verdict.order``), states one end of a
    path of the claim's verb at the other end (``endpoint_conflict``), a name of the claim in
    the other role of its verb (``role_conflict``) or a party said to act alone where the other
    text gives it a second party (``claims.verdict.sole``); else None. ``top``: the candidate reference
    claims; ``where``: a reference claim's locator text."""
    # in this order of precedence; a candidate stating the claim's order rules out the swaps, not
    # a second party
    swaps = () if any(order_agrees(text, reference_claims[j].claim.text) for j in top) else _SWAPS
    for conflict in (*swaps, sole_reason):
        for j in top:
            reason = conflict(text, reference_claims[j].claim.text, where(j))
            if reason is not None:
                return Judgement(
                    index, Verdict.CONTRADICTED, (evidence_at(reference_claims, j, 0.0),), reason
                )
    return None


def _order_reason(text: str, reference: str, at: str) -> str | None:
    found = order_conflict(text, reference)
    return _swap_reason(*found, at) if found is not None else None


def _endpoint_reason(text: str, reference: str, at: str) -> str | None:
    end = endpoint_conflict(text, reference)
    if end is None:
        return None
    mine, theirs = end
    return f"direction reversed: '{mine.side} {mine.name}', where {at} states '{theirs.side} {theirs.name}'"


def _role_reason(text: str, reference: str, at: str) -> str | None:
    swap = role_conflict(text, reference)
    if swap is None:
        return None
    ours, other = swap
    return (
        f"roles swapped: '{ours.name}' is the {ours.role} of '{ours.verb}', where {at} "
        f"states '{other.name}' as its {other.role}"
    )


#: the swap checks of ``roles_swapped``, in order of precedence
_SWAPS = (_order_reason, _endpoint_reason, _role_reason)


def subject_of(text: str, word: str) -> str:
    """The stem of the active subject of ``word`` in ``text`` (its own, or its head's for a
    participle or an adjective of a copula); "" when the parse gives none (a passive's subject is
    its patient: "the Cup was won by Arsenal")."""
    for tok in parse(text) or ():
        if tok.lower_ == word.lower():
            for head in (tok, tok.head):
                subj = next((c for c in head.children if c.dep_ == "nsubj"), None)
                if subj is not None:
                    return stem_of(subj.text)
    return ""


def _swap_reason(mine: Relation, theirs: Relation, where: str) -> str:
    """The reason of an ``order_conflict``: the two sides as each text writes them and the
    relation words; ``where``: the reference claim's locator text."""
    if mine.key.startswith("dir:"):
        return (
            f"direction reversed: from '{mine.names[0]}' to '{mine.names[1]}', where {where} states "
            f"from '{theirs.names[0]}' to '{theirs.names[1]}'"
        )
    return (
        f"roles swapped: '{mine.names[0]}' and '{mine.names[1]}' ('{mine.word}') stand the other "
        f"way round in {where} ('{theirs.word}')"
    )
