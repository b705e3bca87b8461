"""``#claim-P`` selects a claim on a page that is already open: a followed in-page link or an
edited address bar changes only the fragment, and the page must follow it without a reload."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.synthetic_audits import Spec, store_finished_audit


def test_a_new_fragment_selects_its_claim_on_the_open_page(
    browser: Any, live_server: str, session_factory: Any
) -> None:
    response = "The Halvorsen Bridge opened in 1998. It is 1,420 metres long."
    reference = "The Halvorsen Bridge opened in 1998. It is 1,240 metres long."
    specs = [Spec(0, 36, "supported", (0,)), Spec(37, 61, "contradicted", (1,))]
    aid = store_finished_audit(session_factory, response, reference, specs, [(0, 36), (37, 61)])
    browser.get(f"{live_server}/ui/audits/{aid}#claim-0")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "detail-0"))
    browser.execute_script("window.__sameDocument = true; location.hash = '#claim-1';")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "detail-1"))
    assert not browser.find_elements(By.ID, "detail-0")
    assert "sel" in browser.find_element(By.ID, "claim-row-1").get_attribute("class")
    assert browser.execute_script("return window.__sameDocument === true;"), "the page was reloaded"
