"""The pytest plugin (entry point ``pytest11``): ``assert_claims`` in memory and against the real
API, run as a user runs it: ``pytest`` in a subprocess on a test file of their own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]

TESTS = """
REF = "The Halvorsen Bridge opened to traffic on 12 May 1998."


def test_faithful(assert_claims):
    doc = assert_claims("The Halvorsen Bridge opened in 1998.", [REF])
    assert doc.response_claims[0].verdict == "supported"


def test_wrong_year(assert_claims):
    assert_claims(
        "The Halvorsen Bridge opened in 1989. It is a bridge.",
        [REF],
        fail_on={"contradicted", "qualification_dropped"},
    )


def test_typo_in_a_verdict_is_an_error(assert_claims):
    assert_claims("The Halvorsen Bridge opened in 1998.", [REF], fail_on={"contradiction"})
"""


def _pytest(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_answers.py").write_text(TESTS, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_answers.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_assert_claims_in_memory_lists_the_failing_claims(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CLAIMAUDIT_API_URL"}
    proc = _pytest(tmp_path, env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "1 passed" in out and "2 failed" in out
    # the message: which claims, their verdict, the reason and the best evidence, where it ran
    assert "1 of 2 response claims are contradicted or qualification_dropped" in out
    assert "[0] contradicted: 'The Halvorsen Bridge opened in 1989.'" in out
    assert "reason: year 1989" in out
    assert "evidence (reference 0, chars 0-54" in out and "(audited in memory)" in out
    assert "fail_on: unknown verdict(s) ['contradiction']" in out


@pytest.mark.services
def test_assert_claims_against_a_server_names_the_audit_page(tmp_path: Path, live_api: str) -> None:
    proc = _pytest(tmp_path, {**os.environ, "CLAIMAUDIT_API_URL": live_api})
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "1 passed" in out and "2 failed" in out
    assert "[0] contradicted: 'The Halvorsen Bridge opened in 1989.'" in out
    assert f"(audited by {live_api}; page: {live_api}/ui/audits/" in out
