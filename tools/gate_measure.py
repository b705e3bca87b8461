#!/usr/bin/env python3
"""Measure run-comparison gates on corrupted nights built from the dev sets (in memory, no stack).

A *night* is one run of a suite whose items are the dev sets' pairs (Factcheck-GPT: the claim is
the response, its evidence the reference; WiCE: the claim against its evidence sentences). The
base night audits them as they are. A *corrupted night* changes one value in ``--rate`` of the
answers (items drawn at random, seeded by the night): a number or year (shifted), or a name
(swapped for another name of the data) that the item's references state; every other item keeps
its base result. An *identical rerun* audits a sample of items again and keeps the rest.

Each night is compared with the base by ``claims.run_diff.diff_runs`` (the comparison
``claimaudit runs compare`` and the run's gate use); this prints and writes (``--out``, JSON) the
candidate measures per night: the rise of the contradicted share and of the problem share
(contradicted + qualification_dropped + unsupported) in points, the share of compared items whose
verdict mix got worse (per cent), the contradicted claims per 100 items, the mean F1 drop
(points), and the per-item change of the corrupted items (verdict of the changed claim before →
after). docs/GATE.md reads the JSON.

Usage:
    nice python tools/gate_measure.py --factcheck F.jsonl --wice W.jsonl --out gate.json \\
        [--nights 5] [--rates 0.2,0.1,0.05] [--cache DIR] [--wice-limit N]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inprocess_batch import CHUNK, run_chunk, start_up  # noqa: E402

from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder  # noqa: E402
from claims.run_diff import ItemClaim, ItemOutcome, RunDiff, diff_runs  # noqa: E402

YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\d.,]?\d)")
NAME = re.compile(r"(?<=[a-z,;] )([A-Z][a-z]+(?: [A-Z][a-z]+){1,2})\b")


def load_items(factcheck: Path | None, wice: Path | None, wice_limit: int | None) -> list[dict[str, Any]]:
    """The items: ``{id, response, references}`` of each dev set (ids ``factcheck-N``, ``wice-N``)."""
    items = []
    for name, path in (("factcheck", factcheck), ("wice", wice)):
        if path is None:
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if not line.strip() or (name == "wice" and wice_limit is not None and i >= wice_limit):
                continue
            row = json.loads(line)
            refs = [row["evidence"]] if name == "factcheck" else list(row["evidence"])
            items.append({"id": f"{name}-{i}", "response": row["claim"], "references": refs})
    return items


def _shift_year(text: str, rng: random.Random) -> str:  # a year, moved by 1-5 years
    year = int(text)
    return str(year + rng.choice([-5, -3, -2, -1, 1, 2, 3, 5]))


def _shift_number(text: str, rng: random.Random) -> str:
    value = float(text.replace(",", ""))
    new = (
        value * rng.choice([2, 3]) if value < 10 else value + rng.choice([-1, 1]) * max(1, round(value * 0.3))
    )
    out = (
        f"{int(new):,}"
        if "," in text
        else (f"{new:.{len(text.split('.')[1])}f}" if "." in text else str(int(new)))
    )
    return out if out != text else str(int(value) + 7)


Change = tuple[str, int, int, Callable[[random.Random], str]]


def corruptions(item: dict[str, Any], names: Sequence[str]) -> list[Change]:
    """The values of the response a reference states, as (kind, start, end, replacement maker):
    its years and other numbers, else its names of two or three capitalised words."""
    response, refs = item["response"], " ".join(item["references"])
    found: list[Change] = []
    for m in YEAR.finditer(response):
        if m.group(1) in refs:
            found.append(("year", m.start(1), m.end(1), partial(_shift_year, m.group(1))))
    years = {start for _, start, _, _ in found}
    for m in NUMBER.finditer(response):
        if m.start(1) not in years and m.group(1) in refs:
            found.append(("number", m.start(1), m.end(1), partial(_shift_number, m.group(1))))
    if found:
        return found
    for m in NAME.finditer(response):
        others = [n for n in names if n not in refs]
        if m.group(1) in refs and others:
            found.append(("name", m.start(1), m.end(1), partial(_pick, others)))
    return found


def _pick(options: Sequence[str], rng: random.Random) -> str:
    return rng.choice(options)


def corrupt(
    item: dict[str, Any], names: Sequence[str], rng: random.Random
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The item with one value changed, and what changed ``{kind, before, after}``."""
    kind, start, end, make = rng.choice(corruptions(item, names))
    before = item["response"][start:end]
    after = make(rng)
    changed = {**item, "response": item["response"][:start] + after + item["response"][end:]}
    return changed, {"kind": kind, "before": before, "after": after}


def audit_all(items: Sequence[dict[str, Any]], embedder: Any, label: str) -> dict[str, dict[str, Any]]:
    """``{id: document}`` of ``items`` audited in memory (``tools/inprocess_batch.py``'s chunks)."""
    out: dict[str, dict[str, Any]] = {}
    started = time.monotonic()
    for start in range(0, len(items), CHUNK):
        chunk = list(items[start : start + CHUNK])
        for item, doc in zip(chunk, run_chunk(chunk, embedder), strict=True):
            out[item["id"]] = doc
        print(f"[{label}] {len(out)}/{len(items)} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return out


def outcome(item_id: str, doc: dict[str, Any]) -> ItemOutcome:
    """An audit document as the comparison's item (what ``db.run_outcomes`` reads from SQL)."""
    claims = []
    for c in doc.get("claims") or []:
        if c.get("role") != "response" or c.get("verdict") is None:
            continue
        evidence = c["evidence"][0]["text"] if c.get("evidence") else None
        claims.append(ItemClaim(c["position"], c["text"], c["verdict"], c.get("reason") or "", evidence))
    counts = dict(doc.get("counts") or {})
    return ItemOutcome(item_id, None, str(doc.get("status")), doc.get("scores") or {}, counts, tuple(claims))


def measures(
    diff: RunDiff, base: dict[str, dict[str, Any]], night: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """The candidate gate measures of one night against the base."""
    contradicted = [
        sum(int((d.get("counts") or {}).get("contradicted", 0)) for d in n.values()) for n in (base, night)
    ]
    f1 = diff.score_deltas["claim_f1"]["mean"]
    n = diff.items_compared
    return {
        "contradicted_share_rise": diff.shares["contradicted"]["delta_points"],
        "problem_share_rise": diff.shares["problem"]["delta_points"],
        "worse_items": len(diff.worse_items),
        "worse_items_share": 100 * len(diff.worse_items) / n if n else None,
        "contradicted_per_100_items_rise": 100 * (contradicted[1] - contradicted[0]) / n if n else None,
        "f1_drop": None if f1 is None else -100 * float(f1),
        "contradicted_claims": contradicted,
    }


def _changes(
    item_ids: Sequence[str], base: dict[str, dict[str, Any]], night: dict[str, dict[str, Any]]
) -> Counter[str]:
    """How the corrupted items' verdict counts moved: ``"supported→unsupported"`` and the like
    (the verdict lost → the verdict gained; ``same`` when the counts did not move)."""
    moves: Counter[str] = Counter()
    for i in item_ids:
        a, b = (base[i].get("counts") or {}), (night[i].get("counts") or {})
        lost = [v for v in a if v != "response_claims" and int(b.get(v, 0)) < int(a[v])]
        gained = [v for v in b if v != "response_claims" and int(b[v]) > int(a.get(v, 0))]
        moves["→".join(["+".join(lost) or "-", "+".join(gained) or "-"]) if lost or gained else "same"] += 1
    return moves


def run_night(
    items: list[dict[str, Any]],
    base: dict[str, dict[str, Any]],
    names: Sequence[str],
    embedder: Any,
    rate: float,
    seed: int,
) -> dict[str, Any]:
    """One corrupted night: ``rate`` of all items changed (drawn among those with a value to change)."""
    rng = random.Random(seed)
    eligible = [it for it in items if corruptions(it, names)]
    chosen = rng.sample(eligible, min(len(eligible), round(rate * len(items))))
    changed, what = [], {}
    for it in chosen:
        new, change = corrupt(it, names, rng)
        changed.append(new)
        what[it["id"]] = change
    audited = audit_all(changed, embedder, f"rate {rate} seed {seed}")
    night = {**base, **audited}
    ids = [it["id"] for it in items]
    diff = diff_runs([outcome(i, base[i]) for i in ids], [outcome(i, night[i]) for i in ids])
    return {
        "rate": rate,
        "seed": seed,
        "corrupted": len(chosen),
        "kinds": dict(Counter(c["kind"] for c in what.values())),
        "measures": measures(diff, base, night),
        "worse_corrupted": sum(1 for w in diff.worse_items if w.item_id in what),
        "moves": dict(_changes(list(what), base, night).most_common(12)),
    }


def rerun(
    items: list[dict[str, Any]], base: dict[str, dict[str, Any]], embedder: Any, sample: int
) -> dict[str, Any]:
    """An identical rerun: ``sample`` items audited again, the rest kept; documents and measures."""
    rng = random.Random(0)
    again = audit_all(rng.sample(items, min(sample, len(items))), embedder, "rerun")
    same = sum(
        1 for i, d in again.items() if json.dumps(d, sort_keys=True) == json.dumps(base[i], sort_keys=True)
    )
    night = {**base, **again}
    ids = [it["id"] for it in items]
    diff = diff_runs([outcome(i, base[i]) for i in ids], [outcome(i, night[i]) for i in ids])
    return {"rerun": len(again), "identical_documents": same, "measures": measures(diff, base, night)}


def _base(items: list[dict[str, Any]], embedder: Any, cache: Path | None) -> dict[str, dict[str, Any]]:
    path = None if cache is None else cache / f"base-{len(items)}.json"
    if path is not None and path.exists():
        return dict(json.loads(path.read_text(encoding="utf-8")))
    base = audit_all(items, embedder, "base")
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(base), encoding="utf-8")
    return base


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--factcheck", type=Path)
    ap.add_argument("--wice", type=Path)
    ap.add_argument("--wice-limit", type=int)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--nights", type=int, default=5, help="corrupted nights at the first rate")
    ap.add_argument("--rates", default="0.2,0.1,0.05", help="corruption rates; nights at the others: 2 each")
    ap.add_argument("--rerun-sample", type=int, default=200)
    ap.add_argument("--cache", type=Path)
    args = ap.parse_args()
    start_up()
    embedder = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    items = load_items(args.factcheck, args.wice, args.wice_limit)
    names = sorted({m.group(1) for it in items for m in NAME.finditer(it["response"])})
    base = _base(items, embedder, args.cache)
    result: dict[str, Any] = {
        "items": len(items),
        "eligible": sum(1 for it in items if corruptions(it, names)),
    }
    result["rerun"] = rerun(items, base, embedder, args.rerun_sample)
    result["nights"] = []
    for k, rate in enumerate(float(r) for r in args.rates.split(",")):
        for seed in range(args.nights if k == 0 else 2):
            result["nights"].append(run_night(items, base, names, embedder, rate, 100 * k + seed))
            args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(json.dumps(result["rerun"]["measures"]))
    for night in result["nights"]:
        print(night["rate"], night["seed"], night["corrupted"], json.dumps(night["measures"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
