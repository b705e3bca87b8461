"""Fixtures of the security tests: an app without default credentials, keys of two tenants, and for
the suite source tests an app with chosen settings, the worker's settings from chosen variables,
loopback servers and a plain SQL reader role (helpers in tests/security/suite_sources.py)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import make_key
from tests.security.suite_sources import ROLE, Dripping, Internal, make_reader, serve

ALL = ("audits:write", "audits:read", "admin")


@dataclass(frozen=True)
class Tenant:
    """A tenant of the tests with a key holding every scope (no rate limit) and its id."""

    id: str
    key: str
    key_id: uuid.UUID

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


def message(resp: Any) -> str:
    """The messages of an error response (``{"detail": [{"loc", "msg", "type"}, ...]}``, the
    one error shape of ``api.errors``), joined."""
    detail = resp.json()["detail"]
    assert isinstance(detail, list) and detail, detail
    return "; ".join(item["msg"] for item in detail)


def new_tenant(session_factory: Any, prefix: str) -> Tenant:
    tenant = f"{prefix}-{uuid.uuid4().hex[:8]}"
    key, key_id = make_key(session_factory, tenant, ALL, requests_per_second=0, audits_per_minute=0)
    return Tenant(tenant, key, key_id)


@pytest.fixture(scope="module")
def tenant_a(session_factory: Any) -> Tenant:
    return new_tenant(session_factory, "a")


@pytest.fixture(scope="module")
def tenant_b(session_factory: Any) -> Tenant:
    return new_tenant(session_factory, "b")


@pytest.fixture
def bare(settings: Any, redis_url: str) -> Iterator[Any]:
    """A TestClient of the app that sends no key unless a request names one."""
    from fastapi.testclient import TestClient

    from api.main import create_app

    with TestClient(create_app(settings)) as c:
        yield c


@pytest.fixture
def llm_app(settings: Any, redis_url: str) -> Iterator[Any]:
    """The app with an LLM endpoint configured (nothing listens there: nothing is awaited)."""
    from fastapi.testclient import TestClient

    from api.main import create_app

    configured = settings.model_copy(
        update={
            "openai_base_url": "http://127.0.0.1:9/v1",
            "openai_api_key": "test",
            "allowed_llm_models": ("gpt-4o-mini", "small-chat"),
            "allowed_embedding_models": ("text-embedding-3-small",),
        }
    )
    with TestClient(create_app(configured)) as c:
        yield c


@pytest.fixture(scope="module")
def internal() -> Iterator[str]:
    """The URL of an ``Internal`` service on loopback (one per test module)."""
    yield from serve(Internal)


@pytest.fixture
def app(settings: Any, redis_url: str) -> Iterator[Any]:
    """``app(**settings)``: a TestClient of the app with those settings over the tests' defaults."""
    from fastapi.testclient import TestClient

    from api.main import create_app

    clients: list[Any] = []

    def make(**overrides: Any) -> Any:
        client = TestClient(create_app(settings.model_copy(update=overrides)))
        clients.append(client.__enter__())
        return client

    yield make
    for c in clients:
        c.__exit__(None, None, None)


@pytest.fixture
def worker_env(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> Iterator[Any]:
    """``worker_env(**env)``: the worker's settings (``get_settings``) read with these variables."""
    from service.settings import get_settings

    def set_env(**env: str) -> None:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        get_settings.cache_clear()

    yield set_env
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def reader_role(engine: Any) -> str:
    """SUITE_SQL_ROLE: a plain member of ``claimaudit_service`` that may read every table."""
    return make_reader(engine, ROLE, service=True)


@pytest.fixture(scope="module")
def dripping() -> Iterator[str]:
    """The URL of a ``Dripping`` receiver on loopback (one per test module)."""
    yield from serve(Dripping)
