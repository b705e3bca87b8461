"""Deployment settings outside what the services accept are an error when ``Settings`` is read
(at start), naming the setting, not a failure at the first request that uses them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from service.settings import Settings


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        # pgvector's hnsw.ef_search accepts 1 to 1000 (pgvector 0.8 README); 5000 made every
        # search fail in the worker, and the API answered 503 "the broker is unavailable"
        ("HNSW_EF_SEARCH", "5000", False),
        ("HNSW_EF_SEARCH", "0", False),
        ("HNSW_EF_SEARCH", "1000", True),
        ("HNSW_EF_SEARCH", "1", True),
    ],
)
def test_hnsw_ef_search_is_within_pgvectors_range(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, ok: bool
) -> None:
    monkeypatch.setenv(name, value)
    if ok:
        assert Settings().hnsw_ef_search == int(value)
    else:
        with pytest.raises(ValidationError, match=name.lower()):
            Settings()
