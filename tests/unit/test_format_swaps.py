"""The same facts in ten formats, right, with one value wrong and with two values swapped between
subjects (``tests/data/format_swaps.jsonl``, written by ``tools/make_format_swaps.py``; its
docstring lists the formats and sets). A swapped value is in the reference, stated of another
subject: it must come out ``contradicted`` in a table row, a JSON array element, a JSON object
member, a bold-label section or a nested list as in prose.

Expectations are those of the run_cases.py contract, written into each line: a right rendering
has no contradicted and no unsupported claim; the one wrong value, and only it, is
contradicted; the two swapped values, and only they, are contradicted (claims.verdict's
definition: the reference states another point value in the same slot of the same subject).
The cases run in memory through ``claims.audit.audit_texts`` with the real all-MiniLM-L6-v2
embeddings, as ``tools/inprocess_batch.py`` runs them.

``KNOWN`` lists the cases that still fail, each with its cause; they are strict xfails, so a
fix that makes one pass fails here until it is taken off the list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claims.audit import audit_texts, report_to_dict
from claims.embed import default_embedder

DATA = Path(__file__).resolve().parents[1] / "data" / "format_swaps.jsonl"
CASES = {c["id"]: c for c in map(json.loads, DATA.read_text(encoding="utf-8").splitlines()) if c}
FORMATS = sorted({c["kind"].split(":")[1].split(",")[0].strip() for c in CASES.values()})

_SHIPS = (
    "the reference's 'It carries 510 passengers.' after 'MS Vesteraalen was built in 1983.' is "
    "rewritten about MS Nordlys: spaCy calls 'MS Vesteraalen' a person, and 'it' skips persons"
)
#: case id -> why it still fails
KNOWN = {
    "fs_people_prose_swap": "a birthplace swapped in prose ('Clara Nyberg was born in Umeå.') is "
    "unsupported: the prose name-slot check does not pair it with 'born ... in Uppsala'",
    "hs_scientists_prose_swap": "a birthplace swapped in prose ('Hedda Berg was born in Bergen.') is "
    "supported: the name 'Berg' is read as stated by 'Bergen'",
    **{f"hs_ships_{fmt}_wrong": _SHIPS for fmt in FORMATS},
    "hs_ships_prose_right": _SHIPS,
}


def check(case: dict[str, Any], doc: dict[str, Any]) -> list[str]:
    """What in the result document ``doc`` breaks the case's expectations (run_cases.py's rules
    for ``verdicts`` and ``counts``); empty when it holds."""
    problems = []
    claims = [c for c in doc["claims"] if c["role"] == "response"]
    for rule in case["expect"].get("verdicts", []):
        hits = [c for c in claims if rule["response_claim_contains"].lower() in c["text"].lower()]
        if not hits:
            problems.append(f"no claim contains {rule['response_claim_contains']!r}")
        problems += [f"{c['text']!r} is {c['verdict']}" for c in hits if c["verdict"] not in rule["verdict"]]
    for name, (lo, hi) in case["expect"].get("counts", {}).items():
        got = doc["counts"][name]
        if (lo is not None and got < lo) or (hi is not None and got > hi):
            problems.append(f"{name}={got}, expected [{lo}, {hi}]")
    return problems


@pytest.fixture(scope="module")
def embedder() -> Any:
    return default_embedder()


def _run(case: dict[str, Any], embedder: Any) -> list[str]:
    report = audit_texts(case["response"], case["references"], embedder=embedder)
    return check(case, report_to_dict(report, case["references"], case["response"]))


def test_the_set_covers_every_format_and_variant() -> None:
    # 13 sets x 10 formats x 3 variants (tools/make_format_swaps.py)
    assert len(CASES) == 390 and len(FORMATS) == 10
    assert set(KNOWN) <= set(CASES)


def test_the_checker_fails_a_swap_left_supported() -> None:
    case = CASES["fs_cities_table_swap"]
    doc = {
        "claims": [{"role": "response", "text": "Oslo, population: 291,000.", "verdict": "supported"}],
        "counts": {"contradicted": 0},
    }
    assert check(case, doc) == [
        "'Oslo, population: 291,000.' is supported",
        "no claim contains '709,000'",
        "contradicted=0, expected [2, 2]",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_same_verdicts_in_every_format(fmt: str, embedder: Any) -> None:
    ids = [i for i, c in CASES.items() if f": {fmt}," in c["kind"] and i not in KNOWN]
    failed = {i: p for i in ids if (p := _run(CASES[i], embedder))}
    assert not failed, failed


@pytest.mark.slow
@pytest.mark.parametrize("case_id", sorted(KNOWN))
def test_known_limits_still_fail(case_id: str, embedder: Any) -> None:
    if _run(CASES[case_id], embedder):
        pytest.xfail(KNOWN[case_id])
    pytest.fail(f"{case_id} passes now: take it off KNOWN")
