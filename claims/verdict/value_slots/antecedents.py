"""The name a reference claim's pronoun subject stands for: "He served two years and was
released in April 2010." after "In 2008, Gauthe was arrested for failing to register".

Part of ``claims.verdict.value_slots`` (its docstring: the method). The references are split
into claims one sentence at a time, and a sentence that goes on about the subject of the ones
before it opens with "he", "she", "it" or "they"; it names no subject, and the value-slot
check, which asks a statement of a slot to name the claim's subject, never reads it. Here such
a claim stands for one subject: the last subject named in the nearest reference claim before it
that names one (within ``LOOKBACK`` claims; across references too, since a page is often given
as its sentences, one reference each), the usual reading of a subject pronoun (centering:
Grosz, Joshi and Weinstein, Computational Linguistics 21(2), 1995). It stands for nothing when
that subject does not agree with the pronoun (``AGREES``): "he"/"she" need a name of no other
sex (by its first name or title, ``claims.decompose.antecedents.sex_of``), "it" a thing (a
common noun, or a name with a determiner: "The Varden Press"), "they" no person of a known
sex. No coreference model: a pronoun whose referent is not that subject ("Mary Jones married
Tom Hill. He died in 1995.") is left unread, never read as another person's statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from claims.decompose.antecedents import sex_of
from claims.facets import content_tokens
from claims.parses import parse
from claims.types import ClaimKind, ReferenceClaim
from claims.verdict.value_slots.reading import context

#: personal pronouns read as a subject that stands for an earlier one
PRONOUNS = frozenset({"he", "she", "it", "they"})
#: the dependency labels of a subject, active and passive
SUBJECT_DEPS = ("nsubj", "nsubjpass")
#: how many reference claims before a pronoun's (across references) are searched for the subject it
#: stands for (the nearest that names a subject is the one read)
LOOKBACK = 3


def pronoun_subject(text: str) -> str | None:
    """The personal pronoun (``PRONOUNS``, lower case) that is the subject of the main verb of
    ``text``, active or passive ("He was released in April 2010" -> "he", "In 1990 it moved to
    Oslo" -> "it"); None when the main verb has another subject or none."""
    doc = parse(text)
    if doc is None:
        return None
    roots = [t for t in doc if t.head.i == t.i]
    found = [k.lower_ for r in roots for k in r.children if k.dep_ in SUBJECT_DEPS and k.lower_ in PRONOUNS]
    return found[0] if found else None


def _noun_subjects(text: str) -> list[Any]:
    """The subjects (``SUBJECT_DEPS``) in the parse of ``text`` that are nouns or proper nouns,
    in order, each with its compound words: spaCy tokens, sorted by position."""
    doc = parse(text)
    tokens = doc if doc is not None else ()
    heads = [t for t in tokens if t.dep_ in SUBJECT_DEPS and t.pos_ in ("PROPN", "NOUN")]
    return [sorted([t, *(k for k in t.children if k.dep_ == "compound")], key=lambda w: w.i) for t in heads]


def subject_words(text: str) -> set[str]:
    """The content words (stems) of every subject in the parse of ``text`` that is a noun or
    proper noun, with its compound words ("Politz died in 2002, and in 2008, Gauthe was
    arrested": politz, gauth)."""
    return {w for parts in _noun_subjects(text) for t in parts for w in content_tokens(t.text)}


def last_subject(text: str) -> tuple[frozenset[str], str] | None:
    """The last subject in the parse of ``text`` that is a noun or proper noun ("Politz died in
    2002, and in 2008, Gauthe was arrested" -> Gauthe): its content words with its compound
    words (stems), and what it is: "m" or "f" (a first name or title that ``sex_of`` knows),
    "thing" (a common noun, or a proper noun with a determiner: "the town hall", "The Varden
    Press"), else "name" (a person or a thing: the parse has no entity types); None when no such
    subject."""
    subjects = _noun_subjects(text)
    if not subjects:
        return None
    parts = subjects[-1]
    head = next(t for t in parts if t.dep_ in SUBJECT_DEPS)
    words = frozenset(w for t in parts for w in content_tokens(t.text))
    if head.pos_ == "NOUN" or any(k.dep_ == "det" for k in head.children):
        return words, "thing"
    return words, sex_of(" ".join(t.text for t in parts)) or "name"


#: what each personal pronoun may stand for (``last_subject``'s kinds)
AGREES: dict[str, frozenset[str]] = {
    "he": frozenset({"m", "name"}),
    "she": frozenset({"f", "name"}),
    "it": frozenset({"thing"}),
    # a group or a thing ("The Beatles ... They split"), never one person of a known sex
    "they": frozenset({"name", "thing"}),
}


def antecedent_words(reference_claims: Sequence[ReferenceClaim]) -> dict[int, frozenset[str]]:
    """Index of each material reference claim with a pronoun subject -> the words (stems,
    ``last_subject``) of the subject it stands for: the last subject of the nearest of the
    ``LOOKBACK`` reference claims before it that names one, where it agrees with the pronoun;
    claims without a pronoun subject, or whose nearest subject does not agree, are absent.
    Computed once per list of reference claims (the value-slot check asks for every response
    claim of an audit)."""
    claims = tuple((rc.claim.kind is ClaimKind.MATERIAL, rc.claim.text) for rc in reference_claims)
    return _antecedents(claims)


@lru_cache(maxsize=8)
def _antecedents(claims: tuple[tuple[bool, str], ...]) -> dict[int, frozenset[str]]:
    """``antecedent_words`` of (material, text) pairs."""
    out: dict[int, frozenset[str]] = {}
    for j, (material, text) in enumerate(claims):
        pronoun = pronoun_subject(text) if material else None
        if pronoun is None:
            continue
        for k in range(j - 1, max(-1, j - 1 - LOOKBACK), -1):
            found = last_subject(claims[k][1])
            if found is not None:
                if found[0] and found[1] in AGREES[pronoun]:
                    out[j] = found[0]
                break
    return out


def held_share(tokens: Sequence[str], texts: Sequence[str], extra: Sequence[frozenset[str]]) -> np.ndarray:
    """Share of ``tokens`` held by each text's masked context (``reading.context``), the words
    of ``extra`` (one set a text: the subject words its pronoun may stand for,
    ``antecedent_words``) counted as held too: shape ``(len(texts),)``, float64 in [0, 1]."""
    if not tokens or not texts:
        return np.zeros(len(texts))
    held = np.array(
        [[t in context(x) or t in more for t in tokens] for x, more in zip(texts, extra, strict=True)],
        dtype=bool,
    )
    out: np.ndarray = held.mean(axis=1)
    return out
