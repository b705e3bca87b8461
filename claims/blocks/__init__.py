"""Document structure before sentences: Markdown, JSON and YAML blocks with their spans.

:func:`layout` cuts a text into :class:`Block` s in document order, each with its exact
character span ``[start, end)`` in the text, and gives the text with its markup blanked (same
length), which the sentence and clause steps read so that claims carry no ``**``, links or
footnote marks while their spans point into the original. Block kinds (``claims.blocks.types``):

``prose``
    a paragraph: split into sentences and clauses by ``claims.decompose``;
``heading``
    a heading, or the lead-in line of a list, table or code block ("Here is what the sources
    say about X:"): context for the blocks under it (``text`` is the subject it names), never a
    claim;
``item``
    a list item, parsed as a sentence after the lead-in it continues (``lead``: "The hotel has");
``fact``
    a claim the structure states outright, ``"<subject>, <label>: <value>."``: a "Label: value"
    or "**Label:** value" item or line (the subject from the lead-in or heading, or from the
    record's line that names it: "Name: Storebælt Bridge"), a table cell (``claims.blocks.tables``;
    a CSV or TSV cell, ``claims.blocks.delimited``), a JSON or YAML leaf (``claims.blocks.data``);
``outside``
    a code block, a paragraph or item of inline code only, a citation line ("[^1]: ...",
    "Sources: ..."): ``outside_scope``.

Parsers: markdown-it-py (CommonMark 0.31 with the GFM table rule), ``json.JSONDecoder`` (RFC
8259), PyYAML ``compose`` (YAML 1.1). A text that is one JSON value, a YAML document opened
by ``---``, or YAML records with no fence (every line a ``key:`` line, a mapping of mappings or a
sequence of records: "Oslo:" over "  population: 709,000") is data; anything else is read as
Markdown.
"""

from __future__ import annotations

import re

from claims.blocks.context import lead_topic
from claims.blocks.data import Node, json_blocks, leaf_facts, yaml_tree
from claims.blocks.markdown import Layout, parse
from claims.blocks.types import Block

__all__ = ["Block", "Layout", "layout", "segment", "lead_topic"]

_YAML_START = re.compile(r"\A\s*---[ \t]*(?:\r\n|\r|\n)")


#: a line of bare YAML records: ``key:``, ``key: value`` or ``- key: value``, any indent
_YAML_LINE = re.compile(r"[ \t]*(?:- )?[^\s#*|>:-][^:\n]{0,80}:(?:[ \t].*)?")


def _records(node: Node) -> bool:
    """``node`` is records: a mapping whose every value is a non-empty mapping ("Oslo:" over
    "population: 709,000"), or a sequence of mappings, one at least with two members or a
    mapping inside ("- city: Oslo" over "population: 709,000")."""
    if node.kind == "map":
        return bool(node.members) and all(v.kind == "map" and v.members for _, _, v in node.members)
    if node.kind == "seq":
        maps = [i for i in node.items if i.kind == "map" and i.members]
        return (
            bool(maps)
            and len(maps) == len(node.items)
            and any(len(i.members) > 1 or any(v.kind == "map" for _, _, v in i.members) for i in maps)
        )
    return False


def _bare_yaml(text: str) -> Node | None:
    """The YAML tree of a text written as YAML records with no fence or ``---`` (:func:`_records`),
    every line a key line (``_YAML_LINE``); None for any other text: prose with a colon, a
    Markdown list of "Label: value" items, a heading, a table."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) < 2 or not all(_YAML_LINE.fullmatch(ln) for ln in lines):
        return None
    tree = yaml_tree(text, 0, len(text))
    return tree if tree is not None and _records(tree) else None


def layout(text: str) -> Layout:
    """The blocks of ``text`` and its markup-blanked copy (module notes).

    Returns
    -------
    Layout
        ``blocks`` in document order, ``0 <= start <= end <= len(text)`` each; ``plain`` with
        ``len(plain) == len(text)``. A text with no structure is one ``prose`` block per
        paragraph; a text of headings only (an evidence line cut out of a page) is prose.

    Examples
    --------
    >>> [b.text for b in layout("| Plan | Price |\\n|---|---|\\n| Pro | $25 |").blocks]
    ['Pro plan, price: $25.']
    """
    as_json = json_blocks(text)
    if as_json is not None:
        return Layout(as_json, text)
    if _YAML_START.match(text):
        tree = yaml_tree(text, 0, len(text))
        if tree is not None and (facts := leaf_facts(tree)):
            return Layout(facts, text)
    tree = _bare_yaml(text)
    if tree is not None and (facts := leaf_facts(tree)):
        return Layout(facts, text)
    found = parse(text)
    if all(b.kind == "heading" for b in found.blocks):
        blocks = [Block("prose", b.start, b.end) if b.kind == "heading" else b for b in found.blocks]
        return Layout(blocks, found.plain)
    return found


def segment(text: str) -> list[Block]:
    """The blocks of ``text`` (``layout(text).blocks``)."""
    return layout(text).blocks
