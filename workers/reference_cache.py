"""The decompose stage's use of the reference cache (``db.reference_cache``).

Before decomposing an audit's (or a bundle's) documents, :func:`cached_references` reads the
stored claims of their reference texts in one query per tenant; the stage decomposes the other
texts only. :func:`remember_references` then stores the references it decomposed. Only offline
decompositions are cached (an LLM decomposer's output depends on its model and prompt), only
reference texts (a response is rarely sent twice), and only while ``REFERENCE_CACHE`` is on.
Lookups count ``claimaudit_reference_cache_total{result="hit"|"miss"}`` per distinct text.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping

from sqlalchemy.orm import Session

from claims.decompose import decompose
from claims.engine_version import engine_version
from claims.types import Claim, Role
from db.models import Audit, Document
from db.reference_cache import cached_decompositions, store_decompositions
from service import metrics
from service.settings import get_settings
from workers import components

__all__ = ["cached_references", "remember_references"]


def _cacheable(audit: Audit) -> bool:
    return get_settings().reference_cache and components.offline_decomposer(audit.config)


def _reference_texts(docs: Iterable[Document]) -> list[str]:
    return list(dict.fromkeys(d.text for d in docs if d.role == Role.REFERENCE.value and d.text.strip()))


def cached_references(
    session: Session, audits: Iterable[Audit], docs: Mapping[uuid.UUID, list[Document]]
) -> dict[uuid.UUID, dict[str, list[Claim]]]:
    """The cached claims of each audit's reference texts: ``{audit id: {text: claims}}`` for
    the audits in ``audits`` (``docs``: their documents by audit id); one query per tenant."""
    by_tenant: dict[str, list[Audit]] = {}
    for audit in audits:
        if _cacheable(audit):
            by_tenant.setdefault(audit.tenant_id, []).append(audit)
    found: dict[uuid.UUID, dict[str, list[Claim]]] = {}
    for tenant_id, members in by_tenant.items():
        texts = list(dict.fromkeys(t for a in members for t in _reference_texts(docs.get(a.id, []))))
        if not texts:
            continue
        hits = cached_decompositions(session, tenant_id, engine_version(), texts)
        metrics.REFERENCE_CACHE.labels("hit").inc(len(hits))
        metrics.REFERENCE_CACHE.labels("miss").inc(len(texts) - len(hits))
        for audit in members:
            found[audit.id] = {t: hits[t] for t in _reference_texts(docs.get(audit.id, [])) if t in hits}
    return found


def remember_references(
    session: Session,
    audits: Iterable[Audit],
    docs: Mapping[uuid.UUID, list[Document]],
    known: Mapping[uuid.UUID, Mapping[str, list[Claim]]],
) -> int:
    """Store the offline decomposition of each reference text of ``audits`` that was not in
    ``known`` (the decompositions are the process cache's by now: no second parse). Returns
    the rows written."""
    written = 0
    by_tenant: dict[str, dict[str, list[Claim]]] = {}
    for audit in audits:
        if not _cacheable(audit):
            continue
        seen = known.get(audit.id, {})
        new = by_tenant.setdefault(audit.tenant_id, {})
        for text in _reference_texts(docs.get(audit.id, [])):
            if text not in seen and text not in new:
                new[text] = decompose(text, role=Role.REFERENCE)
    for tenant_id, decompositions in by_tenant.items():
        if decompositions:
            written += store_decompositions(session, tenant_id, engine_version(), decompositions)
    return written
