"""The client's retry policy (``claimaudit._protocol.Attempts``) on the API's backlog refusals:
a 503 of a full backlog is waited out like a 429, for its ``Retry-After``, without using up the
retries kept for an API or a service that is down (no services: the answers are built here)."""

from __future__ import annotations

import httpx
import pytest

from claimaudit._protocol import Attempts, Call
from claimaudit.errors import ClaimauditError


def _answer(status: int, kind: str, retry_after: str) -> httpx.Response:
    body = {"detail": [{"loc": [], "msg": "the backlog is full", "type": kind}]}
    request = httpx.Request("POST", "http://api/audits")
    return httpx.Response(status, json=body, headers={"Retry-After": retry_after}, request=request)


@pytest.mark.parametrize("kind", ["backlog", "backlog_age"])
def test_a_full_backlog_is_waited_out_like_a_rate_limit(kind: str) -> None:
    attempts = Attempts(Call("POST", "/audits", accept=(202,)))
    waits = []
    with pytest.raises(ClaimauditError):
        while True:
            waits.append(attempts.after_response(_answer(503, kind, "7")))
    # the 30 waits of a 429 (max_rate_limited), then the 5 of max_retries: a plain 503 gets 5
    assert waits == [7.0] * 35


def test_a_service_down_keeps_its_five_retries() -> None:
    attempts = Attempts(Call("POST", "/audits", accept=(202,)))
    waits = []
    with pytest.raises(ClaimauditError):
        while True:
            waits.append(attempts.after_response(_answer(503, "service_unavailable", "5")))
    assert waits == [5.0] * 5
