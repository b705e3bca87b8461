"""Functions longer than a limit, docstrings not counted (house rule: no function over 60 lines).

Usage: ``python tools/function_lengths.py [--max 60] PATH...``; exits 1 when one is longer.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path


def long_functions(path: Path, limit: int) -> list[tuple[str, int, str, int]]:
    """(file, line, name, length) of each function in ``path`` with more than ``limit`` lines of
    code (from ``def`` to its last line, its docstring left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(getattr(body[0], "value", None), ast.Constant)
            ):
                doc = body[0]
                length -= (doc.end_lineno or doc.lineno) - doc.lineno + 1
            if length > limit:
                out.append((str(path), node.lineno, node.name, length))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--max", type=int, default=60)
    ap.add_argument("paths", nargs="+", type=Path)
    args = ap.parse_args(argv)
    files = [f for p in args.paths for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]
    found = [row for f in files for row in long_functions(f, args.max)]
    for file, line, name, length in found:
        print(f"{file}:{line}: {name} has {length} lines (max {args.max})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
