"""The learned decision (claims.decision, claims.decision_features): features, calibrated
probability, and the decision rules.

Expected values come from the definitions in claims/decision.py and claims/decision_features.py
(feature columns, Platt formula, threshold rule) applied by hand to small inputs, or from the
shipped model file's own fields.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from claims.decision import (
    MODEL_PATH,
    DecisionModel,
    decide,
    load_model,
    support_probability,
)
from claims.decision_features import FEATURE_NAMES, feature_matrix
from claims.types import Claim, ClaimKind, Evidence, Judgement, ReferenceClaim, Verdict


def _model(threshold: float = 0.5, coef_cos: float = 10.0) -> DecisionModel:
    """A hand-made model: P(support) = sigmoid(coef_cos * (cos1 - 0.7)) (calib_a = -1, calib_b = 0)."""
    d = len(FEATURE_NAMES)
    coef = np.zeros(d)
    coef[FEATURE_NAMES.index("cos1")] = coef_cos
    return DecisionModel(
        version="test",
        feature_names=FEATURE_NAMES,
        mean=np.zeros(d),
        scale=np.ones(d),
        coef=coef,
        intercept=-0.7 * coef_cos,
        calib_a=-1.0,
        calib_b=0.0,
        support_threshold=threshold,
        rule_margin=0.0,
        rule_precision={"contradicted": 0.9, "qualification_dropped": 0.8},
    )


def _refs(*texts: str) -> list[ReferenceClaim]:
    return [ReferenceClaim(0, Claim(t, 0, len(t), position=i)) for i, t in enumerate(texts)]


def test_platt_formula() -> None:
    # sigmoid(10 * (0.9 - 0.7)) = sigmoid(2) = 0.8808 (by hand)
    x = np.zeros((1, len(FEATURE_NAMES)))
    x[0, FEATURE_NAMES.index("cos1")] = 0.9
    assert support_probability(x, _model())[0] == pytest.approx(1 / (1 + math.exp(-2.0)))


def test_features_coverage_numbers_and_rule() -> None:
    resp = [Claim("The Halvorsen Bridge opened in 1998.", 0, 36)]
    refs = _refs("The Halvorsen Bridge opened to traffic in 1998.", "It is 1,420 metres long.")
    j = [Judgement(0, Verdict.SUPPORTED)]
    x = feature_matrix(resp, refs, np.array([[0.9, 0.2]], np.float32), j)
    f = dict(zip(FEATURE_NAMES, x[0], strict=True))
    assert f["cos1"] == pytest.approx(0.9) and f["cos2"] == pytest.approx(0.2)
    assert f["cov_best"] == 1.0  # halvorsen, bridge, open all in the best reference claim
    assert f["value_cov"] == 1.0 and f["value_cov_any"] == 1.0 and f["has_value"] == 1.0
    assert f["rule_supported"] == 1.0 and f["rule_unsupported"] == 0.0
    x2 = feature_matrix([Claim("The Halvorsen Bridge opened in 2001.", 0, 36)], refs,
                        np.array([[0.9, 0.2]], np.float32), j)  # fmt: skip
    assert dict(zip(FEATURE_NAMES, x2[0], strict=True))["value_cov"] == 0.0  # 2001 is in no reference claim


@pytest.mark.parametrize(
    ("rule", "cos", "verdict", "confidence"),
    [
        # p = sigmoid(10 * (cos - 0.7)); threshold 0.5
        (Verdict.UNSUPPORTED, 0.9, Verdict.SUPPORTED, 1 / (1 + math.exp(-2.0))),
        (Verdict.SUPPORTED, 0.5, Verdict.UNSUPPORTED, 1 - 1 / (1 + math.exp(2.0))),
        (Verdict.INFERRED, 0.9, Verdict.INFERRED, 1 / (1 + math.exp(-2.0))),
        (Verdict.UNSUPPORTED, 0.5, Verdict.UNSUPPORTED, 1 - 1 / (1 + math.exp(2.0))),
        # exact rules stay rules, with the rule's measured precision as confidence
        (Verdict.CONTRADICTED, 0.99, Verdict.CONTRADICTED, 0.9),
        (Verdict.QUALIFICATION_DROPPED, 0.99, Verdict.QUALIFICATION_DROPPED, 0.8),
    ],
)
def test_decision_table(rule: Verdict, cos: float, verdict: Verdict, confidence: float) -> None:
    resp = [Claim("The museum opens at nine.", 0, 25)]
    out = decide(resp, _refs("The museum opens at 9 am."), np.array([[cos]], np.float32),
                 [Judgement(0, rule, reason="rule reason")], model=_model())  # fmt: skip
    assert out[0].verdict is verdict
    assert out[0].confidence == pytest.approx(confidence, abs=1e-4)
    if verdict is Verdict.SUPPORTED:
        assert out[0].evidence and out[0].evidence[0].claim_index == 0  # a locator is always given
    if rule is Verdict.SUPPORTED and verdict is Verdict.UNSUPPORTED:
        assert "P(support)" in out[0].reason


def test_outside_scope_is_untouched_and_order_kept() -> None:
    resp = [
        Claim("Hi there!", 0, 9, kind=ClaimKind.OUTSIDE_SCOPE),
        Claim("The museum opens at nine.", 10, 35),
    ]
    js = [Judgement(0, Verdict.OUTSIDE_SCOPE), Judgement(1, Verdict.UNSUPPORTED)]
    out = decide(
        resp, _refs("The museum opens at 9 am."), np.array([[0.1], [0.95]], np.float32), js, model=_model()
    )
    assert [j.response_index for j in out] == [0, 1]
    assert out[0] == js[0] and out[0].confidence is None
    assert out[1].verdict is Verdict.SUPPORTED


def test_no_reference_claims_or_model_changes_nothing() -> None:
    js = [Judgement(0, Verdict.UNSUPPORTED)]
    assert decide([Claim("A claim.", 0, 8)], [], np.zeros((1, 0), np.float32), js, model=_model()) == js


def test_evidence_of_rule_is_kept() -> None:
    ev = Evidence(0, 0, 0, 5, "x", 0.8)
    out = decide([Claim("The museum opens at nine.", 0, 25)], _refs("The museum opens at 9 am."),
                 np.array([[0.95]], np.float32), [Judgement(0, Verdict.SUPPORTED, evidence=(ev,))],
                 model=_model())  # fmt: skip
    assert out[0].evidence == (ev,)


def test_shipped_model_loads_and_is_sane() -> None:
    model = load_model()
    assert model is not None, "claims/data/verdict_model.json must ship with the package"
    assert model.feature_names == FEATURE_NAMES
    assert 0.0 < model.support_threshold < 1.0
    # more cosine and more coverage never lower the probability of support (monotone in the signals
    # the method is built on): compare a weak and a strong row, all else equal
    weak, strong = np.zeros((1, len(FEATURE_NAMES))), np.zeros((1, len(FEATURE_NAMES)))
    for name, lo, hi in (
        ("cos1", 0.4, 0.95),
        ("cov_best", 0.2, 1.0),
        ("cov_doc", 0.3, 1.0),
        ("cos_x_cov", 0.08, 0.95),
    ):
        weak[0, FEATURE_NAMES.index(name)] = lo
        strong[0, FEATURE_NAMES.index(name)] = hi
    assert support_probability(strong, model)[0] > support_probability(weak, model)[0]


def test_dropped_features_carry_no_weight() -> None:
    """The shipped file leaves out the columns its training dropped (tools/train_verdict.py
    ``DROPPED_FEATURES``, chosen by tools/select_verdict.py): weight 0, mean 0, scale 1, so the
    value of such a column cannot move a verdict."""
    raw = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    dropped = raw["dropped_features"]
    assert dropped, "the shipped decision leaves out the negation, length and reference-count columns"
    for name in dropped:
        i = FEATURE_NAMES.index(name)
        assert (raw["coef"][i], raw["mean"][i], raw["scale"][i]) == (0.0, 0.0, 1.0), name
    model = load_model()
    assert model is not None
    row = np.zeros((1, len(FEATURE_NAMES)))
    moved = row.copy()
    moved[0, [FEATURE_NAMES.index(n) for n in dropped]] = 5.0
    assert support_probability(moved, model)[0] == support_probability(row, model)[0]


def test_model_with_other_features_is_refused() -> None:
    m = _model()
    d = {"version": "x", "feature_names": ["cos1"], "mean": [0], "scale": [1], "coef": [1], "intercept": 0,
         "calib_a": -1, "calib_b": 0, "support_threshold": 0.5, "rule_precision": {}}  # fmt: skip
    with pytest.raises(ValueError, match="differ"):
        DecisionModel.from_dict(d)
    assert replace(m, version="y").version == "y"


def test_reason_names_the_missing_word_as_written() -> None:
    # content_tokens stems "Mondays" to "monday"; the reason quotes the word of the claim
    claim, refs = Claim("The museum opens on Mondays.", 0, 28), _refs("The museum opens at 9 am.")
    out = decide(
        [claim], refs, np.array([[0.5]], np.float32), [Judgement(0, Verdict.SUPPORTED)], model=_model()
    )
    assert out[0].verdict is Verdict.UNSUPPORTED
    assert out[0].reason.startswith("'Mondays' is not in the evidence")


def test_a_currency_code_is_no_name() -> None:
    # name_cov counts capitalised names found in the references; "EUR" is a unit (claims.facets.UNITS)
    x = feature_matrix([Claim("The ticket costs 45 EUR.", 0, 24)], _refs("The ticket costs €45."),
                       np.array([[0.8]], np.float32), [Judgement(0, Verdict.SUPPORTED)])  # fmt: skip
    assert dict(zip(FEATURE_NAMES, x[0], strict=True))["name_cov"] == 1.0  # no names at all


@pytest.mark.parametrize(
    ("response", "promoted"),
    [
        # 2001 is written nowhere in the references: the decision may not call it support
        ("The Halvorsen Bridge opened in 2001.", False),
        # a sentence-level claim of another language (no parser) with a wrong year in it
        ("El puente Halvorsen abrió en 1981.", False),
        # the year is in the references: the decision may promote it
        ("The Halvorsen Bridge opened in 1998.", True),
    ],
)
def test_an_unstated_value_is_never_turned_into_support(response: str, promoted: bool) -> None:
    # the hand-made model (cosine only) would promote every one of them at cosine 0.95
    refs = _refs("The Halvorsen Bridge opened in 1998.", "El puente Halvorsen abrió en 1998.")
    out = decide([Claim(response, 0, len(response))], refs, np.array([[0.95, 0.9]], np.float32),
                 [Judgement(0, Verdict.UNSUPPORTED, reason="rule reason")], model=_model())  # fmt: skip
    assert (out[0].verdict is Verdict.SUPPORTED) is promoted
