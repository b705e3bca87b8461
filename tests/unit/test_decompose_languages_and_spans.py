"""Decomposition of any language and layout: sentence splitting (full-width marks, bullets,
abbreviations before numbers, wiki clutter), language detection, sentence-level claims without
the English parser for other languages, spans within the source, and one parser run per batch.

Expected values come from the decomposition rules (docs/DECOMPOSITION.md: "has a pool, a gym and
a rooftop bar" -> three claims; "She was 23" -> "Ines Marlow was 23") and
from the shared cases (../shared/cases/audits.jsonl, the case named in each row).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims import decompose as dec
from claims.decompose import decompose, decompose_many, pipeline, split_sentences
from claims.language import detect_language
from claims.types import ClaimKind
from tests.unit.decompose_texts import material, outside


@pytest.mark.parametrize(
    ("text", "n"),
    [
        # case chinese_sentence_marks: full-width marks end sentences
        ("这家公司成立于2001年。总部位于苏州！", 2),
        ("Das Museum ist montags geschlossen. Es öffnet um 10 Uhr.", 2),
        ("Музей закрыт по понедельникам. Он открывается в 10 часов.", 2),
        ("東京は日本の首都です。人口は約1400万人です。", 2),
        # bullets and line breaks end a claim
        ("- The hotel has a pool\n- The hotel has a gym\n", 2),
    ],
)
def test_any_language_and_layout(text: str, n: int) -> None:
    claims = decompose(text)
    assert len(claims) == n
    assert all(c.kind is ClaimKind.MATERIAL for c in claims)


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"])
def test_empty_text_gives_no_claims(text: str) -> None:
    assert decompose(text) == []


def test_spans_cover_the_source_material() -> None:
    text = "Ines Marlow won the Varga Prize in 2004. She was 23 at the time."
    claims = decompose(text)
    assert [text[c.start : c.end] for c in claims] == [
        "Ines Marlow won the Varga Prize in 2004.",
        "She was 23 at the time.",
    ]
    assert [c.position for c in claims] == [0, 1]


def test_split_sentences_strips_bullets() -> None:
    text = "* first item\n2) second item"
    assert [text[s:e] for s, e in split_sentences(text)] == ["first item", "second item"]


def test_decompose_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        decompose(None)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_spans_always_within_bounds(text: str) -> None:
    for c in decompose(text):
        assert 0 <= c.start <= c.end <= len(text)
        assert c.text.strip()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(
            [
                "The bridge is 410 m long.",
                "It opened in 1998!",
                "Why?",
                "- a, b and c",
                "他很高。",
                "\n",
                "  ",
                "Dr. Feld, an engineer, designed it, and it won.",
            ]
        ),
        max_size=8,
    )
)
def test_spans_within_bounds_for_sentence_mixtures(parts: list[str]) -> None:
    text = " ".join(parts)
    for c in decompose(text):
        assert 0 <= c.start <= c.end <= len(text)


def test_wiki_clutter_is_dropped_but_spans_stay() -> None:
    # Factcheck-GPT evidence (../shared/data/factcheck_gpt) is scraped web text with
    # section marks "[ edit ]", citation marks "[4]" and footnote carets "^"
    text = "Early life [ edit ] Douglas was born in 1898. [4] [5] ^ a b [1]"
    claims = decompose(text)
    assert [c.text for c in claims] == ["Early life.", "Douglas was born in 1898."]
    assert text[claims[1].start : claims[1].end] == "Douglas was born in 1898."


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        # an abbreviation before a number ends no sentence (WiCE "dates from c. 1491–1510" was
        # split into "... dates from c." and "1491–1510.")
        (
            "The panel dates from c. 1491–1510. It hangs in Bruges.",
            ["The panel dates from c. 1491–1510.", "It hangs in Bruges."],
        ),
        ("The painter (b. 1950) lives in Oslo.", ["The painter (b. 1950) lives in Oslo."]),
        # a sentence that ends before a number still ends
        (
            "He scored in the 12th minute. 1998 was his best year.",
            ["He scored in the 12th minute.", "1998 was his best year."],
        ),
    ],
)
def test_abbreviations_before_numbers(text: str, sentences: list[str]) -> None:
    assert [text[s:e] for s, e in split_sentences(text)] == sentences


# languages other than English


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Die Brücke über den Rhein ist 300 Meter lang.", "de"),
        ("El museo abre todos los días a las diez.", "es"),
        ("Le musée ferme le lundi et le mardi.", "fr"),
        ("博物馆每天上午十点开门。", "zh"),
        ("博物館は毎朝十時に開館します。", "ja"),
        ("The museum opens at ten every day.", "en"),
        ("OB-17 weighs 40 kg.", "en"),  # too short to tell: English
    ],
)
def test_language_detection(text: str, lang: str) -> None:
    assert detect_language(text) == lang


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Die Brücke ist 300 Meter lang. Sie wurde 1998 eröffnet.",
            ["Die Brücke ist 300 Meter lang.", "Sie wurde 1998 eröffnet."],
        ),
        ("El puente mide 610 metros. Abrió en 1979.", ["El puente mide 610 metros.", "Abrió en 1979."]),
        (
            "Le musée ouvre à 9 heures. Il ferme le lundi.",
            ["Le musée ouvre à 9 heures.", "Il ferme le lundi."],
        ),
        ("大桥长1420米。它于1998年开通。", ["大桥长1420米。", "它于1998年开通。"]),
        (
            "橋の長さは610メートルです。1979年に開通した。",
            ["橋の長さは610メートルです。", "1979年に開通した。"],
        ),
    ],
)
def test_other_languages_get_sentence_level_claims_without_the_english_parser(
    text: str, expected: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the English parser never runs on other languages
    def no_parser() -> Any:
        raise AssertionError("the English parser ran on non-English text")

    monkeypatch.setattr(pipeline, "parser", no_parser)
    dec.CACHE.clear()
    claims = decompose(text)
    assert [c.text for c in claims] == expected
    assert all(c.kind is ClaimKind.MATERIAL for c in claims)
    assert all(text[c.start : c.end] == c.text for c in claims)


def test_greetings_in_other_languages_are_outside_scope() -> None:
    assert material("Hallo! Die Mole ist 300 Meter lang.") == ["Die Mole ist 300 Meter lang."]
    assert outside("Hallo! Die Mole ist 300 Meter lang.") == ["Hallo!"]


# batching: one parser run for many texts


def test_decompose_many_runs_the_parser_once_and_equals_decompose(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["The hall seats 400 people. It opened in 1990.", "Der Saal hat 400 Plätze.", "Hi!", ""]
    expected = [decompose(t) for t in texts]
    dec.CACHE.clear()
    nlp = dec.parser()
    calls: list[int] = []

    class Spy:
        def pipe(self, sentences: list[str], **kw: Any) -> Any:
            calls.append(len(sentences))
            return nlp.pipe(sentences, **kw)

    monkeypatch.setattr(pipeline, "parser", lambda: Spy())
    assert decompose_many(texts) == expected
    assert calls == [3]  # the two English sentences and "Hi!", in one pipe
