"""Pure parts of the access layer: settings lists, loopback detection, key expiry parsing,
the client's reading of ``Retry-After`` (no services)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
import typer

from cli.client import MAX_RETRY_AFTER, retry_after
from cli.keys import parse_expiry
from workers.settings import Settings, is_loopback

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("host", "expected"),
    [("127.0.0.1", True), ("127.8.9.1", True), ("::1", True), ("[::1]", True), ("localhost", True),
     ("0.0.0.0", False), ("10.0.0.5", False), ("testclient", False), (None, False), ("", False)],
)  # fmt: skip
def test_is_loopback(host: str | None, expected: bool) -> None:
    assert is_loopback(host) is expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("a, b,,c", ("a", "b", "c")), ('["x", "y"]', ("x", "y")), ("", ())],
)
def test_model_lists_read_commas_or_json(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: tuple[str, ...]
) -> None:
    monkeypatch.setenv("ALLOWED_LLM_MODELS", raw)
    settings = Settings()
    assert settings.allowed_llm_models == expected
    assert settings.llm_models == frozenset((*expected, settings.llm_model))  # LLM_MODEL always allowed


@pytest.mark.parametrize(
    ("value", "expected"),
    [("30d", NOW + timedelta(days=30)), ("12h", NOW + timedelta(hours=12)),
     ("90m", NOW + timedelta(minutes=90)), ("2027-01-01T00:00:00Z", datetime(2027, 1, 1, tzinfo=UTC)),
     ("2027-01-01", datetime(2027, 1, 1, tzinfo=UTC)), (None, None)],
)  # fmt: skip
def test_parse_expiry(value: str | None, expected: datetime | None) -> None:
    assert parse_expiry(value, now=NOW) == expected


@pytest.mark.parametrize("value", ["soon", "-5d", "2001-01-01T00:00:00Z", "0m"])
def test_parse_expiry_refuses_nonsense_and_the_past(value: str) -> None:
    with pytest.raises(typer.BadParameter):
        parse_expiry(value, now=NOW)


@pytest.mark.parametrize(
    ("header", "expected"),
    [("3", 3.0), (None, 1.0), ("soon", 1.0), ("0", 0.1), ("86400", MAX_RETRY_AFTER)],
)
def test_retry_after_is_read_and_bounded(header: str | None, expected: float) -> None:
    headers = {"Retry-After": header} if header is not None else {}
    assert retry_after(httpx.Response(429, headers=headers)) == expected
