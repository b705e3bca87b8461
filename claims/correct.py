"""Corrected answers: apply an audit's claim edit script to the response text, deterministically.

For each response claim the audit did not accept:

* ``contradicted`` / ``qualification_dropped``: the verdict's ``change`` (``"1989 → 1998"``,
  ``"file → may file"``) is applied inside the claim's span: the old value is replaced by the
  evidence's value, a modal before it ("will file") goes with it. When the old value is not
  found in the span, the whole span is replaced by the text of the reference claim the edit
  script pairs it with (or its best evidence).
* ``unsupported``: the claim's span is removed, with a connector left dangling before the end
  of its sentence ("long and carries six lanes." → "long.").
* optionally (``insert_missing``) the reference claims the response does not cover are appended.

The rest of the text is kept as written. Edits whose spans overlap an earlier edit are skipped
(and listed as such), so no character is edited twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from claims.types import Claim, EditOp, Judgement, ReferenceClaim, Verdict

__all__ = ["Correction", "CorrectionEdit", "correct_response"]

_CHANGE = re.compile(r"^(?P<old>.+?)\s*→\s*(?P<new>.+)$")
_MODAL_BEFORE = re.compile(r"\b(?:will|would|shall|can|does|did|is|are)\s+$", re.IGNORECASE)
_DANGLING = re.compile(r"\s*(?:,|;|\band\b|\bbut\b|\bor\b)\s*(?=[.!?]|$)")


@dataclass(frozen=True, slots=True)
class CorrectionEdit:
    """One edit of the response text: ``op`` is ``replace``, ``delete``, ``insert`` or
    ``skipped`` (overlaps an earlier edit); ``[start, end)`` is the span in the original
    response (``start == end == len(response)`` for an insert); ``before``/``after`` the text
    there before and after; ``claim`` the response claim index (None for an insert)."""

    op: str
    start: int
    end: int
    before: str
    after: str
    reason: str
    claim: int | None


@dataclass(frozen=True, slots=True)
class Correction:
    """The corrected ``text`` and the ``edits`` that made it from the response (in text order)."""

    text: str
    edits: tuple[CorrectionEdit, ...]

    @property
    def changed(self) -> bool:
        """True when at least one edit was applied."""
        return any(e.op != "skipped" for e in self.edits)


def _value_edit(response: str, claim: Claim, change: str | None) -> tuple[int, int, str] | None:
    """``(start, end, new)`` replacing the change's old value inside the claim's span, or None."""
    m = _CHANGE.match(change or "")
    if not m:
        return None
    old, new = m.group("old").strip(), m.group("new").strip()
    at = response.find(old, claim.start, claim.end)
    if at < 0:
        return None
    start, end = at, at + len(old)
    modal = _MODAL_BEFORE.search(response, claim.start, start)
    if modal and new.endswith(old) and new != old:  # "will file" → "may file", not "will may file"
        start = modal.start()
    return start, end, new


def _replacement_text(response: str, claim: Claim, reference_text: str) -> str:
    """The reference claim's text fitted to the span: no final stop where the span has none."""
    span = response[claim.start : claim.end]
    text = reference_text.strip()
    if not span.rstrip().endswith((".", "!", "?")):
        text = text.rstrip(".!?")
    return text


def _edit_for(
    i: int,
    j: Judgement,
    response: str,
    claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    paired: dict[int, int],
) -> CorrectionEdit | None:
    c = claims[i]
    before = response[c.start : c.end]
    if j.verdict is Verdict.UNSUPPORTED:
        return CorrectionEdit("delete", c.start, c.end, before, "", f"unsupported: {j.reason}", i)
    if j.verdict not in (Verdict.CONTRADICTED, Verdict.QUALIFICATION_DROPPED):
        return None
    reason = f"{j.verdict.value}: {j.change or j.reason}"
    value = _value_edit(response, c, j.change)
    if value is not None:
        start, end, new = value
        return CorrectionEdit("replace", start, end, response[start:end], new, reason, i)
    ref = paired.get(i, j.evidence[0].claim_index if j.evidence else None)
    if ref is None:
        return CorrectionEdit("delete", c.start, c.end, before, "", f"{reason} (no evidence to take)", i)
    after = _replacement_text(response, c, reference_claims[ref].claim.text)
    return CorrectionEdit("replace", c.start, c.end, before, after, reason, i)


def _apply(
    response: str, edits: list[CorrectionEdit], protected: Sequence[tuple[int, int]]
) -> tuple[str, list[CorrectionEdit]]:
    """Apply non-overlapping edits (earlier span wins); return the text and every edit, the
    overlapping ones as ``skipped``. A deletion that overlaps a ``protected`` span (an accepted
    claim decomposed from the same words) is skipped too: it would delete accepted content."""
    kept: list[CorrectionEdit] = []
    out: list[CorrectionEdit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        shared = e.op == "delete" and any(s < e.end and e.start < t for s, t in protected)
        if shared or (kept and e.start < kept[-1].end):
            out.append(CorrectionEdit("skipped", e.start, e.end, e.before, e.before, e.reason, e.claim))
            continue
        kept.append(e)
        out.append(e)
    text = response
    for e in reversed(kept):
        text = text[: e.start] + e.after + text[e.end :]
    return text, out


def _tidy(text: str) -> str:
    """Remove connectors left before a sentence end, doubled spaces and space before a stop."""
    text = _DANGLING.sub("", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\s+([.,;!?])", r"\1", text)
    text = re.sub(r"([.!?])\1+", r"\1", text)
    return text.strip()


def correct_response(
    response: str,
    claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
    edit_script: Sequence[EditOp] = (),
    *,
    insert_missing: bool = False,
) -> Correction:
    """The response with the audit's edit script applied (see the module docstring).

    Parameters
    ----------
    response : str
        The audited response text.
    claims, reference_claims, judgements : sequences
        The audit's response claims (spans into ``response``), flat reference claims and one
        judgement per response claim (``Judgement.response_index`` indexes ``claims``).
    edit_script : sequence of EditOp
        The audit's edit script: its substitutions say which reference claim replaces a
        claim when its value cannot be edited in place; its inserts are appended when
        ``insert_missing``.
    insert_missing : bool
        Append the reference claims the response does not cover (default False).

    Returns
    -------
    Correction
        ``text`` equals ``response`` when the audit accepted every claim.

    Examples
    --------
    >>> from claims.types import Claim, Judgement, Verdict
    >>> r = "The bridge opened in 1989. It has six lanes."
    >>> cs = [Claim("The bridge opened in 1989.", 0, 26), Claim("The bridge has six lanes.", 27, 44)]
    >>> js = [Judgement(0, Verdict.CONTRADICTED, change="1989 → 1998"), Judgement(1, Verdict.UNSUPPORTED)]
    >>> correct_response(r, cs, [], js).text
    'The bridge opened in 1998.'
    """
    paired = {op.response_claim: op.reference_claim for op in edit_script if op.op == "substitute"}
    paired_int = {k: v for k, v in paired.items() if k is not None and v is not None}
    edits = [
        e
        for j in judgements
        if 0 <= j.response_index < len(claims)
        and (e := _edit_for(j.response_index, j, response, claims, reference_claims, paired_int)) is not None
    ]
    accepted = {j.response_index for j in judgements if j.verdict in (Verdict.SUPPORTED, Verdict.INFERRED)}
    protected = [(claims[i].start, claims[i].end) for i in sorted(accepted) if 0 <= i < len(claims)]
    text, applied = _apply(response, edits, protected)
    if insert_missing:
        for op in edit_script:
            if op.op == "insert" and op.reference_claim is not None:
                added = reference_claims[op.reference_claim].claim.text.strip()
                applied.append(
                    CorrectionEdit("insert", len(response), len(response), "", added, op.reason, None)
                )
                text = f"{text.rstrip()} {added}"
    changed = any(e.op != "skipped" for e in applied)
    return Correction(text=_tidy(text) if changed else response, edits=tuple(applied))
