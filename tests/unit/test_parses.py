"""``claims.parses``: sentences are parsed without spaCy's entity recogniser, which runs on a
parse only when one of its entity types is read; the decomposition's results do not change."""

from __future__ import annotations

from claims import parses
from claims.decompose import decompose, decompose_many

SENTENCES = [
    "Marta Olsen founded the Lund Institute in Oslo in 1990.",
    "The Halvorsen Bridge, the longest in Norway, opened in 1992.",
    "Gove, the education secretary, visited the school.",
]


def test_entity_types_on_demand_equal_the_full_pipeline() -> None:
    nlp = parses.parser()
    for text in SENTENCES:
        full = nlp(text)
        lazy = nlp(text, disable=list(parses.DISABLE))
        assert [t.ent_type_ for t in lazy] == [""] * len(lazy)  # not run yet
        assert [parses.entity_type(t) for t in lazy] == [t.ent_type_ for t in full]
        assert [(t.tag_, t.pos_, t.dep_, t.head.i) for t in lazy] == [
            (t.tag_, t.pos_, t.dep_, t.head.i) for t in full
        ]


def test_it_skips_a_person_and_he_takes_one() -> None:
    # "it" never points at a person (spaCy's PERSON, asked for only when "it" looks back)
    person = decompose("Marta Olsen founded the lab in 1990. It employs 40 people.")
    assert person[1].text == "It employs 40 people." and person[1].ambiguous
    thing = decompose("The Halvorsen Bridge opened in 1992. It carries six lanes.")
    assert thing[1].text == "The Halvorsen Bridge carries six lanes." and not thing[1].ambiguous
    back = decompose("The lab opened in 1990. Marta Olsen runs the lab. It employs 40 people.")
    assert back[2].text == "The lab employs 40 people."  # the last subject that is no person


def test_the_decomposition_seeds_the_parse_cache() -> None:
    text = "The Lund Institute employs 40 researchers in Oslo."
    parses._cache.pop(text, None)
    decompose_many([text + " It was founded in 1990."])
    doc = parses._get(text)
    assert doc is not None and doc.text == text
    assert parses.parse(text) is doc  # not parsed again
