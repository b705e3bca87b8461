"""A request whose body never arrives (or trickles) is answered 408 after ``BODY_READ_TIMEOUT_S``
and holds its connection no longer; a body that arrives in time, and the wait for a client's
disconnect after it, are not cut."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

pytestmark = pytest.mark.services


async def _call(
    app: Any, chunks: list[bytes], *, stall: bool, method: str = "POST"
) -> tuple[int, bytes, float]:
    """Send ``chunks`` as the body (``more_body`` until the last), then, with ``stall``, nothing
    more; the status, body and seconds the app took to answer."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": "/audits", "raw_path": b"/audits", "query_string": b"",
        "headers": [(b"content-type", b"application/json"), (b"host", b"test")],
        "client": ("127.0.0.1", 5000), "server": ("test", 80), "root_path": "",
    }  # fmt: skip
    queue = list(chunks)

    async def receive() -> dict[str, Any]:
        if queue:
            body = queue.pop(0)
            return {"type": "http.request", "body": body, "more_body": bool(queue) or stall}
        await asyncio.sleep(3600)  # the client sends nothing more
        return {"type": "http.disconnect"}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    started = time.monotonic()
    await asyncio.wait_for(app(scope, receive, send), timeout=10)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, time.monotonic() - started


def test_a_body_that_never_arrives_is_408_after_the_timeout(settings: Any) -> None:
    from api.main import create_app

    app = create_app(settings.model_copy(update={"body_read_timeout_s": 0.5}))
    status, body, took = asyncio.run(_call(app, [b'{"response": "x", "refer'], stall=True))
    assert status == 408 and b"BODY_READ_TIMEOUT_S" in body
    assert 0.4 <= took < 5  # the configured 0.5 s, not the server's idle time-out (75 s and more)
    status, _, _ = asyncio.run(_call(app, [], stall=True))  # headers only, then nothing
    assert status == 408


def test_a_body_in_time_is_not_cut(settings: Any) -> None:
    from api.main import create_app

    app = create_app(settings.model_copy(update={"body_read_timeout_s": 0.5}))
    status, _, _ = asyncio.run(_call(app, [b'{"response": "x", ', b'"references": ["y"]}'], stall=False))
    assert status == 401  # read in full, then refused for want of a key (not 408)
