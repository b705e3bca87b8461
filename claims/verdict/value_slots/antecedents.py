"""The name a reference claim's pronoun subject may stand for: "He served two years and was
released in April 2010." after "... in 2008, Gauthe was arrested for failing to register".

Part of ``claims.verdict.value_slots`` (its docstring: the method). The references are split
into claims one sentence at a time, and a sentence that goes on about the subject of the ones
before it opens with "he", "she", "it" or "they"; it names no subject, and the value-slot
check, which asks a statement of a slot to name the claim's subject, never reads it. Here such
a claim may stand for the subjects of the ``LOOKBACK`` reference claims before it (the names
it may refer to; no coreference model), across references too: a page is often given as its
sentences, one reference each: the check counts those words as
held by it, so a claim about one of them is compared with its values as with a claim that
names it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from claims.facets import content_tokens
from claims.parses import parse
from claims.types import ClaimKind, ReferenceClaim
from claims.verdict.value_slots.reading import context

#: personal pronouns read as a subject that stands for an earlier one
PRONOUNS = frozenset({"he", "she", "it", "they"})
#: how many reference claims before a pronoun's (same reference) may hold the subject it stands for
LOOKBACK = 3


def pronoun_subject(text: str) -> bool:
    """The main verb of ``text`` has a personal pronoun (``PRONOUNS``) as its subject, active
    or passive ("He was released in April 2010", "In 1990 it moved to Oslo")."""
    doc = parse(text)
    if doc is None:
        return False
    roots = [t for t in doc if t.head.i == t.i]
    return any(k.dep_ in ("nsubj", "nsubjpass") and k.lower_ in PRONOUNS for r in roots for k in r.children)


def subject_words(text: str) -> set[str]:
    """The content words (stems) of every subject in the parse of ``text`` that is no pronoun,
    with its compound words ("Politz died in 2002, and in 2008, Gauthe was arrested": politz,
    gauth)."""
    doc = parse(text)
    out: set[str] = set()
    for t in doc if doc is not None else ():
        if t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in ("PROPN", "NOUN"):
            for w in [t, *(k for k in t.children if k.dep_ == "compound")]:
                out.update(content_tokens(w.text))
    return out


def antecedent_words(reference_claims: Sequence[ReferenceClaim]) -> dict[int, frozenset[str]]:
    """Index of each material reference claim with a pronoun subject -> the subject words
    (``subject_words``, stems) of the ``LOOKBACK`` reference claims before it; claims without a
    pronoun subject, or with no such subject before them, are absent."""
    out: dict[int, frozenset[str]] = {}
    for j, rc in enumerate(reference_claims):
        if rc.claim.kind is not ClaimKind.MATERIAL or not pronoun_subject(rc.claim.text):
            continue
        found: set[str] = set()
        for k in range(j - 1, max(-1, j - 1 - LOOKBACK), -1):
            found.update(subject_words(reference_claims[k].claim.text))
        if found:
            out[j] = frozenset(found)
    return out


def held_share(tokens: Sequence[str], texts: Sequence[str], extra: Sequence[frozenset[str]]) -> np.ndarray:
    """``reading.coverage`` of ``tokens`` by each text, the words of ``extra`` (one set a text:
    the subject words its pronoun may stand for, ``antecedent_words``) counted as held too:
    shape ``(len(texts),)``, float64 in [0, 1]."""
    if not tokens or not texts:
        return np.zeros(len(texts))
    held = np.array(
        [[t in context(x) or t in more for t in tokens] for x, more in zip(texts, extra, strict=True)],
        dtype=bool,
    )
    out: np.ndarray = held.mean(axis=1)
    return out
