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
from claims.verdict.findings import Conflict

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


def evidence_at(reference_claims: Sequence[ReferenceClaim], j: int, cos: float) -> Evidence:
    rc = reference_claims[j]
    return Evidence(rc.reference, j, rc.claim.start, rc.claim.end, rc.claim.text, float(cos))


def where_stated(rc: ReferenceClaim, start: int, end: int, texts: Sequence[str] | None = None) -> str:
    s, e = _locate(rc, start, end, texts)
    return f"reference {rc.reference}, chars {s}–{e}"


#: the reason of a conflict of each kind: a template of ``r`` (the response's value), ``v`` (the
#: reference's value) and ``where``; other kinds read "<kind> <r> ≠ <v> (<where>)"
_REASONS = {
    "negation": "negation flipped: response says {r!r}, reference says {v!r} ({where})",
    "bound": "the reference states {v!r} ({where}), past the response's bound {r!r}",
    "office": "another office: response says {r!r}, reference says {v!r} ({where})",
    "bounds": "bounds from opposite sides: response says {r!r}, reference says {v!r} ({where})",
    "ended": (
        "the reference says it no longer holds: {v!r} ({where}); the response states it as current ({r!r})"
    ),
    "range": "{r} is outside the range the reference states, {v!r} ({where})",
    "roles": "roles swapped: response has {r}, reference has {v} ({where})",
}


def describe_conflict(k: Conflict, rc: ReferenceClaim, texts: Sequence[str] | None) -> tuple[str, str]:
    """The reason and the change ("2001 → 2004") of the conflict ``k``."""
    where = where_stated(rc, k.start, k.end, texts)
    label = k.kind
    if k.unit_only and k.kind not in _REASONS and k.kind not in ("comparative", "antonym", "entity"):
        label = "currency" if k.kind == "amount" else "unit"
    template = _REASONS.get(k.kind, "{label} {r} ≠ {v} ({where})")
    reason = template.format(label=label, r=k.response_value, v=k.reference_value, where=where)
    return reason, f"{k.response_value} → {k.reference_value}"


def hedge_change(claim_text: str, ref_text: str, start: int, end: int) -> str:
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
