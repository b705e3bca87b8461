"""Model selection for the learned decision (tools/select_verdict.py) and what it replays:
``claims.decision.decided_verdict`` (the verdict rule of ``decide``), the model file of a decision
fitted without some features (``train_verdict.export``), and the contrast constraint.

Expected values are worked out by hand from the docstrings of ``claims.decision`` (module
docstring: rule conflicts and standing findings stand; a rule support is overturned below
``support_threshold - rule_margin`` unless verified; a rule ``unsupported`` becomes supported
at ``support_threshold + rule_margin`` when its values are found) and of ``select_verdict``.
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.decision import FEATURE_NAMES, STANDING_FINDINGS, DecisionModel, balanced_score, decided_verdict
from claims.types import Verdict
from tests.tool_modules import load_tool

pytest.importorskip("sklearn")

tv = load_tool("train_verdict")
sv = load_tool("select_verdict")
S, U, C = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.CONTRADICTED


@pytest.mark.parametrize(
    ("rule", "finding", "s", "margin", "found", "verified", "want"),
    [
        (C, None, 0.99, 0.0, True, False, C),  # a rule conflict stands whatever the score
        (U, "rival", 0.99, 0.0, True, False, U),  # a standing finding stands
        (U, None, 0.55, 0.0, True, False, S),  # score over 0.5 + 0: turned into support
        (U, None, 0.55, 0.1, True, False, U),  # ... but not over 0.5 + 0.1
        (U, None, 0.9, 0.0, False, False, U),  # a value found nowhere: never turned into support
        (S, None, 0.45, 0.1, True, False, S),  # a rule support holds down to 0.5 - 0.1
        (S, None, 0.35, 0.1, True, False, U),  # ... and falls below it
        (S, None, 0.1, 0.0, True, True, S),  # unless verified
        (Verdict.INFERRED, None, 0.7, 0.0, True, False, Verdict.INFERRED),  # keeps its own name
    ],
)
def test_decided_verdict(rule, finding, s, margin, found, verified, want) -> None:  # noqa: ANN001
    got = decided_verdict(rule, finding, s, 0.5, margin, values_found=found, verified=verified)
    assert got is want


def test_a_finding_left_out_of_standing_is_decided_by_the_score() -> None:
    standing = STANDING_FINDINGS - {"rival"}
    got = decided_verdict(U, "rival", 0.8, 0.5, 0.0, values_found=True, verified=False, standing=standing)
    assert got is S


def test_export_without_features_reads_and_ignores_them() -> None:
    # fitted on the columns but cos2 and ambiguous: those get mean 0, scale 1, weight 0, and the
    # model file scores a row the same whatever they hold
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, len(FEATURE_NAMES)))
    y = (x[:, 0] > 0).astype(np.int64)
    drop = ("cos2", "ambiguous")
    keep = tv.kept_columns(drop)
    fitted = tv.fit(x[:, keep], y, [str(i) for i in range(60)], ["d"] * 60, 0, c=0.1)
    doc = tv.export(fitted, {"contradicted": 0.9}, 60, drop) | {"rule_margin": 0.0}
    model = DecisionModel.from_dict(doc)
    assert model.coef[FEATURE_NAMES.index("cos2")] == 0 and model.scale[FEATURE_NAMES.index("ambiguous")] == 1
    other = x.copy()
    other[:, [FEATURE_NAMES.index(n) for n in drop]] = 99.0
    assert balanced_score(x, model) == pytest.approx(balanced_score(other, model))
    assert balanced_score(x, model) == pytest.approx(fitted.scores(x[:, keep])[0])
    with pytest.raises(ValueError, match="unknown"):
        tv.kept_columns(("no such feature",))


def _fig(fc: float, wice: float, neg: int) -> dict:
    return {"factcheck": fc, "wice": wice,
            "contrast": {"negation": {"family": "contrast", "supported": neg},
                         "synonym": {"family": "invariance", "supported": 50}}}  # fmt: skip


def test_admissible_needs_no_more_supported_edits_and_no_lower_dev_figure() -> None:
    base = _fig(0.70, 0.72, 10)
    assert sv.admissible(_fig(0.71, 0.72, 10), base)
    assert not sv.admissible(_fig(0.75, 0.75, 11), base)  # one more negation passes as supported
    assert not sv.admissible(_fig(0.69, 0.75, 5), base)  # Factcheck-GPT lower
    # invariance kinds are not constrained
    more_kept = {"synonym": {"family": "invariance", "supported": 99}}
    assert sv.admissible(_fig(0.70, 0.72, 10) | {"contrast": base["contrast"] | more_kept}, base)


def test_choose_prefers_the_simpler_of_tied_candidates() -> None:
    base = _fig(0.70, 0.70, 10)
    entry = lambda drop, c, fc, neg: {"drop": drop, "C": c, "margin": 0.0, "figures": _fig(fc, 0.72, neg)}  # noqa: E731
    table = [
        entry([], 0.05, 0.730, 10),
        entry(["ambiguous"], 0.05, 0.729, 10),  # within TIE of the best, fewer features: chosen
        entry(["ambiguous", "cos2"], 0.01, 0.740, 12),  # best figures, but more negations pass
    ]
    assert sv.choose(table, base)["drop"] == ["ambiguous"]
    assert sv.choose([entry([], 0.05, 0.69, 10)], base) is None
