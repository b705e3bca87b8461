"""A value stated in a reference sentence whose subject is a pronoun ("He was released in
April 2010.") after a sentence that names the claim's subject, and a claim whose value sits in
a second predicate of its subject ("X was jailed ... and released in July 2010"): the slot is
read (``claims.verdict.value_slots.antecedents``, ``exact.value_clause``). Sentences written for
these tests; each expected value is the one the reference states in the claim's slot."""

from __future__ import annotations

import pytest

from claims.types import Claim, ReferenceClaim
from claims.verdict.value_slots.antecedents import antecedent_words, pronoun_subject
from tests.unit.verdict_rows import slot_pair

_BEFORE = "In 2007, Oskar Lindqvist was arrested in Malmö for tax fraud."


@pytest.mark.parametrize(
    ("claim", "evidence", "want"),
    [
        # the value in the claim's second predicate, the statement's subject a pronoun
        (
            "Oskar Lindqvist was later convicted of tax fraud and released in July 2011.",
            (_BEFORE, "He served three years and was released in March 2011."),
            ("July 2011", "March 2011"),
        ),
        (
            "Oskar Lindqvist was released in 2013.",
            (_BEFORE, "He was released in 2011 after an appeal."),
            ("2013", "2011"),
        ),
        # an organisation: "it"
        (
            "The Varden Press moved to Bergen in 1994.",
            ("The Varden Press was founded by two teachers in Oslo.", "It moved to Bergen in 1991."),
            ("1994", "1991"),
        ),
    ],
)
def test_a_pronoun_statement_of_the_slot_conflicts(
    claim: str, evidence: tuple[str, ...], want: tuple[str, str]
) -> None:
    assert slot_pair(claim, *evidence) == want


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the same value, in other words
        (
            "Oskar Lindqvist was later convicted of tax fraud and released in March 2011.",
            (_BEFORE, "He served three years and was released in March 2011."),
        ),
        # the pronoun follows another person's sentences only
        (
            "Oskar Lindqvist was released in 2013.",
            (
                "Karin Holm was arrested in Malmö in 2007.",
                "Her lawyer filed an appeal.",
                "She was released in 2011.",
            ),
        ),
        # the claim's subject named only further back than the look-back
        (
            "Oskar Lindqvist was released in 2013.",
            (
                _BEFORE,
                "The case drew wide attention.",
                "The court sat for nine weeks.",
                "The judges were divided.",
                "He was released in 2011.",
            ),
        ),
        # the pronoun follows another subject in the reference before
        (
            "Oskar Lindqvist was released in 2013.",
            ((0, "Karin Holm was arrested in Malmö in 2007."), (1, "She was released in 2011.")),
        ),
        # several values of the slot
        (
            "Oskar Lindqvist was released in 2013.",
            (_BEFORE, "He was released in 2009 and again in 2011."),
        ),
        # a range holding the claim's year
        (
            "The Varden Press moved to Bergen in 1993.",
            (
                "The Varden Press was founded by two teachers in Oslo.",
                "It moved to Bergen between 1991 and 1995.",
            ),
        ),
        # another predicate of the same subject
        (
            "Oskar Lindqvist was later convicted of tax fraud and released in July 2011.",
            (_BEFORE, "He was convicted in March 2009."),
        ),
    ],
)
def test_noslot_pair(claim: str, evidence: tuple[str | tuple[int, str], ...]) -> None:
    assert slot_pair(claim, *evidence) is None


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the nearest subject is another woman
        (
            "Anna Berg retired in 2004.",
            ("Anna Berg was born in 1950.", "Karin Lund was born in 1955.", "She retired in 1999."),
        ),
        # across references, one sentence each
        (
            "Anna Berg moved to Rome in 1985.",
            (
                (0, "Anna Berg is a Norwegian painter who studied in Oslo."),
                (1, "Karin Lund is a Swedish singer."),
                (2, "She moved to Rome in 1990."),
            ),
        ),
        # the nearest subject is a woman, the pronoun "he": its referent is not read
        ("Mary Jones died in 2010.", ("Mary Jones married Tom Hill in 1980.", "He died in 1995.")),
        # the nearest subject is another man
        (
            "Peter Brown was appointed chairman in 2003.",
            (
                "Peter Brown founded the firm in 1990.",
                "John Smith joined the firm in 1995.",
                "He was appointed chairman in 2001.",
            ),
        ),
        # "it": the nearest subject is another thing
        (
            "The Halden Museum opened in 1990.",
            (
                "The Halden Museum is in the old town hall.",
                "The town hall was built in 1870.",
                "It opened in 1872.",
            ),
        ),
        (
            "Oskar Lindqvist was released in 2013.",
            (_BEFORE, "Karin Holm was arrested in Malmö in 2007.", "She was released in 2011."),
        ),
        # "they" never stands for one person of a known sex: here it is the band
        (
            "Anna Berg released an album in 1993.",
            ("Anna Berg founded the band Ulv in 1990.", "They released an album in 1995."),
        ),
        # "it" never stands for a person
        ("Oskar Lindqvist was released in 2013.", (_BEFORE, "It was released in 2011.")),
    ],
)
def test_a_pronoun_stands_for_the_nearest_agreeing_subject_only(
    claim: str, evidence: tuple[str | tuple[int, str], ...]
) -> None:
    """Invented pairs in which the pronoun's referent is not the claim's subject: no conflict
    (before the nearest-subject rule each was read as a statement of the claim's slot)."""
    assert slot_pair(claim, *evidence) is None


def test_pronoun_subject_and_antecedents() -> None:
    """The main verb's subject, active or passive; the look-back crosses references (a page
    given as its sentences, one reference each)."""
    assert pronoun_subject("He was released in 2011.")
    assert pronoun_subject("In 1991 it moved to Bergen.")
    assert not pronoun_subject("His lawyer was released in 2011.")
    texts = (_BEFORE, "He was released in 2011.")
    refs = [ReferenceClaim(i, Claim(t, 0, len(t))) for i, t in enumerate(texts)]
    assert antecedent_words(refs) == {1: frozenset({"oskar", "lindqvist"})}
