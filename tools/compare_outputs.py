#!/usr/bin/env python3
"""Compare two JSONL files of result documents audit by audit (same ``id``), exactly.

Usage:
    python tools/compare_outputs.py BEFORE.jsonl AFTER.jsonl

Compared: ``status``, ``error``, ``scores``, ``counts``, ``claims`` (text, spans, kind, verdict,
confidence, reason, evidence with similarities) and ``edit_script``; the database's own fields
(``created_at``, ``finished_at``, ``audit_id``, ``effective_config``, ...) are not. Works on
``tools/inprocess_batch.py`` output, ``claimaudit batch`` output and ``tools/bench.py --keep``
files, in any combination. Prints one line per differing audit (the first differing path) and
``N audits, M identical, K differ``; exit status 1 when any differs or an id is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

COMPARED = ("status", "error", "scores", "counts", "claims", "edit_script")


def load(path: Path) -> dict[str, dict[str, Any]]:
    """``{id: document}`` of a JSONL file."""
    docs = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            doc = json.loads(line)
            docs[str(doc.get("id"))] = doc
    return docs


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The path of the first difference between two JSON values, or None when equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            found = first_difference(a.get(key, "<missing>"), b.get(key, "<missing>"), f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args()
    before, after = load(args.before), load(args.after)
    same = differ = 0
    for ident in sorted(set(before) | set(after)):
        if ident not in before or ident not in after:
            print(f"{ident}: only in {'after' if ident in after else 'before'}")
            differ += 1
            continue
        a = {k: before[ident].get(k) for k in COMPARED}
        b = {k: after[ident].get(k) for k in COMPARED}
        found = first_difference(a, b)
        if found:
            print(f"{ident}: {found}")
            differ += 1
        else:
            same += 1
    print(f"{same + differ} audits, {same} identical, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
