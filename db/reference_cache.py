"""The reference cache: decompositions of reference texts, stored once per tenant and engine.

Production RAG audits send the same passages again and again. The decompose stage reads the
claims of a reference text from here (one query for all the texts of an audit or a bundle)
and decomposes only the texts it does not find, then stores them. Keys: the tenant, the hex
SHA-256 of the UTF-8 text and the engine version (``claims.engine_version``); a new engine
reads nothing an older one stored. Rows are tenant data under row-level security
(migration ``0017_reference_cache``). Functions take a ``Session`` and never commit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from claims.types import Claim, ClaimKind
from db.models import ReferenceCacheRow
from db.statements import chunks

__all__ = ["text_sha256", "cached_decompositions", "store_decompositions"]


def text_sha256(text: str) -> str:
    """Hex SHA-256 (64 characters) of ``text`` encoded as UTF-8 (lone surrogates escaped)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _row(claim: Claim) -> dict[str, Any]:
    return {
        "text": claim.text,
        "start": claim.start,
        "end": claim.end,
        "kind": claim.kind.value,
        "position": claim.position,
        "duplicates": claim.duplicates,
        "ambiguous": claim.ambiguous,
    }


def _claim(row: Mapping[str, Any]) -> Claim:
    return Claim(
        text=str(row["text"]),
        start=int(row["start"]),
        end=int(row["end"]),
        kind=ClaimKind(row["kind"]),
        position=int(row["position"]),
        duplicates=int(row["duplicates"]),
        ambiguous=bool(row["ambiguous"]),
    )


def cached_decompositions(
    session: Session, tenant_id: str, engine_version: str, texts: Sequence[str]
) -> dict[str, list[Claim]]:
    """The stored claims of those of ``texts`` that ``tenant_id`` has in the cache for
    ``engine_version``, by text (absent: not cached). One query per 5,000 distinct texts."""
    by_key = {text_sha256(t): t for t in texts}
    found: dict[str, list[Claim]] = {}
    for keys in chunks(list(by_key)):
        rows = session.execute(
            select(ReferenceCacheRow.text_sha256, ReferenceCacheRow.claims).where(
                ReferenceCacheRow.tenant_id == tenant_id,
                ReferenceCacheRow.engine_version == engine_version,
                ReferenceCacheRow.text_sha256.in_(keys),
            )
        ).all()
        for key, claims in rows:
            found[by_key[key]] = [_claim(c) for c in claims]
    return found


def store_decompositions(
    session: Session, tenant_id: str, engine_version: str, decompositions: Mapping[str, Sequence[Claim]]
) -> int:
    """Store the claims of each text for ``tenant_id`` and ``engine_version``; a text already
    stored (another worker got there first) is left as it is. Returns the rows written."""
    rows = [
        {
            "tenant_id": tenant_id,
            "text_sha256": text_sha256(text),
            "engine_version": engine_version,
            "claims": [_row(c) for c in claims],
        }
        for text, claims in decompositions.items()
    ]
    written = 0
    for part in chunks(rows, 1_000):
        result = session.execute(pg_insert(ReferenceCacheRow).values(list(part)).on_conflict_do_nothing())
        written += max(0, int(getattr(result, "rowcount", 0) or 0))
    return written
