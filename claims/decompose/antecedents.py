"""Rewriting, antecedents: the subjects and people named so far in a text (``Antecedents``),
and the sex a person's name says (``claims/data/first_names.tsv``), for he / she / it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from claims.decompose.mentions import core_mention
from claims.decompose.words import word_list
from claims.facets.vocabulary import data_lines
from claims.spacy_pipeline import entity_type
from claims.types import odd_input


@dataclass(slots=True)
class Antecedents:
    """The subjects named so far: the last one, the last one containing a proper noun (used
    for he / she, which refer to people, i.e. names), and the last one that is no person (used
    for it / its: "It will be widened" never means the engineer named just before).

    Whether a subject names a person is spaCy's PERSON entity, which needs the entity
    recogniser on its sentence (``claims.spacy_pipeline.entity_type``): it is asked only when
    "it" / "its" looks back, newest subject first, so most sentences are never run through the
    recogniser."""

    last: str | None = None
    named: str | None = None
    #: (mention, names a person: a bool or a function that finds out, plural), oldest first
    seen: list[tuple[str, bool | Callable[[], bool], bool]] = field(default_factory=list)
    #: the mentions holding a proper noun, oldest first (for definite descriptions)
    names: list[str] = field(default_factory=list)
    #: definite descriptions resolved in this text, lower case -> the name (a subject carried
    #: over to a coordinated verb is the description's text)
    described_as: dict[str, str] = field(default_factory=dict)
    #: the names of people whose sex ``sex_of`` knows, anywhere in the sentences so far, oldest first
    people: list[str] = field(default_factory=list)
    named_at: int = 0  # len(people) when ``named`` was set
    #: subject name -> a function giving its entity type (asked only by ``described``)
    types: dict[str, Callable[[], str]] = field(default_factory=dict)

    def _person_for(self, want: str) -> str | None:
        """The person "he" (``want`` "m") or "she" ("f") points at: the last named subject,
        unless its first name or title says the other sex (then the last person of that sex
        named anywhere: "Ada Lovelace worked with Charles Babbage. He ..."), or it is a thing
        or a group (then a person of that sex named since: "Microsoft named Satya Nadella CEO.
        He ..." is never Microsoft). A subject whose sex no list tells, with a person of the
        pronoun's sex named since ("Elon Musk hired Linda Yaccarino. She ..."), is ambiguous:
        None, the pronoun stays, rather than a guess."""
        named = self.named
        if named is None:
            return next((p for p in reversed(self.people) if sex_of(p) == want), None)
        sex = sex_of(named)
        since = next((p for p in reversed(self.people[self.named_at :]) if sex_of(p) == want), None)
        if sex is None and (self._plural(named) or not self._person(named)):
            return since
        if sex is None:
            return named if since is None else None
        if sex == want:
            return named
        return next((p for p in reversed(self.people) if sex_of(p) == want), None)

    def _plural(self, mention: str) -> bool:
        return next((pl for m, _, pl in reversed(self.seen) if m == mention), False)

    def _person(self, mention: str) -> bool:
        """Whether ``mention``, a subject seen, names a person (spaCy's PERSON entity)."""
        person = next((p for m, p, _ in reversed(self.seen) if m == mention), False)
        return bool(person() if callable(person) else person)

    @property
    def thing(self) -> str | None:
        """The last subject "it" can point at: a singular that is no person ("The Romans built
        the Colosseum. It ..." never means the Romans)."""
        for mention, person, plural in reversed(self.seen):
            if not plural and not (person() if callable(person) else person):
                return mention
        return None

    @property
    def group(self) -> str | None:
        """The last subject "they" can point at: a plural, or a singular that is no person (a
        band, a company); never one person ("Before they turned professional, Van Roost ...")."""
        for mention, person, plural in reversed(self.seen):
            if plural or not (person() if callable(person) else person):
                return mention
        return None

    def pick(self, pronoun: str, *, copula: bool = False) -> str | None:
        if pronoun in _PRONOUN_SEX:
            # the last named subject, unless its first name or title says the other sex: then
            # the last person of that sex named anywhere ("Ada Lovelace worked with Charles
            # Babbage. He ..."), else none (the pronoun stays: ambiguous, not wrong)
            return self._person_for(_PRONOUN_SEX[pronoun])
        if pronoun in {"it", "its"}:
            return self.thing
        if pronoun in {"they", "their"}:
            return self.group
        # "this" / "that" as the subject of an action mostly points at the event just told
        # ("The bank collapsed in 2008. This triggered a crisis"), which no noun names: left as
        # it is; before "is" it describes the last subject ("This is the longest bridge")
        return self.last if copula else None

    def update(
        self,
        mention: str | None,
        proper: bool,
        person: bool | Callable[[], bool] = False,
        plural: bool = False,
        entity: Callable[[], str] | None = None,
    ) -> None:
        if mention:
            self.last = mention
            if proper:
                self.named, self.named_at = mention, len(self.people)
                self.names.append(mention)
                if entity is not None:
                    self.types[mention] = entity
            self.seen.append((mention, person, plural))

    def described(self, head: str) -> str | None:
        """The one name that the definite description with head noun ``head`` points back to: a
        subject named so far, no person ("Ada Hall" is no hall), whose last word is ``head`` or a
        designator listed for it (``claims/data/definite_descriptions.tsv``). None when no name
        or two different names fit ("the company" after Tessel Corp and Corvin Group). The heads
        of section "organisation" ("the company") also fit a name of any length that spaCy's
        entity recogniser calls an organisation or gives no type ("Tesla"), if no name fits by
        its last word."""
        heads = description_heads()[0].get(head, frozenset({head}))
        persons = {mention: person for mention, person, _ in self.seen}
        fits = {
            name
            for name in self.names
            if len(words := re.findall(r"[\w'-]+", name.lower())) > 1 and words[-1] in heads
        }
        if not fits and head in description_heads()[2]:
            # "Tesla was founded in 2003. The company ...": a name the recogniser calls an
            # organisation or leaves untyped (it misses "Tesla" there), no first name of a
            # person, for the heads listed in section "organisation"
            # a name ending in a common noun says what it is ("The Orla Health trial" is a
            # trial, no company): only a proper name fits, else the description stays
            fits = {
                name
                for name in self.names
                if name in self.types
                and sex_of(name) is None
                and name.split()[-1][:1].isupper()
                and self.types[name]() in ("ORG", "")
            }
        fits = {n for n in fits if not (p() if callable(p := persons.get(n, False)) else p)}
        return next(iter(fits)) if len(fits) == 1 else None


#: the sex a third-person pronoun refers to
_PRONOUN_SEX = {"he": "m", "his": "m", "she": "f", "her": "f"}
#: titles and nouns of address before a name that say its sex
_TITLES: dict[str, str] = {
    **dict.fromkeys(word_list("title_m"), "m"),
    **dict.fromkeys(word_list("title_f"), "f"),
}


@lru_cache(maxsize=1)
def _first_names() -> dict[str, str]:
    """First name -> "f" or "m" (``claims/data/first_names.tsv``: the 1990 US Census lists,
    public domain, built by tools/build_first_names.py; names given to both are left out)."""
    return dict(line.split("\t", 1) for _, line in data_lines("first_names.tsv"))


def sex_of(mention: str) -> str | None:
    """The sex a person's name says by its title or first name ("Mrs Dalloway", "Ada Lovelace"
    -> "f"; "Charles Babbage" -> "m"); None when neither tells (most names of things, names
    given to both sexes, names the list lacks).

    >>> sex_of("Ada Lovelace"), sex_of("Sir Tim Berners-Lee"), sex_of("The Kestrel Bridge")
    ('f', 'm', None)
    """
    for word in mention.split():
        low = word.lower().rstrip(".")
        if low in _TITLES:
            return _TITLES[low]
        if low != "the":
            return _first_names().get(word.capitalize())
    return None


def note_people(doc: Any, ante: Antecedents) -> None:
    """Add the names of people in ``doc`` (any role, not only subjects) to ``ante.people``."""
    for tok, mention in _named_people(doc):
        # "Florence", "Virginia": a first name that is also a place is no person there
        # (spaCy's small model often calls a person ORG, rarely a place GPE)
        if entity_type(tok) not in ("GPE", "LOC", "FAC", "NORP"):
            ante.people.append(mention)


def names_people(doc: Any) -> bool:
    """``doc`` has a name ``note_people`` asks the entity recogniser about (False on odd
    input that fails here: the text's own fallback in ``_decompose_batch`` handles it)."""
    try:
        return next(_named_people(doc), None) is not None
    except Exception as exc:  # never fail on odd input
        if not odd_input(exc):
            raise
        return False


def _named_people(doc: Any) -> Iterator[tuple[Any, str]]:
    """(proper-noun head, its mention) of ``doc`` whose name says a sex (``sex_of``): the names
    ``note_people`` asks the entity recogniser about."""
    for tok in doc:
        if tok.pos_ == "PROPN" and tok.dep_ not in ("compound", "flat"):
            mention = core_mention(tok)
            if sex_of(mention) is not None:
                yield tok, mention


@lru_cache(maxsize=1)
def description_heads() -> tuple[dict[str, frozenset[str]], frozenset[str], frozenset[str]]:
    """(head noun -> the last words of names it can describe, the modifiers that set a thing
    apart: section "contrast", the heads that describe an organisation of any name: section
    "organisation") of ``claims/data/definite_descriptions.tsv``."""
    heads: dict[str, frozenset[str]] = {}
    sections = {"contrast": frozenset[str](), "organisation": frozenset[str]()}
    for _, line in data_lines("definite_descriptions.tsv"):
        head, _, words = line.partition("\t")
        if head.strip() in sections:
            sections[head.strip()] = frozenset(words.split())
        else:
            heads[head.strip()] = frozenset(words.split())
    return heads, sections["contrast"], sections["organisation"]
