"""Key-value claims, judged by subject, predicate and value.

A list item, a table cell or a JSON/YAML leaf gives a claim ``"[<subject>, ]<label>: <value>."``
(``claims.blocks``): "Oslo, population: 709,000.", "Kestrel Robotics, founder: Mara Lind.", or,
with no heading, lead-in or name field to name a subject, "Population: 8,400.". Such a claim
says that the attribute its label names has the value for its subject. :func:`key_value_finding`
compares it with the material reference claims about the same subject (every name word of the
subject in the claim's text, :func:`subject_spans`; every reference claim when the claim names
no subject) that state the label's predicate (a content word of the label, or of its predicate
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

The subject restriction is what tells rows apart: in a table of three cities, "Oslo,
population: 291,000." is contradicted by "Oslo has a population of 709,000", though "Bergen has a
population of 291,000" holds the same number for another subject. A name value of a claim with
a subject is compared with the names next to the predicate other than the subject's own, and
contradicts only when there is exactly one ("born in Uppsala" against "Umeå"; "born in Uppsala
and raised in Lund" is no contradiction of "Lund").

The claim's text is never rewritten (it names no entity the response does not); the reason
names the label, the two values and where the reference states its value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from claims.facets import Facets, content_spans, extract, token_match
from claims.facets.types import DateFacet, Quantity
from claims.facets.vocabulary import dimension_stems
from claims.labels import count_synonyms, label_parts, predicate_phrase
from claims.types import ClaimKind, ReferenceClaim

__all__ = ["KeyValueFinding", "key_value_finding", "named_label", "other_subject_value", "subject_spans"]

#: characters between the predicate word and a value slot that count as "next to it"
NEAR_CHARS = 40
#: longest label of a claim with a subject read as a key-value claim (``claims.blocks.context.key_value``
#: allows five words; a longer "label" is a clause of a sentence)
_MAX_LABEL_WORDS = 5
#: words of a predicate phrase that name no attribute
_GENERIC = frozenset(
    {"has", "have", "had", "is", "are", "was", "were", "be", "the", "a", "an", "in", "of", "by"}
)
#: words of a subject that name nothing of their own ("The Salt Road": "Salt", "Road")
_SUBJECT_STOP = frozenset({"the", "a", "an", "of", "and", "in", "on", "at", "for", "to", "de", "la", "le"})
_WORD = re.compile(r"[^\W_][\w'\u2019.&-]*")


def subject_spans(subject: str, text: str) -> list[tuple[int, int]] | None:
    """Where ``text`` names ``subject``: the spans of the subject's name words (its words with a
    capital or a digit, "Neptune" of "Neptune planet"; all its content words when none has one,
    "hotel" of "the hotel"), matched as whole words in any case; ``None`` when one is missing.
    A subject of no such word is named everywhere (``[]``).

    >>> subject_spans("The Salt Road", "The Salt Road was written by Ines Varga.")
    [(4, 8), (9, 13)]
    """
    words = [w.rstrip(".'\u2019") for w in _WORD.findall(subject)]
    words = [w for w in words if w and w.casefold() not in _SUBJECT_STOP]
    names = [w for w in words if w[:1].isupper() or w[:1].isdigit()]
    spans = []
    for w in names or words:
        m = re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text, re.IGNORECASE)
        if m is None:
            return None
        spans.append(m.span())
    return spans


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
    same = " ".join(count_synonyms(label))
    words = [w for w in re.findall(r"[^\W\d_]+", f"{label} {phrase} {same}") if w.lower() not in _GENERIC]
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


def _dimension_slots(label: str, v: Facets, ref: Facets) -> list[Quantity]:
    """The one reference quantity of the unit family that the label names ("height" and "1,717
    metres": the one length of "Storhorn rises to 1,987 metres"), for a reference claim that has
    no word of the label's predicate; none when the label names no dimension of the value's
    unit (``claims/data/dimension_words.tsv``) or the claim holds several such quantities."""
    mine = v.quantities[0]
    if not mine.slot or ":" in mine.slot:
        return []
    stems = dimension_stems(mine.slot)
    if not any(t in stems for t, _, _ in content_spans(label)):
        return []
    same = [q for q in ref.quantities if q.slot == mine.slot]
    return same if len(same) == 1 else []


def _same_number(a: Quantity, b: Quantity) -> bool:
    x, y = a.value, b.value
    return abs(x - y) <= 1e-9 * max(abs(x), abs(y), 1.0)


def _numbers(
    j: int, label: str, value: str, v: Facets, ref: Facets, near: list[_Span], stems: list[str]
) -> list[KeyValueFinding]:
    out = []
    slots = _number_slots(v, ref, stems, near) if near else _dimension_slots(label, v, ref)
    for q in slots:
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
    """The same name, or one name's words inside the other's ("Norsk Stal" / "Norsk Stal AS",
    "Berg" / "Jonas Berg"); whole words only ("Sala" is not "Uppsala")."""
    x, y = a.casefold(), b.casefold()
    short, long_ = (x, y) if len(x) <= len(y) else (y, x)
    return bool(short) and re.search(rf"(?<!\w){re.escape(short)}(?!\w)", long_) is not None


def _names(
    j: int, label: str, value: str, v: Facets, ref: Facets, near: list[_Span], own: list[_Span] | None
) -> list[KeyValueFinding]:
    """``own``: the spans of the claim's subject in the reference claim (``None`` when the
    claim has no subject): names there are the subject, not a value."""
    mine = v.entities[0][0]
    close = [
        (n, s, e)
        for n, s, e in ref.entities
        if _distance((s, e), near) <= NEAR_CHARS and not any(s < oe and os < e for os, oe in own or ())
    ]
    if any(_same_name(mine, n) for n, _, _ in close):
        n, s, e = next(x for x in close if _same_name(mine, x[0]))
        return [KeyValueFinding(j, True, label, value, n, s, e)]
    if not close or (own is not None and len(close) > 1):
        return []
    n, s, e = min(close, key=lambda x: _distance((x[1], x[2]), near))
    return [KeyValueFinding(j, False, label, value, n, s, e)]


#: a label written as a name: one to four capitalised words ("Oslo", "Ness Bridge")
_NAME_LABEL = re.compile(r"[A-Z][\w.'\u2019&-]*(?: [A-Z0-9][\w.'\u2019&-]*){0,3}")
#: the attribute words before a value's number ("population" of "population 212,000")
_LEAD_LABEL = re.compile(r"[A-Za-z][A-Za-z -]{0,30}")


def named_label(subject: str, label: str, value: str) -> tuple[str, str, str] | None:
    """``(subject, label, value)`` of a subjectless key-value claim whose label is a name and
    whose value names its own attribute: the words before its number ("Bergen: population
    212,000" -> ``("Bergen", "population", "212,000")``) or the counted noun after it ("Oslo:
    285,000 inhabitants" -> ``("Oslo", "inhabitants", "285,000")``); None for any other claim: one
    with a subject, a label listed in ``claims/data/label_predicates.tsv`` ("Population:
    8,400 inhabitants"), a value with no number or with no attribute word."""
    if subject or predicate_phrase(label) or not _NAME_LABEL.fullmatch(label):
        return None
    quantities = extract(value).quantities
    if not quantities:
        return None
    q = quantities[0]
    before = value[: q.start].strip()
    if before:
        return (label, before, value[q.start :].strip()) if _LEAD_LABEL.fullmatch(before) else None
    after = re.match(r"\s*([^\W\d_]+)", value[q.end :])
    return (label, after.group(1), q.text) if q.nouns and after else None


def key_value_finding(
    claim_text: str, reference_claims: Sequence[ReferenceClaim], *, with_subject: bool = False
) -> KeyValueFinding | None:
    """What the references state in the slot of the key-value claim ``claim_text`` (module
    notes): the first reference claim about its subject that holds its value, else the first
    that holds another point value; None for any other claim, or when no such reference claim
    states the label's predicate with a slot of the value's kind. ``with_subject``: judge the
    claims that name a subject ("Oslo, population: 709,000."), else those that name none."""
    parts = label_parts(claim_text)
    if parts is not None and with_subject:
        parts = named_label(*parts) or parts
    if parts is None or bool(parts[0]) is not with_subject:
        return None
    subject, label, value = parts
    if len(label.split()) > _MAX_LABEL_WORDS:
        return None
    v = extract(value)
    stems = _predicate_stems(label)
    if not stems or not (v.quantities or v.dates or v.entities):
        return None
    found: list[KeyValueFinding] = []
    about: list[tuple[int, list[_Span]]] = []
    for j, rc in enumerate(reference_claims):
        if rc.claim.kind is not ClaimKind.MATERIAL:
            continue
        own = subject_spans(subject, rc.claim.text) if with_subject else None
        if with_subject and own is None:
            continue
        if own is not None:
            about.append((j, own))
        near = _predicate_spans(rc.claim.text, stems)
        if not near and not (with_subject and v.quantities):
            continue
        ref = extract(rc.claim.text)
        if v.quantities:
            found += _numbers(j, label, value, v, ref, near, stems)
        elif v.dates:
            found += _dates(j, label, value, v, ref, near)
        else:
            found += _names(j, label, value, v, ref, near, own)
    if with_subject and not found and about:
        return _borrowed_slot(label, value, v, reference_claims, about)
    return next((f for f in found if f.same), found[0] if found else None)


#: a value of a reference claim: (kind "q" | "d" | "e", its facet, start, end, surface)
_Value = tuple[str, object, int, int, str]


def _values(text: str, own: Sequence[_Span] = ()) -> list[tuple[tuple[str, str, str], _Value]]:
    """The values of the reference claim ``text`` with their slot: (kind, the quantity's slot,
    the content word before the value: "hold" of "holds 18,200 spectators"), the names of
    ``own`` (the subject) left out; a value with no content word before it has no slot."""
    f = extract(text)
    words = content_spans(text)
    out: list[tuple[tuple[str, str, str], _Value]] = []
    found: list[_Value] = [("q", q, q.start, q.end, q.text) for q in f.quantities]
    found += [("d", d, d.start, d.end, d.text) for d in f.dates]
    found += [("e", n, s, e, n) for n, s, e in f.entities if not any(s < oe and os < e for os, oe in own)]
    for value in found:
        before = [t for t, _, e in words if e <= value[2]]
        if before:
            slot = value[1].slot if isinstance(value[1], Quantity) else ""
            out.append(((value[0], slot, before[-1]), value))
    return out


def _holds(kind: str, v: Facets, fact: object) -> bool | None:
    """Whether the reference value ``fact`` is the claim's value (True), another point value
    (False), or neither (None: an approximation, a bound, a date of other parts)."""
    if kind == "q" and isinstance(fact, Quantity):
        mine = v.quantities[0]
        if _same_number(mine, fact) and fact.bound in ("", "upto"):
            return True
        return None if (fact.loose or fact.bound or mine.loose or mine.bound) else False
    if kind == "d" and isinstance(fact, DateFacet):
        day = v.dates[0]
        parts = [(day.year, fact.year), (day.month, fact.month), (day.day, fact.day)]
        both = [(a, b) for a, b in parts if a is not None and b is not None]
        return all(a == b for a, b in both) if both else None
    return _same_name(v.entities[0][0], str(fact)) if kind == "e" else None


def _borrowed_slot(
    label: str,
    value: str,
    v: Facets,
    reference_claims: Sequence[ReferenceClaim],
    about: Sequence[tuple[int, list[_Span]]],
) -> KeyValueFinding | None:
    """A claim's value that the references state of another subject, in a slot that a reference
    claim about the claim's subject fills with another value: "Ravnsborg Arena, capacity:
    25,000." against "Solvang Stadium holds 25,000 spectators" and "Ravnsborg Arena holds 18,200
    spectators" (the slot: the quantity's slot and the content word before the value, "hold").
    The label need not name the reference's predicate; the parallel statement of the other
    subject shows which slot the value fills. None when no such pair is found."""
    kind = "q" if v.quantities else "d" if v.dates else "e"
    mine = {j for j, _ in about}
    slots = set()
    for j, rc in enumerate(reference_claims):
        if j in mine or rc.claim.kind is not ClaimKind.MATERIAL:
            continue
        slots |= {key for key, val in _values(rc.claim.text) if key[0] == kind and _holds(kind, v, val[1])}
    if not slots:
        return None
    for j, own in about:
        for key, (_, fact, start, end, surface) in _values(reference_claims[j].claim.text, own):
            if key in slots and _holds(kind, v, fact) is False:
                return KeyValueFinding(j, False, label, value, surface, start, end)
    return None


#: what may stand before the name that opens a sentence as its subject ("The Skarvik ferry")
_OPENING = re.compile(r"\s*(?:the\s+)?", re.IGNORECASE)


def other_subject_value(
    claim_text: str,
    reference_claims: Sequence[ReferenceClaim],
    reference_texts: Sequence[str] | None = None,
) -> tuple[int, str, int, int] | None:
    """Where the references state the value of the key-value claim ``claim_text`` with a
    subject only of another subject: ``(j, value as written, start, end)`` in the first
    material reference claim that holds the value, opens with the name of another entity (its
    subject) and does not name the claim's subject ("Bergen has a population of 285,000" for
    "Trondheim, population: 285,000."), when reference claims name the subject but none of
    them holds it. None for any
    other claim, when a claim about the subject holds the value, when no reference claim names
    the subject (it may be named otherwise: "NYC" / "New York City"), or when only a claim
    opening with no name holds it ("The population is 285,000", "The crossing to Halden takes
    35 minutes": its subject may be the claim's). With ``reference_texts`` (the documents
    the claims' spans index) the other name must be written in the claim's span: a pronoun
    the rewriting resolved ("It carries 510 passengers") names no other subject."""
    parts = label_parts(claim_text)
    parts = named_label(*parts) or parts if parts is not None else None
    if parts is None or not parts[0] or len(parts[1].split()) > _MAX_LABEL_WORDS:
        return None
    subject, _, value = parts
    v = extract(value)
    if not (v.quantities or v.dates or v.entities):
        return None
    kind = "q" if v.quantities else "d" if v.dates else "e"
    found, named = None, False
    for j, rc in enumerate(reference_claims):
        if rc.claim.kind is not ClaimKind.MATERIAL:
            continue
        own = subject_spans(subject, rc.claim.text)
        named = named or own is not None
        held = [
            val
            for key, val in _values(rc.claim.text, own or ())
            if key[0] == kind and _holds(kind, v, val[1])
        ]
        if held and own is not None:
            return None
        text = rc.claim.text
        docs = reference_texts
        written = (
            docs[rc.reference][rc.claim.start : rc.claim.end] if docs and rc.reference < len(docs) else None
        )
        names = [
            n
            for n, s, _ in (extract(text).entities if held else [])
            if _OPENING.fullmatch(text[:s]) and (written is None or n in written)
        ]
        if held and names and found is None:
            found = (j, held[0][4], held[0][2], held[0][3])
    return found if named else None
