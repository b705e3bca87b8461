"""``claimaudit runs compare`` as a person reads it: the verdict and the counts first, then each
worse item with its real change (verdict before → after and the claim), nothing else.

``--short`` prints only the head; ``--json`` prints the whole comparison document.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.markup import escape as esc

__all__ = ["render_comparison", "item_changes"]


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _points(value: float | None) -> str:
    return "—" if value is None else f"{value:+.1f}"


def item_changes(doc: dict[str, Any], item_id: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The claim changes of one item: ``(verdict before, verdict after, claim)``; a new claim
    comes from ``(none)``, a vanished one goes to ``(gone)``."""
    for change in doc["changed_claims"]:
        if change["item_id"] == item_id:
            yield change["before"]["verdict"], change["after"]["verdict"], change["after"]
    for change in doc["new_claims"]:
        if change["item_id"] == item_id:
            yield "(none)", change["after"]["verdict"], change["after"]
    for change in doc["vanished_claims"]:
        if change["item_id"] == item_id:
            yield change["before"]["verdict"], "(gone)", change["before"]


def _head(console: Console, doc: dict[str, Any]) -> None:
    base, new, gate = doc["base"], doc["new"], doc["gate"]
    if gate["crossed"]:
        console.print("[bold red]gate crossed[/bold red]: " + esc("; ".join(gate["crossed"])))
    else:
        limits = ", ".join(f"{k} {v}" for k, v in gate["limits"].items() if v is not None)
        console.print(f"[bold green]gate held[/bold green] ({esc(limits or 'no limits')})")
    chosen = (doc.get("baseline") or {}).get("chosen", "given")
    console.print(
        f"[bold]{esc(new['suite'])}[/bold] {esc(new['label'])} vs {esc(base['label'])} "
        f"(baseline: {esc(chosen)}; run {base['id']})",
        soft_wrap=True,
    )
    console.print(
        f"{doc['items_compared']} items compared, {len(doc['items_added'])} added, "
        f"{len(doc['items_removed'])} removed; {len(doc['worse_items'])} worse; claims: "
        f"{len(doc['changed_claims'])} changed verdict, {len(doc['new_claims'])} new, "
        f"{len(doc['vanished_claims'])} vanished"
    )
    shares = ", ".join(
        f"{name} {_pct(s['before'])} → {_pct(s['after'])} ({_points(s['delta_points'])})"
        for name, s in doc["shares"].items()
    )
    f1 = doc["score_deltas"].get("claim_f1", {}).get("mean")
    f1_text = "—" if f1 is None else f"{100 * f1:+.1f} points"
    console.print(f"shares of material claims: {shares or '—'}; mean claim_f1 {f1_text}")


def render_comparison(console: Console, doc: dict[str, Any], *, short: bool = False) -> None:
    """Print a comparison document (``GET /runs/{id}/compare``): the head, then (unless
    ``short``) each worse item with its claim changes."""
    _head(console, doc)
    if short:
        return
    worse = doc["worse_items"]
    console.print(f"worse items ({len(worse)}):" if worse else "no item got worse")
    for item in worse:
        console.print(f"  [bold]{esc(str(item['item_id']))}[/bold]")
        changes = list(item_changes(doc, item["item_id"]))
        for before, after, claim in changes:
            reason = f" [dim]({esc(claim['reason'])})[/dim]" if claim.get("reason") else ""
            console.print(f"    {before} → {after}: {esc(claim['text'])}{reason}", soft_wrap=True)
        if not changes:
            console.print("    [dim](same claims and verdicts, another mix of counts)[/dim]")
    if not short and (doc["changed_claims"] or doc["new_claims"] or doc["vanished_claims"]):
        console.print("[dim]every changed, new and vanished claim: --json[/dim]")
