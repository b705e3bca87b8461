"""Corrected answers (claims.correct): the edit script applied to the response text, the rest kept."""

from __future__ import annotations

from claims.correct import correct_response
from claims.types import Claim, EditOp, Evidence, Judgement, ReferenceClaim, Verdict

RESPONSE = (
    "The Halvorsen Bridge opened on 12 May 1989. It is 1,420 metres long and carries six lanes of traffic."
)


def span_of(part: str) -> tuple[int, int]:
    at = RESPONSE.index(part)
    return at, at + len(part)


# spans as the offline decomposer gives them for examples/02_wrong_date.json
CLAIMS = [
    Claim(
        "The Halvorsen Bridge opened on 12 May 1989.", *span_of("The Halvorsen Bridge opened on 12 May 1989.")
    ),
    Claim("The Halvorsen Bridge is 1,420 metres long.", *span_of("It is 1,420 metres long"), position=1),
    Claim(
        "The Halvorsen Bridge carries six lanes of traffic.",
        *span_of("carries six lanes of traffic"),
        position=2,
    ),
]
REFS = [
    ReferenceClaim(0, Claim("The Halvorsen Bridge opened to traffic on 12 May 1998.", 0, 54)),
    ReferenceClaim(
        0, Claim("The suspension bridge carries four lanes of the E39 motorway.", 55, 120, position=1)
    ),
]


def _j(i: int, verdict: Verdict, change: str | None = None, ref: int | None = None) -> Judgement:
    evidence = () if ref is None else (Evidence(0, ref, 0, 1, REFS[ref].claim.text, 0.9),)
    return Judgement(i, verdict, evidence, reason="r", change=change)


def test_the_demo_wrong_date_gets_the_reference_date() -> None:
    # examples/02_wrong_date.json as the engine judges it: change "12 May 1989 → 12 May 1998"
    js = [
        _j(0, Verdict.CONTRADICTED, "12 May 1989 → 12 May 1998", 0),
        _j(1, Verdict.SUPPORTED),
        _j(2, Verdict.SUPPORTED),
    ]
    fixed = correct_response(RESPONSE, CLAIMS, REFS, js)
    assert fixed.text == RESPONSE.replace("1989", "1998")
    assert [(e.op, e.before, e.after) for e in fixed.edits] == [("replace", "12 May 1989", "12 May 1998")]


def test_unsupported_clause_is_removed_with_its_connector() -> None:
    js = [_j(0, Verdict.SUPPORTED), _j(1, Verdict.SUPPORTED), _j(2, Verdict.UNSUPPORTED)]
    fixed = correct_response(RESPONSE, CLAIMS, REFS, js)
    assert fixed.text == "The Halvorsen Bridge opened on 12 May 1989. It is 1,420 metres long."


def test_value_not_in_span_takes_the_paired_reference_claim() -> None:
    js = [_j(0, Verdict.SUPPORTED), _j(1, Verdict.SUPPORTED), _j(2, Verdict.CONTRADICTED, "6 → 4", 1)]
    script = [EditOp("substitute", 2, 1, "contradicted: 6 → 4")]
    fixed = correct_response(RESPONSE, CLAIMS, REFS, js, script)
    # '6' is not written as a digit in the span, so the span becomes the reference claim's text
    assert fixed.text.endswith("and The suspension bridge carries four lanes of the E39 motorway.")


def test_dropped_hedge_is_restored_with_its_modal() -> None:
    text = "The company will file for approval in Europe next year."
    claim = Claim(text, 0, len(text))
    js = [Judgement(0, Verdict.QUALIFICATION_DROPPED, change="file → may file")]
    assert (
        correct_response(text, [claim], [], js).text
        == "The company may file for approval in Europe next year."
    )


def test_a_deletion_sharing_words_with_an_accepted_claim_is_skipped() -> None:
    text = "Ada Lind won the prize and the medal."
    claims = [Claim("Ada Lind won the prize.", 0, len(text)), Claim("Ada Lind won the medal.", 0, len(text))]
    js = [Judgement(0, Verdict.SUPPORTED), Judgement(1, Verdict.UNSUPPORTED)]
    fixed = correct_response(text, claims, [], js)
    assert fixed.text == text and [e.op for e in fixed.edits] == ["skipped"] and not fixed.changed


def test_nothing_to_correct_keeps_the_text_and_missing_claims_can_be_inserted() -> None:
    js = [_j(0, Verdict.SUPPORTED), _j(1, Verdict.SUPPORTED), _j(2, Verdict.SUPPORTED)]
    assert correct_response(RESPONSE, CLAIMS, REFS, js).text == RESPONSE
    script = [EditOp("insert", None, 1, "reference 0 claim not covered")]
    fixed = correct_response(RESPONSE, CLAIMS, REFS, js, script, insert_missing=True)
    assert fixed.text == RESPONSE + " The suspension bridge carries four lanes of the E39 motorway."
