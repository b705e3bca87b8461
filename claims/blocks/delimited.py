"""Delimited text (CSV, TSV): a table written with commas, tabs or semicolons, read as the same
table in Markdown is (``claims.blocks.tables``): one claim per body cell about the row's
subject, the column header as predicate, the span the cell's characters in the original.

Detection is strict, so that prose with commas is never read as a table: Python's
``csv.Sniffer`` picks the delimiter (``,``, tab, ``;``) and quoting (RFC 4180), and then every
line must be one record (no quoted line breaks) of the same number of fields, at least two, on
at least two lines; the first line must read as a header (:func:`header_like`); the fields
must be joined as a program writes them (a tab, ``;``, a comma with no blank after it) or one
column hold a digit in every data cell; no line may end a sentence (``.``, ``!``, ``?``) and
no field be a sentence of its own (more than ``_MAX_CELL_WORDS`` words).
"""

from __future__ import annotations

import csv
import re

from claims.blocks.tables import Cell, table_facts

__all__ = ["delimited_rows", "delimited_facts", "header_like"]

#: most words in a header field; most in a data field (a longer one is a sentence)
_MAX_HEADER_WORDS = 4
_MAX_CELL_WORDS = 12
_DELIMITERS = ",\t;"
_DIGIT = re.compile(r"\d")
#: words of a clause, never of a column name: pronouns, finite forms of "be"/"have"/"do",
#: conjunctions and time adverbs that join sentences ("I visited Oslo, Bergen and Tromsø")
_CLAUSE_WORDS = frozenset(
    (  # noqa: SIM905 - one word list reads and extends more easily
        "i me my we us our you your he him his she her it its they them their this that these those "
        "is are was were am be been has have had do does did will would can could should may might "
        "and but or so then because when while if also there"
    ).split()
)
_WORD = re.compile(r"[^\W\d_]")


def header_like(fields: list[str]) -> bool:
    """A row of column names: every field non-empty, distinct (case-blind), of one to
    ``_MAX_HEADER_WORDS`` words with a letter and no digit (a year or a figure is data), none
    ending a sentence (``.``, ``!``, ``?``) and none with a word of a clause (``_CLAUSE_WORDS``:
    a pronoun, a form of "be" or "have", a conjunction).

    >>> header_like(["name", "built", "length (km)"]), header_like(["Name", "Name"])
    (True, False)
    >>> header_like(["Storgata 1", "Oslo"]), header_like(["I visited Oslo", "Bergen and Tromsø"])
    (False, False)
    """
    names = [" ".join(f.split()) for f in fields]
    if len({n.lower() for n in names}) != len(names):
        return False
    for n in names:
        if not n or len(n.split()) > _MAX_HEADER_WORDS or _DIGIT.search(n) or not _WORD.search(n):
            return False
        if n.endswith((".", "!", "?")) or any(w in _CLAUSE_WORDS for w in re.findall(r"\w+", n.lower())):
            return False
    return True


def _dialect(text: str) -> type[csv.Dialect] | None:
    try:
        return csv.Sniffer().sniff(text, delimiters=_DELIMITERS)
    except csv.Error:
        return None


def _machine_written(dialect: type[csv.Dialect], rows: list[list[str]]) -> bool:
    """Fields joined by a tab or ``;``, or by commas with no blank after them ("a,b,c"):
    prose puts a blank after each comma."""
    if dialect.delimiter != ",":
        return True
    return not dialect.skipinitialspace and not any(f[:1].isspace() for r in rows for f in r)


def _typed_column(rows: list[list[str]]) -> bool:
    """A column whose every data cell holds a digit under a header with none (a year, a figure):
    the first row names the columns (the test of ``csv.Sniffer.has_header``: a header's type
    differs from its column's)."""
    return any(all(_DIGIT.search(r[j]) for r in rows[1:]) for j in range(len(rows[0])))


def _spans(line: str, base: int, fields: list[str], delimiter: str) -> list[Cell]:
    """The cells of one line: each field with its span in the text (``base``: the line's
    offset), found in order; a field written with escaped quotes spans its raw piece."""
    out, cursor = [], 0
    for field in fields:
        value = field.strip()
        at = line.find(value, cursor) if value else -1
        if at < 0:  # escaped quotes ('""'): the raw piece up to the next delimiter
            end = line.find(delimiter, cursor)
            end = len(line) if end < 0 else end
            out.append(Cell(" ".join(value.split()), base + cursor, base + end))
            cursor = min(end + 1, len(line))
            continue
        out.append(Cell(" ".join(value.split()), base + at, base + at + len(value)))
        cursor = at + len(value)
        nxt = line.find(delimiter, cursor)
        cursor = len(line) if nxt < 0 else nxt + 1
    return out


def delimited_rows(text: str, lo: int, hi: int) -> list[list[Cell]] | None:
    """The rows of ``text[lo:hi]`` read as a delimited table (module notes), each a list of
    :class:`~claims.blocks.tables.Cell` with spans in ``text``, the header first; ``None``
    when the stretch is no such table (prose with commas, one line, ragged rows, no header).

    >>> [c.text for c in delimited_rows("city,rank\\nOslo,1\\n", 0, 17)[1]]
    ['Oslo', '1']
    """
    lines: list[tuple[int, str]] = []
    pos = lo
    for raw in text[lo:hi].split("\n"):
        if raw.strip():
            lines.append((pos, raw.rstrip("\r")))
        pos += len(raw) + 1
    if len(lines) < 2 or any(raw.rstrip().endswith((".", "!", "?")) for _, raw in lines):
        return None
    dialect = _dialect("\n".join(raw for _, raw in lines))
    if dialect is None:
        return None
    parsed = [next(csv.reader([raw], dialect), []) for _, raw in lines]
    width = len(parsed[0])
    if width < 2 or any(len(r) != width for r in parsed) or not header_like(parsed[0]):
        return None
    if any(len(f.split()) > _MAX_CELL_WORDS for r in parsed[1:] for f in r):
        return None
    if not (_machine_written(dialect, parsed) or _typed_column(parsed)):
        return None
    return [
        _spans(raw, base, fields, dialect.delimiter)
        for (base, raw), fields in zip(lines, parsed, strict=True)
    ]


def delimited_facts(text: str, lo: int, hi: int, title: str = "") -> list[tuple[str, int, int]] | None:
    """``(claim text, start, end)`` of each data cell of the delimited table ``text[lo:hi]``,
    as ``claims.blocks.tables.table_facts`` gives them for the same Markdown table (``title``:
    the subject from a heading or lead-in); ``None`` when the stretch is no delimited table."""
    rows = delimited_rows(text, lo, hi)
    if rows is None:
        return None
    return table_facts(rows[0], rows[1:], title)
