"""Splitting large writes into statements Postgres accepts (at most 65,535 bind parameters each)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: Rows or keys per statement: Postgres takes at most 65,535 bind parameters per statement.
STATEMENT_ROWS = 5_000


def chunks(items: Sequence[Any], size: int = STATEMENT_ROWS) -> list[Sequence[Any]]:
    """``items`` cut into consecutive slices of at most ``size`` (the last may be shorter)."""
    return [items[i : i + size] for i in range(0, len(items), size)]
