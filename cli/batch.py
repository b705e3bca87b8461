"""``claimaudit batch``: JSONL in, one result line per input line, resumable.

Every valid line is submitted through the API (``POST /audits/batch``, or ``POST /runs`` with
``--suite``/``--run``) with an idempotency key, then polled; each line's result goes to
``OUTPUT.partial`` as soon as it is known, and OUTPUT is written at the end, in input order.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from rich.markup import escape
from rich.progress import Progress

from claimaudit import Client
from claimaudit._flows import find_run, submit_run
from claimaudit.errors import (
    AuthenticationError,
    BadRequest,
    Conflict,
    InvalidRequest,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
)
from cli import stack
from cli.batch_input import BatchLine, IdSource, duplicate_ids, read_batch_input
from cli.batch_report import (
    batch_progress,
    batch_summary,
    finished_counter,
    gate_line,
    last_line,
    write_csv,
    write_summary,
)
from cli.client import (
    ApiError,
    Submission,
    connect,
    idempotency_key,
    problem,
    wait_line,
)
from cli.common import (
    EXIT_GATE,
    EXIT_REJECTED,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    ApiPort,
    ApiUrl,
    ensure_api,
    err,
    fail,
)

__all__ = ["BatchLine", "read_batch_input", "warn_duplicate_ids", "result_line", "run_batch", "register"]


def warn_duplicate_ids(lines: list[BatchLine]) -> list[str]:
    """Warn on stderr about ids used by more than one line; return them (first-seen order).

    Every line still gets its own output line; lines with the same id and content share one
    audit (same idempotency key), with the same id and other content they are separate audits.
    """
    dups = duplicate_ids(lines)
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
        if line.line is not None and not error.startswith(f"line {line.line}"):
            error = f"line {line.line}: {error}"
        return {"id": line.line_id, "line": line.line, "status": "rejected", "error": error}
    out = dict(doc or {"status": sub.status, "error": "no result"})
    out["audit_id"] = out.get("id", sub.audit_id)
    out["id"] = line.line_id
    return {"id": out.pop("id"), "audit_id": out.pop("audit_id"), "line": line.line, **out}


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
    progress = batch_progress(show_progress)
    with progress:
        rejected = [ln for ln in lines if ln.rejected]
        answered = _submit_lines(
            client, to_submit, progress, run=run, chunk_size=chunk_size, rejected=rejected
        )
        subs = {line_index: sub for (line_index, _), sub in zip(to_submit, answered, strict=True)}
        by_audit = _audits_by_line(lines, subs, journal)
        ids = [s.audit_id for s in answered if s.audit_id]
        advance = finished_counter(progress, len(ids), show=show_progress)
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


def _submit_lines(
    client: Client,
    to_submit: list[tuple[int, BatchLine]],
    progress: Progress,
    *,
    run: tuple[str, str] | None,
    chunk_size: int,
    rejected: list[BatchLine],
) -> list[Submission]:
    """Submit the valid lines (bar "submitted") as the items of ``run`` = (suite, label), else as loose
    audits keyed by id + content hash; one :class:`Submission` per line, in order."""
    t_sub = progress.add_task("submitted", total=len(to_submit))

    def on_progress(n: int) -> None:
        progress.advance(t_sub, n)

    if run is not None:
        # each item carries its input line: the run records a line the API refuses under it
        pairs = [(ln.line_id, _with_line(ln.body or {}, ln.line)) for _, ln in to_submit]
        flow = submit_run(
            run[0],
            run[1],
            pairs,
            rejected=[ln.rejection() for ln in rejected],
            chunk_size=chunk_size,
            source="cli",
            on_progress=on_progress,
        )
        return [Submission.of(item) for item in client.run(flow)]
    items = [(ln.body or {}, idempotency_key(ln.line_id, ln.body or {})) for _, ln in to_submit]
    answered = client.submit_many(items, chunk_size=chunk_size, on_progress=on_progress)
    return [Submission.of(item) for item in answered]


def _with_line(body: dict[str, Any], line: int | None) -> dict[str, Any]:
    """A run item's body with its input ``line`` (``POST /runs`` items take one; not audited)."""
    return body if line is None else {**body, "line": line}


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


@dataclass(frozen=True)
class Outputs:
    """Where ``batch`` writes: the results, and optionally a summary (JSON) and a CSV."""

    output: Path
    summary: Path | None = None
    csv: Path | None = None


def batch(
    input: Annotated[
        Path, typer.Argument(help="JSONL: {id, references, response, config?, question?, metadata?}")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="JSONL with one result per input line.")],
    api_url: ApiUrl = None,
    api_port: ApiPort = stack.DEFAULT_API_PORT,
    chunk_size: Annotated[int, typer.Option(help="Audits per POST /audits/batch.")] = 100,
    stall_timeout: Annotated[
        float, typer.Option(help="Give up after this many seconds without progress (exit 3).")
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
    ids: Annotated[
        str,
        typer.Option(help="Where ids come from: 'field' (a line without id is rejected) or 'line' (line-N)."),
    ] = "field",
    max_rejected: Annotated[
        int | None, typer.Option(help="Exit 4 when more lines than this are rejected (default: report only).")
    ] = None,
    gate: Annotated[
        bool, typer.Option("--gate", help="With --suite/--run: exit 1 when the run crosses its suite's gate.")
    ] = False,
    summary: Annotated[
        Path | None, typer.Option(help="Also write a JSON summary: counts, verdict mix, mean scores, gate.")
    ] = None,
    csv_path: Annotated[
        Path | None,
        typer.Option("--csv", help="Also write one CSV row per line (id, status, verdicts, F1, page)."),
    ] = None,
) -> None:
    """Submit every line through the API, poll, write one result line per input line (resumable:
    run it again). A bad line is rejected with its line number and reason, the others audited.
    Exit (README "Exit codes"): 0 done, 1 --gate crossed, 2 usage, 3 unreachable or stalled, 4
    more rejected lines than --max-rejected."""
    lines = _batch_input(input, suite, run_label, retry_failed, _check_options(ids, gate, suite))
    warn_duplicate_ids(lines)
    check_output(output)  # before the API is reached (or started): nothing submitted for nothing
    url = ensure_api(api_url, api_port, start=start)
    started = time.monotonic()
    partial = output.with_name(output.name + ".partial")
    run = None if suite is None or run_label is None else (suite, run_label)
    results = _run_journaled(url, lines, partial, (chunk_size, stall_timeout), retry_failed, run)
    _write_results(output, results)
    partial.unlink(missing_ok=True)
    outcome = _run_gate(url, run) if gate and run is not None else None
    _report_batch(results, Outputs(output, summary, csv_path), started, url=url, gate=outcome)
    _exit(results, outcome, max_rejected)


def check_output(output: Path) -> None:
    """Make ``output``'s folder (with its parents) and check a file can be created in it; exit 2
    (usage) with the reason when not: a parent that is a file, a read-only or virtual file system,
    an ``output`` that is a folder. The probe file is removed again."""
    if output.is_dir():
        raise fail(f"--output: cannot write {output}: it is a folder", code=EXIT_USAGE)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=output.parent, prefix=f".{output.name}.", suffix=".probe"):
            pass
    except OSError as exc:
        raise fail(f"--output: cannot write {output}: {exc.strerror or exc}", code=EXIT_USAGE) from None


def _check_options(ids: str, gate: bool, suite: str | None) -> IdSource:
    """The id source of ``--ids``; exit 2 on an unknown one or ``--gate`` without a suite."""
    if ids not in ("field", "line"):
        raise fail(f"--ids: {ids!r} is not 'field' or 'line'", code=EXIT_USAGE)
    if gate and suite is None:
        raise fail("--gate needs --suite and --run (the gate is the suite's)", code=EXIT_USAGE)
    return "line" if ids == "line" else "field"


def _exit(results: list[dict[str, Any]], gate: dict[str, Any] | None, max_rejected: int | None) -> None:
    """Exit by the table of the README: 3 unfinished audits, 4 too many rejected lines, 1 the gate."""
    unfinished = [r for r in results if r.get("status") not in ("done", "failed", "rejected")]
    if unfinished:
        raise fail(f"{len(unfinished)} audits did not finish (see their error field)", code=EXIT_UNAVAILABLE)
    rejected = sum(1 for r in results if r.get("status") == "rejected")
    if max_rejected is not None and rejected > max_rejected:
        raise fail(f"{rejected} lines rejected, more than --max-rejected {max_rejected}", code=EXIT_REJECTED)
    if gate is not None and gate.get("crossed"):
        raise fail("gate crossed: " + "; ".join(gate["crossed"]), code=EXIT_GATE)


#: Longest wait for the run to finish after its last audit (the worker freezes its summary).
RUN_FINISH_S = 120.0


def _run_gate(url: str, run: tuple[str, str]) -> dict[str, Any]:
    """The gate of the finished run ``suite/label`` (``summary.gate`` with its ``baseline``);
    exit 3 when the run does not finish in ``RUN_FINISH_S``."""
    deadline = time.monotonic() + RUN_FINISH_S
    with connect(url) as client:
        while True:
            doc = client.run(find_run(f"{run[0]}/{run[1]}"))
            if doc["status"] in ("finished", "failed"):
                summary_ = doc.get("summary") or {}
                return {**(summary_.get("gate") or {}), "baseline": summary_.get("baseline")}
            if time.monotonic() > deadline:
                raise fail(
                    f"run {run[0]}/{run[1]} still {doc['status']} after {RUN_FINISH_S:.0f} s",
                    code=EXIT_UNAVAILABLE,
                )
            time.sleep(1.0)


def _batch_input(
    input: Path, suite: str | None, run_label: str | None, retry_failed: bool, ids: IdSource
) -> list[BatchLine]:
    """The lines of ``input`` once the options are checked; exit 2 on bad options or an unreadable file."""
    if not input.exists():
        raise fail(f"input file {input} does not exist", code=2)
    if (suite is None) != (run_label is None) or (suite is not None and retry_failed):
        raise fail("--suite and --run go together (and not with --retry-failed)", code=2)
    try:
        return read_batch_input(input, ids)
    except OSError as exc:
        raise fail(f"{input}: {exc.strerror or exc}", code=2) from None


#: the client's errors for a 4xx answer other than 429: the API refused what was sent (an
#: invalid suite or run name, a revoked key), so re-running the same command fails the same way
REFUSALS = (
    BadRequest,
    AuthenticationError,
    PermissionDenied,
    NotFound,
    Conflict,
    PayloadTooLarge,
    InvalidRequest,
)


def _run_journaled(
    url: str,
    lines: list[BatchLine],
    partial: Path,
    pace: tuple[int, float],
    retry_failed: bool,
    run: tuple[str, str] | None,
) -> list[dict[str, Any]]:
    """:func:`run_batch` against the API at ``url`` (``pace``: chunk size, stall timeout), each
    result appended to ``partial`` as soon as it is known; exit 3 when the API fails, 2 when it
    refuses the input or the key (``REFUSALS``: a 4xx other than 429) or a file fails."""
    chunk_size, stall_timeout = pace
    try:
        with connect(url, on_wait=announce_wait) as client, partial.open("w", encoding="utf-8") as jfh:

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
    except KeyboardInterrupt:
        raise fail(
            f"interrupted: {_so_far(partial)}run the same command again to resume "
            "(finished audits come back at once, nothing is audited twice)",
            code=130,
        ) from None
    except REFUSALS as exc:  # the API refused the input or the key: re-running as is will not help
        if run is not None and isinstance(exc, Conflict) and sealed_run(exc):
            raise fail(_sealed_run_message(run, exc), code=EXIT_USAGE) from exc
        message = f"batch refused: {problem(exc)} ({_so_far(partial)}fix it, then re-run to resume)"
        raise fail(message, code=EXIT_USAGE) from exc
    except ApiError as exc:
        message = f"batch aborted: {problem(exc)} ({_so_far(partial)}re-run to resume)"
        raise fail(message, code=EXIT_UNAVAILABLE) from exc
    except OSError as exc:
        raise fail(f"batch aborted: {exc} ({_so_far(partial)}re-run to resume)", code=2) from exc


#: The error types of the API's refusal to add to a sealed run (``POST /runs``, 409).
SEALED_TYPES = ("run_finished", "run_sealed")


def sealed_run(exc: Exception) -> bool:
    """True for the API's refusal to add to a sealed run (409, type ``run_finished`` or
    ``run_sealed``: the run's items were all sent, and the input differs from them)."""
    errors = exc.errors if isinstance(exc, Conflict) else []
    return any(e.get("type") in SEALED_TYPES for e in errors if isinstance(e, dict))


def _sealed_run_message(run: tuple[str, str], exc: Conflict) -> str:
    """What ``batch --suite S --run L`` says when run S/L is sealed and the input would add to it:
    the API's reason (which run, since when, what would be added), then how to go on."""
    suite, label = run
    why = next((str(e.get("msg")) for e in exc.errors if e.get("type") in SEALED_TYPES), exc.message)
    return (
        f"--run {label}: {why}. To audit this input as a new run, give a label not used yet "
        f"(--run {label}-2, say); `claimaudit runs show {suite}/{label}` shows the run"
    )


def announce_wait(seconds: float, resp: httpx.Response) -> None:
    """Say on stderr, in one line, that the batch waits before a retry: how long and the API's
    reason (``cli.client.wait_line``); every wait is told, so a long backlog is never silent."""
    err.print(f"[yellow]{escape(wait_line(seconds, resp))}[/yellow]", highlight=False, soft_wrap=True)


def _so_far(partial: Path) -> str:
    """Where the results so far are, named only when that file exists and holds some."""
    try:
        written = partial.stat().st_size > 0
    except OSError:
        written = False
    return f"results so far: {partial}; " if written else "no results written yet; "


def _write_results(output: Path, results: list[dict[str, Any]]) -> None:
    """Write ``results`` to ``output`` as JSON lines, atomically (through ``OUTPUT.part``)."""
    tmp = output.with_name(output.name + ".part")
    with tmp.open("w", encoding="utf-8") as fh:
        for obj in results:
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
    tmp.replace(output)


def _report_batch(
    results: list[dict[str, Any]], outputs: Outputs, started: float, *, url: str, gate: dict[str, Any] | None
) -> None:
    """The last line on stderr (counts, verdict mix, mean F1, the gate), and ``--summary`` / ``--csv``."""
    summary = batch_summary(results, gate=gate)
    err.print(last_line(summary, outputs.output, time.monotonic() - started), highlight=False, soft_wrap=True)
    for line in summary["rejected"][:20]:
        err.print(f"[yellow]rejected[/yellow] {escape(str(line['reason']))}", highlight=False)
    if len(summary["rejected"]) > 20:
        err.print(
            f"[yellow]… and {len(summary['rejected']) - 20} more rejected lines (see --summary)[/yellow]"
        )
    if gate is not None:
        err.print(gate_line(gate))
    if outputs.summary is not None:
        write_summary(outputs.summary, summary)
    if outputs.csv is not None:
        write_csv(outputs.csv, results, url)


def register(app: typer.Typer) -> None:
    """Add ``batch`` to the main app."""
    app.command()(batch)
