"""Rich rendering of an audit result document (the GET /audits/{id} JSON)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from claims.types import COUNT_NAMES, SCORE_NAMES

VERDICT_STYLE = {
    "supported": "green",
    "inferred": "cyan",
    "contradicted": "bold red",
    "qualification_dropped": "yellow",
    "unsupported": "magenta",
    "outside_scope": "dim",
}


def _fmt(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def claims_table(doc: dict[str, Any]) -> Table:
    """Response claim | best evidence (reference index, chars) and the reason | sim | verdict.

    Narrow terminals (80 columns) shrink the two text columns, never the verdict: its column does
    not wrap and is as wide as the longest verdict shown (``qualification_dropped``: 21). The
    verdict's reason sits under the evidence it is about; the similarity column is 5 wide. A
    verdict's ``confidence``, when the audit has one, is shown under it as ``p=0.82``.
    """
    claims = [c for c in doc.get("claims") or [] if c.get("role") == "response"]
    verdict_width = max([len(c.get("verdict") or "—") for c in claims] + [len("verdict")])
    table = Table(show_lines=True, expand=True, title="Response claims")
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("response claim", ratio=1, min_width=12)
    table.add_column("best evidence · reason", ratio=1, min_width=12)
    table.add_column("sim", justify="right", no_wrap=True, width=5)
    table.add_column("verdict", no_wrap=True, min_width=verdict_width)
    for claim in sorted(claims, key=lambda c: c.get("position", 0)):
        evidence = claim.get("evidence") or []
        if evidence:
            best = evidence[0]
            ev_text = Text(best.get("text", ""))
            ev_text.append(
                f"\nref {best.get('reference')}, chars {best.get('start')}–{best.get('end')}", style="dim"
            )
            if len(evidence) > 1:
                ev_text.append(f" (+{len(evidence) - 1} more)", style="dim")
            sim = _fmt(best.get("similarity"))
        else:
            ev_text, sim = Text("—", style="dim"), "—"
        if claim.get("reason"):
            ev_text.append(f"\n→ {claim['reason']}", style="italic")
        verdict = claim.get("verdict") or "—"
        flags = []
        if claim.get("ambiguous"):
            flags.append("ambiguous")
        if (claim.get("duplicates") or 0) > 0:
            flags.append(f"×{claim['duplicates'] + 1}")
        claim_text = Text(claim.get("text", ""))
        if flags:
            claim_text.append(f"  [{', '.join(flags)}]", style="dim")
        verdict_text = Text(verdict, style=VERDICT_STYLE.get(verdict, ""))
        if claim.get("confidence") is not None:  # calibrated probability that the verdict is right
            verdict_text.append(f"\np={claim['confidence']:.2f}", style="dim")
        table.add_row(str(claim.get("position", "")), claim_text, ev_text, sim, verdict_text)
    if not claims:
        table.add_row("", Text("(no response claims)", style="dim"), "", "", "")
    return table


def scores_table(doc: dict[str, Any]) -> Table:
    """Scores and counts side by side; null scores stay null (zero denominators)."""
    table = Table(title="Scores", show_header=True)
    table.add_column("score")
    table.add_column("value", justify="right")
    table.add_column("count")
    table.add_column("n", justify="right")
    scores = doc.get("scores") or {}
    counts = doc.get("counts") or {}
    score_rows = [(k, _fmt(scores.get(k))) for k in SCORE_NAMES if k in scores]
    count_rows = [(k, _fmt(counts.get(k))) for k in COUNT_NAMES if k in counts]
    for i in range(max(len(score_rows), len(count_rows))):
        s = score_rows[i] if i < len(score_rows) else ("", "")
        c = count_rows[i] if i < len(count_rows) else ("", "")
        table.add_row(s[0], s[1], c[0], c[1])
    return table


def edit_script_table(doc: dict[str, Any]) -> Table:
    """The claim edit script: op | response claim | reference claim | reason."""
    table = Table(title="Edit script (response → references)", expand=True)
    table.add_column("op", no_wrap=True)
    table.add_column("response claim", ratio=2)
    table.add_column("reference claim", ratio=2)
    table.add_column("reason", ratio=2, style="dim")
    style = {"insert": "cyan", "delete": "magenta", "substitute": "yellow"}
    for op in doc.get("edit_script") or []:
        name = op.get("op", "")
        table.add_row(
            Text(name, style=style.get(name, "")),
            op.get("response_claim") or "—",
            op.get("reference_claim") or "—",
            op.get("reason") or "",
        )
    if not doc.get("edit_script"):
        table.add_row(Text("(none)", style="dim"), "", "", "")
    return table


def render_audit(doc: dict[str, Any], *, title: str | None = None) -> RenderableType:
    """Everything about one audit: header, claims table, scores, edit script (or the error)."""
    status = doc.get("status", "?")
    head = title or str(doc.get("audit_id") or doc.get("id", ""))
    subtitle = f"status {status}"
    if doc.get("question"):
        subtitle += f" · question: {doc['question']}"
    if status != "done":
        body: RenderableType = Text(doc.get("error") or f"audit is {status}", style="red")
        return Panel(body, title=head, subtitle=subtitle)
    parts: list[RenderableType] = [claims_table(doc), scores_table(doc), edit_script_table(doc)]
    return Panel(Group(*parts), title=head, subtitle=subtitle)


def print_audits(console: Console, docs: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Print (title, document) pairs one after another."""
    for title, doc in docs:
        console.print(render_audit(doc, title=title))
