"""The Postgres embedding cache (content hash and model → vector), shared by the workers.

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from db.models import (
    EmbeddingCacheRow,
)
from db.statements import chunks


class PgEmbeddingCache:
    """``claims.embed.EmbeddingCache`` in the ``embedding_cache`` table (never commits); reads
    and writes ``STATEMENT_ROWS`` keys per statement."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_many(self, model_name: str, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for chunk in chunks(keys):
            rows = self.session.execute(
                select(EmbeddingCacheRow.text_sha256, EmbeddingCacheRow.embedding).where(
                    EmbeddingCacheRow.model == model_name, EmbeddingCacheRow.text_sha256.in_(chunk)
                )
            ).all()
            found.update({key: np.asarray(vec, dtype=np.float32) for key, vec in rows})
        return found

    def put_many(self, model_name: str, vectors: Mapping[str, np.ndarray]) -> None:
        values = [
            {
                "model": model_name,
                "text_sha256": k,
                "dim": int(np.asarray(v).shape[-1]),
                "embedding": np.asarray(v, np.float32),
            }
            for k, v in vectors.items()
        ]
        for chunk in chunks(values):
            self.session.execute(pg_insert(EmbeddingCacheRow).values(list(chunk)).on_conflict_do_nothing())
