"""``claims.parses``: sentences are parsed without spaCy's entity recogniser, which runs on a
parse only when one of its entity types is read; the decomposition's results do not change."""

from __future__ import annotations

from claims import decompose as dec
from claims import parses
from claims.decompose import decompose, decompose_many

SENTENCES = [
    "Marta Olsen founded the Lund Institute in Oslo in 1990.",
    "The Halvorsen Bridge, the longest in Norway, opened in 1992.",
    "Gove, the education secretary, visited the school on 3 May.",
    "Apple and Microsoft reported $12 billion in revenue in the United States.",
]


def _fresh(text: str) -> None:
    dec._CACHE.pop(text, None)
    parses.clear()


def test_entity_types_on_demand_equal_the_full_pipeline() -> None:
    nlp = parses.parser()
    full = list(nlp.pipe(SENTENCES))
    # the decomposition's path: nlp.pipe without the recogniser, cached (tensor dropped)
    lazy = list(nlp.pipe(SENTENCES, disable=list(parses.DISABLE)))
    for text, doc in zip(SENTENCES, lazy, strict=True):
        parses.remember(text, doc)
    for f, z in zip(full, lazy, strict=True):
        assert [t.ent_type_ for t in z] == [""] * len(z)  # not run yet
        assert [(t.tag_, t.pos_, t.dep_, t.head.i) for t in z] == [
            (t.tag_, t.pos_, t.dep_, t.head.i) for t in f
        ]
        assert [parses.entity_type(t) for t in z] == [t.ent_type_ for t in f]
        assert any(t.ent_type_ for t in f)  # every sentence has an entity: the check can fail


def test_the_recogniser_runs_only_where_an_entity_type_is_read() -> None:
    # "It" looks back past a person: the recogniser runs on the sentences it looks at
    text = "The lab opened in 1990. Marta Olsen runs the lab. It employs 40 people."
    _fresh(text)
    claims = decompose_many([text])[0]
    assert [c.text for c in claims][2] == "The lab employs 40 people."  # the last subject that is no person
    assert parses._get("Marta Olsen runs the lab.").user_data.get(parses._NER_DONE)
    # no pronoun, no apposition: no sentence needs an entity type
    plain = "The lab opened in 1990. The lab employs 40 people."
    _fresh(plain)
    decompose_many([plain])
    for sentence in ("The lab opened in 1990.", "The lab employs 40 people."):
        doc = parses._get(sentence)
        assert doc is not None and not doc.user_data.get(parses._NER_DONE)


def test_it_skips_a_person() -> None:
    person = decompose("Marta Olsen founded the lab in 1990. It employs 40 people.")
    assert person[1].text == "It employs 40 people." and person[1].ambiguous
    thing = decompose("The Halvorsen Bridge opened in 1992. It carries six lanes.")
    assert thing[1].text == "The Halvorsen Bridge carries six lanes." and not thing[1].ambiguous


def test_the_decomposition_seeds_the_parse_cache() -> None:
    sentence = "The Lund Institute employs 40 researchers in Oslo."
    text = sentence + " It was founded in 1990."
    _fresh(text)
    decompose_many([text])
    doc = parses._get(sentence)
    assert doc is not None and doc.text == sentence
    assert parses.parse(sentence) is doc  # not parsed again
