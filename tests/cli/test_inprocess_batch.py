"""``tools/inprocess_batch.py``: the in-memory batch contract (what ``run_cases.py`` and the label
evaluations call) reads config through ``AuditOptions`` and keeps blank references in place."""

from __future__ import annotations

import importlib.util
import json
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


class _Counting:
    """An embedder that counts the texts the model is asked for (what a cache saves)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.calls = inner, []  # type: ignore[var-annotated]
        self.model_name, self.dim = inner.model_name, inner.dim

    def embed(self, texts: Any) -> Any:
        self.calls.append(list(texts))
        return self.inner.embed(texts)


def _clear_caches() -> None:
    from claims import decompose as dec
    from claims import parses

    dec.CACHE.clear()
    parses.clear()


def _close(a: Any, b: Any, path: str = "") -> None:
    """Equal documents, floats to 1e-5 (a batch's vectors differ from one audit's by ~1e-7)."""
    if isinstance(a, float) or isinstance(b, float):
        assert a == pytest.approx(b, abs=1e-5), path
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            _close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{path}[{i}]")
    else:
        assert a == b, path


def test_a_chunk_embeds_once_and_gives_each_line_its_own_document_in_order() -> None:
    from claims.embed import CachedEmbedder, InMemoryEmbeddingCache

    lines = [
        {"id": "1", "references": [REF], "response": "The museum opens at 10. Marta Olsen runs it."},
        "invalid JSON: Expecting value: line 1 column 1 (char 0)",  # what _parsed gives for a bad line
        {"id": "3", "references": ["", REF], "response": "The museum closes at 5."},
        {"id": "4", "references": [], "response": "x"},
        {"id": "5", "references": [REF + " It was built in 1901."], "response": "The museum opens at 9."},
    ]
    _clear_caches()  # each line alone, cold: the reference documents
    alone = [batch.run_line(line, default_embedder()) if isinstance(line, dict) else None for line in lines]
    _clear_caches()
    counting = _Counting(default_embedder())
    docs = batch.run_chunk(lines, CachedEmbedder(counting, InMemoryEmbeddingCache()))
    assert [d["id"] for d in docs] == ["1", None, "3", "4", "5"]
    assert [d["status"] for d in docs] == ["done", "rejected", "done", "rejected", "done"]
    # one model call for the three valid audits; the per-audit runs find every vector cached
    assert len([c for c in counting.calls if c]) == 1
    for k in (0, 2, 3, 4):
        _close(docs[k], alone[k], f"line {k}")
    assert docs[0]["claims"][0]["verdict"] == "contradicted"  # 10 against the reference's 9


def test_a_line_that_is_not_a_json_object_is_rejected_and_never_stops_the_batch() -> None:
    assert batch._parsed(b"[1, 2]") == "each line must be a JSON object"
    assert batch._parsed(b"{").startswith("invalid JSON")
    assert batch._parsed(b"[" * 100_000).startswith("invalid JSON")  # RecursionError
    assert batch._parsed(b'{"id": "\xff"}').startswith("invalid UTF-8")
    doc = {"id": "a\ud800", "status": "rejected"}  # valid JSON, not encodable as UTF-8
    line = batch._dumps(doc)
    line.encode("utf-8")
    assert json.loads(line) == doc


def test_the_batch_command_rejects_bad_lines_in_place(tmp_path: Path) -> None:
    import subprocess
    import sys

    src = tmp_path / "in.jsonl"
    good = json.dumps({"id": "g", "references": [REF], "response": "The museum opens at 9."})
    src.write_bytes(b"[[[[\n" + b'{"id": "\xff"}\n' + good.encode() + b"\n[1]\n")
    out = tmp_path / "out.jsonl"
    subprocess.run([sys.executable, str(_PATH), str(src), "--output", str(out)], check=True, timeout=600)
    docs = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [d["status"] for d in docs] == ["rejected", "rejected", "done", "rejected"]
    assert docs[2]["id"] == "g"


def test_non_finite_numbers_and_lone_surrogates_are_rejected_not_failed() -> None:
    assert batch._parsed(b'{"id": NaN, "references": ["x"], "response": "y"}').startswith("invalid JSON")
    assert batch._parsed(b'{"id": 1e400, "references": ["x"], "response": "y"}').startswith("invalid JSON")
    out = batch.run_line({"id": "s", "references": ["a \udc00 b."], "response": "a b."}, default_embedder())
    assert out["status"] == "rejected" and out["error"].startswith("references[0]: must not contain lone")


def test_a_byte_order_mark_is_not_part_of_the_json() -> None:
    assert batch._parsed(b'\xef\xbb\xbf{"id": "a"}') == {"id": "a"}
