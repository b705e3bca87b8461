"""The gold decomposition set scored by tools/eval_decomposition.py meets the targets of
docs/DECOMPOSITION.md (claim-count exact match >= 80 %, key-fact recall >= 95 %)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "data" / "decomposition_gold.jsonl"


def test_gold_set_is_large_and_well_formed() -> None:
    # the gold set's size: at least 80 sentences of varied structure
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 80
    assert len({r["kind"] for r in rows}) >= 20
    for r in rows:
        assert isinstance(r["text"], str) and r["text"].strip()
        assert isinstance(r["claims"], list) and isinstance(r["facts"], list)


def test_eval_tool_meets_the_targets() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "eval_decomposition.py")],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    ).stdout
    last = out.strip().splitlines()[-1]
    fields = dict(part.split("=") for part in last.split())
    assert set(fields) == {"count_exact", "fact_recall"}
    assert float(fields["count_exact"]) >= 0.80
    assert float(fields["fact_recall"]) >= 0.95
