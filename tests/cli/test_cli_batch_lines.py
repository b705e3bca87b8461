"""A bad line of a batch is that line's problem: each is rejected with its line number and reason,
the others read; the summary, the CSV and the last line of a batch (no services)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from cli.batch_input import read_batch_input
from cli.batch_report import batch_summary, last_line, write_csv

REF = "The Halvorsen Bridge opened to traffic on 12 May 1998."


def _line(**fields: object) -> bytes:
    return json.dumps({"references": [REF], "response": "It opened in 1998.", **fields}).encode()


def test_each_bad_line_is_rejected_with_its_number_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "night.jsonl"
    path.write_bytes(
        b"\n".join(
            [
                b"\xef\xbb\xbf" + _line(id="a"),  # a byte-order mark is not part of the line
                _line(id="b", response="caf\xc3\xa9".encode().decode()).replace(b"caf", b"caf\xff"),
                b"{not json",
                _line(),  # no id
                b"",
                _line(id=7),
                _line(id="c", kind="extra"),
                b"[1, 2]",
            ]
        )
        + b"\n"
    )
    lines = read_batch_input(path)
    assert [(ln.line, ln.line_id, ln.rejected) for ln in lines] == [
        (1, "a", False), (2, "line-2", True), (3, "line-3", True), (4, "line-4", True),
        (6, "7", False), (7, "c", True), (8, "line-8", True),
    ]  # fmt: skip
    errors = {ln.line: ln.error or "" for ln in lines if ln.rejected}
    assert errors[2].startswith("line 2 is not UTF-8 text (invalid start byte at byte")
    assert errors[3].startswith("line 3 is not valid JSON")
    assert errors[4] == "line 4: no id; give every line an id, or pass --ids line to number them"
    assert errors[7].startswith("line 7: unknown field(s) kind")
    assert errors[8] == "line 8 is not a JSON object"
    assert lines[6].rejection() == {"line": 8, "reason": "line 8 is not a JSON object"}
    assert lines[5].rejection()["id"] == "c"
    numbered = read_batch_input(path, ids="line")
    assert [ln.line_id for ln in numbered if not ln.rejected] == ["line-1", "line-4", "line-6"]


def _done(item: str, line: int, f1: float, **counts: int) -> dict[str, object]:
    verdicts = {"supported": 0, "contradicted": 0, "unsupported": 0, **counts}
    return {"id": item, "audit_id": f"uuid-{item}", "line": line, "status": "done", "counts": verdicts,
            "scores": {"claim_f1": f1, "claim_precision": f1}}  # fmt: skip


def test_summary_csv_and_last_line(tmp_path: Path) -> None:
    results = [
        _done("a", 1, 1.0, supported=2),
        {"id": "line-2", "line": 2, "status": "rejected", "error": "line 2 is not valid JSON"},
        _done("b", 3, 0.5, supported=1, contradicted=1),
    ]
    summary = batch_summary(results)
    assert summary["counts"] == {"done": 2, "rejected": 1}
    assert summary["rejected"] == [{"line": 2, "id": "line-2", "reason": "line 2 is not valid JSON"}]
    assert summary["verdicts"]["supported"] == 3 and summary["verdicts"]["contradicted"] == 1
    assert summary["scores"]["claim_f1"] == 0.75  # mean of 1.0 and 0.5
    assert summary["scores"]["claim_recall"] is None  # no line has it: null, never NaN
    line = last_line(summary, Path("out.jsonl"), 1.0)
    assert line.endswith("2 done, 1 rejected; verdicts: 3 supported, 1 contradicted; mean F1 0.750")
    write_csv(tmp_path / "night.csv", results, "http://api")
    rows = list(csv.DictReader((tmp_path / "night.csv").open(encoding="utf-8")))
    assert [r["worst_verdict"] for r in rows] == ["supported", "", "contradicted"]
    assert rows[2]["page_url"] == "http://api/ui/audits/uuid-b" and rows[2]["claim_f1"] == "0.500000"
    assert rows[1]["status"] == "rejected" and rows[1]["line"] == "2" and rows[1]["page_url"] == ""
