"""Listings of the CLI: tables that never cut a value, and ``--json``.

A table that fits the terminal is printed as a table. One wider than the terminal is printed as
one block per row (``column  value`` lines), so a run id is whole on its own line and a value
longer than the line folds onto the next instead of ending in "…". When stdout is not a terminal
(a CI log, a pipe), the table is printed at its natural width, whatever ``COLUMNS`` says.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cli.terminal import SafeConsole

__all__ = ["listing", "print_listing", "print_json"]


def listing(columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str | None = None) -> Table:
    """A table of plain-text cells (no markup is read from them) whose cells fold, never truncate."""
    table = Table(*columns, title=title, box=None, pad_edge=False)
    for column in table.columns:
        column.overflow = "fold"
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


def _natural_width(console: Console, table: Table) -> int:
    wide = console.options.update_width(10**6)
    return Measurement.get(console, wide, table).maximum


def print_listing(
    console: Console, columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str | None = None
) -> None:
    """Print ``rows`` under ``columns`` (see the module docstring for the three layouts)."""
    table = listing(columns, rows, title=title)
    width = _natural_width(console, table)
    if not console.is_terminal:
        SafeConsole(file=console.file, width=max(width, 1), no_color=True, highlight=False).print(table)
        return
    if width <= console.width:
        console.print(table)
        return
    if title:
        console.print(f"[bold]{escape(title)}[/bold]")
    label = max(len(c) for c in columns)
    for row in rows:
        console.rule(style="dim")
        for name, cell in zip(columns, row, strict=True):
            line = Text(f"{name:<{label}}  ", style="dim")
            line.append(cell)
            console.print(line, overflow="fold")


def print_json(console: Console, data: Any) -> None:
    """``data`` as indented JSON on ``console`` (no wrapping, no colour when not a terminal)."""
    text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    console.print(text, soft_wrap=True, markup=False, highlight=False)
