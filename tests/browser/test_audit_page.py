"""The audit page in a real browser: claim spans and their verdict colours and labels, the
evidence highlight on click, overlapping spans, and the live status refresh.

Expected values come from the audit's own JSON document (``GET /audits/{id}``) or from the spans
a test stored, never from the page itself.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from api.ui.legend import VERDICT_STYLES
from db import leases
from db import repository as repo
from db.engine import session_scope
from tests.browser.conftest import screenshot, wait_done
from tests.conftest import WorkerProcess
from tests.synthetic_audits import Spec, store_finished_audit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _rgb(hex_colour: str) -> str:
    """``#D55E00`` as the browser's computed ``rgb(213, 94, 0)``."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.fixture(scope="module")
def wrong_date(api: httpx.Client, ui_worker: WorkerProcess) -> dict[str, Any]:
    """examples/02_wrong_date.json audited through API → Redis → worker → Postgres; its document."""
    example = json.loads((EXAMPLES / "02_wrong_date.json").read_text())
    body = {k: example[k] for k in ("question", "references", "response")}
    body["metadata"] = {"example": "02_wrong_date"}
    accepted = api.post("/audits", json=body)
    assert accepted.status_code == 202, accepted.text
    doc = wait_done(api, accepted.json()["id"])
    assert doc["status"] == "done", doc.get("error")
    return {**doc, "body": body}


def _css(browser: Any, element: Any, prop: str) -> str:
    """The computed value of a CSS property (colours as ``rgb(r, g, b)``)."""
    return str(browser.execute_script("return getComputedStyle(arguments[0])[arguments[1]];", element, prop))


def _responses(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in doc["claims"] if c["role"] == "response"]


def test_claims_are_underlined_in_their_verdict_colour_with_a_label(
    browser: Any, live_server: str, wrong_date: dict[str, Any]
) -> None:
    browser.get(f"{live_server}/ui/audits/{wrong_date['id']}")
    claims = _responses(wrong_date)
    assert claims, "the example has response claims"
    # The example changes the year (1998 → 1989): at least that claim is contradicted.
    assert any(c["verdict"] == "contradicted" for c in claims)
    response = wrong_date["body"]["response"]
    for i, c in enumerate(claims):
        style = VERDICT_STYLES["outside_scope" if c["kind"] == "outside_scope" else c["verdict"]]
        badge = browser.find_element(By.ID, f"badge-{i}")
        # colour, and a label and symbol besides colour (for colour-blind readers)
        assert badge.get_attribute("aria-label") == f"claim {i + 1}: {style.label}"
        assert badge.text == f"{style.symbol}{i + 1}"
        assert _css(browser, badge, "color") == _rgb(style.ink)
        # the underline: the segments carrying claim i join to exactly its span of the response
        segs = browser.find_elements(By.CSS_SELECTOR, f'.seg[data-c~="{i}"]')
        assert "".join(s.text for s in segs).replace("\n", "") == response[c["start"] : c["end"]].replace(
            "\n", ""
        )
        assert all(_rgb(style.colour) in _css(browser, s, "background-image") for s in segs)
    legend = browser.find_element(By.CSS_SELECTOR, ".legend").text
    for style in VERDICT_STYLES.values():
        assert f"{style.symbol} {style.label}" in legend


def test_clicking_a_claim_highlights_its_evidence_in_the_reference(
    browser: Any, live_server: str, wrong_date: dict[str, Any]
) -> None:
    browser.get(f"{live_server}/ui/audits/{wrong_date['id']}")
    claims = _responses(wrong_date)
    i = next(k for k, c in enumerate(claims) if c["verdict"] == "contradicted" and c["evidence"])
    best = claims[i]["evidence"][0]
    browser.find_element(By.ID, f"badge-{i}").click()
    marked = browser.find_elements(By.CSS_SELECTOR, f"#ref-{best['reference']} .rseg.hl-best")
    reference = wrong_date["body"]["references"][best["reference"]]
    assert "".join(m.text for m in marked) == reference[best["start"] : best["end"]]
    assert len(browser.find_elements(By.CSS_SELECTOR, ".rseg.hl-best")) == len(marked)
    in_view = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight;",
        marked[0],
    )
    assert in_view, "the evidence span is scrolled into view"
    detail = browser.find_element(By.ID, f"detail-{i}")
    assert detail.is_displayed()
    assert claims[i]["reason"] in detail.text
    assert detail.find_element(By.CSS_SELECTOR, ".similarity").text == f"{best['similarity']:.3f}"
    assert detail.find_element(By.CSS_SELECTOR, ".confidence").text == (
        "null" if claims[i]["confidence"] is None else f"{claims[i]['confidence']:.3f}"
    )
    assert f"reference {best['reference']}, chars {best['start']}–{best['end']}" in detail.text
    screenshot(browser, "audit")
    # one button per reference claim no supported/inferred claim cites (the JSON's evidence),
    # and each highlights exactly its span
    cited = {
        (e["reference"], e["start"], e["end"])
        for c in claims
        if c["verdict"] in ("supported", "inferred")
        for e in c["evidence"]
    }
    refs = [c for c in wrong_date["claims"] if c["role"] == "reference" and c["kind"] == "material"]
    buttons = browser.find_elements(By.CSS_SELECTOR, ".rc-link")
    assert len(buttons) == sum(1 for c in refs if (c["reference"], c["start"], c["end"]) not in cited)
    for button in buttons:
        r, s, e = (int(x) for x in re.findall(r"\d+", button.text))  # "reference R, chars S–E"
        button.click()
        marked = browser.find_elements(By.CSS_SELECTOR, f"#ref-{r} .rseg.hl-uncovered")
        assert "".join(m.text for m in marked) == wrong_date["body"]["references"][r][s:e]
    # another claim moves the highlight; the first claim's highlight is gone
    j = next((k for k, c in enumerate(claims) if k != i and c["evidence"]), None)
    if j is not None:
        browser.find_element(By.ID, f"claim-row-{j}").click()
        assert not browser.find_elements(By.ID, f"detail-{i}")
        assert browser.find_element(By.ID, f"detail-{j}").is_displayed()
        assert claims[j]["text"] in browser.find_element(By.ID, f"detail-{j}").text


def test_overlapping_spans_keep_each_claim_whole_on_its_own_lane(
    browser: Any, live_server: str, session_factory: Any
) -> None:
    response = "The Halvorsen Bridge opened in 1998 and is 1,420 metres long."
    reference = "The Halvorsen Bridge opened in 1998. It is 1,420 metres long."
    # claim 0 [0, 35) and claim 1 [21, 61) cross; claim 2 [4, 20) nests inside claim 0
    specs = [Spec(0, 35, "supported", (0,)), Spec(21, 61, "contradicted", (1,)), Spec(4, 20, "unsupported")]
    aid = store_finished_audit(session_factory, response, reference, specs, [(0, 36), (37, 61)])
    browser.get(f"{live_server}/ui/audits/{aid}")
    lanes = {}
    for i, spec in enumerate(specs):
        segs = browser.find_elements(By.CSS_SELECTOR, f'.seg[data-c~="{i}"]')
        assert "".join(s.text for s in segs) == response[spec.start : spec.end]
        lanes[i] = {
            browser.execute_script(
                "const s = arguments[0]; const ids = s.dataset.c.split(' ');"
                "return getComputedStyle(s).backgroundPosition.split(',')[ids.indexOf(arguments[1])].trim();",
                s,
                str(i),
            )
            for s in segs
        }
    # each claim keeps one underline offset along its span, and overlapping claims differ
    assert all(len(v) == 1 for v in lanes.values()), lanes
    assert lanes[0] != lanes[1] and lanes[0] != lanes[2]
    shared = browser.find_elements(By.CSS_SELECTOR, '.seg[data-c~="0"][data-c~="1"]')
    assert "".join(s.text for s in shared) == response[21:35]


def test_status_and_timeline_refresh_without_reload(
    browser: Any, live_server: str, session_factory: Any, ui_worker: WorkerProcess
) -> None:
    from workers.pipeline import enqueue_audit

    with session_scope(session_factory) as s:  # stored, not yet sent to the broker: stays queued
        audit, _ = repo.create_audit(
            s,
            repo.NewAudit(
                response="The Halvorsen Bridge opened in 1989.",
                references=["The Halvorsen Bridge opened to traffic on 12 May 1998."],
                request_sha256=uuid.uuid4().hex,
            ),
        )
        aid = audit.id
    browser.get(f"{live_server}/ui/audits/{aid}")
    assert browser.find_element(By.ID, "status-chip").text == "queued"
    browser.execute_script("window.__sameDocument = true;")
    enqueue_audit(aid)
    with session_scope(session_factory) as s:
        leases.mark_sent(s, [aid], pending_s=600)
    # read in one script: the poll may replace the element between a find and a read
    chip = "const c = document.getElementById('status-chip'); return c && c.textContent;"
    WebDriverWait(browser, 240, poll_frequency=0.2).until(lambda d: d.execute_script(chip) == "done")
    assert browser.execute_script("return window.__sameDocument === true;"), "the page was reloaded"
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".claim-row"))
    steps = {
        el.get_attribute("data-step"): el.get_attribute("class")
        for el in browser.find_elements(By.CSS_SELECTOR, ".timeline .step")
    }
    assert list(steps) == ["queued", "decomposing", "embedding", "matching", "scoring", "done"]
    assert all("step-done" in cls for cls in steps.values())
    link = browser.find_element(By.ID, "json-link").get_attribute("href")
    assert link.endswith(f"/ui/audits/{aid}/json")
    time.sleep(1.5)  # no further polling replaced the finished page
    assert browser.execute_script("return window.__sameDocument === true;")
    # the link opens the audit's JSON document in the signed-in browser (the API takes no cookie)
    browser.get(link)
    doc = json.loads(browser.find_element(By.TAG_NAME, "body").text)
    assert doc["id"] == str(aid) and doc["status"] == "done" and doc["claims"]
