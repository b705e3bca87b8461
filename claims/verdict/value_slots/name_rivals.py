"""A rival name in a name's slot: one reference claim, set against one claim, fills the slot of
a name of the claim (the same role on a common word in the parse) with another name, and does
not fill it with the claim's name ("Anna Berg finished second" / "Maria Lind finished second,
behind Anna Berg": the reference names Anna Berg, but as the one behind, not as the finisher).

Part of ``claims.verdict.value_slots`` (its docstring: the method). Such a reference claim does
not state the claim, however many of its words and names it holds: the name it holds is in
another role. Which names have a slot is the value-slot check's reading (``reading``): an
argument of its clause (a subject, an object, a complement, an apposition, the object of a
preposition), not a noun's modifier, not a place after a preposition of place or in apposition
("the Mauritshuis, the Hague": a place is stated at several granularities); a name in
apposition to an agent noun also fills the subject slot of the noun's verb (``agent_slot``:
"the firm's founder, Jonas Berg" / "Jon Berg founded the firm"). Not rivals: a name
sharing a word with the claim (the same name in part, or the two names of a symmetric relation
or of swapped roles: those are the role checks' question, ``claims.verdict.roles``), a short
form of the claim's name or a part of one longer name the reference texts write
(``slot_names.one_name``), and any rival where the reference claim also fills the slot with the
claim's name (a list of values of one slot: "founded by A and B").
"""

from __future__ import annotations

from collections.abc import Iterable

from claims.verdict.slot_names import one_name
from claims.verdict.value_slots.reading import (
    PLACE_TYPES,
    Value,
    agent_slot,
    names,
    names_event_or_modifies,
    place_slot,
    same_slot,
    slot_of,
    slots_of,
    two_people,
    words,
)

__all__ = ["rival_name"]


def rival_name(claim: str, text: str, texts: Iterable[str] = ()) -> tuple[Value, Value] | None:
    """The first name of ``claim`` whose slot the reference claim ``text`` fills with another
    name and not with it (module docstring), as (the claim's name, the rival in ``text``);
    None when there is none. ``texts``: further reference texts that may write the two names
    as one ("Daniel" / "LaRusso": "Daniel LaRusso"). Needs spaCy (``claims.parses``).

    >>> found = rival_name("Anna Berg won the race.", "Maria Lind won the race, ahead of Anna Berg.")
    >>> (found[0].text, found[1].text) if found else None
    ('Anna Berg', 'Maria Lind')
    """
    mine = names(claim)
    if not mine:
        return None
    theirs = [(o, sl) for o in names(text) for sl in slots_of(text, o.start, o.end)]
    if not theirs:
        return None
    claim_words = words(claim)  # the parse may miss a name of the claim ("Ana Lopez married")
    others = [text, *texts]
    for v in mine:
        slot = slot_of(claim, v.start, v.end)
        if slot is None or place_slot(claim, v, slot) or names_event_or_modifies(v, slot):
            continue
        if slot[0] == "appos" and v.label in PLACE_TYPES:
            continue  # a place that locates the name before it ("the Mauritshuis, the Hague")
        mine_slots = [slot, *([a] if (a := agent_slot(claim, v.start, v.end)) else [])]
        in_slot = [o for o, sl in theirs if any(same_slot(v, m, sl) for m in mine_slots)]
        if any(_same_name(v, o) or one_name(v.text, o.text, others) for o in in_slot):
            continue  # the reference states the claim's name in the slot (also in a list)
        rivals = [
            o for o in in_slot if words(o.text) and (not words(o.text) & claim_words or two_people(v, o))
        ]
        if rivals:
            return v, rivals[0]
    return None


def _same_name(a: Value, b: Value) -> bool:
    """``a`` and ``b`` share a word and are not two people of one surname (``two_people``)."""
    return bool(words(a.text) & words(b.text)) and not two_people(a, b)
