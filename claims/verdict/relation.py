"""One ordered relation between two nouns of a text (``Relation``): what ``claims.verdict.order``
reads from the parse."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Relation"]


@dataclass(frozen=True, slots=True)
class Relation:
    """One ordered relation of a text: ``key`` (what relates: "v:buy|sell", "dir:fly",
    "op:divide", "cmp:larger|smaller", "rel:child|parent", "pos:above|below"), ``first`` and
    ``second`` (the noun keys of its two sides, in the relation's canonical order), and the words
    that name it (``word``)."""

    key: str
    first: str
    second: str
    word: str
    #: the character spans in the text of the side written first, the side written second and
    #: the relation word, and the converse word ("" when none): what ``converse_text`` rewrites
    spans: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0), (0, 0))
    converse: str = ""
    #: the words of ``first`` and ``second`` as the text writes them ("Italy", "1990"): what a
    #: reason names
    names: tuple[str, str] = ("", "")
    #: the text writes the sides the other way round from ``first``, ``second``: the second word
    #: of a converse pair ("B sold X to A"), or a denied comparison ("B is no deeper than A")
    reversed: bool = False
