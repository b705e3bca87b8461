"""The reference cache against real Postgres + pgvector: a reference text a tenant sent before
is not decomposed again, another tenant or another engine version does not read it, and an
audit scored from cached claims equals one scored from fresh ones.

Expected values come from the engine itself: the cached claims must equal
``claims.decompose.decompose`` of the same text, and a result document from cached claims must
equal the in-memory engine's (``claims.audit.audit_texts``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import func, select

from claims.audit import audit_texts, report_to_dict
from claims.decompose import decompose
from claims.types import Role
from db import repository as repo
from db.engine import session_scope
from db.models import ReferenceCacheRow
from db.reference_cache import text_sha256
from service import metrics
from tests.integration.test_stages import create
from workers import components, reference_cache, services

pytestmark = [pytest.mark.services, pytest.mark.slow]

PASSAGE = (
    "The Skarvik ferry entered service in 1996. It carries 240 passengers and crosses the fjord "
    "in 25 minutes. A second ferry was ordered in 2019."
)


def _audit(session_factory: Any, response: str, references: Sequence[str], tenant: str) -> uuid.UUID:
    return create(session_factory, response, references, tenant=tenant)


def _decompose(session_factory: Any, aid: uuid.UUID) -> None:
    with session_scope(session_factory) as s:
        services.decompose_audit(s, aid)


def _rows(session_factory: Any, tenant: str, text: str) -> list[ReferenceCacheRow]:
    with session_factory() as s:
        return list(
            s.scalars(
                select(ReferenceCacheRow).where(
                    ReferenceCacheRow.tenant_id == tenant, ReferenceCacheRow.text_sha256 == text_sha256(text)
                )
            )
        )


@pytest.fixture
def decomposed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the decompose stage decomposes itself (not read from the reference cache)."""
    texts: list[str] = []
    real = components.decompose_text

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(components, "decompose_text", spy)
    return texts


def _hits() -> float:
    return metrics.REFERENCE_CACHE.labels("hit")._value.get()


def test_a_tenants_repeated_reference_is_read_from_the_cache(
    session_factory: Any, decomposed: list[str]
) -> None:
    tenant = f"rc-{uuid.uuid4().hex[:8]}"
    first = _audit(session_factory, "The Skarvik ferry entered service in 1996.", [PASSAGE], tenant)
    _decompose(session_factory, first)
    [row] = _rows(session_factory, tenant, PASSAGE)
    assert [c["text"] for c in row.claims] == [c.text for c in decompose(PASSAGE, role=Role.REFERENCE)]

    decomposed.clear()
    hits = _hits()
    second = _audit(session_factory, "The ferry carries 240 passengers.", [PASSAGE], tenant)
    _decompose(session_factory, second)
    assert decomposed == ["The ferry carries 240 passengers."]  # the response only
    assert _hits() == hits + 1
    with session_factory() as s:
        claims = {
            aid: [
                (c.text, c.char_start, c.char_end) for c in repo.list_claims(s, aid) if c.role == "reference"
            ]
            for aid in (first, second)
        }
    assert claims[first] == claims[second]
    assert len(_rows(session_factory, tenant, PASSAGE)) == 1


def test_another_tenant_or_engine_version_decomposes_again(
    session_factory: Any, decomposed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = (f"rc-{uuid.uuid4().hex[:8]}" for _ in range(2))
    _decompose(session_factory, _audit(session_factory, "It crosses the fjord.", [PASSAGE], one))
    decomposed.clear()
    _decompose(session_factory, _audit(session_factory, "It crosses the fjord.", [PASSAGE], two))
    assert PASSAGE in decomposed  # tenant two never reads tenant one's row
    assert len(_rows(session_factory, two, PASSAGE)) == 1

    monkeypatch.setattr(reference_cache, "engine_version", lambda: "f" * 64)
    decomposed.clear()
    _decompose(session_factory, _audit(session_factory, "It crosses the fjord.", [PASSAGE], one))
    assert PASSAGE in decomposed
    assert {r.engine_version for r in _rows(session_factory, one, PASSAGE)} >= {"f" * 64}


def test_turned_off_it_neither_reads_nor_writes(
    session_factory: Any, decomposed: list[str], monkeypatch: Any
) -> None:
    tenant = f"rc-{uuid.uuid4().hex[:8]}"
    settings = reference_cache.get_settings().model_copy(update={"reference_cache": False})
    monkeypatch.setattr(reference_cache, "get_settings", lambda: settings)
    for _ in range(2):
        _decompose(session_factory, _audit(session_factory, "It was ordered in 2019.", [PASSAGE], tenant))
    assert decomposed.count(PASSAGE) == 2
    assert _rows(session_factory, tenant, PASSAGE) == []


def test_an_audit_from_cached_claims_scores_as_the_in_memory_engine(session_factory: Any) -> None:
    tenant = f"rc-{uuid.uuid4().hex[:8]}"
    response = "The Skarvik ferry entered service in 1998 and carries 240 passengers."
    _decompose(session_factory, _audit(session_factory, "Warm the cache.", [PASSAGE], tenant))
    aid = _audit(session_factory, response, [PASSAGE], tenant)
    with session_scope(session_factory) as s:
        services.decompose_audit(s, aid)
        services.embed_audit(s, aid)
        services.match_audit(s, aid)
        services.score_audit_stage(s, aid)
        repo.mark_done(s, aid)
    from api.documents import audit_document

    with session_factory() as s:
        doc = audit_document(s, aid)
        cached = s.scalar(
            select(func.count()).select_from(ReferenceCacheRow).where(ReferenceCacheRow.tenant_id == tenant)
        )
    assert cached == 1
    assert doc is not None
    expected = report_to_dict(audit_texts(response, [PASSAGE]), [PASSAGE], response)
    got = [(c["role"], c["text"], c["verdict"]) for c in doc["claims"]]
    want = [(c["role"], c["text"], c["verdict"]) for c in expected["claims"]]
    assert got == want
