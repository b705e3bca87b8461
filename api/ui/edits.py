"""The claim edit script as a readable diff: ``-`` deleted response claims, ``+`` inserted
reference claims, and substitutions as a ``-``/``+`` pair with the changed words marked."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["EditLine", "edit_lines", "word_diff"]

_TOKEN = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True, slots=True)
class EditLine:
    """One operation: ``op`` (``substitute`` | ``delete`` | ``insert``), the response claim's
    words ``old`` and the reference claim's words ``new`` as ``(changed, text)`` parts (empty
    when the op has no such side), and the engine's ``reason``."""

    op: str
    old: tuple[tuple[bool, str], ...]
    new: tuple[tuple[bool, str], ...]
    reason: str


def word_diff(old: str, new: str) -> tuple[tuple[tuple[bool, str], ...], tuple[tuple[bool, str], ...]]:
    """Both texts as ``(changed, text)`` parts, word by word (``difflib.SequenceMatcher``).

    >>> word_diff("opened in 1989.", "opened in 1998.")
    (((False, 'opened in '), (True, '1989.')), ((False, 'opened in '), (True, '1998.')))
    """
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    left: list[tuple[bool, str]] = []
    right: list[tuple[bool, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        changed = tag != "equal"
        if i2 > i1:
            left.append((changed, "".join(a[i1:i2])))
        if j2 > j1:
            right.append((changed, "".join(b[j1:j2])))
    return tuple(left), tuple(right)


def edit_lines(script: Sequence[dict[str, Any]]) -> list[EditLine]:
    """The document's ``edit_script`` (op, response_claim text, reference_claim text, reason)."""
    lines = []
    for op in script:
        old = str(op.get("response_claim") or "")
        new = str(op.get("reference_claim") or "")
        if op.get("op") == "substitute":
            left, right = word_diff(old, new)
        else:
            left = ((False, old),) if old else ()
            right = ((False, new),) if new else ()
        lines.append(EditLine(str(op.get("op")), left, right, str(op.get("reason") or "")))
    return lines
