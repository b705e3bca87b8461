"""Guards of the learned decision (``claims.decision``): what the model may not turn into support.

The model sees values and names through a few numeric signals; these checks are exact. A claim's
count written in words must be stated near it (``number_words_stated``), and so must an
ordinal written in words that orders a noun (``ordinals_stated``), a claim with a
named subject must find its values stated with that subject (``values_of_subject``), every
name of the claim but a place must be named somewhere in the references (``names_stated``), and
so must every web address, DOI or e-mail address (``identifiers_stated``) and every date with
a month (``dates_stated``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from claims.facets import DateFacet, Facets, Quantity, content_tokens, extract, quantity_matches, values_equal
from claims.facets.entities import is_weak_entity
from claims.facets.identifiers import identifiers, mentioned
from claims.parses import parse
from claims.spacy_pipeline import entity_type
from claims.verdict.names import entity_present, name_heads, name_keys, scan_lower_words
from claims.verdict.text import subject_head
from claims.verdict.values import noun_ordinals

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
#: a month named in full, capitalised ("through October"; not "may")
_MONTH_NAME = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December)\b"
)


def date_stated(d: DateFacet, e: DateFacet) -> bool:
    return all(getattr(d, k) is None or getattr(d, k) == getattr(e, k) for k in ("year", "month", "day"))


def dates_stated(text: str, references: Sequence[str]) -> bool:
    """Every date of ``text`` with a month ("July 2016", "August 15, 2017") is stated by a date
    of one of the texts ``references``: its month, and its day and year where it gives them (a
    reference date without a year may state them, and a month named alone, "will run through
    October", a date without a day; the digits of its year written elsewhere, which
    ``value_cov_any`` counts, state no month or day).

    >>> dates_stated("He left in July 2016.", ["He left on 25 October 2016."])
    False
    >>> dates_stated("He left in July 2016.", ["She arrived in July 1970.", "He left in 2016."])
    False
    """
    dates = [d for d in extract(text).dates if d.month is not None]
    if not dates:
        return True
    theirs = [e for t in references for e in extract(t).dates]
    months = {m for t in references for m in _months_alone(t)}
    return all(
        any(_month_stated(d, e) for e in theirs) or (d.day is None and d.month in months) for d in dates
    )


def _months_alone(text: str) -> set[int]:
    """The months (1-12) that ``text`` names outside any date of a year ("will run through
    October"; not "July 1970", which states July of 1970 and of no other year)."""
    dated = [(e.start, e.end) for e in extract(text).dates if e.year is not None]
    return {
        _MONTHS.index(m.group(1)[:3].lower()) + 1
        for m in _MONTH_NAME.finditer(text)
        if not any(s <= m.start() < e for s, e in dated)
    }


def _month_stated(d: DateFacet, e: DateFacet) -> bool:
    """``e`` gives ``d``'s month and day (where ``d`` gives one), and its year or none ("May 2,
    5 and 6" in a passage on 2018 states "May 2018")."""
    return e.month == d.month and d.day in (None, e.day) and e.year in (None, d.year)


def find_digits(text: str) -> set[str]:
    return {m.replace(",", "") for m in _NUMBER.findall(text)}


def number_words_stated(text: str, near: Sequence[str]) -> bool:
    """Every count the claim writes in words ("six lanes"; ordinals aside) is stated by one of
    the texts ``near``, compared as facets or by its number ("nine" / "9 am"): a number word
    has no digits to find elsewhere."""
    words = [q for q in extract(text).quantities if not find_digits(q.text) and not q.ordinal]
    if not words:
        return True
    others = [extract(t) for t in near]
    return all(any(_same_number(q, o) for g in others for o in g.quantities) for q in words)


def ordinals_stated(text: str, near: Sequence[str]) -> bool:
    """Every ordinal in words that orders a noun in ``text`` ("its eighth consecutive trophy",
    "the second album"; not an adverb, "first reached", nor a word of a name, "First Division",
    which ``names_stated`` asks for) is stated by an ordinal of the same
    value in one of the texts ``near`` (words or digits: "8th"; ``verdict.values.noun_ordinals``;
    an ordinal in digits is a value ``value_cov_any`` finds). The learned decision sees an
    ordinal word only as a content word, present or not, so "eighth" against "seventh
    consecutive trophy" scores as near support; the rule engine compares an ordinal only where
    the reference states one (``claims.verdict.quantity_checks``).

    >>> ordinals_stated("It won its eighth title.", ["It won its seventh title in 2016."])
    False
    """
    words = [q for q in noun_ordinals(extract(text)) if q.text[:1].isalpha()]
    if not words:
        return True
    others = [o for t in near for o in extract(t).quantities if o.ordinal]
    return all(any(values_equal(q.value, o.value) for o in others) for q in words)


def values_of_subject(text: str, near: Sequence[str]) -> bool:
    """A claim with a named subject ("The Halvorsen Bridge has six lanes") and values, whose
    values a near text states of another named subject ("The Sandvik Bridge has six lanes", "The
    study of OB-17 enrolled 76 patients" for "The OB-71 trial ..."), has one of the texts ``near``
    that names its own subject and states every value: the same value of another subject is not
    the claim's (a distractor). True for a claim without values, without
    a named subject head, or whose values no near text gives to another named subject."""
    f = extract(text)
    head = subject_head(text)
    names = [e for e, _, _ in f.entities if head and head in content_tokens(e)]
    if not (f.quantities or f.dates) or not names:
        return True
    name = re.compile(rf"\b{re.escape(names[0])}\b", re.I)
    stating = [t for t in near if _states_values(f, extract(t))]
    if any(name.search(t) for t in stating):
        return True
    return not any(_named_subject_other(t, head) or _rival_name(t, names[0]) for t in stating)


def _states_values(f: Facets, g: Facets) -> bool:
    """Every number and date of ``f`` is stated in ``g``."""
    values = all(any(quantity_matches(q, o) for o in g.quantities) for q in f.quantities)
    return values and all(any(date_stated(d, e) for e in g.dates) for d in f.dates)


def _rival_name(text: str, name: str) -> bool:
    """``text`` names another of the claim's kind: a name sharing a word with ``name`` but not
    equal to it ("OB-17" for "OB-71", "the Sandvik Bridge" for "the Halvorsen Bridge")."""
    own = set(content_tokens(name))
    return any(
        e.lower() != name.lower() and own & set(content_tokens(e)) for e, _, _ in extract(text).entities
    )


def _named_subject_other(text: str, head: str | None) -> bool:
    """The text's subject head is part of a name and is not ``head``."""
    own = subject_head(text)
    return (
        own is not None
        and own != head
        and any(own in content_tokens(e) for e, _, _ in extract(text).entities)
    )


def _same_number(q: Quantity, o: Quantity) -> bool:
    """``q`` (a number word) states the value of ``o``: as facets, as a number, or as the hour
    of a time of day (``o.raw`` in minutes: "nine" / "9 am")."""
    return (
        quantity_matches(q, o)
        or values_equal(q.raw, o.raw)
        or (o.slot == "time" and values_equal(q.raw * 60, o.raw))
    )


def names_stated(text: str, doc: str, doc_tokens: list[str]) -> bool:
    """Every name of the claim is named somewhere in the references, places aside: ``doc`` their
    text, ``doc_tokens`` its content tokens. A name is named in full or in short as the rule
    checks read it (``names.entity_present`` over the text's words and acronyms, not strict:
    "Halvorsen" or "the suspension bridge" names the Halvorsen Bridge, "the Sandvik Tunnel" does
    not); a weak sentence-initial word (``is_weak_entity``) need not be.

    A name no reference gives is a detail the evidence does not state (FActScore's atomic fact,
    Min et al. 2023): the featuring singer's nationality, the store's mall, the road "N2" for
    "National Route 10". The model reads names only as the share ``name_cov`` of capitalised
    words found, so a close paraphrase that adds one scores as support. Places (spaCy's entity
    types GPE and LOC: "Franeker, Netherlands", "a state in the U.S.") are left to the model:
    evidence leaves out the country of a town it names, and human labels (Factcheck-GPT) count
    such a claim supported. Codes ("N2") and names of a kind ("the Halvorsen Bridge":
    ``claims/data/name_heads.txt``) are never places here: they must match as a number does."""
    entities = extract(text).entities
    if not entities:
        return True
    words, names = _doc_names(doc)
    return all(
        entity_present(e, words, doc_tokens, names, strict=False) or (not _exact_name(e) and _place(text, s))
        for e, s, en in entities
        if not is_weak_entity(text, (e, s, en))
    )


@lru_cache(maxsize=64)
def _doc_names(doc: str) -> tuple[frozenset[str], frozenset[str]]:
    """The lower-case words and the acronyms and initialisms of the references' text ``doc``
    (``names.scan_lower_words``, ``names.name_keys``), once per audit."""
    return scan_lower_words(doc), name_keys(doc)


def _exact_name(name: str) -> bool:
    """A code, a name with a digit ("N2", "OB-17"), or a name of a kind, a designator after the
    words that tell one apart ("Halvorsen Bridge", "Orre County")."""
    words = name.lower().split()
    return bool(re.search(r"\d", name)) or (len(words) >= 2 and words[-1] in name_heads())


def _place(text: str, start: int) -> bool:
    """spaCy's entity recogniser reads the word of ``text`` at ``start`` as a place (GPE, LOC)."""
    tok = next((t for t in parse(text) or () if t.idx == start), None)
    return tok is not None and entity_type(tok) in ("GPE", "LOC")


def identifiers_stated(text: str, doc: str) -> bool:
    """Every web address, DOI, arXiv number or e-mail address of the claim
    (``claims.facets.identifiers``) is named in ``doc``, the references' text, in any of its forms
    (``identifiers.mentioned``). The model's features leave an address's digits out, so a cited
    address the references do not give scores like the one they give."""
    return all(mentioned(i.text, doc) for i in identifiers(text))
