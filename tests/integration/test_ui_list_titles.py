"""The audit list page names each audit by its question or the start of its response, and shows
the batch line id it came from (``claimaudit batch``'s key, or the run item's id)."""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cli.client import idempotency_key

pytestmark = pytest.mark.services

REF = "The Halvorsen Bridge opened to traffic on 12 May 1998."
LONG = "The Halvorsen Bridge, a suspension bridge over the Lysefjord, opened in 1998 " * 3


def _rows(client: TestClient, tag: str) -> dict[str, str]:
    page = client.get("/ui/audits", params={"metadata_key": "tag", "metadata_value": tag})
    assert page.status_code == 200, page.text
    cells = re.findall(r'data-audit-id="([^"]+)".*?<td class="title-cell">(.*?)</td>', page.text, re.DOTALL)
    return {aid: " ".join(html.unescape(re.sub(r"<[^>]+>", " ", cell)).split()) for aid, cell in cells}


def test_titles_show_the_response_start_and_the_line_id(client: TestClient) -> None:
    tag = uuid.uuid4().hex
    meta: dict[str, Any] = {"tag": tag}
    loose = {"response": LONG, "references": [REF], "metadata": meta}
    asked = {"response": "It opened in 1998.", "references": [REF], "question": "When?", "metadata": meta}
    batch = client.post(
        "/audits/batch",
        json={"audits": [{**loose, "idempotency_key": idempotency_key("case-7", loose)}, asked]},
    ).json()["audits"]
    run = client.post(
        "/runs", json={"suite": f"titles-{tag[:8]}", "label": "l1", "items": [{"id": "q-42", **loose}]}
    ).json()
    rows = _rows(client, tag)
    by_key, by_question = rows[batch[0]["id"]], rows[batch[1]["id"]]
    # no question: the response's first 100 characters (whitespace folded), then the line id
    assert by_key.startswith(" ".join(LONG.split())[:99].rstrip() + "…") and by_key.endswith("line case-7")
    # a question: the question, the response's start under it; a random key names no line
    assert by_question == "When? It opened in 1998."
    assert rows[run["items"][0]["audit_id"]].endswith("line q-42")  # the run item's id
