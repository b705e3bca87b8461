"""A real Prometheus (Debian's ``prometheus``) scrapes a real API (uvicorn) on a private stack with
no worker, while a backlog builds: it reads the backlog's series and fires the shipped backlog
alert.

The rules are ``deploy/prometheus/rules.yml`` with the backlog alert's threshold and ``for``
scaled from 90 s / 5 min to 3 s / 2 s (a test cannot wait 6 minutes); the expression, the
metric it reads and the scrape path with its bearer key are the shipped ones. The prometheus
binary comes with ``.ci/run``; outside CI the test is skipped when it is absent.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from sqlalchemy import text

from tests.conftest import require_binary

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]
VALID = {"response": "Water boils at 90 °C.", "references": ["Water boils at 100 °C at sea level."]}
BACKLOG = 10


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _scaled_rules(target: Path) -> None:
    rules = yaml.safe_load((ROOT / "deploy" / "prometheus" / "rules.yml").read_text())
    (backlog,) = [r for g in rules["groups"] for r in g["rules"] if r["alert"] == "ClaimauditBacklogOld"]
    assert "> 90" in backlog["expr"] and backlog["for"] == "5m"  # what is scaled, as shipped
    backlog["expr"] = backlog["expr"].replace("> 90", "> 3")
    backlog["for"] = "2s"
    target.write_text(yaml.safe_dump(rules))


def _wait(url: str, what: str, timeout: float, check: Any) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check(httpx.get(url, timeout=5))
            if last:
                return last
        except httpx.HTTPError as exc:
            last = exc
        time.sleep(0.5)
    raise AssertionError(f"{what} not seen within {timeout} s (last: {last!r})")


def _query(prom: str, expr: str) -> list[Any]:
    resp = httpx.get(f"{prom}/api/v1/query", params={"query": expr}, timeout=5).json()
    return list(resp["data"]["result"])


def test_a_real_prometheus_fires_the_backlog_alert(
    private: dict[str, Any], redis_url: str, tmp_path: Path
) -> None:
    binary = require_binary("prometheus", "prometheus")
    factory, settings, keys = private["factory"], private["settings"], private["keys"]
    with factory() as s:
        s.execute(text("DELETE FROM audits"))
        s.commit()
    api_port, prom_port = _free_port(), _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "MAX_QUEUED_AUDITS": str(settings.max_queued_audits),
        "MAX_QUEUED_AUDITS_PER_TENANT": str(settings.max_queued_audits_per_tenant),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    api_log = (tmp_path / "api.log").open("wb")
    api = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "api.main:app", "--host", "127.0.0.1", "--port", str(api_port)],
        cwd=ROOT, env=env, stdout=api_log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    prom_proc = None
    try:
        api_url = f"http://127.0.0.1:{api_port}"
        _wait(f"{api_url}/healthz", "the API", 120, lambda r: r.status_code in (200, 503))
        # the backlog: audits nobody consumes
        headers = {"Authorization": f"Bearer {keys['other']}"}
        for _ in range(BACKLOG):
            assert httpx.post(f"{api_url}/audits", json=VALID, headers=headers, timeout=30).status_code == 202

        (tmp_path / "admin.key").write_text(keys["other"] + "\n")
        _scaled_rules(tmp_path / "rules.yml")
        config = {
            "global": {"scrape_interval": "2s", "evaluation_interval": "1s"},
            "rule_files": ["rules.yml"],
            "scrape_configs": [
                {
                    "job_name": "claimaudit",
                    "scrape_timeout": "2s",  # /metrics pings the workers for up to 1 s
                    "authorization": {"type": "Bearer", "credentials_file": "admin.key"},
                    "static_configs": [{"targets": [f"127.0.0.1:{api_port}"]}],
                }
            ],
        }
        (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
        prom_log = (tmp_path / "prometheus.log").open("wb")
        prom_proc = subprocess.Popen(
            [binary, "--config.file=prometheus.yml", f"--storage.tsdb.path={tmp_path / 'data'}",
             f"--web.listen-address=127.0.0.1:{prom_port}"],
            cwd=tmp_path, stdout=prom_log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        prom = f"http://127.0.0.1:{prom_port}"

        def firing(resp: httpx.Response) -> list[Any]:
            if resp.status_code != 200:  # 503 "Service Unavailable" until its storage is up
                return []
            alerts = resp.json()["data"]["alerts"]
            return [
                a
                for a in alerts
                if a["labels"]["alertname"] == "ClaimauditBacklogOld" and a["state"] == "firing"
            ]

        try:
            alert = _wait(f"{prom}/api/v1/alerts", "ClaimauditBacklogOld firing", 90, firing)[0]
        except AssertionError:
            raise AssertionError((tmp_path / "prometheus.log").read_text()[-3000:]) from None
        assert alert["labels"]["severity"] == "page"
        # what Prometheus stored of the backlog: one message per audit, its age, no worker
        queue = os.environ["CELERY_QUEUE"]
        depth = _query(prom, f'sum(claimaudit_queue_depth{{queue="{queue}"}})')
        assert float(depth[0]["value"][1]) == BACKLOG
        assert float(_query(prom, "claimaudit_oldest_queued_audit_age_seconds")[0]["value"][1]) > 3
        assert float(_query(prom, "claimaudit_workers")[0]["value"][1]) == 0
    finally:
        if prom_proc is not None:
            prom_proc.terminate()
            prom_proc.wait(timeout=30)
        api.terminate()
        api.wait(timeout=30)
        api_log.close()
