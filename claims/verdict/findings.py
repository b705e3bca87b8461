"""Findings of the checks (frozen ``Conflict``) and the per-pair record ``Pair`` they fill.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: a clause boundary; a comma or colon inside a number ("1,420", "10:30") is none
CLAUSE_SPLIT = re.compile(
    r"\s*(?:[;()\[\]]|(?<!\d)[,:]|[,:](?!\d)|\s[–—-]\s"
    r"|\s(?:but|and|while|whereas|although|though|which|who|because)\s)\s*"
)


@dataclass(frozen=True)
class Conflict:
    #: "year", "date", "time", "number", unit family, "entity", "negation", "comparative",
    #: "antonym", "quantifier", "ended", "bound", "slot", "identifier"
    kind: str
    response_value: str
    reference_value: str
    start: int  # span of the reference value inside the reference claim text
    end: int
    unit_only: bool = False


@dataclass
class Pair:
    j: int
    cos: float
    coverage: float
    subject_coverage: float
    conflicts: list[Conflict] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    stated: set[str] = field(default_factory=set)  # keys of the response facets this claim states
    tokens_covered: set[str] = field(default_factory=set)
    entities_missing: list[str] = field(default_factory=list)
    entities_present: list[str] = field(default_factory=list)
    entities_extra: list[str] = field(default_factory=list)
    polarity_flip: Conflict | None = None
    #: the claim is negated and the reference clause is not, without a flip: a negated claim is
    #: supported only by a negated reference ("X does not offer mortgages" vs "X offers loans")
    polarity_mismatch: bool = False
    #: the reference claim holds a denial (a negation cue, or a word of the claim denied by an
    #: antonym or a negative prefix)
    reference_negated: bool = False
    #: the claim's verb replaced by another verb between the same words ("hired" / "sued")
    predicate_swap: Conflict | None = None
    #: the claim's verb stated with another object ("carries a railway line" / "two lanes"), or
    #: another word of the claim replaced in its place (kind "slot": "with aspirin" / "with ibuprofen")
    object_swap: Conflict | None = None
    comparative_flip: Conflict | None = None
    hedge_dropped: tuple[str, str, int, int] | None = None
    flip_coverage: float = 0.0  # coverage without the comparative word itself
    #: coverage of a flat denial without the claim's verb adjuncts (``clause_checks._denied_core``:
    #: "Honey does not spoil" / "Honey spoils over time"); 0 when the denial needs them all
    denial_coverage: float = 0.0
    predicate_coverage: float = 0.0  # coverage of the claim's content words other than entities
    predicate_size: int = 0
    #: a missing quantifier or superlative the reference does not grade (``_check_degree``)
    degree_gap: bool = False
    head_covered: bool = True  # the claim's subject head is stated by the reference claim
    dated: bool = False  # a dateline (``is_dateline``) that states the claim's year or date
    relative_time: bool = False  # the reference claim dates by "last year", "two years ago", ...

    @property
    def relevance(self) -> float:
        return self.cos + self.coverage


MONTH_DAY, YEAR = "#md", "#y"  # suffixes of the keys of a date's two parts
