"""The block: one structural piece of a document with its span in the original text."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Block", "KINDS"]

#: ``prose`` running text (split into sentences by ``claims.decompose``); ``fact`` a claim the
#: structure states outright (a Markdown, CSV or TSV table cell, a "Label: value" item or
#: line, a JSON/YAML leaf),
#: its claim text in ``text``; ``item`` a list item, parsed as a sentence after ``lead``;
#: ``heading`` a heading or lead-in, context for what follows (its topic in ``text``), never a
#: claim; ``outside`` code, a citation line: ``outside_scope`` (why in ``reason``)
KINDS = frozenset({"prose", "fact", "item", "heading", "outside"})


@dataclass(frozen=True, slots=True)
class Block:
    """One structural piece of a document; ``text[start:end]`` of the original is its source
    (``0 <= start <= end <= len(text)``)."""

    kind: str
    start: int
    end: int
    text: str = ""
    lead: str = ""
    reason: str = ""
