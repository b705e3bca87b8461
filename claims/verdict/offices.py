"""Check: the office a title names ("vice president" / "president", "acting CEO" / "CEO").

Part of ``claims.verdict`` (see its docstring for the method). A word before a title can make it
another office ("vice", "deputy", "lieutenant") or qualify the same one ("acting", "interim",
"associate", "co-"); the words and the titles they modify are ``claims/data/office_modifiers.tsv``.
Embeddings put "was sworn in as president" and "was sworn in as vice president" at cosine 0.9,
and the claim's words are all in the reference, so no other check sees the difference.

The title is compared word for word: the claim's title (bare or modified) against the same title
in the reference claim. The finding needs the bare title on one side and the modified title on
the other, and neither text may hold both forms ("the president and the vice president" states
both offices).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from claims.facets import content_tokens
from claims.facets.vocabulary import data_lines

#: kind -> its words, one data file read once
_ROWS: dict[str, frozenset[str]] = {
    line.split()[0]: frozenset(line.split()[1:]) for _, line in data_lines("office_modifiers.tsv")
}


#: modifier -> "other" (another office) or "qualified" (the same office, qualified)
MODIFIERS: dict[str, str] = {w: kind for kind in ("other", "qualified", "principal") for w in _ROWS[kind]}
TITLES: frozenset[str] = _ROWS["title"]
_TITLE = re.compile(
    r"\b(?:(?P<mod>" + "|".join(sorted(MODIFIERS, key=len, reverse=True)) + r")(?:\s+|-|(?<=co)))?"
    r"(?P<title>" + "|".join(sorted(TITLES, key=len, reverse=True)) + r")(?:s|es)?\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class OfficeChange:
    """The claim and the reference name the same title in two offices.

    ``kind`` is "other" (another office: "president" / "vice president") or "qualified" (the
    reference qualifies the office the claim states bare: "CEO" / "acting CEO"), or "more" (the
    claim states a qualified office the reference states bare: "acting CEO" / "CEO"), or
    "unstated" (one of these, but the reference says it of another time, holder or scope: "was
    vice president until 2016", "Smith's wife is the vice president").
    ``claim_words`` and ``reference_words`` are the titles as written, ``start``/``end`` the
    reference title's span in the reference text."""

    kind: str
    claim_words: str
    reference_words: str
    start: int
    end: int


_PRESENT = re.compile(r"\b(?:is|are|am|serves|holds|remains)\b|['’]s\b", re.I)
_PAST = re.compile(r"\b(?:was|were|served|held|had\s+been|until|former|formerly|ex)\b", re.I)


def _other_time(claim: str, reference: str) -> bool:
    """One text says the office now, the other then ("Smith is president" / "Smith was vice
    president until 2016"): both may be true, one after the other."""
    present = (bool(_PRESENT.search(claim)), bool(_PRESENT.search(reference)))
    past = (bool(_PAST.search(claim)), bool(_PAST.search(reference)))
    return (present[0] and past[1] and not present[1]) or (present[1] and past[0] and not present[0])


#: the scope of a title: "of the club", "at Acme" (up to a clause mark or a time or place word)
_SCOPE = re.compile(
    r"\s+(?:of|at|for)\s+([^,;:.()]{1,60}?)(?=\s+(?:on|in|since|from|until|and|who|which)\b|[,;:.()]|$)", re.I
)
_CLAUSE_MARK = re.compile(r"[,;:.()]|\b(?:and|but|while|whereas)\b", re.I)


def _same_holder(claim: str, reference: str, start: int, end: int) -> bool:
    """The reference's title at ``reference[start:end]`` is said of the claim's holder and scope:
    every content word of its clause before the title ("Smith's wife is the") and of its scope
    ("of Acme's audit committee") is a word of the claim."""
    mine = content_tokens(claim)
    before = reference[:start]
    marks = list(_CLAUSE_MARK.finditer(before))
    words = content_tokens(before[marks[-1].end() :] if marks else before)
    scope = _SCOPE.match(reference, end)
    if scope:
        words += content_tokens(scope.group(1))
    return all(any(t[:5] == m[:5] for m in mine) for t in words)


@lru_cache(maxsize=4096)
def _titles(text: str) -> tuple[tuple[str, str, str, int, int], ...]:
    """(title, modifier or "", words as written, start, end) of each title in ``text``."""
    return tuple(
        (m.group("title").lower(), (m.group("mod") or "").lower(), m.group(0), m.start(), m.end())
        for m in _TITLE.finditer(text)
    )


def _kind(mine: str, theirs: str) -> str | None:
    """The finding for the claim's modifier ``mine`` against the reference's ``theirs`` of one
    title ("" for none): "other", "qualified", "more", or None (no finding: "acting" / "interim",
    "coach" / "head coach")."""
    kinds = {MODIFIERS[m] for m in (mine, theirs) if m}
    if "other" in kinds or kinds == {"principal", "qualified"}:
        return "other"  # "president" / "vice president", "head coach" / "assistant coach"
    if mine and theirs:
        return None  # two qualifications of one office ("acting" / "interim")
    if theirs:
        return "qualified" if kinds == {"qualified"} else None  # a head coach is a coach
    return "more"


def office_change(claim: str, reference: str) -> OfficeChange | None:
    """The office of a title the claim and the reference state differently, or None.

    >>> office_change("Harris was sworn in as president.", "Harris was sworn in as vice president.").kind
    'other'
    >>> office_change("Lopez is the CEO.", "Lopez is the acting CEO.").kind
    'qualified'
    >>> office_change("Lopez is the acting CEO.", "Lopez is the CEO.").kind
    'more'
    >>> office_change("Lopez is the CEO.", "Lopez is the CEO.") is None
    True
    >>> office_change("Ann is the president.", "Ann, the president, met the vice president.") is None
    True
    >>> office_change("Smith is president.", "Smith was vice president until 2016.").kind
    'unstated'
    >>> office_change("Smith is the president.", "Smith's wife is the vice president.").kind
    'unstated'
    >>> office_change("Smith is chairman of Acme.", "Smith is deputy chairman of Acme's board.").kind
    'unstated'
    >>> office_change("Lee is the head coach.", "Lee is the assistant coach.").kind
    'other'
    >>> office_change("Lee is the coach.", "Lee is the head coach.") is None
    True
    """
    mine, theirs = _titles(claim), _titles(reference)
    then = bool(mine and theirs) and _other_time(claim, reference)
    for title, mod, words, _, _ in mine:
        forms = {m for t, m, _, _, _ in theirs if t == title}
        if len(forms) != 1 or mod in forms or len({m for t, m, _, _, _ in mine if t == title}) != 1:
            continue  # absent, the same, or both forms on one side
        (other,) = forms
        _, _, their_words, start, end = next(t for t in theirs if t[0] == title)
        kind = _kind(mod, other)
        if kind is None:
            continue
        if then or not _same_holder(claim, reference, start, end):
            kind = "unstated"  # another time, holder or scope: the claim's office is not stated
        return OfficeChange(kind, words, their_words, start, end)
    return None
