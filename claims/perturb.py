"""Planted faults: perturb a true sentence so that it no longer agrees with its source.

Used to build synthetic training pairs for the learned decision (``tools/train_verdict.py``) and,
later, planted-fault canaries. Every perturbation is deterministic given its ``random.Random``.

Kinds (``FAULT_KINDS``): ``number`` (a number changed), ``year`` (a year moved), ``negation``
(a negation inserted after the first auxiliary verb, or removed), ``entity`` (a capitalised name
replaced by another name from the same text pool), ``antonym`` (a word replaced by its antonym),
``qualifier`` (a hedge or limiting word dropped). Each returns None when the sentence offers
nothing to perturb.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["FAULT_KINDS", "Perturbation", "perturb"]

_YEAR = re.compile(r"\b(1[5-9]\d{2}|20[0-4]\d)\b")
_NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d,])")
_AUX = re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would|should|did|does|do)\b")
_NEGATED = re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would|should|did|does|do) not\b")
_NAME = re.compile(r"(?<=\s)[A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,})*")
_QUALIFIER = re.compile(
    r"\b(?:about|approximately|around|roughly|nearly|almost|some|may|might|possibly|probably|"
    r"likely|reportedly|partly|partially|mostly|often|usually|up to|at least|more than|less than)\s",
    re.IGNORECASE,
)
#: A small antonym table for planting faults (written for this module; no external resource).
ANTONYMS = {
    "open": "closed", "closed": "open", "increased": "decreased", "decreased": "increased",
    "rose": "fell", "fell": "rose", "won": "lost", "lost": "won", "first": "last", "last": "first",
    "largest": "smallest", "smallest": "largest", "highest": "lowest", "lowest": "highest",
    "before": "after", "after": "before", "north": "south", "south": "north", "east": "west",
    "west": "east", "more": "fewer", "fewer": "more", "older": "younger", "younger": "older",
    "public": "private", "private": "public", "male": "female", "female": "male",
    "supported": "opposed", "opposed": "supported", "accepted": "rejected", "rejected": "accepted",
    "entered": "left", "joined": "left", "early": "late", "late": "early", "born": "died",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Perturbation:
    """A perturbed sentence: ``kind`` (one of ``FAULT_KINDS``), the new ``text``, and what changed."""

    kind: str
    text: str
    original: str
    change: str


def _year(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    m = _YEAR.search(text)
    if not m:
        return None
    new = str(int(m.group(1)) + rng.choice([-3, -2, -1, 1, 2, 3]))
    return text[: m.start(1)] + new + text[m.end(1) :], f"{m.group(1)} → {new}"


def _number(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    hits = [m for m in _NUMBER.finditer(text) if not _YEAR.fullmatch(m.group(1))]
    if not hits:
        return None
    m = rng.choice(hits)
    value = int(m.group(1).replace(",", ""))
    new_value = value + max(1, round(value * rng.choice([0.3, 0.5, 1.0, 2.0])))
    new = f"{new_value:,}" if "," in m.group(1) else str(new_value)
    return text[: m.start(1)] + new + text[m.end(1) :], f"{m.group(1)} → {new}"


def _negation(text: str, _rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    neg = _NEGATED.search(text)
    if neg:
        return text[: neg.end(1)] + text[neg.end(1) + 4 :], "negation removed"
    m = _AUX.search(text)
    if not m:
        return None
    return text[: m.end()] + " not" + text[m.end() :], "negation inserted"


def _entity(text: str, rng: random.Random, pool: Sequence[str]) -> tuple[str, str] | None:
    names = _NAME.findall(text)
    others = sorted({n for p in pool for n in _NAME.findall(p)} - set(names))
    if not names or not others:
        return None
    old, new = rng.choice(names), rng.choice(others)
    return text.replace(old, new, 1), f"{old} → {new}"


def _antonym(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    hits = [m for m in re.finditer(r"\b[a-z]+\b", text) if m.group(0) in ANTONYMS]
    if not hits:
        return None
    m = rng.choice(hits)
    new = ANTONYMS[m.group(0)]
    return text[: m.start()] + new + text[m.end() :], f"{m.group(0)} → {new}"


def _qualifier(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    hits = list(_QUALIFIER.finditer(text))
    if not hits:
        return None
    m = rng.choice(hits)
    return text[: m.start()] + text[m.end() :], f"'{m.group(0).strip()}' dropped"


_KINDS: dict[str, Callable[[str, random.Random, Sequence[str]], tuple[str, str] | None]] = {
    "number": _number,
    "year": _year,
    "negation": _negation,
    "entity": _entity,
    "antonym": _antonym,
    "qualifier": _qualifier,
}
FAULT_KINDS: tuple[str, ...] = tuple(_KINDS)


def perturb(text: str, kind: str, rng: random.Random, *, pool: Sequence[str] = ()) -> Perturbation | None:
    """Plant one fault of ``kind`` in ``text``; None when ``text`` has nothing of that kind.

    ``pool`` supplies replacement names for ``entity``. Raises ``KeyError`` for an unknown kind.

    >>> perturb("The bridge opened in 1998.", "year", random.Random(0)).text
    'The bridge opened in 1999.'
    >>> perturb("The museum is open on Mondays.", "negation", random.Random(0)).text
    'The museum is not open on Mondays.'
    """
    out = _KINDS[kind](text, rng, pool)
    if out is None or out[0] == text:
        return None
    return Perturbation(kind=kind, text=out[0], original=text, change=out[1])
