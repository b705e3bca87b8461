"""`claimaudit audit --offline --html report.html`: one self-contained HTML file of the audit."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLAIMAUDIT = str(Path(sys.executable).with_name("claimaudit"))


def test_html_report_is_self_contained_and_shows_every_claim(tmp_path: Path) -> None:
    example = json.loads((ROOT / "examples" / "02_wrong_date.json").read_text(encoding="utf-8"))
    (tmp_path / "ref.txt").write_text(example["references"][0], encoding="utf-8")
    (tmp_path / "resp.txt").write_text(example["response"], encoding="utf-8")
    report = tmp_path / "report.html"
    proc = subprocess.run(
        [CLAIMAUDIT, "audit", "--offline", "--json", "-r", str(tmp_path / "ref.txt"), "--response",
         str(tmp_path / "resp.txt"), "--html", str(report)],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, cwd=ROOT,
        env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    html = report.read_text(encoding="utf-8")
    # no external asset: no src/href to another file, the stylesheet and the script inline
    assert not re.search(r"<(script|img)[^>]+src=|<link[^>]+stylesheet", html)
    assert "<style>" in html and "<script>" in html
    responses = [c for c in doc["claims"] if c["role"] == "response"]
    labels = re.findall(r'aria-label="claim (\d+): ([a-z ]+)"', html)
    assert len(labels) == len(responses)
    # the response says 1989 where the reference says 1998 (examples/02_wrong_date.json)
    assert ("contradicted" in {label for _, label in labels}) == any(
        c["verdict"] == "contradicted" for c in responses
    )
    assert any(c["verdict"] == "contradicted" for c in responses)
    assert not list(tmp_path.glob(".report.html.*")), "no temporary file left behind"
    # for a ticket: readable by others like any file the user writes (not 0600)
    assert report.stat().st_mode & 0o777 == 0o644


def test_html_report_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("The bridge opened in 1998.", encoding="utf-8")
    proc = subprocess.run(
        [CLAIMAUDIT, "audit", "--offline", "-r", str(tmp_path / "t.txt"), "--response",
         str(tmp_path / "t.txt"), "--html", str(tmp_path / "missing" / "r.html")],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 2 and "--html: cannot write" in proc.stderr


def test_an_html_path_in_a_missing_folder_is_refused_before_the_audit(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    (tmp_path / "ref.txt").write_text("The Halvorsen Bridge opened in 1998.", encoding="utf-8")
    (tmp_path / "resp.txt").write_text("The Halvorsen Bridge opened in 1989.", encoding="utf-8")
    missing = tmp_path / "no-such-folder" / "report.html"
    args = ["audit", "-r", str(tmp_path / "ref.txt"), "--response", str(tmp_path / "resp.txt")]
    # no --offline and no API: an audit would start the local stack; the path is refused first
    result = CliRunner().invoke(app, [*args, "--html", str(missing)], env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    said = "".join(result.output.split())  # the message as one line, whatever the console's wrap
    assert f"nofolder{missing.parent}" in said and ".report.html." not in said
