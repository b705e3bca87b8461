"""Planted faults (claims.perturb): each kind changes what it names and nothing else."""

from __future__ import annotations

import random

import pytest

from claims.perturb import FAULT_KINDS, perturb

POOL = ["Ines Marlow met Olav Brandt in Bergen."]


@pytest.mark.parametrize(
    ("kind", "text", "must_differ_in"),
    [
        ("number", "The bridge has 4 lanes and cost 640,000 kroner.", ("4 lanes", "640,000")),
        ("year", "The bridge opened in 1998.", ("1998",)),
        ("negation", "The museum was open on Mondays.", ("was open",)),
        ("negation", "The museum was not open on Mondays.", ("not",)),
        ("entity", "The prize went to Karin Dahl in Oslo.", ("Karin Dahl", "Oslo")),
        ("antonym", "The museum is open on Mondays.", ("open",)),
        ("qualifier", "About 40 people attended the opening.", ("About",)),
    ],
)
def test_each_kind_plants_its_fault(kind: str, text: str, must_differ_in: tuple[str, ...]) -> None:
    p = perturb(text, kind, random.Random(1), pool=POOL)
    assert p is not None and p.kind == kind and p.original == text and p.text != text
    assert any(s not in p.text for s in must_differ_in), (p.text, must_differ_in)
    assert p.change


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_nothing_to_perturb_gives_none(kind: str) -> None:
    assert perturb("hello", kind, random.Random(0), pool=()) is None


def test_deterministic_for_a_seed() -> None:
    a = [
        perturb("Between 1990 and 1995 it had 12 staff.", k, random.Random(7), pool=POOL) for k in FAULT_KINDS
    ]
    b = [
        perturb("Between 1990 and 1995 it had 12 staff.", k, random.Random(7), pool=POOL) for k in FAULT_KINDS
    ]
    assert a == b


def test_unknown_kind() -> None:
    with pytest.raises(KeyError):
        perturb("x", "nonsense", random.Random(0))
