"""Facet extraction and slot comparison (claims.facets)."""

from __future__ import annotations

import pytest

from claims.facets import content_tokens, extract, is_weak_entity, quantity_matches, slots_compatible


def _q(text: str) -> list[tuple[float, str]]:
    return [(round(q.value, 6), q.slot) for q in extract(text).quantities]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # spelled-out numbers (number-parser): "three" = 3, counted noun "floor"
        ("The Brisk Museum has three floors.", [(3.0, "n:floor")]),
        # magnitudes: 1.2 billion = 1,200 million = 1.2e9 cubic metres (base unit of volume)
        ("It holds 1.2 billion cubic metres.", [(1.2e9, "volume")]),
        ("It holds 1,200 million cubic metres.", [(1.2e9, "volume")]),
        # percent as a fraction: 1.8 % = 0.018, 18 % = 0.18, half = 0.5
        ("The fee was 1.8%.", [(0.018, "percent")]),
        ("The fee was 18 per cent.", [(0.18, "percent")]),
        ("Half of it was bonds.", [(0.5, "percent")]),
        # units converted to the family's base unit: 324 feet = 98.7552 m
        ("It is 324 feet tall.", [(98.7552, "length")]),
        ("It is 324 metres tall.", [(324.0, "length")]),
        # times of day in minutes after midnight: 8 pm = 20:00 = 1200, 10 a.m. = 600
        ("It closes at 8 pm.", [(1200.0, "time")]),
        ("It closes at 20:00.", [(1200.0, "time")]),
        ("It opens at 10 a.m. daily.", [(600.0, "time")]),
        # ages: "23-year-old" and "21 years old" share the slot "age"
        ("The 23-year-old cellist won.", [(23.0, "age")]),
        ("She was 21 years old.", [(21.0, "age")]),
        # years; codes and model names are not quantities (OB-17, Kite 14)
        ("OB-17 was approved in 2019.", [(2019.0, "year")]),
        ("The Kite 14 weighs 1.2 kg.", [(1.2, "mass")]),
        # currency symbol with magnitude
        ("It cost $5 million.", [(5e6, "currency_usd")]),
        # "one of" is not a count
        ("She is one of the judges.", []),
    ],
)
def test_quantities(text: str, expected: list[tuple[float, str]]) -> None:
    assert _q(text) == expected


@pytest.mark.parametrize(
    ("text", "ymd"),
    [
        ("signed on 14 July 1867", (1867, 7, 14)),
        ("signed on July 14, 1867", (1867, 7, 14)),
        ("signed on 4th of July 1867", (1867, 7, 4)),
        ("signed in July 1867", (1867, 7, None)),
        ("signed on 1867-07-14", (1867, 7, 14)),  # ISO, via dateparser
        ("signed on 14/07/1867", (1867, 7, 14)),  # day first, via dateparser
    ],
)
def test_dates(text: str, ymd: tuple[int, int, int | None]) -> None:
    (d,) = extract(text).dates
    assert (d.year, d.month, d.day) == ymd


def test_may_the_month_is_not_a_hedge() -> None:
    assert extract("It opened in May 2004.").hedges == []
    assert [h[0] for h in extract("It may open in 2004.").hedges] == ["may"]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("The trial planned to enrol 112 patients.", "planned"),
        ("He reportedly resigned.", "reportedly"),
        ("The drug might reduce pain.", "may"),
        ("About 40 people came.", "about"),
        ("It was tested in one city.", "limited"),
    ],
)
def test_hedges(text: str, label: str) -> None:
    assert label in {h[0] for h in extract(text).hedges}


def test_plan_as_noun_is_not_a_hedge() -> None:
    assert extract("The Basic plan costs 20 dollars per month.").hedges == []


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("The museum does not open on Mondays.", True),
        ("The museum doesn't open on Mondays.", True),
        ("It was never completed.", True),
        ("It opens on Mondays.", False),
        ("It is not only a museum but a park.", False),
    ],
)
def test_negation(text: str, negated: bool) -> None:
    assert extract(text).negated is negated


def test_entities_and_weak_entities() -> None:
    f = extract("In 2004, the cellist Ines Marlow won the Varga Prize in Vienna.")
    assert [e[0] for e in f.entities] == ["Ines Marlow", "Varga Prize", "Vienna"]
    g = extract("Half of its assets were bonds.")
    assert all(is_weak_entity(g.text, e) for e in g.entities)
    assert [e[0] for e in extract("Orrin's compound OB-17 works.").entities] == ["Orrin", "OB-17"]


def test_slot_comparison() -> None:
    feet, metres = extract("324 feet tall").quantities[0], extract("324 metres tall").quantities[0]
    assert slots_compatible(feet, metres) and not quantity_matches(feet, metres)
    a, b = extract("112 patients").quantities[0], extract("112 patient").quantities[0]
    assert quantity_matches(a, b)
    # a number without slot matches an equal value in any (non-year) slot: "23" vs "23-year-old"
    bare, age = extract("She was 23 at the time.").quantities[0], extract("the 23-year-old").quantities[0]
    assert quantity_matches(bare, age)
    # different counted nouns never conflict
    p, h = extract("80 patients").quantities[0], extract("80 hospitals").quantities[0]
    assert not slots_compatible(p, h)


def test_content_tokens_drop_numbers_and_units() -> None:
    assert content_tokens("The bridge is 410 metres long.") == ["bridge", "long"]


def test_year_after_a_name_is_a_year_and_centuries_are_ranges() -> None:
    # WiCE failure kind: "Gigantour 2006" was read as a model name ("Kite 14") and the year lost
    assert _q("Gigantour 2006 was announced.") == [(2006.0, "year")]
    # "16th century" = 1501-1600, "late 1500s" = 1500-1599 (both year ranges, never points);
    # a range with definite ends, not an approximation: two that share no year conflict
    (c,) = extract("It reached Spain in the 16th century.").quantities
    assert (c.lo, c.hi, c.loose) == (1501.0, 1600.0, False)
    # loose after a bound, approximation or part word, or hyphenated before a noun; a period
    # that is the subject of a verb is its time
    loose = {
        t: [q.loose for q in extract(t).quantities]
        for t in (
            "It was built before the 19th century.",
            "It was founded around the 10th century.",
            "It spread during the late 1500s.",
            "A 19th-century author wrote it.",
            "The 1960s saw a decline.",
            "The 19th century brought railways.",
            "In the 1990s and 2000s it grew.",
        )
    }
    assert [v for vs in loose.values() for v in vs] == [True, True, True, True, False, False, False, False], (
        loose
    )
    (d,) = extract("It spread during the late 1500s.").quantities
    assert (d.lo, d.hi) == (1500.0, 1599.0)
    # an entity never starts with a number: "A 2013 Oxford University study"
    assert [e[0] for e in extract("A 2013 Oxford University study found it.").entities] == [
        "Oxford University"
    ]
