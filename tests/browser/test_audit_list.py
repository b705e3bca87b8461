"""The audit list in a real browser: the filters (through the form), pagination, and the claim
search. Each test scopes the list to its own audits by a metadata value (the database is shared
by the session), and expects exactly what the audits' JSON documents say."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.browser.conftest import screenshot, wait_done
from tests.conftest import WorkerProcess

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = ("01_paraphrase", "02_wrong_date", "03_unrelated")


@pytest.fixture(scope="module")
def suite(api: httpx.Client, ui_worker: WorkerProcess) -> dict[str, Any]:
    """Three examples audited through the pipeline, tagged ``suite=<tag>``; tag and documents."""
    tag = uuid.uuid4().hex[:10]
    ids = []
    for name in NAMES:
        example = json.loads((EXAMPLES / f"{name}.json").read_text())
        body = {k: example[k] for k in ("question", "references", "response")}
        body["metadata"] = {"suite": tag, "example": name}
        ids.append(api.post("/audits", json=body).json()["id"])
    docs = {aid: wait_done(api, aid) for aid in ids}
    assert all(d["status"] == "done" for d in docs.values())
    return {"tag": tag, "docs": docs}


def _listed(browser: Any) -> list[str]:
    return [r.get_attribute("data-audit-id") for r in browser.find_elements(By.CSS_SELECTOR, ".audit-row")]


def _open(browser: Any, base: str, **params: Any) -> None:
    browser.get(f"{base}/ui/audits?{urlencode(params)}")


def test_filters_of_the_form_select_the_matching_audits(
    browser: Any, live_server: str, suite: dict[str, Any]
) -> None:
    docs = suite["docs"]
    _open(browser, live_server, metadata_key="suite", metadata_value=suite["tag"])
    assert sorted(_listed(browser)) == sorted(docs)
    screenshot(browser, "audits")

    # verdict present, chosen in the form
    Select(browser.find_element(By.NAME, "verdict")).select_by_value("contradicted")
    browser.find_element(By.ID, "apply").click()
    WebDriverWait(browser, 10).until(lambda d: "verdict=contradicted" in d.current_url)
    expected = [a for a, d in docs.items() if any(c.get("verdict") == "contradicted" for c in d["claims"])]
    assert expected, "02_wrong_date has a contradicted claim"
    assert sorted(_listed(browser)) == sorted(expected)

    # score range: claim_precision <= 0.5 (values from the documents)
    _open(
        browser,
        live_server,
        metadata_key="suite",
        metadata_value=suite["tag"],
        score="claim_precision",
        score_max="0.5",
    )
    low = [
        a
        for a, d in docs.items()
        if d["scores"]["claim_precision"] is not None and d["scores"]["claim_precision"] <= 0.5
    ]
    assert sorted(_listed(browser)) == sorted(low)
    assert len(low) < len(docs), "01_paraphrase is fully supported (precision 1.0)"

    # status and time: every audit here is done and was created after the epoch, none before it
    _open(
        browser,
        live_server,
        metadata_key="suite",
        metadata_value=suite["tag"],
        status="done",
        since="2000-01-01T00:00",
    )
    assert sorted(_listed(browser)) == sorted(docs)
    _open(browser, live_server, metadata_key="suite", metadata_value=suite["tag"], until="2000-01-01T00:00")
    assert _listed(browser) == []

    # a bad value is reported on the page, not a JSON error
    _open(
        browser,
        live_server,
        metadata_key="suite",
        metadata_value=suite["tag"],
        score="claim_f1",
        score_min="high",
    )
    assert "score_min: 'high' is not a finite number" in browser.find_element(By.CSS_SELECTOR, ".errors").text


def test_pagination_walks_through_every_audit_once(
    browser: Any, live_server: str, suite: dict[str, Any]
) -> None:
    _open(browser, live_server, metadata_key="suite", metadata_value=suite["tag"], limit=1)
    seen = []
    for _ in range(len(suite["docs"])):
        rows = _listed(browser)
        assert len(rows) == 1
        seen += rows
        nxt = browser.find_elements(By.ID, "next")
        if not nxt:
            break
        nxt[0].click()
    assert sorted(seen) == sorted(suite["docs"])
    assert not browser.find_elements(By.ID, "next")
    assert "3 audits, 3–3 shown" in browser.find_element(By.ID, "total").text


def test_claim_search_finds_a_claim_and_links_to_its_audit(
    browser: Any, live_server: str, suite: dict[str, Any]
) -> None:
    wrong_date = next(a for a, d in suite["docs"].items() if d["metadata"]["example"] == "02_wrong_date")
    claim = next(c for c in suite["docs"][wrong_date]["claims"] if c["role"] == "response")
    _open(browser, live_server, metadata_key="suite", metadata_value=suite["tag"])
    browser.find_element(By.NAME, "q").send_keys(claim["text"])
    browser.find_element(By.ID, "apply").click()
    hits = WebDriverWait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".hit"))
    rows = [
        (float(h.find_elements(By.TAG_NAME, "td")[0].text), h.find_elements(By.TAG_NAME, "td")[1].text,
         h.find_element(By.TAG_NAME, "a").get_attribute("href"))
        for h in hits
    ]  # fmt: skip
    # the claim itself is stored, so it is found with cosine 1 (up to float error), linking to its
    # audit's page at that claim (other tests of the session may store the same example too)
    ours = [r for r in rows if f"/ui/audits/{wrong_date}#claim-{claim['position']}" in r[2]]
    assert ours and ours[0][1] == claim["text"] and ours[0][0] > 0.99, rows
    assert rows[0][0] >= ours[0][0] - 1e-3
