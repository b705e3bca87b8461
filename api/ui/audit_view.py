"""The audit page's view model, built from the ``GET /audits/{id}`` document and the texts.

Everything shown comes from the API's own document (``api.documents.audit_document``), so the
page and the JSON cannot disagree; ``claimaudit audit --html`` builds the same view from the
document it received (or computed offline). Pure: no database, no HTTP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from api.ui.edits import EditLine, edit_lines
from api.ui.legend import SCORE_DEFINITIONS, VerdictStyle, style_of
from api.ui.spans import Piece, assign_lanes, segment

__all__ = ["AuditView", "ClaimView", "EvidenceView", "RefClaimView", "ReferenceView", "build_audit_view"]

SUPPORTING = frozenset({"supported", "inferred"})


@dataclass(frozen=True, slots=True)
class EvidenceView:
    """One evidence locator of a response claim: ``rank`` (0 = best), reference index,
    character span, text, cosine ``similarity`` in [-1, 1], and ``targets``: the flat indices of
    the reference claims at that locator (what the page highlights)."""

    rank: int
    reference: int
    start: int
    end: int
    text: str
    similarity: float
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ClaimView:
    """A response claim: ``index`` 0-based (``number`` = index + 1 on the page), span, verdict
    style, reason, ``confidence`` in [0, 1] or None, evidence best first, underline ``lane``."""

    index: int
    text: str
    start: int
    end: int
    kind: str
    style: VerdictStyle
    reason: str | None
    confidence: float | None
    evidence: tuple[EvidenceView, ...]
    lane: int

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(frozen=True, slots=True)
class RefClaimView:
    """A reference claim: flat ``index`` (the engine's order), reference, ``position`` in it, span,
    text, kind, and
    whether a supported or inferred response claim cites it (the numerator of claim_recall)."""

    index: int
    reference: int
    position: int
    start: int
    end: int
    text: str
    kind: str
    covered: bool

    @property
    def key(self) -> str:
        """``"<reference>-<position>"``: the page anchor ``#ref-<reference>-<position>``."""
        return f"{self.reference}-{self.position}"


@dataclass(frozen=True, slots=True)
class ReferenceView:
    """One reference text cut at its claims' boundaries (``pieces``' marks are flat indices)."""

    index: int
    text: str
    pieces: list[Piece]


@dataclass
class AuditView:
    """Everything the audit page shows (see the module docstring)."""

    id: str
    status: str
    error: str | None
    question: str | None
    metadata: dict[str, Any] | None
    response_text: str
    response_pieces: list[Piece]
    claims: list[ClaimView]
    references: list[ReferenceView]
    reference_claims: list[RefClaimView]
    edits: list[EditLine]
    scores: list[tuple[str, Any, str]]
    counts: dict[str, int] | None
    lanes: int
    threshold: float | None = None
    json_url: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def uncovered(self) -> list[RefClaimView]:
        """Material reference claims no supported or inferred response claim cites."""
        return [rc for rc in self.reference_claims if rc.kind == "material" and not rc.covered]


def _key(reference: int, start: int, end: int) -> tuple[int, int, int]:
    return (int(reference), int(start), int(end))


def _reference_claims(
    claims: Sequence[dict[str, Any]], covered: set[tuple[int, int, int]]
) -> list[RefClaimView]:
    refs = [c for c in claims if c.get("role") == "reference"]
    return [
        RefClaimView(
            index=j,
            reference=int(c["reference"]),
            position=int(c.get("position") or 0),
            start=int(c["start"]),
            end=int(c["end"]),
            text=str(c["text"]),
            kind=str(c.get("kind") or "material"),
            covered=_key(c["reference"], c["start"], c["end"]) in covered,
        )
        for j, c in enumerate(refs)
    ]


def _covered(responses: Sequence[dict[str, Any]]) -> set[tuple[int, int, int]]:
    """Locators cited by supported/inferred material response claims (claims.score._covered)."""
    return {
        _key(e["reference"], e["start"], e["end"])
        for c in responses
        if c.get("kind") == "material" and c.get("verdict") in SUPPORTING
        for e in c.get("evidence") or []
    }


def _claim_views(
    responses: Sequence[dict[str, Any]], by_key: dict[tuple[int, int, int], list[int]]
) -> list[ClaimView]:
    lanes = assign_lanes([(int(c["start"]), int(c["end"])) for c in responses])
    out = []
    for i, c in enumerate(responses):
        evidence = tuple(
            EvidenceView(
                rank=rank,
                reference=int(e["reference"]),
                start=int(e["start"]),
                end=int(e["end"]),
                text=str(e.get("text") or ""),
                similarity=float(e["similarity"]),
                targets=tuple(by_key.get(_key(e["reference"], e["start"], e["end"]), ())),
            )
            for rank, e in enumerate(c.get("evidence") or [])
        )
        out.append(
            ClaimView(
                index=i,
                text=str(c["text"]),
                start=int(c["start"]),
                end=int(c["end"]),
                kind=str(c.get("kind") or "material"),
                style=style_of(c.get("verdict"), str(c.get("kind") or "material")),
                reason=c.get("reason"),
                confidence=c.get("confidence"),
                evidence=evidence,
                lane=lanes[i],
            )
        )
    return out


def _references(texts: Sequence[str], ref_claims: Sequence[RefClaimView]) -> list[ReferenceView]:
    views = []
    for r, text in enumerate(texts):
        mine = [rc for rc in ref_claims if rc.reference == r]
        pieces = segment(text, [(rc.start, rc.end) for rc in mine])
        flat = [rc.index for rc in mine]
        mapped = [Piece(p.kind, p.start, p.end, p.text, tuple(flat[m] for m in p.marks)) for p in pieces]
        views.append(ReferenceView(index=r, text=text, pieces=mapped))
    return views


def build_audit_view(
    doc: dict[str, Any], response_text: str, reference_texts: Sequence[str], *, json_url: str | None = None
) -> AuditView:
    """The view of one audit document (``GET /audits/{id}`` shape) with its texts.

    ``response_text`` / ``reference_texts`` are the submitted texts (claim spans index them).
    Before the audit is done the document has no claims: the texts are shown without marks.
    """
    claims = list(doc.get("claims") or [])
    responses = [c for c in claims if c.get("role") == "response"]
    ref_claims = _reference_claims(claims, _covered(responses))
    by_key: dict[tuple[int, int, int], list[int]] = {}
    for rc in ref_claims:
        by_key.setdefault(_key(rc.reference, rc.start, rc.end), []).append(rc.index)
    claim_views = _claim_views(responses, by_key)
    scores_doc = doc.get("scores")
    scores = (
        [(name, scores_doc.get(name), SCORE_DEFINITIONS[name]) for name in SCORE_DEFINITIONS]
        if scores_doc
        else []
    )
    return AuditView(
        id=str(doc.get("id") or ""),
        status=str(doc.get("status") or "done"),
        error=doc.get("error"),
        question=doc.get("question"),
        metadata=doc.get("metadata"),
        response_text=response_text,
        response_pieces=segment(response_text, [(c.start, c.end) for c in claim_views]),
        claims=claim_views,
        references=_references(reference_texts, ref_claims),
        reference_claims=ref_claims,
        edits=edit_lines(doc.get("edit_script") or []),
        scores=scores,
        counts=doc.get("counts"),
        lanes=max((c.lane for c in claim_views), default=-1) + 1,
        threshold=doc.get("threshold"),
        json_url=json_url,
    )
