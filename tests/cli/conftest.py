"""Fixtures of the CLI tests: the real API served by uvicorn with one real worker."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cli import processes, stack


@pytest.fixture(scope="module")
def live_api(
    request: pytest.FixtureRequest, settings_module: Any, start_worker: Callable[..., Any], api_key: str
) -> Iterator[str]:
    """The real API served by uvicorn in a thread, with one worker consuming this session's queue;
    the CLI (and its subprocesses) use the tests' admin key through ``CLAIMAUDIT_API_KEY``. A test
    module's ``WORKER_ENV`` (a dict) is added to the worker's environment."""
    import uvicorn

    from api.main import create_app

    worker = start_worker(getattr(request.module, "WORKER_ENV", None))
    port = processes.free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings_module), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not stack.api_healthy(url):
        assert time.monotonic() < deadline, "API did not come up"
        time.sleep(0.1)
    with processes.temporary_env(CLAIMAUDIT_API_KEY=api_key):
        yield url
    server.should_exit = True
    thread.join(timeout=10)
    # Stop the worker with the module: it consumes this session's queue, and later tests assert
    # that their own worker processed their audit.
    worker.stop()


@pytest.fixture(scope="module")
def settings_module(database_url: str, redis_server_url: str) -> Any:
    from service.settings import Settings

    return Settings(database_url=database_url, redis_url=redis_server_url)
