"""``claimaudit audit ... --html report.html``: one self-contained HTML file of an audit.

The same template as the ``/ui/audits/{id}`` page (``api/templates/ui/audit.html``), with the
stylesheet and the script inlined: no external asset, so the file can be attached to a ticket
and opened offline. Built from the result document and the submitted texts.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from api.ui.audit_view import build_audit_view
from api.ui.templating import render_standalone

__all__ = ["write_html_report"]


def write_html_report(path: Path, doc: dict[str, Any], body: dict[str, Any], *, title: str) -> None:
    """Write the audit ``doc`` (``GET /audits/{id}`` shape) of request ``body`` (``response``,
    ``references``, optional ``question``) to ``path`` atomically (a temporary file, then rename).

    Raises ``OSError`` when the folder cannot be written.
    """
    doc = {**doc, "question": doc.get("question") or body.get("question")}
    view = build_audit_view(doc, body["response"], body["references"])
    html = render_standalone(view, title=title)
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(html)
        os.chmod(tmp, 0o644)  # mkstemp makes it 0600; a report is for sharing (a ticket, a teammate)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
