"""Pure parts of the access layer: settings lists, loopback detection, key expiry parsing,
the client's reading of ``Retry-After`` (no services)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
import typer

from claimaudit._protocol import MAX_RETRY_AFTER, retry_after
from cli.keys import parse_expiry
from service.settings import Settings, is_loopback

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
    assert retry_after(httpx.Response(429, headers=headers), default=1.0) == expected


# ------------------------------------------------------------------ /ui sign-in (api.ui_auth)


@pytest.mark.parametrize(
    ("target", "expected"),
    [("/ui/audits/1?x=1", "/ui/audits/1?x=1"), ("/ui/runs", "/ui/runs"), ("/ui", "/ui"),
     (None, "/ui/audits"), ("", "/ui/audits"), ("//evil.example", "/ui/audits"),
     ("https://evil.example/ui", "/ui/audits"), ("/ui//evil.example", "/ui/audits"),
     ("/ui\\evil", "/ui/audits"), ("/uix", "/ui/audits"), ("/audits", "/ui/audits"),
     ("/ui/login?next=/ui", "/ui/audits"), ("/ui/a\nSet-Cookie: x", "/ui/audits")],
)  # fmt: skip
def test_login_returns_only_to_a_page(target: str | None, expected: str) -> None:
    from api.ui_auth import safe_next

    assert safe_next(target) == expected


def _key_row(sha: str = "a" * 64, expires_at: datetime | None = None) -> object:
    import uuid

    from db.auth_models import ApiKeyRow

    return ApiKeyRow(id=uuid.UUID(int=7), key_sha256=sha, expires_at=expires_at)


def test_a_session_is_signed_by_the_key_hash_and_ends_with_the_key() -> None:
    from api.ui_auth import SESSION_SECONDS, new_session, session_csrf

    now = NOW.timestamp()
    value, max_age = new_session(_key_row(), now)  # type: ignore[arg-type]
    kid, expires, mac = value.split(".")
    assert kid == str(_key_row().id) and int(expires) == int(now) + SESSION_SECONDS == int(now) + max_age
    other, _ = new_session(_key_row("b" * 64), now)  # type: ignore[arg-type]
    assert other.split(".")[2] != mac  # another key's hash: another MAC
    soon = NOW + timedelta(minutes=5)
    capped, age = new_session(_key_row(expires_at=soon), now)  # type: ignore[arg-type]
    assert int(capped.split(".")[1]) == int(soon.timestamp()) and age == 300
    assert session_csrf(_key_row(), value) != session_csrf(_key_row(), other)  # type: ignore[arg-type]


def test_a_session_mac_needs_the_server_secret_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # with the key's stored hash as the MAC's only secret, a copy of api_keys (a backup,
    # a replica) would forge page sessions for any key; with UI_SESSION_SECRET it forges nothing
    from api import ui_auth
    from service.settings import Settings

    now = NOW.timestamp()
    monkeypatch.setattr(ui_auth, "get_settings", lambda: Settings(ui_session_secret=""))
    forged, _ = ui_auth.new_session(_key_row(), now)  # type: ignore[arg-type]
    monkeypatch.setattr(ui_auth, "get_settings", lambda: Settings(ui_session_secret="s3cret"))
    real, _ = ui_auth.new_session(_key_row(), now)  # type: ignore[arg-type]
    assert forged.split(".")[2] != real.split(".")[2]
    assert forged.split(".")[:2] == real.split(".")[:2]  # same key and expiry: only the MAC differs


def test_demo_says_where_the_key_is_and_never_prints_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    from cli.main import ui_sign_in_hint

    monkeypatch.delenv("CLAIMAUDIT_API_KEY", raising=False)
    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path))
    hint = ui_sign_in_hint("http://127.0.0.1:8000")
    assert "http://127.0.0.1:8000/ui/login" in hint and f"cat {tmp_path}/admin.key" in hint
    monkeypatch.setenv("CLAIMAUDIT_API_KEY", "ca_secret-value")
    hint = ui_sign_in_hint("http://127.0.0.1:8000")
    assert "$CLAIMAUDIT_API_KEY" in hint and "ca_secret-value" not in hint
