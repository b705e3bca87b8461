"""Small server-side SVG charts for the run pages (no chart library, nothing fetched: offline).

Each chart says its numbers in text too (labels, ``<title>`` tooltips, an ``aria-label``), so
neither colour nor the picture is the only way to read it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from markupsafe import Markup

from api.ui.legend import VERDICT_STYLES

__all__ = ["histogram", "verdict_bar"]


def verdict_bar(counts: Mapping[str, int], *, width: int = 560, height: int = 34) -> Markup:
    """A stacked horizontal bar of verdict counts (keys: ``VERDICT_STYLES`` names), each segment
    in its verdict's colour, labelled with its symbol and count where it is wide enough."""
    total = sum(max(0, int(counts.get(v, 0))) for v in VERDICT_STYLES)
    parts = [f"{counts.get(v, 0)} {s.label}" for v, s in VERDICT_STYLES.items() if counts.get(v, 0)]
    label = escape(", ".join(parts) if parts else "no verdicts")
    out = [
        f'<svg class="chart verdict-bar" role="img" aria-label="{label}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">'
    ]
    x = 0.0
    for name, style in VERDICT_STYLES.items():
        n = max(0, int(counts.get(name, 0)))
        if not total or not n:
            continue
        w = width * n / total
        out.append(
            f'<rect data-verdict="{name}" x="{x:.2f}" y="0" width="{w:.2f}" height="{height}" '
            f'fill="{style.colour}"><title>{n} {escape(style.label)} ({100 * n / total:.0f}%)</title></rect>'
        )
        if w >= 34:
            out.append(
                f'<text x="{x + w / 2:.2f}" y="{height / 2 + 5:.1f}" text-anchor="middle" '
                f'fill="#fff" font-size="13" font-weight="600">{escape(style.symbol)} {n}</text>'
            )
        x += w
    if not total:
        out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="#eee"></rect>')
    out.append("</svg>")
    return Markup("".join(out))


def histogram(
    values: Sequence[float | None], *, bins: int = 10, width: int = 260, height: int = 110, name: str = ""
) -> Markup:
    """A histogram of ``values`` in [0, 1] (``bins`` equal bins, the last one closed; None skipped),
    with each bar's count above it and the axis ends (0, 1) below."""
    counts = [0] * bins
    for v in values:
        if v is None:
            continue
        counts[min(bins - 1, max(0, int(float(v) * bins)))] += 1
    top = max(counts) or 1
    plot_h, bar_w = height - 30, width / bins
    n = sum(counts)
    out = [
        f'<svg class="chart histogram" role="img" aria-label="{escape(name)}: {n} audits in {bins} bins" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'data-counts="{" ".join(map(str, counts))}">'
    ]
    for i, c in enumerate(counts):
        h = plot_h * c / top
        x, y = i * bar_w, 14 + plot_h - h
        lo, hi = i / bins, (i + 1) / bins
        out.append(
            f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}" fill="#0072B2">'
            f"<title>{c} audit(s) with {escape(name)} in [{lo:.1f}, {hi:.1f}{']' if i == bins - 1 else ')'}"
            "</title></rect>"
        )
        if c:
            mid = x + bar_w / 2
            out.append(f'<text x="{mid:.1f}" y="{y - 3:.1f}" text-anchor="middle" font-size="10">{c}</text>')
    base = 14 + plot_h
    out.append(f'<line x1="0" y1="{base}" x2="{width}" y2="{base}" stroke="#999"></line>')
    out.append(f'<text x="0" y="{height - 2}" font-size="10">0</text>')
    out.append(f'<text x="{width}" y="{height - 2}" font-size="10" text-anchor="end">1</text>')
    out.append(
        f'<text x="{width / 2}" y="{height - 2}" font-size="10" text-anchor="middle">{escape(name)}</text>'
    )
    out.append("</svg>")
    return Markup("".join(out))
