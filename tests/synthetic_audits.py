"""Finished audits written through the repository functions the workers use, with claim spans
and verdicts chosen by the test (overlapping spans, 200 claims), scored by the engine's own
``claims.score.score_audit``. Real Postgres; no pipeline run, so the spans are exactly known."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from claims.score import score_audit
from claims.types import Claim, ClaimKind, Evidence, Judgement, ReferenceClaim, Verdict
from db import leases
from db import repository as repo
from db.engine import session_scope
from db.models import STAGES


@dataclass(frozen=True)
class Spec:
    """A response claim to store: span, verdict, and its evidence (reference claim indices)."""

    start: int
    end: int
    verdict: str
    evidence: tuple[int, ...] = ()
    kind: str = "material"
    confidence: float | None = 0.8


def _claim_rows(
    doc_id: int, role: str, spans: Sequence[tuple[int, int, str]], text: str
) -> list[dict[str, Any]]:
    return [
        {
            "document_id": doc_id,
            "role": role,
            "position": p,
            "text": text[s:e],
            "char_start": s,
            "char_end": e,
            "kind": kind,
            "duplicates": 0,
            "ambiguous": False,
        }
        for p, (s, e, kind) in enumerate(spans)
    ]


def store_finished_audit(
    session_factory: Any,
    response: str,
    reference: str,
    specs: Sequence[Spec],
    ref_spans: Sequence[tuple[int, int]],
    *,
    metadata: dict[str, Any] | None = None,
) -> uuid.UUID:
    """Store a ``done`` audit of one reference with the given claims and verdicts; its id."""
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s,
            repo.NewAudit(
                response=response, references=[reference], request_sha256=uuid.uuid4().hex, metadata=metadata
            ),
        )
        aid = audit.id
        docs = repo.get_documents(s, aid)
        rows = _claim_rows(docs[0].id, "response", [(x.start, x.end, x.kind) for x in specs], response)
        rows += _claim_rows(docs[1].id, "reference", [(a, b, "material") for a, b in ref_spans], reference)
        repo.replace_claims(s, aid, rows)
        for stage in STAGES:  # each stage's start time, as the workers record it (db.leases)
            start = leases.begin_stage(s, aid, stage, lease_s=60)
            if stage != STAGES[-1]:
                assert start.token is not None
                leases.finish_stage(s, aid, stage, start.token, pending_s=60)
        stored = repo.list_claims(s, aid)
        resp_rows = [r for r in stored if r.role == "response"]
        ref_rows = [r for r in stored if r.role == "reference"]
        verdicts = [
            repo.NewVerdict(
                claim_id=resp_rows[i].id,
                verdict=x.verdict,
                reason=f"synthetic {x.verdict}",
                change=None,
                evidence=[(ref_rows[j].id, 0.9 - 0.1 * k) for k, j in enumerate(x.evidence)],
                confidence=x.confidence,
            )
            for i, x in enumerate(specs)
        ]
        repo.replace_verdicts(s, aid, verdicts)
        result = _score(response, reference, specs, ref_spans)
        repo.upsert_scores(s, aid, result, threshold=0.65, embedding_model="synthetic")
        repo.mark_done(s, aid)
    return aid


def _score(response: str, reference: str, specs: Sequence[Spec], ref_spans: Sequence[tuple[int, int]]) -> Any:
    claims = [
        Claim(response[x.start : x.end], x.start, x.end, ClaimKind(x.kind), i) for i, x in enumerate(specs)
    ]
    refs = [
        ReferenceClaim(0, Claim(reference[a:b], a, b, ClaimKind.MATERIAL, j))
        for j, (a, b) in enumerate(ref_spans)
    ]
    judgements = [
        Judgement(
            i,
            Verdict(x.verdict),
            tuple(
                Evidence(0, j, ref_spans[j][0], ref_spans[j][1], reference[slice(*ref_spans[j])], 0.9)
                for j in x.evidence
            ),
        )
        for i, x in enumerate(specs)
    ]
    sim = np.zeros((len(claims), len(refs)), dtype=np.float32)
    return score_audit(claims, refs, judgements, sim, response_text=response, reference_texts=[reference])


VERDICT_CYCLE = (
    "supported",
    "contradicted",
    "unsupported",
    "inferred",
    "qualification_dropped",
    "outside_scope",
)


def audit_of_n_claims(session_factory: Any, n: int, references: int = 50) -> uuid.UUID:
    """A finished audit of ``n`` one-sentence response claims against ``references`` reference
    sentences, the verdicts cycling through every kind (so every colour and label is on the page),
    each judged claim citing two reference claims. The page-size test and the page-load benchmark
    (an audit of 200 claims) store it."""
    sentences = [f"Claim number {i} says the bridge carries {i % 7 + 1} lanes. " for i in range(n)]
    specs, pos = [], 0
    for i, s in enumerate(sentences):
        verdict = VERDICT_CYCLE[i % len(VERDICT_CYCLE)]
        kind = "outside_scope" if verdict == "outside_scope" else "material"
        evidence = (
            () if verdict in ("unsupported", "outside_scope") else (i % references, (i + 1) % references)
        )
        specs.append(Spec(pos, pos + len(s) - 1, verdict, evidence, kind))
        pos += len(s)
    refs = [f"Reference sentence {j}: the bridge carries {j % 7 + 1} lanes." for j in range(references)]
    spans, at = [], 0
    for r in refs:
        spans.append((at, at + len(r)))
        at += len(r) + 1
    return store_finished_audit(session_factory, "".join(sentences), " ".join(refs), specs, spans)
