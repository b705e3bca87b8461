#!/usr/bin/env python3
"""Behavioural suite of contrast and invariance edits (CheckList: Ribeiro et al., ACL 2020).

From every pair whose claim the evidence supports (Factcheck-GPT dev: stance
"completely-support"; WiCE dev: label "supported"; the shared audit cases that expect no
contradicted and no unsupported claim) it generates edits of the claim with each kind of
``tools/contrast_edits.py`` and audits the original and every edit in memory (``claims.audit``,
as ``tools/inprocess_batch.py`` does). An audit's verdict is read as the label evaluation reads it
(``../shared/eval/run_label_eval.py``): "contradicted" when any response claim is, "supported"
when every material one is supported or inferred, "partial" when some are, else "unsupported".

The kinds are those of ``tools/contrast_edits.py`` and the value kinds of
``tools/contrast_values.py`` (these read the evidence: the references joined by newlines).

Reported per kind: edits generated, skipped (by reason), the verdict counts and the rate of each
verdict (over all; over "stated"), and
- contrast kinds: the share not ``supported`` and the share ``contradicted``, over all edits and
  over the edits whose original came out ``supported`` ("stated": the evidence states the
  original as the engine reads it, so the edit should be contradicted);
- invariance kinds: the share that keeps the original's verdict and the share ``contradicted``
  (over all; over "stated").
A rate with no edits is null.

Usage::

    python tools/contrast_suite.py [--factcheck F] [--wice W] [--cases C] [--limit N]
        [--kinds KIND ...] [--json OUT.json] [--sample OUT.jsonl]

``--sample`` writes every edit with its verdicts (one JSON object a line), the form of the
regression test's data (tests/data/contrast_sample.jsonl).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from claims.agreement import audit_label  # noqa: E402
from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder  # noqa: E402
from claims.runtime import load_offline_models  # noqa: E402

#: The shared material beside the repository (``$CLAIMAUDIT_SHARED`` overrides it).
SHARED = Path(os.environ.get("CLAIMAUDIT_SHARED") or ROOT.parent / "shared")


def _tool(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


edits = _tool("contrast_edits")
_tool("contrast_values")  # registers the value kinds with contrast_edits
batch = _tool("inprocess_batch")


def load_pairs(
    factcheck: Path | None, wice: Path | None, cases: Path | None, limit: int | None
) -> list[dict[str, Any]]:
    """The supported pairs: {"id", "source", "claim", "references"}, at most ``limit`` a source."""
    pairs: list[dict[str, Any]] = []
    sources: list[tuple[str, Path | None]] = [("factcheck", factcheck), ("wice", wice), ("cases", cases)]
    for source, path in sources:
        if path is None:
            continue
        n = 0
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if not line.strip() or (limit and n >= limit):
                continue
            r = json.loads(line)
            if source == "factcheck" and r["stance"] == "completely-support":
                claim, refs = r["claim"], [r["evidence"]]
            elif source == "wice" and r["label"] == "supported":
                claim, refs = r["claim"], r["evidence"]
            elif source == "cases" and _consistent(r):
                claim, refs = r["response"], r["references"]
            else:
                continue
            pairs.append({"id": f"{source}-{i}", "source": source, "claim": claim, "references": refs})
            n += 1
    return pairs


def _consistent(case: dict[str, Any]) -> bool:
    """A shared case whose response the references state: no contradicted, no unsupported claim."""
    counts = case.get("expect", {}).get("counts", {})
    return bool(counts.get("contradicted") == [0, 0] and counts.get("unsupported") == [0, 0])


#: the label evaluation's labels (``claims.agreement.audit_label``) as verdict names
_AS_VERDICT = {
    "refute": "contradicted",
    "support": "supported",
    "partial": "partial",
    "not_supported": "unsupported",
}


def verdict(doc: dict[str, Any]) -> str:
    """An audit's verdict read as the label evaluation reads it (module docstring;
    ``claims.agreement.audit_label``); "failed" for an audit that did not finish."""
    if doc.get("status") != "done":
        return "failed"
    got = [str(c.get("verdict")) for c in doc.get("claims", []) if c.get("role") == "response"]
    return _AS_VERDICT[audit_label(got)]


def build_items(
    pairs: list[dict[str, Any]], kinds: list[str] | None = None
) -> tuple[list[dict[str, Any]], Counter[tuple[str, str]]]:
    """The audits to run (originals and edits) and the skip counts by (kind, reason). With
    ``kinds``, only edits of those kinds, and only the originals that have one."""
    items: list[dict[str, Any]] = []
    skipped: Counter[tuple[str, str]] = Counter()
    for p in pairs:
        made = []
        evidence = "\n".join(p["references"])
        for kind, got in edits.generate(p["claim"], kinds, evidence).items():
            if isinstance(got, edits.Skip):
                skipped[(kind, got.reason)] += 1
                continue
            made.append(
                {
                    "id": p["id"],
                    "kind": kind,
                    "response": got.text,
                    "change": got.change,
                    "original": p["claim"],
                    "references": p["references"],
                }
            )
        if made or kinds is None:
            items.append(
                {"id": p["id"], "kind": "original", "response": p["claim"], "references": p["references"]}
            )
            items.extend(made)
    return items, skipped


def run(items: list[dict[str, Any]], embedder: Any) -> list[dict[str, Any]]:
    """Each item with its "verdict" (the audit's) and "reason" (the first response claim's)."""
    out = []
    for start in range(0, len(items), batch.CHUNK):
        chunk = items[start : start + batch.CHUNK]
        for item, doc in zip(chunk, batch.run_chunk(chunk, embedder), strict=True):
            reasons = [c.get("reason") for c in doc.get("claims", []) if c.get("role") == "response"]
            out.append({**item, "verdict": verdict(doc), "reason": reasons[0] if reasons else None})
    return out


def _rate(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def report(results: list[dict[str, Any]], skipped: Counter[tuple[str, str]]) -> dict[str, Any]:
    """Per kind: family, generated, skipped (by reason), verdicts and rates (module docstring)."""
    original = {r["id"]: r["verdict"] for r in results if r["kind"] == "original"}
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        if r["kind"] != "original":
            by_kind[r["kind"]].append(r)
    kinds: dict[str, Any] = {}
    for name, kind in edits.KINDS.items():
        rows = by_kind.get(name, [])
        if not rows and not any(k == name for k, _ in skipped):
            continue  # a kind not asked for (--kinds)
        stated = [r for r in rows if original[r["id"]] == "supported"]
        entry: dict[str, Any] = {
            "family": kind.family,
            "generated": len(rows),
            "skipped": {reason: n for (k, reason), n in sorted(skipped.items()) if k == name},
            "verdicts": dict(Counter(r["verdict"] for r in rows)),
            "stated": len(stated),
        }
        for base, sub in (("all", rows), ("stated", stated)):
            n = Counter(r["verdict"] for r in sub)
            entry[f"rates_{base}"] = {v: _rate(k, len(sub)) for v, k in sorted(n.items())}
        if kind.family == "contrast":
            for base, sub in (("all", rows), ("stated", stated)):
                entry[f"not_supported_{base}"] = _rate(
                    sum(r["verdict"] != "supported" for r in sub), len(sub)
                )
                entry[f"contradicted_{base}"] = _rate(
                    sum(r["verdict"] == "contradicted" for r in sub), len(sub)
                )
        else:
            for base, sub in (("all", rows), ("stated", stated)):
                entry[f"kept_{base}"] = _rate(sum(r["verdict"] == original[r["id"]] for r in sub), len(sub))
                entry[f"contradicted_{base}"] = _rate(
                    sum(r["verdict"] == "contradicted" for r in sub), len(sub)
                )
        kinds[name] = entry
    originals = Counter(original.values())
    return {"pairs": len(original), "originals": dict(originals), "kinds": kinds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--factcheck", type=Path, default=SHARED / "data/factcheck_gpt/stance_dev.jsonl")
    ap.add_argument("--wice", type=Path, default=SHARED / "data/wice/claims_dev.jsonl")
    ap.add_argument("--cases", type=Path, default=SHARED / "cases/audits.jsonl")
    ap.add_argument("--limit", type=int, default=None, help="at most N supported pairs a source")
    ap.add_argument("--kinds", nargs="+", default=None, help="only these edit kinds")
    ap.add_argument("--json", type=Path, default=None, help="write the report here")
    ap.add_argument("--sample", type=Path, default=None, help="write every edit and verdict here")
    args = ap.parse_args()
    fc, wice, cases = (p if p.exists() else None for p in (args.factcheck, args.wice, args.cases))
    pairs = load_pairs(fc, wice, cases, args.limit)
    load_offline_models()
    embedder = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    items, skipped = build_items(pairs, args.kinds)
    results = run(items, embedder)
    rep = report(results, skipped)
    if args.json:
        args.json.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    if args.sample:
        keep = ("id", "kind", "original", "response", "change", "verdict", "reason", "references")
        rows = [{k: r.get(k) for k in keep} for r in results]
        args.sample.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
    print(f"pairs {rep['pairs']}  originals {rep['originals']}")
    print(f"{'kind':18} {'family':10} {'gen':>5} {'stated':>6}  rates (all / stated)")
    for name, e in rep["kinds"].items():
        if e["family"] == "contrast":
            rates = (
                f"not_supported {e['not_supported_all']} / {e['not_supported_stated']}  "
                f"contradicted {e['contradicted_all']} / {e['contradicted_stated']}"
            )
        else:
            rates = (
                f"kept {e['kept_all']} / {e['kept_stated']}  "
                f"contradicted {e['contradicted_all']} / {e['contradicted_stated']}"
            )
        print(f"{name:18} {e['family']:10} {e['generated']:5} {e['stated']:6}  {rates}")
        print(f"{'':18} verdicts {e['verdicts']}  skipped {e['skipped']}")


if __name__ == "__main__":
    main()
