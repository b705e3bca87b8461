"""Pure tests of the CLI's batch I/O helpers (no services)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from claimaudit._flows import stage_moved
from cli.batch import BatchLine, read_batch_input, result_line
from cli.client import audit_body, error_message, idempotency_key
from cli.postgres import normalise_database_url


def test_read_batch_input_keeps_order_and_rejects_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(
        "\n".join(
            [
                json.dumps({"id": "a", "references": ["r"], "response": "x", "config": {}}),
                "",  # blank lines are skipped
                "{not json",
                json.dumps(["a", "list"]),
                json.dumps({"id": "e", "references": ["r"], "response": "y", "extra": 1}),
            ]
        )
        + "\n"
    )
    lines = read_batch_input(path)
    assert [ln.line_id for ln in lines] == ["a", "line-3", "line-4", "e"]
    assert [ln.line for ln in lines] == [1, 3, 4, 5]
    assert lines[0].body == {"references": ["r"], "response": "x", "config": {}}
    assert lines[1].body is None and "line 3 is not valid JSON" in (lines[1].error or "")
    assert lines[2].body is None and "not a JSON object" in (lines[2].error or "")
    # unknown top-level keys (here "extra") reject the line, as the API rejects unknown fields
    assert lines[3].body is None and "unknown field(s) extra" in (lines[3].error or "")


def test_idempotency_key_depends_on_id_and_content_only() -> None:
    body = {"references": ["r1", "r2"], "response": "x", "config": {"threshold": 0.8}}
    reordered = {"config": {"threshold": 0.8}, "response": "x", "references": ["r1", "r2"]}
    assert idempotency_key("case-1", body) == idempotency_key("case-1", reordered)
    assert idempotency_key("case-1", body) != idempotency_key("case-2", body)
    assert idempotency_key("case-1", body) != idempotency_key("case-1", {**body, "response": "y"})
    # reference order is content: swapping references changes every reference index
    assert idempotency_key("case-1", body) != idempotency_key("case-1", {**body, "references": ["r2", "r1"]})
    assert idempotency_key("x" * 500, body).startswith("x" * 100 + ":")


def test_audit_body_takes_only_the_audit_fields() -> None:
    line = {
        "id": "a",
        "references": ["r"],
        "response": "x",
        "question": "q",
        "metadata": {"k": 1},
        "kind": "z",
    }
    assert audit_body(line) == {"references": ["r"], "response": "x", "question": "q", "metadata": {"k": 1}}


def test_result_line_shapes() -> None:
    from cli.client import Submission

    rejected = result_line(
        BatchLine("a", {"references": [""]}), Submission(0, None, "rejected", "references.0: blank"), None
    )
    assert rejected == {"id": "a", "line": None, "status": "rejected", "error": "references.0: blank"}
    unparsable = result_line(BatchLine("line-2", None, "line 2 is not valid JSON", 2), None, None)
    assert unparsable == {
        "id": "line-2",
        "line": 2,
        "status": "rejected",
        "error": "line 2 is not valid JSON",
    }
    refused = result_line(
        BatchLine("b", {"references": ["r"]}, None, 4), Submission(0, None, "rejected", "x"), None
    )
    assert refused["error"] == "line 4: x"  # the API's reason, with the line it is about
    doc = {"id": "uuid-1", "status": "done", "error": None, "scores": {"claim_f1": 1.0}}
    done = result_line(BatchLine("case-7", {"references": ["r"]}), Submission(0, "uuid-1", "queued"), doc)
    assert done["id"] == "case-7" and done["audit_id"] == "uuid-1"
    assert done["status"] == "done" and done["scores"] == {"claim_f1": 1.0}
    assert list(done)[:2] == ["id", "audit_id"]


@pytest.mark.parametrize(
    ("status", "payload", "expected"),
    [
        # FastAPI's validation error list: loc without the leading "body"
        (
            422,
            {"detail": [{"loc": ["body", "references", 0], "msg": "must not be blank"}]},
            "references.0: must not be blank",
        ),
        (
            413,
            {"detail": "response is longer than 100000 characters"},
            "response is longer than 100000 characters",
        ),
    ],
)
def test_error_message(status: int, payload: object, expected: str) -> None:
    assert error_message(httpx.Response(status, json=payload)) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://u@h:1/d", "postgresql+psycopg://u@h:1/d"),
        ("postgresql://u@h:1/d", "postgresql+psycopg://u@h:1/d"),
        ("postgresql+psycopg://u@h:1/d", "postgresql+psycopg://u@h:1/d"),
    ],
)
def test_normalise_database_url(url: str, expected: str) -> None:
    assert normalise_database_url(url) == expected


def test_stage_moved_is_progress_of_a_batch() -> None:
    # a large batch finishes no audit for minutes while its audits move from stage to stage:
    # a move counts as progress for the stall timeout, a first look does not
    queued = {"status": "queued", "stage": None}
    embedding = {"status": "embedding", "stage": "embed"}
    assert not stage_moved(None, embedding)
    assert not stage_moved(embedding, dict(embedding))
    assert stage_moved(queued, embedding)


@pytest.mark.parametrize(
    "args", [["runs", "list"], ["runs", "compare", "nightly/l1"], ["suites", "apply", "{suites}"]]
)
def test_runs_and_suites_commands_use_the_configured_port_and_exit_3_when_it_does_not_answer(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `runs`/`suites` go to CLAIMAUDIT_API_PORT, never a hard-coded :8000; an unreachable API is
    # no traceback and no exit 1 (the gate's "quality dropped" code): an
    # unreachable API is exit 3 (README "Exit codes"), never the gate's 1 nor a usage error's 2
    from typer.testing import CliRunner

    from cli import processes, stack
    from cli.main import app

    port = processes.free_port()  # nothing listens there
    monkeypatch.setattr(stack, "DEFAULT_API_PORT", port)
    monkeypatch.delenv("CLAIMAUDIT_API_URL", raising=False)
    monkeypatch.setenv("CLAIMAUDIT_API_KEY", "ca_test")
    suites = tmp_path / "suites.yaml"
    suites.write_text("suites:\n  nightly:\n    cron: '0 2 * * *'\n")
    result = CliRunner().invoke(app, [a.replace("{suites}", str(suites)) for a in args])
    assert result.exit_code == 3, result.output
    assert f"127.0.0.1:{port}" in result.output and "Traceback" not in result.output


def test_batch_of_a_missing_file_is_a_usage_error_and_a_binary_one_is_read_line_by_line(
    tmp_path: Path,
) -> None:
    # a non-UTF-8 input is no UnicodeDecodeError traceback (exit 1), and one bad byte does not
    # stop the whole batch with exit 2, the code of an outage: a bad line is that
    # line's problem (rejected with its number), so a binary file gets as far as the API
    from typer.testing import CliRunner

    from cli import processes
    from cli.main import app

    binary = tmp_path / "bin.dat"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    free = ["--no-start", "--api-port", str(processes.free_port())]  # nothing listens there
    out = str(tmp_path / "out.jsonl")
    missing = CliRunner().invoke(app, ["batch", str(tmp_path / "missing.jsonl"), "-o", out, *free])
    assert missing.exit_code == 2 and "missing.jsonl" in missing.output, missing.output
    read = CliRunner().invoke(app, ["batch", str(binary), "-o", out, *free])
    assert read.exit_code == 3 and "is not running" in read.output, read.output  # the API, not the file
    assert "Traceback" not in missing.output + read.output and not (tmp_path / "out.jsonl").exists()


def test_runs_compare_prints_claim_text_as_written_even_with_brackets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # claim text is no rich markup: '[/bold]' in an audited answer raises no MarkupError
    # (traceback, exit 1 = "gate crossed") and '[citation needed]' stays in the output
    from cli.common import console
    from cli.compare_view import render_comparison

    claim = {
        "verdict": "contradicted",
        "text": "It opened in 1998 [citation needed] [/bold].",
        "reason": "[x]",
        "evidence": "[e]",
    }
    doc = {
        "base": {"label": "l1", "id": "r1"}, "new": {"suite": "s[1]", "label": "l2"},
        "items_compared": 1, "items_added": [], "items_removed": [],
        "score_deltas": {}, "shares": {}, "worse_items": [{"item_id": "[a]"}],
        "changed_claims": [{"item_id": "[a]", "before": {**claim, "verdict": "supported"}, "after": claim}],
        "new_claims": [], "vanished_claims": [],
        "gate": {"crossed": [], "limits": {}},
    }  # fmt: skip
    render_comparison(console, doc)
    out = capsys.readouterr().out
    assert "[citation needed] [/bold]" in out and "s[1]" in out and "[a]" in out and "([x])" in out
    assert "supported → contradicted" in out  # the worse item's real change, not a share


def test_status_exits_3_when_a_needed_service_is_not_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``claimaudit status`` with nothing running (an empty state folder, an external database
    that is not probed, a Redis URL on a port where nothing listens) prints the table and exits 3
    (README "Exit codes": the service unreachable), naming what is not up."""
    from typer.testing import CliRunner

    from cli import processes
    from cli.main import app

    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/none")  # "external"
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{processes.free_port()}/0")
    result = CliRunner().invoke(app, ["status"])
    assert result.exit_code == 3, result.output
    assert "not up: redis (stopped), worker (stopped), beat (stopped), api (stopped)" in result.output
    assert "flower" not in result.output.split("not up:")[1]  # no stack info: Flower was not asked for


def test_not_up_counts_flower_only_when_the_stack_started_it() -> None:
    from cli.stack import ServiceStatus, StackInfo, not_up

    rows = [ServiceStatus("api", "healthy", ""), ServiceStatus("flower", "stopped", "")]
    info = StackInfo("db", "redis", "http://api", "http://flower", True, None)
    assert [r.name for r in not_up(rows, info)] == ["flower"]
    assert not_up(rows, StackInfo("db", "redis", "http://api", None, True, None)) == []
    assert [r.name for r in not_up([ServiceStatus("worker", "frozen", "")], None)] == ["worker"]


def test_runs_show_names_each_rejected_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A numbered line's reason comes from the API already starting "line N:" (api/routes/runs.py);
    ``runs show`` prints it once, and prefixes the reasons that lack it."""
    import io

    from rich.console import Console

    from cli import runs

    out = io.StringIO()
    monkeypatch.setattr(runs, "console", Console(file=out, width=200))
    doc = {
        "id": "r",
        "suite": "s",
        "label": "n1",
        "status": "finished",
        "summary": {"items": 2, "counts": {"rejected": 2}},
        "rejections": [
            {"line": 3, "reason": "line 3: not valid JSON"},
            {"line": None, "item_id": "q7", "reason": "already in this run with other content"},
        ],
    }
    runs.print_run(doc)
    text = out.getvalue()
    assert "  line 3: not valid JSON" in text and "line 3: line 3" not in text
    assert "  item q7: already in this run with other content" in text


@pytest.mark.parametrize(
    ("error", "code"),
    [
        # the API refused the run's suite name (422): re-running the same command cannot help
        ("invalid", 2),
        # 503 after the client's retries: the service is down, re-running resumes (README "Exit codes")
        ("unavailable", 3),
    ],
)
def test_batch_tells_a_refusal_from_an_outage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: str, code: int
) -> None:
    import contextlib

    import typer

    from claimaudit.errors import InvalidRequest, ServiceUnavailable
    from cli import batch

    exc = (
        InvalidRequest(422, "suite: must not contain '/'", field="suite")
        if error == "invalid"
        else ServiceUnavailable(503, "database does not answer")
    )
    monkeypatch.setattr(batch, "connect", lambda url, **options: contextlib.nullcontext(object()))

    def refuse(*args: object, **kwargs: object) -> None:
        raise exc

    monkeypatch.setattr(batch, "run_batch", refuse)
    with pytest.raises(typer.Exit) as exit_:
        batch._run_journaled(
            "http://api", [], tmp_path / "out.partial", (100, 900.0), False, ("bad/suite", "r1")
        )
    assert exit_.value.exit_code == code


def test_runs_compare_without_b_says_when_the_run_has_no_baseline(monkeypatch: pytest.MonkeyPatch) -> None:
    """``runs compare S/R`` on a suite's first finished run, which the API answers 404 (no
    baseline): exit 2 (README "Exit codes": usage) with the reason and the run's own gate, not
    the API's raw 404."""
    import io

    import typer

    from cli import common
    from cli.runs import _no_baseline

    first = {
        "suite": "nightly",
        "label": "n1",
        "status": "finished",
        "summary": {"baseline": None, "gate": {"crossed": ["8 of 9 items were not scored"]}},
    }
    out = io.StringIO()
    # rich's Console reads sys.stderr at each write while ``_file`` is None; monkeypatch puts
    # None back, so later CliRunner tests still capture this console's output.
    monkeypatch.setattr(common.err, "_file", out)
    with pytest.raises(typer.Exit) as exit_:
        _no_baseline(first)
    assert exit_.value.exit_code == 2
    assert "run nightly/n1 has no baseline" in out.getvalue()
    assert "its own gate crossed: 8 of 9 items were not scored" in out.getvalue()
