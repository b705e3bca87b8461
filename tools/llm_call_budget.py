#!/usr/bin/env python3
"""LLM requests per audit: claimaudit's LLM mode vs FActScore's one call per sentence + one per fact.

Usage: tools/llm_call_budget.py [CASES.jsonl] [--markdown]

For each case (default: ../shared/cases/audits.jsonl) with at least one non-blank reference:

claimaudit LLM mode (decomposer=llm, judge=llm, embedder=openai), per audit:
  decompose   one request per distinct non-blank text (response + references);
              "batch" column: only texts not already decomposed earlier in the batch (cache)
  judge       one request when the response has a material claim, else none
  embed       one request for all claims of the audit (when there are claims)
FActScore (Min et al. 2023), per audit: one decomposition call per sentence of the response
  (pysbd, as FActScore splits) + one verification call per atomic fact (facts counted with the
  offline decomposer ``claims.decompose.decompose``, material claims). "both sides" adds the same
  for the references (what a recall in the same style would cost).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pysbd

from claims.decompose import decompose
from claims.types import ClaimKind

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "cases" / "audits.jsonl"


def sentences(text: str) -> int:
    seg = pysbd.Segmenter(language="en", clean=False)
    return sum(1 for s in seg.segment(text) if s.strip())


def facts(text: str) -> int:
    return sum(1 for c in decompose(text) if c.kind is ClaimKind.MATERIAL)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = Path(args[0]) if args else DEFAULT
    rows = []
    seen: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        refs, resp = case["references"], case["response"]
        if not refs or any(not r.strip() for r in refs):
            continue  # rejected at the API: no request at all
        texts = [t for t in dict.fromkeys([resp, *refs]) if t.strip()]
        new = [t for t in texts if t not in seen]
        seen.update(texts)
        resp_facts = facts(resp)
        any_claims = any(decompose(t) for t in texts)
        judge = 1 if resp_facts else 0
        embed = 1 if any_claims else 0
        ours = len(texts) + judge + embed
        ours_batch = len(new) + judge + embed
        fs = sentences(resp) + resp_facts
        fs_both = fs + sum(sentences(r) + facts(r) for r in dict.fromkeys(refs))
        rows.append((case["id"], len(texts), ours, ours_batch, sentences(resp), resp_facts, fs, fs_both))
    n = len(rows)
    tot = [sum(r[i] for r in rows) for i in range(1, 8)]
    if "--markdown" in sys.argv:
        print(
            "| case | texts | ours (cold) | ours (batch cache) | resp. sentences | resp. facts "
            "| FActScore | FActScore both sides |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")
        print("| **total** | " + " | ".join(f"**{t}**" for t in tot) + " |")
        print("| **mean per audit** | " + " | ".join(f"**{t / n:.2f}**" for t in tot) + " |")
    else:
        print(
            f"{n} audits; totals: texts {tot[0]}, ours cold {tot[1]}, ours with batch cache {tot[2]}, "
            f"FActScore {tot[5]} (response sentences {tot[3]} + facts {tot[4]}), "
            f"FActScore both sides {tot[6]}"
        )
        print(
            f"per audit: ours cold {tot[1] / n:.2f}, ours batch {tot[2] / n:.2f}, "
            f"FActScore {tot[5] / n:.2f}, FActScore both sides {tot[6] / n:.2f}"
        )


if __name__ == "__main__":
    main()
