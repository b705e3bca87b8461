"""Embedder contract (claims.embed): shape, dtype, unit norm, determinism, model identity, and
the content-hash cache. Uses the real offline all-MiniLM-L6-v2 (docs/MODELS.md)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from claims.embed import (
    DEFAULT_DIM,
    DEFAULT_MODEL_NAME,
    CachedEmbedder,
    Embedder,
    InMemoryEmbeddingCache,
    default_embedder,
    text_key,
)
from claims.match import cosine_matrix


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return default_embedder()


def test_shape_dtype_norm(embedder: Embedder) -> None:
    v = embedder.embed(["The Orsen Tower is 324 metres tall.", "Bonds made up half of its assets.", "短い"])
    assert v.shape == (3, DEFAULT_DIM)  # 384: all-MiniLM-L6-v2's output size (model card)
    assert v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_empty_input(embedder: Embedder) -> None:
    assert embedder.embed([]).shape == (0, DEFAULT_DIM)


def test_model_identity_travels(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert (embedder.model_name, embedder.dim) == (DEFAULT_MODEL_NAME, 384)


def test_deterministic_and_batch_independent(embedder: Embedder) -> None:
    texts = ["Ines Marlow won the Varga Prize in 2004.", "The library closes at 20:00."]
    a = embedder.embed(texts)
    b = embedder.embed(texts[::-1])[::-1]
    single = embedder.embed(texts[:1])
    np.testing.assert_allclose(a, b, atol=1e-5)
    np.testing.assert_allclose(a[:1], single, atol=1e-5)


def test_paraphrase_closer_than_unrelated(embedder: Embedder) -> None:
    v = embedder.embed(
        [
            "The Alder Hotel has a pool.",
            "There is a swimming pool at the Alder Hotel.",
            "The fund's fee was 1.8%.",
        ]
    )
    sim = cosine_matrix(v, v)
    assert sim[0, 1] > sim[0, 2] + 0.3


def test_default_embedder_is_process_wide(embedder: Embedder) -> None:
    assert default_embedder() is embedder


class CountingEmbedder:
    """A deterministic stand-in that records which texts reach it (no model involved)."""

    model_name = "counting"
    dim = 4

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        out = np.array([[len(t), 1.0, t.count("a"), 2.0] for t in texts], dtype=np.float32).reshape(-1, 4)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def test_cache_hit_avoids_inner_call() -> None:
    inner = CountingEmbedder()
    cache = InMemoryEmbeddingCache()
    emb = CachedEmbedder(inner, cache)
    first = emb.embed(["alpha", "beta", "alpha"])
    assert inner.calls == [["alpha", "beta"]]  # each distinct text once
    second = emb.embed(["beta", "alpha"])
    assert inner.calls == [["alpha", "beta"]]  # all hits: no further call
    np.testing.assert_array_equal(second, first[[1, 0]])
    emb.embed(["gamma", "alpha"])
    assert inner.calls[-1] == ["gamma"]  # only the miss reaches the model
    assert len(cache) == 3


def test_cache_is_per_model() -> None:
    cache = InMemoryEmbeddingCache()
    cache.put_many("m1", {text_key("x"): np.ones(4, np.float32)})
    assert cache.get_many("m2", [text_key("x")]) == {}
    assert list(cache.get_many("m1", [text_key("x"), text_key("y")])) == [text_key("x")]


def test_text_key_is_sha256() -> None:
    # sha256("abc") from FIPS 180-2, appendix B.1
    assert text_key("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
