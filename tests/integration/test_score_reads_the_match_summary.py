"""The cosine matrix is computed once, by the match stage: each verdict row stores its claim's
part of the ``claims.score.MatchSummary`` (best cosine over the material reference claims, the
edit script's substitute), and the score stage scores from those, never from the vectors.

Expected values come from the in-memory engine (``claims.audit.audit_texts``) on the same texts,
which computes the matrix itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sqlalchemy import select, update

from claims.audit import audit_texts, report_to_dict
from db import repository as repo
from db.engine import session_scope
from db.models import ClaimRow, VerdictRow
from tests.integration.test_stages import REFERENCE, RESPONSE, assert_same, create, document, run_stage

pytestmark = [pytest.mark.services, pytest.mark.slow]

REFERENCES = [REFERENCE, "Teodor Halm is a composer."]


def _expected() -> dict[str, Any]:
    return report_to_dict(audit_texts(RESPONSE, REFERENCES), REFERENCES, RESPONSE)


def _matched(session_factory: Any) -> Any:
    aid = create(session_factory, RESPONSE, REFERENCES)
    for stage in ("decompose", "embed", "match"):
        run_stage(session_factory, stage, aid)
    return aid


def test_match_stores_the_summary_and_score_never_reads_the_vectors(session_factory: Any) -> None:
    aid = _matched(session_factory)
    expected = _expected()
    with session_scope(session_factory) as s:
        verdicts = s.scalars(select(VerdictRow).where(VerdictRow.audit_id == aid)).all()
        # every response claim's best cosine is stored (the audit has material reference claims)
        assert verdicts and all(v.best_similarity is not None for v in verdicts)
        # the response's "2001" contradicts the reference's "2004": one substitution (the expected
        # edit script's), paired with a reference claim of this audit
        subs = [v for v in verdicts if v.substitute_claim_id is not None]
        assert len(subs) == sum(op["op"] == "substitute" for op in expected["edit_script"]) == 1
        # scramble every stored vector after the match: a score computed from them would differ
        rows = s.scalars(select(ClaimRow).where(ClaimRow.audit_id == aid)).all()
        model, vector = rows[0].embedding_model, rows[0].embedding
        assert model is not None and vector is not None
        dim = len(vector)
        noise = np.random.default_rng(0).standard_normal((len(rows), dim)).astype(np.float32)
        repo.set_embeddings(s, [r.id for r in rows], noise, model=model, dim=dim)
    run_stage(session_factory, "score", aid)
    doc = document(session_factory, aid)
    for key in ("scores", "counts", "edit_script"):
        assert_same(doc[key], expected[key], key)


def test_verdicts_stored_without_a_summary_are_scored_from_the_vectors(session_factory: Any) -> None:
    aid = _matched(session_factory)
    with session_scope(session_factory) as s:  # as a match stage that ran before the summary was stored
        s.execute(
            update(VerdictRow)
            .where(VerdictRow.audit_id == aid)
            .values(best_similarity=None, substitute_claim_id=None)
        )
    run_stage(session_factory, "score", aid)
    doc = document(session_factory, aid)
    expected = _expected()
    for key in ("scores", "counts", "edit_script"):
        assert_same(doc[key], expected[key], key)
