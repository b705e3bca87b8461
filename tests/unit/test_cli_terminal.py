"""Terminal output an audited text cannot take over (``cli.terminal``): control and bidirectional
formatting characters of a text are written as escapes; rich's own styling stays."""

from __future__ import annotations

import io

from rich.text import Text

from cli.terminal import SafeConsole

HOSTILE = "The bridge\x1b]0;PWNED\x07 opened \x1b[2J in 1989 \u202eevil\u202c."


def test_plain_output_shows_the_escapes() -> None:
    out = io.StringIO()
    SafeConsole(file=out, width=200, color_system=None, highlight=False).print(HOSTILE, markup=False)
    # rich itself drops BEL (its strip_control_codes); ESC and the override are shown, not obeyed
    assert out.getvalue() == "The bridge\\x1b]0;PWNED opened \\x1b[2J in 1989 \\u202eevil\\u202c.\n"


def test_styled_output_keeps_its_styles_and_escapes_the_text() -> None:
    out = io.StringIO()
    SafeConsole(file=out, width=200, force_terminal=True, color_system="standard").print(
        Text(HOSTILE, style="bold red")
    )
    written = out.getvalue()
    assert "\x1b[1;31m" in written  # rich's own style sequence
    assert "\x1b]0;" not in written and "\x1b[2J" not in written and "\x07" not in written
    assert "\u202e" not in written and "\\x1b]0;PWNED" in written
