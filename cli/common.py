"""What the CLI's commands share: the API options, finding (or starting) the API, exit codes.

Exit codes of every command (README "Exit codes"): 0 success, 1 a gate crossed (or, for
``audit``, the audit failed), 2 a usage error, 3 the service unreachable or stalled, 4 more
rejected input lines than ``--max-rejected`` allows.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from claimaudit.errors import APIError, ClaimauditError, ServiceUnavailable
from cli import credentials, stack
from cli.client import problem
from cli.terminal import SafeConsole

__all__ = [
    "EXIT_GATE",
    "EXIT_USAGE",
    "EXIT_UNAVAILABLE",
    "EXIT_REJECTED",
    "ApiUrl",
    "ApiPort",
    "AsJson",
    "console",
    "err",
    "fail",
    "api_url_of",
    "ensure_api",
]

EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3
EXIT_REJECTED = 4

console = SafeConsole()
err = SafeConsole(stderr=True)

ApiUrl = Annotated[
    str | None,
    typer.Option(
        "--api-url",
        envvar="CLAIMAUDIT_API_URL",
        help="API base URL; default the local stack's http://127.0.0.1:PORT (CLAIMAUDIT_API_PORT).",
        show_default=False,
    ),
]
ApiPort = Annotated[int, typer.Option("--api-port", help="Port of the local API.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON (full ids and every field).")]


def fail(message: str, code: int = EXIT_GATE) -> typer.Exit:
    """Print ``error: message`` on stderr; return the ``typer.Exit`` of ``code`` to raise."""
    err.print(f"[bold red]error:[/bold red] {escape(message)}")
    return typer.Exit(code)


def client_exit(exc: ClaimauditError) -> typer.Exit:
    """Exit for a client error: the API's refusal (usage, 2) or no answer (3), never the gate's 1."""
    refused = isinstance(exc, APIError) and not isinstance(exc, ServiceUnavailable)
    return fail(problem(exc), EXIT_USAGE if refused else EXIT_UNAVAILABLE)


def api_url_of(api_url: str | None, api_port: int | None = None) -> str:
    """``--api-url``, else the local stack's URL (``api_port``, default ``CLAIMAUDIT_API_PORT``)."""
    return (api_url or f"http://127.0.0.1:{api_port or stack.DEFAULT_API_PORT}").rstrip("/")


def ensure_api(api_url: str | None, api_port: int, *, start: bool = True) -> str:
    """The base URL of a healthy API; starts the local stack when none answers and ``start``.

    An explicit ``--api-url`` that does not answer is an error (we only start local services).
    """
    url = api_url_of(api_url, api_port)
    healthy = stack.api_healthy(url)
    # A local stack whose API answers but whose worker died would leave every audit queued.
    if healthy and (api_url is not None or not stack.managed_worker_dead()):
        _ensure_local_key(url)
        return url
    if api_url is not None:
        raise fail(f"the API at {url} does not answer GET /healthz", code=EXIT_UNAVAILABLE)
    if not start:
        raise fail(f"the local API at {url} is not running; run `claimaudit up`", code=EXIT_UNAVAILABLE)
    err.print(f"[dim]starting the local stack (API on {url}) ...[/dim]")
    try:
        with err.status("starting the local stack") as spinner:
            stack.up(
                stack.StackConfig(api_port=api_port),
                progress=lambda msg: spinner.update(f"starting the local stack: {msg}"),
            )
    except stack.StackError as exc:
        raise fail(str(exc), code=EXIT_UNAVAILABLE) from exc
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
