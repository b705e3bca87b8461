"""The word lists of the decomposition, read from ``claims/data/decompose_words.tsv`` (a list
name, a tab, and its words separated by blanks; a list may take several lines)."""

from __future__ import annotations

from functools import lru_cache

from claims.facets.vocabulary import data_lines

WORDS_FILE = "decompose_words.tsv"


@lru_cache(maxsize=1)
def _lists() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for n, line in data_lines(WORDS_FILE):
        name, tab, words = line.partition("\t")
        if not tab or not words.split():
            raise ValueError(f"claims/data/{WORDS_FILE}:{n}: expected a list name, a tab and words")
        found.setdefault(name.strip(), set()).update(words.split())
    return {name: frozenset(words) for name, words in found.items()}


def word_list(name: str) -> frozenset[str]:
    """The words of list ``name`` of ``claims/data/decompose_words.tsv``, lower case.

    Raises
    ------
    KeyError
        If the file has no list ``name``.
    ValueError
        If a line of the file is not a list name, a tab and at least one word.
    """
    return _lists()[name]
