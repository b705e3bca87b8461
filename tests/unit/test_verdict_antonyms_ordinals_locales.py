"""Verdict kinds of claims.verdict.judge (antonyms, directions, ordinals, numbers, dates and negation
in other locales, currencies), one table per kind.

Every expected verdict follows from the rule that ``claims.verdict`` states for the kind (named
in each table's comment). The cosines are ``HIGH`` (0.93, ``judge_claim`` of tests/unit/verdict_rows.py,
as in tests/unit/test_verdict_checks.py) so that only the checks decide. Each table mixes rows that
must flip with rows that must not.
"""

from __future__ import annotations

import pytest

from claims.types import Verdict
from tests.unit.verdict_rows import judge_claim

C, S, U, INF = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.INFERRED
Row = tuple[str, str, str, set[Verdict]]


def _check(row: Row) -> None:
    kind, response, reference, allowed = row
    got, reason = judge_claim(response, [reference])
    assert got in allowed, f"{kind}: {response!r} vs {reference!r} -> {got.value} ({reason})"


# negation of an antonym (claims/data/antonyms.tsv) is a double negation: "did not decrease"
# states what "increased" states, so the polarity check finds no flip (``_negated_antonym``);
# a plain negation of the same word still flips, and an antonym without negation flips.
NEGATED_ANTONYM: list[Row] = [
    (
        "increased / not decrease",
        "The new tariff increased imports.",
        "The new tariff did not decrease imports.",
        {S, INF, U},
    ),
    (
        "raised / not lower",
        "The Hale reform raised rents.",
        "The Hale reform did not lower rents.",
        {S, INF, U},
    ),
    (
        "decreased / not increase",
        "The Hale reform decreased rents.",
        "The Hale reform did not increase rents.",
        {S, INF, U},
    ),
    (
        "grew / not shrink",
        "Exports of Tarn copper grew last year.",
        "Exports of Tarn copper did not shrink last year.",
        {S, INF, U},
    ),
    (
        "not decrease / increased",
        "The tariff did not decrease imports.",
        "The tariff increased imports.",
        {S, INF, U},
    ),
    (
        "increased / not decrease",
        "The tariff increased imports.",
        "The tariff did not decrease imports.",
        {S, INF, U},
    ),
    (
        "not closed / open",
        "The Alder library is not closed on Sundays.",
        "The Alder library is open on Sundays.",
        {S, INF, U},
    ),
    (
        "denial frame + antonym",
        "It is false that the Alder library is closed on Sundays.",
        "The Alder library is open on Sundays.",
        {S, INF, U},
    ),
    (
        "open / not closed",
        "The Alder library is open on Sundays.",
        "The Alder library is not closed on Sundays.",
        {S, INF, U},
    ),
    (
        "not increase / increased",
        "The tariff did not increase imports.",
        "The tariff increased imports.",
        {C},
    ),
    (
        "not open / open",
        "The Alder library is not open on Sundays.",
        "The Alder library is open on Sundays.",
        {C},
    ),
]


@pytest.mark.parametrize("row", NEGATED_ANTONYM, ids=[r[0] for r in NEGATED_ANTONYM])
def test_negated_antonym_agrees(row: Row) -> None:
    _check(row)


# the reason names an antonym of kind "state"/"direction" as "antonym" and a comparative as
# "comparative" (the kind column of claims/data/antonyms.tsv)
ANTONYM_LABEL = [
    (
        "The Alder library is closed on Sundays.",
        "The Alder library is open on Sundays.",
        "antonym closed ≠ open",
    ),
    (
        "Rents in Vell are higher than in 2010.",
        "Rents in Vell are lower than in 2010.",
        "comparative higher ≠ lower",
    ),
]


@pytest.mark.parametrize(("response", "reference", "label"), ANTONYM_LABEL)
def test_antonym_reason_label(response: str, reference: str, label: str) -> None:
    verdict, reason = judge_claim(response, [reference])
    assert verdict is C and reason.startswith(label), reason


# directional change verbs on the same object (kind "direction" in claims/data/antonyms.tsv)
# state opposite outcomes -> contradicted (the antonym check), not a neutral predicate swap;
# the same direction in other words stays consistent.
DIRECTION: list[Row] = [
    (
        "reduced / increased",
        "The new rule reduced waiting times.",
        "The new rule increased waiting times.",
        {C},
    ),
    (
        "cut / raised",
        "Norvik Bank cut its fees in May.",
        "Norvik Bank raised its fees in May.",
        {C},
    ),
    (
        "grew / shrank",
        "The Pell cooperative grew its membership.",
        "The Pell cooperative shrank its membership.",
        {C},
    ),
    (
        "raised / lowered",
        "The council raised the speed limit.",
        "The council lowered the speed limit.",
        {C},
    ),
    (
        "rose / fell",
        "Exports of Tarn copper rose last year.",
        "Exports of Tarn copper fell last year.",
        {C},
    ),
    (
        "grew / increased (synonym)",
        "Exports of Tarn copper grew last year.",
        "Exports of Tarn copper increased last year.",
        {S},
    ),
    (
        "same verb",
        "The new rule reduced waiting times.",
        "The new rule reduced waiting times.",
        {S},
    ),
]


@pytest.mark.parametrize("row", DIRECTION, ids=[r[0] for r in DIRECTION])
def test_direction_verbs_contradict(row: Row) -> None:
    _check(row)


# ordinals (``compare.ordinal_rival``): another ordinal, in words or digits, in the same
# position (the same slot, or the same content word next to it) -> contradicted; the same
# ordinal in another form states it; an ordinal in another position is no conflict.
ORDINAL: list[Row] = [
    (
        "words",
        "Tova Lind finished second in the Orm marathon.",
        "Tova Lind finished third in the Orm marathon.",
        {C},
    ),
    (
        "digits vs words",
        "Tova Lind finished 2nd in the Orm marathon.",
        "Tova Lind finished fourth in the Orm marathon.",
        {C},
    ),
    (
        "rank before adjective",
        "Vell is the third largest port in Sarn.",
        "Vell is the second largest port in Sarn.",
        {C},
    ),
    (
        "floor",
        "The Brim clinic is on the 4th floor.",
        "The Brim clinic is on the fifth floor.",
        {C},
    ),
    (
        "same, other form",
        "Tova Lind finished 2nd in the Orm marathon.",
        "Tova Lind finished second in the Orm marathon.",
        {S},
    ),
    (
        "other position",
        "Tova Lind won her first title in Orm.",
        "Tova Lind won the Orm marathon for the third time.",
        {U, S, INF},
    ),
]


@pytest.mark.parametrize("row", ORDINAL, ids=[r[0] for r in ORDINAL])
def test_ordinal_conflict(row: Row) -> None:
    _check(row)


# European numbers (``claims.facets.vocabulary.DECIMAL_COMMA``, German scale words in ``SCALES``): a
# decimal comma before a scale word, currency or percent is a decimal point, so "3,5 Millionen
# Euro" is 3,500,000 euros; another amount in the same slot conflicts, an equal one states.
EURO_NUMBERS: list[Row] = [
    (
        "Millionen",
        "Der Umsatz von Kelm betrug 5,3 Millionen Euro.",
        "Der Umsatz von Kelm betrug 3,5 Millionen Euro.",
        {C},
    ),
    (
        "Milliarden",
        "Die Schulden von Orla betrugen 1,2 Milliarden Euro.",
        "Die Schulden von Orla betrugen 2,1 Milliarden Euro.",
        {C},
    ),
    (
        "euro sign after",
        "Der Eintritt ins Brill-Museum kostet 12,50 €.",
        "Der Eintritt ins Brill-Museum kostet 12,80 €.",
        {C},
    ),
    (
        "percent",
        "Die Arbeitslosigkeit in Tarn lag bei 4,2 %.",
        "Die Arbeitslosigkeit in Tarn lag bei 2,4 %.",
        {C},
    ),
    (
        "same value, other form",
        "Der Umsatz von Kelm betrug 3,5 Millionen Euro.",
        "Der Umsatz von Kelm betrug 3.500.000 Euro.",
        {S},
    ),
    (
        "English grouping kept",
        "Kelm sold 3,500 bicycles.",
        "Kelm sold 3,500 bicycles.",
        {S},
    ),
]


@pytest.mark.parametrize("row", EURO_NUMBERS, ids=[r[0] for r in EURO_NUMBERS])
def test_european_numbers(row: Row) -> None:
    _check(row)


# German negation cues (``claims.facets.polarity.negation_of``: nicht, nie, kein-; German function words
# in claims/data/stopwords.txt, so the cue is not an uncovered content word): a denial of the
# same statement contradicts it either way; "nicht nur" (not only) does not negate.
GERMAN_NEGATION: list[Row] = [
    (
        "nicht / affirmed",
        "Das Brill-Museum ist montags nicht geöffnet.",
        "Das Brill-Museum ist montags geöffnet.",
        {C},
    ),
    (
        "affirmed / nicht",
        "Das Brill-Museum ist montags geöffnet.",
        "Das Brill-Museum ist montags nicht geöffnet.",
        {C},
    ),
    (
        "keinen / einen",
        "Der Tarn-Verein erhebt keinen Beitrag.",
        "Der Tarn-Verein erhebt einen Beitrag.",
        {C},
    ),
    (
        "nie / affirmed",
        "Orla Berg hat nie in Kelm gewohnt.",
        "Orla Berg hat in Kelm gewohnt.",
        {C},
    ),
    (
        "nicht nur",
        "Kelm exportiert nicht nur Kupfer.",
        "Kelm exportiert Kupfer.",
        {S, INF, U},
    ),
]


@pytest.mark.parametrize("row", GERMAN_NEGATION, ids=[r[0] for r in GERMAN_NEGATION])
def test_german_negation(row: Row) -> None:
    _check(row)


def test_german_negation_is_never_supported() -> None:
    # the same rows must not come back supported (the bug this table guards against)
    for _, response, reference, _ in GERMAN_NEGATION[:4]:
        assert judge_claim(response, [reference])[0] is not S, response


# German dates (``claims.facets.MONTHS``, day with an ordinal dot "12. Mai"): a date is compared
# part by part, so another year, month or day of the same event conflicts; the same date in
# German and English states it.
GERMAN_DATES: list[Row] = [
    (
        "year",
        "Orla Berg wurde am 12. Mai 1998 geboren.",
        "Orla Berg wurde am 12. Mai 1989 geboren.",
        {C},
    ),
    (
        "month",
        "Das Kelm-Werk öffnete am 3. März 2001.",
        "Das Kelm-Werk öffnete am 3. Juni 2001.",
        {C},
    ),
    (
        "day",
        "Das Kelm-Werk öffnete am 4. Oktober 2001.",
        "Das Kelm-Werk öffnete am 14. Oktober 2001.",
        {C},
    ),
    (
        "month and year",
        "Die Tarn-Brücke wurde im Dezember 1975 eröffnet.",
        "Die Tarn-Brücke wurde im Dezember 1957 eröffnet.",
        {C},
    ),
    (
        "same",
        "Orla Berg wurde am 12. Mai 1989 geboren.",
        "Orla Berg wurde am 12. Mai 1989 geboren.",
        {S},
    ),
]


@pytest.mark.parametrize("row", GERMAN_DATES, ids=[r[0] for r in GERMAN_DATES])
def test_german_dates(row: Row) -> None:
    _check(row)


# currencies (``compare.both_currencies``): another currency for the same price is another
# value in the same slot -> contradicted ("currency $45 ≠ €45"); a symbol, code or word of the
# same currency states it.
CURRENCY: list[Row] = [
    (
        "dollar / euro",
        "A ticket to the Kelm museum costs $45.",
        "A ticket to the Kelm museum costs €45.",
        {C},
    ),
    (
        "pound / dollar",
        "The Orla hotel charges £120 per night.",
        "The Orla hotel charges $120 per night.",
        {C},
    ),
    (
        "code / symbol",
        "The Orla hotel charges 120 GBP per night.",
        "The Orla hotel charges €120 per night.",
        {C},
    ),
    (
        "other value, other currency",
        "The Brill fare is $30.",
        "The Brill fare is €25.",
        {C},
    ),
    (
        "euros / euro sign",
        "A ticket to the Kelm museum costs 45 euros.",
        "A ticket to the Kelm museum costs €45.",
        {S},
    ),
    (
        "EUR / euro sign",
        "A ticket to the Kelm museum costs 45 EUR.",
        "A ticket to the Kelm museum costs €45.",
        {S},
    ),
    (
        "USD / dollar sign",
        "The Orla hotel charges 120 USD per night.",
        "The Orla hotel charges $120 per night.",
        {S},
    ),
]


@pytest.mark.parametrize("row", CURRENCY, ids=[r[0] for r in CURRENCY])
def test_currency(row: Row) -> None:
    _check(row)


def test_currency_reason() -> None:
    verdict, reason = judge_claim(
        "A ticket to the Kelm museum costs $45.", ["A ticket to the Kelm museum costs €45."]
    )
    assert verdict is C and reason.startswith("currency $45 ≠ €45"), reason
