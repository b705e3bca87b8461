"""Guards of the learned decision (``claims.decision.decide``): rule findings that stand against
the model, and model support that needs the named subject's value and no rival name.

The rows use ``cosine_model`` (tests/unit/verdict_rows.py), a hand-made model whose score is a
function of the cosine only (P(support) = sigmoid(10 * (cos1 - 0.7))), so that the guard under
test is the only thing that can change the verdict.
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.decision import decide
from claims.decision_guards import ordinals_stated
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from claims.verdict import judge
from tests.unit.verdict_rows import S, U, cosine_model, decide_claim, judge_claim


def test_verified_rule_support_stands() -> None:
    # every value stated as a facet and every word in one reference claim: the rule support stands
    # at a cosine (0.6) where the model alone says no (sigmoid(-1) < 0.5)
    refs = ["The city has 2,148,271 inhabitants."]
    assert decide_claim("The city has about 2.1 million inhabitants.", refs, 0.6, S) is S
    # a word the reference lacks: the model decides
    assert decide_claim("The coastal city has about 2.1 million inhabitants.", refs, 0.6, S) is U


def test_model_support_needs_the_value_of_the_named_subject() -> None:
    refs = ["The Sandvik Bridge has six lanes.", "The Halvorsen Bridge opened in 1981."]
    assert decide_claim("The Halvorsen Bridge has six lanes.", refs, 0.9, U) is U
    assert decide_claim("The Sandvik Bridge has six lanes.", refs, 0.9, U) is S


def test_object_swap_stands_against_the_model() -> None:
    # the rule's object finding stands like a conflict (claims.decision.STANDING_FINDINGS): at
    # cosine 0.9 the cosine-only model says support (sigmoid(2) > 0.5), the verdict stays
    response, refs = (
        "The Orre Bridge carries a railway line.",
        ["The Orre Bridge carries two lanes of road traffic."],
    )
    rcs = [ReferenceClaim(0, Claim(refs[0], 0, len(refs[0])))]
    sim = np.full((1, 1), 0.9, dtype=np.float32)
    rules = judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=refs)
    assert rules[0].finding == "object"
    out = decide([Claim(response, 0, len(response))], rcs, sim, rules, model=cosine_model())
    assert out[0].verdict is U and out[0].confidence is not None
    # without the finding the same unsupported verdict is overturned by the model
    plain = [Judgement(0, U)]
    assert decide([Claim(response, 0, len(response))], rcs, sim, plain, model=cosine_model())[0].verdict is S


def test_degree_gap_stands_against_the_model() -> None:
    # like the object finding: at cosine 0.9 the cosine-only model says support, the gap stands
    response, ref = "The drug is the most effective treatment.", "The drug is an effective treatment."
    rcs = [ReferenceClaim(0, Claim(ref, 0, len(ref)))]
    sim = np.full((1, 1), 0.9, dtype=np.float32)
    rules = judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=[ref])
    assert rules[0].finding == "degree" and "most effective" in rules[0].reason
    out = decide([Claim(response, 0, len(response))], rcs, sim, rules, model=cosine_model())
    assert out[0].verdict is U


# distractors: a reference claim that states the claim of a rival name ("Senator Ortiz
# introduced the bill") vetoes an inference that another claim completes with the claim's name
# (a rival value of the slot: contradicted, claims.verdict.value_slots), which stands against the
# learned decision; a code name's rival ("OB-17" for "OB-71") with the claim's value blocks the
# model's support (claims.decision_guards._rival_name). Each was inferred or supported.
def test_rival_statement_is_no_inference_and_stands() -> None:
    refs = ["Senator Ortiz introduced the bill.", "Senator Hale co-sponsored the bill."]
    rcs = [ReferenceClaim(0, Claim(t, 0, len(t), position=i)) for i, t in enumerate(refs)]
    sim = np.array([[0.85, 0.75]], dtype=np.float32)
    claim = Claim("Senator Hale introduced the bill.", 0, 33)
    ruled = judge([claim], rcs, sim, reference_texts=refs)
    # the slot of "introduced" holds Ortiz in the evidence: a rival value of the claim's name
    # (claims.verdict.value_slots), named in the reason, not an inference from the two claims
    assert ruled[0].verdict is Verdict.CONTRADICTED, ruled[0].reason
    assert "Hale ≠ Ortiz" in ruled[0].reason
    decided = decide([claim], rcs, sim, ruled, model=cosine_model())
    assert decided[0].verdict is Verdict.CONTRADICTED  # the model alone says support at 0.85
    # the same statement of the claim's own name is support
    assert judge_claim("Senator Ortiz introduced the bill.", refs)[0] is S


def test_model_support_needs_no_rival_code_name() -> None:
    refs = [
        "The phase 2 study of OB-17 enrolled 76 patients.",
        "OB-71 was withdrawn in 2019 after a study in 80 patients.",
    ]
    assert decide_claim("The OB-71 trial enrolled 76 patients.", refs, 0.9, U) is U
    assert decide_claim("The OB-17 study enrolled 76 patients.", refs, 0.9, U) is S


def test_model_support_needs_the_ordinal_word_stated() -> None:
    """An ordinal in words ordering a noun must be stated near the claim (words or digits): the
    model reads "eighth" as one content word, so "its eighth consecutive trophy" against "its
    seventh consecutive trophy" is near support (cosine 0.9 -> P(support) 0.88 under
    ``cosine_model``) that ``ordinals_stated`` refuses. Sentences written for this test."""
    refs = ["The Riverside Academy won its seventh consecutive Presidents' Trophy in 2016."]
    claim = "The Riverside Academy won its {} consecutive Presidents' Trophy."
    assert decide_claim(claim.format("eighth"), refs, 0.9, U) is U
    assert decide_claim(claim.format("seventh"), refs, 0.9, U) is S
    digits = [refs[0].replace("seventh", "7th")]
    assert decide_claim(claim.format("seventh"), digits, 0.9, U) is S


@pytest.mark.parametrize(
    ("claim", "near", "want"),
    [
        ("It won its eighth title.", ["It won its seventh title in 2016."], False),
        ("It won its seventh title.", ["It won its 7th title in 2016."], True),
        ("It won its seventh title.", ["It won the title seven times."], False),
        # an adverb of its verb orders no noun; a capitalised ordinal is a word of a name
        ("Arsenal first reached the top flight in 1904.", ["Arsenal reached the top flight in 1904."], True),
        ("Arsenal reached the First Division in 1904.", ["Arsenal reached the top flight in 1904."], True),
        # a part of a hyphenated word is no rank
        ("He retired from first-class cricket in 2018.", ["He retired from all cricket in 2018."], True),
        # no ordinal word: nothing to state
        ("It won its 8th title.", ["It won its seventh title."], True),
    ],
)
def test_ordinals_stated(claim: str, near: list[str], want: bool) -> None:
    assert ordinals_stated(claim, near) is want
