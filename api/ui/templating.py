"""The Jinja2 environment of the ``/ui`` pages and of ``claimaudit audit --html``.

Templates live in ``api/templates/ui``, the stylesheet and the script in ``api/static``; both
ship in the package, nothing is fetched from elsewhere (the pages work offline). A standalone
report inlines the stylesheet and the script, so the one HTML file needs nothing else.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from api.ui.audit_view import AuditView, ClaimView
from api.ui.legend import PENDING, VERDICT_STYLES
from api.ui.spans import Piece

__all__ = ["STATIC_DIR", "TEMPLATE_DIR", "environment", "html_page", "piece_style", "render_standalone"]

TEMPLATE_DIR = Path(__file__).resolve().parents[1] / "templates"
STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
#: Vertical distance between two underline lanes, px (one lane per overlapping claim).
LANE_PX = 6


def piece_style(piece: Piece, claims: list[ClaimView]) -> str:
    """Inline CSS of a response text piece covered by several claims, or by one claim off lane 0:
    one underline layer per claim, each on its claim's lane, drawn with its verdict's pattern
    (``--u-<verdict>`` in ui.css). Empty for the common case, one claim on lane 0, which its
    class ``u-<verdict>`` draws (keeps a 200-claim page small)."""
    layers = [claims[m] for m in piece.marks]
    if len(layers) <= 1 and all(c.lane == 0 for c in layers):
        return ""
    images = ", ".join(f"var(--u-{c.style.name})" for c in layers)
    positions = ", ".join(f"0 calc(100% - {c.lane * LANE_PX}px)" for c in layers)
    sizes = ", ".join("100% 4px" for _ in layers)
    return f"background-image: {images}; background-position: {positions}; background-size: {sizes}"


def claims_data(view: AuditView) -> list[dict[str, Any]]:
    """What the claim detail panel shows, per response claim (read by ui.js): number ``n``,
    verdict ``v`` with ``label``/``sym``, ``text``, span ``start``/``end``, ``conf``, ``reason``,
    and evidence ``ev`` best first (``ref``, ``start``, ``end``, ``sim``, ``rc``: flat reference
    claim indices, ``text``). One JSON array keeps a 200-claim page small."""
    return [
        {
            "n": c.number,
            "v": c.style.name,
            "label": c.style.label,
            "sym": c.style.symbol,
            "text": c.text,
            "start": c.start,
            "end": c.end,
            "conf": None if c.confidence is None else _fmt(float(c.confidence)),
            "reason": c.reason or "",
            "ev": [
                {
                    "ref": e.reference,
                    "start": e.start,
                    "end": e.end,
                    "sim": _fmt(e.similarity),
                    "rc": list(e.targets),
                    "text": e.text,
                }
                for e in c.evidence
            ],  # fmt: skip
        }
        for c in view.claims
    ]


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _time(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M:%S")


def _seconds(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The shared environment (autoescaped HTML, the formatting filters and the legend)."""
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(fmt=_fmt, time=_time, seconds=_seconds)
    env.globals.update(
        piece_style=piece_style, claims_data=claims_data, verdict_styles=VERDICT_STYLES, pending=PENDING
    )
    return env


def render_standalone(view: AuditView, *, title: str) -> str:
    """One self-contained HTML document of an audit: inline CSS and script, no external asset."""
    css = (STATIC_DIR / "ui.css").read_text(encoding="utf-8")
    js = (STATIC_DIR / "ui.js").read_text(encoding="utf-8")
    return (
        environment()
        .get_template("ui/audit.html")
        .render(view=view, steps=None, title=title, inline_css=css, inline_js=js, standalone=True)
    )


def html_page(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """``ui/<template>`` rendered with ``context`` (never cached: pages show live state)."""
    html = environment().get_template(f"ui/{template}").render(**context)
    return HTMLResponse(html, status_code=status_code, headers={"Cache-Control": "no-store"})
