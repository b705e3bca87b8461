#!/usr/bin/env python3
"""Write the input files of a nightly job's acceptance check on a stack (docs/GATE.md, "A nightly
job on a local stack"): two nights of one suite, built from the Factcheck-GPT dev pairs.

- ``night1.jsonl``: ``--items`` pairs (the claim as the response, its evidence as the reference;
  ids ``factcheck-N``), ``--with-year`` of them with a year their evidence states, and one line
  that is not UTF-8 inserted after the first half (its line number is printed).
- ``night2.jsonl``: the same items (without the bad line), one stated year changed by 1 to 5
  years (``tools/gate_measure.py``'s change) in ``--changed`` of them.

Deterministic for a ``--seed``. Usage:
    python tools/nightly_files.py --factcheck ../shared/data/factcheck_gpt/stance_dev.jsonl --out DIR
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gate_measure import YEAR, _shift_year, load_items  # noqa: E402

#: A line whose ``é`` is one Latin-1 byte: not UTF-8 (the batch rejects that line alone).
BAD_LINE = b'{"id": "latin-1", "response": "Caf\xe9 opened in 1898.", "references": ["It opened in 1898."]}'


def stated_years(item: dict[str, Any]) -> list[Any]:
    """The year matches of the item's response that its references state."""
    refs = " ".join(item["references"])
    return [m for m in YEAR.finditer(item["response"]) if m.group(1) in refs]


def with_changed_year(item: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The item with one of its stated years moved by 1 to 5 years."""
    m = rng.choice(stated_years(item))
    response = item["response"][: m.start(1)] + _shift_year(m.group(1), rng) + item["response"][m.end(1) :]
    return {**item, "response": response}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--factcheck", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--items", type=int, default=150)
    ap.add_argument("--with-year", type=int, default=60)
    ap.add_argument("--changed", type=int, default=30, help="items of night 2 with a changed year")
    ap.add_argument("--seed", type=int, default=49)
    args = ap.parse_args()
    if not 0 <= args.changed <= args.with_year <= args.items:
        ap.error("need 0 <= --changed <= --with-year <= --items")
    rng = random.Random(args.seed)
    items = load_items(args.factcheck, None, None)
    dated = [it for it in items if stated_years(it)]
    chosen = rng.sample(dated, args.with_year) + rng.sample(
        [it for it in items if not stated_years(it)], args.items - args.with_year
    )
    rng.shuffle(chosen)
    changed = {it["id"] for it in rng.sample([it for it in chosen if stated_years(it)], args.changed)}
    night2 = [with_changed_year(it, rng) if it["id"] in changed else it for it in chosen]
    good = [json.dumps(it, ensure_ascii=False).encode() for it in chosen]
    half = len(good) // 2
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "night1.jsonl").write_bytes(b"\n".join([*good[:half], BAD_LINE, *good[half:]]) + b"\n")
    (args.out / "night2.jsonl").write_text(
        "".join(json.dumps(it, ensure_ascii=False) + "\n" for it in night2)
    )
    print(
        f"night1: {len(good)} items and a line that is not UTF-8 (line {half + 1}); "
        f"night2: a year changed in {len(changed)} of {len(night2)} items"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
