#!/usr/bin/env python3
"""The polarity probe's margin on the labelled dev sets: every lead, and the figures at each margin.

Runs the whole engine in memory (``claims.audit.audit_texts``, decomposed and embedded a chunk at a
time as ``tools/inprocess_batch.py`` does) on the Factcheck-GPT and WiCE dev splits, with the probe
measuring (``claims.polarity_probe.leads``) but demoting nothing; then, for each margin of the
grid, demotes the claims whose lead exceeds it, maps each audit to a label as
``../shared/eval/run_label_eval.py`` does (``claims.agreement.audit_label``) and prints

- per set and margin: the claims demoted (how many in gold-supported audits), and the balanced
  accuracy of support against the rest;
- the percentiles of the leads of the probed claims in gold-supported audits (pooled): the share
  of faithful claims a margin would demote;
- the cross-set check: the margin best on one set, and its effect on the other.

Usage::

    python tools/probe_margin.py [--shared ../shared] [--sets factcheck wice] [--limit N] [--json OUT]

About 20 minutes on 2 cores (the two dev sets once).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import claims.audit as audit_module  # noqa: E402
from claims.agreement import audit_label  # noqa: E402
from claims.audit import audit_texts, prefetch  # noqa: E402
from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder  # noqa: E402
from claims.options import AuditOptions  # noqa: E402
from claims.polarity_probe import leads  # noqa: E402
from claims.runtime import load_offline_models  # noqa: E402

#: margins tried, in cosine
GRID = [round(x, 3) for x in np.arange(0.0, 0.0801, 0.005)]
#: dev sets: (name, path under the shared folder, label field, the label that means support)
SETS = [
    ("factcheck", "data/factcheck_gpt/stance_dev.jsonl", "stance", "completely-support"),
    ("wice", "data/wice/claims_dev.jsonl", "label", "supported"),
]
CHUNK = 64


def _items(path: Path, field: str, positive: str, limit: int | None) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            refs = [r["evidence"]] if isinstance(r["evidence"], str) else r["evidence"]
            out.append({"claim": r["claim"], "references": refs, "support": r[field] == positive})
        if limit and len(out) >= limit:
            break
    return out


class _Recorder:
    """Stands in for ``claims.audit.probe``: records the leads of each audit, demotes nothing."""

    def __init__(self) -> None:
        self.found: dict[int, float] = {}

    def __call__(self, judgements: Sequence[Any], *args: Any, **kwargs: Any) -> list[Any]:
        got = leads(judgements, *args, **kwargs)
        self.found = {judgements[i].response_index: lead.lead for i, lead in got.items()}
        return list(judgements)


def measure(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each item's response-claim verdicts without the probe and the probe's lead per claim."""
    embedder = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    recorder = _Recorder()
    options = AuditOptions.from_config(None)  # as tools/inprocess_batch.py reads a line without config
    audit_module.probe = recorder  # type: ignore[assignment]
    rows = []
    for start in range(0, len(items), CHUNK):
        chunk = items[start : start + CHUNK]
        prefetch([(it["claim"], it["references"]) for it in chunk], embedder)
        for it in chunk:
            report = audit_texts(it["claim"], it["references"], embedder=embedder, options=options)
            verdicts = [j.verdict.value for j in report.judgements]
            rows.append({"support": it["support"], "verdicts": verdicts, "leads": dict(recorder.found)})
    return rows


def balanced_accuracy(rows: list[dict[str, Any]], margin: float) -> tuple[float | None, int, int]:
    """(balanced accuracy, claims demoted, of them in gold-supported audits) at ``margin``."""
    pos, neg, demoted, in_support = [], [], 0, 0
    for r in rows:
        verdicts = list(r["verdicts"])
        for k, lead in r["leads"].items():
            if lead > margin:
                verdicts[k] = "unsupported"
                demoted += 1
                in_support += r["support"]
        said = audit_label(verdicts) == "support"
        (pos if r["support"] else neg).append(said if r["support"] else not said)
    if not pos or not neg:
        return None, demoted, in_support
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2, demoted, in_support


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--sets", nargs="+", default=[n for n, *_ in SETS], choices=[n for n, *_ in SETS])
    args = ap.parse_args()
    load_offline_models()
    report: dict[str, Any] = {"grid": GRID, "sets": {}}
    faithful: list[float] = []
    for name, rel, field, positive in SETS:
        if name not in args.sets:
            continue
        rows = measure(_items(args.shared / rel, field, positive, args.limit))
        faithful += [v for r in rows if r["support"] for v in r["leads"].values()]
        figures = {m: balanced_accuracy(rows, m) for m in GRID}
        none = balanced_accuracy(rows, float("inf"))[0]
        report["sets"][name] = {"without": none, "by_margin": {str(m): f for m, f in figures.items()}}
        print(f"{name}: without the probe {none:.4f}; probed claims {sum(len(r['leads']) for r in rows)}")
        for m, (ba, n, s) in figures.items():
            print(f"  margin {m:.3f}: balanced accuracy {ba:.4f}, demoted {n} ({s} in gold-supported audits)")
    pct = {str(q): round(float(np.percentile(faithful, q)), 4) for q in (90, 95, 99)} if faithful else {}
    report["faithful_lead_percentiles"] = pct
    print(f"leads of probed claims in gold-supported audits (pooled, n={len(faithful)}): percentiles {pct}")
    names = [n for n, *_ in SETS if n in args.sets]
    for a, b in (names, names[::-1]) if len(names) == 2 else ():
        by_a = report["sets"][a]["by_margin"]
        best = max(GRID, key=lambda m: (by_a[str(m)][0], -m))  # ties: the smallest margin
        got, base = report["sets"][b]["by_margin"][str(best)][0], report["sets"][b]["without"]
        print(f"best on {a}: margin {best:.3f}; on {b} {got:.4f} against {base:.4f} without the probe")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
