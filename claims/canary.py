"""Planted-fault canaries: answers built from an audit's own references with one known fault each.

A canary is a short answer made of one reference sentence (after the sentence before it when it
opens with a pronoun, so that the pronoun can be resolved) in which ``claims.perturb`` planted
one fault. Audited against the same references, the claim carrying the fault must not be
accepted: the canary is *detected* when a material response claim whose span overlaps the fault
span gets a non-supporting verdict (``DETECTING``), and detected *exactly* when that verdict is
the one the fault calls for (``EXPECTED``).

Fault kinds (``CANARY_KINDS``): ``number`` (a number changed), ``date`` (a day, month or year
changed), ``negation`` (a negation inserted or dropped), ``entity`` (a name swapped for another
name of the references), ``roles`` (two names or two numbers of the sentence swapped),
``addition`` (an unsupported sentence appended), ``qualifier`` (a hedge dropped).

Everything here is pure and deterministic for a seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from claims.perturb import CANARY_KINDS, perturb

__all__ = ["CANARY_KINDS", "DETECTING", "EXPECTED", "Canary", "plant_canaries", "split_sentences"]

#: The verdict each fault calls for.
EXPECTED: dict[str, str] = {
    "number": "contradicted",
    "date": "contradicted",
    "negation": "contradicted",
    "entity": "contradicted",
    "roles": "contradicted",
    "addition": "unsupported",
    "qualifier": "qualification_dropped",
}
#: Verdicts that count as catching a planted fault (the claim is not accepted).
DETECTING: frozenset[str] = frozenset({"contradicted", "qualification_dropped", "unsupported"})

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])")
_PRONOUN_START = re.compile(r"^(?:It|Its|He|His|She|Her|They|Their|This|These|That|Those)\b")


@dataclass(frozen=True, slots=True)
class Canary:
    """One planted-fault answer.

    Attributes
    ----------
    kind : str
        The fault (a key of ``CANARY_KINDS``).
    response : str
        The canary answer to audit against the same references.
    original : str
        The reference sentence the fault was planted in.
    change : str
        What was changed, e.g. ``"1998 → 2000"``.
    reference : int
        0-based index of the reference the sentence came from.
    fault_start, fault_end : int
        Span ``[fault_start, fault_end)`` of the fault in ``response`` (code points; at least one
        character: a deletion is marked by the characters around it).
    expected : str
        The verdict the fault calls for (``EXPECTED[kind]``).
    """

    kind: str
    response: str
    original: str
    change: str
    reference: int
    fault_start: int
    fault_end: int
    expected: str


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans ``[(start, end)]`` of ``text`` (a regex split at ``. ! ?`` before a capital
    or digit; blank text gives ``[]``).

    >>> t = "The bridge opened in 1998. It is 1,420 metres long."
    >>> [t[s:e] for s, e in split_sentences(t)]
    ['The bridge opened in 1998.', 'It is 1,420 metres long.']
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in [*_SENTENCE_END.finditer(text), None]:
        end = len(text) if m is None else m.start()
        piece = text[start:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + len(piece.rstrip())))
        if m is not None:
            start = m.end()
    return spans


def _changed_span(before: str, after: str) -> tuple[int, int]:
    """The span of ``after`` that differs from ``before`` (common prefix and suffix removed),
    widened to at least one character."""
    p = 0
    while p < min(len(before), len(after)) and before[p] == after[p]:
        p += 1
    s = 0
    while s < min(len(before), len(after)) - p and before[-1 - s] == after[-1 - s]:
        s += 1
    start, end = p, len(after) - s
    if end <= start:  # a pure deletion: mark the characters on both sides
        start, end = max(0, start - 1), min(len(after), start + 1)
    return start, end


def _sentences(references: Sequence[str]) -> list[tuple[int, str, str]]:
    """(reference index, sentence, context) for every sentence; context is the sentence before a
    sentence that opens with a pronoun (else "")."""
    out: list[tuple[int, str, str]] = []
    for r, text in enumerate(references):
        spans = split_sentences(text)
        for k, (s, e) in enumerate(spans):
            sentence = text[s:e]
            context = ""
            if k > 0 and _PRONOUN_START.match(sentence):
                context = text[spans[k - 1][0] : spans[k - 1][1]]
            out.append((r, sentence, context))
    return out


def _canaries_of_kind(
    kind: str, sentences: list[tuple[int, str, str]], pool: Sequence[str], rng: random.Random, n: int
) -> list[Canary]:
    out: list[Canary] = []
    seen: set[str] = set()
    order = list(range(len(sentences)))
    rng.shuffle(order)
    for attempt in range(3):  # a sentence may give another variant on a later pass
        for k in order:
            if len(out) >= n:
                return out
            r, sentence, context = sentences[k]
            p = perturb(sentence, CANARY_KINDS[kind], random.Random(rng.random() + attempt), pool=pool)
            if p is None:
                continue
            prefix = f"{context} " if context else ""
            response = prefix + p.text
            if response in seen:
                continue
            seen.add(response)
            start, end = _changed_span(sentence, p.text)
            out.append(
                Canary(
                    kind,
                    response,
                    sentence,
                    p.change,
                    r,
                    len(prefix) + start,
                    len(prefix) + end,
                    EXPECTED[kind],
                )
            )
    return out


def plant_canaries(
    references: Sequence[str], *, per_kind: int = 3, kinds: Iterable[str] | None = None, seed: int = 0
) -> list[Canary]:
    """Up to ``per_kind`` canaries of each fault kind from the sentences of ``references``.

    Parameters
    ----------
    references : sequence of str
        The audit's reference texts (blank ones are skipped).
    per_kind : int
        Canaries wanted per kind, 1 to 50; fewer come back when the references offer fewer
        sentences with something of that kind (none at all: e.g. no number anywhere).
    kinds : iterable of str, optional
        Fault kinds (keys of ``CANARY_KINDS``); default all, in that order.
    seed : int
        The same references, kinds and seed give the same canaries.

    Returns
    -------
    list of Canary, grouped by kind in the order of ``kinds``.

    Raises
    ------
    ValueError
        An unknown kind (the message names it) or ``per_kind`` outside [1, 50].

    Examples
    --------
    >>> cs = plant_canaries(["The bridge opened on 12 May 1998 and has 4 lanes."], kinds=["date"], per_kind=1)
    >>> (cs[0].kind, cs[0].expected, cs[0].response != cs[0].original)
    ('date', 'contradicted', True)
    """
    wanted = list(CANARY_KINDS) if kinds is None else list(kinds)
    unknown = [k for k in wanted if k not in CANARY_KINDS]
    if unknown:
        raise ValueError(f"kinds: unknown fault kind(s) {unknown}; known: {sorted(CANARY_KINDS)}")
    if not 1 <= per_kind <= 50:
        raise ValueError(f"per_kind: must be between 1 and 50, got {per_kind}")
    sentences = _sentences(references)
    pool = [s for _, s, _ in sentences]
    out: list[Canary] = []
    for kind in dict.fromkeys(wanted):
        rng = random.Random(f"{seed}:{kind}")
        out += _canaries_of_kind(kind, sentences, pool, rng, per_kind)
    return out
