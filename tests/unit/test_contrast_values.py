"""The value edit kinds of the behavioural suite (``tools/contrast_values.py``): each makes the
edit it should on sentences written for these tests, and skips what it should.

The regression sample ``tests/data/contrast_values_sample.jsonl`` holds the edits the kinds make
of 8 hand-written supported pairs (one reference each; written for these tests) with the verdict
the engine gave each edit when the sample was made (``verdict``, ``reason``). A contrast edit
should come out ``contradicted`` and an invariance edit keep ``supported``; the rows the engine
misses today (``verdict`` differs) are strict expected failures, so that an engine change that
mends one shows here and the sample is brought up to date.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = [
    json.loads(line)
    for line in (ROOT / "tests/data/contrast_values_sample.jsonl").read_text(encoding="utf-8").splitlines()
]

_spec = importlib.util.spec_from_file_location("contrast_suite", ROOT / "tools" / "contrast_suite.py")
assert _spec is not None and _spec.loader is not None
suite: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)
edits = suite.edits  # tools/contrast_edits.py with the value kinds registered

EVIDENCE = (
    "The Halden bridge opened on 12 May 1998. It is 12 km long and cost 1,234 million kroner. "
    "Maria Lind of Norway finished second, behind Anna Berg."
)


def _made(text: str, kind: str, evidence: str = EVIDENCE) -> Any:
    return edits.generate(text, [kind], evidence)[kind]


@pytest.mark.parametrize(
    ("kind", "claim", "response"),
    [
        ("number_swap", "The Halden bridge is 12 km long.", "The Halden bridge is 18 km long."),
        ("year_swap", "The bridge opened in 1998.", "The bridge opened in 2001."),
        ("day_month_swap", "It opened on 12 May 1998.", "It opened on 15 May 1998."),
        ("day_month_swap", "It opened in May 1998.", "It opened in August 1998."),
        ("unit_swap", "The bridge is 12 km long.", "The bridge is 12 miles long."),
        ("ordinal_swap", "Maria Lind finished second.", "Maria Lind finished third."),
        ("name_swap", "Maria Lind finished second.", "Anna Berg finished second."),
        ("unit_conversion", "The bridge is 12 km long.", "The bridge is 7.46 miles long."),
        ("unit_conversion", "The run was 5 miles long.", "The run was 8.05 km long."),
        ("about_rounding", "It cost 1,234 million kroner.", "It cost about 1,200 million kroner."),
        ("about_rounding", "It cost $37.6 million.", "It cost about $38 million."),
        ("date_format", "It opened on 12 May 1998.", "It opened on May 12, 1998."),
        ("date_format", "It opened on May 12, 1998.", "It opened on 12 May 1998."),
        ("number_words", "The choir has three conductors.", "The choir has 3 conductors."),
        ("number_words", "The choir has 3 conductors.", "The choir has three conductors."),
    ],
)
def test_value_edits(kind: str, claim: str, response: str) -> None:
    got = _made(claim, kind)
    assert isinstance(got, edits.Edit), got
    assert got.text == response


@pytest.mark.parametrize(
    ("kind", "claim", "reason"),
    [
        # a swap needs the original value stated by the evidence
        ("number_swap", "The Halden bridge is 15 km long.", "value not in evidence"),
        ("year_swap", "The bridge opened in 1999.", "value not in evidence"),
        ("day_month_swap", "It opened on 14 May 1998.", "value not in evidence"),
        ("unit_swap", "The bridge is 14 km long.", "value not in evidence"),
        ("ordinal_swap", "Maria Lind finished fourth.", "value not in evidence"),
        ("name_swap", "Karl Holm won in Bergen.", "value not in evidence"),
        # nothing of the kind in the claim
        ("number_swap", "The choir has three conductors.", "no number in digits"),
        ("number_swap", "The bridge opened in 1998.", "no number in digits"),  # a year is year_swap's
        ("year_swap", "The bridge is 12 km long.", "no year"),
        # one end of a range or a decade changed is a malformed range ("1907-1905"), not a value
        ("year_swap", "The bridge was built in the 1998-99 season.", "year in a range or decade"),
        ("year_swap", "The bridge was built in the 1990s.", "year in a range or decade"),
        ("year_swap", "The bridge was open from 1998–2004.", "year in a range or decade"),
        ("day_month_swap", "The bridge opened in 1998.", "no date with a month"),
        ("unit_swap", "The choir has 12 singers.", "no quantity with a swappable unit"),
        ("ordinal_swap", "The bridge is 12 km long.", "no ordinal"),
        ("name_swap", "The bridge is long.", "no name"),
        ("unit_conversion", "The choir has 12 singers.", "no quantity with a convertible unit"),
        ("about_rounding", "The bridge is 12 km long.", "no number to round"),  # two figures
        ("about_rounding", "The bridge opened in 1998.", "no number to round"),  # a year
        ("date_format", "The bridge opened in May 1998.", "no full date with a month name"),
        ("number_words", "The bridge opened on 3 May 1998.", "no number from two to twenty"),  # a date
        ("number_words", "The choir has 35 singers.", "no number from two to twenty"),
    ],
)
def test_value_skips(kind: str, claim: str, reason: str) -> None:
    got = _made(claim, kind)
    assert isinstance(got, edits.Skip), got
    assert got.reason == reason


def test_name_swap_needs_another_name_of_the_type() -> None:
    """Only a name of the same entity type, sharing no word with the claim's names."""
    got = _made("Maria Lind finished second.", "name_swap", "Maria Lind finished second in Oslo.")
    assert got == edits.Skip("no other name of the type in evidence")


def test_value_kinds_are_registered() -> None:
    fams = {k: v.family for k, v in edits.KINDS.items()}
    contrast = ["number_swap", "year_swap", "day_month_swap", "unit_swap", "ordinal_swap", "name_swap"]
    invariance = ["unit_conversion", "about_rounding", "date_format", "number_words"]
    assert all(fams[k] == "contrast" for k in contrast)
    assert all(fams[k] == "invariance" for k in invariance)
    assert all(edits.KINDS[k].evidence for k in contrast)


@pytest.mark.parametrize("row", SAMPLE, ids=[f"{r['kind']}: {r['response']}" for r in SAMPLE])
def test_sample_edits_are_generated(row: dict[str, Any]) -> None:
    got = edits.generate(row["original"], [row["kind"]], "\n".join(row["references"]))[row["kind"]]
    assert isinstance(got, edits.Edit) and got.text == row["response"]


@pytest.fixture(scope="module")
def embedder() -> Any:
    return CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())


def _want(row: dict[str, Any]) -> str:
    return "contradicted" if row["family"] == "contrast" else "supported"


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=f"engine today: {r['verdict']}"))
        if r["verdict"] != _want(r)
        else r
        for r in SAMPLE
    ],
    ids=[f"{r['kind']}: {r['response']}" for r in SAMPLE],
)
def test_sample_verdicts(row: dict[str, Any], embedder: Any) -> None:
    """The whole audit in memory: the original supported; a contrast edit contradicted, an
    invariance edit supported."""
    items = [
        {"id": "o", "response": row["original"], "references": row["references"]},
        {"id": "e", "response": row["response"], "references": row["references"]},
    ]
    original, edited = (suite.verdict(d) for d in suite.batch.run_chunk(items, embedder))
    assert original == "supported"
    assert edited == _want(row), f"{row['kind']}: {row['response']!r} -> {edited}"


def test_name_swap_leaves_out_names_listed_with_the_original() -> None:
    """Names the evidence coordinates with the original fill the same slot (several values)."""
    evidence = "The top peach states are South Carolina, Georgia and California. Peaches grow in Texas."
    got = _made("Georgia is a top peach state.", "name_swap", evidence)
    assert isinstance(got, edits.Edit) and got.text == "Texas is a top peach state."


def test_ordinal_swap_leaves_out_adverbs() -> None:
    got = _made("Arsenal first reached the final.", "ordinal_swap", "Arsenal first reached the final.")
    assert got == edits.Skip("ordinal used as an adverb")


@pytest.mark.parametrize(
    ("claim", "evidence", "reason"),
    [
        # "California" fills the slot of "Georgia" in the evidence: both grow peaches
        (
            "Georgia grows peaches.",
            "Georgia grows peaches. California grows peaches too.",
            "another name of the type only in the slot",
        ),
        # a place after a preposition of place: "Kansas" / "the United States" may both be true
        (
            "The festival is held in Kansas.",
            "The festival is held in Kansas. Its founder moved to Denver.",
            "only places after a preposition of place",
        ),
    ],
)
def test_name_swap_skips_names_of_the_slot(claim: str, evidence: str, reason: str) -> None:
    """Names the evidence puts in the original's slot, and places after a preposition of
    place, are not swapped (the swap need not be false); sentences written for this test."""
    got = _made(claim, "name_swap", evidence)
    assert got == edits.Skip(reason), got
