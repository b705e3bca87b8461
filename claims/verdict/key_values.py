"""Key-value claims with no subject, judged by predicate and value.

A single JSON or YAML object with no name field, or a "Label: value" / "**Label:** value" list
with no heading or lead-in that names a subject, gives claims such as "Population: 8,400." or
"Architect: Jonas Berg." (``claims.blocks``). Such a claim says only that the attribute its
label names has the value; it names no subject, so a reference claim "about the same subject"
cannot be asked for. :func:`key_value_finding` compares it with every material reference
claim that states the label's predicate (a content word of the label, or of its predicate
phrase in ``claims/data/label_predicates.tsv``: "architect" -> "designed") with a value slot of
the value's kind next to it:

- a number in the slot the label names (the counted noun or the ``of:`` slot of the reference
  quantity, "120 employees", "a population of 8,400"; the same unit family, "42 square
  kilometres"; else the number nearest the predicate word), a year or date, or a name;
- ``supported`` when one such slot holds the value (``finding`` "key_value": it stands against
  the learned decision, ``claims.decision.STANDING_FINDINGS``); ``contradicted`` when slots
  hold point values and none of them is the value ("population 4,800 ≠ 8,400"); None (the other
  steps decide) when no reference claim states the predicate with a slot of that kind, or the
  slot's value is an approximation or a bound that the value lies within.

The claim's text is never rewritten (it names no entity the response does not); the reason
names the label, the two values and where the reference states its value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from claims.facets import Facets, content_spans, extract, token_match
from claims.facets.types import Quantity
from claims.labels import label_parts, predicate_phrase
from claims.types import ClaimKind, ReferenceClaim

__all__ = ["KeyValueFinding", "key_value_finding"]

#: characters between the predicate word and a value slot that count as "next to it"
NEAR_CHARS = 40
#: words of a predicate phrase that name no attribute
_GENERIC = frozenset(
    {"has", "have", "had", "is", "are", "was", "were", "be", "the", "a", "an", "in", "of", "by"}
)


@dataclass(frozen=True, slots=True)
class KeyValueFinding:
    """What the reference claim ``j`` states in the label's slot: ``same`` True when it holds
    the claim's value; else the value it holds (``reference_value``, at ``[start, end)`` of the
    reference claim's text). ``label`` is the claim's label, ``response_value`` its value."""

    j: int
    same: bool
    label: str
    response_value: str
    reference_value: str
    start: int
    end: int


def _predicate_stems(label: str) -> list[str]:
    """Stems of the content words of ``label`` and of its predicate phrase ("architect" ->
    ["architect", "design"])."""
    phrase = (predicate_phrase(label) or "").replace("{v}", " ")
    words = [w for w in re.findall(r"[^\W\d_]+", f"{label} {phrase}") if w.lower() not in _GENERIC]
    return list(dict.fromkeys(t for t, _, _ in content_spans(" ".join(words))))


def _predicate_spans(ref: str, stems: Sequence[str]) -> list[tuple[int, int]]:
    return [(s, e) for t, s, e in content_spans(ref) if any(token_match(t, p) for p in stems)]


def _distance(span: tuple[int, int], spans: Sequence[tuple[int, int]]) -> int:
    return min((max(s - span[1], span[0] - e, 0) for s, e in spans), default=10**9)


_Span = tuple[int, int]


def _slot_words(q: Quantity) -> list[str]:
    slot = q.slot
    words = list(q.nouns)
    if ":" in slot:
        words += [t for t, _, _ in content_spans(slot.split(":", 1)[1].replace("_", " "))]
    return words


def _number_slots(v: Facets, ref: Facets, stems: Sequence[str], near: Sequence[_Span]) -> list[Quantity]:
    """The reference quantities in the slot of the claim's (first) number."""
    mine = v.quantities[0]
    if mine.slot == "year":
        years = [q for q in ref.quantities if q.slot == "year"]
        return [q for q in years if _distance((q.start, q.end), near) <= NEAR_CHARS]
    named = [q for q in ref.quantities if any(token_match(w, p) for w in _slot_words(q) for p in stems)]
    if named:
        return named
    if mine.slot and ":" not in mine.slot:  # a unit family ("area", "length", "power")
        return [
            q
            for q in ref.quantities
            if q.slot == mine.slot and _distance((q.start, q.end), near) <= NEAR_CHARS
        ]
    bare = [q for q in ref.quantities if not q.slot and _distance((q.start, q.end), near) <= NEAR_CHARS]
    return sorted(bare, key=lambda q: _distance((q.start, q.end), near))[:1]


def _same_number(a: Quantity, b: Quantity) -> bool:
    x, y = a.value, b.value
    return abs(x - y) <= 1e-9 * max(abs(x), abs(y), 1.0)


def _numbers(
    j: int, label: str, value: str, v: Facets, ref: Facets, near: list[_Span], stems: list[str]
) -> list[KeyValueFinding]:
    out = []
    for q in _number_slots(v, ref, stems, near):
        if _same_number(v.quantities[0], q) and q.bound in ("", "upto"):
            out.append(KeyValueFinding(j, True, label, value, q.text, q.start, q.end))
        elif not (q.loose or q.bound or v.quantities[0].loose or v.quantities[0].bound):
            out.append(KeyValueFinding(j, False, label, value, q.text, q.start, q.end))
    return out


def _dates(
    j: int, label: str, value: str, v: Facets, ref: Facets, near: list[_Span]
) -> list[KeyValueFinding]:
    mine = v.dates[0]
    out = []
    for d in ref.dates:
        if _distance((d.start, d.end), near) > NEAR_CHARS:
            continue
        parts = [(mine.year, d.year), (mine.month, d.month), (mine.day, d.day)]
        both = [(a, b) for a, b in parts if a is not None and b is not None]
        if both:
            same = all(a == b for a, b in both)
            out.append(KeyValueFinding(j, same, label, value, d.text, d.start, d.end))
    return out


def _same_name(a: str, b: str) -> bool:
    x, y = a.casefold(), b.casefold()
    return x == y or x in y.split() or y in x.split() or (len(x) > 3 and len(y) > 3 and (x in y or y in x))


def _names(
    j: int, label: str, value: str, v: Facets, ref: Facets, near: list[_Span]
) -> list[KeyValueFinding]:
    mine = v.entities[0][0]
    close = [(n, s, e) for n, s, e in ref.entities if _distance((s, e), near) <= NEAR_CHARS]
    if any(_same_name(mine, n) for n, _, _ in close):
        n, s, e = next(x for x in close if _same_name(mine, x[0]))
        return [KeyValueFinding(j, True, label, value, n, s, e)]
    if not close:
        return []
    n, s, e = min(close, key=lambda x: _distance((x[1], x[2]), near))
    return [KeyValueFinding(j, False, label, value, n, s, e)]


def key_value_finding(claim_text: str, reference_claims: Sequence[ReferenceClaim]) -> KeyValueFinding | None:
    """What the references state in the slot of the subjectless key-value claim ``claim_text``
    (module notes): the first reference claim that holds its value, else the first that holds
    another point value; None for any other claim, or when no reference claim states the
    label's predicate with a slot of the value's kind."""
    parts = label_parts(claim_text)
    if parts is None or parts[0]:
        return None
    _, label, value = parts
    v = extract(value)
    stems = _predicate_stems(label)
    if not stems or not (v.quantities or v.dates or v.entities):
        return None
    found: list[KeyValueFinding] = []
    for j, rc in enumerate(reference_claims):
        if rc.claim.kind is not ClaimKind.MATERIAL:
            continue
        near = _predicate_spans(rc.claim.text, stems)
        if not near:
            continue
        ref = extract(rc.claim.text)
        if v.quantities:
            found += _numbers(j, label, value, v, ref, near, stems)
        elif v.dates:
            found += _dates(j, label, value, v, ref, near)
        else:
            found += _names(j, label, value, v, ref, near)
    return next((f for f in found if f.same), found[0] if found else None)
