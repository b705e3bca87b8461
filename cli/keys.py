"""``claimaudit keys``: create, list and revoke API keys, and set tenant budgets (operator tools).

They talk to the database directly (``DATABASE_URL``, else the local stack's), as an operator
bootstrapping a deployment must: the first admin key cannot come from the API. The key is
printed once by ``create``; only its SHA-256 is stored.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated

import typer
from sqlalchemy.orm import Session

from cli.tables import print_json, print_listing
from cli.terminal import SafeConsole
from db.auth_models import SCOPES

app = typer.Typer(help="API keys and tenants (talks to the database directly).", no_args_is_help=True)
console = SafeConsole()
err = SafeConsole(stderr=True)

_DURATION = re.compile(r"^(\d+)([dhm])$")


def parse_expiry(value: str | None, *, now: datetime | None = None) -> datetime | None:
    """``30d`` / ``12h`` / ``90m`` from now, or an ISO 8601 time (UTC when it names no zone);
    None for None. Raises ``typer.BadParameter`` for anything else or a time in the past."""
    if value is None:
        return None
    now = now or datetime.now(UTC)
    match = _DURATION.match(value.strip())
    if match:
        n, unit = int(match.group(1)), match.group(2)
        unit_name = {"d": "days", "h": "hours", "m": "minutes"}[unit]
        when = now + timedelta(**{unit_name: n})
    else:
        try:
            when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            raise typer.BadParameter(f"{value!r}: use 30d, 12h, 90m or an ISO 8601 time") from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
    if when <= now:
        raise typer.BadParameter(f"{value!r} is not in the future")
    return when


def _database_url() -> str:
    if os.environ.get("DATABASE_URL"):
        from service.settings import get_settings

        return get_settings().database_url
    from cli import stack

    return stack.ensure_postgres()


@contextmanager
def _session() -> Iterator[Session]:
    from sqlalchemy.exc import OperationalError, ProgrammingError

    from db.engine import make_engine, make_session_factory, session_scope

    engine = make_engine(_database_url())
    try:
        with session_scope(make_session_factory(engine)) as session:
            yield session
    except ProgrammingError as exc:
        if getattr(exc.orig, "sqlstate", None) != "42P01":  # undefined_table; not e.g. permission denied
            raise
        err.print("[bold red]error:[/bold red] the database has no API keys yet: run `claimaudit up` first")
        raise typer.Exit(2) from None
    except OperationalError as exc:
        err.print(f"[bold red]error:[/bold red] cannot reach the database ({exc.orig}); run `claimaudit up`")
        raise typer.Exit(2) from None
    finally:
        engine.dispose()


def _when(value: datetime | None) -> str:
    return "" if value is None else value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


@app.command()
def create(
    tenant: Annotated[str, typer.Option(help="Tenant of the key (created when new).")],
    scope: Annotated[
        list[str], typer.Option(help=f"Scope, repeatable or comma-separated: {', '.join(SCOPES)}.")
    ],
    name: Annotated[str, typer.Option(help="A label: who or what uses the key.")] = "",
    expires: Annotated[str | None, typer.Option(help="30d, 12h, 90m or an ISO 8601 time.")] = None,
    requests_per_second: Annotated[
        int | None, typer.Option(help="Own limit (0: unlimited); default RATE_LIMIT_PER_SECOND.")
    ] = None,
    audits_per_minute: Annotated[
        int | None, typer.Option(help="Own limit (0: unlimited); default AUDITS_PER_MINUTE.")
    ] = None,
) -> None:
    """Create a key and print it once (only its SHA-256 is stored)."""
    from sqlalchemy.exc import IntegrityError

    from db import auth_repository as keys_repo

    when = parse_expiry(expires)
    scopes = [part.strip() for value in scope for part in value.split(",") if part.strip()]
    try:
        with _session() as session:
            row, key = keys_repo.create_api_key(
                session,
                tenant_id=tenant,
                scopes=scopes,
                name=name,
                expires_at=when,
                requests_per_second=requests_per_second,
                audits_per_minute=audits_per_minute,
            )
            key_id = row.id
    except (ValueError, IntegrityError) as exc:
        detail = str(getattr(exc, "orig", exc)).splitlines()[0]
        err.print(f"[bold red]error:[/bold red] {detail} (tenant: 1-63 letters, digits, _ . -)")
        raise typer.Exit(2) from None
    err.print(
        f"key {key_id} for tenant {tenant!r}, scopes {', '.join(row.scopes)}; shown once, store it now:"
    )
    print(key)


@app.command("list")
def list_keys(
    tenant: Annotated[str | None, typer.Option(help="Only this tenant's keys.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help='{"items": [...]}, one object per key, for scripts.')
    ] = False,
) -> None:
    """Every key (never the key itself): id, prefix, tenant, scopes, expiry, revocation, last use."""
    from db import auth_repository as keys_repo

    with _session() as session:
        rows = [
            {
                "id": str(row.id),
                "prefix": row.prefix,
                "tenant": row.tenant_id,
                "name": row.name,
                "scopes": list(row.scopes),
                "created": _when(row.created_at),
                "expires": _when(row.expires_at),
                "revoked": _when(row.revoked_at),
                "last used": _when(row.last_used_at),
            }
            for row in keys_repo.list_api_keys(session, tenant_id=tenant)
        ]
    if as_json:
        print_json(console, {"items": rows})
        return
    columns = ["id", "prefix", "tenant", "name", "scopes", "created", "expires", "revoked", "last used"]
    cells = [[",".join(v) if isinstance(v, list) else str(v) for v in item.values()] for item in rows]
    print_listing(console, columns, cells)  # never cut: `keys revoke` takes the whole id


@app.command()
def revoke(key_id: Annotated[uuid.UUID, typer.Argument(help="The key's id (see `keys list`).")]) -> None:
    """Revoke a key: from now on it gets 401."""
    from db import auth_repository as keys_repo

    with _session() as session:
        row = keys_repo.revoke_api_key(session, key_id, tenant_id=None)
        if row is None:
            err.print(f"[bold red]error:[/bold red] no key {key_id}")
            raise typer.Exit(2)  # a usage error (cli.common.EXIT_USAGE), not the gate's 1
        tenant = row.tenant_id
    console.print(f"revoked {key_id} (tenant {tenant!r})")


@app.command()
def budget(
    tenant: Annotated[str, typer.Option(help="The tenant.")],
    tokens: Annotated[
        int | None,
        typer.Option(help="LLM tokens per UTC day (0: no LLM work); omit to use DAILY_TOKEN_BUDGET."),
    ] = None,
) -> None:
    """Set the tenant's daily LLM token budget (prompt + completion tokens, from the usage ledger)."""
    from db import auth_repository as keys_repo

    with _session() as session:
        keys_repo.set_tenant_budget(session, tenant, tokens)
    shown = "DAILY_TOKEN_BUDGET (deployment default)" if tokens is None else f"{tokens} tokens a day"
    console.print(f"tenant {tenant!r}: {shown}")
