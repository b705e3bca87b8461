"""What the checks of one (claim, reference claim) pair find (frozen ``Finding``), and the pair
record (frozen ``Pair``) that ``pairs.fold`` builds from them.

Every check reads the pair's context and returns findings; no check writes into a shared
record, so a check's result does not depend on which checks ran before it in its stage
(``compare.PAIR_CHECKS``). One function, ``pairs.fold``, turns the findings into the
``Pair`` the decision reads, with the precedence rules in one place.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

#: a clause boundary; a comma or colon inside a number ("1,420", "10:30") is none
CLAUSE_SPLIT = re.compile(
    r"\s*(?:[;()\[\]]|(?<!\d)[,:]|[,:](?!\d)|\s[–—-]\s"
    r"|\s(?:but|and|while|whereas|although|though|which|who|because)\s)\s*"
)


@dataclass(frozen=True)
class Conflict:
    """Two values of one slot: the claim's and the reference claim's, with the span of the
    reference's inside the reference claim text (character offsets, ``start <= end``)."""

    #: values: "year", "date", "time", "number", a unit family, "range", "bound", "bounds",
    #: "ordinal", "identifier"; words: "entity", "negation", "comparative", "antonym",
    #: "quantifier", "rank", "office", "ended", "predicate", "object", "slot", "converse",
    #: "roles"
    kind: str
    response_value: str
    reference_value: str
    start: int  # span of the reference value inside the reference claim text
    end: int
    unit_only: bool = False


class FindingKind(Enum):
    """What a finding is about (one member per check family)."""

    #: the claim's subject head (conflict: the reference claim does not state it, or puts
    #: another modifier on it: "The old bridge" for "The new bridge")
    SUBJECT = "subject"
    NAME = "name"  #: a name of the claim (agree, unstated) or of the reference alone (extra)
    VALUE = "value"  #: a number, year, date, range, bound, ordinal or identifier
    DATELINE = "dateline"  #: the reference is a dateline that states the claim's year or date
    WORDS = "words"  #: words of the claim compared as part of a value (a bound's "more than")
    POLARITY = "polarity"  #: negation: a flip (conflict), or a denial not stated (unstated)
    PREDICATE = "predicate"  #: the claim's verb replaced by another between the same words
    OBJECT = "object"  #: the claim's verb with another object, or another word in a slot
    OPPOSITE = "opposite"  #: antonym, comparative, quantifier, rank, office, ended state
    QUALIFIER = "qualifier"  #: a hedge or limit of the reference that the claim drops
    DEGREE = "degree"  #: a quantifier, superlative or office the reference does not grade


class Stance(Enum):
    """How the reference claim stands to what the finding is about."""

    AGREE = "agree"  #: the reference claim states it
    CONFLICT = "conflict"  #: the reference claim states something else in its place
    UNSTATED = "unstated"  #: the reference claim does not state it
    EXTRA = "extra"  #: the reference claim names something the claim does not


@dataclass(frozen=True)
class Finding:
    """One thing a check found on a (claim, reference claim) pair.

    ``response_value`` / ``reference_value`` are the two values as written (empty where a
    side has none); ``start``/``end`` the span of the reference's value inside the reference
    claim text (-1 when it has none); ``facet`` the finer kind of a conflict (``Conflict.kind``:
    "year", "antonym", ...) or of a dropped qualifier ("may", "limited", "office");
    ``key`` the key of a stated facet ("q:1991", "d:may 3, 2001", "e:paris", "u:doi.org/..."),
    for ``WORDS`` the covered words joined by spaces; ``coverage`` in [0, 1], for an
    ``OPPOSITE`` the share of the claim's words the reference states without the flipped words
    themselves (an ended state: with all of them), for a ``POLARITY`` flip that of a flat
    denial (``clause_checks._flat_denial_core``), 0 where the check measures none."""

    kind: FindingKind
    stance: Stance
    response_value: str = ""
    reference_value: str = ""
    start: int = -1
    end: int = -1
    facet: str = ""
    key: str = ""
    unit_only: bool = False
    coverage: float = 0.0

    @property
    def conflict(self) -> Conflict:
        """The finding as the two values of one slot (what reasons and the decision name)."""
        return Conflict(
            self.facet, self.response_value, self.reference_value, self.start, self.end, self.unit_only
        )


def conflict_finding(kind: FindingKind, conflict: Conflict, coverage: float = 0.0) -> Finding:
    """A ``Stance.CONFLICT`` finding of ``kind`` carrying the two values of ``conflict``."""
    return Finding(
        kind,
        Stance.CONFLICT,
        conflict.response_value,
        conflict.reference_value,
        conflict.start,
        conflict.end,
        facet=conflict.kind,
        unit_only=conflict.unit_only,
        coverage=coverage,
    )


def stated(kind: FindingKind, key: str, value: str = "") -> Finding:
    """A ``Stance.AGREE`` finding: the reference claim states the facet ``key``."""
    return Finding(kind, Stance.AGREE, value, key=key)


def unstated(kind: FindingKind, value: str) -> Finding:
    """A ``Stance.UNSTATED`` finding: the reference claim does not state ``value``."""
    return Finding(kind, Stance.UNSTATED, value)


@dataclass(frozen=True)
class Pair:
    """One (claim, reference claim) pair as the decision reads it: the measures of the pair
    (cosine in [-1, 1], word coverages in [0, 1]) and what its findings say, folded by
    ``pairs.fold``. Frozen: built once per pair, never written afterwards."""

    j: int  # index of the reference claim
    cos: float
    coverage: float
    subject_coverage: float
    findings: tuple[Finding, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    missing: tuple[str, ...] = ()
    stated: frozenset[str] = frozenset()  # keys of the response facets this claim states
    tokens_covered: frozenset[str] = frozenset()
    entities_missing: tuple[str, ...] = ()
    entities_present: tuple[str, ...] = ()
    entities_extra: tuple[str, ...] = ()
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
    #: coverage of a flat denial of a polarity flip (``clause_checks._flat_denial_core``: "Honey
    #: does not spoil" / "Honey spoils over time"); 0 without a flip or a flat denial
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
