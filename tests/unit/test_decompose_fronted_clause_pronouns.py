"""A subject pronoun after a fronted adverbial clause with a subject of its own
(``claims.decompose.rewrite._fronted_rival``), as a table of texts written for this test.

The pronoun may stand for the clause's subject or for the text's earlier subject ("The Brenna
mill was built in 1820. Even though Kelmar Lake is deep, it freezes in winter."); resolving it
to the earlier one invented "The Brenna mill freezes in winter", a claim the text does not make
(FActScore's atomic claims must be faithful to the text: Min et al. 2023). Such a pronoun is left
as written and the claim marked ambiguous, unless the earlier subject is the clause's subject.
Where the clause's subject cannot be what the pronoun names (a place or an event for "he", a
name of the other sex, a subject that holds a pronoun of its own), the earlier subject is the
antecedent as before.
"""

from __future__ import annotations

import pytest

from claims.decompose import decompose

ROWS = [
    # (text, the second sentence's first claim, whether it is ambiguous)
    (
        "The Brenna mill was built in 1820. Even though Kelmar Lake is deep, it freezes in winter.",
        "Even though Kelmar Lake is deep, it freezes in winter.",
        True,
    ),
    (
        "The Brenna mill was built in 1820. When Kelmar Lake freezes, it becomes a road.",
        "When Kelmar Lake freezes, it becomes a road.",
        True,
    ),
    (
        "Tom Hale retired in 2005. Because Olaf Lund was younger, he became CEO.",
        "Because Olaf Lund was younger, he became CEO.",
        True,
    ),
    (
        "The Brenna mill was built in 1820. Because the river flooded, it closed in 1850.",
        "Because the river flooded, it closed in 1850.",
        True,
    ),
    # no rival: an event, a place, a name of the other sex, a subject with a pronoun of its own
    (
        "Tom Hale was born in Oslo. When the war ended, he returned to Paris.",
        "When the war ended, Tom Hale returned to Paris.",
        False,
    ),
    (
        "Tom Hale was born in Oslo. When Paris fell, he returned to Oslo.",
        "When Paris fell, Tom Hale returned to Oslo.",
        False,
    ),
    (
        "Anna Hale retired in 2005. Because Peter Lund was younger, she became CEO.",
        "Because Peter Lund was younger, Anna Hale became CEO.",
        False,
    ),
    (
        "Tom Hale was born in Oslo. After his father died, he took over the farm.",
        "After his father died, Tom Hale took over the farm.",
        False,
    ),
    # no earlier subject, or the same one: the clause's subject (the one that fits)
    (
        "Kelby is a town. Although Kelby is small, it has a museum.",
        "Although Kelby is small, Kelby has a museum.",
        False,
    ),
    # no fronted clause: the earlier subject, as before
    ("The Brenna mill was built in 1820. It closed in 1850.", "The Brenna mill closed in 1850.", False),
]


@pytest.mark.parametrize(("text", "claim", "ambiguous"), ROWS, ids=[r[1] for r in ROWS])
def test_a_pronoun_after_a_fronted_clause(text: str, claim: str, ambiguous: bool) -> None:
    after = text.index(".") + 1
    claims = [c for c in decompose(text) if c.start > after]
    assert (claims[0].text, claims[0].ambiguous) == (claim, ambiguous)
    if ambiguous:  # nothing is said of the earlier subject that its sentence does not say
        assert not [c.text for c in claims if c.text.startswith(("The Brenna mill", "Tom Hale"))]


@pytest.mark.parametrize(
    "text",
    [
        # with no earlier subject the clause's subject is no sure antecedent either: the
        # clause's object, the weather or an event may be meant (a newcomer review's rows)
        "Even though Kelmar Lake is deep, it freezes in winter.",
        "Although the government banned the book, it became a bestseller.",
        "When the teacher praised the essay, it won a prize.",
        "While the crowd cheered, it started snowing.",
        # kinds of the WiCE dev references, written anew: an "it" of a copula may stand for the
        # event ("it was like ..."); "the Orsa console" is no "he", whatever spaCy calls it
        "Because Stu Varg is so revered, it was exactly like being in a common room.",
        "Whatever the Orsa paper is paying them, it is probably not enough.",
        "When the Orsa console was released, he quickly reworked the program.",
    ],
)
def test_a_first_sentence_keeps_its_pronoun(text: str) -> None:
    first = decompose(text)[0]
    assert first.text == text and first.ambiguous


def test_the_earlier_subject_that_is_the_clause_subject_resolves() -> None:
    text = (
        "The Brenna mill was built in 1820. The Kelmar reservoir lies north. "
        "Even though the Kelmar reservoir is deep, it freezes."
    )
    assert [c.text for c in decompose(text)][-1] == (
        "Even though the Kelmar reservoir is deep, the Kelmar reservoir freezes."
    )


def test_an_it_that_stands_for_a_clause_takes_no_rival() -> None:
    # the Factcheck-GPT dev reference's kind, written anew: "it's that ..." points at its clause
    text = "If the Orsa film does have something to say, it\u2019s that it\u2019s possible to enjoy a trip."
    first = decompose(text)[0]
    assert "orsa film\u2019s that" not in first.text.lower()
