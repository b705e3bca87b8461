"""The CLI's listings show whole ids at 80 columns, on a terminal and in a CI log, and take
``--json``; ``claimaudit audit`` prints the audit's page."""

from __future__ import annotations

import io
import json
import re
import uuid
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cli.tables import print_listing

COLUMNS = ("id", "suite", "label", "status", "items", "done", "failed", "mean F1", "contradicted")
ROW = [
    str(uuid.UUID(int=7)),
    "support-bot",
    "2026-11-30T02:00Z",
    "finished",
    "2000",
    "1998",
    "0",
    "0.512",
    "0.3%",
]
REF = "The Halvorsen Bridge opened to traffic on 12 May 1998."


def test_a_table_wider_than_the_terminal_becomes_one_block_per_row() -> None:
    out = io.StringIO()
    print_listing(Console(file=out, force_terminal=True, width=80, color_system=None), COLUMNS, [ROW, ROW])
    text = out.getvalue()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert text.count(ROW[0]) == 2 and "…" not in text  # the id whole, nothing cut
    assert re.search(r"^id\s+00000000-0000-0000-0000-000000000007$", text, re.MULTILINE)


def test_a_table_that_fits_stays_a_table() -> None:
    out = io.StringIO()
    print_listing(Console(file=out, force_terminal=True, width=200, color_system=None), COLUMNS, [ROW])
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[1].split() == ROW  # header, then the row on one line


def test_not_a_terminal_prints_the_table_at_its_own_width() -> None:
    out = io.StringIO()
    print_listing(Console(file=out, width=80), COLUMNS, [ROW])  # a pipe: COLUMNS says 80
    lines = out.getvalue().splitlines()
    assert lines[1].split() == ROW and len(lines[1]) > 80


@pytest.mark.services
@pytest.mark.slow
def test_runs_list_shows_whole_ids_and_parses_as_json(live_api: str) -> None:
    from claimaudit import Client
    from cli.main import app

    suite = f"listing-{uuid.uuid4().hex[:8]}"
    with Client(live_api) as client:
        client.runs.submit(suite, "2026-11-30T02:00Z", [{"id": "q1", "response": "x", "references": [REF]}])
        run_id = str(client.runs.get(f"{suite}/2026-11-30T02:00Z").id)
    runner = CliRunner()
    as_json = runner.invoke(app, ["runs", "list", "--suite", suite, "--json", "--api-url", live_api])
    assert as_json.exit_code == 0, as_json.output
    assert [r["id"] for r in json.loads(as_json.stdout)["items"]] == [run_id]
    table = runner.invoke(
        app, ["runs", "list", "--suite", suite, "--api-url", live_api], env={"COLUMNS": "80"}
    )
    assert table.exit_code == 0 and run_id in table.stdout and "…" not in table.stdout


@pytest.mark.services
@pytest.mark.slow
def test_audit_prints_the_page_of_the_audit(live_api: str, tmp_path: Path) -> None:
    from cli.main import app

    (tmp_path / "ref.txt").write_text(REF, encoding="utf-8")
    (tmp_path / "answer.txt").write_text("The Halvorsen Bridge opened in 1998.", encoding="utf-8")
    args = ["audit", "-r", str(tmp_path / "ref.txt"), "--response", str(tmp_path / "answer.txt")]
    result = CliRunner().invoke(app, [*args, "--api-url", live_api, "--json"])
    assert result.exit_code == 0, result.output
    audit_id = json.loads(result.stdout)["id"]
    assert f"page: {live_api}/ui/audits/{audit_id}" in result.output


@pytest.mark.services
def test_keys_list_keeps_every_value_whole_in_a_pipe_and_json_is_one_document(database_url: str) -> None:
    from cli.main import app

    runner, tenant, name = CliRunner(), f"listing-{uuid.uuid4().hex[:8]}", "nightly-job-of-the-support-bot"
    env = {"DATABASE_URL": database_url, "COLUMNS": "60"}
    made = runner.invoke(
        app, ["keys", "create", "--tenant", tenant, "--scope", "audits:read", "--name", name], env=env
    )
    assert made.exit_code == 0, made.output
    listed = runner.invoke(app, ["keys", "list", "--tenant", tenant], env=env)
    # a pipe (CliRunner is no terminal): the natural width, whatever COLUMNS says; nothing cut
    assert listed.exit_code == 0 and name in listed.stdout and "…" not in listed.stdout, listed.stdout
    doc = json.loads(runner.invoke(app, ["keys", "list", "--tenant", tenant, "--json"], env=env).stdout)
    assert [(k["tenant"], k["name"], k["scopes"]) for k in doc["items"]] == [(tenant, name, ["audits:read"])]
    again = runner.invoke(app, ["keys", "revoke", str(uuid.uuid4())], env=env)
    assert again.exit_code == 2, again.output  # no such key: a usage error (README's exit codes)
