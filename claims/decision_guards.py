"""Guards of the learned decision (``claims.decision``): what the model may not turn into support.

The model sees values and names through a few numeric signals; these checks are exact. A claim's
count written in words must be stated near it (``_number_words_stated``), and a claim with a
named subject must find its values stated with that subject (``_values_of_subject``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claims.facets import DateFacet, Facets, Quantity, content_tokens, extract, quantity_matches, values_equal
from claims.verdict.text import subject_head

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _date_stated(d: DateFacet, e: DateFacet) -> bool:
    return all(getattr(d, k) is None or getattr(d, k) == getattr(e, k) for k in ("year", "month", "day"))


def _digits(text: str) -> set[str]:
    return {m.replace(",", "") for m in _NUMBER.findall(text)}


def _number_words_stated(text: str, near: Sequence[str]) -> bool:
    """Every count the claim writes in words ("six lanes"; ordinals aside) is stated by one of
    the texts ``near``, compared as facets or by its number ("nine" / "9 am"): a number word
    has no digits to find elsewhere."""
    words = [q for q in extract(text).quantities if not _digits(q.text) and not q.ordinal]
    if not words:
        return True
    others = [extract(t) for t in near]
    return all(any(_same_number(q, o) for g in others for o in g.quantities) for q in words)


def _values_of_subject(text: str, near: Sequence[str]) -> bool:
    """A claim with a named subject ("The Halvorsen Bridge has six lanes") and values, whose
    values a near text states of another named subject ("The Sandvik Bridge has six lanes", "The
    study of OB-17 enrolled 76 patients" for "The OB-71 trial ..."), has one of the texts ``near``
    that names its own subject and states every value: the same value of another subject is not
    the claim's (a distractor). True for a claim without values, without
    a named subject head, or whose values no near text gives to another named subject."""
    f = extract(text)
    head = subject_head(text)
    names = [e for e, _, _ in f.entities if head and head in content_tokens(e)]
    if not (f.quantities or f.dates) or not names:
        return True
    name = re.compile(rf"\b{re.escape(names[0])}\b", re.I)
    stating = [t for t in near if _states_values(f, extract(t))]
    if any(name.search(t) for t in stating):
        return True
    return not any(_named_subject_other(t, head) or _rival_name(t, names[0]) for t in stating)


def _states_values(f: Facets, g: Facets) -> bool:
    """Every number and date of ``f`` is stated in ``g``."""
    values = all(any(quantity_matches(q, o) for o in g.quantities) for q in f.quantities)
    return values and all(any(_date_stated(d, e) for e in g.dates) for d in f.dates)


def _rival_name(text: str, name: str) -> bool:
    """``text`` names another of the claim's kind: a name sharing a word with ``name`` but not
    equal to it ("OB-17" for "OB-71", "the Sandvik Bridge" for "the Halvorsen Bridge")."""
    own = set(content_tokens(name))
    return any(
        e.lower() != name.lower() and own & set(content_tokens(e)) for e, _, _ in extract(text).entities
    )


def _named_subject_other(text: str, head: str | None) -> bool:
    """The text's subject head is part of a name and is not ``head``."""
    own = subject_head(text)
    return (
        own is not None
        and own != head
        and any(own in content_tokens(e) for e, _, _ in extract(text).entities)
    )


def _same_number(q: Quantity, o: Quantity) -> bool:
    """``q`` (a number word) states the value of ``o``: as facets, as a number, or as the hour
    of a time of day (``o.raw`` in minutes: "nine" / "9 am")."""
    return (
        quantity_matches(q, o)
        or values_equal(q.raw, o.raw)
        or (o.slot == "time" and values_equal(q.raw * 60, o.raw))
    )
