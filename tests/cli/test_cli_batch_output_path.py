"""``claimaudit batch -o``: an output that cannot be written is a usage error (exit 2) found before
the API is reached, and a failed batch names a partial file only when it holds results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cli import batch as batch_cli
from cli import processes
from cli.batch_input import read_batch_input
from cli.main import app


def _input(tmp_path: Path) -> Path:
    src = tmp_path / "bom.jsonl"
    line = {"id": "a", "response": "Paris is in France.", "references": ["Paris is the capital of France."]}
    src.write_text(json.dumps(line) + "\n")
    return src


def _no_api(*_: object, **__: object) -> str:
    raise AssertionError("the API was reached before the output path was checked")


@pytest.mark.parametrize("where", ["parent_is_a_file", "output_is_a_folder", "proc"])
def test_unwritable_output_is_exit_2_before_the_api(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # exit 1 is "gate crossed" (README "Exit codes"): a bad -o is a usage error, 2, with no
    # traceback, and found before ensure_api (which may start the stack) is called
    src = _input(tmp_path)
    output = {
        "parent_is_a_file": src / "o.out",
        "output_is_a_folder": tmp_path,
        "proc": Path("/proc/o.out"),
    }[where]
    if where == "proc" and not Path("/proc/self").exists():
        pytest.skip("no /proc here")
    monkeypatch.setattr(batch_cli, "ensure_api", _no_api)
    result = CliRunner().invoke(app, ["batch", str(src), "-o", str(output), "--no-start"])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "cannot write" in result.output and "Traceback" not in result.output
    assert "results so far" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bom.jsonl"]  # no probe file left


def test_a_failed_batch_names_no_partial_file_without_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the API is unreachable before any result is known: the message must not send the user to
    # an empty OUTPUT.partial ("results so far: ...") as if something had been saved
    lines = read_batch_input(_input(tmp_path))
    partial = tmp_path / "out.jsonl.partial"
    url = f"http://127.0.0.1:{processes.free_port()}"  # nothing listens there
    with pytest.raises(typer.Exit) as info:
        batch_cli._run_journaled(url, lines, partial, (100, 5.0), False, None)
    assert info.value.exit_code == 3  # README "Exit codes": the API unreachable
    text = " ".join(capsys.readouterr().err.split())  # rich wraps the line
    assert "results so far" not in text and "no results written yet" in text, text
