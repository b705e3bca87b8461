"""``claimaudit batch``: JSONL in, one result line per input line, resumable.

Every valid line is submitted through the API (``POST /audits/batch``, or ``POST /runs`` with
``--suite``/``--run``) with an idempotency key, then polled; each line's result goes to
``OUTPUT.partial`` as soon as it is known, and OUTPUT is written at the end, in input order.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from claimaudit import Client
from claimaudit._flows import submit_run
from cli import stack
from cli.client import (
    LINE_FIELDS,
    ApiError,
    Submission,
    audit_body,
    connect,
    idempotency_key,
    problem,
    transport_problem,
)
from cli.common import EXIT_UNAVAILABLE, ApiPort, ApiUrl, ensure_api, err, fail

__all__ = ["BatchLine", "read_batch_input", "warn_duplicate_ids", "result_line", "run_batch", "register"]


@dataclass
class BatchLine:
    """One input line: its id and request body, or why it was rejected before submission."""

    line_id: str
    body: dict[str, Any] | None
    error: str | None = None


def read_batch_input(path: Path) -> list[BatchLine]:
    """Parse the run_cases.py input contract: one JSON object per line (blank lines skipped).

    Rejected before submission (the line's result is ``{"id", "status": "rejected", "error"}``):
    a line that is not a JSON object (id ``line-N``, N 1-based), a line with top-level keys
    other than ``id`` and ``AUDIT_FIELDS`` (as the API rejects unknown fields), and a line
    that cannot travel as strict JSON (NaN/Infinity numbers, NUL characters).
    """
    lines: list[BatchLine] = []
    with path.open(encoding="utf-8") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                lines.append(BatchLine(f"line-{number}", None, f"line {number} is not valid JSON: {exc}"))
                continue
            if not isinstance(data, dict):
                lines.append(BatchLine(f"line-{number}", None, f"line {number} is not a JSON object"))
                continue
            raw_id = data.get("id")
            line_id = str(raw_id) if raw_id is not None else f"line-{number}"
            unknown = sorted(str(k) for k in data if k not in LINE_FIELDS)
            if unknown:
                error = (
                    f"line {number}: unknown field(s) {', '.join(unknown)} "
                    f"(allowed: {', '.join(sorted(LINE_FIELDS))})"
                )
                lines.append(BatchLine(line_id, None, error))
                continue
            body = audit_body(data)
            problem = transport_problem(body)
            if problem:
                lines.append(BatchLine(line_id, None, f"line {number}: {problem}"))
                continue
            lines.append(BatchLine(line_id, body))
    return lines


def warn_duplicate_ids(lines: list[BatchLine]) -> list[str]:
    """Warn on stderr about ids used by more than one line; return them (first-seen order).

    Every line still gets its own output line; lines with the same id and content share one
    audit (same idempotency key), with the same id and other content they are separate audits.
    """
    seen: dict[str, int] = {}
    for ln in lines:
        seen[ln.line_id] = seen.get(ln.line_id, 0) + 1
    dups = [i for i, n in seen.items() if n > 1]
    if dups:
        shown = ", ".join(repr(d) for d in dups[:10]) + (" ..." if len(dups) > 10 else "")
        err.print(
            f"[yellow]warning: {len(dups)} id(s) used by more than one input line: {shown}; "
            "each line still gets its own output line (match results by position)[/yellow]"
        )
    return dups


def result_line(line: BatchLine, sub: Submission | None, doc: dict[str, Any] | None) -> dict[str, Any]:
    """The output object for one input line (the GET document with ``id`` = line id, ``audit_id`` = uuid)."""
    if line.body is None or sub is None or sub.audit_id is None:
        error = line.error or (sub.error if sub else None) or "rejected"
        return {"id": line.line_id, "status": "rejected", "error": error}
    out = dict(doc or {"status": sub.status, "error": "no result"})
    out["audit_id"] = out.get("id", sub.audit_id)
    out["id"] = line.line_id
    return {"id": out.pop("id"), "audit_id": out.pop("audit_id"), **out}


def run_batch(
    client: Client,
    lines: list[BatchLine],
    *,
    chunk_size: int = 100,
    stall_timeout: float = 900,
    show_progress: bool = False,
    retry_failed: bool = False,
    journal: Callable[[dict[str, Any]], None] | None = None,
    run: tuple[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Submit every valid line (idempotency keys from id + content hash), poll, return output objects.

    ``journal`` (optional) gets each line's output object as soon as it is known (rejected lines
    after submission, the others as their audits finish; completion order, not input order).
    ``run`` = (suite, label): submit the lines as the items of that run (``POST /runs``,
    idempotent per suite, label and line id) instead of as loose audits.
    """
    to_submit = [(i, ln) for i, ln in enumerate(lines) if ln.body is not None]
    docs: dict[str, dict[str, Any]] = {}
    progress = _batch_progress(show_progress)
    with progress:
        answered = _submit_lines(client, to_submit, progress, run=run, chunk_size=chunk_size)
        subs = {line_index: sub for (line_index, _), sub in zip(to_submit, answered, strict=True)}
        by_audit = _audits_by_line(lines, subs, journal)
        ids = [s.audit_id for s in answered if s.audit_id]
        advance = _finished_counter(progress, len(ids), show_progress=show_progress)
        on_result = _on_batch_result(
            lines, subs, by_audit, journal, skip_failed=retry_failed, advance=advance
        )
        docs = client.poll(ids, stall_timeout=stall_timeout, on_result=on_result)
        if retry_failed:
            _retry_failed_audits(
                client, lines, subs, docs, journal, chunk_size=chunk_size, stall_timeout=stall_timeout
            )
    return [
        result_line(
            ln,
            subs.get(i),
            docs.get(subs[i].audit_id or "") if i in subs else None,
        )
        for i, ln in enumerate(lines)
    ]


def _batch_progress(show_progress: bool) -> Progress:
    """The progress bars of a batch on stderr ("submitted", "finished"); shown only with ``show_progress``."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=not show_progress,
    )


def _submit_lines(
    client: Client,
    to_submit: list[tuple[int, BatchLine]],
    progress: Progress,
    *,
    run: tuple[str, str] | None,
    chunk_size: int,
) -> list[Submission]:
    """Submit the valid lines (bar "submitted") as the items of ``run`` = (suite, label), else as loose
    audits keyed by id + content hash; one :class:`Submission` per line, in order."""
    t_sub = progress.add_task("submitted", total=len(to_submit))

    def on_progress(n: int) -> None:
        progress.advance(t_sub, n)

    if run is not None:
        pairs = [(ln.line_id, ln.body or {}) for _, ln in to_submit]
        flow = submit_run(run[0], run[1], pairs, chunk_size=chunk_size, source="cli", on_progress=on_progress)
        return [Submission.of(item) for item in client.run(flow)]
    items = [(ln.body or {}, idempotency_key(ln.line_id, ln.body or {})) for _, ln in to_submit]
    answered = client.submit_many(items, chunk_size=chunk_size, on_progress=on_progress)
    return [Submission.of(item) for item in answered]


def _audits_by_line(
    lines: list[BatchLine],
    subs: dict[int, Submission],
    journal: Callable[[dict[str, Any]], None] | None,
) -> dict[str, list[int]]:
    """The input-line indexes of each submitted audit; lines without an audit go to ``journal`` now."""
    by_audit: dict[str, list[int]] = {}
    for i, ln in enumerate(lines):
        sub_i = subs.get(i)
        if sub_i is not None and sub_i.audit_id:
            by_audit.setdefault(sub_i.audit_id, []).append(i)
        elif journal is not None:
            journal(result_line(ln, sub_i, None))
    return by_audit


def _finished_counter(progress: Progress, total: int, *, show_progress: bool) -> Callable[[], None]:
    """Add the "finished" bar (``total`` audits) and return its one-step advance; without a bar, that
    prints the count on stderr every tenth of ``total``."""
    task = progress.add_task("finished ", total=total)
    reported = [0.0]

    def advance() -> None:
        progress.advance(task)
        if not show_progress:
            finished = progress.tasks[task].completed
            if finished >= total or finished - reported[0] >= max(1, total // 10):
                reported[0] = finished
                err.print(f"[dim]{int(finished)}/{total} audits finished[/dim]")

    return advance


def _on_batch_result(
    lines: list[BatchLine],
    subs: dict[int, Submission],
    by_audit: dict[str, list[int]],
    journal: Callable[[dict[str, Any]], None] | None,
    *,
    skip_failed: bool,
    advance: Callable[[], None],
) -> Callable[[str, dict[str, Any]], None]:
    """``poll_many``'s ``on_result`` for a batch: journal the lines of each finished audit (not the
    failed ones with ``skip_failed``: they are retried), then ``advance`` the count."""

    def on_result(audit_id: str, doc: dict[str, Any]) -> None:
        if journal is not None and not (skip_failed and doc.get("status") == "failed"):
            for i in by_audit.get(audit_id, []):
                journal(result_line(lines[i], subs[i], doc))
        advance()

    return on_result


def _retry_failed_audits(
    client: Client,
    lines: list[BatchLine],
    subs: dict[int, Submission],
    docs: dict[str, dict[str, Any]],
    journal: Callable[[dict[str, Any]], None] | None,
    *,
    chunk_size: int,
    stall_timeout: float,
) -> None:
    """Submit each failed audit once more and poll the new ones, updating ``subs`` and ``docs`` in
    place; each retried line goes to ``journal`` as soon as its new audit ends: the batch held
    these lines back for the retry. A line whose resubmission is refused keeps its failed audit
    (id and document), its error saying why the retry was refused, and is journaled at once.

    The retry's key is derived from the failed audit's id: deterministic, so running the batch
    again still creates nothing new.
    """
    retry = [
        (i, sub)
        for i, sub in subs.items()
        if sub.audit_id and docs.get(sub.audit_id, {}).get("status") == "failed"
    ]
    if not retry:
        return
    err.print(f"[yellow]retrying {len(retry)} failed audits[/yellow]")
    answered = client.submit_many(
        [
            (
                lines[i].body or {},
                f"{idempotency_key(lines[i].line_id, lines[i].body or {})}:retry:{sub.audit_id}",
            )
            for i, sub in retry
        ],
        chunk_size=chunk_size,
    )
    again = [Submission.of(item) for item in answered]
    by_audit: dict[str, list[int]] = {}
    for (i, failed), sub in zip(retry, again, strict=True):
        if sub.audit_id:
            subs[i] = sub
            by_audit.setdefault(sub.audit_id, []).append(i)
            continue
        # the resubmission was refused (a spent LLM budget, say): the line keeps its failed
        # audit, whose id the user needs, with the refusal added to its error
        doc = docs[str(failed.audit_id)]
        refusal = f"retry refused: {sub.error or 'rejected'}"
        if refusal not in str(doc.get("error") or ""):
            doc["error"] = f"{doc['error']}; {refusal}" if doc.get("error") else refusal
        if journal is not None:
            journal(result_line(lines[i], failed, doc))
    on_result = _on_batch_result(lines, subs, by_audit, journal, skip_failed=False, advance=lambda: None)
    new_ids = [s.audit_id for s in again if s.audit_id]
    docs.update(client.poll([a for a in new_ids if a], stall_timeout=stall_timeout, on_result=on_result))


def batch(
    input: Annotated[
        Path, typer.Argument(help="JSONL: {id, references, response, config?, question?, metadata?}")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="JSONL with one result per input line.")],
    api_url: ApiUrl = None,
    api_port: ApiPort = stack.DEFAULT_API_PORT,
    chunk_size: Annotated[int, typer.Option(help="Audits per POST /audits/batch.")] = 100,
    stall_timeout: Annotated[
        float, typer.Option(help="Give up after this many seconds without progress.")
    ] = 900,
    start: Annotated[bool, typer.Option(help="Start the local stack when the API is not running.")] = True,
    retry_failed: Annotated[
        bool, typer.Option(help="Submit failed audits once more (a new audit each, linked by its key).")
    ] = False,
    suite: Annotated[
        str | None, typer.Option(help="Submit the lines as a run of this suite (see `claimaudit runs`).")
    ] = None,
    run_label: Annotated[
        str | None, typer.Option("--run", help="Label of the run (with --suite), e.g. 2026-11-30.")
    ] = None,
) -> None:
    """Submit every line through the API, poll, write one result line per input line (resumable).

    OUTPUT is written at the end, in input order, atomically. Meanwhile each line's result is
    appended to OUTPUT.partial as soon as it is known (completion order; removed at the end), so
    a killed run leaves what had finished there. Recovery is simply running the same command
    again: every line's idempotency key (id + content hash) maps it to the audit already stored,
    so finished audits come back at once and nothing is audited twice.
    """
    lines = _batch_input(input, suite=suite, run_label=run_label, retry_failed=retry_failed)
    warn_duplicate_ids(lines)
    url = ensure_api(api_url, api_port, start=start)
    started = time.monotonic()
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(output.name + ".partial")
    results = _run_journaled(
        url,
        lines,
        partial,
        chunk_size=chunk_size,
        stall_timeout=stall_timeout,
        retry_failed=retry_failed,
        run=None if suite is None or run_label is None else (suite, run_label),
    )
    _write_results(output, results)
    partial.unlink(missing_ok=True)
    _report_batch(results, output, started)


def _batch_input(
    input: Path, *, suite: str | None, run_label: str | None, retry_failed: bool
) -> list[BatchLine]:
    """The lines of ``input`` once the options are checked; exit 2 on bad options or an unreadable file."""
    if not input.exists():
        raise fail(f"input file {input} does not exist", code=2)
    if (suite is None) != (run_label is None) or (suite is not None and retry_failed):
        raise fail("--suite and --run go together (and not with --retry-failed)", code=2)
    try:
        return read_batch_input(input)
    except UnicodeDecodeError as exc:
        raise fail(f"{input} is not UTF-8 text ({exc.reason}): expected JSON lines", code=2) from None
    except OSError as exc:
        raise fail(f"{input}: {exc.strerror or exc}", code=2) from None


def _run_journaled(
    url: str,
    lines: list[BatchLine],
    partial: Path,
    *,
    chunk_size: int,
    stall_timeout: float,
    retry_failed: bool,
    run: tuple[str, str] | None,
) -> list[dict[str, Any]]:
    """:func:`run_batch` against the API at ``url``, each result appended to ``partial`` as soon as it
    is known; exit 2 when the API or a file fails."""
    try:
        with connect(url) as client, partial.open("w", encoding="utf-8") as jfh:

            def journal(obj: dict[str, Any]) -> None:
                jfh.write(json.dumps(obj, ensure_ascii=False) + "\n")
                jfh.flush()

            return run_batch(
                client,
                lines,
                chunk_size=chunk_size,
                stall_timeout=stall_timeout,
                show_progress=err.is_terminal,
                retry_failed=retry_failed,
                journal=journal,
                run=run,
            )
    except ApiError as exc:
        message = f"batch aborted: {problem(exc)} (results so far: {partial}; re-run to resume)"
        raise fail(message, code=EXIT_UNAVAILABLE) from exc
    except OSError as exc:
        raise fail(f"batch aborted: {exc} (results so far: {partial}; re-run to resume)", code=2) from exc


def _write_results(output: Path, results: list[dict[str, Any]]) -> None:
    """Write ``results`` to ``output`` as JSON lines, atomically (through ``OUTPUT.part``)."""
    tmp = output.with_name(output.name + ".part")
    with tmp.open("w", encoding="utf-8") as fh:
        for obj in results:
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
    tmp.replace(output)


def _report_batch(results: list[dict[str, Any]], output: Path, started: float) -> None:
    """Print the count per status and the time since ``started``; exit 3 when audits did not finish."""
    tally: dict[str, int] = {}
    for obj in results:
        tally[str(obj.get("status"))] = tally.get(str(obj.get("status")), 0) + 1
    elapsed = time.monotonic() - started
    summary = ", ".join(f"{n} {s}" for s, n in sorted(tally.items()))
    err.print(f"{len(results)} lines → {output} in {elapsed:.1f} s ({summary})")
    unfinished = [r for r in results if r.get("status") not in ("done", "failed", "rejected")]
    if unfinished:
        raise fail(f"{len(unfinished)} audits did not finish (see their error field)", code=3)


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the main app."""
    app.command()(batch)
