"""Where a Markdown inline's text lies in the source, and which of its characters are markup.

markdown-it-py gives each block token the source lines it covers (``token.map``) and the
inline text with the block's own prefix taken off (list markers, ``>`` of a quote, the
indentation, a table row's pipes), but no character offsets. :func:`locate` finds each line of
an inline's ``content`` in its source line, so every content character gets its offset in the
original text; :func:`mask_markup` then blanks the characters that are markup (emphasis marks,
a link's brackets and target, the backticks of inline code) in a same-length copy of the text,
so claims read "Area: 22 hectares" while their spans still point into "**Area:** 22 hectares".
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["line_starts", "line_span", "locate", "mask_markup", "FOOTNOTE_MARK"]

_BREAK = re.compile(r"\r\n|\r|\n")
#: a footnote reference ("[^1]", "[^note]") stuck to the word before it: a citation, no claim text
FOOTNOTE_MARK = re.compile(r"\[\^[\w-]{1,20}\]")
_WORD = re.compile(r"\w")


def line_starts(text: str) -> list[int]:
    """Offset of the first character of each line (CommonMark line endings: ``\\r\\n``,
    ``\\r``, ``\\n``); one entry per line, the first 0."""
    return [0] + [m.end() for m in _BREAK.finditer(text)]


def line_span(text: str, starts: list[int], k: int) -> tuple[int, int]:
    """``[start, end)`` of line ``k`` without its line ending; an empty span past the last line."""
    if k >= len(starts):
        return len(text), len(text)
    s = starts[k]
    m = _BREAK.search(text, s)
    return s, (m.start() if m else len(text))


def locate(text: str, starts: list[int], content: str, first_line: int, lo: int = 0) -> list[int] | None:
    """Source offset of every character of ``content`` (an inline's text whose line ``j``
    lies on source line ``first_line + j``), or ``None`` when a line cannot be found there
    (a tab expanded by the parser, say). ``lo``: the first line's text starts at or after it
    (the next cell of a table row). Line breaks inside ``content`` map to the source's."""
    out: list[int] = []
    for j, part in enumerate(content.split("\n")):
        ls, le = line_span(text, starts, first_line + j)
        src = text[ls:le]
        if j == 0 and lo > ls:
            p = src.find(part, lo - ls) if part else lo - ls
        elif src.rstrip().endswith(part.rstrip()) and part.strip():
            p = len(src.rstrip()) - len(part.rstrip())
        else:
            p = src.find(part)
        if p < 0:
            return None
        if j:
            out.append(ls - 1 if ls > 0 else 0)  # the "\n" of the content: the source's line end
        out.extend(range(ls + p, ls + p + len(part)))
    return out


def mask_markup(plain: list[str], children: list[Any], content: str, offsets: list[int]) -> bool:
    """Blank (``" "``) in ``plain`` the source characters of ``content`` that are markup, by
    walking the inline's ``children`` (markdown-it tokens) in order: whatever lies between two
    pieces of visible text is markup. Returns whether all the inline's words are inline code
    (``"`ls -la`"``). A text the parser rewrote (an entity, a backslash escape) stops the
    walk: the rest stays as written."""
    cursor = 0
    has_code = False
    words = False  # visible words outside inline code

    def blank(a: int, b: int) -> None:
        for i in range(a, b):
            if content[i] != "\n":
                plain[offsets[i]] = " "

    for child in children:
        kind = child.type
        if kind in {"text", "code_inline"}:
            has_code = has_code or kind == "code_inline"
            words = words or (kind == "text" and bool(_WORD.search(child.content)))
            if not child.content:
                continue
            at = content.find(child.content, cursor)
            if at < 0:
                return has_code and not words
            blank(cursor, at)
            cursor = at + len(child.content)
        elif kind in {"softbreak", "hardbreak"}:
            at = content.find("\n", cursor)
            if at < 0:
                return has_code and not words
            blank(cursor, at)
            cursor = at + 1
        elif kind == "image":
            return has_code and not words
    # closing marks after the last text ("**", a link's "](url)")
    blank(cursor, len(content))
    return has_code and not words
