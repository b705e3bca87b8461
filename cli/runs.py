"""``claimaudit runs ...`` and ``claimaudit suites ...``: list and compare runs, define suites from YAML.

``runs compare A B`` exits 1 when the gate is crossed (so cron or CI fails on a quality drop),
2 on a usage or API error, 0 otherwise. A and B are run ids or ``suite/label``; B may be omitted
(with A) to compare A with the previous run of its suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.markup import escape as esc
from rich.table import Table

from claimaudit import Client
from claimaudit._flows import call, find_run
from cli.client import ApiError, connect, problem
from cli.common import EXIT_UNAVAILABLE, EXIT_USAGE, ApiUrl, AsJson, api_url_of, console, err
from cli.tables import print_json, print_listing

runs_app = typer.Typer(help="Runs of suites: list, compare (with a quality gate).", no_args_is_help=True)
suites_app = typer.Typer(
    help="Suites: apply a YAML file of suite definitions (GET /suites lists them).", no_args_is_help=True
)


#: Retries of a command that only reads or defines (a second or so when the API is down).
QUICK_RETRIES = 1


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    err.print(f"[bold red]error:[/bold red] {esc(message)}")
    return typer.Exit(code)


def _unreachable(exc: ApiError) -> typer.Exit:
    """Exit for a client error: the API's refusal (usage, 2) or no answer (3), never the gate's 1."""
    from claimaudit.errors import APIError, ServiceUnavailable

    code = (
        EXIT_USAGE
        if isinstance(exc, APIError) and not isinstance(exc, ServiceUnavailable)
        else EXIT_UNAVAILABLE
    )
    return _fail(problem(exc), code)


def resolve_run(client: Client, ref: str) -> dict[str, Any]:
    """The run document of ``ref``: a run id, or ``suite/label``; ``ApiError`` when there is none."""
    return client.run(find_run(ref))


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _num(value: float | int | None) -> str:
    return "—" if value is None else f"{value:+.3f}" if isinstance(value, float) else str(value)


def render_comparison(doc: dict[str, Any]) -> None:
    """Print a comparison document as a new user reads it: scores, shares, worse items, claims, gate."""
    base, new = doc["base"], doc["new"]
    console.print(
        f"[bold]{esc(new['suite'])}[/bold] {esc(new['label'])} vs {esc(base['label'])}: "
        f"{doc['items_compared']} items compared, "
        f"{len(doc['items_added'])} added, {len(doc['items_removed'])} removed"
    )
    table = Table("score (new − base)", "mean", "median", "p10", "p90", "improved", "worsened", box=None)
    for name, d in doc["score_deltas"].items():
        table.add_row(
            esc(name), *(_num(d[k]) for k in ("mean", "median", "p10", "p90", "improved", "worsened"))
        )
    console.print(table)
    shares = Table("share of material claims", "before", "after", "Δ points", box=None)
    for name, s in doc["shares"].items():
        delta = "—" if s["delta_points"] is None else f"{s['delta_points']:+.1f}"
        shares.add_row(name, _pct(s["before"]), _pct(s["after"]), delta)
    console.print(shares)
    worse = ", ".join(
        f"{esc(str(w['item_id']))} (contradicted "
        f"{_pct(w['before']['contradicted'])} → {_pct(w['after']['contradicted'])})"
        for w in doc["worse_items"]
    )
    console.print(f"items with a worse verdict mix ({len(doc['worse_items'])}): {worse or 'none'}")
    _claims("changed claims", doc["changed_claims"])
    _claims("new claims", doc["new_claims"])
    _claims("vanished claims", doc["vanished_claims"])
    gate = doc["gate"]
    if gate["crossed"]:
        console.print("[bold red]gate crossed:[/bold red] " + esc("; ".join(gate["crossed"])))
    else:
        console.print(
            "[green]gate passed[/green] "
            + esc(json.dumps({k: v for k, v in gate["limits"].items() if v is not None}))
        )


def _claims(title: str, changes: list[dict[str, Any]]) -> None:
    console.print(f"{title} ({len(changes)}):")
    for c in changes:
        before, after = c["before"], c["after"]
        verdicts = " → ".join(x["verdict"] for x in (before, after) if x is not None)
        console.print(f"  [bold]{esc(str(c['item_id']))}[/bold]  {verdicts}")
        for tag, claim in (("before", before), ("after", after)):
            if claim is None:
                continue
            reason = f"   [dim]({esc(claim['reason'])})[/dim]" if claim["reason"] else ""
            console.print(f"    {tag + ':':8}{esc(claim['text'])}{reason}")
            if claim["evidence"]:
                console.print(f"    {'':8}[dim]evidence: {esc(str(claim['evidence']))}[/dim]")


@runs_app.command("compare")
def compare(
    a: Annotated[str, typer.Argument(help="Base run: id or suite/label (or the new run when B is omitted).")],
    b: Annotated[str | None, typer.Argument(help="New run: id or suite/label.")] = None,
    api_url: ApiUrl = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison document as JSON.")] = False,
    max_contradicted_rise: Annotated[
        float | None, typer.Option(help="Gate: contradicted share may rise by at most this many points.")
    ] = None,
    max_problem_rise: Annotated[
        float | None, typer.Option(help="Gate: contradicted+qualification_dropped+unsupported share, points.")
    ] = None,
    max_f1_drop: Annotated[
        float | None, typer.Option(help="Gate: mean claim_f1 may fall by at most this, points.")
    ] = None,
    max_worse_items: Annotated[
        int | None, typer.Option(help="Gate: at most this many items may get worse.")
    ] = None,
) -> None:
    """Compare run B with base run A claim by claim; exit 1 when the gate (default the suite's) is crossed."""
    params = {
        "contradicted_share_rise": max_contradicted_rise,
        "problem_share_rise": max_problem_rise,
        "f1_drop": max_f1_drop,
        "worse_items": max_worse_items,
    }
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            if b is None:
                new = resolve_run(client, a)
                base_id = "previous"
            else:
                base_id, new = resolve_run(client, a)["id"], resolve_run(client, b)
            query = {k: v for k, v in {"with": base_id, **params}.items() if v is not None}
            doc = client.run(call("GET", f"/runs/{new['id']}/compare", params=query))
    except ApiError as exc:
        raise _unreachable(exc) from exc
    if as_json:
        print_json(console, doc)
    else:
        render_comparison(doc)
    if doc["gate"]["crossed"]:
        raise typer.Exit(1)


@runs_app.command("list")
def list_runs(
    suite: Annotated[str | None, typer.Option(help="Only this suite.")] = None,
    limit: int = 20,
    api_url: ApiUrl = None,
    as_json: AsJson = False,
) -> None:
    """Runs newest first: id, suite, label, status, items, done/failed, mean F1, contradicted share."""
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            params = {k: v for k, v in {"suite": suite, "limit": limit}.items() if v is not None}
            page = client.run(call("GET", "/runs", params=params))
    except ApiError as exc:
        raise _unreachable(exc) from exc
    if as_json:
        print_json(console, page)
        return
    columns = ("id", "suite", "label", "status", "items", "done", "failed", "mean F1", "contradicted")
    print_listing(console, columns, [_run_row(run) for run in page["items"]])


def _run_row(run: dict[str, Any]) -> list[str]:
    """One row of ``runs list``: the id in full (``runs compare`` takes it)."""
    s = run["summary"] or {}
    counts = s.get("counts", {})
    f1 = (s.get("scores") or {}).get("claim_f1")
    return [
        run["id"],
        run["suite"],
        run["label"],
        run["status"],
        str(s.get("items", "")),
        str(counts.get("done", "")),
        str(counts.get("failed", "")),
        "—" if f1 is None else f"{f1:.3f}",
        _pct((s.get("shares") or {}).get("contradicted")),
    ]


@suites_app.command("apply")
def apply(
    path: Annotated[Path, typer.Argument(help="YAML: suites: {name: {cron, source: {jsonl|sql}, ...}}")],
    api_url: ApiUrl = None,
) -> None:
    """Create or replace every suite of a YAML file through PUT /suites/{name}."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise _fail(f"{path}: {exc}") from exc
    suites = data.get("suites") if isinstance(data, dict) else None
    if not isinstance(suites, dict) or not suites:
        raise _fail(f"{path}: expected a mapping 'suites: {{name: definition}}'")
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            for name, body in suites.items():
                doc = client.suites.put(str(name), body or {})
                console.print(esc(f"suite {doc.name}: cron {doc.cron or '—'}, source {doc.source}"))
    except ApiError as exc:
        raise _unreachable(exc) from exc
