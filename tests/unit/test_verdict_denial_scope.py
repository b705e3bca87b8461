"""A denial states a denial only of the same things (``denials.denial_stated``).

The rule: a negated claim is supported only by a reference claim with a denying clause that
states ``COVERAGE_POLARITY`` (0.75) of the words the claim is about (its nouns, names and
adjectives) in the clause of the claim that holds its negation cue; a denial of something else
(another subject, another object, another property) states nothing of it. A negation word
glued to an address ("tessel.no/guide") is no denial at all. Rows are rule-level
(``verdict_rows.HIGH`` cosine), of varied wording, none taken from the dev sets.
"""

from __future__ import annotations

import pytest

from claims.facets.polarity import negation_of
from tests.unit.verdict_rows import INF, Row, S, U, check_row

#: a denial of something else: another property, another part, another subject, another time
#: (a denial of another thing with the same words, "has no café" for "does not sail", is
#: another predicate: not this check's)
OTHER_DENIAL: list[Row] = [
    (
        "Chlorine atoms in salt crystals do not carry a negative charge.",
        "There is no overall charge on a salt crystal.",
        {U},
    ),
    (
        "The Lindqvist ferry does not stop at Moss harbour.",
        "No bus stops at Moss harbour.",
        {U},
    ),
    (  # the subjectless denying clause is the nearer subject's, not the first clause's
        "The Brom bridge does not carry trains.",
        "The Brom bridge carries cars, and the Kell tunnel is older; it does not carry trains.",
        {U},
    ),
    (
        "The Orland library does not lend rare maps to students.",
        "The Orland library never closes on weekends for students.",
        {U},
    ),
    (
        "Marta Kovac did not design the Havel Tower in Brno.",
        "Marta Kovac was not paid for the Havel Tower in Brno until 2004.",
        {U},
    ),
]

#: a denial of the same things, in the same or other words, also with an insertion in brackets
#: or dashes, or with a pronoun for the subject in a later clause of the reference claim
SAME_DENIAL: list[Row] = [
    (
        "Kelmar Lake does not freeze in winter.",
        "Kelmar Lake (a deep glacial basin in northern Tavria) does not freeze in winter.",
        {S},
    ),
    (
        "The Quillon engine does not use diesel fuel.",
        "The Quillon engine — a Lyon design from 1988 — does not use diesel fuel.",
        {S},
    ),
    (
        "The Grovia app does not collect location data.",
        "The Grovia app was released in 2018; it does not collect location data.",
        {S},
    ),
    (  # the denial is the insertion itself, about the words before it
        "The Ferran vaccine is not approved for children.",
        "The Ferran vaccine (not approved for children) is widely used in adults.",
        {S},
    ),
    ("The Lindqvist ferry does not sail on Sundays.", "The Lindqvist ferry does not sail on Sundays.", {S}),
    (
        "Silver does not dissolve in sulfuric acid (SA).",
        "Silver does not dissolve in sulfuric acid.",
        {S},
    ),
    (
        "The Orland library never lends rare maps.",
        "Rare maps are never lent by the Orland library, which keeps them in its vault.",
        {S, INF},
    ),
]


@pytest.mark.parametrize("row", OTHER_DENIAL, ids=lambda r: r[0][:40])
def test_a_denial_of_something_else_does_not_state_a_denial(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize("row", SAME_DENIAL, ids=lambda r: r[0][:40])
def test_a_denial_of_the_same_things_states_it(row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("The user guide is at https://docs.tessel.no/guide.", False),
        ("The Norwegian article is on no.wikipedia.org today.", False),
        ("Write to info@no-reply.example for help.", False),
        ("Decree no. 5 was signed in 1921.", False),
        ("Item No. 7 was sold at auction.", False),
        ("The answer was no.", True),
        ("There is no ferry on Sundays.", True),
    ],
)
def test_a_negation_word_inside_an_address_or_a_number_sign_is_no_denial(text: str, negated: bool) -> None:
    assert negation_of(text)[0] is negated
