"""Guards of the learned decision (``claims.decision``): what the model may not turn into support.

The model sees values and names through a few numeric signals; these checks are exact. A claim's
count written in words must be stated near it (``_number_words_stated``), and a claim with a
named subject must find its values stated with that subject (``_values_of_subject``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claims.facets import DateFacet, Quantity, content_tokens, extract, quantity_matches, values_equal
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
    """A claim with a named subject ("The Halvorsen Bridge has six lanes") and values has one
    of the texts ``near`` that names that subject and states every value: the same value of
    another subject ("The Sandvik Bridge has six lanes") is not the claim's. True for a claim
    without values or without a named subject head."""
    f = extract(text)
    head = subject_head(text)
    names = [e for e, _, _ in f.entities if head and head in content_tokens(e)]
    if not (f.quantities or f.dates) or not names:
        return True
    name = re.compile(rf"\b{re.escape(names[0])}\b", re.I)
    for t in near:
        g = extract(t)
        values = all(any(quantity_matches(q, o) for o in g.quantities) for q in f.quantities)
        if name.search(t) and values and all(any(_date_stated(d, e) for e in g.dates) for d in f.dates):
            return True
    return False


def _same_number(q: Quantity, o: Quantity) -> bool:
    """``q`` (a number word) states the value of ``o``: as facets, as a number, or as the hour
    of a time of day (``o.raw`` in minutes: "nine" / "9 am")."""
    return (
        quantity_matches(q, o)
        or values_equal(q.raw, o.raw)
        or (o.slot == "time" and values_equal(q.raw * 60, o.raw))
    )
