"""The ``claimaudit`` command line: local stack, batch audits, one-off audits, demo.

Every audit goes through the API (and so through the Celery chain and Postgres); only
``claimaudit audit --offline`` runs the engine in memory without any service.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from claimaudit._flows import poll as poll_flow
from claimaudit._flows import submit as submit_flow
from claimaudit._flows import submit_many as submit_many_flow
from claimaudit._flows import wait as wait_flow
from cli import analyst, checks, credentials, paths, stack
from cli import batch as batch_cli
from cli import keys as keys_cli
from cli.client import ApiError, audit_body, connect, problem
from cli.common import EXIT_UNAVAILABLE, ApiPort, ApiUrl, console, ensure_api, err, fail
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


#: Verdict names (``claims.types.Verdict`` values), for ``--fail-on``.
VERDICTS = tuple(VERDICT_STYLE)

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
        raise fail(str(exc), code=2) from exc
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
        raise fail(str(exc)) from exc
    console.print("stopped: " + (", ".join(stopped) if stopped else "nothing was running"))


def _print_status(config: stack.StackConfig) -> list[stack.ServiceStatus]:
    """Print the status table; return its rows."""
    table = Table(title="claimaudit local stack")
    table.add_column("service")
    table.add_column("state")
    table.add_column("detail")
    colour = {"running": "green", "healthy": "green", "external": "cyan", "stopped": "dim"}
    rows = stack.status(config)
    for row in rows:
        table.add_row(row.name, f"[{colour.get(row.state, 'red')}]{row.state}[/]", row.detail)
    console.print(table)
    return rows


@app.command()
def status(api_port: ApiPort = stack.DEFAULT_API_PORT) -> None:
    """Print the state of each local service; exit 3 when a service the stack needs is not up
    (stopped, frozen, unhealthy), so ``claimaudit status || claimaudit up`` works."""
    rows = _print_status(stack.StackConfig(api_port=api_port))
    down = stack.not_up(rows, stack.read_stack_info())
    if down:
        raise fail("not up: " + ", ".join(f"{row.name} ({row.state})" for row in down), code=EXIT_UNAVAILABLE)


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
    os.chdir(paths.project_root())
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
    os.chdir(paths.project_root())
    os.execve(cmd[0], cmd, env)


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Run `alembic upgrade head` (local Postgres started when DATABASE_URL is not set)."""
    try:
        url = stack.ensure_postgres()
        stack.migrate(url)
    except stack.StackError as exc:
        raise fail(str(exc), code=2) from exc
    console.print(f"database at head: {_redact(url)}")


def _service_env() -> dict[str, str]:
    try:
        redis_url = stack.ensure_redis(db=stack.DEFAULT_REDIS_DB)
        env = {**os.environ, "DATABASE_URL": stack.ensure_postgres(), "REDIS_URL": redis_url}
    except stack.StackError as exc:
        raise fail(str(exc), code=2) from exc
    queue = stack.shared_redis_queue(redis_url)  # the local stack's queue (cli.stack._app_env)
    if queue is not None:
        env["CELERY_QUEUE"] = queue
    return env


def _redact(url: str) -> str:
    if "@" in url and ":" in url.split("@", 1)[0].split("//", 1)[-1]:
        scheme, rest = url.split("//", 1)
        user = rest.split(":", 1)[0]
        return f"{scheme}//{user}:***@{rest.split('@', 1)[1]}"
    return url


# --------------------------------------------------------------------------- single audit, demo


def _read_text(path: Path) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark is dropped); exit 2 when unreadable."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc}", code=2) from exc
    except UnicodeDecodeError as exc:
        raise fail(
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
    ``--fail-on`` verdict, ``--config`` not JSON, input the API rejects), 3 timed out or the API
    unreachable: a misconfigured CI job never looks like a gate hit.
    """
    gate = parse_fail_on(fail_on)
    if html is not None and not html.parent.is_dir():  # before the audit, not after it
        raise fail(f"--html: cannot write {html}: no folder {html.parent}", code=2)
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
            raise fail(f"--config is not valid JSON: {exc}", code=2) from exc
    return body


def _audit_via_api(
    body: dict[str, Any], api_url: str | None, api_port: int, *, timeout: float
) -> dict[str, Any]:
    """Submit ``body`` to the API (started when needed), wait for the document and print the
    audit's page URL on stderr; exit 2 when rejected, 3 on timeout."""
    from claimaudit.errors import (
        AuditTimeout,
        ConnectionFailed,
        InvalidRequest,
        PayloadTooLarge,
        ServiceUnavailable,
    )

    url = ensure_api(api_url, api_port)
    with connect(url) as client:
        try:
            accepted = client.run(submit_flow(body, None))
            err.print(f"page: {client.page_url(accepted.id)}", soft_wrap=True, highlight=False)
            return client.run(wait_flow(str(accepted.id), timeout=timeout))
        except (InvalidRequest, PayloadTooLarge) as exc:
            raise fail(f"rejected: {exc.message}", code=2) from exc
        except AuditTimeout as exc:
            raise fail(str(exc), code=3) from exc
        except (ConnectionFailed, ServiceUnavailable) as exc:
            raise fail(problem(exc), code=EXIT_UNAVAILABLE) from exc
        except ApiError as exc:
            raise fail(problem(exc), code=2) from exc


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
            raise fail(f"--html: cannot write {html}: {exc}", code=2) from exc
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
        raise fail(
            f"--fail-on: unknown verdict(s) {', '.join(unknown)}; choose from {', '.join(VERDICTS)}", code=2
        )
    return frozenset(wanted)


def gated_claims(doc: dict[str, Any], verdicts: frozenset[str]) -> list[dict[str, Any]]:
    """Response claims of ``doc`` whose verdict is in ``verdicts``."""
    return [
        c for c in doc.get("claims") or [] if c.get("role") == "response" and c.get("verdict") in verdicts
    ]


def _offline_audit(body: dict[str, Any]) -> dict[str, Any]:
    """``claimaudit.audit_offline`` of ``body`` as a JSON document; exit 2 on invalid input."""
    from claimaudit.errors import ClaimauditError
    from claimaudit.offline import audit_offline

    try:
        doc = audit_offline(
            body["response"], body["references"], question=body.get("question"), config=body.get("config")
        )
    except ValueError as exc:
        raise fail(f"rejected: {exc}", code=2) from exc
    except ClaimauditError as exc:  # a broken install: say what is missing, not a traceback
        raise fail(f"{exc} (reinstall: make install)") from exc
    return doc.model_dump(mode="json", exclude_unset=True)


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
    folder = examples or paths.project_root() / "examples"
    items = load_examples(folder)
    if not items:
        raise fail(f"no *.json examples in {folder}")
    started = time.monotonic()
    url = ensure_api(api_url, api_port)
    with connect(url) as client:
        # Fresh idempotency keys: every demo run audits the examples afresh (with the current engine).
        subs = client.run(submit_many_flow([(body, None) for _title, body in items]))
        ids = [str(s.id) for s in subs if s.id]
        with err.status(f"waiting for {len(ids)} audits (decompose → embed → match → score)"):
            docs = client.run(poll_flow(ids))
    for (title, body), sub in zip(items, subs, strict=True):
        if sub.id is None:
            console.print(render_audit({"status": "rejected", "error": sub.error}, title=title))
            continue
        doc = docs[str(sub.id)]
        console.rule(f"[bold]{title}")
        console.print("[bold]references[/bold]")
        for i, ref in enumerate(body["references"]):
            console.print(f"  [dim]{i}[/dim] {ref}")
        console.print(f"[bold]response[/bold]\n  {body['response']}")
        console.print(render_audit(doc, title=f"audit {sub.id}"))
        console.print(f"page: {url}/ui/audits/{sub.id}", soft_wrap=True)
    console.print("[bold]audit pages[/bold]")
    for (title, _body), sub in zip(items, subs, strict=True):
        if sub.id is not None:
            console.print(f"  {title}: {url}/ui/audits/{sub.id}", soft_wrap=True)
    console.print(ui_sign_in_hint(url), soft_wrap=True)
    console.print(
        f"[green]{len(ids)} audits through the queue in {time.monotonic() - started:.1f} s[/green] · "
        f"API {url}/docs · Flower http://127.0.0.1:{stack.DEFAULT_FLOWER_PORT} · "
        "`claimaudit down` stops the stack"
    )


checks.register(app)  # canaries, second-audit, correct, labels (cli/checks.py)
analyst.register(app)  # sql-logins, embed, search (cli/analyst.py)
batch_cli.register(app)  # batch (cli/batch.py)


def main() -> None:  # pragma: no cover - console entry point alias
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
