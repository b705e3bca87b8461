"""``tools/bench_store.py`` end to end at a tiny size: real sentences (400 of the shared dev sets, or of the
bench's checked-in pairs in a clone without them,
embedded with the project's model), 5,000 claims loaded into a migrated database on the test
server, the HNSW index built, every measurement run; the last line carries the five figures.
No timing is asserted (timings belong to ``make bench-store``); recall is a fraction."""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy.engine import make_url

from tests.conftest import ROOT
from tools.readme_sql import readme_queries

pytestmark = [pytest.mark.services, pytest.mark.slow]

KEYS = ("search_p95_ms_1m", "recall10_1m", "analyst_p95_ms_1m", "hnsw_build_s", "insert_ms_per_row_1m")
LAST = re.compile(" ".join(rf"{k}=(\d+(?:\.\d+)?)" for k in KEYS) + "$")


def test_bench_store_runs_end_to_end_and_prints_the_summary(
    fresh_database: Callable[[str], str], tmp_path: Path
) -> None:
    server = make_url(fresh_database("store")).set(database="postgres")
    name = f"bench_store_test_{uuid.uuid4().hex[:8]}"
    args = [
        sys.executable, str(ROOT / "tools" / "bench_store.py"), "--claims", "5000", "--real", "400",
        "--queries", "20", "--repeat", "2", "--insert", "100", "--dir", str(tmp_path),
        "--database-url", server.render_as_string(hide_password=False), "--database", name,
    ]  # fmt: skip
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=900, cwd=ROOT)
    finally:
        admin = sqlalchemy.create_engine(
            server.render_as_string(hide_password=False), isolation_level="AUTOCOMMIT"
        )
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.strip().splitlines()
    match = LAST.match(lines[-1])
    assert match, lines[-1]
    assert 0.0 <= float(match.group(2)) <= 1.0
    # every README analyst query ran, and every search shape (5) at both ef_search values
    assert sum(" p95 " in line and "ef_search" not in line for line in lines) == len(readme_queries())
    assert sum("ef_search" in line and "recall@10" in line for line in lines) == 5 * 2
