"""Candidate contradictions of one claim, best first: value conflicts, swapped entities and roles,
and flips of polarity or comparison (``find_contradictions``).

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from claims.facets import Facets, extract
from claims.types import ReferenceClaim
from claims.verdict.findings import Conflict, Pair
from claims.verdict.order import comparison_agrees, told_conversely
from claims.verdict.roles import (
    argument_swap,
    entity_swap_of,
    head_swap_of,
    is_converse,
    role_swap,
    subject_agrees,
)
from claims.verdict.thresholds import T


def find_contradictions(
    r: Facets, pairs: list[Pair], reference_claims: Sequence[ReferenceClaim]
) -> list[tuple[float, Pair, Conflict]]:
    """Candidate contradictions (relevance, pair, conflict), best first (module docstring)."""
    found: list[tuple[float, Pair, Conflict]] = []
    for p in pairs:
        c = extract(reference_claims[p.j].claim.text)
        if p.conflicts and not p.missing and subject_agrees(p, r, counted_slot=_counted(r, p.conflicts[0])):
            found.append((p.relevance, p, p.conflicts[0]))
            continue
        swap = entity_swap_of(p, r, c)
        if (
            swap is not None
            and not p.missing
            and not p.conflicts
            and subject_agrees(p, r, conflict_entity=swap.response_value)
        ):
            found.append((p.relevance, p, swap))
            continue
        head_swap = (
            _distractor_free(head_swap_of(p, r, c), pairs, reference_claims)
            or role_swap(p, r, c)
            or argument_swap(p, r, c)
        )
        if head_swap is not None and not p.missing and not p.conflicts:
            found.append((p.relevance, p, head_swap))
            continue
        if p.entities_missing or p.missing or p.cos < T.flip_min_cosine:
            continue
        flipped = p.polarity_flip is not None or p.comparative_flip is not None
        if flipped and (told_conversely(r.text, c.text) or comparison_agrees(r.text, c.text)):
            continue  # one relation told from its other side ("A lies after B" / "B lies before
            # A"; "A is no deeper than B" / "B is deeper than A"), or the same way round in other
            # words ("A is less deep than B" / "A is not as deep as B"): no flip
        if (
            p.polarity_flip is not None
            and max(p.subject_coverage, p.denial_coverage) >= T.coverage_polarity
            and max(p.coverage, p.denial_coverage) >= T.coverage_polarity
        ):
            found.append((p.relevance - T.flip_rank_penalty, p, p.polarity_flip))
        elif (
            p.comparative_flip is not None
            and p.flip_coverage >= T.coverage_polarity
            # another year or date is another event: "closed in 2005" / "opened in 1998"
            and not any(k.kind in ("year", "date") for k in p.conflicts)
            and not is_converse(r, c)  # "A is more X than B" / "B is less X than A" agree
        ):
            found.append((p.relevance - T.flip_rank_penalty, p, p.comparative_flip))
    found.sort(key=lambda t: t[0], reverse=True)
    return found


def _counted(r: Facets, conflict: Conflict) -> bool:
    """The conflict is between counts of one noun: the claim's value has a noun slot ("n:...")."""
    return any(q.text == conflict.response_value and q.slot.startswith("n:") for q in r.quantities)


def _distractor_free(
    swap: Conflict | None, pairs: list[Pair], reference_claims: Sequence[ReferenceClaim]
) -> Conflict | None:
    """A subject swap ("The Halvorsen Bridge has six lanes" / "The Sandvik Bridge has six
    lanes") only while the references say nothing else of the claim's subject: when another
    candidate names it ("The Halvorsen Bridge opened in 1981"), the swapped claim is about
    another, known subject (a distractor), not a rival for the claim's."""
    if swap is None:
        return None
    name = re.compile(rf"\b{re.escape(swap.response_value)}\b", re.I)
    named = any(name.search(reference_claims[q.j].claim.text) for q in pairs)
    return None if named else swap
