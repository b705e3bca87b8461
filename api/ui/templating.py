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

from jinja2 import Environment, FileSystemLoader, select_autoescape

from api.ui.audit_view import AuditView, ClaimView
from api.ui.legend import PENDING, VERDICT_STYLES
from api.ui.spans import Piece

__all__ = ["STATIC_DIR", "TEMPLATE_DIR", "environment", "piece_style", "render_standalone"]

TEMPLATE_DIR = Path(__file__).resolve().parents[1] / "templates"
STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
#: Vertical distance between two underline lanes, px (one lane per overlapping claim).
LANE_PX = 6


def piece_style(piece: Piece, claims: list[ClaimView], lanes: int) -> str:
    """Inline CSS of a response text piece: one underline layer per claim covering it, each on
    its claim's lane, drawn with its verdict's pattern (``--u-<verdict>`` in ui.css)."""
    if not piece.marks:
        return ""
    layers = [claims[m] for m in piece.marks]
    images = ", ".join(f"var(--u-{c.style.name})" for c in layers)
    positions = ", ".join(f"0 calc(100% - {c.lane * LANE_PX}px)" for c in layers)
    sizes = ", ".join("100% 4px" for _ in layers)
    return (
        f"background-image: {images}; background-position: {positions}; "
        f"background-size: {sizes}; padding-bottom: {max(lanes, 1) * LANE_PX}px"
    )


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
    env.globals.update(piece_style=piece_style, verdict_styles=VERDICT_STYLES, pending=PENDING)
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
