"""Evidence, locations in the reference documents, and readable reasons.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from claims.facets import (
    content_tokens,
    token_match,
)
from claims.types import Evidence, ReferenceClaim
from claims.verdict.findings import _Conflict

# ---------------------------------------------------------------- evidence & reasons


def _locate(rc: ReferenceClaim, start: int, end: int, texts: Sequence[str] | None) -> tuple[int, int]:
    """Map a span inside the reference claim's text to the reference document.

    Exact when the claim text is the document's span; otherwise (a rewritten claim, e.g. a
    resolved pronoun) the value is searched for inside the claim's span of the document
    (needs ``texts``); failing that, the claim's span is returned."""
    c = rc.claim
    if start == 0 and end == len(c.text):
        return c.start, c.end
    doc = texts[rc.reference] if texts is not None and 0 <= rc.reference < len(texts) else None
    if doc is not None:
        window = doc[c.start : c.end]
        if window == c.text:
            return c.start + start, c.start + end
        surface = c.text[start:end]
        at = window.find(surface) if surface else -1
        if at >= 0:
            return c.start + at, c.start + at + len(surface)
        return c.start, c.end
    if c.end - c.start == len(c.text):
        return c.start + start, c.start + end
    return c.start, c.end


def _evidence(reference_claims: Sequence[ReferenceClaim], j: int, cos: float) -> Evidence:
    rc = reference_claims[j]
    return Evidence(rc.reference, j, rc.claim.start, rc.claim.end, rc.claim.text, float(cos))


def _where(rc: ReferenceClaim, start: int, end: int, texts: Sequence[str] | None = None) -> str:
    s, e = _locate(rc, start, end, texts)
    return f"reference {rc.reference}, chars {s}–{e}"


def _describe_conflict(k: _Conflict, rc: ReferenceClaim, texts: Sequence[str] | None) -> tuple[str, str]:
    where = _where(rc, k.start, k.end, texts)
    if k.kind == "negation":
        return (
            f"negation flipped: response says {k.response_value!r}, "
            f"reference says {k.reference_value!r} ({where})",
            f"{k.response_value} → {k.reference_value}",
        )
    if k.kind in ("comparative", "antonym"):
        return (
            f"{k.kind} {k.response_value} ≠ {k.reference_value} ({where})",
            f"{k.response_value} → {k.reference_value}",
        )
    if k.kind == "bound":
        return (
            f"the reference states {k.reference_value!r} ({where}), past the response's bound "
            f"{k.response_value!r}",
            f"{k.response_value} → {k.reference_value}",
        )
    if k.kind == "ended":
        return (
            f"the reference says it no longer holds: {k.reference_value!r} ({where}); "
            f"the response states it as current ({k.response_value!r})",
            f"{k.response_value} → {k.reference_value}",
        )
    if k.kind == "range":
        return (
            f"{k.response_value} is outside the range the reference states, {k.reference_value!r} ({where})",
            f"{k.response_value} → {k.reference_value}",
        )
    if k.kind == "roles":
        return (
            f"roles swapped: response has {k.response_value}, reference has {k.reference_value} ({where})",
            f"{k.response_value} → {k.reference_value}",
        )
    if k.kind == "entity":
        return (
            f"entity {k.response_value} ≠ {k.reference_value} ({where})",
            f"{k.response_value} → {k.reference_value}",
        )
    if k.unit_only:
        label = "currency" if k.kind == "amount" else "unit"
        return (
            f"{label} {k.response_value} ≠ {k.reference_value} ({where})",
            f"{k.response_value} → {k.reference_value}",
        )
    return (
        f"{k.kind} {k.response_value} ≠ {k.reference_value} ({where})",
        f"{k.response_value} → {k.reference_value}",
    )


def _hedge_change(claim_text: str, ref_text: str, start: int, end: int) -> str:
    """``"enrolled → planned to enrol"``: the claim's word for the hedged predicate, and the
    reference's hedge with that predicate (or the hedge alone)."""
    m = re.match(r"\s*([\w,.'’%$€£-]+)", ref_text[end:])
    hedged = ref_text[start:end].strip()
    if m is None:
        return f"stated flatly → {hedged}"
    head = m.group(1).rstrip(",.")
    stems = content_tokens(head) or [head.lower()]
    mine = next(
        (w for w in re.findall(r"[\w,.'’%$€£-]+", claim_text) if w.rstrip(",.").lower() == head.lower()
         or any(token_match(t, x) for t in stems for x in content_tokens(w))),
        None,
    )  # fmt: skip
    if mine is None:
        return f"stated flatly → {hedged} {head}"
    return f"{mine.rstrip(',.')} → {hedged} {head}"
