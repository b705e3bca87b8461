"""Browser tests: headless Chromium (Debian's ``chromium`` + ``chromium-driver``) driven by
Selenium against a real API server (uvicorn in a thread), a real Celery worker, Postgres and Redis
(the fixtures of ``tests/conftest.py``).

Skipped, with the reason, only where Chromium or its driver is not installed and ``CI`` is not
set; under ``CI`` (``.ci/run`` installs both) a missing browser is an error.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import WorkerProcess

ROOT = Path(__file__).resolve().parents[2]


def _browser_paths() -> tuple[str | None, str | None]:
    binary = os.environ.get("CHROMIUM_BIN") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER_BIN") or shutil.which("chromedriver")
    return binary, driver


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test here ``browser``; skip them where no Chromium is installed (outside CI)."""
    binary, driver = _browser_paths()
    here = Path(__file__).parent
    mine = [item for item in items if Path(str(item.fspath)).is_relative_to(here)]
    for item in mine:
        item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.services)
    if binary and driver:
        return
    missing = " and ".join(n for n, p in (("chromium", binary), ("chromedriver", driver)) if not p)
    if os.environ.get("CI"):
        return  # the `browser` fixture fails with the reason: CI must run these
    reason = f"{missing} not installed (apt-get install chromium chromium-driver); CI installs them"
    for item in mine:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """A headless Chromium (1400×1000) driven by Selenium through Debian's chromedriver."""
    binary, driver = _browser_paths()
    if not (binary and driver):
        pytest.fail("chromium / chromedriver not installed, but CI must run the browser tests (.ci/run)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--force-device-scale-factor=1", "--lang=en-US"):  # fmt: skip
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service(driver), options=options)
    drv.set_page_load_timeout(60)
    yield drv
    drv.quit()


def sign_in(driver: Any, base: str, key: str, page: str = "/ui/audits") -> None:
    """Open ``page``; the app answers with the sign-in form (no session yet); paste ``key`` and
    submit as a person would; wait until the browser is back on ``page``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{base}{page}")
    assert driver.current_url.startswith(f"{base}/ui/login?next="), driver.current_url
    driver.find_element(By.ID, "key").send_keys(key)
    driver.find_element(By.ID, "sign-in").click()
    WebDriverWait(driver, 30).until(ec.url_to_be(f"{base}{page}"))


@pytest.fixture(scope="session")
def browser(chromium: Any, live_server: str, api_key: str) -> Any:
    """The Chromium, signed in to the pages with the tests' key (tenant ``default``)."""
    chromium.delete_all_cookies()
    sign_in(chromium, live_server, api_key)
    return chromium


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="package")
def ui_worker(start_worker: Callable[..., WorkerProcess], redis_server_url: str) -> Iterator[WorkerProcess]:
    """One Celery worker for the browser tests (the pipeline and the claim search), stopped when
    they end: it consumes the session's queue, so left running it would take the tasks that later
    suites (tests/e2e) expect their own workers to receive."""
    worker = start_worker(concurrency=1)
    yield worker
    worker.stop()


@pytest.fixture(scope="session")
def live_server(database_url: str, redis_server_url: str) -> Iterator[str]:
    """Base URL of the real app served by uvicorn on a free port of 127.0.0.1 (in a thread)."""
    import uvicorn

    from api.main import create_app
    from service.settings import Settings

    app = create_app(Settings(database_url=database_url, redis_url=redis_server_url))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the API server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def api(live_server: str, auth_headers: dict[str, str]) -> Iterator[httpx.Client]:
    """An HTTP client of the live server's JSON API, with the tests' key (tenant ``default``)."""
    with httpx.Client(base_url=live_server, timeout=30, headers=auth_headers) as client:
        yield client


def wait_done(api: httpx.Client, audit_id: str, timeout: float = 240) -> dict[str, Any]:
    """Poll ``GET /audits/{id}`` until the audit is finished; its document."""
    deadline = time.monotonic() + timeout
    doc: dict[str, Any] = {}
    while time.monotonic() < deadline:
        doc = api.get(f"/audits/{audit_id}").json()
        if doc["status"] in {"done", "failed", "rejected"}:
            return doc
        time.sleep(0.3)
    raise AssertionError(f"audit {audit_id} still {doc.get('status')} after {timeout} s")


def screenshot(driver: Any, name: str) -> None:
    """Save a screenshot as ``<CLAIMAUDIT_SCREENSHOTS>/<name>.png`` when that folder is set."""
    folder = os.environ.get("CLAIMAUDIT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))
