"""Planted-fault canaries (claims.canary): every kind from plain references, spans that point at the fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims.canary import CANARY_KINDS, EXPECTED, plant_canaries, split_sentences

ROOT = Path(__file__).resolve().parents[2]
BRIDGE = json.loads((ROOT / "examples/01_paraphrase.json").read_text())["references"]
TRIAL = json.loads((ROOT / "examples/04_source_passages.json").read_text())["references"]


def test_every_kind_from_the_demo_references() -> None:
    canaries = plant_canaries(BRIDGE + TRIAL, per_kind=2)
    assert {c.kind for c in canaries} == set(CANARY_KINDS)
    for c in canaries:
        assert c.response != c.original and c.expected == EXPECTED[c.kind]
        assert 0 <= c.fault_start < c.fault_end <= len(c.response)


def test_fault_span_covers_the_change() -> None:
    (c,) = plant_canaries(
        ["The Halvorsen Bridge opened to traffic on 12 May 1998."], kinds=["date"], per_kind=1
    )
    old, new = c.change.split(" → ")
    assert c.response[c.fault_start : c.fault_end] == new and old in c.original


def test_pronoun_sentences_keep_the_sentence_before() -> None:
    refs = ["The Halvorsen Bridge opened in 1998. It was designed by the engineer Marit Olsen in 1994."]
    for c in plant_canaries(refs, kinds=["date"], per_kind=5):
        if c.original.startswith("It "):
            assert c.response.startswith("The Halvorsen Bridge opened in 1998. It ")
            assert c.fault_start > len("The Halvorsen Bridge opened in 1998.")


def test_no_month_is_taken_for_a_name_or_a_hedge() -> None:
    refs = ["The bridge opened on 12 May 1998 near Sandvik. Marit Olsen designed it."]
    canaries = plant_canaries(refs, kinds=["entity", "roles", "qualifier"], per_kind=5)
    assert canaries  # Sandvik and Marit Olsen are names to swap
    for c in canaries:
        assert "May" in c.response or "May" not in c.original, c  # the month is never swapped or dropped


def test_deterministic_and_seeded() -> None:
    assert plant_canaries(BRIDGE, seed=3) == plant_canaries(BRIDGE, seed=3)


def test_nothing_of_a_kind_gives_none_of_it() -> None:
    assert plant_canaries(["Water is wet."], kinds=["number", "date", "qualifier"]) == []
    assert plant_canaries(["   "]) == []


@pytest.mark.parametrize(
    ("kwargs", "message"), [({"kinds": ["spelling"]}, "unknown fault kind"), ({"per_kind": 0}, "per_kind")]
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plant_canaries(BRIDGE, **kwargs)  # type: ignore[arg-type]


def test_split_sentences() -> None:
    text = "It opened in 1998. It is 1,420 m long!  Is it? Yes."
    assert [text[s:e] for s, e in split_sentences(text)] == [
        "It opened in 1998.",
        "It is 1,420 m long!",
        "Is it?",
        "Yes.",
    ]
