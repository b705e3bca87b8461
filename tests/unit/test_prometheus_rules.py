"""The shipped alert rules (``deploy/prometheus/``): ``promtool check rules`` and ``promtool test
rules`` pass, the Prometheus configuration is valid, and every metric the rules and the Grafana
dashboard query is one that ``service.metrics`` exposes before any event.

promtool comes with Debian's ``prometheus`` package (``.ci/run`` installs it); outside CI the
promtool tests are skipped when it is absent, in CI they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import require_binary

ROOT = Path(__file__).resolve().parents[2]
PROM = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana-dashboard.json"
#: A series name in a PromQL expression (the prefix of every claimaudit series).
SERIES = re.compile(r"\bclaimaudit_[a-z0-9_]+\b")


def _promtool() -> str:
    return require_binary("promtool", "prometheus")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_promtool(), *args], cwd=PROM, capture_output=True, text=True, timeout=120)


def test_promtool_check_rules_passes() -> None:
    done = _run("check", "rules", "rules.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7 rules found" in done.stdout  # the seven alerts of rules.yml


def test_promtool_unit_tests_of_the_rules_pass() -> None:
    done = _run("test", "rules", "rules_test.yml")
    assert done.returncode == 0, done.stdout + done.stderr


def test_prometheus_config_is_valid(tmp_path: Path) -> None:
    # credentials_file must exist for check config: a copy of the folder with a stand-in key
    copy = tmp_path / "deploy" / "prometheus"
    shutil.copytree(PROM, copy)
    (tmp_path / ".claimaudit").mkdir()
    (tmp_path / ".claimaudit" / "admin.key").write_text("stand-in\n")
    done = subprocess.run(
        [_promtool(), "check", "config", "prometheus.yml"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _queried() -> dict[str, set[str]]:
    """{series name: where it is queried} over the dashboard's and the rules' expressions."""
    exprs: dict[str, str] = {}
    for panel in json.loads(DASHBOARD.read_text())["panels"]:
        for target in panel.get("targets", []):
            exprs[f"dashboard: {panel.get('title')}"] = (
                exprs.get(f"dashboard: {panel.get('title')}", "") + target["expr"]
            )
    exprs["rules.yml"] = (PROM / "rules.yml").read_text()
    names: dict[str, set[str]] = {}
    for where, expr in exprs.items():
        for name in SERIES.findall(expr):
            names.setdefault(name, set()).add(where)
    return names


#: A fresh multiprocess directory, as a deployment starts with: import the metrics (the API's own
#: process), let a Flower-like program write its own series into the same directory, then scrape.
_SCRAPE = """
import sys
from prometheus_client import Counter
from service.metrics import Present, scrape
Counter("flower_events", "Flower's own counter", ["type"]).labels("task-sent").inc()
# what /metrics reads on an empty deployment: no audit, an empty queue (every priority), no worker
depths = {("claimaudit", priority): 0 for priority in range(10)}
body = scrape(lambda: Present(depths=depths), multiproc_dir=sys.argv[1])
sys.stdout.write(body.decode())
"""


def _fresh_scrape(tmp_path: Path) -> str:
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    done = subprocess.run(
        [sys.executable, "-c", _SCRAPE, str(metrics_dir)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_queried_metric_is_exposed_before_any_event(tmp_path: Path) -> None:
    from prometheus_client.parser import text_string_to_metric_families

    text = _fresh_scrape(tmp_path)
    exposed = {s.name for family in text_string_to_metric_families(text) for s in family.samples}
    queried = _queried()
    # the dashboard's 12 panels and the rules query 14 series (deploy/); a guard on the regex
    assert len(queried) >= 14, sorted(queried)
    missing = {name: sorted(where) for name, where in queried.items() if name not in exposed}
    assert not missing, missing


def test_metrics_hold_only_the_services_series(tmp_path: Path) -> None:
    text = _fresh_scrape(tmp_path)
    names = {line.split()[2] for line in text.splitlines() if line.startswith("# TYPE")}
    assert names, text[:500]
    assert all(name.startswith("claimaudit_") for name in names), sorted(
        n for n in names if "claimaudit" not in n
    )
    assert "flower" not in text
