"""``claimaudit canaries | second-audit | correct | labels``: the audit method's own checks.

Each command talks to a running API (``claimaudit up``; ``--api-url`` or ``CLAIMAUDIT_API_URL``)
and exits 2 when it does not answer. Registered on the main app by ``register``.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from rich.table import Table

from cli import stack
from cli.client import access_problem, error_message
from cli.credentials import api_key_for
from cli.terminal import SafeConsole

console = SafeConsole()
err = SafeConsole(stderr=True)

labels_app = typer.Typer(
    help="Human labels: import reviewers' verdicts, report agreement.", no_args_is_help=True
)

ApiUrl = Annotated[
    str | None,
    typer.Option("--api-url", envvar="CLAIMAUDIT_API_URL", help="API base URL.", show_default=False),
]
Wait = Annotated[bool, typer.Option("--wait/--no-wait", help="Poll until the check's audits are done.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the API's JSON document.")]
Timeout = Annotated[float, typer.Option(help="Seconds to wait with --wait.")]


def _api(api_url: str | None) -> httpx.Client:
    url = (api_url or f"http://127.0.0.1:{stack.DEFAULT_API_PORT}").rstrip("/")
    if not stack.api_healthy(url):
        err.print(f"[bold red]error:[/bold red] the API at {url} does not answer; run `claimaudit up`")
        raise typer.Exit(2)
    key = api_key_for(url)  # CLAIMAUDIT_API_KEY, else the local admin key on loopback (cli.client.Client)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.Client(base_url=url, timeout=120, headers=headers)


def _call(http: httpx.Client, method: str, path: str, body: Any = None) -> dict[str, Any]:
    resp = http.request(method, path, json=body)
    problem = access_problem(resp)  # 401/403: which key to send, or which scope it lacks
    if problem:
        err.print(f"[bold red]error:[/bold red] {problem}")
        raise typer.Exit(2)
    if resp.status_code >= 400:
        err.print(
            f"[bold red]error:[/bold red] {method} {path} answered {resp.status_code}: {error_message(resp)}"
        )
        raise typer.Exit(2)
    data: dict[str, Any] = resp.json()
    return data


def _poll(http: httpx.Client, path: str, done: Any, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    doc = _call(http, "GET", path)
    with err.status("waiting for the check's audits"):
        while not done(doc):
            if time.monotonic() > deadline:
                err.print(
                    f"[yellow]still pending after {timeout:.0f} s; rerun with --no-wait to see it[/yellow]"
                )
                raise typer.Exit(3)
            time.sleep(1.0)
            doc = _call(http, "GET", path)
    return doc


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f} %"


def canaries(
    audit_id: str,
    per_kind: Annotated[int, typer.Option(help="Canaries per fault kind.")] = 3,
    kind: Annotated[
        list[str] | None, typer.Option("--kind", help="Fault kind (repeatable); default all.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Same seed, same canaries.")] = 0,
    wait: Wait = True,
    as_json: AsJson = False,
    timeout: Timeout = 900,
    api_url: ApiUrl = None,
) -> None:
    """Plant known faults in an audit's references, audit them, print the detection rate per kind."""
    body = {"per_kind": per_kind, "kinds": kind, "seed": seed}
    path = f"/audits/{audit_id}/canaries"
    with _api(api_url) as http:
        doc = _call(http, "POST", path, body)
        if wait:
            doc = _poll(http, path, lambda d: d["complete"], timeout)
    if as_json:
        console.print_json(data=doc)
        return
    table = Table(title=f"canaries of audit {audit_id}")
    for col in ("fault", "canaries", "done", "detected", "detection rate", "exact verdict"):
        table.add_column(col)
    for k, row in doc["by_kind"].items():
        if row is None:
            table.add_row(k, "0", "—", "—", "not generated (nothing of this kind in the references)", "—")
        else:
            table.add_row(k, str(row["canaries"]), str(row["done"]), str(row["detected"]),
                          _rate(row["detection_rate"]), _rate(row["exact_rate"]))  # fmt: skip
    console.print(table)
    for c in doc["canaries"]:
        if c["detected"] is False:
            console.print(
                f"[red]missed[/red] {c['kind']}: {c['change']} → verdicts {c['verdicts']} "
                f"(audit {c['canary_audit_id']})"
            )


def second_audit(
    audit_id: str,
    config: Annotated[str | None, typer.Option(help="Second auditor's config overrides (JSON).")] = None,
    wait: Wait = True,
    as_json: AsJson = False,
    timeout: Timeout = 600,
    api_url: ApiUrl = None,
) -> None:
    """Re-audit an audit with a second auditor; print the agreement and the disagreements."""
    try:
        body = {"config": json.loads(config)} if config else {}
    except json.JSONDecodeError as exc:
        err.print(f"[bold red]error:[/bold red] --config is not valid JSON: {exc}")
        raise typer.Exit(2) from exc
    path = f"/audits/{audit_id}/second-audit"
    with _api(api_url) as http:
        doc = _call(http, "POST", path, body)
        if wait:
            doc = _poll(http, path, lambda d: all(s["computed_at"] for s in d["second_audits"]), timeout)
    if as_json:
        console.print_json(data=doc)
        return
    for s in doc["second_audits"]:
        kappa = "—" if s["kappa"] is None else f"{s['kappa']:.3f}"
        console.print(
            f"second audit {s['second_audit_id']} {s['config']}: "
            f"{s['agreed']}/{s['claims']} claims agree, kappa {kappa}"
        )
        for d in s["disagreements"]:
            console.print(
                f"  [yellow]{d['verdict']} ≠ {d['second_verdict']}[/yellow] "
                f"({d['claim_type']}) {d['claim_text']}"
            )


def correct(
    audit_id: str,
    insert_missing: Annotated[
        bool, typer.Option(help="Append the reference claims the response misses.")
    ] = False,
    wait: Wait = True,
    as_json: AsJson = False,
    timeout: Timeout = 600,
    api_url: ApiUrl = None,
) -> None:
    """Build the corrected answer from the edit script, re-audit it, print it and whether it passes."""
    path = f"/audits/{audit_id}/correction"
    with _api(api_url) as http:
        doc = _call(http, "POST", path, {"insert_missing": insert_missing})
        if wait:
            doc = _poll(
                http,
                path,
                lambda d: d["passes"] is not None or d["status"] in ("failed", "rejected"),
                timeout,
            )
    if as_json:
        console.print_json(data=doc)
        return
    for e in doc["diff"]:
        console.print(
            f"  {e['op']:8} [red]{e['before']!r}[/red] → [green]{e['after']!r}[/green]  ({e['reason']})"
        )
    console.print(doc["corrected_text"])
    verdict = {
        True: "[green]passes[/green]",
        False: "[red]does not pass (flagged)[/red]",
        None: "not checked yet",
    }
    console.print(f"re-audit {doc['corrected_audit_id']}: {verdict[doc['passes']]}")


def read_labels(path: Path) -> list[dict[str, Any]]:
    """Labels of a ``.csv`` (header: audit_id, claim, label or verdict, reviewer, note) or
    ``.jsonl`` file (objects with those keys). A blank or missing ``claim`` labels the whole audit.
    Raises ``ValueError`` naming the line of the first bad row."""
    if path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8") as fh:
            rows = [(i + 2, dict(r)) for i, r in enumerate(csv.DictReader(fh))]
    elif path.suffix.lower() in (".jsonl", ".ndjson"):
        rows = []
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                try:
                    rows.append((i, json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{i}: not JSON ({exc})") from None
    else:
        raise ValueError(f"{path}: use a .csv or .jsonl file")
    return [_label_item(path, line, row) for line, row in rows]


def _label_item(path: Path, line: int, row: Any) -> dict[str, Any]:
    if not isinstance(row, dict) or not row.get("audit_id"):
        raise ValueError(f"{path}:{line}: needs audit_id")
    label = row.get("label") or row.get("verdict")
    if not label:
        raise ValueError(f"{path}:{line}: needs label (or verdict)")
    claim = row.get("claim")
    try:
        claim = None if claim in (None, "") else int(claim)
    except (TypeError, ValueError):
        raise ValueError(f"{path}:{line}: claim must be a whole number or blank, got {claim!r}") from None
    item = {"audit_id": str(row["audit_id"]), "claim": claim, "label": str(label).strip()}
    item["reviewer"] = str(row.get("reviewer") or "")
    if row.get("note"):
        item["note"] = str(row["note"])
    return item


@labels_app.command("import")
def labels_import(
    file: Annotated[Path, typer.Argument(help="Labels (.csv or .jsonl).", exists=True, dir_okay=False)],
    reviewer: Annotated[str | None, typer.Option(help="Reviewer for rows that name none.")] = None,
    api_url: ApiUrl = None,
) -> None:
    """Import reviewers' verdicts: all or none (the API lists every bad row)."""
    try:
        items = read_labels(file)
    except ValueError as exc:
        err.print(f"[bold red]error:[/bold red] {exc}")
        raise typer.Exit(2) from exc
    for item in items:
        item["reviewer"] = item["reviewer"] or (reviewer or "")
    with _api(api_url) as http:
        doc = _call(http, "POST", "/labels", {"labels": items})
    console.print(f"stored {doc['stored']} labels from {file}")


@labels_app.command("report")
def labels_report(
    reviewer: Annotated[str | None, typer.Option(help="Only this reviewer's labels.")] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Agreement of the auditor with the human labels: confusion, kappa, balanced accuracy, by claim type."""
    with _api(api_url) as http:
        doc = (
            _call(http, "GET", "/labels/agreement", None)
            if reviewer is None
            else _call(http, "GET", f"/labels/agreement?reviewer={reviewer}")
        )
    if as_json:
        console.print_json(data=doc)
        return
    for level in ("claims", "audits"):
        r = doc[level]
        if not r["n"]:
            continue
        table = Table(
            title=f"{level}: n={r['n']} kappa={_num(r['kappa'])} "
            f"balanced accuracy={_num(r['balanced_accuracy'])}"
        )
        table.add_column("label \\ auditor")
        for c in r["classes"]:
            table.add_column(c)
        for c, row in zip(r["classes"], r["confusion"], strict=True):
            if any(row):
                table.add_row(c, *map(str, row))
        console.print(table)
    by_type = doc["claims"].get("by_claim_type", {})
    if by_type:
        table = Table(title="claims by type")
        for col in ("type", "n", "accuracy", "kappa", "balanced accuracy"):
            table.add_column(col)
        for t, r in by_type.items():
            table.add_row(t, str(r["n"]), _num(r["accuracy"]), _num(r["kappa"]), _num(r["balanced_accuracy"]))
        console.print(table)


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def register(app: typer.Typer) -> None:
    """Add the check commands to the ``claimaudit`` app."""
    app.command("canaries")(canaries)
    app.command("second-audit")(second_audit)
    app.command("correct")(correct)
    app.add_typer(labels_app, name="labels")
