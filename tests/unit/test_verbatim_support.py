"""A claim that a reference claim states word for word is ``supported`` whatever the facet checks
read into it: an audit of a text against itself is all supported. Before, hyphenated model names
("all-MiniLM-L6-v2" read as "MiniLM-L6-v2" against itself), a contrast in one sentence ("often,
not seldom"), and a sentence naming two opposite states ("pending" and "finished") came out
``contradicted`` against their own copy. A changed word is still compared as before."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.types import Verdict

SELF = [
    "The default model, all-MiniLM-L6-v2, is calibrated.",
    "The tool was used often, not seldom.",
    "An audit stays pending until its last stage has finished, and a finished audit is never pending again.",
    "The GPT-4o-mini and text-embedding-3-small models are the defaults of the LLM route.",
    "The bridge is open to cyclists but closed to cars, not the other way round.",
]


@pytest.mark.parametrize("text", SELF)
def test_a_text_against_itself_is_all_supported(text: str) -> None:
    rep = audit_texts(text, [text])
    verdicts = [(j.verdict, j.reason) for j in rep.judgements]
    assert all(v in (Verdict.SUPPORTED, Verdict.INFERRED) for v, _ in verdicts), verdicts
    assert rep.result.scores.claim_precision == 1.0


def test_case_and_white_space_do_not_matter_but_a_changed_word_does() -> None:
    reference = "The default model, all-MiniLM-L6-v2, is calibrated."
    same = audit_texts("the default model,  all-MiniLM-L6-v2, is calibrated", [reference])
    assert [j.finding for j in same.judgements] == ["verbatim"]
    # a year changed: no word-for-word statement, the value check decides (examples/02_wrong_date.json's kind)
    changed = audit_texts("The bridge opened in 1989.", ["The bridge opened in 1998."])
    assert [j.verdict for j in changed.judgements] == [Verdict.CONTRADICTED]
