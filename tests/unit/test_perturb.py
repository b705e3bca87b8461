"""Planted faults (claims.perturb): each kind changes what it names and nothing else."""

from __future__ import annotations

import random

import pytest

from claims.perturb import CANARY_KINDS, FAULT_KINDS, perturb

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


def test_training_kinds_are_unchanged() -> None:
    # tools/train_verdict.py draws rng.choice(FAULT_KINDS): a longer or reordered tuple changes its data
    assert FAULT_KINDS == ("number", "year", "negation", "entity", "antonym", "qualifier")


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("roles", "In the final Karin Dahl beat Olav Brandt.", "In the final Olav Brandt beat Karin Dahl."),
        (
            "roles",
            "It fell by 1.1 points against 0.3 on placebo.",
            "It fell by 0.3 points against 1.1 on placebo.",
        ),
        ("hedge", "The company may file next year.", "The company will file next year."),
        ("hedge", "It opened in May with about 40 guests.", "It opened in May with 40 guests."),
    ],
)
def test_canary_kinds(kind: str, text: str, expected: str) -> None:
    p = perturb(text, kind, random.Random(0), pool=POOL)
    assert p is not None and p.text == expected


def test_date_changes_one_part_and_entity_swap_skips_months() -> None:
    p = perturb("It opened on 12 May 1998.", "date", random.Random(2))
    assert p is not None and p.text != "It opened on 12 May 1998."
    assert perturb("It opened in May near Oslo.", "entity_swap", random.Random(0), pool=["In June."]) is None
    q = perturb("It opened near Oslo.", "entity_swap", random.Random(0), pool=["Karin Dahl lives in Bergen."])
    assert q is not None and "Oslo" not in q.text
    assert CANARY_KINDS["entity"] == "entity_swap" and set(CANARY_KINDS.values()) <= set(_all_kinds())


def _all_kinds() -> list[str]:
    from claims import perturb as module

    return list(module._KINDS)
