"""Value types of the facets: ``Quantity`` (a number in its slot), ``DateFacet`` (a date or
part of one) and ``Facets`` (all facets of one claim text, see ``claims.facets.extract``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number in a claim.

    ``value`` is in the slot's base unit (metres, kg, seconds, fraction for percent, minutes
    after midnight for ``time``); ``raw`` the number as written (after magnitude words);
    ``slot`` the comparison slot (see module docstring; ``""`` = no slot); ``unit`` a display
    unit; ``start``/``end`` the span in the claim text. ``lo``/``hi`` bound a year range
    ("1992–93", "1898–1980"; ``value`` is then ``lo``). ``loose`` marks a value that is not a
    point: a bound or approximation ("before 1492", "since 1998", "about 40", "more than 5");
    a loose value is never called a conflict.
    """

    value: float
    raw: float
    slot: str
    unit: str
    text: str
    start: int
    end: int
    lo: float | None = None
    hi: float | None = None
    loose: bool = False
    #: stems of the words of the noun phrase after the number ("four motorway lanes":
    #: ("motorway", "lane")); a counted noun matches any of them (the head is the last)
    nouns: tuple[str, ...] = ()
    #: how the value is bounded: ``""`` a point; ``"range"`` an end of a stated range ("between 4
    #: and 6 hours", "from 5 to 8 km", "4-6 hours"); ``"upto"`` a maximum that is reached ("up
    #: to 60 °C", "at most", "a maximum of"); ``"below"`` ("less than", "under"); ``"atleast"``
    #: ("at least", "a minimum of"); ``"above"`` ("more than", "over")
    bound: str = ""
    #: the values the text allows, in the slot's base unit (``-inf``/``inf`` for an open end);
    #: None for a point
    interval: tuple[float, float] | None = None
    #: an ordinal ("2nd", "second"): it matches an ordinal of the same value and slot; a claim's
    #: ordinal is only compared where the reference states an ordinal (else its word is)
    ordinal: bool = False


@dataclass(frozen=True, slots=True)
class DateFacet:
    """A calendar date or part of one (any of ``year``/``month``/``day`` may be None)."""

    year: int | None
    month: int | None
    day: int | None
    text: str
    start: int
    end: int

    def describe(self) -> str:
        return self.text


@dataclass(slots=True)
class Facets:
    """All facets of one claim text (see ``extract``)."""

    text: str
    quantities: list[Quantity] = field(default_factory=list)
    dates: list[DateFacet] = field(default_factory=list)
    entities: list[tuple[str, int, int]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)  # content tokens, normalised
    negated: bool = False
    negation_cue: str = ""
    hedges: list[tuple[str, str, int, int]] = field(default_factory=list)  # (label, surface, start, end)
    words: frozenset[str] = frozenset()  # lower-case words (for comparatives)
