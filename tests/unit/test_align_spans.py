"""``claims.align_spans``: claims (verbatim or paraphrased) mapped back to source spans."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claims.align_spans import align_span, align_spans

SRC = (
    "In 2004, the 23-year-old cellist Ines Marlow won the Varga Prize in Vienna. "
    "She was chosen by a jury chaired by the composer Teodor Halm. "
    "The prize launched her career as a soloist."
)


@pytest.mark.parametrize(
    ("claim", "method", "span_text"),
    [
        # verbatim (case and final period ignored): the exact occurrence
        ("ines marlow won the Varga Prize in Vienna.", "exact", "Ines Marlow won the Varga Prize in Vienna"),
        # paraphrase: first to last content word of the claim found in the best sentence
        (
            "Ines Marlow won the Varga Prize in 2004",
            "partial",
            "2004, the 23-year-old cellist Ines Marlow won the Varga Prize",
        ),
        ("Teodor Halm chaired the jury.", "partial", "jury chaired by the composer Teodor Halm"),
        ("Teodor Halm is a composer.", "partial", "composer Teodor Halm"),
        # nothing shared: the most similar whole sentence
        ("Bananas are yellow.", "sentence", None),
    ],
)  # fmt: skip
def test_align_span_cases(claim: str, method: str, span_text: str | None) -> None:
    a = align_span(SRC, claim)
    assert a.method == method
    assert 0 <= a.start <= a.end <= len(SRC)
    if span_text is not None:
        assert SRC[a.start : a.end] == span_text
    else:
        assert SRC[a.start : a.end] in {s.strip() for s in SRC.split(". ")} | {SRC[a.start : a.end]}


def test_blank_inputs_give_empty_span() -> None:
    assert align_span("", "x").method == "empty"
    assert (align_span(SRC, "   ").start, align_span(SRC, "   ").end) == (0, 0)


def test_hint_prefers_the_later_occurrence() -> None:
    src = "It rained. Then it rained."
    first, second = align_spans(src, ["it rained", "it rained"])
    assert (first.start, second.start) == (0, 16)  # "it rained" at 0 and at 16 (after "Then ")


@given(st.text(max_size=200), st.text(max_size=60))
def test_span_always_inside_the_source(source: str, claim: str) -> None:
    a = align_span(source, claim)
    assert 0 <= a.start <= a.end <= len(source)
    assert 0.0 <= a.score <= 100.0
