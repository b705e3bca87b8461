"""Terminal output that an audited text cannot take over.

Claim texts, reasons, questions and references come from whoever sent the audit. Printed as
they are, an escape sequence in them could retitle the terminal, clear the screen, move the
cursor or hide text (``ESC ] 0;…BEL``, ``ESC [2J``), and a bidirectional override could show
a claim in another order than it is stored. :class:`SafeConsole` is rich's ``Console`` with
every text segment passed through :func:`printable` just before it is written; the styling and
control segments rich makes itself are kept. Rich offers no such option (its
``strip_control_codes`` leaves ESC in place).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

__all__ = ["SafeConsole", "printable"]

#: C0 controls but tab and newline, DEL, C1 controls, and the bidirectional embeddings,
#: overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    r"""``text`` with every control and bidirectional formatting character written as its
    escape (``\x1b``, ``\u202e``); tabs and newlines stay.

    >>> printable("The bridge\x1b]0;PWNED\x07 opened in 1989.\n")
    'The bridge\\x1b]0;PWNED\\x07 opened in 1989.\n'
    """
    return _UNSAFE.sub(_visible, text)


class SafeConsole(Console):
    """``rich.console.Console`` whose text segments are :func:`printable` when written."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        safe = (
            segment if segment.control else Segment(printable(segment.text), segment.style)
            for segment in buffer
        )
        return super()._render_buffer(safe)
