#!/usr/bin/env python3
"""Score ``claims.decompose`` against a gold decomposition set; optionally time it.

Usage:
    python tools/eval_decomposition.py [GOLD.jsonl] [--verbose]
    python tools/eval_decomposition.py --timing [--baseline-rev REV] [--repeat N]
        [--timing-texts AUDITS.jsonl]

Each gold line: {"kind", "text", "claims": [expected material claims], "facts": [key facts],
"outside": <expected outside_scope claims, optional>}. Default set:
tests/data/decomposition_gold.jsonl.

Metrics (the last line printed is ``count_exact=<x> fact_recall=<y>``):

count_exact
    share of rows whose number of material claims equals ``len(claims)`` (and whose number of
    outside_scope claims equals ``outside`` where the row gives it); in [0, 1], best 1.
fact_recall
    share of key facts found (case-insensitive, blanks collapsed) inside the text of some
    material claim of their row; in [0, 1], best 1 (FActScore's atomic facts, Min et al.
    2023: a fact the decomposition drops or garbles cannot be checked).

``--timing`` decomposes every gold text without the cache and prints milliseconds per
sentence (sentences counted by ``claims.decompose.split_sentences``): one call per text and
one ``decompose_many`` call for all; with ``--baseline-rev`` the ``claims.decompose`` of
that git revision (module or package) is loaded from ``git show`` and timed in the same run,
side by side.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from claims import decompose as current  # noqa: E402
from claims.decompose import pipeline  # noqa: E402
from claims.types import ClaimKind  # noqa: E402

DEFAULT_GOLD = ROOT / "tests" / "data" / "decomposition_gold.jsonl"


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().lower()


@dataclass
class Report:
    rows: int = 0
    exact: int = 0
    facts: int = 0
    found: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def count_exact(self) -> float:
        return self.exact / self.rows if self.rows else 0.0

    @property
    def fact_recall(self) -> float:
        return self.found / self.facts if self.facts else 0.0


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(rows: list[dict[str, Any]]) -> Report:
    """Score every row (see the module docstring for the metrics)."""
    rep = Report()
    for row in rows:
        claims = current.decompose(row["text"])
        material = [c.text for c in claims if c.kind is ClaimKind.MATERIAL]
        outside = sum(c.kind is ClaimKind.OUTSIDE_SCOPE for c in claims)
        rep.rows += 1
        ok = len(material) == len(row["claims"]) and row.get("outside", outside) == outside
        rep.exact += ok
        texts = [_norm(t) for t in material]
        missed = [f for f in row["facts"] if not any(_norm(f) in t for t in texts)]
        rep.facts += len(row["facts"])
        rep.found += len(row["facts"]) - len(missed)
        if not ok or missed:
            rep.misses.append(
                f"[{row['kind']}] {row['text']!r}\n    got {material} (+{outside} outside)\n"
                f"    want {row['claims']} (+{row.get('outside', '?')} outside); facts missed {missed}"
            )
    return rep


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def _load_baseline(rev: str) -> Any:
    """``claims.decompose`` as of ``rev``: the module ``claims/decompose.py``, or the
    ``pipeline`` module of the package ``claims/decompose/`` (loaded as ``baseline_decompose``,
    its imports of its own modules renamed)."""
    tmp = Path(tempfile.mkdtemp())
    if _git("ls-tree", "-d", "--name-only", rev, "claims/decompose").strip():
        pkg = tmp / "baseline_decompose"
        pkg.mkdir()
        for name in _git("ls-tree", "--name-only", f"{rev}:claims/decompose/").split():
            src = _git("show", f"{rev}:claims/decompose/{name}")
            (pkg / name).write_text(src.replace("claims.decompose.", "baseline_decompose."), encoding="utf-8")
        sys.path.insert(0, str(tmp))
        return importlib.import_module("baseline_decompose.pipeline")
    path = tmp / "baseline_decompose.py"
    path.write_text(_git("show", f"{rev}:claims/decompose.py"), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("baseline_decompose", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while it loads
    spec.loader.exec_module(mod)
    return mod


def _uncached(mod: Any) -> Any:
    """The module's decomposition of one text, bypassing its cache."""
    if hasattr(mod, "_decompose_batch"):
        return lambda t: mod._decompose_batch([t])[0]
    return mod._decompose_cached.__wrapped__


def timing(texts: list[str], rev: str | None, repeat: int) -> None:
    """Print ms per sentence: baseline (if any) and current, per text and batched."""
    n_sent = sum(len(current.split_sentences(t)) for t in texts)
    runs: list[tuple[str, Any]] = []
    if rev:
        base = _load_baseline(rev)
        base.parser()
        runs.append((f"baseline {rev}, one call per text", lambda: [_uncached(base)(t) for t in texts]))
    current.parser()
    one = _uncached(pipeline)
    runs.append(("current, one call per text", lambda: [one(t) for t in texts]))
    runs.append(("current, decompose_many (one nlp.pipe)", lambda: pipeline._decompose_batch(texts)))
    for _, fn in runs:
        fn()  # warm-up: models loaded, caches of helpers filled
    best: dict[str, float] = {}
    for _ in range(repeat):
        for name, fn in runs:  # interleaved, so load on the machine hits every variant alike
            t0 = time.perf_counter()
            fn()
            best[name] = min(best.get(name, float("inf")), time.perf_counter() - t0)
    print(f"{len(texts)} texts, {n_sent} sentences, best of {repeat}")
    for name, _ in runs:
        print(f"  {name}: {1000 * best[name] / n_sent:.2f} ms/sentence")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gold", nargs="?", type=Path, default=DEFAULT_GOLD)
    ap.add_argument("--verbose", action="store_true", help="print every row that misses")
    ap.add_argument("--timing", action="store_true", help="time decomposition (ms per sentence)")
    ap.add_argument("--baseline-rev", default=None, help="git revision to time side by side")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--timing-texts",
        type=Path,
        default=None,
        help="time on the texts of an audit batch file (JSONL with response and references) instead",
    )
    args = ap.parse_args(argv)
    rows = load(args.gold)
    if args.timing:
        texts = [r["text"] for r in rows]
        if args.timing_texts:
            audits = load(args.timing_texts)
            texts = [
                t for a in audits for t in [a.get("response", ""), *a.get("references", [])] if t.strip()
            ]
        timing(texts, args.baseline_rev, args.repeat)
    rep = evaluate(rows)
    if args.verbose:
        print("\n".join(rep.misses))
    print(f"rows={rep.rows} facts={rep.facts}")
    print(f"count_exact={rep.count_exact:.4f} fact_recall={rep.fact_recall:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
