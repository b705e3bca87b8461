"""Reading an audit back: its documents, claims, vectors, verdicts and scores as engine types.

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import case, select
from sqlalchemy.orm import Session, defer

from claims.types import (
    COUNT_NAMES,
    SCORE_NAMES,
    AuditResult,
    AuditScores,
    Claim,
    ClaimKind,
    EditOp,
    Evidence,
    Judgement,
    MatchSummary,
    ReferenceClaim,
    Verdict,
)
from db.audits import get_audits
from db.models import (
    Audit,
    ClaimRow,
    Document,
    EvidenceRow,
    ScoreRow,
    VerdictRow,
)


@dataclass
class AuditState:
    """An audit rebuilt from its rows as the engine's value types.

    ``response_rows[i]`` is the row of ``response_claims[i]``; ``reference_rows[j]`` the row of
    ``reference_claims[j]`` (the flat reference list). ``judgements`` is None before the match
    stage stored verdicts; ``result`` None before the score stage. ``match_summary``: what the
    match stage stored of the cosine matrix for the scores, None when verdicts were not read or
    were stored without it (``claims.score.MatchSummary``).
    """

    audit: Audit
    response_text: str
    reference_texts: list[str]
    response_rows: list[ClaimRow]
    reference_rows: list[ClaimRow]
    response_claims: list[Claim]
    reference_claims: list[ReferenceClaim]
    judgements: list[Judgement] | None
    result: AuditResult | None
    threshold: float | None
    embedding_model: str | None
    #: Per reference index, the caller's names of its source document: ``{"id", "url", "title"}``,
    #: each None when not sent (a reference sent as a plain string has all three None).
    reference_sources: list[dict[str, str | None]] = field(default_factory=list)
    match_summary: MatchSummary | None = None

    def vectors(self, role: str) -> np.ndarray:
        """Stored vectors of one role's claims, float32 ``(n, dim)``; raises if any is missing."""
        rows = self.response_rows if role == "response" else self.reference_rows
        if any(r.embedding is None for r in rows):
            raise ValueError(f"audit {self.audit.id}: {role} claims without embedding")
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([np.asarray(r.embedding, dtype=np.float32) for r in rows])


def _claim(row: ClaimRow) -> Claim:
    return Claim(
        text=row.text,
        start=row.char_start,
        end=row.char_end,
        kind=ClaimKind(row.kind),
        position=row.position,
        duplicates=row.duplicates,
        ambiguous=row.ambiguous,
    )


def load_audit_state(session: Session, audit_id: uuid.UUID) -> AuditState | None:
    """Load an audit with its documents, claims, verdicts (with evidence) and scores (6 queries)."""
    return load_audit_states(session, [audit_id]).get(audit_id)


def load_audit_states(
    session: Session,
    audit_ids: Sequence[uuid.UUID],
    *,
    verdicts: bool = True,
    scores: bool = True,
    vectors: bool = True,
    audits: Sequence[Audit] | None = None,
) -> dict[uuid.UUID, AuditState]:
    """:func:`load_audit_state` of several audits in the same 6 queries (a bundle's stage);
    audits that do not exist are absent from the result.

    ``verdicts=False`` skips the verdicts and their evidence (``judgements`` is None: what the
    match stage, which replaces them, reads); ``scores=False`` skips the score row (``result``,
    ``threshold`` and ``embedding_model`` are None: what the score stage, which replaces it,
    reads). Each skipped table is one query fewer. ``vectors=False`` leaves the claims' embeddings
    unread (what a result document needs: it shows no vector; reading one then loads it alone).
    ``audits``: the audit rows of ``audit_ids``,
    already read (then they are not read again; rows of other audits are ignored).
    """
    wanted = set(audit_ids)
    rows = get_audits(session, audit_ids) if audits is None else [a for a in audits if a.id in wanted]
    by_id = {a.id: a for a in rows}
    if not by_id:
        return {}
    ids = list(by_id)
    role_order = case((Document.role == "response", 0), else_=1)
    docs = session.scalars(
        select(Document).where(Document.audit_id.in_(ids)).order_by(role_order, Document.position)
    ).all()
    claims = session.scalars(
        select(ClaimRow)
        .options(*(() if vectors else (defer(ClaimRow.embedding),)))
        .join(Document, Document.id == ClaimRow.document_id)
        .where(ClaimRow.audit_id.in_(ids))
        .order_by(role_order, Document.position, ClaimRow.position)
    ).all()
    verdict_rows: Sequence[VerdictRow] = ()
    evidence: Sequence[EvidenceRow] = ()
    score_rows: Sequence[ScoreRow] = ()
    if verdicts:
        verdict_rows = session.scalars(select(VerdictRow).where(VerdictRow.audit_id.in_(ids))).all()
        evidence = session.scalars(
            select(EvidenceRow)
            .where(EvidenceRow.audit_id.in_(ids))
            .order_by(EvidenceRow.verdict_id, EvidenceRow.rank)
        ).all()
    if scores:
        score_rows = session.scalars(
            select(ScoreRow).where(ScoreRow.audit_id.in_(ids)).execution_options(populate_existing=True)
        ).all()
    children = (("docs", docs), ("claims", claims), ("verdicts", verdict_rows), ("evidence", evidence))
    return _grouped(by_id, children, score_rows)


def _grouped(
    by_id: dict[uuid.UUID, Audit],
    children: Sequence[tuple[str, Sequence[Any]]],
    score_rows: Sequence[ScoreRow],
) -> dict[uuid.UUID, AuditState]:
    """Each audit's state from the rows read for all of them (``children``: the field of
    :class:`_AuditRows` each kind of row goes to, and the rows)."""
    by_audit = {aid: _AuditRows(audit) for aid, audit in by_id.items()}
    for field_name, members in children:
        for member in members:
            getattr(by_audit[member.audit_id], field_name).append(member)
    for score in score_rows:
        by_audit[score.audit_id].score = score
    return {aid: _state_of(grouped) for aid, grouped in by_audit.items()}


@dataclass
class _AuditRows:
    """The rows of one audit, each list in :func:`get_documents` / :func:`list_claims` order."""

    audit: Audit
    docs: list[Document] = field(default_factory=list)
    claims: list[ClaimRow] = field(default_factory=list)
    verdicts: list[VerdictRow] = field(default_factory=list)
    evidence: list[EvidenceRow] = field(default_factory=list)
    score: ScoreRow | None = None


def _state_of(rows: _AuditRows) -> AuditState:
    doc_position = {d.id: d.position for d in rows.docs}
    response_rows = [r for r in rows.claims if r.role == "response"]
    reference_rows = [r for r in rows.claims if r.role == "reference"]
    reference_claims = [
        ReferenceClaim(reference=doc_position[r.document_id], claim=_claim(r)) for r in reference_rows
    ]
    score = rows.score
    return AuditState(
        audit=rows.audit,
        response_text=next((d.text for d in rows.docs if d.role == "response"), ""),
        reference_texts=[d.text for d in rows.docs if d.role == "reference"],
        response_rows=response_rows,
        reference_rows=reference_rows,
        response_claims=[_claim(r) for r in response_rows],
        reference_claims=reference_claims,
        judgements=_judgements_of(rows, response_rows, reference_rows, reference_claims),
        result=None if score is None else _result_of(score),
        threshold=None if score is None else score.threshold,
        embedding_model=None if score is None else score.embedding_model,
        reference_sources=[
            {"id": d.source_id, "url": d.source_url, "title": d.source_title}
            for d in rows.docs
            if d.role == "reference"
        ],
        match_summary=_summary_of(rows.verdicts, response_rows, reference_rows),
    )


def _summary_of(
    verdicts: Sequence[VerdictRow], response_rows: list[ClaimRow], reference_rows: list[ClaimRow]
) -> MatchSummary | None:
    """The stored ``MatchSummary``; None when a response claim has no verdict or the verdicts
    were written without it (a best cosine missing while there are material reference claims,
    or a substitute that is not a reference claim of the audit)."""
    by_claim = {v.claim_id: v for v in verdicts}
    if len(by_claim) != len(response_rows) or any(r.id not in by_claim for r in response_rows):
        return None
    stored = [by_claim[r.id] for r in response_rows]
    material = any(r.kind == ClaimKind.MATERIAL.value for r in reference_rows)
    if material and any(v.best_similarity is None for v in stored):
        return None
    ref_index = {r.id: j for j, r in enumerate(reference_rows)}
    substitutes: dict[int, int] = {}
    for i, v in enumerate(stored):
        if v.substitute_claim_id is not None:
            if v.substitute_claim_id not in ref_index:
                return None
            substitutes[i] = ref_index[v.substitute_claim_id]
    best = tuple(v.best_similarity if material else None for v in stored)
    return MatchSummary(best, substitutes)


def _judgements_of(
    rows: _AuditRows,
    response_rows: list[ClaimRow],
    reference_rows: list[ClaimRow],
    reference_claims: list[ReferenceClaim],
) -> list[Judgement] | None:
    """The stored verdicts as ``Judgement``s by response index; None before the match stage."""
    if not rows.verdicts:
        return None
    ref_index = {r.id: j for j, r in enumerate(reference_rows)}
    resp_index = {r.id: i for i, r in enumerate(response_rows)}
    by_verdict: dict[int, list[EvidenceRow]] = {}
    for e in rows.evidence:
        by_verdict.setdefault(e.verdict_id, []).append(e)
    judged = []
    for v in rows.verdicts:
        evidence = []
        for e in by_verdict.get(v.id, []):
            j = ref_index[e.reference_claim_id]
            rc = reference_claims[j]
            evidence.append(
                Evidence(
                    reference=rc.reference,
                    claim_index=j,
                    start=rc.claim.start,
                    end=rc.claim.end,
                    text=rc.claim.text,
                    similarity=float(e.similarity),
                )
            )
        judged.append(
            Judgement(
                response_index=resp_index[v.claim_id],
                verdict=Verdict(v.verdict),
                evidence=tuple(evidence),
                reason=v.reason,
                change=v.change,
                confidence=v.confidence,
            )
        )
    return sorted(judged, key=lambda j: j.response_index)


def _result_of(score: ScoreRow) -> AuditResult:
    return AuditResult(
        scores=AuditScores(**{name: getattr(score, name) for name in SCORE_NAMES}),
        counts={name: getattr(score, name) for name in COUNT_NAMES},
        edit_script=tuple(
            EditOp(
                op=o["op"],
                response_claim=o["response_claim"],
                reference_claim=o["reference_claim"],
                reason=o["reason"],
            )
            for o in score.edit_script
        ),
    )
