"""A string over its length limit is refused in characters, never as "items" (pydantic's message
when a limit is checked after a validator), and an empty reference id, url or title is refused
rather than stored as ""."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from api.run_schemas import RejectedLine, RunItemIn, RunRequest, SuiteWebhook
from api.schemas import AuditRequest

AUDIT: dict[str, Any] = {"response": "a", "references": ["x"]}


def _document(**fields: str) -> dict[str, Any]:
    return AUDIT | {"references": [{"text": "x", **fields}]}


# each limit is the field's max_length in api/schemas.py and api/run_schemas.py
LONG = [
    (AuditRequest, _document(id="i" * 501), "at most 500 characters"),
    (AuditRequest, _document(url="u" * 2001), "at most 2000 characters"),
    (AuditRequest, _document(title="t" * 1001), "at most 1000 characters"),
    (RunRequest, {"suite": "s" * 201, "items": []}, "at most 200 characters"),
    (RunRequest, {"suite": "s", "source": "x" * 501, "items": []}, "at most 500 characters"),
    (RunItemIn, AUDIT | {"id": "x" * 501}, "at most 500 characters"),
    (RejectedLine, {"id": "x" * 501, "reason": "r"}, "at most 500 characters"),
    (RejectedLine, {"reason": "r" * 2001}, "at most 2000 characters"),
]


@pytest.mark.parametrize(("model", "body", "message"), LONG)
def test_a_long_string_is_refused_in_characters(
    model: type[BaseModel], body: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError) as err:
        model.model_validate(body)
    messages = [e["msg"] for e in err.value.errors()]
    assert any(message in m for m in messages), messages
    assert not any("items" in m for m in messages), messages


@pytest.mark.parametrize("field", ["id", "url", "title"])
@pytest.mark.parametrize(("value", "message"), [("", "at least 1 character"), ("  ", "whitespace only")])
def test_an_empty_or_blank_reference_name_is_refused(field: str, value: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        AuditRequest.model_validate(_document(**{field: value}))


def test_a_blank_run_item_id_is_refused_and_its_message_names_no_validator() -> None:
    from api.errors import validation_text

    with pytest.raises(ValidationError) as err:
        RunItemIn.model_validate(AUDIT | {"id": "  "})
    text = validation_text(err.value)
    assert "whitespace only" in text and "function-after" not in text, text


@pytest.mark.parametrize(
    ("model", "body"),
    [
        (AuditRequest, _document(id="a\x00b")),
        (RunRequest, {"suite": "a\x00", "items": []}),
        (SuiteWebhook, {"url": "https://x/\x00"}),
        (RejectedLine, {"reason": "r\x00"}),
    ],
)
def test_nul_is_still_refused_where_a_limit_comes_first(model: type[BaseModel], body: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="NUL"):
        model.model_validate(body)
