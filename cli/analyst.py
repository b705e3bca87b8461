"""The claim store for analysts: ``claimaudit sql-logins``, ``claimaudit embed``, ``claimaudit search``.

``sql-logins create|list|revoke`` make, list and revoke read-only Postgres logins bound to one
tenant (``db.sql_logins``); like ``claimaudit keys`` they talk to the database directly
(``DATABASE_URL``, else the local stack's), as an operator does. ``embed TEXT`` prints the
local model's vector of TEXT as a pgvector literal, to paste into the README's nearest-neighbour
query. ``search Q`` asks a running API (``GET /claims/search``) with its filters. Registered on
the main app by :func:`register`.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape as esc

from claimaudit.errors import ClaimauditError
from cli.client import connect
from cli.common import EXIT_USAGE, ApiUrl, api_url_of, client_exit, fail
from cli.keys import _database_url, _session, _when
from cli.runs import QUICK_RETRIES
from cli.tables import print_json, print_listing
from cli.terminal import SafeConsole

sql_logins_app = typer.Typer(
    help="Read-only SQL logins bound to one tenant (talks to the database directly).", no_args_is_help=True
)
console = SafeConsole()
err = SafeConsole(stderr=True)


@sql_logins_app.command("create")
def create_login(
    tenant: Annotated[str, typer.Option(help="The tenant whose rows the login reads.")],
    name: Annotated[str, typer.Option(help="A label; names the role ca_<tenant>_<name>.")] = "",
    new_tenant: Annotated[
        bool, typer.Option("--new-tenant", help="TENANT may be new (no audits or keys yet): create it.")
    ] = False,
) -> None:
    """Make a read-only login bound to TENANT; its URL (with a password shown once) is the last line.

    A TENANT the deployment does not know is an error (a typo would otherwise make a login
    that sees nothing) unless ``--new-tenant`` is given."""
    from db import sql_logins

    try:
        with _session() as session:
            if not new_tenant and not sql_logins.tenant_exists(session, tenant):
                raise fail(
                    f"tenant {tenant!r} does not exist (no audits, keys or logins); check the name, "
                    "or pass --new-tenant to make a login for a new tenant",
                    code=EXIT_USAGE,
                )
            login, password = sql_logins.create_sql_login(session, tenant_id=tenant, name=name)
    except sql_logins.SqlLoginError as exc:
        raise fail(str(exc), code=EXIT_USAGE) from None
    err.print(
        f"login {login.role} reads tenant {login.tenant_id!r} (SELECT on the analyst views and tables, "
        "no writes); the password is shown once, store it now:"
    )
    print(sql_logins.login_url(_database_url(), login.role, password))


@sql_logins_app.command("list")
def list_logins(
    tenant: Annotated[str | None, typer.Option(help="Only this tenant's logins.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per login, for scripts.")] = False,
) -> None:
    """Every login (revoked ones too): role, tenant, name, created, revoked; never a password."""
    from db import sql_logins

    with _session() as session:
        logins = sql_logins.list_sql_logins(session, tenant_id=tenant)
    rows = [
        {
            "role": x.role,
            "tenant": x.tenant_id,
            "name": x.name,
            "created": _when(x.created_at),
            "revoked": _when(x.revoked_at),
        }
        for x in logins
    ]
    if as_json:
        print_json(console, {"items": rows})
        return
    cells = [[str(v) for v in r.values()] for r in rows]
    print_listing(console, ["role", "tenant", "name", "created", "revoked"], cells)


@sql_logins_app.command("revoke")
def revoke_login(
    role: Annotated[str, typer.Argument(help="The login's role (see `sql-logins list`).")],
) -> None:
    """Revoke a login: its sessions end, its role is dropped, it reads nothing from now on."""
    from db import sql_logins

    try:
        with _session() as session:
            login = sql_logins.revoke_sql_login(session, role)
    except sql_logins.SqlLoginError as exc:
        raise fail(str(exc), code=EXIT_USAGE) from None
    if login is None:
        raise fail(f"no active login {role}", code=EXIT_USAGE)
    console.print(f"revoked {esc(login.role)} (tenant {esc(login.tenant_id)!r})")


def embed(
    text: Annotated[str, typer.Argument(help="The text to embed (e.g. a claim).")],
) -> None:
    """Print the local model's vector of TEXT (all-MiniLM-L6-v2, 384 dimensions, unit length) as a
    pgvector literal, for the README's nearest-neighbour query; offline."""
    from pgvector import Vector

    from claims.embed import default_embedder

    if not text.strip():
        raise fail("TEXT must not be empty or whitespace only", code=EXIT_USAGE)
    vector = default_embedder().embed([text])[0]
    print(Vector(vector).to_text())


def _hits_rows(items: list[dict[str, Any]]) -> list[list[str]]:
    rows = []
    for hit in items:
        run = f"{hit['suite']}/{hit['run_label']}" if hit.get("suite") else ""
        rows.append(
            [
                f"{hit['similarity']:.3f}",
                hit.get("verdict") or "",
                hit["role"] if hit["reference"] is None else f"reference {hit['reference']}",
                hit["text"],
                run,
                str(hit["audit_id"]),
            ]
        )
    return rows


def search(
    q: Annotated[str, typer.Argument(help="Text to look up.")],
    k: Annotated[int, typer.Option("--k", "-k", min=1, max=100, help="How many hits.")] = 10,
    role: Annotated[str | None, typer.Option(help="response or reference.")] = None,
    verdict: Annotated[str | None, typer.Option(help="Only response claims with this verdict.")] = None,
    suite: Annotated[str | None, typer.Option(help="Only audits of runs of this suite.")] = None,
    run: Annotated[str | None, typer.Option(help="Only audits of this run (id or label).")] = None,
    metadata: Annotated[
        str | None,
        typer.Option(help='Only audits whose metadata contains this JSON object, e.g. \'{"model": "m"}\'.'),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the API's JSON document.")] = False,
    api_url: ApiUrl = None,
) -> None:
    """Nearest stored claims of your tenant to Q (GET /claims/search), each with its verdict."""
    filters = {"role": role, "verdict": verdict, "suite": suite, "run": run, "metadata": metadata}
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            doc = client.search(q, k=k, **filters).model_dump(mode="json")
    except ClaimauditError as exc:
        raise client_exit(exc) from None
    if as_json:
        print(json.dumps(doc, indent=2))
        return
    columns = ["similarity", "verdict", "role", "claim", "run", "audit"]
    print_listing(console, columns, _hits_rows(doc["items"]))


def register(app: typer.Typer) -> None:
    """Add ``sql-logins``, ``embed`` and ``search`` to ``app``."""
    app.add_typer(sql_logins_app, name="sql-logins")
    app.command("embed")(embed)
    app.command("search")(search)
