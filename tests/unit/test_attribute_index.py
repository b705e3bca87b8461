"""``claims.attribute_index``: the indexed stand-in for the attribute ruler's Matcher gives the
matches spaCy's ``Matcher`` gives (without it the ruler costs as much as the tagger and the parser
together on the bench workload).

The expected matches are spaCy's own: each test runs both matchers on the same parse and
compares the sorted ``(key, start, end)`` lists, which ``AttributeRuler.match`` sorts before it
applies the attributes. A one-off run over the 36,814 texts of the bench workload and the
Factcheck-GPT and WiCE dev sets (692,420 tokens) found no difference (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy
from spacy.matcher import Matcher

from claims import attribute_index, spacy_pipeline

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: sentences with the constructions the small model's longer and rarer patterns name
#: (contractions, "gonna", "y'all", existential "there", auxiliaries, determiners, spaces)
SENTENCES = [
    "Y'all ain't gonna believe what we've got to show you.",
    "There is a cat on the roof, and there're dogs in the yard.",
    "Let's go, c'mon, we gotta leave before nothin' is left.",
    "He gets the point; she got it yesterday and had done it before.",
    "Did they do it? They did, and that's what I'd have done.",
    "  Spaced   out \n\n text with\ttabs.  ",
    "Which book, this one or that one, did all the students read?",
    "The Eiffel Tower, completed in 1889, is 330 metres tall.",
    "Marie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.",
    "Isn't it odd that nobody's ever been there?",
]


def _texts() -> list[str]:
    import json

    texts = list(SENTENCES)
    for path in sorted(EXAMPLES.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        texts.append(doc["response"])
        texts.extend(r for r in doc["references"] if isinstance(r, str))
    return texts


def _sorted(matches: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    return sorted((int(k), s, e) for k, s, e in matches)


@pytest.fixture(scope="module")
def ruler_matchers() -> tuple[object, object]:
    """(spaCy's Matcher, the index) of the pipeline ``claims.spacy_pipeline`` loads."""
    nlp = spacy_pipeline.parser()
    assert nlp is not None, "spaCy's pipeline is a pinned dependency"
    ruler = nlp.get_pipe("attribute_ruler")
    index = ruler.matcher
    assert isinstance(index, attribute_index.IndexedMatcher), "spacy_pipeline.parser() installs the index"
    return index._matcher, index


def test_examples_and_constructions_match_as_spacy_does(ruler_matchers: tuple[object, object]) -> None:
    spacy_matcher, index = ruler_matchers
    nlp = spacy_pipeline.parser()
    texts = _texts()
    assert len(texts) > len(SENTENCES) + 4, "the examples folder supplies texts"
    tokens = 0
    for doc in nlp.pipe(texts, disable=["ner", "attribute_ruler"]):
        want = _sorted(spacy_matcher(doc, allow_missing=True))  # type: ignore[operator]
        assert _sorted(index(doc, allow_missing=True)) == want, doc.text  # type: ignore[operator]
        tokens += len(doc)
    assert tokens > 300


def test_longer_patterns_are_found(ruler_matchers: tuple[object, object]) -> None:
    """ "gonna" and "y'all" are two-token patterns of the small model: the index tries them where
    a token matches their first token, and they must be among its matches."""
    spacy_matcher, index = ruler_matchers
    doc = spacy_pipeline.parser().make_doc("Y'all are gonna win.")
    for name, proc in spacy_pipeline.parser().pipeline:
        if name in ("tagger", "parser", "tok2vec"):
            doc = proc(doc)
    longer = [(s, e) for _, s, e in index(doc, allow_missing=True) if e - s > 1]  # type: ignore[operator]
    assert longer, "two-token matches"
    assert _sorted(index(doc)) == _sorted(spacy_matcher(doc, allow_missing=True))  # type: ignore[operator]


def _toy_ruler(patterns: list[dict[str, object]]) -> object:
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add_patterns(patterns)  # type: ignore[attr-defined]
    return ruler


TOY_PATTERNS: list[dict[str, object]] = [
    {"patterns": [[{"LOWER": "the"}]], "attrs": {"POS": "DET"}},
    {"patterns": [[{"LOWER": {"IN": ["cat", "dog"]}}]], "attrs": {"POS": "NOUN"}},
    {"patterns": [[{"LOWER": {"NOT_IN": ["the", "cat"]}}]], "attrs": {"MORPH": "Foo=Yes"}},
    {"patterns": [[{"LOWER": {"REGEX": "^c"}}], [{"LOWER": "dog"}]], "attrs": {"LEMMA": "x"}},
    {"patterns": [[{"LOWER": "the"}, {"LOWER": "cat"}]], "attrs": {"LEMMA": "y"}, "index": 1},
    {"patterns": [[{"IS_SPACE": True}]], "attrs": {"POS": "SPACE"}},
]


def test_toy_patterns_of_every_supported_kind() -> None:
    """Equality, IN, NOT_IN, REGEX, two alternatives of one key, a two-token pattern, IS_SPACE."""
    ruler = _toy_ruler(TOY_PATTERNS)
    original = ruler.matcher  # type: ignore[attr-defined]
    assert attribute_index.install(ruler)
    doc = spacy.blank("en")("the cat  and the dog chased a car")
    got = _sorted(ruler.matcher(doc, allow_missing=True))  # type: ignore[attr-defined]
    assert got == _sorted(original(doc, allow_missing=True))
    assert len(got) > len(doc), "several keys per token, and the two-token match"


#: longer patterns at the edges: one that would run past the doc's end, one listed twice under
#: one key (one match, as the Matcher dedupes), a three-token one, and two that overlap
LONGER_PATTERNS: list[dict[str, object]] = [
    {"patterns": [[{"LOWER": "car"}, {"LOWER": "park"}]], "attrs": {"LEMMA": "a"}},
    {
        "patterns": [[{"LOWER": "the"}, {"LOWER": "dog"}], [{"LOWER": "the"}, {"LOWER": "dog"}]],
        "attrs": {"LEMMA": "b"},
    },
    {
        "patterns": [[{"LOWER": "dog"}, {"LOWER": {"IN": ["chased", "ate"]}}, {"LOWER": "a"}]],
        "attrs": {"LEMMA": "c"},
    },
    {"patterns": [[{"LOWER": {"REGEX": "^d"}}, {"LOWER": {"NOT_IN": ["x"]}}]], "attrs": {"LEMMA": "d"}},
]


@pytest.mark.parametrize(
    "text",
    [
        "the dog chased a car",  # "car park" would run past the end: no match
        "the dog chased a car park",
        "the dog the dog ate a dog",
        "dog",
        "",
    ],
)
def test_longer_patterns_at_edges_match_as_spacy_does(text: str) -> None:
    ruler = _toy_ruler(LONGER_PATTERNS)
    original = ruler.matcher  # type: ignore[attr-defined]
    assert attribute_index.install(ruler)
    doc = spacy.blank("en")(text)
    got = _sorted(ruler.matcher(doc, allow_missing=True))  # type: ignore[attr-defined]
    assert got == _sorted(original(doc, allow_missing=True))
    assert len(got) == len(set(got)), "each match once"


@pytest.mark.parametrize(
    "pattern",
    [
        [{"ORTH": "the"}],  # another attribute
        [{"LOWER": "the", "OP": "?"}],  # an operator
        [{"LOWER": {">=": 3}}],  # another predicate
    ],
)
def test_unsupported_patterns_keep_spacy_matcher(pattern: list[dict[str, object]]) -> None:
    ruler = _toy_ruler([*TOY_PATTERNS, {"patterns": [pattern], "attrs": {"POS": "X"}}])
    original = ruler.matcher  # type: ignore[attr-defined]
    assert not attribute_index.install(ruler)
    assert ruler.matcher is original and isinstance(original, Matcher)  # type: ignore[attr-defined]


def test_as_spans_is_refused(ruler_matchers: tuple[object, object]) -> None:
    _, index = ruler_matchers
    with pytest.raises(ValueError, match="tuples only"):
        index(spacy_pipeline.parser().make_doc("a"), as_spans=True)  # type: ignore[operator]
