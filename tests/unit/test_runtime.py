"""``claims.runtime.settle_heap``: start-up objects leave the collector's full passes, once per
process (run in a fresh interpreter: freezing is process-wide)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import gc, json
    from claims.runtime import settle_heap
    before = gc.get_freeze_count()
    kept = [[i] for i in range(50_000)]  # start-up objects the collector tracks
    first = settle_heap()
    collections = []
    gc.callbacks.append(lambda phase, info: collections.append(phase) if phase == "start" else None)
    second = settle_heap()
    print(json.dumps({"before": before, "first": first, "second": second, "collected": len(collections)}))
    """
)


def test_settle_heap_freezes_what_start_up_made_and_only_once() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got["before"] == 0
    assert got["first"] >= 50_000  # the 50,000 lists at least
    assert got["second"] == got["first"]  # the second call freezes nothing more
    assert got["collected"] == 0  # and runs no collection
