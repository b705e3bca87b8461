"""Planted faults: perturb a true sentence so that it no longer agrees with its source.

Used to build synthetic training pairs for the learned decision (``tools/train_verdict.py``) and
the planted-fault canaries (``claims.canary``). Every perturbation is deterministic given its
``random.Random``.

Training kinds (``FAULT_KINDS``, the trainer draws from exactly these, in this order):
``number`` (a number changed), ``year`` (a year moved), ``negation`` (a negation inserted after
the first auxiliary verb, or removed), ``entity`` (a capitalised name replaced by another name
from the same text pool), ``antonym`` (a word replaced by its antonym), ``qualifier`` (a hedge or
limiting word dropped).

Further kinds, used by the canaries (``CANARY_KINDS`` maps a canary's fault to one of these):
``date`` (a day, month or year of a date changed), ``entity_swap`` (``entity`` without calendar
words: a name replaced by a name of the pool sharing no word with it), ``roles`` (two names, or
else two numbers, of the sentence swapped), ``addition`` (an unsupported sentence appended),
``hedge`` (a hedge dropped so that the sentence stays grammatical: a modal such as "may" becomes
"will").

Each returns None when the sentence offers nothing to perturb.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from claims import lexicon

__all__ = ["CANARY_KINDS", "FAULT_KINDS", "Perturbation", "perturb"]

YEAR = re.compile(r"\b(1[5-9]\d{2}|20[0-4]\d)\b")
_NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d,])")
_AUX = re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would|should|did|does|do)\b")
_NEGATED = re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would|should|did|does|do) not\b")
_NAME = re.compile(r"(?<=\s)[A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,})*")
_QUALIFIER = re.compile(
    r"\b(?:about|approximately|around|roughly|nearly|almost|some|may|might|possibly|probably|"
    r"likely|reportedly|partly|partially|mostly|often|usually|up to|at least|more than|less than)\s",
    re.IGNORECASE,
)
#: word -> the opposite an ``antonym`` fault puts in its place: the first opposite of the
#: project's lexicon (``claims.lexicon``: the pairs written for claimaudit, then WordNet's direct
#: antonyms) of each word that has one; indirect and derived WordNet pairs are left out
ANTONYMS: dict[str, str] = {
    w: found[0].word
    for w in sorted(lexicon.words())
    if (found := [o for o in lexicon.opposites(w) if o.source in ("hand", "wordnet") and " " not in o.word])
}


@dataclass(frozen=True, slots=True)
class Perturbation:
    """A perturbed sentence: ``kind`` (one of ``FAULT_KINDS``), the new ``text``, and what changed."""

    kind: str
    text: str
    original: str
    change: str


def _year(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    m = YEAR.search(text)
    if not m:
        return None
    new = str(int(m.group(1)) + rng.choice([-3, -2, -1, 1, 2, 3]))
    return text[: m.start(1)] + new + text[m.end(1) :], f"{m.group(1)} → {new}"


def _number(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    hits = [m for m in _NUMBER.finditer(text) if not YEAR.fullmatch(m.group(1))]
    if not hits:
        return None
    m = rng.choice(hits)
    value = int(m.group(1).replace(",", ""))
    new_value = value + max(1, round(value * rng.choice([0.3, 0.5, 1.0, 2.0])))
    new = f"{new_value:,}" if "," in m.group(1) else str(new_value)
    return text[: m.start(1)] + new + text[m.end(1) :], f"{m.group(1)} → {new}"


def negation_of(text: str, _rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
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


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")  # fmt: skip
_MONTH_ALT = "|".join(_MONTHS)
_DAY_MONTH = re.compile(
    rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m>{_MONTH_ALT})\b|\b(?P<m2>{_MONTH_ALT})\s+(?P<d2>\d{{1,2}})\b"
)
#: Unsupported sentences appended by ``addition`` (plausible, specific, and in no reference of ours).
ADDITIONS: tuple[str, ...] = (
    "It also received a national design award in 2011.",
    "The work was funded entirely by a private foundation.",
    "More than 3 million people visited it in its first year.",
    "Its chief architect later moved to Singapore.",
    "A second phase is planned to open in 2031.",
)


def _date_parts(text: str, rng: random.Random) -> list[tuple[int, int, str]]:
    """Candidate changes ``(start, end, new)``: each day, month name and year of ``text``."""
    parts: list[tuple[int, int, str]] = []
    for m in _DAY_MONTH.finditer(text):
        day, month = ("d", "m") if m.group("d") else ("d2", "m2")
        old_day = int(m.group(day))
        new_day = (old_day - 1 + rng.choice([3, 5, 7, 9])) % 28 + 1
        parts.append((m.start(day), m.end(day), str(new_day)))
        i = _MONTHS.index(m.group(month))
        parts.append((m.start(month), m.end(month), _MONTHS[(i + rng.choice([1, 2, 3, 4])) % 12]))
    for m in YEAR.finditer(text):
        parts.append((m.start(1), m.end(1), str(int(m.group(1)) + rng.choice([-3, -2, -1, 1, 2, 3]))))
    return parts


def _date(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    parts = _date_parts(text, rng)
    if not parts:
        return None
    start, end, new = rng.choice(parts)
    return text[:start] + new + text[end:], f"{text[start:end]} → {new}"


def _swap(text: str, a: re.Match[str], b: re.Match[str], group: int = 0) -> str:
    (s1, e1), (s2, e2) = a.span(group), b.span(group)
    return text[:s1] + text[s2:e2] + text[e1:s2] + text[s1:e1] + text[e2:]


_CALENDAR = frozenset(
    (*_MONTHS, "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
)


def _names(text: str) -> list[re.Match[str]]:
    """Capitalised names of ``text`` that are not calendar words ("May", "Monday")."""
    return [m for m in _NAME.finditer(text) if not set(m.group(0).split()) & _CALENDAR]


def entity_swap_of(text: str, rng: random.Random, pool: Sequence[str]) -> tuple[str, str] | None:
    """``entity`` without calendar words: a name replaced by a name of the pool sharing no word with it."""
    names = _names(text)
    if not names:
        return None
    m = rng.choice(names)
    old = m.group(0)
    others = sorted({n.group(0) for p in pool for n in _names(p)} - {x.group(0) for x in names})
    others = [o for o in others if not set(o.split()) & set(old.split())]
    if not others:
        return None
    new = rng.choice(others)
    return text[: m.start()] + new + text[m.end() :], f"{old} → {new}"


def _roles(text: str, _rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    names = _names(text)
    for i, a in enumerate(names):
        other = next((b for b in names[i + 1 :] if b.group(0) != a.group(0)), None)
        if other is not None:
            return _swap(text, a, other), f"{a.group(0)} ⇄ {other.group(0)}"
    numbers = [
        m
        for m in _NUMBER.finditer(text)
        if not YEAR.fullmatch(m.group(1)) and not text[: m.start()][-1:].isalpha()
    ]
    for i, a in enumerate(numbers):
        other = next((b for b in numbers[i + 1 :] if b.group(0) != a.group(0)), None)
        if other is not None:
            return _swap(text, a, other), f"{a.group(0)} ⇄ {other.group(0)}"
    return None


def _addition(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    if not text.strip():
        return None
    added = rng.choice(ADDITIONS)
    return f"{text.rstrip()} {added}", f"added: {added}"


_MODAL = re.compile(r"\b(?:may|might|could)\s(?=[a-z])")
#: The hedges of ``_QUALIFIER`` in lower case only (so that the month "May" is never a hedge).
_HEDGE = re.compile(_QUALIFIER.pattern)


def _hedge(text: str, rng: random.Random, _pool: Sequence[str]) -> tuple[str, str] | None:
    modal = _MODAL.search(text)
    if modal:
        return text[: modal.start()] + "will " + text[modal.end() :], f"'{modal.group(0).strip()}' → 'will'"
    hits = list(_HEDGE.finditer(text))
    if not hits:
        return None
    m = rng.choice(hits)
    return text[: m.start()] + text[m.end() :], f"'{m.group(0).strip()}' dropped"


_KINDS: dict[str, Callable[[str, random.Random, Sequence[str]], tuple[str, str] | None]] = {
    "number": _number,
    "year": _year,
    "negation": negation_of,
    "entity": _entity,
    "antonym": _antonym,
    "qualifier": _qualifier,
    "date": _date,
    "roles": _roles,
    "addition": _addition,
    "hedge": _hedge,
    "entity_swap": entity_swap_of,
}
#: The kinds ``tools/train_verdict.py`` draws synthetic negatives from (do not reorder or extend:
#: the trainer's random draws, and so its shipped model, depend on this tuple).
FAULT_KINDS: tuple[str, ...] = ("number", "year", "negation", "entity", "antonym", "qualifier")
#: Canary fault (what ``POST /audits/{id}/canaries`` reports on) → the perturbation kind planting it.
CANARY_KINDS: dict[str, str] = {
    "number": "number",
    "date": "date",
    "negation": "negation",
    "entity": "entity_swap",
    "roles": "roles",
    "addition": "addition",
    "qualifier": "hedge",
}


def perturb(text: str, kind: str, rng: random.Random, *, pool: Sequence[str] = ()) -> Perturbation | None:
    """Plant one fault of ``kind`` in ``text``; None when ``text`` has nothing of that kind.

    ``kind`` is one of ``FAULT_KINDS`` or the further kinds ``date``, ``entity_swap``, ``roles``,
    ``addition``, ``hedge``. ``pool`` supplies replacement names for ``entity``. Raises ``KeyError`` for an
    unknown kind.

    >>> perturb("The bridge opened in 1998.", "year", random.Random(0)).text
    'The bridge opened in 1999.'
    >>> perturb("The museum is open on Mondays.", "negation", random.Random(0)).text
    'The museum is not open on Mondays.'
    >>> perturb("It opened on 12 May 1998.", "date", random.Random(0)).change
    'May → September'
    >>> perturb("In the final Karin Dahl beat Olav Brandt.", "roles", random.Random(0)).text
    'In the final Olav Brandt beat Karin Dahl.'
    """
    out = _KINDS[kind](text, rng, pool)
    if out is None or out[0] == text:
        return None
    return Perturbation(kind=kind, text=out[0], original=text, change=out[1])
