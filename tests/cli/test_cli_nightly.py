"""A nightly job through ``claimaudit batch --suite --run`` against the real API and a real
worker: a bad line is that line's problem and is counted in the run, a night with a changed year
crosses the default gate (exit 1), the identical night after it is compared with the last night
whose gate held and passes (exit 0), a pinned baseline is used and named."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from claimaudit import Client
from claimaudit._flows import call
from cli.main import app

pytestmark = [pytest.mark.services, pytest.mark.slow]

REFS = {
    "bridge": "The Halvorsen Bridge opened to traffic on 12 May 1998.",
    "prize": "In 2004, the cellist Ines Marlow won the Varga Prize in Vienna.",
    "river": "The Lysa river is 112 kilometres long.",
}
GOOD = {
    "bridge": "The Halvorsen Bridge opened in 1998.",
    "prize": "Ines Marlow won the Varga Prize in 2004.",
    "river": "The Lysa river is 112 kilometres long.",
}


def _night(path: Path, answers: dict[str, str], *, bad: bool = False) -> Path:
    lines = [
        json.dumps({"id": k, "references": [REFS[k]], "response": v}).encode() for k, v in answers.items()
    ]
    if bad:  # a line with a byte that is not UTF-8, and a line without an id
        lines.insert(1, b'{"id": "broken", "references": ["caf\xe9"], "response": "x"}')
        lines.append(json.dumps({"references": [REFS["river"]], "response": "x"}).encode())
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _batch(live_api: str, src: Path, suite: str, label: str, *extra: str) -> Any:
    out = src.with_suffix(".out.jsonl")
    args = ["batch", str(src), "-o", str(out), "--api-url", live_api, "--suite", suite, "--run", label]
    return CliRunner().invoke(app, [*args, "--stall-timeout", "300", *extra])


def test_bad_lines_are_rejected_counted_and_listed(
    live_api: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = f"nightly-{uuid.uuid4().hex[:8]}"
    src = _night(tmp_path / "n1.jsonl", GOOD, bad=True)
    summary, table = tmp_path / "summary.json", tmp_path / "night.csv"
    result = _batch(live_api, src, suite, "n1", "--summary", str(summary), "--csv", str(table))
    assert result.exit_code == 0, result.output  # rejected lines are reported, not fatal
    out = [json.loads(x) for x in src.with_suffix(".out.jsonl").read_text().splitlines()]
    assert [(r["id"], r["line"], r["status"]) for r in out] == [
        ("bridge", 1, "done"), ("line-2", 2, "rejected"), ("prize", 3, "done"),
        ("river", 4, "done"), ("line-5", 5, "rejected"),
    ]  # fmt: skip
    assert "line 2 is not UTF-8 text" in out[1]["error"] and "line 5: no id" in out[4]["error"]
    with Client(live_api) as client:
        run = client.runs.get(f"{suite}/n1")
        detail = client.run(call("GET", f"/runs/{run.id}"))
    assert run.summary is not None and run.summary["counts"]["rejected"] == 2 and run.summary["items"] == 5
    assert [r["line"] for r in detail["rejections"]] == [2, 5]
    assert json.loads(summary.read_text())["counts"] == {"done": 3, "rejected": 2}
    assert table.read_text().count("\n") == 6  # the header and one row per line
    # the run's items, streamed: each document is the one the batch wrote for its line
    items_file = tmp_path / "items.jsonl"
    args = ["runs", "items", f"{suite}/n1", "--documents", "-o", str(items_file), "--api-url", live_api]
    listed = CliRunner().invoke(app, args)
    assert listed.exit_code == 0, listed.output
    items = [json.loads(x) for x in items_file.read_text().splitlines()]
    assert [(i["item_id"], i["status"]) for i in items] == [
        ("bridge", "done"),
        ("prize", "done"),
        ("river", "done"),
    ]
    assert [i["document"]["id"] for i in items] == [r["audit_id"] for r in out if r["status"] == "done"]
    assert [i["document"]["claims"] for i in items] == [r["claims"] for r in out if r["status"] == "done"]
    again = _batch(live_api, src, suite, "n1", "--max-rejected", "1")  # resumed: nothing twice
    assert again.exit_code == 4, again.output
    with Client(live_api) as client:
        assert client.runs.get(f"{suite}/n1").summary["counts"]["rejected"] == 2  # type: ignore[index]
    shown = CliRunner().invoke(app, ["runs", "show", f"{suite}/n1", "--api-url", live_api])
    assert "  line 2 is not UTF-8 text" in shown.stdout and "rejected lines (2)" in shown.stdout
    # GET /runs/{id} holds a first page of rejections (here 1 of the 2); the rest are streamed,
    # and `runs show` still lists every one (the API serves from this process: live_api)
    from db import run_items

    monkeypatch.setattr(run_items, "REJECTIONS_PAGE", 1)
    with Client(live_api) as client:
        first = client.run(call("GET", f"/runs/{run.id}"))
        assert [r["line"] for r in first["rejections"]] == [2] and first["rejections_total"] == 2
        assert [r["line"] for r in client.runs.rejections(f"{suite}/n1")] == [2, 5]
    shown = CliRunner().invoke(app, ["runs", "show", f"{suite}/n1", "--api-url", live_api])
    assert (
        "rejected lines (2)" in shown.stdout
        and "  line 5: no id" in shown.stdout
        and "line 5: line 5" not in shown.stdout
    ), shown.stdout
    # a run that does not exist is the caller's mistake (2, README's exit codes), not an outage (3)
    missing = CliRunner().invoke(app, ["runs", "show", f"{suite}/no-such-night", "--api-url", live_api])
    assert missing.exit_code == 2, missing.output
    missing = CliRunner().invoke(app, ["runs", "items", f"{suite}/no-such-night", "--api-url", live_api])
    assert missing.exit_code == 2, missing.output
    # an output file that cannot be written is a usage error (2) with a message, not a traceback (1)
    unwritable = tmp_path / "no-such-folder" / "items.jsonl"
    args = ["runs", "items", f"{suite}/n1", "-o", str(unwritable), "--api-url", live_api]
    bad_output = CliRunner().invoke(app, args)
    assert bad_output.exit_code == 2 and "cannot write" in bad_output.output, bad_output.output


def test_the_default_gate_fails_a_changed_year_and_passes_the_identical_night_after(
    live_api: str, tmp_path: Path
) -> None:
    suite = f"gate-{uuid.uuid4().hex[:8]}"
    nights = {
        "n1": GOOD,
        "n2": {**GOOD, "prize": "Ines Marlow won the Varga Prize in 2001."},  # one year changed
        "n3": GOOD,
    }
    codes = {}
    for label, answers in nights.items():
        result = _batch(live_api, _night(tmp_path / f"{label}.jsonl", answers), suite, label, "--gate")
        codes[label] = result.exit_code
        if label == "n2":
            assert "gate crossed" in result.output and "baseline: n1" in result.output
        if label == "n3":  # compared with n1, the last night whose gate held, not with n2
            assert "gate held (baseline: n1, last run whose gate held)" in result.output
    assert codes == {"n1": 0, "n2": 1, "n3": 0}
    pinned = CliRunner().invoke(app, ["runs", "baseline", suite, "n2", "--api-url", live_api])
    assert pinned.exit_code == 0 and "baseline of" in pinned.stdout
    compared = CliRunner().invoke(app, ["runs", "compare", f"{suite}/n3", "--short", "--api-url", live_api])
    # against the pinned n2 the identical night is better, not worse: the gate holds
    assert compared.exit_code == 0 and "baseline: pinned" in compared.stdout
    assert "worse items" not in compared.stdout  # --short: the head only
