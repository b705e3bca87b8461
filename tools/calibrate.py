#!/usr/bin/env python3
"""Calibrate the cosine threshold of the default embedder (``claims.match.DEFAULT_THRESHOLD``).

Rule under test (the seed post's): a response claim is *matched* when its best cosine against
the reference claims is ``>= t``. For each data set and each ``t`` in a sweep this prints the
balanced accuracy of that rule against human labels:

- ``cases``: the shared cases (``<shared>/cases/audits.jsonl``): every response claim named
  by a verdict expectation; positive when the allowed verdicts are all supported/inferred,
  negative when none is (contradicted / unsupported / qualification_dropped claims).
- ``factcheck``: Factcheck-GPT stance pairs; one item per pair, predicted "support" when every
  material response claim is matched (claim_overlap == 1); gold positive = completely-support.
- ``wice``: WiCE claims; same rule; gold positive = supported.

Usage:
    python tools/calibrate.py [--shared ../shared] [--limit N] [--json OUT.json] [--step 0.01]

``--shared`` is the shared folder (default: ``../shared`` next to the repository root); the
labelled sets are ``<shared>/data/factcheck_gpt/stance_dev.jsonl`` and
``<shared>/data/wice/claims_dev.jsonl``.

Decomposition and embeddings are computed once; the sweep is pure numpy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claims.decompose import decompose  # noqa: E402
from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder  # noqa: E402
from claims.match import DEFAULT_THRESHOLD, cosine_matrix  # noqa: E402
from claims.types import ClaimKind, Role  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CASES = Path("cases") / "audits.jsonl"
FACTCHECK = Path("data") / "factcheck_gpt" / "stance_dev.jsonl"
WICE = Path("data") / "wice" / "claims_dev.jsonl"
SUPPORTING = {"supported", "inferred"}


def _best(embedder: Any, response: str, references: list[str]) -> tuple[np.ndarray, list[str]]:
    """Best cosine of every material response claim against all material reference claims."""
    rc = [c for c in decompose(response) if c.kind is ClaimKind.MATERIAL]
    ref = [c for r in references for c in decompose(r, role=Role.REFERENCE) if c.kind is ClaimKind.MATERIAL]
    if not rc:
        return np.zeros(0, dtype=np.float32), []
    if not ref:
        return np.full(len(rc), -1.0, dtype=np.float32), [c.text for c in rc]
    vecs = embedder.embed([c.text for c in rc] + [c.text for c in ref])
    sim = cosine_matrix(vecs[: len(rc)], vecs[len(rc) :])
    return sim.max(axis=1), [c.text for c in rc]


def _balanced(pred: np.ndarray, gold: np.ndarray) -> float | None:
    if gold.all() or (~gold).all():
        return None
    return float((pred[gold].mean() + (~pred[~gold]).mean()) / 2)


def collect_cases(embedder: Any, shared: Path) -> tuple[list[float], list[bool]]:
    scores: list[float] = []
    gold: list[bool] = []
    for line in (shared / CASES).read_text().splitlines():
        case = json.loads(line)
        refs = case["references"]
        if not all(r.strip() for r in refs):
            continue
        best, texts = _best(embedder, case["response"], refs)
        for rule in case.get("expect", {}).get("verdicts", []):
            allowed = set(rule["verdict"])
            if allowed & SUPPORTING and not allowed <= SUPPORTING:
                continue
            if "outside_scope" in allowed:
                continue
            for b, t in zip(best, texts, strict=True):
                if rule["response_claim_contains"].lower() in t.lower():
                    scores.append(float(b))
                    gold.append(bool(allowed <= SUPPORTING))
    return scores, gold


def collect_items(
    embedder: Any, dataset: str, limit: int | None, shared: Path
) -> tuple[list[np.ndarray], list[bool], list[str]]:
    path = shared / (FACTCHECK if dataset == "factcheck" else WICE)
    bests: list[np.ndarray] = []
    gold: list[bool] = []
    labels: list[str] = []
    for i, line in enumerate(path.read_text().splitlines()):
        if limit and i >= limit:
            break
        r = json.loads(line)
        refs = [r["evidence"]] if dataset == "factcheck" else [e for e in r["evidence"] if e.strip()]
        label = r["stance"] if dataset == "factcheck" else r["label"]
        best, _ = _best(embedder, r["claim"], refs)
        bests.append(best)
        gold.append(label in ("completely-support", "supported"))
        labels.append(label)
    return bests, gold, labels


def sweep_items(bests: list[np.ndarray], gold: list[bool], ts: np.ndarray) -> list[float | None]:
    g = np.array(gold)
    out = []
    for t in ts:
        pred = np.array([bool(b.size) and bool((b >= t).all()) for b in bests])
        out.append(_balanced(pred, g))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, help="items per labelled set (default: all)")
    ap.add_argument("--step", type=float, default=0.01)
    ap.add_argument("--json", type=Path, help="write the curves here")
    ap.add_argument("--sets", default="cases,factcheck,wice")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="the shared folder")
    args = ap.parse_args()
    embedder = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    ts = np.round(np.arange(0.40, 0.96 + 1e-9, args.step), 4)
    curves: dict[str, list[float | None]] = {}
    started = time.monotonic()
    sets = args.sets.split(",")
    if "cases" in sets:
        sc, gc = collect_cases(embedder, args.shared)
        s_arr, g_arr = np.array(sc), np.array(gc)
        curves["cases"] = [_balanced(s_arr >= t, g_arr) for t in ts]
        print(f"cases: {len(sc)} labelled response claims ({int(g_arr.sum())} supported)", file=sys.stderr)
    for name in ("factcheck", "wice"):
        if name in sets:
            b, g, _ = collect_items(embedder, name, args.limit, args.shared)
            curves[name] = sweep_items(b, g, ts)
            print(f"{name}: {len(b)} items ({sum(g)} supported)", file=sys.stderr)
    print(f"computed in {time.monotonic() - started:.0f} s", file=sys.stderr)
    names = list(curves)
    print("threshold  " + "  ".join(f"{n:>9}" for n in names) + "       mean")
    means = []
    for k, t in enumerate(ts):
        vals = [curves[n][k] for n in names]
        ok = [v for v in vals if v is not None]
        mean = sum(ok) / len(ok) if ok else float("nan")
        means.append(mean)
        cells = "  ".join(f"{v:9.4f}" if v is not None else f"{'-':>9}" for v in vals)
        print(f"{t:9.2f}  {cells}  {mean:9.4f}")
    best_k = int(np.nanargmax(means))
    print(
        f"best mean balanced accuracy {means[best_k]:.4f} at t={ts[best_k]:.2f}; "
        f"current DEFAULT_THRESHOLD={DEFAULT_THRESHOLD}"
    )
    if args.json:
        args.json.write_text(
            json.dumps({"thresholds": ts.tolist(), "curves": curves, "mean": means}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
