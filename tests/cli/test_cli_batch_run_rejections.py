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


def _wait_finished(live_api: str, ref: str, timeout_s: float = 240) -> dict[str, object]:
    import time

    deadline = time.monotonic() + timeout_s
    with Client(live_api) as client:
        while True:
            doc = client.run(call("GET", f"/runs/{client.runs.get(ref).id}"))
            if doc["status"] == "finished" or time.monotonic() > deadline:
                return dict(doc)
            time.sleep(0.5)


def test_batch_refuses_to_add_lines_to_a_finished_run(live_api: str, tmp_path: Path) -> None:
    """The label of a finished run given again with other lines: exit 2 naming the run and how to
    start a new one, nothing stored in it (its items, rejections and gate stay); the same
    lines again resume it (exit 0, the same audits); another label is a new run."""
    suite = f"reuse-{uuid.uuid4().hex[:8]}"
    first, more = tmp_path / "first.jsonl", tmp_path / "more.jsonl"
    first.write_text("".join(json.dumps({"id": k, **OK}) + "\n" for k in ("a", "b")))
    more.write_text(first.read_text() + json.dumps({"id": "c", **OK}) + "\n" + "{not json\n")
    out = tmp_path / "out.jsonl"
    base = ["batch", "-o", str(out), "--api-url", live_api, "--suite", suite, "--stall-timeout", "300"]
    runner = CliRunner()
    assert runner.invoke(app, [*base, str(first), "--run", "R1"]).exit_code == 0
    before = _wait_finished(live_api, f"{suite}/R1")
    assert before["status"] == "finished"
    audits = sorted(json.loads(x)["audit_id"] for x in out.read_text().splitlines())

    refused = runner.invoke(app, [*base, str(more), "--run", "R1"])
    assert refused.exit_code == 2, refused.output
    text = " ".join(refused.output.split())
    assert f"--run R1: run {suite}/R1 is finished at " in text
    assert "1 new item id ('c')" in text and "1 rejected line it does not hold ('line 4')" in text
    assert "give a label not used yet (--run R1-2, say)" in text and "gate" not in text
    after = _wait_finished(live_api, f"{suite}/R1")
    assert (after["summary"], after["rejections_total"]) == (before["summary"], 0)
    assert after["audits"]["total"] == 2  # type: ignore[index]

    resumed = runner.invoke(app, [*base, str(first), "--run", "R1"])
    assert resumed.exit_code == 0, resumed.output
    assert sorted(json.loads(x)["audit_id"] for x in out.read_text().splitlines()) == audits

    fresh = runner.invoke(app, [*base, str(more), "--run", "R2"])
    assert fresh.exit_code == 0, fresh.output
    assert [json.loads(x)["status"] for x in out.read_text().splitlines()][-1] == "rejected"
