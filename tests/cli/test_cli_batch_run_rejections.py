"""``claimaudit batch --suite --run``: a line the API refuses is recorded in the run under its input
line number, and its reason names that line (never its position in a request chunk)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimaudit import Client
from claimaudit._flows import call
from cli.main import app

pytestmark = [pytest.mark.services, pytest.mark.slow]

REF = "The Lysa river is 112 kilometres long."
OK = {"references": [REF], "response": "The Lysa river is 112 kilometres long."}


def test_api_refused_lines_are_stored_with_their_input_line(live_api: str, tmp_path: Path) -> None:
    rows: list[dict[str, object]] = [
        {"id": "a", **OK},  # line 1
        {**OK},  # line 2: no id, the CLI's own rejection
        {"id": "b", "references": ["   "], "response": "x"},  # line 3: blank references
        {"id": "c", **OK, "config": {"threshold": None}},  # line 4
        {"id": "d", **OK, "config": {"threshold": 2}},  # line 5
        {"id": "e", **OK},  # line 6
        {"id": "e", **OK, "response": "The Lysa is long."},  # line 7: id twice in one request
        {"id": "f", **OK},  # line 8
    ]
    src, out = tmp_path / "b.jsonl", tmp_path / "b.out.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    suite = f"lines-{uuid.uuid4().hex[:8]}"
    # chunks of 3 valid lines: [1, 3, 4] [5, 6, 7] [8]; line 7 is items[2] of its request
    args = ["batch", str(src), "-o", str(out), "--api-url", live_api, "--suite", suite, "--run", "R1"]
    result = CliRunner().invoke(app, [*args, "--chunk-size", "3", "--stall-timeout", "300"])
    assert result.exit_code == 0, result.output
    refused = {2, 3, 4, 5, 7}
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in written if r["status"] == "rejected"] == sorted(refused)
    with Client(live_api) as client:
        run = client.runs.get(f"{suite}/R1")
        detail = client.run(call("GET", f"/runs/{run.id}"))
        streamed = list(client.runs.rejections(f"{suite}/R1"))
    for rejections in (detail["rejections"], streamed):
        assert [r["line"] for r in rejections] == sorted(refused), rejections
        for r in rejections:
            assert r["reason"].startswith(f"line {r['line']}") and "items[" not in r["reason"], r
    by_line = {r["line"]: r for r in streamed}
    assert by_line[7]["item_id"] == "e" and "appears twice" in by_line[7]["reason"]
    assert "threshold" in by_line[4]["reason"] and "threshold" in by_line[5]["reason"]
    assert "references" in by_line[3]["reason"]


def test_post_runs_items_without_line_work_as_before(live_api: str) -> None:
    # `line` is optional: without it a refused item is stored with line null and named by its
    # place in the request; a `line` that is no line number refuses that item only
    suite = f"nolines-{uuid.uuid4().hex[:8]}"
    items = [
        {"id": "a", **OK},
        {"id": "a", **OK, "response": "other"},
        {"id": "z", **OK, "line": 0},
        {"id": "y", **OK, "line": 4},
    ]
    body = {"suite": suite, "label": "R1", "items": items}
    with Client(live_api) as client:
        answer = client.run(call("POST", "/runs", json=body, accept=(200, 201, 202)))
        statuses = [i["status"] for i in sorted(answer["items"], key=lambda i: i["index"])]
        assert statuses[1:3] == ["rejected", "rejected"] and "rejected" not in (statuses[0], statuses[3])
        rejections = list(client.runs.rejections(f"{suite}/R1"))
    assert [r["line"] for r in rejections] == [None, None], rejections
    by_id = {r["item_id"]: r["reason"] for r in rejections}
    assert by_id["a"].startswith("items[1]: id 'a' appears twice") and "line" in by_id["z"]
