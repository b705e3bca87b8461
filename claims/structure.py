"""Document structure before sentences: markdown tables, lists with a lead-in, headings,
fenced code blocks and JSON answers.

:func:`segment` cuts a text into :class:`Block` s in document order, each with its exact
character span ``[start, end)`` in the text:

``prose``
    running text (split into sentences and parsed by ``claims.decompose``);
``fact``
    a claim that the structure states outright: one table cell with its row and column
    headers as context (``"Pro plan, price per month: $25"``), or one key/value of a JSON
    object (``"Halvorsen Bridge, length m: 1420"``); the span is the cell (the key and value);
``item``
    a list item with the lead-in line before the list (``"The hotel has:"``) in ``lead``:
    ``lead + item`` is the sentence to decompose, the span stays on the item;
``heading``
    a markdown heading or a list's lead-in line: context, never a claim;
``code``
    a fenced code block: ``outside_scope`` (reason in ``reason``).

Markdown grammar follows CommonMark 0.31 (fences, ATX headings) and the GitHub Flavored
Markdown table extension (a header row, then a delimiter row of ``---`` cells); JSON follows
RFC 8259 (parsed with the standard library's ``json.JSONDecoder.raw_decode`` so each value
keeps its position).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Block", "segment", "table_blocks", "json_blocks"]


@dataclass(frozen=True, slots=True)
class Block:
    """One structural piece of a document; ``text[start:end]`` is its source."""

    kind: str  # prose | fact | item | heading | code
    start: int
    end: int
    text: str = ""  # fact: the claim text; heading: the heading words
    lead: str = ""  # item: the lead-in it continues
    reason: str = ""  # code: why it is outside scope


_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE_DELIM = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_BULLET_LINE = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+\S")
_BULLET_MARK = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+")
#: table row-header column names that add nothing after the row label ("Norway", not
#: "Norway country")
_GENERIC_HEADERS = frozenset(
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
    ]
)
#: last words of a lead-in that the item continues as a sentence ("The hotel has:")
_CONTINUING_LEAD = re.compile(
    r"\b(?:is|are|was|were|has|have|had|include|includes|included|including|offers|offer|"
    r"provides|provide|contains|contain|comprises|such as|like|of|for|to|with|in|at|by|from|"
    r"and|or|are available|were)\s*$",
    re.IGNORECASE,
)


def _lines(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each line, end before its line break."""
    out = []
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        out.append((pos, pos + len(body)))
        pos += len(line)
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Trimmed cell spans of one table row (outer pipes optional, ``\\|`` is no separator)."""
    s, e = _trim(text, start, end)
    if s < e and text[s] == "|":
        s += 1
    if e > s and text[e - 1] == "|" and (e - 2 < s or text[e - 2] != "\\"):
        e -= 1
    cells = []
    cur = s
    i = s
    while i < e:
        if text[i] == "|" and (i == s or text[i - 1] != "\\"):
            cells.append(_trim(text, cur, i))
            cur = i + 1
        i += 1
    cells.append(_trim(text, cur, e))
    return cells


def _strip_md(s: str) -> str:
    return re.sub(r"(\*\*|__|\*|_|`)(.+?)\1", r"\2", s).strip()


def _row_context(label: str, header0: str) -> str:
    h = header0.strip()
    if not h or h.lower() in _GENERIC_HEADERS or len(h.split()) > 1 or label.lower().endswith(h.lower()):
        return label
    return f"{label} {h.lower()}"


def _header_word(h: str) -> str:
    return h if h.isupper() and len(h) > 1 else h[:1].lower() + h[1:]


def table_blocks(text: str, rows: list[tuple[int, int]]) -> list[Block]:
    """``fact`` blocks for a GFM table: ``rows[0]`` the header row, ``rows[1]`` the delimiter
    row, the rest body rows (line spans). One block per non-empty body cell after the first
    column, text ``"<row label> <first header>, <column header>: <cell>"``; a one-column
    table gives ``"<header>: <cell>"``."""
    headers = [_strip_md(text[s:e]) for s, e in _cells(text, *rows[0])]
    out: list[Block] = []
    for rs, re_ in rows[2:]:
        cells = _cells(text, rs, re_)
        if not any(e > s for s, e in cells):
            continue
        label = _strip_md(text[cells[0][0] : cells[0][1]])
        if len(cells) == 1 or len(headers) == 1:
            s, e = cells[0]
            out.append(Block("fact", s, e, f"{headers[0]}: {label}" if headers[0] else label))
            continue
        ctx = _row_context(label, headers[0])
        for j, (s, e) in enumerate(cells[1:], start=1):
            value = _strip_md(text[s:e])
            if not value or value in {"-", "—", "–"}:
                continue
            head = _header_word(headers[j]) if j < len(headers) and headers[j] else ""
            claim = f"{ctx}, {head}: {value}" if head else f"{ctx}: {value}"
            out.append(Block("fact", s, e, claim))
    return out


# --- JSON -----------------------------------------------------------------------------------

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
#: keys whose string value names the object (its subject), in this order of preference
_NAME_KEYS = ("name", "title", "label", "id")
#: further keys that name a record of an array (``[{"city": "Oslo", ...}]``); in one
#: object standing alone, ``"city": "Lindau"`` is a fact of its own
_RECORD_KEYS = ("city", "country", "town", "place", "company", "product")


def _ws(text: str, i: int) -> int:
    m = _WS.match(text, i)
    return m.end() if m else i


def _humanise(key: str) -> str:
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace("_", " ").replace("-", " ")
    return re.sub(r"\s+", " ", words).strip().lower()


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _walk(
    text: str, i: int, path: list[str], ctx: str, out: list[Block], key_start: int, in_array: bool = False
) -> int:
    """Parse the JSON value at ``i``; emit one fact per scalar; return the end index."""
    i = _ws(text, i)
    if text.startswith("{", i):
        return _walk_object(text, i, path, out, in_array)
    if text.startswith("[", i):
        j = _ws(text, i + 1)
        if text.startswith("]", j):
            return j + 1
        while True:
            j = _walk(text, j, path, ctx, out, j, in_array=True)
            j = _ws(text, j)
            if text.startswith("]", j):
                return j + 1
            if not text.startswith(",", j):
                raise ValueError(f"JSON: ',' or ']' expected at {j}")
            j = _ws(text, j + 1)
    value, end = _DECODER.raw_decode(text, i)
    if value is not None and path:
        label = ", ".join(path)
        claim = f"{ctx}, {label}: {_scalar_text(value)}" if ctx else f"{label}: {_scalar_text(value)}"
        out.append(Block("fact", key_start, end, claim[:1].upper() + claim[1:]))
    return int(end)


def _walk_object(text: str, i: int, path: list[str], out: list[Block], in_array: bool = False) -> int:
    members: list[tuple[str, int, int]] = []  # key, key start, value start
    j = _ws(text, i + 1)
    if text.startswith("}", j):
        return j + 1
    while True:
        key, after_key = _DECODER.raw_decode(text, j)
        if not isinstance(key, str):
            raise ValueError(f"JSON: key expected at {j}")
        colon = _ws(text, after_key)
        if not text.startswith(":", colon):
            raise ValueError(f"JSON: ':' expected at {colon}")
        vstart = _ws(text, colon + 1)
        members.append((key, j, vstart))
        end = _skip(text, vstart)
        j = _ws(text, end)
        if text.startswith("}", j):
            break
        if not text.startswith(",", j):
            raise ValueError(f"JSON: ',' or '}}' expected at {j}")
        j = _ws(text, j + 1)
    subject = _subject_key(text, members, in_array)
    ctx = str(_DECODER.raw_decode(text, members[subject][2])[0]) if subject is not None else ""
    for n, (key, kstart, vstart) in enumerate(members):
        if n == subject and (path == [] or in_array):  # the subject is no fact of its own
            continue
        _walk(text, vstart, [*path, _humanise(key)], ctx, out, kstart)
    return j + 1


def _subject_key(text: str, members: list[tuple[str, int, int]], in_array: bool) -> int | None:
    """Index of the member that names an object (its subject): the first name-like key
    (``_NAME_KEYS``) with a string value; for an element of an array also ``_RECORD_KEYS``,
    else the first string value (``[{"code": "NO", "population": 5}]`` -> "NO"); ``None``
    when there is none."""
    strings = [n for n, (_, _, v) in enumerate(members) if text.startswith('"', v)]
    for name in _NAME_KEYS + (_RECORD_KEYS if in_array else ()):
        hit = next((n for n in strings if members[n][0].lower() == name), None)
        if hit is not None:
            return hit
    return strings[0] if in_array and strings else None


def _skip(text: str, i: int) -> int:
    """End index of the JSON value at ``i`` (no facts emitted)."""
    return _walk(text, i, [], "", [], i)


def json_blocks(text: str) -> list[Block] | None:
    """``fact`` blocks for a text that is one JSON object or array (optionally inside a
    ```` ```json ```` fence), one per scalar value, text ``"<name>, <key path>: <value>"``
    (the object's ``name``/``title`` value as context when it has one); ``None`` when the
    text is not JSON."""
    stripped = text.strip()
    lo = text.find(stripped[:1]) if stripped else 0
    hi = lo + len(stripped)
    fence = re.match(r"```(?:json)?\s*\n", stripped)
    if fence and stripped.endswith("```"):
        lo += fence.end()
        hi -= 3
    return _json_span(text, lo, hi, salvage=True)


#: one complete ``"key": scalar`` pair of JSON text (RFC 8259 strings, numbers, literals)
_PAIR = re.compile(
    r'"((?:[^"\\]|\\.){1,80})"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}\]])|true|false)'
)


def _salvage(text: str, lo: int, hi: int) -> list[Block] | None:
    """Facts of the complete ``"key": scalar`` pairs of invalid or truncated JSON in
    ``text[lo:hi]`` (an answer cut off mid-object), ``"<key>: <value>"`` each; ``None`` when
    there is none, so the text goes on as prose (sentence claims)."""
    out = []
    for m in _PAIR.finditer(text, lo, hi):
        value = _DECODER.decode(m.group(2))
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        claim = f"{_humanise(m.group(1))}: {_scalar_text(value)}"
        out.append(Block("fact", m.start(), m.end(), claim[:1].upper() + claim[1:]))
    return out or None


def _json_span(text: str, lo: int, hi: int, *, salvage: bool = False) -> list[Block] | None:
    """``fact`` blocks for ``text[lo:hi]`` when it is one JSON object or array (spans in
    ``text``'s offsets); ``None`` when it is not. With ``salvage``, invalid or truncated
    JSON gives the facts of its complete ``"key": scalar`` pairs (see :func:`_salvage`)."""
    lo = _ws(text, lo)
    if lo >= hi or text[lo] not in "{[":
        return None
    out: list[Block] = []
    try:
        end = _walk(text, lo, [], "", out, lo)
    except (ValueError, IndexError):
        return _salvage(text, lo, hi) if salvage else None
    if text[end:hi].strip():
        return None
    return out


# --- markdown -------------------------------------------------------------------------------


def _is_lead(line: str) -> bool:
    s = line.strip()
    return s.endswith(":") and len(s.split()) <= 8 and not re.search(r"[.!?]\s", s)


#: words of a generic lead-in that announces a list without saying anything about the world
#: ("Key facts:", "Summary:", "Here are the main details:")
_META_WORDS = frozenset(
    (  # noqa: SIM905 - one word list reads and extends more easily
        "a an the some few more other here is are below following key main quick important notable basic "
        "general additional further short brief facts fact details detail summary overview points point "
        "highlights highlight notes note info information data specs specifications features "
        "takeaways things to know at glance in tl dr tldr answer results findings list rundown"
    ).split()
)


def _is_meta_lead(lead: str) -> bool:
    """True when every word of ``lead`` is a generic list announcement (``_META_WORDS``), but
    for the topic it may name after "about", "on" or "of" ("Key facts about the Eiffel Tower")."""
    words = re.findall(r"[a-z]+", _meta_part(lead).lower())
    return bool(words) and all(w in _META_WORDS for w in words)


_ABOUT = re.compile(r"\s+(?:about|on|of|regarding|concerning)\s+(?=\S)", re.IGNORECASE)


def _meta_part(lead: str) -> str:
    """``lead`` up to the first "about"/"on"/"of" ("Key facts" of "Key facts about X")."""
    m = _ABOUT.search(lead)
    return lead[: m.start()] if m else lead


def lead_topic(lead: str) -> str:
    """What a list's lead-in is about: the words after "about"/"on"/"of" of a generic
    announcement ("Key facts about the Eiffel Tower" -> "the Eiffel Tower"), else the lead-in.

    >>> lead_topic("Key facts about the Eiffel Tower"), lead_topic("Opening hours")
    ('the Eiffel Tower', 'Opening hours')
    """
    m = _ABOUT.search(lead)
    if m is None or not _is_meta_lead(lead):
        return lead
    return lead[m.end() :].strip()


def _item_lead(lead: str) -> str:
    """The lead-in put before each item of a list: none for a generic announcement
    ("Key facts"), the words alone when the item continues them ("The hotel has"), else the
    lead-in with its colon ("Bridge: opened in 1989")."""
    if _is_meta_lead(lead):
        return ""
    return lead if _continues(lead) else lead + ":"


def _continues(lead: str) -> bool:
    return bool(_CONTINUING_LEAD.search(lead)) and len(lead.split()) >= 2


def segment(text: str) -> list[Block]:
    """Cut ``text`` into structural blocks in document order (see the module notes).

    Returns
    -------
    list of Block
        Covers every non-blank line of ``text`` once; ``0 <= start <= end <= len(text)``.
        A text with no markdown or JSON structure is one ``prose`` block.

    Examples
    --------
    >>> [b.text for b in segment("| Plan | Price |\\n|---|---|\\n| Pro | $25 |")]
    ['Pro plan, price: $25']
    """
    as_json = json_blocks(text)
    if as_json is not None:
        return as_json
    lines = _lines(text)
    out: list[Block] = []
    prose: list[tuple[int, int]] = []

    def flush() -> None:
        # a short line ending in ":" right before a table, list or code block is its lead-in
        while prose and not text[prose[-1][0] : prose[-1][1]].strip():
            prose.pop()
        if prose and _is_lead(text[prose[-1][0] : prose[-1][1]]):
            ls, le = prose.pop()
            flush()
            out.append(Block("heading", *_trim(text, ls, le), text=_strip_md(text[ls:le].strip()[:-1])))
            return
        if prose:
            out.append(Block("prose", *_trim(text, prose[0][0], prose[-1][1])))
            prose.clear()

    k = 0
    while k < len(lines):
        k = _one_line(text, lines, k, out, prose, flush)
    flush()
    if not any(b.kind in {"prose", "item", "fact"} for b in out):
        # headings with nothing under them ("### Outstanding Guest Actress - 2006" as a whole
        # evidence line) are the text's own statements, not context for a body
        return [Block("prose", b.start, b.end) if b.kind == "heading" else b for b in out]
    return out


def _one_line(
    text: str,
    lines: list[tuple[int, int]],
    k: int,
    out: list[Block],
    prose: list[tuple[int, int]],
    flush: Any,
) -> int:
    """Handle the block starting at line ``k``; return the next line index."""
    s, e = lines[k]
    line = text[s:e]
    fence = _FENCE.match(line)
    if fence:
        flush()
        mark = fence.group(1)
        j = k + 1
        while j < len(lines) and not text[lines[j][0] : lines[j][1]].strip().startswith(mark):
            j += 1
        end = lines[min(j, len(lines) - 1)][1]
        # a fence of JSON data (```json, or a body that parses as an object or array) states
        # facts: one claim per key/value, like a bare JSON answer
        body_end = lines[j][0] if j < len(lines) else end
        as_json = _json_span(text, e, body_end) if k + 1 < len(lines) else None
        if as_json is not None:
            out.extend(as_json)
        else:
            out.append(Block("code", *_trim(text, s, end), reason="code block"))
        return j + 1
    if "|" in line and k + 1 < len(lines) and _TABLE_DELIM.match(text[lines[k + 1][0] : lines[k + 1][1]]):
        flush()
        j = k + 2
        while j < len(lines) and "|" in text[lines[j][0] : lines[j][1]]:
            j += 1
        out.extend(table_blocks(text, lines[k:j]))
        return j
    heading = _HEADING.match(line)
    if heading:
        flush()
        out.append(Block("heading", *_trim(text, s, e), text=_strip_md(heading.group(2))))
        return k + 1
    if line.rstrip().endswith(":") and k + 1 < len(lines) and _BULLET_LINE.match(_next_text(text, lines, k)):
        flush()
        lead = _strip_md(line.strip()[:-1])
        out.append(Block("heading", *_trim(text, s, e), text=lead))
        j = k + 1
        while j < len(lines) and _BULLET_LINE.match(text[lines[j][0] : lines[j][1]]):
            ls, le = lines[j]
            m = _BULLET_MARK.match(text[ls:le])
            item_s = ls + m.end() if m else ls
            out.append(Block("item", *_trim(text, item_s, le), lead=_item_lead(lead)))
            j += 1
        return j
    if line.strip() or prose:
        prose.append((s, e))
    return k + 1


def _next_text(text: str, lines: list[tuple[int, int]], k: int) -> str:
    s, e = lines[k + 1]
    return text[s:e]
