"""In-memory audit composition (claims.audit) and the result document it emits.

Document keys follow the API contract (GET /audits/{id}, minus the DB fields) that
../shared/cases/run_cases.py reads."""

from __future__ import annotations

import math

import pytest

from claims.audit import COUNT_NAMES, audit_texts, report_to_dict, validate_inputs

SCORE_NAMES = {
    "claim_overlap",
    "claim_similarity",
    "claim_precision",
    "claim_recall",
    "claim_f1",
    "claim_edit_distance",
    "normalized_claim_edit_distance",
    "levenshtein_similarity",
    "normalized_levenshtein_distance",
}


@pytest.mark.parametrize(
    ("response", "references", "field"),
    [
        ("x", [""], "references"),  # case empty_reference_rejected: the only reference is blank
        ("x", [" ", "\n\t", ""], "references"),  # every reference blank
        ("x", [], "references"),
        ("x", "not a list", "references"),
        (None, ["ok"], "response"),
        ("x", ["ok", 3], "references[1]"),
    ],
)
def test_invalid_input_names_the_field(response: object, references: object, field: str) -> None:
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        validate_inputs(response, references)


def test_blank_reference_among_others_is_an_empty_document() -> None:
    # retrieval output may hold empty chunks; indices must stay those of the input
    refs = ["  ", "The museum opens at 9.", "", "The museum closes at 5."]
    assert validate_inputs("x", refs) == ("x", refs)
    report = audit_texts("The museum closes at 5.", refs)
    assert {rc.reference for rc in report.reference_claims} == {1, 3}  # blank ones: no claims
    [j] = report.judgements
    assert j.verdict.value == "supported" and j.evidence[0].reference == 3


def test_document_shape_and_values() -> None:
    ref = "The Alder Hotel has a pool and a gym."
    resp = "The Alder Hotel has a pool, a gym, and a rooftop bar. Is it open in winter?"
    report = audit_texts(resp, [ref])
    doc = report_to_dict(report, [ref], resp)
    assert doc["status"] == "done" and doc["error"] is None
    assert set(doc["scores"]) == SCORE_NAMES
    assert set(doc["counts"]) == set(COUNT_NAMES)
    # case list_splitting: three response claims, two supported, one unsupported; the question
    # is outside scope and counted apart
    assert doc["counts"]["response_claims"] == 3
    assert doc["counts"]["outside_scope"] == 1
    assert doc["counts"]["supported"] == 2 and doc["counts"]["unsupported"] == 1
    for c in doc["claims"]:
        text = resp if c["role"] == "response" else ref
        assert 0 <= c["start"] <= c["end"] <= len(text)
        assert (c["verdict"] is None) == (c["role"] == "reference")
        for e in c["evidence"]:
            assert 0 <= e["start"] <= e["end"] <= len(ref) and e["reference"] == 0
    for v in doc["scores"].values():
        assert v is None or not (isinstance(v, float) and math.isnan(v))
    assert report.similarity.shape == (len(report.response_claims), len(report.reference_claims))


def test_empty_response_has_null_precision() -> None:
    # case empty_response: zero claims, precision's denominator is 0 -> null
    doc = report_to_dict(audit_texts("", ["The museum opens at 9."]), ["The museum opens at 9."], "")
    assert doc["counts"]["response_claims"] == 0
    assert doc["scores"]["claim_precision"] is None


def test_text_audited_against_itself() -> None:
    # by the scores' definitions (README): a text audited against itself has precision 1, recall 1, distance 0
    text = "The Kestrel Bridge crosses the river Aln. It was completed in 1998 and is 410 metres long."
    scores = report_to_dict(audit_texts(text, [text]), [text], text)["scores"]
    assert scores["claim_precision"] == 1.0
    assert scores["claim_recall"] == 1.0
    assert scores["claim_edit_distance"] == 0
