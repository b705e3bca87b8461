"""JSON and YAML answers: one claim per leaf, each with its character span.

Both parsers are the standard ones: JSON (RFC 8259) with ``json.JSONDecoder.raw_decode``, which
returns where each value ends, and YAML 1.1 with PyYAML's ``yaml.compose`` (SafeLoader), whose
nodes carry their start and end marks. Both give the same small tree (:class:`Node`), and
:func:`leaf_facts` turns it into ``fact`` blocks: ``"<subject>, <key path>: <value>."``, the
subject from the object's name field (``name``, ``title``, ``label``, ``id``; in an array also
``city``, ``country``, ... or its first string), else from the context (the heading or
lead-in above the data); the keys above a leaf name it after the subject (a parent key with
no subject before it reads as the subject: ``{"skarvik_ferry": {"cars": 60}}`` -> "Skarvik
ferry, cars: 60."); the span runs from the key to the value.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import yaml

from claims.blocks.types import Block
from claims.facets.vocabulary import UNITS

__all__ = ["Node", "json_tree", "yaml_tree", "leaf_facts", "json_blocks", "salvage_pairs"]


@dataclass(slots=True)
class Node:
    """One value of parsed data: ``kind`` ``map`` | ``seq`` | ``scalar``; ``text[start:end]``
    is its source; ``members`` (key, key start, value) of a map; ``items`` of a sequence."""

    kind: str
    start: int
    end: int
    value: object = None
    members: list[tuple[str, int, Node]] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)


_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
_NAME_KEYS = ("name", "title", "label", "id")
_RECORD_KEYS = ("city", "country", "town", "place", "company", "product")


def _ws(text: str, i: int) -> int:
    m = _WS.match(text, i)
    return m.end() if m else i


def _json_value(text: str, i: int) -> Node:
    i = _ws(text, i)
    if text.startswith("{", i):
        node = Node("map", i, i)
        j = _ws(text, i + 1)
        while not text.startswith("}", j):
            key, after = _DECODER.raw_decode(text, j)
            colon = _ws(text, after)
            if not isinstance(key, str) or not text.startswith(":", colon):
                raise ValueError(f"JSON: key and ':' expected at {j}")
            value = _json_value(text, colon + 1)
            node.members.append((key, j, value))
            j = _ws(text, value.end)
            if text.startswith(",", j):
                j = _ws(text, j + 1)
            elif not text.startswith("}", j):
                raise ValueError(f"JSON: ',' or '}}' expected at {j}")
        node.end = j + 1
        return node
    if text.startswith("[", i):
        node = Node("seq", i, i)
        j = _ws(text, i + 1)
        while not text.startswith("]", j):
            item = _json_value(text, j)
            node.items.append(item)
            j = _ws(text, item.end)
            if text.startswith(",", j):
                j = _ws(text, j + 1)
            elif not text.startswith("]", j):
                raise ValueError(f"JSON: ',' or ']' expected at {j}")
        node.end = j + 1
        return node
    value, end = _DECODER.raw_decode(text, i)
    return Node("scalar", i, int(end), value)


def json_tree(text: str, lo: int, hi: int) -> Node | None:
    """The JSON object or array that is all of ``text[lo:hi]`` (spans in ``text``), or None."""
    lo = _ws(text, lo)
    if lo >= hi or text[lo] not in "{[":
        return None
    try:
        node = _json_value(text, lo)
    except (ValueError, IndexError):
        return None
    return node if not text[node.end : hi].strip() else None


def _yaml_node(node: yaml.Node, base: int) -> Node:
    s, e = base + node.start_mark.index, base + node.end_mark.index
    if isinstance(node, yaml.MappingNode):
        members = [(str(k.value), base + k.start_mark.index, _yaml_node(v, base)) for k, v in node.value]
        return Node("map", s, e, members=members)
    if isinstance(node, yaml.SequenceNode):
        return Node("seq", s, e, items=[_yaml_node(v, base) for v in node.value])
    value = node.value if node.tag != "tag:yaml.org,2002:null" else None
    return Node("scalar", s, e, value)


def yaml_tree(text: str, lo: int, hi: int) -> Node | None:
    """The YAML mapping or sequence that is ``text[lo:hi]``, or None (a scalar, invalid YAML)."""
    try:
        root = yaml.compose(text[lo:hi], Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    if root is None or isinstance(root, yaml.ScalarNode):
        return None
    return _yaml_node(root, lo)


def _humanise(key: str) -> str:
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace("_", " ").replace("-", " ")
    return re.sub(r"\s+", " ", words).strip().lower()


#: a key written as a name: capitalised words with blanks between them ("Ness Bridge", "Oslo")
_NAME_KEY = re.compile(r"[A-Z0-9][\w.'\u2019&-]*(?: [\w.'\u2019&-]+)*")


def _subject_key(key: str) -> str:
    """A parent key read as the subject of the leaves under it: a name keeps its capitals
    ("Clara Nyberg", not "Clara nyberg"); an identifier is humanised ("skarvik_ferry" ->
    "skarvik ferry", ``_humanise``)."""
    key = " ".join(key.split())
    if _NAME_KEY.fullmatch(key) and not re.search(r"[a-z][A-Z]", key):
        return key
    return _humanise(key)


def _scalar_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and value.lower() in {"true", "false"}:
        return "yes" if value.lower() == "true" else "no"
    return str(value)


_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)*")
#: unit words that name a time, not a unit of the value ("founded_year": 1931)
_NOT_UNITS = frozenset({"year", "years", "date", "day", "days", "month", "months", "no", "id"})


def _key_unit(key: str, value: str) -> tuple[str, str]:
    """A unit at the end of a key goes to its number: ``("height m", "121")`` ->
    ``("height", "121 m")`` (units of ``claims.facets.vocabulary.UNITS``)."""
    words = key.split()
    if len(words) < 2 or words[-1] in _NOT_UNITS or words[-1] not in UNITS or not _NUMBER.fullmatch(value):
        return key, value
    return " ".join(words[:-1]), f"{value} {words[-1]}"


def _subject_member(node: Node, in_array: bool, top: bool = False) -> int | None:
    """The member that names the object's subject: a name field, in an array element or the
    top-level object also a record field (``city``, ...), in an array element else its first
    string; None when none does."""
    strings = [
        n for n, (_, _, v) in enumerate(node.members) if v.kind == "scalar" and isinstance(v.value, str)
    ]
    for name in _NAME_KEYS + (_RECORD_KEYS if in_array or top else ()):
        hit = next((n for n in strings if node.members[n][0].lower() == name), None)
        if hit is not None:
            return hit
    return strings[0] if in_array and strings else None


def leaf_facts(node: Node, subject: str = "") -> list[Block]:
    """``fact`` blocks of ``node``, one per non-null scalar (module notes); ``subject`` names
    the data when no name field does (the heading or lead-in above it)."""
    out: list[Block] = []
    _walk(node, [], subject, out, node.start, in_array=False, top=True)
    return out


def _walk(
    node: Node, path: list[str], ctx: str, out: list[Block], key_start: int, *, in_array: bool, top: bool
) -> None:
    if node.kind == "seq":
        for item in node.items:
            _walk(item, path, ctx, out, item.start, in_array=True, top=False)
        return
    if node.kind == "scalar":
        if node.value is None or (isinstance(node.value, str) and not node.value.strip()) or not path:
            return
        *head, last = path
        last, shown = _key_unit(last, _scalar_text(node.value))
        label = ", ".join([*head, last])
        text = f"{ctx}, {label}: {shown}" if ctx else f"{label}: {shown}"
        out.append(Block("fact", key_start, node.end, text[:1].upper() + text[1:] + "."))
        return
    named = _subject_member(node, in_array, top=top)
    if named is not None:
        ctx = str(node.members[named][2].value)
        if not in_array:  # {"dam": {"name": "Tolla dam", ...}}: the name replaces the parent key
            path, top = [], True
    for n, (key, kstart, value) in enumerate(node.members):
        if n == named and (top or in_array):
            continue
        # the first key under no subject names the subject: it keeps a name's capitals
        step = _subject_key(key) if not path and not ctx and value.kind != "scalar" else _humanise(key)
        _walk(value, [*path, step], ctx, out, kstart, in_array=False, top=False)


def json_blocks(text: str) -> list[Block] | None:
    """``fact`` blocks when all of ``text`` is one JSON object or array (optionally inside a
    ```` ```json ```` fence); truncated JSON gives its complete pairs (:func:`salvage_pairs`);
    ``None`` when the text is no JSON."""
    stripped = text.strip()
    lo = text.find(stripped[:1]) if stripped else 0
    hi = lo + len(stripped)
    fence = re.match(r"```(?:json)?\s*\n", stripped)
    if fence and stripped.endswith("```"):
        lo += fence.end()
        hi -= 3
    start = _ws(text, lo)
    if start >= hi or text[start] not in "{[":
        return None
    tree = json_tree(text, lo, hi)
    return leaf_facts(tree) if tree is not None else salvage_pairs(text, lo, hi)


#: one complete ``"key": scalar`` pair of JSON text (RFC 8259 strings, numbers, literals)
_PAIR = re.compile(
    r'"((?:[^"\\]|\\.){1,80})"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}\]])|true|false)'
)


def salvage_pairs(text: str, lo: int, hi: int) -> list[Block] | None:
    """Facts of the complete ``"key": scalar`` pairs of invalid or truncated JSON in
    ``text[lo:hi]`` (an answer cut off mid-object), ``"<key>: <value>."`` each; ``None`` when
    there is none."""
    out = []
    for m in _PAIR.finditer(text, lo, hi):
        value = _DECODER.decode(m.group(2))
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        claim = f"{_humanise(m.group(1))}: {_scalar_text(value)}"
        out.append(Block("fact", m.start(), m.end(), claim[:1].upper() + claim[1:] + "."))
    return out or None
