"""Kinds of fault in values (numbers, units, scores, ordinals, rounding, bounds, shares,
durations, counts and their slots) on the demo, the shared cases and the Factcheck-GPT refutations, one
table per kind.

Each table mixes rows that must flip with rows that must not; the rows use the cosine ``HIGH``
(0.93, tests/unit/verdict_rows.py) so that only the checks decide, and the expected verdicts follow
from the rule each table's comment names.
"""

from __future__ import annotations

import pytest

from claims.facets import extract, quantity_matches
from tests.unit.verdict_rows import INF, C, Row, S, U, check_row

# a value conflict needs the claim's predicate words in the reference claim; when the values count
# the same noun, half of them suffice (thresholds.coverage_predicate_counted 0.5): with 0.67
# "carries ... lanes of traffic" against "carries ... lanes of the E39 motorway across the Sandvik
# fjord" was no conflict (demo 02)
SAME_PREDICATE_TWO_OF_THREE: list[Row] = [
    (
        "The Halvorsen Bridge carries six lanes of traffic.",
        "The Halvorsen Bridge carries four lanes of the E39 motorway across the Sandvik fjord.",
        {C},
    ),
    # one of three is another predicate: another year of another event is no conflict
    ("The Halvorsen Bridge was repainted in 2004.", "The Halvorsen Bridge opened to traffic in 1998.", {U}),
]


@pytest.mark.parametrize("row", SAME_PREDICATE_TWO_OF_THREE, ids=[r[0] for r in SAME_PREDICATE_TWO_OF_THREE])
def test_same_predicate_two_of_three(row: Row) -> None:
    check_row(row)


# ordinals and scores are one slot each (claims.verdict.compare.ordinal_rival: the nearest content
# words beside the ordinal; claims.facets.scores: "7-0" is one value in the slot "score")
ORDINALS_AND_SCORES: list[Row] = [
    ("Norway finished first in the medal table.", "Norway finished second in the medal table.", {C}),
    ("Norway came 2nd in the medal table.", "Norway finished first in the medal table.", {C}),
    # the same ordinal: no conflict (the verbs differ, so no support either)
    ("Norway came 1st in the medal table.", "Norway finished first in the medal table.", {S, U}),
    ("Brann won the final 7-0.", "Brann won the final 7-1.", {C}),
    ("Brann beat Molde 3-2 in the final.", "Brann beat Molde 3–1 in the final.", {C}),
    ("The final ended 2-2.", "The final ended 2–1 to Brann.", {C}),
    ("Brann won the final 2-1.", "Brann won the final 2–1.", {S}),
    # a range of hours is no score, even next to a score word
    ("The final lasted 4-6 hours.", "The final lasted between 4 and 6 hours.", {S, U}),
]


@pytest.mark.parametrize("row", ORDINALS_AND_SCORES, ids=[r[0] for r in ORDINALS_AND_SCORES])
def test_ordinals_and_scores(row: Row) -> None:
    check_row(row)


def test_score_facet() -> None:
    (q,) = extract("Brann won the final 7-1.").quantities
    assert (q.slot, q.text, q.value) == ("score", "7-1", 7001.0)  # score_value: 7 * 1000 + 1
    assert [q.slot for q in extract("The game starts at 19:30.").quantities] == ["time"]
    assert all(q.slot != "score" for q in extract("The trip takes 4-6 hours.").quantities)  # no score word
    assert [q.text for q in extract("The 1998-99 season was won by Brann.").quantities] == ["1998-99"]


# a value in a compound sentence is compared in its own clause (decomposition splits it)
COMPOUND: list[Row] = [
    ("The bridge has six lanes.", "The bridge opened in 1981 and has four lanes.", {C}),
    ("The bridge has four lanes.", "The bridge opened in 1981 and has four lanes.", {S}),
]


@pytest.mark.parametrize("row", COMPOUND, ids=[r[0] for r in COMPOUND])
def test_compound_sentence_values(row: Row) -> None:
    check_row(row)


# rounding (claims.facets.rounding): a value with a magnitude word states what it rounds; an
# approximation too far from a stated point value conflicts like a point
ROUNDING: list[Row] = [
    ("The city has about 2.1 million inhabitants.", "The city has 2,148,271 inhabitants.", {S}),
    ("The city has 2.1 million inhabitants.", "The city has 2,148,271 inhabitants.", {S}),
    ("The city has 2.1 million inhabitants.", "The city has 2,348,271 inhabitants.", {C}),
    ("The city has 2.1 million inhabitants.", "The city has 3.4 million inhabitants.", {C}),
    ("The city has about 3.4 million inhabitants.", "The city has 2,148,271 inhabitants.", {C}),
    ("The city has 2,148,271 inhabitants.", "The city has about 3.4 million inhabitants.", {C}),
    # a bound is no approximation: never a conflict with a value inside it, which states it
    # (60 staff are more than 40: not unsupported), and a value past it conflicts
    ("The museum has more than 40 staff.", "The museum has 60 staff.", {S}),
    ("The museum has more than 40 staff.", "The museum has 38 staff.", {C}),
    ("The project cost over $10 million.", "The project cost $9.8 million.", {C}),
    ("The trial enrolled fewer than 500 patients.", "The trial enrolled 542 patients.", {C}),
]


@pytest.mark.parametrize("row", ROUNDING, ids=[r[0] for r in ROUNDING])
def test_rounding(row: Row) -> None:
    check_row(row)


def test_rounds_to_is_half_a_step() -> None:
    (a,) = extract("2.1 million people").quantities
    (b,) = extract("2,149,999 people").quantities
    (c,) = extract("2,150,001 people").quantities
    assert quantity_matches(a, b) and not quantity_matches(a, c)  # step 100,000: 2.05 M to 2.15 M


# one value in units of two systems (facets.rounding.converts_to): within 5 %
# (CONVERSION_TOLERANCE: "300 m (1,000 ft)", "3 miles" / "5 km"); 300 m = 984.25 ft,
# 100 km = 62.14 miles, 5 km = 3.11 miles, 5 kg = 11.02 lb (exact factors in facets.vocabulary)
CONVERSIONS: list[Row] = [
    ("The tower is 300 metres tall.", "The tower is 984 feet tall.", {S}),
    ("The tower is 300 metres tall.", "The tower is 1,000 feet tall.", {S}),
    ("The race is 100 km long.", "The race is 62 miles long.", {S}),
    ("The crate weighs 5 kg.", "The crate weighs 11 lb.", {S}),
    ("The trail is 3 miles long.", "The trail is 5 km long.", {S}),
    # another value: 1,100 ft is 335 m; 300 feet is not 300 metres
    ("The tower is 300 metres tall.", "The tower is 1,100 feet tall.", {C}),
    ("The tower is 300 metres tall.", "The tower is 300 feet tall.", {C}),
    # one unit under two names is compared exactly: $45 is not USD 46
    ("The ticket costs $45.", "The ticket costs USD 46.", {C}),
    ("The ticket costs $45.", "The ticket costs USD 45.", {S}),
    # no slack for small integers, units of one system, durations or temperatures:
    # 1 mile = 1.61 km, 1 m = 3.28 ft, 10 lb = 4.54 kg, 1 hour = 60 minutes, 5.1 km = 5,100 m,
    # 1 °F = -17.2 °C
    ("The trail is 1 mile long.", "The trail is 2 km long.", {C}),
    ("The rope is 1 m long.", "The rope is 5 ft long.", {C}),
    ("The crate weighs 10 lb.", "The crate weighs 5 kg.", {C}),
    ("The meeting lasted 1 hour.", "The meeting lasted 89 minutes.", {C}),
    ("The route is 5.1 km long.", "The route is 5,000 m long.", {C}),
    ("It was 1 °F in Oslo.", "It was -10 °C in Oslo.", {C}),
]


@pytest.mark.parametrize("row", CONVERSIONS)
def test_unit_conversions(row: Row) -> None:
    check_row(row)


# units named with their system ("265 metric tons (261 long tons)" was read as counts of "metric"
# and "long"), knots and nautical miles: the vocabulary's unit table (claims/facets/vocabulary.py)
UNIT_NAMES: list[Row] = [
    (
        "The submarine had a displacement of 662 tons when surfaced.",
        "The submarine displaced 265 metric tons when surfaced.",
        {C},
    ),
    (
        "The submarine had a displacement of 265 tons when surfaced.",
        "The submarine displaced 265 metric tons when surfaced.",
        {S},
    ),
    # 261 long tons = 265.2 t: one value in two systems (rounding.CONVERSION_TOLERANCE)
    (
        "The submarine displaced 265 tonnes when surfaced.",
        "The submarine displaced 261 long tons when surfaced.",
        {S},
    ),
    ("The ferry sails at 30 knots.", "The ferry sails at 12 knots.", {C}),
    ("The ferry sails at 9 knots.", "The ferry sails at 17 km/h.", {S}),
    # a capital inside a word is no name: "20 kN" read "N" as an entity and contradicted the
    # sentence itself ("entity N ≠ N")
    ("The engine produces 20 kN of thrust.", "The engine produces 20 kN of thrust.", {S}),
    # ... but one lower-case letter before the capital belongs to the name (iPhone/iPad)
    ("The update came to iPhone users first.", "The update came to iPad users first.", {C}),
    ("The reef lies 12 nautical miles offshore.", "The reef lies 22 km offshore.", {S}),
]


@pytest.mark.parametrize("row", UNIT_NAMES, ids=[f"{r[0]} / {r[1]}" for r in UNIT_NAMES])
def test_unit_names(row: Row) -> None:
    check_row(row)


def test_distributive_one_is_no_count() -> None:
    """ "from one generation to the next" counts nothing (number_words._DISTRIBUTIVE): the claim's
    "one" was a value no reference stated; "one metre to the left" still counts."""
    assert extract("Traits pass from one generation to the next.").quantities == []
    assert extract("Cells signal from one cell to another.").quantities == []
    assert [q.text for q in extract("It moved one metre to the left.").quantities] == ["one metre"]
    # not after "from": a count ("one kilometre to the next village" is kept)
    assert [q.text for q in extract("It is one kilometre to the next village.").quantities] == [
        "one kilometre"
    ]


# "a pair of" counts two (claims.facets.number_words.pair_words): Factcheck-GPT's "the merging of
# two supermassive black holes" against "a pair of merging ... binary black holes" (gold support)
# lacked the value 'two'; another count against the pair conflicts
PAIRS: list[Row] = [
    ("The merging of two black holes produces light.", "A pair of black holes merging produces light.", {S}),
    ("The team has two coaches.", "The team has a pair of coaches.", {S}),
    ("The team has three coaches.", "The team has a pair of coaches.", {C}),
    # "a couple of" is vague: no value, so the claim's count stays unstated
    ("The team has two coaches.", "The team has a couple of coaches.", {U}),
    # a pair of jeans is one thing
    ("She bought two jeans.", "She bought a pair of jeans.", {U}),
]


@pytest.mark.parametrize("row", PAIRS)
def test_a_pair_counts_two(row: Row) -> None:
    check_row(row)


# frequencies are units ("120 Hz" against "60 Hz" is no bare number "120" and no name "Hz"),
# and a count before a capitalised modifier counts the noun
# after it ("two Michelin stars" against "one Michelin star" does not lack 'two')
UNITS_AND_COUNTS: list[Row] = [
    ("The display refreshes at 120 Hz.", "The display refreshes at 60 Hz.", {C}),
    ("The CPU runs at 3.2 GHz.", "The CPU runs at 3,200 MHz.", {S}),
    ("The restaurant has two Michelin stars.", "The restaurant has one Michelin star.", {C}),
    ("He won five Grand Slam titles.", "He won five Grand Slam titles.", {S}),
    # a year before a name counts nothing
    ("The 2008 Olympic games were held in Beijing.", "The 2008 Olympic games were held in Beijing.", {S}),
]


@pytest.mark.parametrize("row", UNITS_AND_COUNTS)
def test_frequency_units_and_counts_before_names(row: Row) -> None:
    check_row(row)


# counts of a name in the plural ("three Nobel Prizes") and bare numbers after "<noun> of"
# ("a capacity of 50,000") have a slot, so another value there conflicts; a place the reference
# does not name ("signed in Paris") does not make the claim another event
VALUE_SLOTS: list[Row] = [
    ("Marie Curie won three Nobel Prizes.", "Marie Curie won two Nobel Prizes.", {C}),
    ("The stadium has a capacity of 50,000.", "The stadium has a capacity of 5,000.", {C}),
    ("The treaty was signed in Paris in 1921.", "The treaty was signed in 1922.", {C}),
    ("The stadium has a capacity of 50,000.", "The stadium has a capacity of 50,000 seats.", {S}),
    ("The treaty was signed in Paris in 1921.", "The treaty was signed in 1921.", {U}),
]


@pytest.mark.parametrize("row", VALUE_SLOTS)
def test_value_slots(row: Row) -> None:
    check_row(row)


# "The <noun> of X is N": the subject's noun is the number's slot, as in "a <noun> of N"
# (claims.facets.number_slots.of_slot), so another number is a conflict (not unsupported: a bare
# number had no slot); another subject's number or a person's age stays apart
COPULA_SLOTS: list[Row] = [
    ("The population of Vossa is 3.4 million.", "The population of Vossa is 3.1 million.", {C}),
    ("Vossa's population is 3.4 million.", "The population of Vossa is 3.1 million.", {C}),
    ("The capacity of the stadium is 52,000.", "The capacity of the stadium is 50,000.", {C}),
    ("The median age in Vossa is 41.", "The median age in Vossa is 38.", {C}),
    ("The population of Vossa is 3.1 million.", "The population of Vossa is 3.1 million.", {S}),
    ("The population of Vossa is 3.4 million.", "The area of Vossa is 3.1 million hectares.", {U}),
]


@pytest.mark.parametrize("row", COPULA_SLOTS, ids=[r[0] for r in COPULA_SLOTS])
def test_copula_subject_is_the_slot(row: Row) -> None:
    check_row(row)


# a month-first date with an ordinal suffix ("June 1st, 2019"): the "1s" of it was read as a name
# that no reference states (claims.facets.entities), and "st" as a content word
ORDINAL_DATES: list[Row] = [
    ("The store opened on June 1st, 2019.", "The store opened on 1 June 2019.", {S}),
    ("The accord was signed on March 14th, 2023.", "The accord was signed on 14 March 2023.", {S}),
    ("The store opened on March 23rd, 2019.", "The store opened on 22 March 2019.", {C}),
]


@pytest.mark.parametrize("row", ORDINAL_DATES, ids=[r[0] for r in ORDINAL_DATES])
def test_ordinal_dates(row: Row) -> None:
    check_row(row)


# a count of people against a count of "people" (claims/data/person_nouns.txt), nanometres and
# micrograms (claims.facets.vocabulary.UNITS), and verbs of one predicate group
# (claims/data/predicate_synonyms.txt): each was unsupported ("no reference claim states
# '12,000'", "'3'", "another action: 'appointed', not 'became'")
COUNTS_UNITS_AND_PREDICATES: list[Row] = [
    ("The company has 12,000 employees.", "The company employs 12,000 people.", {S}),
    ("The company has 12,000 employees.", "The company employs 15,000 people.", {C}),
    ("The chip uses a 3-nanometre process.", "The chip uses a 3 nm process.", {S}),
    ("The chip uses a 5-nanometre process.", "The chip uses a 3 nm process.", {C}),
    ("The tablet contains 50 mg of the drug.", "The tablet contains 50 µg of the drug.", {C}),
    ("Marie Holm became a judge in 1985.", "Marie Holm was appointed a judge in 1983.", {C}),
    ("Apple introduced the iPhone in 2007.", "Apple launched the iPhone in 2007.", {S}),
    (
        "The Orvik Shipyard sued the welder Jana Pruss.",
        "The Orvik Shipyard hired the welder Jana Pruss.",
        {U, C},
    ),
]


@pytest.mark.parametrize("row", COUNTS_UNITS_AND_PREDICATES, ids=[r[0] for r in COUNTS_UNITS_AND_PREDICATES])
def test_counts_units_and_predicates(row: Row) -> None:
    check_row(row)


# German: number words (claims/data/number_words_de.tsv), counted capitalised nouns, and a
# decimal comma before a unit (each was supported or unsupported: "vier" / "drei" were no values,
# "4 Etagen" had no slot, "2,1 Kilometer" was read as 2 and 1 km)
GERMAN_VALUES: list[Row] = [
    ("Das Museum hat vier Etagen.", "Das Museum hat drei Etagen.", {C}),
    ("Das Museum hat 4 Etagen.", "Das Museum hat 3 Etagen.", {C}),
    ("Das Museum hat drei Etagen.", "Das Museum hat drei Etagen.", {S}),
    ("Die Brücke ist 2,1 Kilometer lang.", "Die Brücke ist 1,2 Kilometer lang.", {C}),
    ("Die Brücke ist 1,2 Kilometer lang.", "Die Brücke ist 1200 Meter lang.", {S}),
]


@pytest.mark.parametrize("row", GERMAN_VALUES, ids=[r[0] for r in GERMAN_VALUES])
def test_german_values(row: Row) -> None:
    check_row(row)


# shares in words against rounded percentages, approximations, and durations told in two units
# (claims.facets.rounding.rounds_to, claims.facets.quantities._joined_durations): "two thirds" /
# "67%" and "2.5 hours" / "2 hours 30 minutes" were contradicted, "approximately 1,200" unsupported
SHARES_AND_DURATIONS: list[Row] = [
    ("Two thirds of the members voted yes.", "67% of the members voted yes.", {S}),
    ("Nearly a third of the members voted yes.", "32% of the members voted yes.", {S}),
    ("One third of the members voted yes.", "60% of the members voted yes.", {C}),
    ("The flight takes 2.5 hours.", "The flight takes 2 hours 30 minutes.", {S}),
    ("The flight takes 3.5 hours.", "The flight takes 2 hours 30 minutes.", {C}),
    ("The river is approximately 1,200 km long.", "The river is 1,187 km long.", {S}),
]


@pytest.mark.parametrize("row", SHARES_AND_DURATIONS, ids=[r[0] for r in SHARES_AND_DURATIONS])
def test_shares_and_durations(row: Row) -> None:
    check_row(row)


# bounds against bounds (none supported or unsupported): two bounds of the
# same slot from opposite sides with no value in common conflict (claims.facets.opposite_bounds),
# also on a bare number ("over 18"), and the claim's bound words ("exceeds") are the compared
# relation, no predicate the reference lacks; a tighter bound from the same side states a looser
# one ("more than 600" states "over 500"), never the other way; bounds that overlap do not conflict
BOUNDS: list[Row] = [
    # bounds of a bare number name groups, and both may hold ("Tickets are sold
    # to fans over 18" / "... under 18" is no contradiction): not stated
    ("The film is rated for viewers over 18.", "The film is rated for viewers under 18.", {U}),
    ("Tickets are sold to fans over 18.", "Tickets are sold to fans under 18.", {U}),
    ("The film is rated for viewers over 18.", "The film is rated for viewers over 18.", {S}),
    (
        "The engine temperature exceeds 80 degrees Celsius.",
        "The engine temperature is below 80 degrees Celsius.",
        {C},
    ),
    (
        "The engine temperature exceeds 80 degrees Celsius.",
        "The engine temperature is above 90 degrees Celsius.",
        {S},
    ),
    ("The tank holds more than 12 litres.", "The tank holds up to 10 litres.", {C}),
    ("The tank holds more than 8 litres.", "The tank holds up to 10 litres.", {U}),
    ("The company has fewer than 50 employees.", "The company has more than 200 employees.", {C}),
    ("Over 500 people attended the event.", "More than 600 people attended the event.", {S, INF}),
    ("Over 700 people attended the event.", "More than 600 people attended the event.", {U}),
    ("Under 40 people attended the meeting.", "Fewer than 30 people attended the meeting.", {S, INF}),
    ("Under 30 people attended the meeting.", "Fewer than 40 people attended the meeting.", {U}),
    # a bound of another scope or subject is not stated, never a conflict (neither
    # is contradicted); bounds from opposite sides that share a value state nothing of each
    # other ("at least 18" / "at most 18" is no comparative flip)
    (
        "The company employs over 10,000 people.",
        "The company employs fewer than 5,000 people in Europe.",
        {U},
    ),
    (
        "The speed limit is under 30 mph in school zones.",
        "Drivers going over 30 mph in school zones are fined.",
        {U},
    ),
    ("At least 18 members voted.", "At most 18 members voted.", {U}),
    # the claim's scope narrower than the reference's (not contradicted)
    ("The company employs under 500 people in Europe.", "The company employs over 500 people.", {U}),
    # "no fewer than" is "at least" (not "fewer than", an upper bound)
    ("Fifteen people were killed.", "No fewer than 20 people were killed.", {C}),
    ("Twenty-five people were killed.", "No fewer than 20 people were killed.", {U}),
]


@pytest.mark.parametrize("row", BOUNDS, ids=[r[0] for r in BOUNDS])
def test_bounds_against_bounds(row: Row) -> None:
    check_row(row)


def test_opposite_bounds_share_no_value() -> None:
    from claims.facets import Quantity, opposite_bounds

    def q(text: str) -> Quantity:
        return extract(text).quantities[0]

    assert opposite_bounds(q("It holds over 18 litres."), q("It holds under 18 litres."))
    assert opposite_bounds(q("It holds at least 10 litres."), q("It holds fewer than 10 litres."))
    # both admit 18 / 15
    assert not opposite_bounds(q("It holds at least 18 litres."), q("It holds at most 18 litres."))
    assert not opposite_bounds(q("It holds over 10 litres."), q("It holds under 20 litres."))
    # other slots never conflict
    assert not opposite_bounds(q("It weighs over 18 kg."), q("It holds under 18 litres."))
