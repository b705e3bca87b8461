"""Faithful rewriting: a self-contained claim adds only what the answer itself or the question states.

The sweep decomposes every response of the shared cases (``shared/cases/*.jsonl``), the
examples (with their questions) and both dev sets (Factcheck-GPT and WiCE claims, all of them)
and fails when a claim names a capitalised word that neither the response nor the question
contains (FActScore's atomic facts, Min et al. 2023, are rewritten from the text alone). The
kind tests below hold the rules the sweep cannot see: a definite description whose referent is
uncertain keeps its own noun phrase, and a conflict's reason names only words of the two
compared claims.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from claims.decompose import decompose, decompose_many

#: The shared material beside the repository (``$CLAIMAUDIT_SHARED`` overrides it).
SHARED = Path(os.environ.get("CLAIMAUDIT_SHARED") or Path(__file__).resolve().parents[3] / "shared")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
_WORD = re.compile(r"\w+")
_CAPITALISED = re.compile(r"\b[A-Z]\w*")


def _sources() -> list[tuple[str, str]]:
    """(response, question) of every shared case, example and dev-set response."""
    out: list[tuple[str, str]] = []
    for path in sorted((SHARED / "cases").glob("*.jsonl")):
        out += [(json.loads(line)["response"], "") for line in path.read_text().splitlines() if line.strip()]
    for path in sorted(EXAMPLES.glob("*.json")):
        doc = json.loads(path.read_text())
        out.append((doc["response"], doc.get("question") or ""))
    for path in (SHARED / "data/factcheck_gpt/stance_dev.jsonl", SHARED / "data/wice/claims_dev.jsonl"):
        out += [(json.loads(line)["claim"], "") for line in path.read_text().splitlines() if line.strip()]
    return list(dict.fromkeys(out))


def invented(claim: str, response: str, question: str) -> list[str]:
    """Capitalised words of ``claim`` that neither ``response`` nor ``question`` contains (any case)."""
    known = {w.lower() for w in _WORD.findall(f"{response} {question}")}
    return [w for w in _CAPITALISED.findall(claim) if w.lower() not in known]


def test_invented_finds_a_name_from_elsewhere() -> None:
    assert invented("The Orla Health trial will file.", "The company will file.", "") == ["Orla", "Health"]
    assert invented("Tesla makes cars.", "Tesla was founded. The company makes cars.", "") == []


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "data").is_dir(), reason="needs the shared cases and dev sets")
def test_no_rewritten_claim_names_what_the_response_and_question_do_not() -> None:
    sources = _sources()
    assert len(sources) > 700  # 772 distinct responses: 76 cases, 4 examples, the dev claims
    found = decompose_many([r for r, _ in sources])
    bad = [
        (claim.text, words)
        for (response, question), claims in zip(sources, found, strict=True)
        for claim in claims
        if (words := invented(claim.text, response, question))
    ]
    assert bad == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # "the company" cannot be the trial, the study or the drug named before it
        (
            "The Orla Health trial enrolled 640 adults. The company will file for approval next year.",
            "The company will file for approval next year.",
        ),
        ("The Brisk study ran for two years. The company paid for it.", "The company paid for it."),
    ],
)
def test_an_uncertain_definite_description_keeps_its_noun_phrase(text: str, kept: str) -> None:
    assert kept in [c.text for c in decompose(text)]


def test_a_proper_name_is_still_the_company() -> None:
    claims = [c.text for c in decompose("Tesla was founded in 2003. The company makes cars.")]
    assert claims == ["Tesla was founded in 2003.", "Tesla makes cars."]


@pytest.mark.parametrize(
    ("reference", "response", "reason_starts"),
    [
        # the word after the number is a verb (German nouns are capitalised), or a word cut at
        # a non-ASCII letter ("eröffnet" read as "er"): no counted noun, the slot is the year
        ("Das Museum wurde 1912 eröffnet.", "Das Museum wurde 1921 eröffnet.", "year 1921 ≠ 1912"),
        ("Der Turm wurde 1912 gebaut.", "Der Turm wurde 1921 gebaut.", "year 1921 ≠ 1912"),
    ],
)
def test_a_reason_names_only_what_the_compared_claims_say(
    reference: str, response: str, reason_starts: str
) -> None:
    from claims.audit import audit_texts

    class FlatEmbedder:  # one reference claim: the cosine does not choose it
        dim = 4
        model_name = "flat"

        def embed(self, texts: Sequence[str]) -> np.ndarray:
            return np.ones((len(texts), 4), dtype=np.float32) / 2

    report = audit_texts(response, [reference], embedder=FlatEmbedder())
    reason = report.judgements[0].reason
    assert reason.startswith(reason_starts), reason
