"""What ``claimaudit batch`` tells a person and a pipeline: progress with rate and ETA, the last
line (counts, verdict mix, mean F1), ``--summary`` (JSON) and ``--csv`` (one row per item)."""

from __future__ import annotations

import csv
import json
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from claimaudit.models import VERDICTS
from cli.common import err

__all__ = [
    "SCORES",
    "CSV_COLUMNS",
    "batch_progress",
    "finished_counter",
    "batch_summary",
    "last_line",
    "write_summary",
    "write_csv",
]

#: Scores averaged in the summary (null when no line was scored).
SCORES = ("claim_precision", "claim_recall", "claim_f1", "claim_overlap")
#: Columns of ``--csv``; the verdict counts are response claims.
CSV_COLUMNS = ("id", "line", "status", *VERDICTS, "claim_f1", "worst_verdict", "page_url", "error")
#: Verdicts from worst to best (``worst_verdict``: the first one an item has).
SEVERITY = ("contradicted", "qualification_dropped", "unsupported", "inferred", "supported", "outside_scope")
#: Seconds between two progress lines when stderr is not a terminal.
LINE_EVERY_S = 10.0


def batch_progress(show: bool) -> Progress:
    """The bars on stderr ("submitted", "finished") with the count, rate, elapsed time and ETA;
    shown only with ``show`` (a terminal)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        disable=not show,
    )


def finished_counter(progress: Progress, total: int, *, show: bool) -> Callable[[], None]:
    """Add the "finished" bar (``total`` audits) and return its one-step advance; without a bar,
    a line on stderr every ``LINE_EVERY_S`` seconds and at the end (count, rate, ETA)."""
    task = progress.add_task("finished ", total=total, rate="")
    started = time.monotonic()
    last = [started]

    def advance() -> None:
        progress.advance(task)
        done = int(progress.tasks[task].completed)
        now = time.monotonic()
        rate = done / max(now - started, 1e-9)
        progress.update(task, rate=f"{rate:.1f}/s")
        if not show and (done >= total or now - last[0] >= LINE_EVERY_S):
            last[0] = now
            eta = (total - done) / rate if rate > 0 else float("inf")
            err.print(
                f"[dim]{done}/{total} audits finished, {rate:.2f}/s, elapsed {now - started:.0f} s, "
                f"ETA {eta:.0f} s[/dim]",
                highlight=False,
            )

    return advance


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def batch_summary(results: Sequence[dict[str, Any]], *, gate: dict[str, Any] | None = None) -> dict[str, Any]:
    """``--summary``: ``lines``, ``counts`` by status, ``rejected`` (line, id, reason), ``verdicts``
    (response claims of the done audits), ``scores`` (means over them, null when none), ``gate``
    (the run's outcome with ``--gate``, else null)."""
    counts = Counter(str(r.get("status")) for r in results)
    done = [r for r in results if r.get("status") == "done"]
    verdicts = {v: sum(int((r.get("counts") or {}).get(v, 0)) for r in done) for v in VERDICTS}
    scores = {
        name: _mean([float(s) for r in done if (s := (r.get("scores") or {}).get(name)) is not None])
        for name in SCORES
    }
    rejected = [
        {"line": r.get("line"), "id": r.get("id"), "reason": r.get("error")}
        for r in results
        if r.get("status") == "rejected"
    ]
    return {
        "lines": len(results),
        "counts": dict(sorted(counts.items())),
        "rejected": rejected,
        "verdicts": verdicts,
        "scores": scores,
        "gate": gate,
    }


def no_baseline_note(gate: Mapping[str, Any]) -> str:
    """What a gate without a baseline checked: the run's own limit (unscored items), or nothing
    when the suite switched it off."""
    own = (gate.get("limits") or {}).get("unscored_items_share") is not None
    return "(no baseline run: " + (
        "only the run's own limits were checked)" if own else "no limit was checked)"
    )


def gate_line(gate: Mapping[str, Any]) -> str:
    """``gate held (baseline: n1, last run whose gate held)`` or ``gate crossed: ...``; without a
    baseline the comparison limits were not checked, only the run's own (unscored items), and
    the line says so."""
    base = gate.get("baseline") or {}
    head = "gate crossed: " + "; ".join(gate["crossed"]) if gate.get("crossed") else "gate held"
    if not base:
        return f"{head} {no_baseline_note(gate)}"
    return f"{head} (baseline: {base.get('label')}, {base.get('chosen')})"


def last_line(summary: dict[str, Any], output: Path, elapsed: float) -> str:
    """``N lines → OUTPUT in T s: 1998 done, 2 rejected; verdicts 812 supported, ...; mean F1 0.512``."""
    counts = ", ".join(f"{n} {s}" for s, n in summary["counts"].items())
    mix = ", ".join(f"{n} {v}" for v, n in summary["verdicts"].items() if n)
    f1 = summary["scores"]["claim_f1"]
    mean = "—" if f1 is None else f"{f1:.3f}"
    head = f"{summary['lines']} lines → {output} in {elapsed:.1f} s: {counts}"
    return f"{head}; verdicts: {mix or 'none'}; mean F1 {mean}"


def write_summary(path: Path, summary: dict[str, Any]) -> None:
    """Write ``summary`` to ``path`` as indented JSON."""
    path.write_text(json.dumps(summary, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _row(result: dict[str, Any], base_url: str) -> list[Any]:
    counts = result.get("counts") or {}
    have = [v for v in SEVERITY if int(counts.get(v, 0))]
    f1 = (result.get("scores") or {}).get("claim_f1")
    audit_id = result.get("audit_id")
    return [
        result.get("id"),
        result.get("line"),
        result.get("status"),
        *(counts.get(v, "") for v in VERDICTS),
        "" if f1 is None else f"{f1:.6f}",
        have[0] if have else "",
        f"{base_url}/ui/audits/{audit_id}" if audit_id else "",
        result.get("error") or "",
    ]


def write_csv(path: Path, results: Sequence[dict[str, Any]], base_url: str) -> None:
    """One row per input line (``CSV_COLUMNS``), in input order."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(CSV_COLUMNS)
        writer.writerows(_row(r, base_url) for r in results)
