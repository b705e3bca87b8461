"""Facets of a claim and the slot comparison that decides contradictions.

A *facet* is a checkable value in a claim: a quantity (number with its unit or counted noun,
spelled-out numbers, magnitudes, percentages and fractions), a date (any of its parts), a time
of day, a named entity, negation, a hedge/qualifier, a comparative. Embedding cosine cannot
tell "debut in 1991" from "debut in 1993" (all-MiniLM-L6-v2 scores them about 0.9); the
facets can.

Parsing uses well-kept libraries where they serve: ``number_parser.parse_number`` for
spelled-out numbers ("twenty-three" = 23) and ``dateparser`` for numeric date formats
(ISO ``1867-07-14``, ``14/07/1867``). The *slot* logic (which value may be compared with which)
is ours and explicit:

* quantities compare within a slot: a unit family (length, mass, volume, area, currency,
  data, duration, speed, ``temperature`` in °C, °F converted by (F - 32) * 5/9), ``percent``
  (values as fractions: 50 % = 0.5 = half), ``pp`` (percentage points, also "points"; not
  percent), ``age``, ``year``, ``time`` (minutes after midnight), or the counted noun ("112
  patients"; any noun of the phrase after the number counts: "four motorway lanes" counts
  lanes); multiplicative verbs are numbers ("doubled" = 2 times, "halved" = 0.5 times), a minus
  after a space is a sign ("-5 °C"), and digits glued to CJK text are numbers ("1958年");
  a quantity with no slot only matches an equal value and never conflicts;
* dates compare part by part (year, month, day) where both sides have the part;
* entities are capitalised word sequences and codes (``OB-17``, ``Kite 14``).

Everything here is pure (stdlib + dateparser + number-parser) and deterministic.

Modules, by job:

* ``vocabulary`` -- word lists and unit tables (``claims/data/*.txt``, ``*.tsv``);
* ``types`` -- the value types ``Quantity``, ``DateFacet``, ``Facets``;
* ``tokens`` -- ``content_tokens`` and ``token_match``;
* ``spans`` -- what the recognisers share (taken spans, approximation);
* ``dates`` -- dates, centuries, decades, year ranges, times of day, years;
* ``numbers`` -- numbers in digits (sign, magnitude, currency, grouping);
* ``number_words`` -- number words, ordinals, ratios, fractions, factor verbs;
* ``number_slots`` -- the slot of a number (unit, counted noun, age);
* ``quantities`` -- ``QUANTITY_RECOGNISERS`` run by one loop, then ranges and bounds;
* ``entities`` -- named entities and codes;
* ``polarity`` -- negation, denying frames, hedges;
* ``comparisons`` -- ``slots_compatible``, ``quantity_matches``, ``opposite_bounds``, ``year_matches``, ...

This package holds ``extract`` and re-exports the names other modules use.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from functools import lru_cache

from claims.facets.comparisons import (
    opposite_bounds,
    quantity_matches,
    slots_compatible,
    values_equal,
    year_matches,
    year_overlaps,
)
from claims.facets.dates import find_dates
from claims.facets.entities import find_entities, is_weak_entity, squash_abbreviations
from claims.facets.polarity import HEDGES, NEGATIONS, find_hedges, negation_frame, negation_of, without_frame
from claims.facets.quantities import QUANTITY_RECOGNISERS, find_quantities, with_intervals
from claims.facets.scores import find_scores
from claims.facets.spans import Recogniser
from claims.facets.tokens import TokenSet, content_spans, content_tokens, token_match
from claims.facets.types import DateFacet, Facets, Quantity
from claims.facets.vocabulary import (
    ANTONYMS,
    CURRENCY_SYMBOLS,
    FRACTION_WORDS,
    MONTHS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    SCALES,
    STOPWORDS,
    UNITS,
    antonym_kind,
    dimension_stems,
)

__all__ = [
    "TokenSet",
    "Quantity",
    "DateFacet",
    "Facets",
    "extract",
    "is_weak_entity",
    "squash_abbreviations",
    "content_spans",
    "content_tokens",
    "token_match",
    "STOPWORDS",
    "ANTONYMS",
    "antonym_kind",
    # also imported by claims.verdict and claims.decision
    "UNITS",
    "dimension_stems",
    "negation_frame",
    "opposite_bounds",
    "quantity_matches",
    "slots_compatible",
    "values_equal",
    "year_matches",
    "year_overlaps",
    # the word lists and the recogniser list, as they were importable from claims.facets
    "CURRENCY_SYMBOLS",
    "FRACTION_WORDS",
    "HEDGES",
    "MONTHS",
    "NEGATIONS",
    "NUMBER_WORDS",
    "ORDINAL_WORDS",
    "SCALES",
    "QUANTITY_RECOGNISERS",
    "Recogniser",
]


@lru_cache(maxsize=65536)
def extract(text: str) -> Facets:
    """All facets of ``text`` (cached; the result must be treated as read-only).

    >>> f = extract("The Geneva accord was signed on 14 July 1867 by four delegations.")
    >>> [(d.year, d.month, d.day) for d in f.dates], [(q.value, q.slot) for q in f.quantities]
    ([(1867, 7, 14)], [(4.0, 'n:delegation')])

    Markdown emphasis ("**12 million**", "_about 40_", backticks) and invisible format
    characters (a zero-width space inside a number) are ignored for analysis; the spans of
    the facets stay exact in ``text``.
    """
    plain, at = _without_emphasis(text)
    if plain == text:
        return _extract_plain(text)
    return _remap(_extract_plain(plain), text, at)


#: markdown emphasis: runs of asterisks or backticks, double/triple underscores, and a single
#: underscore at a word's edge (never inside snake_case); and the invisible format characters
#: (zero-width space, zero-width non-joiner and joiner, word joiner, byte-order mark)
#: that would split "4\u200b20" into two numbers
_EMPHASIS = re.compile(r"\*+|`+|_{2,3}|(?<!\w)_(?=\w)|(?<=\w)_(?!\w)|[\u200b-\u200d\u2060\ufeff]+")


#: the full-width forms of ASCII (U+FF01..U+FF5E: "１９９１", "４５，０００") and the ideographic
#: space, each as its ASCII character (what Unicode NFKC maps them to, one character for one)
_FULLWIDTH = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)} | {"\u3000": " "}


def _without_emphasis(text: str) -> tuple[str, list[int]]:
    """``text`` without markdown emphasis markers and invisible format characters, a letter and
    the combining accents after it composed into one character (Unicode NFC: "Jose\u0301" is
    "José"), full-width ASCII as ASCII ("１９９１" is "1991"), and for every character of the
    result (and its end) the index it came from in ``text``."""
    keep: list[int] = []
    pos = 0
    for m in _EMPHASIS.finditer(text):
        keep.extend(range(pos, m.start()))
        pos = m.end()
    keep.extend(range(pos, len(text)))
    chars: list[str] = []
    at: list[int] = []
    for i in keep:
        if chars and unicodedata.combining(text[i]):
            composed = unicodedata.normalize("NFC", chars[-1] + text[i])
            if len(composed) == 1:
                chars[-1] = composed  # the accent joins its letter; the letter keeps its index
                continue
        chars.append(_FULLWIDTH.get(text[i], text[i]))
        at.append(i)
    return "".join(chars), at + [len(text)]


def _remap(f: Facets, text: str, at: list[int]) -> Facets:
    """Facets of the emphasis-free text with their spans moved back into ``text``."""

    def span(s: int, e: int) -> tuple[int, int]:
        if e <= s:
            return at[s], at[s]
        end = at[e - 1] + 1
        while end < len(text) and unicodedata.combining(text[end]):
            end += 1  # the accents composed into the last character
        return at[s], end

    quantities = [
        replace(q, start=span(q.start, q.end)[0], end=span(q.start, q.end)[1]) for q in f.quantities
    ]
    dates = [replace(d, start=span(d.start, d.end)[0], end=span(d.start, d.end)[1]) for d in f.dates]
    entities = [(t, *span(s, e)) for t, s, e in f.entities]
    hedges = [(label, surface, *span(s, e)) for label, surface, s, e in f.hedges]
    return Facets(
        text=text,
        quantities=quantities,
        dates=dates,
        entities=entities,
        tokens=f.tokens,
        negated=f.negated,
        negation_cue=f.negation_cue,
        hedges=hedges,
        words=f.words,
    )


def _extract_plain(text: str) -> Facets:
    """``extract`` of a text without markdown emphasis."""
    taken: list[tuple[int, int]] = []
    scores = find_scores(text, taken)  # before dates: "3-1" in a match report is no day and month
    dates = find_dates(text, taken)
    quantities = scores + find_quantities(text, taken)
    neg, cue = negation_of(text)
    words = frozenset(w.lower() for w in re.findall(r"[A-Za-z]+", text))
    return Facets(
        text=text,
        quantities=with_intervals(text, sorted(quantities, key=lambda q: q.start)),
        dates=dates,
        entities=find_entities(text),
        tokens=content_tokens(without_frame(text)),
        negated=neg,
        negation_cue=cue,
        hedges=find_hedges(text),
        words=words,
    )
