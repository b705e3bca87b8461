"""The frozen ``Pair`` of one (claim, reference claim) pair: its measures (``measure``), the
clause scope of its value conflicts (``in_clause``) and the fold of its checks' findings into it
(``fold``), where the precedence between findings lives.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from claims.facets import content_tokens
from claims.verdict.clause_checks import reference_denies
from claims.verdict.context import Context
from claims.verdict.events import event_coverage
from claims.verdict.findings import Conflict, Finding, FindingKind, Pair, Stance, unstated
from claims.verdict.text import coverage_of, widen
from claims.verdict.time_bounds import recount_coverage
from claims.verdict.values import RELATIVE_YEAR


def in_clause(findings: Sequence[Finding], x: Context) -> tuple[Finding, ...]:
    """A different value outside the clause that covers the claim (widened over value-only
    clauses, ``widen``) belongs to another statement: the claim's value is then simply not
    stated (an unstated ``VALUE`` with the claim's value only, placed after the other
    findings), never a conflict. Conflicts of facet "date" (a day or month) and "identifier"
    are exempt (an address's own brackets or punctuation split no clause:
    "wiki/Mercury_(element)"); a date that differs only in its year is a "year" conflict and is
    not."""
    ws, we = widen(x.c.text, *x.clause)

    def outside(f: Finding) -> bool:
        return (
            f.kind is FindingKind.VALUE
            and f.stance is Stance.CONFLICT
            and not (ws <= f.start and f.end <= we or f.facet in ("date", "identifier"))
        )

    kept = [f for f in findings if not outside(f)]
    return (*kept, *(unstated(FindingKind.VALUE, f.response_value) for f in findings if outside(f)))


def measure(x: Context, cos: float, j: int) -> Pair:
    """The pair's measures before any finding: cosine ``cos`` (of the two claims' embeddings),
    the share of the claim's content words the reference states (``coverage``, in [0, 1]) and
    of its predicate words (names left out), the subject coverage (the best of the coverage, the
    covering clause's and the claim's event words'), whether the reference holds a denial
    (``reference_denies``) and whether it dates by a relative year ("last year")."""
    coverage, covered = coverage_of(x.r_tokens, x.c_stems)
    names = set(content_tokens(" ".join(e for e, _, _ in x.r.entities)))
    predicate_coverage, predicate_size = event_coverage([t for t in x.r_tokens if t not in names], x.c_stems)
    return Pair(
        j=j,
        cos=cos,
        coverage=coverage,
        subject_coverage=max(coverage, x.clause_coverage, event_coverage(x.r_tokens, x.c_stems)[0]),
        tokens_covered=frozenset(covered),
        predicate_coverage=predicate_coverage,
        predicate_size=predicate_size,
        reference_negated=reference_denies(x.r, x.c),
        relative_time=bool(RELATIVE_YEAR.search(x.c.text)),
    )


#: the stances each kind of finding takes (``fold`` refuses others)
_STANCES: dict[FindingKind, frozenset[Stance]] = {
    FindingKind.WORDS: frozenset({Stance.AGREE}),
    FindingKind.DATELINE: frozenset({Stance.AGREE}),
    FindingKind.NAME: frozenset({Stance.AGREE, Stance.UNSTATED, Stance.EXTRA}),
    FindingKind.VALUE: frozenset({Stance.AGREE, Stance.CONFLICT, Stance.UNSTATED}),
    FindingKind.DEGREE: frozenset({Stance.UNSTATED}),
    FindingKind.POLARITY: frozenset({Stance.CONFLICT, Stance.UNSTATED}),
    FindingKind.SUBJECT: frozenset({Stance.CONFLICT}),
    FindingKind.PREDICATE: frozenset({Stance.CONFLICT}),
    FindingKind.OBJECT: frozenset({Stance.CONFLICT}),
    FindingKind.OPPOSITE: frozenset({Stance.CONFLICT}),
    FindingKind.QUALIFIER: frozenset({Stance.CONFLICT}),
}


def _recounted(base: Pair, findings: Sequence[Finding], x: Context) -> Pair:
    """``base`` with the words of its ``WORDS`` findings counted as covered, in their order:
    coverage, subject coverage and predicate coverage counted again (``recount_coverage``; the
    predicate leaves out the words of the last such finding only)."""
    p = base
    for f in findings:
        own = frozenset(f.key.split()) if f.kind is FindingKind.WORDS else frozenset()
        if own and not own <= p.tokens_covered:
            covered = p.tokens_covered | own
            coverage, predicate_coverage, predicate_size = recount_coverage(x, covered, own)
            p = replace(
                p,
                tokens_covered=covered,
                coverage=coverage,
                subject_coverage=max(p.subject_coverage, coverage),
                predicate_coverage=predicate_coverage,
                predicate_size=predicate_size,
            )
    return p


def fold(base: Pair, findings: Sequence[Finding], x: Context) -> Pair:
    """The pair ``base`` with what ``findings`` say, in their order: stated keys, conflicts and
    missing values (a value's or a degree's), names, the first polarity flip, predicate or
    object swap, opposite and dropped qualifier (``Stance.CONFLICT`` of those kinds), the
    subject head, a dateline; words compared as a bound count as covered (``_recounted``).

    ``base`` must come from ``measure`` (no findings folded into it yet): ``fold`` starts the
    findings' fields afresh but keeps ``base``'s measures.

    Raises
    ------
    ValueError
        If a finding has a stance its kind never takes (``_STANCES``: an unstated opposite, say).
    """
    for f in findings:
        if f.stance not in _STANCES[f.kind]:
            raise ValueError(f"a {f.kind.value} finding cannot be {f.stance.value}")
    first: dict[FindingKind, Finding] = {}
    for f in findings:
        if f.stance is Stance.CONFLICT and f.kind not in (FindingKind.VALUE, FindingKind.SUBJECT):
            first.setdefault(f.kind, f)

    def conflict_of(kind: FindingKind) -> Conflict | None:
        return first[kind].conflict if kind in first else None

    def names(stance: Stance) -> tuple[str, ...]:
        return tuple(
            f.response_value or f.reference_value
            for f in findings
            if f.kind is FindingKind.NAME and f.stance is stance
        )

    def any_of(kind: FindingKind, stance: Stance) -> bool:
        return any(f.kind is kind and f.stance is stance for f in findings)

    flip, dropped = first.get(FindingKind.OPPOSITE), first.get(FindingKind.QUALIFIER)
    polarity = first.get(FindingKind.POLARITY)
    return replace(
        _recounted(base, findings, x),
        findings=tuple(findings),
        conflicts=tuple(
            f.conflict for f in findings if f.kind is FindingKind.VALUE and f.stance is Stance.CONFLICT
        ),
        missing=tuple(
            f.response_value
            for f in findings
            if f.kind in (FindingKind.VALUE, FindingKind.DEGREE) and f.stance is Stance.UNSTATED
        ),
        stated=base.stated
        | {
            f.key
            for f in findings
            if f.stance is Stance.AGREE and f.kind in (FindingKind.VALUE, FindingKind.NAME)
        },
        entities_missing=names(Stance.UNSTATED),
        entities_present=names(Stance.AGREE),
        entities_extra=names(Stance.EXTRA),
        polarity_flip=conflict_of(FindingKind.POLARITY),
        polarity_mismatch=any_of(FindingKind.POLARITY, Stance.UNSTATED),
        predicate_swap=conflict_of(FindingKind.PREDICATE),
        object_swap=conflict_of(FindingKind.OBJECT),
        comparative_flip=conflict_of(FindingKind.OPPOSITE),
        hedge_dropped=None
        if dropped is None
        else (dropped.facet, dropped.reference_value, dropped.start, dropped.end),
        flip_coverage=0.0 if flip is None else flip.coverage,
        denial_coverage=0.0 if polarity is None else polarity.coverage,
        degree_gap=any_of(FindingKind.DEGREE, Stance.UNSTATED),
        head_covered=not any_of(FindingKind.SUBJECT, Stance.CONFLICT),
        dated=any_of(FindingKind.DATELINE, Stance.AGREE),
    )
