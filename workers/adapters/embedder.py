"""Embeddings from an OpenAI-compatible ``/v1/embeddings`` endpoint (``claims.embed.Embedder``).

One request per ``embed`` call (chunks of ``MAX_INPUTS``), ``encoding_format="float"`` (every
compatible server speaks it). Vectors are checked (count, dimension, finite, non-zero) and
L2-normalised to float32. Wrap it in ``claims.embed.CachedEmbedder`` with the Postgres
embedding cache so that a text is embedded once per model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from service.llm_config import LLMConfig
from workers.adapters.client import Ledger, make_client
from workers.adapters.errors import LLMError, MalformedOutputError, translate_openai_error

__all__ = ["OpenAIEmbedder", "MAX_INPUTS"]

STAGE = "embed"
#: Inputs per request (OpenAI accepts up to 2048; local servers often fewer).
MAX_INPUTS = 256


class OpenAIEmbedder:
    """``claims.embed.Embedder`` backed by the endpoint's embedding model.

    ``model_name`` is ``cfg.embedding_model``; ``dim`` is ``cfg.embedding_dim`` (known models)
    or, if unknown, the dimension of the first answer (reading ``dim`` before any answer sends
    one probe request). ``embed`` returns float32 ``(len(texts), dim)`` with unit rows.

    Raises ``TransientLLMError`` / ``PermanentLLMError`` from the endpoint and
    ``MalformedOutputError`` when the answer is unusable twice in a row.
    """

    def __init__(self, cfg: LLMConfig, ledger: Ledger, client: Any = None) -> None:
        self.cfg = cfg
        self.ledger = ledger
        self._client = client
        self._dim = cfg.embedding_dim

    @property
    def model_name(self) -> str:
        return self.cfg.embedding_model

    @property
    def dim(self) -> int:
        if self._dim is None:  # unknown model: one short probe request fixes it
            self._embed_chunk(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        chunks = [
            self._embed_chunk(list(texts[i : i + MAX_INPUTS])) for i in range(0, len(texts), MAX_INPUTS)
        ]
        return np.concatenate(chunks, axis=0)

    def _embed_chunk(self, texts: list[str]) -> np.ndarray:
        client = self._client if self._client is not None else make_client(self.cfg)
        model = self.model_name
        calls = tokens = 0
        last: MalformedOutputError | None = None
        for _ in range(2):  # one request, then one more when the answer is unusable
            try:
                resp = client.embeddings.create(model=model, input=texts, encoding_format="float")
            except LLMError:
                raise
            except Exception as exc:
                err = translate_openai_error(exc, what="embeddings")
                self.ledger.record(
                    STAGE, model, calls=calls, failed_calls=1, prompt_tokens=tokens, error=str(err)
                )
                raise err from exc
            calls += 1
            usage = getattr(resp, "usage", None)
            tokens += int(getattr(usage, "prompt_tokens", 0) or 0) if usage is not None else 0
            try:
                vectors = self._vectors(resp, len(texts))
            except MalformedOutputError as exc:
                last = exc
                continue
            self.ledger.record(STAGE, model, calls=calls, prompt_tokens=tokens)
            return vectors
        assert last is not None
        self.ledger.record(STAGE, model, calls=calls, prompt_tokens=tokens, error=str(last))
        raise MalformedOutputError(f"embeddings unusable twice: {last}")

    def _vectors(self, resp: Any, n: int) -> np.ndarray:
        data = sorted(getattr(resp, "data", None) or [], key=lambda d: d.index)
        if len(data) != n:
            raise MalformedOutputError(f"{len(data)} embeddings for {n} inputs")
        try:
            arr = np.asarray([d.embedding for d in data], dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise MalformedOutputError(f"embeddings are not numeric vectors: {exc}") from None
        if arr.ndim != 2 or (self._dim is not None and arr.shape[1] != self._dim):
            raise MalformedOutputError(f"embeddings of shape {arr.shape}, expected ({n}, {self._dim})")
        norms = np.linalg.norm(arr, axis=1)
        if not np.all(np.isfinite(arr)) or np.any(norms == 0):
            raise MalformedOutputError("embeddings contain NaN/inf or zero vectors")
        if self._dim is None:
            self._dim = int(arr.shape[1])
        out: np.ndarray = (arr / norms[:, None]).astype(np.float32)
        return out
