"""The pure parts of tools/ablate.py: switching a rule finding off, dropping a feature family,
the case check over claim verdicts, and the deltas.

Expected values are worked out by hand from each function's docstring.
"""

from __future__ import annotations

import pytest

from tests.tool_modules import load_tool

pytest.importorskip("sklearn")


ab = load_tool("ablate")
N = len(ab.FEATURE_NAMES)


def _row(
    rule: str, finding: str | None, item: str = "c1", text: str = "a claim", dataset: str = "cases"
) -> dict:
    x = [float(i) for i in range(N)]
    return {"item": item, "dataset": dataset, "rule": rule, "finding": finding, "x": x, "text": text}


def test_every_feature_is_in_exactly_one_family() -> None:
    # a new feature column must be assigned a family, or its ablation would be silently missing
    names = [n for cols in ab.FAMILIES.values() for n in cols]
    assert sorted(names) == sorted(ab.FEATURE_NAMES)


def test_switching_a_finding_off_makes_the_rule_silent() -> None:
    rows = [_row("contradicted", "number"), _row("contradicted", "year"), _row("unsupported", "denial")]
    off = ab.without_finding(rows, "number")
    assert (off[0]["rule"], off[0]["finding"]) == ("unsupported", None)
    # the one-hot rule columns now say "unsupported" and nothing else
    hot = {n: off[0]["x"][ab.FEATURE_NAMES.index(n)] for n in ab.FAMILIES["rule"]}
    assert hot == {n: float(n == "rule_unsupported") for n in ab.FAMILIES["rule"]}
    assert off[1] == rows[1] and off[2] == rows[2]
    # a standing finding on an unsupported rule verdict is switched off the same way
    assert ab.without_finding(rows, "denial")[2]["finding"] is None


def test_dropping_a_family_removes_its_columns() -> None:
    out = ab.without_columns([_row("supported", None)], ab.FAMILIES["values"])
    assert len(out[0]["x"]) == N - len(ab.FAMILIES["values"])


def test_case_passes_checks_rules_and_counts() -> None:
    rows = [
        _row("supported", None, "c1", "opened in 1998"),
        _row("contradicted", "year", "c1", "closed in 2001"),
        _row("inferred", None, "c2", "x"),
    ]
    expect = {
        "c1": {"verdicts": [{"response_claim_contains": "CLOSED", "verdict": ["contradicted"]}],
               "counts": {"contradicted": [1, 1], "response_claims": [9, 9]}},  # response_claims: not counted
        "c2": {"counts": {"inferred": [1, None]}},
    }  # fmt: skip
    verdicts = [("supported", 0.9), ("contradicted", 0.8), ("supported", 0.7)]
    # c1: rule and contradicted count hold; c2: a supported verdict on a rule "inferred" counts as inferred
    assert ab.case_passes(rows, verdicts, expect, "cases") == (2, 2)
    assert ab.case_passes(
        rows, [("supported", 0.9), ("unsupported", 0.8), ("supported", 0.7)], expect, "cases"
    ) == (1, 2)


def test_delta_subtracts_figures_and_passed_counts() -> None:
    base = {"factcheck_ba": 0.7, "wice_ba": None, "cases_pass": "40/44"}
    assert ab.delta(base, {"factcheck_ba": 0.69, "wice_ba": 0.7, "cases_pass": "42/44"}) == {
        "factcheck_ba": -0.01, "cases_pass": 2,
    }  # fmt: skip
