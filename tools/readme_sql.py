"""The analysts' queries: every SQL block of the README's "The claim store in SQL" and "Runs in
SQL" sections, for the test that runs them (``tests/integration/test_analyst_sql.py``) and for
benchmarks.

Each block starts with a ``-- <name>`` comment line; ``:'q'`` in a block is psql's quoted
variable (a vector literal of ``claimaudit embed``), which :meth:`ReadmeQuery.statements`
replaces.

Usage::

    python tools/readme_sql.py                       # list the queries
    python tools/readme_sql.py --database-url URL --repeat 20 [--q TEXT]
        # run each query REPEAT times as URL's role (e.g. a tenant's SQL login); print each
        # query's p50/p95 in ms and, last, analyst_p95_ms=<p95 over all runs>
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: (heading, level) of the sections whose SQL blocks are the analysts' queries.
SECTIONS = (("## The claim store in SQL", 2), ("### Runs in SQL", 3))
_BLOCK = re.compile(r"^```sql\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True, slots=True)
class ReadmeQuery:
    """One SQL block: its section heading, name (its first comment line) and text."""

    section: str
    name: str
    sql: str

    def statements(self, vector: str | None = None) -> list[str]:
        """The block's statements in order, ``:'q'`` replaced by ``vector`` (a pgvector literal)."""
        text = self.sql if vector is None else self.sql.replace(":'q'", f"'{vector}'::vector")
        return [s.strip() for s in re.split(r";\s*$", text, flags=re.M) if s.strip()]


def _section(readme: str, heading: str, level: int) -> str:
    start = readme.index(heading + "\n")
    rest = readme[start + len(heading) :]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{level}}} ", rest, flags=re.M)]
    return rest[: ends[0]] if ends else rest


def readme_queries(readme: Path = README) -> list[ReadmeQuery]:
    """Every SQL block of the sections in ``SECTIONS``, in order. ``ValueError`` for a block
    whose first line is not a ``-- name`` comment."""
    text = readme.read_text(encoding="utf-8")
    out = []
    for heading, level in SECTIONS:
        for block in _BLOCK.findall(_section(text, heading, level)):
            first = block.splitlines()[0]
            if not first.startswith("-- "):
                raise ValueError(f"{heading}: a SQL block must start with a '-- name' line: {first!r}")
            out.append(ReadmeQuery(heading.lstrip("# "), first[3:].strip(), block))
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def _run(url: str, repeat: int, q: str) -> None:
    import psycopg
    from pgvector import Vector

    from claims.embed import default_embedder

    vector = Vector(default_embedder().embed([q])[0]).to_text()
    every: list[float] = []
    with psycopg.connect(url, autocommit=True) as conn:
        for query in readme_queries():
            times = []
            for _ in range(repeat):
                started = time.perf_counter()
                for statement in query.statements(vector):
                    cursor = conn.execute(statement)
                    if cursor.description is not None:
                        cursor.fetchall()
                times.append((time.perf_counter() - started) * 1000)
            every += times
            p50, p95 = _percentile(times, 50), _percentile(times, 95)
            print(f"{query.name[:70]:72} p50 {p50:8.1f} ms  p95 {p95:8.1f} ms")
    print(f"analyst_p95_ms={_percentile(every, 95):.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="Run the queries as this URL's role (postgresql://…).")
    parser.add_argument("--repeat", type=int, default=20, help="Runs of each query (default 20).")
    parser.add_argument("--q", default="The bridge opened in 1998.", help="Text whose vector is :'q'.")
    args = parser.parse_args(argv)
    if args.database_url is None:
        for query in readme_queries():
            print(f"[{query.section}] {query.name}")
        return 0
    _run(args.database_url, args.repeat, args.q)
    return 0


if __name__ == "__main__":
    sys.exit(main())
