"""Lazy reference decomposition in the workers' stages (real Postgres + pgvector): an audit with
``references = evidence`` and many references stores claims of the references that
``claims.audit.evidence_mask`` keeps only, and its result document is the in-memory engine's
(``claims.audit.audit_texts`` with the same options), claim by claim.
"""

from __future__ import annotations

from typing import Any

import pytest

from claims.audit import audit_texts, report_to_dict
from claims.options import AuditOptions
from db import repository as repo
from db.engine import session_scope
from tests.integration.test_stages import create
from workers import services

pytestmark = [pytest.mark.services, pytest.mark.slow]

FILLER = [
    f"The {colour} ferry number {k} leaves the northern harbour at dawn."
    for k, colour in enumerate(["red", "blue", "green", "grey", "white", "black"] * 5)
]


@pytest.mark.parametrize("mode", ["evidence", "full"])
def test_stages_decompose_what_the_in_memory_engine_does(session_factory: Any, mode: str) -> None:
    references = list(FILLER)
    references[21] = "The Halvorsen Bridge opened to traffic on 12 May 1998."
    response = "The Halvorsen Bridge opened in 2001."
    config = {"references": mode}
    aid = create(session_factory, response, references, config=config)
    with session_scope(session_factory) as s:
        services.decompose_audit(s, aid)
        services.embed_audit(s, aid)
        services.match_audit(s, aid)
        services.score_audit_stage(s, aid)
        repo.mark_done(s, aid)
    from api.documents import audit_document

    with session_factory() as s:
        doc = audit_document(s, aid)
    assert doc is not None
    options = AuditOptions.from_config(config)
    expected = report_to_dict(audit_texts(response, references, options=options), references, response)
    got = [(c["role"], c["reference"], c["text"], c["verdict"]) for c in doc["claims"]]
    want = [(c["role"], c["reference"], c["text"], c["verdict"]) for c in expected["claims"]]
    assert got == want
    kept = {c["reference"] for c in doc["claims"] if c["role"] == "reference"}
    assert 21 in kept
    if mode == "evidence":
        assert len(kept) < len(references)
    else:
        assert kept == set(range(len(references)))
