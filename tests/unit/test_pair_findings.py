"""The checks of one (claim, reference claim) pair return frozen findings, and one function folds
them into the frozen ``Pair`` (``claims.verdict.compare``, ``claims.verdict.findings``).

Every expected value follows from a rule stated in those modules' docstrings: a check reads the
pair's context and the pair of the earlier stages and writes nothing; ``fold`` keeps the first
flip or dropped qualifier in the registry's order; words compared as a bound count as covered;
a value conflict outside the clause that covers the claim is an unstated value (dates excepted).
"""

from __future__ import annotations

import copy
import dataclasses

import pytest

from claims.facets import extract
from claims.verdict.compare import PAIR_CHECKS, compare_facets
from claims.verdict.context import context_of
from claims.verdict.findings import Conflict, Finding, FindingKind, Stance, conflict_finding
from claims.verdict.pairs import fold, in_clause, measure

#: one pair per check family: value, bound, antonym, ended state, quantifier, negation, name
PAIRS = [
    ("The bridge opened in 1993.", "The bridge opened in 1990."),
    ("The kiln reached more than 900 degrees.", "The kiln reached 850 degrees."),
    ("The store is open on Sundays.", "The store is closed on Sundays."),
    ("Ana Ruiz is the CEO of Lumen.", "Ana Ruiz was the CEO of Lumen until 2019."),
    ("Most residents own cars.", "Few residents own cars."),
    ("The museum does not charge for entry.", "The museum charges for entry."),
    ("Marit Larsen wrote the song.", "Marit Olsen wrote the song."),
]


@pytest.mark.parametrize(("claim", "reference"), PAIRS)
def test_every_check_returns_findings_and_leaves_its_inputs_as_they_were(claim: str, reference: str) -> None:
    x = context_of(extract(claim), extract(reference))
    lists = copy.deepcopy((x.r_tokens, x.c_stems))
    base = measure(x, 0.9, 0)
    found: list[Finding] = []
    for stage in PAIR_CHECKS:
        prior = fold(base, found, x) if found else base
        got = {check.__name__: check(x, prior) for check in stage}
        for name, findings in got.items():
            assert isinstance(findings, tuple) and all(isinstance(f, Finding) for f in findings), name
        # no check depends on another of its stage: run backwards, each finds the same
        assert {check.__name__: check(x, prior) for check in reversed(stage)} == got
        found.extend(f for check in stage for f in got[check.__name__])
    assert (x.r_tokens, x.c_stems) == lists


def test_the_pair_and_its_findings_are_frozen() -> None:
    p = compare_facets(extract(PAIRS[0][0]), extract(PAIRS[0][1]), 0.9, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.conflicts = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.findings[0].stance = Stance.AGREE  # type: ignore[misc]


def test_each_pair_names_what_its_findings_say() -> None:
    # "1993" against "1990": a year conflict (``quantity_checks._check_year``)
    p = compare_facets(extract(PAIRS[0][0]), extract(PAIRS[0][1]), 0.9, 0)
    (value,) = [f for f in p.findings if f.kind is FindingKind.VALUE]
    assert (value.stance, value.facet, value.response_value, value.reference_value) == (
        Stance.CONFLICT,
        "year",
        "1993",
        "1990",
    )
    assert p.conflicts == (value.conflict,)
    # "open" against "closed": an antonym flip (``lexical.antonym_flip``)
    p = compare_facets(extract(PAIRS[2][0]), extract(PAIRS[2][1]), 0.9, 0)
    assert p.comparative_flip is not None
    assert (p.comparative_flip.response_value, p.comparative_flip.reference_value) == ("open", "closed")


def _pair_context():
    return context_of(extract(PAIRS[4][0]), extract(PAIRS[4][1]))


def test_fold_keeps_the_first_flip_and_the_first_dropped_qualifier() -> None:
    x = _pair_context()
    base = measure(x, 0.9, 0)
    one = conflict_finding(FindingKind.OPPOSITE, Conflict("antonym", "a", "b", 0, 1), coverage=0.4)
    two = conflict_finding(FindingKind.OPPOSITE, Conflict("rank", "c", "d", 2, 3), coverage=0.9)
    hedge_one = Finding(
        FindingKind.QUALIFIER, Stance.CONFLICT, reference_value="may", start=0, end=3, facet="may"
    )
    hedge_two = Finding(
        FindingKind.QUALIFIER, Stance.CONFLICT, reference_value="some", start=4, end=8, facet="quantifier"
    )
    p = fold(base, [one, hedge_one, two, hedge_two], x)
    assert p.comparative_flip == one.conflict and p.flip_coverage == 0.4
    assert p.hedge_dropped == ("may", "may", 0, 3)
    q = fold(base, [two, one], x)
    assert q.comparative_flip == two.conflict and q.flip_coverage == 0.9


def test_words_compared_as_a_bound_count_as_covered() -> None:
    # "exceeds" is the claim's bound, compared as the bound: no predicate word the reference lacks
    x = context_of(
        extract("The kiln temperature exceeds 80 °C."), extract("The kiln temperature stays below 80 °C.")
    )
    base = measure(x, 0.9, 0)
    uncovered = sorted(set(x.r_tokens) - base.tokens_covered)
    assert uncovered and base.coverage < 1.0
    words = Finding(FindingKind.WORDS, Stance.AGREE, key=" ".join(uncovered))
    p = fold(base, [words], x)
    assert p.coverage == 1.0 and set(uncovered) <= p.tokens_covered
    assert p.predicate_coverage > base.predicate_coverage and p.subject_coverage == 1.0


def test_a_value_conflict_outside_the_covering_clause_is_an_unstated_value() -> None:
    # the claim is covered by the reference's first clause; a number in the second clause
    # belongs to another statement, a date anywhere still conflicts (``in_clause``)
    x = context_of(
        extract("The tunnel opened to traffic."),
        extract("The tunnel opened to traffic; the bridge cost 30 million euros."),
    )
    start = x.c.text.index("30 million")
    assert start >= x.clause[1]
    number = conflict_finding(
        FindingKind.VALUE, Conflict("amount", "40 million euros", "30 million euros", start, start + 16)
    )
    date = conflict_finding(FindingKind.VALUE, Conflict("date", "May 3", "May 4", start, start + 5))
    kept = in_clause([number, date], x)
    assert kept[0] == date
    assert (kept[1].stance, kept[1].response_value) == (Stance.UNSTATED, "40 million euros")
    p = fold(measure(x, 0.9, 0), kept, x)
    assert p.conflicts == (date.conflict,) and p.missing == ("40 million euros",)


def test_fold_names_each_kind_of_finding_in_its_field() -> None:
    x = _pair_context()
    base = measure(x, 0.9, 0)
    swap_one = conflict_finding(FindingKind.PREDICATE, Conflict("predicate", "hired", "sued", 0, 4))
    swap_two = conflict_finding(FindingKind.PREDICATE, Conflict("predicate", "rose", "fell", 5, 9))
    found = [
        Finding(FindingKind.NAME, Stance.AGREE, "Oslo", key="e:oslo"),
        Finding(FindingKind.NAME, Stance.UNSTATED, "Bergen"),
        Finding(FindingKind.NAME, Stance.EXTRA, reference_value="Tromsø"),
        Finding(FindingKind.DATELINE, Stance.AGREE, "2019", key="q:2019"),
        Finding(FindingKind.DEGREE, Stance.UNSTATED, "most"),
        Finding(FindingKind.VALUE, Stance.UNSTATED, "42"),
        Finding(FindingKind.POLARITY, Stance.UNSTATED, "not"),
        Finding(FindingKind.SUBJECT, Stance.CONFLICT, "bridge"),
        swap_one,
        swap_two,
    ]
    p = fold(base, found, x)
    assert (p.entities_present, p.entities_missing, p.entities_extra) == (("Oslo",), ("Bergen",), ("Tromsø",))
    assert "e:oslo" in p.stated and p.dated and p.degree_gap and p.polarity_mismatch
    assert p.missing == ("most", "42") and not p.head_covered
    assert p.predicate_swap == swap_one.conflict  # the first of two swaps
    assert p.findings == tuple(found)


def test_fold_refuses_a_stance_its_kind_never_takes() -> None:
    x = _pair_context()
    with pytest.raises(ValueError, match="opposite"):
        fold(measure(x, 0.9, 0), [Finding(FindingKind.OPPOSITE, Stance.UNSTATED, "cold")], x)
