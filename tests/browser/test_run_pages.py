"""Run pages in a real browser: summary, verdict-mix and score-distribution charts, worst audits,
and the changed claims against the run's baseline (pinned, else the last run whose gate held),
each checked against the runs API's JSON (``GET /runs/{id}``, ``GET /runs/{id}/compare``)."""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By

from tests.browser.conftest import screenshot
from tests.conftest import WorkerProcess

REFERENCE = (
    "The Halvorsen Bridge opened to traffic on 12 May 1998. The suspension bridge is 1,420 metres long."
)
RIGHT = "The Halvorsen Bridge opened on 12 May 1998."
WRONG = "The Halvorsen Bridge opened on 12 May 1989."


def _finished(api: httpx.Client, suite: str, label: str, responses: dict[str, str]) -> dict[str, Any]:
    items = [{"id": k, "references": [REFERENCE], "response": v} for k, v in responses.items()]
    resp = api.post("/runs", json={"suite": suite, "label": label, "items": items})
    assert resp.status_code == 202, resp.text
    run_id = resp.json()["run"]["id"]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        doc = api.get(f"/runs/{run_id}").json()
        if doc["status"] in ("finished", "failed"):
            return dict(doc)
        time.sleep(0.5)
    raise AssertionError(f"run {label} not finished after 300 s")


@pytest.fixture(scope="module")
def two_runs(api: httpx.Client, ui_worker: WorkerProcess) -> dict[str, Any]:
    """Suite ``ui-<tag>``: run ``before`` (q1 right, q2 wrong), then ``after`` (q1 wrong, q2 wrong)."""
    suite = f"ui-{uuid.uuid4().hex[:8]}"
    before = _finished(api, suite, "before", {"q1": RIGHT, "q2": WRONG})
    after = _finished(api, suite, "after", {"q1": WRONG, "q2": WRONG})
    assert before["status"] == after["status"] == "finished"
    compare = api.get(f"/runs/{after['id']}/compare", params={"with": "baseline"}).json()
    return {"suite": suite, "before": before, "after": after, "compare": compare}


def test_run_page_shows_summary_charts_worst_audits_and_changed_claims(
    browser: Any, live_server: str, api: httpx.Client, two_runs: dict[str, Any]
) -> None:
    run = two_runs["after"]
    browser.get(f"{live_server}/ui/runs/{run['id']}")
    summary = run["summary"]
    assert browser.find_element(By.ID, "items").text == str(summary["items"])
    # verdict mix: one bar segment per verdict present, its tooltip starting with its count
    segments = {
        r.get_attribute("data-verdict"): r.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        for r in browser.find_elements(By.CSS_SELECTOR, "#verdict-mix rect[data-verdict]")
    }
    assert {v: int(t.split()[0]) for v, t in segments.items()} == {
        v: n for v, n in summary["verdicts"].items() if n
    }
    # distributions: every done audit's F1 counted once
    counts = browser.find_element(By.CSS_SELECTOR, 'figure[data-score="claim_f1"] svg').get_attribute(
        "data-counts"
    )
    items = api.get(f"/runs/{run['id']}").json()["audits"]["items"]
    assert sum(map(int, counts.split())) == sum(1 for i in items if i["claim_f1"] is not None)
    # worst audits: lowest F1 first
    worst = [r.get_attribute("data-item") for r in browser.find_elements(By.CSS_SELECTOR, ".worst-row")]
    by_f1 = sorted(items, key=lambda i: (i["claim_f1"] is None, i["claim_f1"] or 0.0, i["item_id"]))
    assert worst == [i["item_id"] for i in by_f1]
    # changed claims side by side: q1 went from RIGHT to WRONG (1998 -> 1989)
    changed = two_runs["compare"]["changed_claims"]
    rows = browser.find_elements(By.CSS_SELECTOR, "#changed-claims tr.changed")
    assert [r.get_attribute("data-item") for r in rows] == [c["item_id"] for c in changed]
    assert any(c["item_id"] == "q1" for c in changed), changed
    q1 = next(r for r in rows if r.get_attribute("data-item") == "q1")
    change = next(c for c in changed if c["item_id"] == "q1")
    assert change["before"]["text"] in q1.find_element(By.CSS_SELECTOR, ".before").text
    assert change["after"]["text"] in q1.find_element(By.CSS_SELECTOR, ".after").text
    assert change["after"]["verdict"].replace("_", " ") in q1.find_element(By.CSS_SELECTOR, ".after").text
    screenshot(browser, "run")


def test_runs_list_links_each_run_of_the_suite(
    browser: Any, live_server: str, two_runs: dict[str, Any]
) -> None:
    browser.get(f"{live_server}/ui/runs?suite={two_runs['suite']}")
    listed = [r.get_attribute("data-run-id") for r in browser.find_elements(By.CSS_SELECTOR, ".run-row")]
    assert listed == [two_runs["after"]["id"], two_runs["before"]["id"]]  # newest first
    browser.find_element(By.CSS_SELECTOR, f'.run-row[data-run-id="{two_runs["before"]["id"]}"] a').click()
    assert "No baseline" in browser.find_element(By.ID, "compare").text


def test_run_page_compares_with_the_baseline_not_the_previous_run(
    browser: Any, live_server: str, api: httpx.Client, two_runs: dict[str, Any]
) -> None:
    # q1 went right -> wrong in ``after``: its gate crossed, so a third run's baseline is ``before``
    assert two_runs["compare"]["gate"]["crossed"], two_runs["compare"]["gate"]
    third = _finished(api, two_runs["suite"], "third", {"q1": WRONG, "q2": WRONG})

    def shown() -> tuple[str, str]:
        browser.get(f"{live_server}/ui/runs/{third['id']}")
        link = browser.find_element(By.CSS_SELECTOR, "#compare p a")
        chosen = browser.find_element(By.ID, "baseline-chosen").text
        return link.get_attribute("href").rsplit("/", 1)[-1], chosen

    assert shown() == (two_runs["before"]["id"], "last run whose gate held")
    pinned = api.put(f"/runs/{two_runs['after']['id']}/baseline")
    assert pinned.status_code == 200, pinned.text
    assert shown() == (two_runs["after"]["id"], "pinned")
