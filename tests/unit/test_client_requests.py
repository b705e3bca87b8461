"""The Python client checks what it would send the way the API does: an item that is no
mapping, or a key the API does not take, is a ``TypeError`` before any request (the API would
answer 422; a misspelt ``confg`` must not run the audit with the default config)."""

from __future__ import annotations

import pytest

from claimaudit import Client
from claimaudit._flows import audit_request

#: A port nothing listens on: any request would fail with ConnectionFailed, not TypeError.
NOWHERE = "http://127.0.0.1:9"


def test_a_batch_item_that_is_no_mapping_is_refused_before_sending() -> None:
    with (
        Client(NOWHERE, api_key="ca_x") as client,
        pytest.raises(TypeError, match=r"items\[1\] must be a mapping"),
    ):
        client.batch([{"response": "a", "references": ["b"]}, "notadict"])  # type: ignore[list-item]


def test_a_misspelt_batch_key_is_refused_before_sending() -> None:
    with (
        Client(NOWHERE, api_key="ca_x") as client,
        pytest.raises(TypeError, match=r"items\[0\]: unknown key.*'confg'"),
    ):
        client.batch([{"response": "a", "references": ["b"], "confg": {"threshold": 0.99}}])


def test_a_misspelt_audit_field_is_refused() -> None:
    with pytest.raises(TypeError, match="unknown audit field.*'metdata'"):
        audit_request("a", ["b"], {"metdata": {"model": "x"}})
    assert audit_request("a", ["b"], {"question": None, "config": {"threshold": 0.8}}) == {
        "response": "a",
        "references": ["b"],
        "config": {"threshold": 0.8},
    }
