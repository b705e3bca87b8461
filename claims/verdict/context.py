"""What the checks of one (claim, reference claim) pair read (``_Context``), built once per pair.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from dataclasses import dataclass

from claims.facets import Facets, extract
from claims.verdict.names import _lower_words, _name_keys
from claims.verdict.text import _best_clause
from claims.verdict.values import _is_dateline, _stated_dimensions, _word_tokens


@dataclass(frozen=True)
class _Context:
    """What every check of one (claim, reference claim) pair reads: both facets, the claim's
    word tokens (values excluded), the reference's stems (with the dimensions its values
    state), its lower-case words and name keys, and the clause of the reference that covers
    the claim best (``_best_clause``)."""

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


def _context(r: Facets, c: Facets) -> _Context:
    # values (numbers, dates with their month names) are compared as facets, not as words
    r_tokens = _word_tokens(r)
    cs, ce, ccov = _best_clause(r_tokens, c.text)
    return _Context(
        r,
        c,
        r_tokens,
        c.tokens + _stated_dimensions(r, c),
        _lower_words(c.text),
        _name_keys(c.text),
        _is_dateline(c.text),
        (cs, ce),
        ccov,
    )
