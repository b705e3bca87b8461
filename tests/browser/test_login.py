"""Signing in and out in a real browser: the pages send a browser without a session to the form,
the pasted key becomes an HttpOnly, SameSite=Strict session cookie, and signing out ends it."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import sign_in


def test_sign_in_returns_to_the_page_and_sign_out_ends_the_session(
    browser: Any, live_server: str, api_key: str
) -> None:
    browser.delete_all_cookies()
    # a wrong key: the form again, saying why, and no session
    browser.get(f"{live_server}/ui/runs")
    assert browser.current_url == f"{live_server}/ui/login?next=/ui/runs"
    browser.find_element(By.ID, "key").send_keys("ca_not-a-key")
    browser.find_element(By.ID, "sign-in").click()
    error = WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.ID, "login-error")))
    assert "invalid API key" in error.text
    assert not [c for c in browser.get_cookies() if c["name"] == "claimaudit_ui"]

    sign_in(browser, live_server, api_key, page="/ui/runs")
    (session,) = [c for c in browser.get_cookies() if c["name"] == "claimaudit_ui"]
    assert session["httpOnly"] is True and session["sameSite"] == "Strict" and session["path"] == "/ui"
    assert api_key not in session["value"]
    assert browser.execute_script("return document.cookie.indexOf('claimaudit_ui=') === -1")  # HttpOnly

    browser.find_element(By.ID, "logout").click()
    WebDriverWait(browser, 30).until(ec.url_contains("/ui/login"))
    browser.get(f"{live_server}/ui/audits")
    assert browser.current_url.startswith(f"{live_server}/ui/login?next=")
    sign_in(browser, live_server, api_key)  # the later tests use the signed-in browser
