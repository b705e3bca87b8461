"""``claimaudit runs ...`` and ``claimaudit suites ...``: list, show and compare runs, pin a
baseline, define, list and delete suites.

``runs compare A B`` exits 1 when the gate is crossed (so cron or CI fails on a quality drop),
2 on a usage error or an API refusal, 3 when the API does not answer, 0 otherwise. A and B are
run ids or ``suite/label``; B may be omitted (with A) to compare A with its suite's baseline.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.markup import escape as esc

from claimaudit import Client
from claimaudit._flows import call, find_run
from claimaudit.errors import NotFound
from cli.batch_report import no_baseline_note
from cli.client import ApiError, connect
from cli.common import (
    EXIT_GATE,
    EXIT_USAGE,
    ApiUrl,
    AsJson,
    api_url_of,
    client_exit,
    console,
    err,
    fail,
)
from cli.compare_view import render_comparison
from cli.tables import print_json, print_listing

runs_app = typer.Typer(
    help="Runs of suites: list, show, compare (with a quality gate), pin a baseline.", no_args_is_help=True
)
suites_app = typer.Typer(
    help="Suites: apply a YAML file of suite definitions, list, delete.", no_args_is_help=True
)


#: Retries of a command that only reads or defines (a second or so when the API is down).
QUICK_RETRIES = 1


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    err.print(f"[bold red]error:[/bold red] {esc(message)}")
    return typer.Exit(code)


def resolve_run(client: Client, ref: str) -> dict[str, Any]:
    """The run document of ``ref``: a run id, or ``suite/label``; ``ApiError`` when there is none."""
    return client.run(find_run(ref))


@runs_app.command("compare")
def compare(
    a: Annotated[str, typer.Argument(help="Base run: id or suite/label (or the new run when B is omitted).")],
    b: Annotated[str | None, typer.Argument(help="New run: id or suite/label.")] = None,
    api_url: ApiUrl = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole comparison document as JSON.")
    ] = False,
    short: Annotated[bool, typer.Option("--short", help="Print only the verdict and the counts.")] = False,
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
    max_worse_share: Annotated[
        float | None, typer.Option(help="Gate: at most this per cent of the compared items may get worse.")
    ] = None,
    max_unscored_share: Annotated[
        float | None,
        typer.Option(
            help="Gate: at most this per cent of run B's items may be unscored (rejected or failed)."
        ),
    ] = None,
) -> None:
    """Compare run B with base run A (without B: A with its suite's baseline); exit 1 when the
    gate (default the suite's) is crossed. Any --max-… option replaces the whole gate: the limits
    given are the only ones checked (give every limit you want held)."""
    params = {
        "contradicted_share_rise": max_contradicted_rise,
        "problem_share_rise": max_problem_rise,
        "f1_drop": max_f1_drop,
        "worse_items": max_worse_items,
        "worse_items_share": max_worse_share,
        "unscored_items_share": max_unscored_share,
    }
    doc = _comparison(api_url_of(api_url), a, b, checked_limits(params))
    if as_json:
        print_json(console, doc)
    else:
        render_comparison(console, doc, short=short)
    if doc["gate"]["crossed"]:
        raise typer.Exit(EXIT_GATE)


#: The ``runs compare`` option of each gate limit.
LIMIT_OPTIONS: dict[str, str] = {
    "contradicted_share_rise": "--max-contradicted-rise",
    "problem_share_rise": "--max-problem-rise",
    "f1_drop": "--max-f1-drop",
    "worse_items": "--max-worse-items",
    "worse_items_share": "--max-worse-share",
    "unscored_items_share": "--max-unscored-share",
}


def checked_limits(params: dict[str, float | int | None]) -> dict[str, float | int]:
    """The gate limits given (None left out), each checked against its range
    (``claims.run_diff.Gate.from_dict``, the API's own check: shares and points 0 to 100,
    ``--max-worse-items`` a whole number ≥ 0, every one finite); exit 2 naming the option
    before the API is asked."""
    from claims.run_diff import Gate  # numpy and scipy: loaded only for a comparison

    limits = {k: v for k, v in params.items() if v is not None}
    for key, value in limits.items():
        try:
            Gate.from_dict({key: value})
        except ValueError as exc:
            reason = str(exc).split(": ", 1)[-1]
            raise _fail(f"{LIMIT_OPTIONS.get(key, key)}: {reason}") from None
    return limits


def _comparison(url: str, a: str, b: str | None, limits: dict[str, Any]) -> dict[str, Any]:
    """The comparison document of ``runs compare A [B]`` with the gate ``limits`` given; exits 2
    or 3 on the API's refusal or absence, 2 with the reason when A has no baseline."""
    new: dict[str, Any] | None = None
    try:
        with connect(url, max_retries=QUICK_RETRIES) as client:
            if b is None:
                new, base_id = resolve_run(client, a), "baseline"
            else:
                base_id, new = resolve_run(client, a)["id"], resolve_run(client, b)
            query = {"with": base_id, **limits}
            return dict(client.run(call("GET", f"/runs/{new['id']}/compare", params=query)))
    except NotFound as exc:
        if b is None and new is not None:
            _no_baseline(new)  # the run was found, its baseline was not
        raise client_exit(exc) from exc
    except ApiError as exc:
        raise client_exit(exc) from exc


def _no_baseline(run: dict[str, Any]) -> None:
    """Exit 2 with the reason: ``run`` has no baseline to compare with (the suite's first finished
    run, or no earlier run's gate held), naming its own gate's outcome."""
    summary = run.get("summary") or {}
    crossed = (summary.get("gate") or {}).get("crossed") or []
    own = "crossed: " + "; ".join(crossed) if crossed else "held"
    raise fail(
        f"run {run['suite']}/{run['label']} has no baseline (the suite's first finished run, or no "
        f"earlier run's gate held); its own gate {own}. Compare two runs: runs compare A B",
        code=EXIT_USAGE,
    )


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


@runs_app.command("show")
def show(
    ref: Annotated[str, typer.Argument(help="Run: id or suite/label.")],
    api_url: ApiUrl = None,
    as_json: AsJson = False,
) -> None:
    """One run: status, counts (rejected lines too, each with its line and reason), verdict mix,
    mean scores, the baseline it was compared with and its gate."""
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            run = resolve_run(client, ref)
            doc = client.run(call("GET", f"/runs/{run['id']}", params={"limit": 1}))
            if doc.get("rejections_total", 0) > len(doc.get("rejections") or []):
                # GET /runs/{id} holds the first page: every rejected line is streamed
                doc["rejections"] = list(client.runs.rejections(str(run["id"])))
    except ApiError as exc:
        raise client_exit(exc) from exc
    doc.pop("audits", None)
    if as_json:
        print_json(console, doc)
        return
    print_run(doc)


@runs_app.command("items")
def items(
    ref: Annotated[str, typer.Argument(help="Run: id or suite/label.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the JSON lines here (default: stdout).")
    ] = None,
    documents: Annotated[
        bool, typer.Option(help="Add each item's full result document (what GET /audits/{id} answers).")
    ] = False,
    api_url: ApiUrl = None,
) -> None:
    """Every item of a run, one JSON line each, in item order: id, audit, status, scores, verdict
    counts (streamed from GET /runs/{id}/items: written as it arrives, whatever the run's size)."""
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            lines = client.runs.items(ref, documents=documents)
            if output is None:
                for item in lines:
                    typer.echo(json.dumps(item, ensure_ascii=False))
                return
            n = 0
            with output.open("w", encoding="utf-8") as fh:
                for item in lines:
                    fh.write(json.dumps(item, ensure_ascii=False) + "\n")
                    n += 1
    except ApiError as exc:
        raise client_exit(exc) from exc
    except OSError as exc:  # an output file that cannot be written is a usage error, not a traceback
        raise _fail(f"cannot write {output}: {exc.strerror or exc}") from None
    err.print(f"{n} items written to {esc(str(output))}", soft_wrap=True)


def print_run(doc: dict[str, Any]) -> None:
    """``runs show``'s text: one fact a line, every rejected line listed."""
    s = doc.get("summary") or {}
    counts = ", ".join(f"{n} {k}" for k, n in (s.get("counts") or {}).items())
    verdicts = ", ".join(f"{n} {v}" for v, n in (s.get("verdicts") or {}).items() if n)
    scores = ", ".join(f"{k} {v:.3f}" for k, v in (s.get("scores") or {}).items() if v is not None)
    console.print(f"[bold]{esc(doc['suite'])}/{esc(doc['label'])}[/bold]  {doc['id']}", soft_wrap=True)
    console.print(f"status {doc['status']}; {s.get('items', 0)} items: {counts or '—'}")
    console.print(f"verdicts: {verdicts or '—'}; mean {scores or '—'}")
    base, gate = s.get("baseline"), s.get("gate")
    if base:
        console.print(
            f"baseline: {esc(base['label'])} ({esc(base['chosen'])}; run {base['run_id']})", soft_wrap=True
        )
    if gate:
        crossed = gate.get("crossed") or []
        note = "" if base else " " + no_baseline_note(gate)
        console.print(
            "gate " + ("[red]crossed[/red]: " + esc("; ".join(crossed)) if crossed else "held") + note
        )
    rejections = doc.get("rejections") or []
    console.print(f"rejected lines ({len(rejections)}):" if rejections else "no rejected line")
    for r in rejections:
        where = f"line {r['line']}" if r.get("line") else f"item {r.get('item_id')}"
        reason = str(r["reason"])
        # a numbered line's reason names its line already ("line 3: …", "line 2 is not UTF-8 …")
        text = reason if reason.startswith((f"{where}:", f"{where} ")) else f"{where}: {reason}"
        console.print(f"  {esc(text)}", soft_wrap=True)


@runs_app.command("baseline")
def baseline(
    suite: Annotated[str, typer.Argument(help="The suite.")],
    ref: Annotated[str, typer.Argument(help="The run to compare later runs with: id or label.")],
    api_url: ApiUrl = None,
) -> None:
    """Pin RUN as SUITE's baseline: later runs, `runs compare` and webhooks compare with it."""
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            run = resolve_run(client, ref if _is_id(ref) else f"{suite}/{ref}")
            if run["suite"] != suite:
                raise _fail(f"run {ref} is a run of suite {run['suite']!r}, not {suite!r}")
            pinned = client.run(call("PUT", f"/runs/{run['id']}/baseline"))
    except ApiError as exc:
        raise client_exit(exc) from exc
    console.print(f"baseline of {esc(suite)}: {esc(pinned['label'])} ({pinned['run_id']})", soft_wrap=True)


def _is_id(ref: str) -> bool:
    try:
        uuid.UUID(ref)
    except ValueError:
        return False
    return True


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
        raise client_exit(exc) from exc
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
    _check_gates(path, suites)
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            for name, body in suites.items():
                doc = client.suites.put(str(name), body or {})
                console.print(esc(f"suite {doc.name}: cron {doc.cron or '—'}, source {doc.source}"))
    except ApiError as exc:
        raise client_exit(exc) from exc


def _check_gates(path: Path, suites: dict[Any, Any]) -> None:
    """Exit 2 naming the suite and the limit when a suite's ``gate`` is not a valid one
    (``claims.run_diff.Gate.from_dict``, the API's check), before any suite is sent: a file
    with one bad gate changes no suite."""
    from claims.run_diff import Gate  # numpy and scipy: loaded only when a file has a gate

    for name, body in suites.items():
        gate = body.get("gate") if isinstance(body, dict) else None
        if gate is None:
            continue
        try:
            if not isinstance(gate, dict):
                raise ValueError(f"gate: must be a mapping of limits, got {type(gate).__name__}")
            Gate.from_dict(gate)
        except ValueError as exc:
            raise _fail(f"{path}: suite {name}: {exc}; no suite was changed") from None


@suites_app.command("list")
def list_suites(api_url: ApiUrl = None, as_json: AsJson = False) -> None:
    """The suites: name, cron, source, gate, webhook."""
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            page = client.run(call("GET", "/suites"))
    except ApiError as exc:
        raise client_exit(exc) from exc
    if as_json:
        print_json(console, page)
        return
    rows = [
        [
            s["name"],
            s["cron"] or "—",
            " ".join(f"{k}: {v}" for k, v in (s["source"] or {}).items()) or "—",
            ", ".join(f"{k} {v}" for k, v in (s["gate"] or {}).items() if v is not None) or "default",
            (s["webhook"] or {}).get("url", "—"),
        ]
        for s in page["items"]
    ]
    print_listing(console, ("name", "cron", "source", "gate", "webhook"), rows)


@suites_app.command("delete")
def delete(name: Annotated[str, typer.Argument(help="The suite.")], api_url: ApiUrl = None) -> None:
    """Delete a suite (its schedule, source, gate and webhook); its runs stay."""
    try:
        with connect(api_url_of(api_url), max_retries=QUICK_RETRIES) as client:
            client.suites.delete(name)
    except ApiError as exc:
        raise client_exit(exc) from exc
    console.print(f"suite {esc(name)} deleted (its runs stay)")
