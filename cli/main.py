"""The ``claimaudit`` command line: local stack, batch audits, one-off audits, demo.

Every audit goes through the API (and so through the Celery chain and Postgres); only
``claimaudit audit --offline`` runs the engine in memory without any service.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cli import analyst, checks, credentials, stack
from cli import keys as keys_cli
from cli.client import (
    LINE_FIELDS,
    ApiError,
    Client,
    Submission,
    audit_body,
    idempotency_key,
    transport_problem,
)
from cli.html_report import write_html_report
from cli.report import VERDICT_STYLE, render_audit
from cli.runs import runs_app, suites_app

app = typer.Typer(
    help="Audit generated text against reference texts claim by claim.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
db_app = typer.Typer(help="Database commands.", no_args_is_help=True)
app.add_typer(db_app, name="db")
app.add_typer(keys_cli.app, name="keys")
app.add_typer(runs_app, name="runs")
app.add_typer(suites_app, name="suites")

console = Console()
err = Console(stderr=True)

#: Verdict names (``claims.types.Verdict`` values), for ``--fail-on``.
VERDICTS = tuple(VERDICT_STYLE)

ApiUrl = Annotated[
    str | None,
    typer.Option(
        "--api-url",
        envvar="CLAIMAUDIT_API_URL",
        help="API base URL; default the local stack's http://127.0.0.1:PORT.",
        show_default=False,
    ),
]
ApiPort = Annotated[int, typer.Option("--api-port", help="Port of the local API.")]


def _fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[bold red]error:[/bold red] {message}")
    return typer.Exit(code)


def ensure_api(api_url: str | None, api_port: int, *, start: bool = True) -> str:
    """The base URL of a healthy API; starts the local stack when none answers and ``start``.

    An explicit ``--api-url`` that does not answer is an error (we only start local services).
    """
    url = (api_url or f"http://127.0.0.1:{api_port}").rstrip("/")
    healthy = stack.api_healthy(url)
    # A local stack whose API answers but whose worker died would leave every audit queued.
    if healthy and (api_url is not None or not stack.managed_worker_dead()):
        _ensure_local_key(url)
        return url
    if api_url is not None:
        raise _fail(f"the API at {url} does not answer GET /healthz", code=2)
    if not start:
        raise _fail(f"the local API at {url} is not running; run `claimaudit up`", code=2)
    err.print(f"[dim]starting the local stack (API on {url}) ...[/dim]")
    try:
        with err.status("starting the local stack") as spinner:
            stack.up(
                stack.StackConfig(api_port=api_port),
                progress=lambda msg: spinner.update(f"starting the local stack: {msg}"),
            )
    except stack.StackError as exc:
        raise _fail(str(exc), code=2) from exc
    return url


def _ensure_local_key(url: str) -> None:
    """A local stack started before it made keys: make its admin key now (from its saved database URL)."""
    info = stack.read_stack_info()
    if credentials.api_key_for(url) is not None or info is None or info.api_url.rstrip("/") != url:
        return
    try:
        credentials.ensure_local_key(info.database_url)
    except Exception as exc:  # the API will answer 401 with what to do
        err.print(f"[yellow]could not make the local API key: {exc}[/yellow]")


# --------------------------------------------------------------------------- stack


@app.command()
def up(
    api_port: ApiPort = stack.DEFAULT_API_PORT,
    flower_port: Annotated[int, typer.Option(help="Port of Flower.")] = stack.DEFAULT_FLOWER_PORT,
    concurrency: Annotated[
        int,
        typer.Option(
            help=(
                "Celery worker processes (default: one per CPU, at most one per 2 GiB;"
                " env CLAIMAUDIT_WORKER_CONCURRENCY)."
            )
        ),
    ] = 0,
    flower: Annotated[bool, typer.Option(help="Also start Flower.")] = True,
) -> None:
    """Start Postgres+pgvector, Redis, migrations, the Celery worker, the API and Flower (idempotent)."""
    config = stack.StackConfig(api_port=api_port, flower_port=flower_port, flower=flower)
    if concurrency:
        config.concurrency = concurrency
    started = time.monotonic()
    try:
        with err.status("starting") as spinner:
            info = stack.up(config, progress=lambda msg: spinner.update(f"starting {msg}"))
    except stack.StackError as exc:
        raise _fail(str(exc), code=2) from exc
    err.print(f"[green]stack up[/green] in {time.monotonic() - started:.1f} s")
    _print_status(config)
    console.print(f"API       {info.api_url}  (docs: {info.api_url}/docs)")
    console.print(f"API key   {credentials.local_key_path()}  (admin of tenant 'default'; the CLI uses it)")
    if info.flower_url:
        console.print(f"Flower    {info.flower_url}  (user:password in {stack.flower_auth_path()})")


@app.command()
def down() -> None:
    """Stop everything `up` started (external servers are left alone)."""
    try:
        stopped = stack.down()
    except stack.StackError as exc:
        raise _fail(str(exc)) from exc
    console.print("stopped: " + (", ".join(stopped) if stopped else "nothing was running"))


def _print_status(config: stack.StackConfig) -> None:
    table = Table(title="claimaudit local stack")
    table.add_column("service")
    table.add_column("state")
    table.add_column("detail")
    colour = {"running": "green", "healthy": "green", "external": "cyan", "stopped": "dim"}
    for row in stack.status(config):
        table.add_row(row.name, f"[{colour.get(row.state, 'red')}]{row.state}[/]", row.detail)
    console.print(table)


@app.command()
def status(api_port: ApiPort = stack.DEFAULT_API_PORT) -> None:
    """Print the state of each local service."""
    _print_status(stack.StackConfig(api_port=api_port))


@app.command()
def worker(
    concurrency: Annotated[
        int, typer.Option(help="Worker processes (default: one per CPU, at most one per 2 GiB).")
    ] = 0,
    loglevel: Annotated[str, typer.Option(help="Celery log level.")] = "INFO",
) -> None:
    """Run a Celery worker in the foreground (local Postgres/Redis started when no URL is set)."""
    env = _service_env()
    config = stack.StackConfig()
    if concurrency:
        config.concurrency = concurrency
    cmd = stack.service_command("worker", config)
    cmd[cmd.index("--loglevel") + 1] = loglevel
    os.chdir(stack.project_root())
    os.execve(cmd[0], cmd, env)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = stack.DEFAULT_API_PORT,
) -> None:
    """Run the API (uvicorn) in the foreground."""
    env = {**_service_env(), "API_HOST": host}  # AUTH=disabled is refused unless host is loopback
    cmd = stack.service_command("api", stack.StackConfig(api_port=port))
    cmd[cmd.index("--host") + 1] = host
    os.chdir(stack.project_root())
    os.execve(cmd[0], cmd, env)


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Run `alembic upgrade head` (local Postgres started when DATABASE_URL is not set)."""
    try:
        url = stack.ensure_postgres()
        stack.migrate(url)
    except stack.StackError as exc:
        raise _fail(str(exc), code=2) from exc
    console.print(f"database at head: {_redact(url)}")


def _service_env() -> dict[str, str]:
    try:
        return {
            **os.environ,
            "DATABASE_URL": stack.ensure_postgres(),
            "REDIS_URL": stack.ensure_redis(),
        }
    except stack.StackError as exc:
        raise _fail(str(exc), code=2) from exc


def _redact(url: str) -> str:
    if "@" in url and ":" in url.split("@", 1)[0].split("//", 1)[-1]:
        scheme, rest = url.split("//", 1)
        user = rest.split(":", 1)[0]
        return f"{scheme}//{user}:***@{rest.split('@', 1)[1]}"
    return url


# --------------------------------------------------------------------------- batch


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
    poll_concurrency: int = 16,
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
        docs = client.poll_many(
            ids, concurrency=poll_concurrency, stall_timeout=stall_timeout, on_result=on_result
        )
        if retry_failed:
            _retry_failed_audits(
                client,
                lines,
                subs,
                docs,
                journal,
                chunk_size=chunk_size,
                poll_concurrency=poll_concurrency,
                stall_timeout=stall_timeout,
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
        return client.submit_run(
            run[0],
            run[1],
            [(ln.line_id, ln.body or {}) for _, ln in to_submit],
            chunk_size=chunk_size,
            on_progress=on_progress,
        )
    items = [(ln.body or {}, idempotency_key(ln.line_id, ln.body or {})) for _, ln in to_submit]
    return client.submit_many(items, chunk_size=chunk_size, on_progress=on_progress)


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
    poll_concurrency: int,
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
    again = client.submit_many(
        [
            (
                lines[i].body or {},
                f"{idempotency_key(lines[i].line_id, lines[i].body or {})}:retry:{sub.audit_id}",
            )
            for i, sub in retry
        ],
        chunk_size=chunk_size,
    )
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
    docs.update(
        client.poll_many(
            new_ids, concurrency=poll_concurrency, stall_timeout=stall_timeout, on_result=on_result
        )
    )


@app.command()
def batch(
    input: Annotated[
        Path, typer.Argument(help="JSONL: {id, references, response, config?, question?, metadata?}")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="JSONL with one result per input line.")],
    api_url: ApiUrl = None,
    api_port: ApiPort = stack.DEFAULT_API_PORT,
    chunk_size: Annotated[int, typer.Option(help="Audits per POST /audits/batch.")] = 100,
    poll_concurrency: Annotated[int, typer.Option(help="Concurrent GETs while polling.")] = 16,
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
        poll_concurrency=poll_concurrency,
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
        raise _fail(f"input file {input} does not exist", code=2)
    if (suite is None) != (run_label is None) or (suite is not None and retry_failed):
        raise _fail("--suite and --run go together (and not with --retry-failed)", code=2)
    try:
        return read_batch_input(input)
    except UnicodeDecodeError as exc:
        raise _fail(f"{input} is not UTF-8 text ({exc.reason}): expected JSON lines", code=2) from None
    except OSError as exc:
        raise _fail(f"{input}: {exc.strerror or exc}", code=2) from None


def _run_journaled(
    url: str,
    lines: list[BatchLine],
    partial: Path,
    *,
    chunk_size: int,
    poll_concurrency: int,
    stall_timeout: float,
    retry_failed: bool,
    run: tuple[str, str] | None,
) -> list[dict[str, Any]]:
    """:func:`run_batch` against the API at ``url``, each result appended to ``partial`` as soon as it
    is known; exit 2 when the API or a file fails."""
    try:
        with Client(url) as client, partial.open("w", encoding="utf-8") as jfh:

            def journal(obj: dict[str, Any]) -> None:
                jfh.write(json.dumps(obj, ensure_ascii=False) + "\n")
                jfh.flush()

            return run_batch(
                client,
                lines,
                chunk_size=chunk_size,
                poll_concurrency=poll_concurrency,
                stall_timeout=stall_timeout,
                show_progress=err.is_terminal,
                retry_failed=retry_failed,
                journal=journal,
                run=run,
            )
    except (ApiError, OSError) as exc:
        raise _fail(f"batch aborted: {exc} (results so far: {partial}; re-run to resume)", code=2) from exc


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
        raise _fail(f"{len(unfinished)} audits did not finish (see their error field)", code=3)


# --------------------------------------------------------------------------- single audit, demo


def _read_text(path: Path) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark is dropped); exit 2 when unreadable."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise _fail(f"cannot read {path}: {exc}", code=2) from exc
    except UnicodeDecodeError as exc:
        raise _fail(
            f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}); convert it first", code=2
        ) from exc


@app.command()
def audit(
    reference: Annotated[
        list[Path], typer.Option("--reference", "-r", help="Reference text file (repeatable).")
    ],
    response: Annotated[Path, typer.Option("--response", help="Response text file.")],
    question: Annotated[str | None, typer.Option(help="The question the response answers.")] = None,
    config: Annotated[
        str | None, typer.Option(help="Per-audit config as JSON, e.g. '{\"threshold\": 0.8}'.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result document as JSON.")] = False,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write one self-contained HTML page of the audit to this file."),
    ] = None,
    offline: Annotated[
        bool, typer.Option(help="Run the engine in memory; no services, nothing stored.")
    ] = False,
    api_url: ApiUrl = None,
    api_port: ApiPort = stack.DEFAULT_API_PORT,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for the result.")] = 600,
    fail_on: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-on",
            help=(
                "Exit 1 when any response claim has one of these verdicts (comma-separated or repeated), "
                "e.g. --fail-on contradicted,qualification_dropped; for CI gates."
            ),
            show_default=False,
        ),
    ] = None,
) -> None:
    """Audit one response file against one or more reference files.

    Exit status: 0 done (and no claim with a ``--fail-on`` verdict), 1 a ``--fail-on`` verdict
    found or the audit failed, 2 a usage error (an unreadable or non-UTF-8 file, an unknown
    ``--fail-on`` verdict, ``--config`` not JSON, input the API rejects), 3 timed out: a
    misconfigured CI job never looks like a gate hit.
    """
    gate = parse_fail_on(fail_on)
    body = _audit_body(response, reference, question=question, config=config)
    doc = _offline_audit(body) if offline else _audit_via_api(body, api_url, api_port, timeout=timeout)
    title = f"{response.name} vs {', '.join(p.name for p in reference)}"
    _show_audit(doc, body, title=title, as_json=as_json, html=html)
    if doc.get("status") != "done":
        raise typer.Exit(1)
    _exit_on_gate(doc, gate)


def _audit_body(
    response: Path, reference: list[Path], *, question: str | None, config: str | None
) -> dict[str, Any]:
    """The ``POST /audits`` body of ``audit``'s files and options; exit 2 when unreadable or not JSON."""
    body: dict[str, Any] = {
        "response": _read_text(response),
        "references": [_read_text(p) for p in reference],
    }
    if question is not None:
        body["question"] = question
    if config is not None:
        try:
            body["config"] = json.loads(config)
        except json.JSONDecodeError as exc:
            raise _fail(f"--config is not valid JSON: {exc}", code=2) from exc
    return body


def _audit_via_api(
    body: dict[str, Any], api_url: str | None, api_port: int, *, timeout: float
) -> dict[str, Any]:
    """Submit ``body`` to the API (started when needed) and wait for the document; exit 2 when
    rejected, 3 on timeout."""
    url = ensure_api(api_url, api_port)
    with Client(url) as client:
        sub = client.submit(body)
        if sub.audit_id is None:
            raise _fail(f"rejected: {sub.error}", code=2)
        try:
            return client.wait(sub.audit_id, timeout=timeout)
        except TimeoutError as exc:
            raise _fail(str(exc), code=3) from exc


def _show_audit(
    doc: dict[str, Any], body: dict[str, Any], *, title: str, as_json: bool, html: Path | None
) -> None:
    """Print the audit (a report, or JSON) and write the ``--html`` page; exit 2 when that fails."""
    if as_json:
        console.print_json(json.dumps(doc, ensure_ascii=False))
    else:
        console.print(render_audit(doc, title=title))
    if html is not None:
        try:
            write_html_report(html, doc, body, title=title)
        except OSError as exc:
            raise _fail(f"--html: cannot write {html}: {exc}", code=2) from exc
        err.print(f"[dim]HTML report: {html}[/dim]")


def _exit_on_gate(doc: dict[str, Any], gate: frozenset[str]) -> None:
    """Exit 1, naming the count per verdict, when a response claim has a ``--fail-on`` verdict."""
    hits = gated_claims(doc, gate)
    if hits:
        tally: dict[str, int] = {}
        for claim in hits:
            tally[claim["verdict"]] = tally.get(claim["verdict"], 0) + 1
        found = ", ".join(f"{n} {v}" for v, n in sorted(tally.items()))
        err.print(f"[red]--fail-on: {found} response claim(s)[/red]")
        raise typer.Exit(1)


def parse_fail_on(values: list[str] | None) -> frozenset[str]:
    """The verdicts of ``--fail-on`` (comma-separated and/or repeated); unknown names are an error."""
    wanted = {v.strip() for value in values or [] for v in value.split(",") if v.strip()}
    unknown = sorted(wanted - set(VERDICTS))
    if unknown:
        raise _fail(
            f"--fail-on: unknown verdict(s) {', '.join(unknown)}; choose from {', '.join(VERDICTS)}", code=2
        )
    return frozenset(wanted)


def gated_claims(doc: dict[str, Any], verdicts: frozenset[str]) -> list[dict[str, Any]]:
    """Response claims of ``doc`` whose verdict is in ``verdicts``."""
    return [
        c for c in doc.get("claims") or [] if c.get("role") == "response" and c.get("verdict") in verdicts
    ]


def quiet_model_loading() -> None:
    """No "Loading weights" / download progress bars from transformers, sentence-transformers or
    huggingface_hub in the CLI's output (set before they are imported; the engine is untouched)."""
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    if "transformers" in sys.modules:  # imported already: switch its bars off directly
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]


def _offline_audit(body: dict[str, Any]) -> dict[str, Any]:
    quiet_model_loading()
    from claims.audit import audit_texts, report_to_dict
    from claims.options import AuditOptions
    from claims.types import ModelUnavailable

    cfg = dict(body.get("config") or {})
    allowed = {"threshold", "case_insensitive", "remove_punctuation"}
    unknown = sorted(set(cfg) - allowed)
    if unknown:
        raise _fail(f"--offline supports only config keys {sorted(allowed)}; got {unknown}", code=2)
    try:
        options = AuditOptions.from_config(cfg)
        report = audit_texts(body["response"], body["references"], options=options)
    except ValueError as exc:
        raise _fail(f"rejected: {exc}", code=2) from exc
    except ModelUnavailable as exc:  # a broken install: say what is missing, not a traceback
        raise _fail(f"{exc} (reinstall: make install)") from exc
    doc = report_to_dict(report, body["references"], body["response"])
    doc.setdefault("question", body.get("question"))
    return doc


def load_examples(directory: Path) -> list[tuple[str, dict[str, Any]]]:
    """``examples/*.json`` sorted by name: (title, POST /audits body)."""
    out = []
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        title = data.pop("title", path.stem)
        out.append((f"{path.stem}: {title}", audit_body(data)))
    return out


def ui_sign_in_hint(url: str) -> str:
    """How to open the pages: they ask once for an API key (never printed here: a terminal's
    scrollback and CI logs outlive it; ``<state dir>/admin.key`` is mode 0600)."""
    if os.environ.get(credentials.ENV_KEY, "").strip():
        where = f"the key in ${credentials.ENV_KEY}"
    else:
        where = f"the local admin key: `cat {credentials.local_key_path()}`"
    return f"pages: {url}/ui/audits · sign in at {url}/ui/login with {where}"


@app.command()
def demo(
    examples: Annotated[Path | None, typer.Option(help="Folder of example audits (*.json).")] = None,
    api_url: ApiUrl = None,
    api_port: ApiPort = stack.DEFAULT_API_PORT,
) -> None:
    """Start the stack, submit the example audits through the API, and print their results."""
    folder = examples or stack.project_root() / "examples"
    items = load_examples(folder)
    if not items:
        raise _fail(f"no *.json examples in {folder}")
    started = time.monotonic()
    url = ensure_api(api_url, api_port)
    with Client(url) as client:
        # No idempotency keys: every demo run audits the examples afresh (with the current engine).
        subs = client.submit_many([(body, None) for _title, body in items])
        ids = [s.audit_id for s in subs if s.audit_id]
        with err.status(f"waiting for {len(ids)} audits (decompose → embed → match → score)"):
            docs = client.poll_many(ids)
    for (title, body), sub in zip(items, subs, strict=True):
        if sub.audit_id is None:
            console.print(render_audit({"status": "rejected", "error": sub.error}, title=title))
            continue
        doc = docs[sub.audit_id]
        console.rule(f"[bold]{title}")
        console.print("[bold]references[/bold]")
        for i, ref in enumerate(body["references"]):
            console.print(f"  [dim]{i}[/dim] {ref}")
        console.print(f"[bold]response[/bold]\n  {body['response']}")
        console.print(render_audit(doc, title=f"audit {sub.audit_id}"))
        console.print(f"page: {url}/ui/audits/{sub.audit_id}", soft_wrap=True)
    console.print("[bold]audit pages[/bold]")
    for (title, _body), sub in zip(items, subs, strict=True):
        if sub.audit_id is not None:
            console.print(f"  {title}: {url}/ui/audits/{sub.audit_id}", soft_wrap=True)
    console.print(ui_sign_in_hint(url), soft_wrap=True)
    console.print(
        f"[green]{len(ids)} audits through the queue in {time.monotonic() - started:.1f} s[/green] · "
        f"API {url}/docs · Flower http://127.0.0.1:{stack.DEFAULT_FLOWER_PORT} · "
        "`claimaudit down` stops the stack"
    )


checks.register(app)  # canaries, second-audit, correct, labels (cli/checks.py)
analyst.register(app)  # sql-logins, embed, search (cli/analyst.py)


def main() -> None:  # pragma: no cover - console entry point alias
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
