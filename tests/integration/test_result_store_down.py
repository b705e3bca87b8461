"""While the result store (Redis) of ``claims.search`` does not answer, the search is a 503 with
``Retry-After`` within two seconds and the ``/ui`` list page still answers (never a 500, never
the result backend's ~20 s of reconnects)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui_login import ui_login

pytestmark = pytest.mark.services

#: Nothing listens on port 1: a connection is refused at once.
DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def store_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from workers.celery_app import app

    monkeypatch.setitem(app.conf, "result_backend", DEAD_REDIS)
    yield


def test_search_answers_503_at_once_while_the_result_store_is_down(client: Any, store_down: None) -> None:
    started = time.monotonic()
    resp = client.get("/claims/search", params={"q": "water boils"})
    elapsed = time.monotonic() - started
    assert resp.status_code == 503, resp.text
    assert int(resp.headers["Retry-After"]) >= 1 and "unavailable" in resp.text
    assert elapsed < 2.0  # one ping of at most RESULT_STORE_TIMEOUT_S (1 s), no reconnect loop


def test_the_ui_search_says_so_instead_of_failing(client: Any, api_key: str, store_down: None) -> None:
    ui_login(client, api_key)
    resp = client.get("/ui/audits", params={"q": "water boils"})
    assert resp.status_code == 200
    assert "unavailable while Redis does not answer" in resp.text
