"""Markdown blocks with markdown-it-py (CommonMark 0.31 + the GFM table and strikethrough rules).

:func:`parse` walks the block tree in document order and emits :class:`Block` s (see
``claims.blocks.types``), keeping for each heading the subject it names. Rules switched off,
because answers and references written as plain text trip them: indented code (a pasted
paragraph indented four spaces is prose), setext headings (a line over ``---`` is no heading),
raw HTML blocks and link reference definitions (``[1]: ...`` lines stay visible).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from claims.blocks.context import (
    continues,
    fact_text,
    is_lead,
    is_source_label,
    item_lead,
    key_value,
    lead_topic,
    names_record,
    prose_label,
    section_subject,
)
from claims.blocks.data import json_tree, leaf_facts, yaml_tree
from claims.blocks.delimited import delimited_facts
from claims.blocks.inline import FOOTNOTE_MARK, line_span, line_starts, locate, mask_markup
from claims.blocks.tables import Cell, table_facts
from claims.blocks.types import Block

__all__ = ["Layout", "parse"]

_MD = (
    MarkdownIt("commonmark", {"html": False})
    .enable(["table", "strikethrough"])
    .disable(["code", "lheading", "html_block", "reference"])
)
_LISTS = frozenset({"bullet_list", "ordered_list"})
_LEADS_INTO = _LISTS | {"table", "fence"}
#: an ordered-list marker of more digits is a year opening a line ("1998. The ferry ..."), no list
_MAX_MARKER = 999
_WORD = re.compile(r"\w")
_ORDERED = re.compile(r"\s*(\d{1,9})[.)]")
#: the level of a paragraph of bold words alone ("**Oslo**" over its list): below every heading
_EMPHASIS_LEVEL = 7
#: most words of such a title
_TITLE_WORDS = 10


def emphasis_title(inline: SyntaxTreeNode, words: str) -> bool:
    """A paragraph that is one short line in bold or italics and nothing else ("**Oslo**",
    "*Harbour Lights:*"), no sentence (no final "." "!" "?", at most ``_TITLE_WORDS`` words):
    a title over the blocks that follow it, read as a heading below every Markdown heading.
    ``inline``: the paragraph's inline node; ``words``: its text with the markup blanked."""
    token = inline.token
    if token is None or not token.children or not 0 < len(words.split()) <= _TITLE_WORDS:
        return False
    if words.rstrip().endswith((".", "!", "?")):
        return False
    depth, inside = 0, False
    for child in token.children:
        if child.type in {"strong_open", "em_open"}:
            depth += 1
        elif child.type in {"strong_close", "em_close"}:
            depth -= 1
        elif child.type == "text" and depth > 0:
            inside = inside or bool(_WORD.search(child.content))
        elif child.type != "text" or child.content.strip() not in {"", ":"}:
            return False  # words outside the emphasis, a line break, code, a link
    return inside


@dataclass(frozen=True, slots=True)
class Layout:
    """The blocks of a text and the text with its markup blanked (same length: ``plain[i]``
    is ``text[i]`` or a blank)."""

    blocks: list[Block]
    plain: str


@dataclass(frozen=True, slots=True)
class _Inline:
    start: int
    end: int
    text: str  # markup blanked, blanks collapsed
    code: bool  # all its words are inline code


class _Walker:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.plain = list(text)
        self.out: list[Block] = []
        self.headings: list[tuple[int, str]] = []

    def subject(self) -> str:
        return next((s for _, s in reversed(self.headings) if s), "")

    def inline(self, node: SyntaxTreeNode, lo: int = 0) -> _Inline | None:
        token = node.token
        if token is None or token.map is None or not token.content.strip():
            return None
        offsets = locate(self.text, self.starts, token.content, token.map[0], lo)
        if not offsets:  # the parser rewrote the line (a NUL, a tab): its source, unmasked
            s = max(self.starts[token.map[0]] if token.map[0] < len(self.starts) else len(self.text), lo)
            e = line_span(self.text, self.starts, token.map[1] - 1)[1]
            while s < e and self.text[s].isspace():
                s += 1
            raw = self.text[s:e]
            return _Inline(s, e, " ".join(raw.split()), False) if raw.strip() else None
        code = mask_markup(self.plain, token.children or [], token.content, offsets)
        for m in FOOTNOTE_MARK.finditer(token.content):
            for i in range(m.start(), m.end()):
                self.plain[offsets[i]] = " "
        start, end = offsets[0], offsets[-1] + 1
        words = FOOTNOTE_MARK.sub(" ", "".join(self.plain[start:end]))
        return _Inline(start, end, " ".join(words.split()), code)

    def lines(self, node: SyntaxTreeNode) -> tuple[int, int]:
        assert node.map is not None
        s = self.starts[node.map[0]] if node.map[0] < len(self.starts) else len(self.text)
        return s, line_span(self.text, self.starts, node.map[1] - 1)[1]

    # --- block kinds ------------------------------------------------------------------------

    def children(self, nodes: list[SyntaxTreeNode]) -> None:
        lead = ""
        for k, node in enumerate(nodes):
            nxt = nodes[k + 1] if k + 1 < len(nodes) else None
            kind = node.type
            if kind == "heading":
                self.heading(node)
            elif kind == "paragraph":
                lead = self.paragraph(node, nxt)
                continue
            elif kind in _LISTS:
                self.listing(node, lead)
            elif kind == "table":
                self.table(node, lead)
            elif kind == "fence":
                self.fence(node, lead)
            elif kind == "blockquote":
                self.children(node.children)
            lead = ""

    def heading(self, node: SyntaxTreeNode) -> None:
        level = int(node.tag[1:]) if node.tag[1:].isdigit() else 6
        info = self.inline(node.children[0]) if node.children else None
        self.section(level, info, *self.lines(node))

    def section(self, level: int, info: _Inline | None, s: int, e: int) -> None:
        """A heading of ``level`` over ``text[s:e]``: it closes the sections of its level and
        below and names the subject of what follows (``section_subject``)."""
        self.headings = [(lv, sub) for lv, sub in self.headings if lv < level]
        if info is None:
            return
        self.headings.append((level, section_subject(info.text)))
        for i in [*range(s, info.start), *range(info.end, e)]:  # the "#" marks
            self.plain[i] = " "
        self.out.append(Block("heading", s, e, text=lead_topic(info.text)))

    def paragraph(self, node: SyntaxTreeNode, nxt: SyntaxTreeNode | None) -> str:
        """Emit the paragraph's blocks; return its lead-in line when it announces ``nxt``."""
        info = self.inline(node.children[0]) if node.children else None
        if info is None:
            return ""
        raw = "".join(self.plain[info.start : info.end])
        if self.text.startswith("[^", info.start) or is_source_label(info.text):
            self.out.append(Block("outside", info.start, info.end, reason="citation"))
            return ""
        tree = json_tree(self.text, info.start, info.end) if raw.lstrip()[:1] in "{[" else None
        if tree is not None:
            self.out.extend(leaf_facts(tree, self.subject()))
            return ""
        if self.delimited(info.start, info.end, self.subject()):
            return ""
        if nxt is not None and emphasis_title(node.children[0], info.text):
            self.section(_EMPHASIS_LEVEL, info, info.start, info.end)
            return ""
        last = raw.rstrip().rfind("\n") + 1
        if nxt is not None and nxt.type in _LEADS_INTO and is_lead(raw[last:]):
            if raw[:last].strip():
                self.prose(info.start, info.start + last)
            s = info.start + last + (len(raw[last:]) - len(raw[last:].lstrip()))
            lead = " ".join(raw[last:].split()).rstrip(":").strip()
            self.out.append(Block("heading", s, info.end, text=lead_topic(lead)))
            return lead
        lines = [ln for ln in raw.split("\n") if ln.strip()]
        pairs = [key_value(ln) for ln in lines]
        if lines and all(pairs) and (self.subject() or len(lines) > 1):
            self.key_values(info.start, raw, self.subject())
        elif info.code:
            self.out.append(Block("outside", info.start, info.end, reason="inline code"))
        else:
            self.prose(info.start, info.end)
        return ""

    def delimited(self, start: int, end: int, subject: str) -> bool:
        """Emit the facts of ``text[start:end]`` when it is a CSV or TSV table
        (``claims.blocks.delimited``), its first line perhaps a lead-in naming the table's
        subject ("Bridges in Denmark:"); whether it was one."""
        facts = delimited_facts(self.text, start, end, subject)
        if facts is None:
            brk = self.text.find("\n", start, end)
            first = self.text[start:brk] if brk > 0 else ""
            if (
                not is_lead(first)
                or (facts := delimited_facts(self.text, brk + 1, end, lead_topic(first))) is None
            ):
                return False
            self.out.append(Block("heading", start, start + len(first.rstrip()), text=lead_topic(first)))
        self.out.extend(Block("fact", s, e, text) for text, s, e in facts)
        return True

    def unlabel(self, info: _Inline) -> None:
        """Blank a prose label ("Note:") before the item's sentence."""
        for i in range(info.start, info.start + prose_label("".join(self.plain[info.start : info.end]))):
            self.plain[i] = " "

    def prose(self, start: int, end: int) -> None:
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if start < end:
            self.out.append(Block("prose", start, end))

    def key_values(self, start: int, raw: str, subject: str) -> None:
        """The "Label: value" lines of a paragraph as facts about ``subject``; a line that
        names the record ("Name: Storebælt Bridge", ``names_record``) is the subject of the
        lines after it, context and no claim, as a JSON object's name field is."""
        pos, first = 0, True
        for line in raw.split("\n"):
            pair = key_value(line)
            s = start + pos + (len(line) - len(line.lstrip()))
            e = start + pos + len(line.rstrip())
            pos += len(line) + 1
            if pair is None:
                continue
            if names_record(*pair, first=first):
                subject = pair[1].rstrip(".")
                self.out.append(Block("heading", s, e, text=subject))
            else:
                self.out.append(Block("fact", s, e, fact_text(subject, *pair)))
            first = False

    def listing(self, node: SyntaxTreeNode, lead: str) -> None:
        first = self.text[slice(*line_span(self.text, self.starts, node.map[0] if node.map else 0))]
        marker = int(m.group(1)) if (m := _ORDERED.match(first)) else 0
        if node.type == "ordered_list" and marker > _MAX_MARKER:
            self.prose(*self.lines(node))
            return
        subject = self.subject() if not lead or continues(lead) else (lead_topic(lead) or self.subject())
        before = item_lead(lead) if lead else ""
        for k, item in enumerate(node.children):
            kids = item.children
            for n, kid in enumerate(kids):
                if kid.type != "paragraph":
                    if not (kid.type in _LISTS and n and kids[n - 1].type == "paragraph"):
                        self.children([kid])
                    continue
                nested = kids[n + 1] if n + 1 < len(kids) and kids[n + 1].type in _LISTS else None
                subject = self.item(kid, nested, subject, before, first=k == 0 and n == 0)

    def item(
        self, par: SyntaxTreeNode, nested: SyntaxTreeNode | None, subject: str, before: str, *, first: bool
    ) -> str:
        """Emit a list item's blocks; return the subject of the items after it: ``subject``, or
        the name of an item that names the record ("- Name: Storebælt Bridge", ``names_record``)."""
        info = self.inline(par.children[0]) if par.children else None
        if info is None:
            if nested is not None:
                self.listing(nested, "")
            return subject
        if nested is not None and (info.text.endswith(":") or len(info.text.split()) <= 6):
            self.out.append(Block("heading", info.start, info.end, text=lead_topic(info.text)))
            self.listing(nested, info.text.rstrip(":"))
            return subject
        pair = key_value(info.text)
        if pair is not None and nested is None and names_record(*pair, first=first):
            subject = pair[1].rstrip(".")
            self.out.append(Block("heading", info.start, info.end, text=subject))
        elif is_source_label(info.text):
            self.out.append(Block("outside", info.start, info.end, reason="citation"))
        elif pair is not None:
            self.out.append(Block("fact", info.start, info.end, fact_text(subject, *pair)))
        elif info.code:
            self.out.append(Block("outside", info.start, info.end, reason="inline code"))
        else:
            self.unlabel(info)
            self.out.append(Block("item", info.start, info.end, lead=before))
        if nested is not None:
            self.listing(nested, "")
        return subject

    def cells(self, row: SyntaxTreeNode) -> list[Cell]:
        lo, row_end = self.lines(row)
        out = []
        for cell in row.children:
            info = self.inline(cell.children[0], lo) if cell.children else None
            if info is None:
                out.append(Cell("", lo, lo))
                continue
            out.append(Cell(info.text, info.start, info.end))
            lo = min(info.end, row_end)
        return out

    def table(self, node: SyntaxTreeNode, lead: str) -> None:
        rows = [tr for part in node.children for tr in part.children]
        if not rows:
            return
        title = (lead_topic(lead) if lead else "") or self.subject()
        facts = table_facts(self.cells(rows[0]), [self.cells(tr) for tr in rows[1:]], title)
        self.out.extend(Block("fact", s, e, text) for text, s, e in facts)

    def fence(self, node: SyntaxTreeNode, lead: str) -> None:
        s, e = self.lines(node)
        assert node.map is not None
        body_lo = self.starts[node.map[0] + 1] if node.map[0] + 1 < len(self.starts) else e
        last = line_span(self.text, self.starts, node.map[1] - 1)
        body_hi = last[0] if self.text[last[0] : last[1]].strip().startswith(("```", "~~~")) else e
        language = node.info.strip().lower().split()[0] if node.info.strip() else ""
        subject = (lead_topic(lead) if lead else "") or self.subject()
        tree = json_tree(self.text, body_lo, body_hi) if body_lo < body_hi else None
        if tree is None and language in {"yaml", "yml"}:
            tree = yaml_tree(self.text, body_lo, body_hi)
        if tree is not None:
            self.out.extend(leaf_facts(tree, subject))
        elif not (
            language in {"", "csv", "tsv", "text"}
            and body_lo < body_hi
            and self.delimited(body_lo, body_hi, subject)
        ):
            self.out.append(Block("outside", s, e, reason="code block"))


def parse(text: str) -> Layout:
    """Blocks of a Markdown ``text`` in document order and ``text`` with markup blanked."""
    walker = _Walker(text)
    root = SyntaxTreeNode(_MD.parse(text))
    walker.children(root.children)
    blocks = walker.out
    for node in root.children:  # nothing is dropped: a top-level block that gave none is prose
        if node.map is None or node.type == "hr":
            continue
        s, e = walker.lines(node)
        if _WORD.search(text, s, e) and not any(b.start < e and s < b.end for b in blocks):
            # markdown-it stops at lists nested past its limit ("- - - - ... text")
            walker.prose(s, e)
    blocks = sorted(walker.out, key=lambda b: b.start)
    return Layout(blocks, "".join(walker.plain))
