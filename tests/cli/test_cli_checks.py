"""``claimaudit labels import`` file reading (cli.checks.read_labels) and command registration."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.checks import read_labels
from cli.main import app

AID = "6f1c2a3b-0000-4000-8000-000000000001"


def test_csv_and_jsonl_give_the_same_items(tmp_path: Path) -> None:
    csv_file = tmp_path / "labels.csv"
    csv_file.write_text(
        f"audit_id,claim,label,reviewer,note\n{AID},0,contradicted,ana,date\n{AID},,refute,ana,\n"
    )
    jsonl = tmp_path / "labels.jsonl"
    jsonl.write_text(
        f'{{"audit_id": "{AID}", "claim": 0, "verdict": "contradicted", '
        '"reviewer": "ana", "note": "date"}\n\n'
        f'{{"audit_id": "{AID}", "label": "refute", "reviewer": "ana"}}\n'
    )
    expected = [
        {"audit_id": AID, "claim": 0, "label": "contradicted", "reviewer": "ana", "note": "date"},
        {"audit_id": AID, "claim": None, "label": "refute", "reviewer": "ana"},
    ]
    assert read_labels(csv_file) == expected
    assert read_labels(jsonl) == expected


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("a.csv", "audit_id,claim,label\n,0,supported\n", "a.csv:2: needs audit_id"),
        ("a.csv", f"audit_id,claim,label\n{AID},first,supported\n", "claim must be a whole number"),
        ("a.jsonl", f'{{"audit_id": "{AID}", "claim": 1}}\n', "a.jsonl:1: needs label"),
        ("a.jsonl", "{not json\n", "a.jsonl:1: not JSON"),
        ("a.txt", "x", "use a .csv or .jsonl file"),
    ],
)
def test_bad_rows_name_their_line(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        read_labels(path)


def test_commands_are_registered() -> None:
    out = CliRunner().invoke(app, ["--help"]).output
    for command in ("canaries", "second-audit", "correct", "labels"):
        assert command in out
    assert "import" in CliRunner().invoke(app, ["labels", "--help"]).output


@pytest.mark.services
def test_check_commands_send_the_api_key(live_api: str) -> None:
    """The check commands authenticate like every command (``CLAIMAUDIT_API_KEY``, set by the
    ``live_api`` fixture to the tests' admin key): accepted with it, a readable 401 without."""
    import json

    from cli import processes

    ok = CliRunner().invoke(app, ["labels", "report", "--json", "--api-url", live_api])
    assert ok.exit_code == 0, ok.output
    assert set(json.loads(ok.output)) == {"claims", "audits"}
    with processes.temporary_env(CLAIMAUDIT_API_KEY="ca_not-a-key"):
        refused = CliRunner().invoke(app, ["labels", "report", "--api-url", live_api])
    assert refused.exit_code == 2 and "refused the key" in refused.output, refused.output
