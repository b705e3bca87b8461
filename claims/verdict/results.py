"""Results written as a score line: "Argentina 3–2 West Germany", "Maria Lind 6–3, 6–4 Anna
Berg" (a result table's row, a match report's heading). The side with more goals or points, or
with more sets won, beat the other; ``result_relations`` gives that as the relations of
``claims.verdict.order`` that "W defeated L" and "L lost to W" give, so that the order checks
compare a claim's "A beat B" with a score line as they do with a sentence.

A score line is two names (runs of capitalised words) around one score or a run of set scores,
each of one or two digits a side joined by a hyphen or dash, digits of no longer number ("1992–93"
is a season). A draw, a run of sets won alike, anything between a score and a name (a
bracket: "1–1 (4–2 pen.)"), or a second score in the text (legs and their aggregate, a record
per side: "Ali 56–5 Frazier 32–4", a table's rows on one line) gives no relation. A score line
may be another match than the claim's: ``same_occasion`` says when it can be the claim's
(``claims.verdict.arguments`` asks it before calling the sides swapped). A name's run may take
a word beside it ("CST Argentina", "West Germany Brown": a time zone, a scorer);
``order.same_noun`` compares sides by their words, so the claim's "Argentina" is still that
side.
"""

from __future__ import annotations

import re

from claims.facets import TokenSet, content_tokens
from claims.facets.vocabulary import stem_of
from claims.verdict.relation import Relation

__all__ = ["is_result", "result_relations", "results", "same_occasion"]

_SCORE = r"(?<![\d.,:])\d{1,2}\s?[–-]\s?\d{1,2}(?![\d.,:]\d)"
_NAME = r"[A-Z][\w'’.]*(?:\s(?:[A-Z][\w'’.]*|of|de|la|van|von|del|do|da))*"
_RESULT = re.compile(rf"({_NAME})\s+({_SCORE}(?:,?\s{_SCORE})*)\s+({_NAME})")
_PAIR = re.compile(r"(\d{1,2})\s?[–-]\s?(\d{1,2})")
#: the relations of "W defeated L" and "L lost to W" (``order.relations``): the key, and whether
#: the winner is its first side
_KEYS = (("v:beat|lose", True), ("v:defeat|lose", True), ("v:lose|win", False))
#: any score of up to three digits a side, to count the scores of a text
_ANY_SCORE = re.compile(r"(?<![\d.,:])\d{1,3}\s?[–-]\s?\d{1,3}(?![\d.,:]\d)")


def results(text: str) -> list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]:
    """The score lines of ``text`` with a winner: (winner span, loser span, score span), character
    offsets into ``text``.

    >>> t = "Final: Maria Lind 6–3, 6–4 Anna Berg"
    >>> [(t[w[0]:w[1]], t[l[0]:l[1]]) for w, l, _ in results(t)]
    [('Maria Lind', 'Anna Berg')]
    >>> results("Rovers 1–1 United"), results("The 1992–93 Cup Final")
    ([], [])
    >>> results("Melk 2–1 Tarvos (Tarvos won 4–3 on aggregate)"), results("Ali 56–5 Frazier 32–4")
    ([], [])
    """
    matches = list(_RESULT.finditer(text))
    if len(matches) != 1 or len(_ANY_SCORE.findall(text)) != len(_PAIR.findall(matches[0].group(2))):
        return []  # several scores: legs and their aggregate, a record per side, a table's rows
    m = matches[0]
    won = [int(a) > int(b) for a, b in _PAIR.findall(m.group(2)) if int(a) != int(b)]
    left, right = sum(won), len(won) - sum(won)
    if left == right:
        return []  # a draw, or sets won alike
    a, b = m.span(1), m.span(3)
    return [(a, b, m.span(2)) if left > right else (b, a, m.span(2))]


def _key(name: str) -> str:
    return " ".join(stem_of(w.rstrip(".")) for w in name.split())


def result_relations(text: str) -> list[Relation]:
    """The relations (``claims.verdict.relation.Relation``) of ``text``'s score lines (``results``)."""
    out = []
    for w, lo, score in results(text):
        win, lose = text[w[0] : w[1]], text[lo[0] : lo[1]]
        for key, winner_first in _KEYS:
            sides, names, spans = (
                ((_key(win), _key(lose)), (win, lose), (w, lo))
                if winner_first
                else ((_key(lose), _key(win)), (lose, win), (lo, w))
            )
            out.append(Relation(key, *sides, text[score[0] : score[1]], (*spans, score), "", names, False))
    return out


def is_result(relation: Relation) -> bool:
    """``relation`` was read from a score line (``result_relations``)."""
    return bool(_PAIR.fullmatch(relation.word.split(",")[0].strip()))


def same_occasion(claim: str, reference: str, mine: Relation) -> bool:
    """The score line of ``reference`` can be the claim's match: every content word of ``claim``
    but its two sides and its verb (``mine``, a relation of ``claim``), and every number it
    writes, is in ``reference``. "Brazil beat Italy in the 1970 final" is not read against
    "1982: Italy 3–2 Brazil", nor "India beat Australia by five wickets" against a series
    "Australia 2–1 India"; a score line names its match by its heading, if at all."""
    own = set(content_tokens(" ".join(mine.names))) | {stem_of(mine.word)}
    rest = [t for t in content_tokens(claim) if t not in own]
    theirs = TokenSet(content_tokens(reference))
    numbers = re.findall(r"\d+", claim)
    return all(t in theirs for t in rest) and all(re.search(rf"(?<!\d){n}(?!\d)", reference) for n in numbers)
