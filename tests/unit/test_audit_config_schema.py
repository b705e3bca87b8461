"""The OpenAPI schema of the per-audit config says what the API accepts: every key is optional,
and an explicit null is refused (omit the key for the default), so no key is shown as nullable."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from api.schemas import AuditConfig


def test_no_config_key_is_nullable_in_the_schema() -> None:
    properties = AuditConfig.model_json_schema()["properties"]
    nullable = [k for k, v in properties.items() if '"type": "null"' in json.dumps(v)]
    assert nullable == []
    assert set(properties) >= {"threshold", "references", "llm_band", "llm_model"}


@pytest.mark.parametrize("key", sorted(AuditConfig.model_fields))
def test_an_explicit_null_is_refused_for_every_key(key: str) -> None:
    with pytest.raises(ValidationError, match="must not be null"):
        AuditConfig.model_validate({key: None})
    assert getattr(AuditConfig.model_validate({}), key) is None  # omitted: the default
