"""Markdown tables (GFM): one claim per body row and column.

Three layouts, told apart by the header row:

* an attribute table (``| Fact | Value |``, ``| Property | Details |``): each row is one
  attribute of the table's subject, named by its title or lead-in ("Brenholm Orchard at a
  glance:"): ``"Brenholm Orchard, area: 22 hectares."``;
* a comparison table (``| Feature | Basic | Pro |``, a generic first header and named
  columns): each column is a subject, each row an attribute: ``"Pro, price: $25."``;
* an entity table (``| Plan | Seats | Price |``): each row is a subject named by its first cell
  (with the first header when it adds a noun: ``"Team tier"``), each column an attribute:
  ``"Team tier, seats: 10."``.

The span of a claim is its cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from claims.blocks.context import fact_text

__all__ = ["Cell", "table_facts"]

#: first-column headers that name no noun of their own ("Norway", not "Norway country")
_GENERIC_ROW = frozenset(
    [
        "name",
        "item",
        "country",
        "city",
        "product",
        "entity",
        "term",
        "field",
        "key",
        "attribute",
        "property",
        "metric",
        "parameter",
        "feature",
        "year",
        "date",
        "person",
        "company",
        "place",
        "label",
        "fact",
        "facts",
        "aspect",
        "category",
        "characteristic",
        "detail",
        "spec",
        "specification",
        "statistic",
        "stat",
    ]
)
#: first headers of an attribute or comparison table (the first column lists attributes)
_ATTRIBUTE_HEADERS = frozenset(
    [
        "fact",
        "facts",
        "attribute",
        "attributes",
        "property",
        "properties",
        "feature",
        "features",
        "field",
        "key",
        "item",
        "metric",
        "parameter",
        "characteristic",
        "aspect",
        "detail",
        "category",
        "spec",
        "specification",
        "statistic",
        "stat",
    ]
) | {""}
#: second headers of an attribute table (the column holds values, not a subject)
_VALUE_HEADERS = frozenset(
    [
        "value",
        "values",
        "detail",
        "details",
        "answer",
        "amount",
        "figure",
        "figures",
        "data",
        "info",
        "information",
        "description",
    ]
) | {""}
_EMPTY = frozenset({"-", "\u2014", "\u2013", "n/a"})


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: its text with markup blanked and its span ``[start, end)`` in the original."""

    text: str
    start: int
    end: int


def _row_subject(label: str, header0: str) -> str:
    h = header0.strip()
    if not h or h.lower() in _GENERIC_ROW or len(h.split()) > 1 or label.lower().endswith(h.lower()):
        return label
    return f"{label} {h.lower()}"


def table_facts(header: list[Cell], rows: list[list[Cell]], title: str) -> list[tuple[str, int, int]]:
    """``(claim text, start, end)`` for each non-empty body cell (module notes). ``title``:
    the table's subject from its heading or lead-in, ``""`` when none."""
    heads = [c.text for c in header]
    first = heads[0].lower() if heads else ""
    attribute = len(heads) >= 2 and first in _ATTRIBUTE_HEADERS
    by_column = attribute and not (len(heads) == 2 and heads[1].lower() in _VALUE_HEADERS)
    out: list[tuple[str, int, int]] = []
    for row in rows:
        if not row or not any(c.text for c in row):
            continue
        label = row[0].text
        if len(row) == 1 or len(heads) == 1:
            cell = row[0]
            out.append((fact_text("", heads[0], cell.text), cell.start, cell.end))
            continue
        for j, cell in enumerate(row[1:], start=1):
            if not cell.text or cell.text.lower() in _EMPTY:
                continue
            column = heads[j] if j < len(heads) else ""
            if attribute and by_column:
                subject, attr = column or title, label
            elif attribute:
                subject, attr = title, label
            else:
                subject, attr = _row_subject(label, heads[0]), column
            if attr:
                out.append((fact_text(subject, attr, cell.text), cell.start, cell.end))
            else:
                out.append((fact_text("", subject, cell.text), cell.start, cell.end))
    return out
