"""Value slots of claims.facets.extract: one table per kind.

Expected values come from the definitions in ``claims.facets``: a value is in its slot's base
unit (currency in its own unit, percent as a fraction: 25 % = 0.25, seconds for durations,
°C for temperatures); ``bound``/``interval`` follow ``Quantity``'s docstring.
"""

from __future__ import annotations

import math

import pytest

from claims.facets import extract, negation_frame, quantity_matches, slots_compatible


def _values(text: str) -> list[tuple[str, float, str]]:
    return [(q.text, round(q.value, 6), q.slot) for q in extract(text).quantities]


# currency in every written form: ISO code before the amount, symbol with a magnitude,
# magnitude word with the currency name, European grouping (dots group thousands, comma decimals)
CURRENCY = [
    ("code, comma grouping", "It cost USD 640,000,000.", [("USD 640,000,000", 640e6, "currency_usd")]),
    ("symbol, glued magnitude", "It cost $640M.", [("$640M", 640e6, "currency_usd")]),
    (
        "magnitude word, name",
        "It cost 640 million dollars.",
        [("640 million dollars", 640e6, "currency_usd")],
    ),
    ("code, European grouping", "It cost EUR 4.500.000.", [("EUR 4.500.000", 4.5e6, "currency_eur")]),
    ("symbol, European decimals", "It cost €4.500.000,50.", [("€4.500.000,50", 4500000.5, "currency_eur")]),
    ("other code", "It cost NOK 300.", [("NOK 300", 300.0, "currency_nok")]),
    ("code after the amount", "It cost 300 NOK.", [("300 NOK", 300.0, "currency_nok")]),
]


@pytest.mark.parametrize(("kind", "text", "expected"), CURRENCY, ids=[r[0] for r in CURRENCY])
def test_currency_forms(kind: str, text: str, expected: list[tuple[str, float, str]]) -> None:
    assert _values(text) == expected


def test_currency_forms_state_each_other() -> None:
    # all three forms are 640 million US dollars (CURRENCY rows): each states the others
    a, b, c = (extract(t).quantities[0] for t in ("USD 640,000,000", "$640M", "640 million dollars"))
    assert quantity_matches(a, b) and quantity_matches(b, c) and quantity_matches(c, a)
    assert not quantity_matches(extract("$460M").quantities[0], a)


# ratios and fractions as shares (percent slot): a/b
RATIOS = [
    ("one in four", "One in four voters agreed.", [("One in four", 0.25, "percent")]),
    ("digits", "1 in 5 cars is electric.", [("1 in 5", 0.2, "percent")]),
    ("out of", "Three out of ten pupils walk.", [("Three out of ten", 0.3, "percent")]),
    ("of every", "One of every five cars is red.", [("One of every five", 0.2, "percent")]),
    ("a year is no denominator", "He won 3 in 2020.", [("3", 3.0, ""), ("2020", 2020.0, "year")]),
]


@pytest.mark.parametrize(("kind", "text", "expected"), RATIOS, ids=[r[0] for r in RATIOS])
def test_ratio_words(kind: str, text: str, expected: list[tuple[str, float, str]]) -> None:
    assert _values(text) == expected


# ages: every form is the slot "age" in years, never a duration
AGES = [
    ("aged", "She joined aged 17.", [("17", 17.0, "age")]),
    ("years of age", "She was 17 years of age.", [("17 years of age", 17.0, "age")]),
    ("-year-old", "The 17-year-old joined.", [("17-year-old", 17.0, "age")]),
    ("at, clause end", "She joined at 17.", [("17", 17.0, "age")]),
    ("at, before a clause", "She joined at 17, when the club was new.", [("17", 17.0, "age")]),
    # a duration stays a duration: 17 years = 17 * 31,556,952 s (the Gregorian year of UNITS)
    ("a duration", "She played for 17 years.", [("17 years", 17 * 31556952.0, "duration")]),
]


@pytest.mark.parametrize(("kind", "text", "expected"), AGES, ids=[r[0] for r in AGES])
def test_age_expressions(kind: str, text: str, expected: list[tuple[str, float, str]]) -> None:
    assert _values(text) == expected


# a year as a modifier after a determiner is a year, not a count of the noun after it
YEARS = [
    ("the 2011 album", "The 2011 album sold well.", "year"),
    ("its 1993 breakout", "Its 1993 breakout made her famous.", "year"),
    ("possessive", "Low Tide's 1993 tour was long.", "year"),
    ("round number, plural noun: a count", "The 2000 runners started.", "n:runner"),
]


@pytest.mark.parametrize(("kind", "text", "slot"), YEARS, ids=[r[0] for r in YEARS])
def test_year_as_modifier(kind: str, text: str, slot: str) -> None:
    assert [q.slot for q in extract(text).quantities if q.raw >= 1000] == [slot]


# approximators make a value loose (never a conflict) and never a name
def test_sentence_initial_approximator_is_no_entity() -> None:
    f = extract("Roughly 50% of the voters agreed.")
    assert [(q.value, q.slot, q.loose) for q in f.quantities] == [(0.5, "percent", True)]
    assert f.entities == []


@pytest.mark.parametrize("word", ["about", "roughly", "nearly", "some", "around", "approximately"])
def test_approximators_make_values_loose(word: str) -> None:
    assert [q.loose for q in extract(f"It has {word} 40 rooms.").quantities] == [True]


INF = math.inf
# ranges and bounds: (bound, interval) per quantity, interval in the slot's base unit
RANGES = [
    ("between ... and", "It takes between 4 and 6 hours.", [("range", (14400.0, 21600.0))] * 2),
    ("from ... to, signs", "It works from -20 °C to 50 °C.", [("range", (-20.0, 50.0))] * 2),
    ("dash", "It takes 4–6 hours.", [("range", (14400.0, 21600.0))] * 2),
    ("up to", "It runs at up to 60 °C.", [("upto", (-INF, 60.0))]),
    ("at least", "At least 18 people came.", [("atleast", (18.0, INF))]),
    ("more than", "More than 500 employees work there.", [("above", (500.0, INF))]),
    ("a change is no range", "The rate rose from 5% to 8%.", [("", None), ("", None)]),
]


@pytest.mark.parametrize(("kind", "text", "expected"), RANGES, ids=[r[0] for r in RANGES])
def test_ranges_and_bounds(kind: str, text: str, expected: list[tuple[str, object]]) -> None:
    assert [(q.bound, q.interval) for q in extract(text).quantities] == expected


def test_a_point_is_not_stated_by_a_range_end() -> None:
    # "6 hours" is not stated by "between 4 and 6 hours" (quantity_matches' docstring)
    point = extract("It takes 6 hours.").quantities[0]
    assert not quantity_matches(point, extract("It takes between 4 and 6 hours.").quantities[1])
    assert quantity_matches(point, extract("It takes 6 hours.").quantities[0])


def test_percent_and_percentage_points_are_different_slots() -> None:
    pct, pp = extract("It rose 3%.").quantities[0], extract("It rose 3 percentage points.").quantities[0]
    assert (pct.slot, pp.slot) == ("percent", "pp")
    assert not slots_compatible(pct, pp)


ORDINALS = [
    ("digits", "She finished 2nd.", [(2.0, True)]),
    ("word", "She finished second.", [(2.0, True)]),
    ("word with noun", "The third floor is new.", [(3.0, True)]),
]


@pytest.mark.parametrize(("kind", "text", "expected"), ORDINALS, ids=[r[0] for r in ORDINALS])
def test_ordinals(kind: str, text: str, expected: list[tuple[float, bool]]) -> None:
    assert [(q.value, q.ordinal) for q in extract(text).quantities] == expected


def test_an_ordinal_is_no_count() -> None:
    # "third floor" and "4 floors" share the counted noun but an ordinal never fills a count
    assert not slots_compatible(
        extract("The third floor is new.").quantities[0], extract("It has 4 floors.").quantities[0]
    )


def test_markdown_emphasis_is_ignored_and_spans_stay_exact() -> None:
    text = "The lake holds **12 million** cubic metres."
    (q,) = extract(text).quantities
    assert (q.value, q.slot) == (12e6, "volume")  # 12 million m³, base unit cubic metres
    assert text[q.start : q.end] == "12 million** cubic metres"  # the source span, markers kept


NEGATION_FRAMES = [
    ("It is false that the dam is wooden.", ["dam", "wooden"]),
    ("There is no evidence that the dam is wooden.", ["dam", "wooden"]),
    ("It is not true that the dam is wooden.", ["dam", "wooden"]),
]


@pytest.mark.parametrize(("text", "tokens"), NEGATION_FRAMES, ids=[r[0][:24] for r in NEGATION_FRAMES])
def test_negation_frames_negate_and_are_no_content(text: str, tokens: list[str]) -> None:
    f = extract(text)
    assert f.negated and negation_frame(text) is not None
    assert f.tokens == tokens


def test_a_frame_word_elsewhere_does_not_negate() -> None:
    assert not extract("The claim that it is false is odd.").negated


@pytest.mark.parametrize("text", ["The population is " + "9" * 400 + " people.", "It released 1e309 joules."])
def test_a_number_past_what_a_float_holds_is_no_value(text: str) -> None:
    # float("9" * 400) is inf, and comparing inf with a finite value made a NaN that crashed the
    # match stage ("cannot convert float NaN to integer"); such a number is not compared at all
    assert all(math.isfinite(q.value) for q in extract(text).quantities)


# digits grouped by a no-break, narrow no-break or thin space are one number (SI and French
# style), with a point or a comma as the decimal mark; a plain space still separates two numbers
SPACE_GROUPED = [
    ("no-break space", "The span is 1\u00a0420 metres.", 1420.0),
    ("narrow no-break space, decimal comma", "It cost 4\u202f500\u202f000,50 euros.", 4500000.5),
    ("thin space", "It holds 12\u2009000 seats.", 12000.0),
]


@pytest.mark.parametrize(("kind", "text", "value"), SPACE_GROUPED, ids=[r[0] for r in SPACE_GROUPED])
def test_space_grouped_digits_are_one_number(kind: str, text: str, value: float) -> None:
    assert [q.value for q in extract(text).quantities] == [value]


def test_space_grouped_number_states_the_same_number_in_digits() -> None:
    grouped, plain = (extract(t).quantities[0] for t in ("1\u00a0420 metres", "1420 metres"))
    assert quantity_matches(grouped, plain)
    assert [q.value for q in extract("between 1 and 420 metres").quantities] == [1.0, 420.0]
