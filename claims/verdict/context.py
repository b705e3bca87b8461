"""What the checks of one (claim, reference claim) pair read (``Context``), built once per pair.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from dataclasses import dataclass

from claims.facets import Facets, extract
from claims.verdict.names import lower_words, name_keys
from claims.verdict.text import best_clause
from claims.verdict.values import is_dateline, stated_dimensions, word_tokens


@dataclass(frozen=True)
class Context:
    """What every check of one (claim, reference claim) pair reads: both facets, the claim's
    word tokens (values excluded), the reference's stems (with the dimensions its values
    state), its lower-case words and name keys, and the clause of the reference that covers
    the claim best (``best_clause``)."""

    r: Facets
    c: Facets
    r_tokens: list[str]
    c_stems: list[str]
    c_words: frozenset[str]
    names_c: frozenset[str]
    dateline: bool
    clause: tuple[int, int]
    clause_coverage: float

    @property
    def clause_text(self) -> str:
        return self.c.text[self.clause[0] : self.clause[1]]

    @property
    def clause_facets(self) -> Facets:
        text = self.clause_text
        return extract(text) if text != self.c.text else self.c


def context_of(r: Facets, c: Facets) -> Context:
    # values (numbers, dates with their month names) are compared as facets, not as words
    r_tokens = word_tokens(r)
    cs, ce, ccov = best_clause(r_tokens, c.text)
    return Context(
        r,
        c,
        r_tokens,
        c.tokens + stated_dimensions(r, c),
        lower_words(c.text),
        name_keys(c.text),
        is_dateline(c.text),
        (cs, ce),
        ccov,
    )
