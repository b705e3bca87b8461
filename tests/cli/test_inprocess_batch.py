"""``tools/inprocess_batch.py``: the in-memory batch contract (what ``run_cases.py`` and the label
evaluations call) reads config through ``AuditOptions`` and keeps blank references in place."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from claims.embed import default_embedder

_PATH = Path(__file__).resolve().parents[2] / "tools" / "inprocess_batch.py"
_spec = importlib.util.spec_from_file_location("inprocess_batch", _PATH)
assert _spec is not None and _spec.loader is not None
batch: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)

REF = "The museum opens at 9 and closes at 5."


@pytest.mark.parametrize(
    ("item", "error"),
    [
        ({"references": ["", " \n"], "response": "x"}, "references: every reference is empty"),
        ({"references": [REF], "response": "x", "config": {"nope": 1}}, "config.nope: unknown key"),
        ({"references": [REF], "response": "x", "config": {"threshold": 2}}, "config.threshold"),
        ({"references": [REF], "response": "x", "config": {"llm_band": [0.9, 0.1]}}, "config.llm_band"),
        ({"references": [REF], "response": "x", "config": []}, "config: must be an object"),
    ],
)
def test_invalid_lines_are_rejected_naming_the_field(item: dict[str, Any], error: str) -> None:
    out = batch.run_line({"id": "a", **item}, default_embedder())
    assert out["status"] == "rejected" and out["id"] == "a"
    assert out["error"].startswith(error)


def test_blank_reference_among_others_is_kept_and_llm_keys_are_accepted_offline() -> None:
    item = {
        "id": "b",
        "references": ["   ", REF],
        "response": "The museum closes at 5.",
        "config": {"judge": "auto", "llm_band": [0.2, 0.8], "decomposer": "llm"},
    }
    out = batch.run_line(item, default_embedder())
    assert out["status"] == "done", out.get("error")
    [claim] = [c for c in out["claims"] if c["role"] == "response"]
    assert claim["evidence"][0]["reference"] == 1  # index into the input list, blank one included
    # a calibrated probability, or None from the placeholder decision (claims/decision.py)
    assert claim["confidence"] is None or 0.0 <= claim["confidence"] <= 1.0
    assert out["usage"]["llm_judged_share"] == 0.0  # offline: the LLM judged nothing
