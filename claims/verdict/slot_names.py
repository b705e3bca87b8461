"""Names that are one: a short form and its name, or two parts of one name written apart.

Part of ``claims.verdict`` (value slots, ``claims.verdict.value_slots``). Two names are one
when one is the other's acronym or initialism ("DNC" / "the Democratic National Committee",
"AP" / "Air Products"), or when some reference text writes them in one run of capitalised
words, in either order, with at most two capitalised words between them: "a now-successful
LaRusso" against "a now-successful Daniel" is no rival name where the evidence writes "Daniel
LaRusso".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from claims.decompose.antecedents import sex_of
from claims.facets.vocabulary import data_lines, data_rows
from claims.verdict.names import name_heads

__all__ = ["given_names_one", "one_name", "other_given_name", "short_form"]

#: At most two capitalised words (middle names, initials) between the two parts.
_BETWEEN = r"\s+(?:[A-Z][\w.'\-]*\s+){0,2}"


def _initials(name: str) -> str:
    """The lower-cased initials of a name's capitalised words, a leading "The" left out."""
    words = [w for w in re.findall(r"[\w'’-]+", name) if w[:1].isupper()]
    return "".join(w[0] for w in words[1 if words[:1] == ["The"] else 0 :]).lower()


def short_form(a: str, b: str) -> bool:
    """Whether one of ``a``, ``b`` is an acronym (2-8 capitals) of the other's initials.

    >>> short_form("DNC", "the Democratic National Committee"), short_form("DNC", "Daniel")
    (True, False)
    """
    for x, y in ((a, b), (b, a)):
        s = x.strip().removeprefix("the ").removeprefix("The ")
        if re.fullmatch(r"[A-Z]{2,8}", s) and len(_initials(y)) >= 2 and s.lower() == _initials(y):
            return True
    return False


def one_name(a: str, b: str, texts: Iterable[str]) -> bool:
    """Whether ``a`` and ``b`` name one thing: a short form of the other (:func:`short_form`),
    or parts of one longer name that one of ``texts`` writes.

    >>> one_name("LaRusso", "Daniel", ["underdog Daniel LaRusso (Macchio)"])
    True
    >>> one_name("LaRusso", "Johnny", ["Daniel LaRusso and Johnny Lawrence"])
    False
    """
    if short_form(a, b):
        return True
    x, y = re.escape(a.strip()), re.escape(b.strip())
    if not x or not y:
        return False
    pattern = re.compile(rf"\b(?:{x}{_BETWEEN}{y}|{y}{_BETWEEN}{x})\b")
    return any(pattern.search(t) for t in texts)


def _name_words(name: str) -> list[str]:
    """The capitalised words of a name, a possessive and a leading "The" left out."""
    words = [re.sub(r"['’]s?$", "", w) for w in re.findall(r"[\w'’.-]+", name) if w[:1].isupper()]
    return words[1 if words[:1] == ["The"] else 0 :]


#: a word of a person's name: a capital and a lower-case letter, no digits ("Marit",
#: "McDonald", "O'Neill"; not "M.", "FA", "PARROT")
_PERSONAL = re.compile(r"(?!\w*\d)[A-Z](?=[\w'’-]*[a-z])[\w'’-]+")


def other_given_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are full names with one surname and two given names: two people
    of one family, not one person ("Maria Olsen" / "Marit Olsen", "Venus Williams" / "Serena
    Williams", "Jon Berg" / "Jonas Berg"). Not so for an initial ("M. Olsen"), for a given name
    and its nickname (:func:`given_names_one`: "Bill Gates" / "William Gates"), for a title
    before the same given name ("President Joe Biden"), nor for a name without a given name
    ("Olsen" / "Marit Olsen": the surname alone names the person) or with the same one
    ("Marit Olsen" / "Marit H. Olsen").

    >>> other_given_name("Maria Olsen", "Marit Olsen"), other_given_name("Olsen", "Marit Olsen")
    (True, False)
    >>> other_given_name("M. Olsen", "Marit Olsen"), other_given_name("Alex Berg", "Alexander Berg")
    (False, False)
    >>> other_given_name("President Joe Biden", "Joe Biden"), other_given_name("FA Cup", "League Cup")
    (False, False)
    >>> other_given_name("Bill Gates", "William Gates"), other_given_name("Jon Berg", "Jonas Berg")
    (False, True)
    """
    x, y = _name_words(a), _name_words(b)
    if len(x) < 2 or len(y) < 2 or x[-1].lower() != y[-1].lower() or x[-1].lower() in name_heads():
        return False  # no shared surname, or a designator ("FA Cup" / "League Cup")
    if not all(_PERSONAL.fullmatch(w) for w in (x[0], y[0], x[-1], y[-1])):
        return False  # an initial ("M. Olsen") may stand for either given name; no acronyms
    if {w.rstrip(".").lower() for w in x[:-1]} & {w.rstrip(".").lower() for w in y[:-1]}:
        return False  # a given name or a title in common ("President Joe Biden" / "Joe Biden")
    return not given_names_one(x[0], y[0])


@lru_cache(maxsize=1)
def _nicknames() -> frozenset[tuple[str, str]]:
    """Every (name, nickname) pair of ``claims/data/nicknames.tsv``, both ways, lower-cased, but
    two full names of different sexes paired with each other (``_full_names_apart``)."""
    rows = [(n.lower(), k.lower()) for n, k in data_rows("nicknames.tsv", 2)]
    full = frozenset(n for n, _ in rows)
    pairs = [(n, k) for n, k in rows if not _full_names_apart(n, k, full)]
    return frozenset(pairs + [(k, n) for n, k in pairs])


def _full_names_apart(name: str, nickname: str, full: frozenset[str]) -> bool:
    """True when both are full names of the list (each has nicknames of its own: ``full``) that
    the census gives to different sexes (``claims.decompose.antecedents.sex_of``): the list
    pairs "William" with "Wilma" and "Andrew" with "Andrea", a name with its feminine form, not
    two names of one person ("Louis" / "Louise": an ending added). A short form that is no full
    name of the list, or is clipped from the other (three letters or more cut), stays whatever
    sex the census gives it ("Andy" / "Andrea", "Sam" / "Samantha")."""
    x, y = sorted((name, nickname), key=len)
    clipped = y.startswith(x) and len(y) - len(x) >= 3  # "Alex" / "Alexandra", not "Louis" / "Louise"
    if name not in full or nickname not in full or clipped:
        return False
    a, b = sex_of(name.title()), sex_of(nickname.title())
    return a is not None and b is not None and a != b


@lru_cache(maxsize=1)
def _known_given_names() -> frozenset[str]:
    """The given names the name sources know, lower-cased: both sides of the nickname list and
    the census first names of ``claims/data/first_names.tsv``."""
    census = (line.split("\t", 1)[0].lower() for _, line in data_lines("first_names.tsv"))
    return frozenset(census) | frozenset(n for n, _ in _nicknames())


def given_names_one(a: str, b: str) -> bool:
    """Whether the given names ``a`` and ``b`` may name one person: the same name, a name and
    its nickname in ``claims/data/nicknames.tsv`` (the PyPI ``nicknames`` list: "Bill" /
    "William", "Liz" / "Elizabeth", "Alex" / "Alexander"), or, for a shorter name the name
    sources do not know (neither the nickname list nor the census first names of
    ``claims/data/first_names.tsv``), its first letters ("Sigi" / "Sigismund"). A known name
    that is the other's first letters is a name of its own ("Jon" / "Jonas", "Dan" / "Dana").
    Case is ignored.

    >>> given_names_one("Bob", "Robert"), given_names_one("Jon", "Jonas"), given_names_one("Jim", "Tim")
    (True, False, False)
    """
    x, y = sorted((a.lower(), b.lower()), key=len)
    if x == y or (x, y) in _nicknames():
        return True
    return y.startswith(x) and x not in _known_given_names()
