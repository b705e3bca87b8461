"""Flower as the stack runs it (``python -m workers.flower``): ``/metrics`` asks for the same
login as its pages (it showed task names, host names and counts to anyone)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cli import processes

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]
LOGIN = ("ops", "fl-secret")


@pytest.fixture
def flower(redis_server_url: str, tmp_path: Path) -> Iterator[str]:
    port = processes.free_port()
    env = {**os.environ, "FLOWER_BASIC_AUTH": ":".join(LOGIN), "REDIS_URL": redis_server_url}
    log = (tmp_path / "flower.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "workers.flower", "--address=127.0.0.1", f"--port={port}"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/healthcheck", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                pytest.fail(f"flower exited: {(tmp_path / 'flower.log').read_text()[-2000:]}")
            time.sleep(0.3)
        else:
            pytest.fail("flower did not answer in 60 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def test_flower_metrics_need_the_login(flower: str) -> None:
    bare = httpx.get(f"{flower}/metrics", timeout=5)
    assert bare.status_code == 401 and "flower_" not in bare.text
    wrong = httpx.get(f"{flower}/metrics", auth=("ops", "guess"), timeout=5)
    assert wrong.status_code == 401
    ok = httpx.get(f"{flower}/metrics", auth=LOGIN, timeout=5)
    assert ok.status_code == 200 and "flower_" in ok.text
