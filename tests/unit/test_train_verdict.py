"""The pure parts of tools/train_verdict.py: labels, weights, calibration error, verdict mapping.

Expected values are worked out by hand from each function's documented definition.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.tool_modules import load_tool

pytest.importorskip("sklearn")


tv = load_tool("train_verdict")


def _item(gold: str, rules: list[dict[str, object]] | None = None) -> object:
    return tv.Item("i", "d", "g", "r", ["x"], gold, rules or [])


@pytest.mark.parametrize(
    ("gold", "n_claims", "label"),
    [("support", 3, 1), ("refute", 2, 0), ("not_supported", 1, 0), ("partial", 1, 0), ("partial", 2, None)],
)
def test_claim_label_from_audit_gold(gold: str, n_claims: int, label: int | None) -> None:
    assert tv.claim_label(_item(gold), "A claim.", n_claims) == label


def test_claim_label_from_case_rules() -> None:
    rules = [{"response_claim_contains": "bridge", "verdict": ["supported", "inferred"]},
             {"response_claim_contains": "1998", "verdict": ["contradicted"]}]  # fmt: skip
    item = _item("rules", rules)
    assert tv.claim_label(item, "The bridge is long.", 1) == 1
    assert tv.claim_label(item, "It opened in 1998.", 1) == 0
    assert tv.claim_label(item, "The bridge opened in 1998.", 1) is None  # rules disagree
    assert tv.claim_label(item, "Unrelated.", 1) is None


def test_balanced_weights_give_each_cell_half_its_data_set() -> None:
    # data set a: 3 positives, 1 negative -> weights 4/(2*3) and 4/(2*1); b: 1 and 1 -> 1 each
    w = tv.balanced_weights(["a", "a", "a", "a", "b", "b"], np.array([1, 1, 1, 0, 1, 0]))
    assert w.tolist() == pytest.approx([2 / 3, 2 / 3, 2 / 3, 2.0, 1.0, 1.0])
    assert w[:3].sum() == pytest.approx(w[3])  # positives and negatives of "a" weigh the same


def test_expected_calibration_error() -> None:
    # bin [0.9, 1.0]: confidence 0.95 twice, accuracy 0.5 -> |0.5 - 0.95| * 2/4;
    # bin [0.6, 0.7): confidence 0.65 twice, accuracy 1.0 -> |1.0 - 0.65| * 2/4
    conf = np.array([0.95, 0.95, 0.65, 0.65])
    correct = np.array([1.0, 0.0, 1.0, 1.0])
    assert tv.expected_calibration_error(conf, correct) == pytest.approx(0.45 * 0.5 + 0.35 * 0.5)
    assert tv.expected_calibration_error(np.array([0.8] * 5), np.array([1, 1, 1, 1, 0.0])) == pytest.approx(0)


def test_claim_verdicts_follow_the_decision() -> None:
    rows = [{"rule": "contradicted"}, {"rule": "supported"}, {"rule": "unsupported"}, {"rule": "supported"}]
    score = np.array([0.9, 0.45, 0.55, 0.35])
    p = np.array([0.9, 0.3, 0.4, 0.2])
    out = tv.claim_verdicts(rows, score, p, {"contradicted": 0.92}, 0.1)
    assert out[0] == ("contradicted", 0.92)  # a rule conflict stands
    assert out[1] == ("supported", 0.3)  # 0.45 >= 0.5 - 0.1: the rule support stands
    assert out[2] == ("unsupported", pytest.approx(0.6))  # 0.55 < 0.5 + 0.1: no promotion
    assert out[3] == ("unsupported", pytest.approx(0.8))  # 0.35 < 0.4: demoted


def test_a_standing_finding_stands_whichever_way_it_points() -> None:
    # claims.decision.decide keeps a standing finding's verdict: "object" on an unsupported rule
    # verdict, "counterpart" on a supported one, whatever the score says
    rows = [{"rule": "unsupported", "finding": "object"}, {"rule": "supported", "finding": "counterpart"}]
    out = tv.claim_verdicts(rows, np.array([0.9, 0.1]), np.array([0.9, 0.2]), {}, 0.0)
    assert out[0] == ("unsupported", pytest.approx(0.1))
    assert out[1] == ("supported", pytest.approx(0.2))


def test_audit_predictions_map_like_run_label_eval() -> None:
    rows = [{"item": "a"}, {"item": "a"}, {"item": "b"}, {"item": "c"}]
    verdicts = [("supported", 0.8), ("unsupported", 0.7), ("supported", 0.6), ("contradicted", 0.9)]
    preds = tv.audit_predictions(rows, verdicts)
    assert preds == {"a": ("partial", 0.7), "b": ("support", 0.6), "c": ("refute", 0.9)}


def test_repeated_cv_reports_every_fold_seed_and_their_mean() -> None:
    """40 one-claim audits, 20 a data set, whose one feature gives the label away (support at
    2.0, the rest at -2.0): every fold seed's model separates them, so each balanced accuracy
    is 1.0 (the definition of run_label_eval.py's figure: mean of the recall of support and of
    the rest)."""
    items, rows = [], []
    for d in ("factcheck", "wice"):
        for k in range(20):
            gold = "support" if k % 2 else "not_supported"
            items.append(tv.Item(f"{d}-{k}", d, f"{d}-{k}", "r", ["x"], gold))
            rows.append({"item": f"{d}-{k}", "dataset": d, "group": f"{d}-{k}", "gold": gold,
                         "rule": "unsupported", "finding": None, "x": [2.0 if k % 2 else -2.0],
                         "label": int(gold == "support")})  # fmt: skip
    got = tv.repeated_cv(items, rows, folds=5, seeds=[3, 4, 5], c=1.0, margin=0.0)
    assert got["seeds"] == [3, 4, 5]
    for d in ("factcheck", "wice"):
        assert got[d] == {"each": [1.0, 1.0, 1.0], "mean": 1.0, "min": 1.0, "max": 1.0}


def test_repeated_cv_reads_each_seed_and_averages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each fold seed's own scores: with seed 4 every claim scored the wrong way round, its
    balanced accuracy is 0.0 (no support found, no rest found), the others 1.0, so the mean is
    2/3, the min 0.0 and the max 1.0; a data set without both sides has no figure (None)."""
    items = [
        tv.Item(f"fc-{k}", "factcheck", f"fc-{k}", "r", ["x"], "support" if k % 2 else "refute")
        for k in range(4)
    ]
    items.append(tv.Item("wice-0", "wice", "wice-0", "r", ["x"], "support"))
    rows = [{"item": it.ident, "dataset": it.dataset, "rule": "unsupported", "finding": None,
             "label": int(it.gold == "support")} for it in items]  # fmt: skip
    seen: list[int] = []

    def fake_out_of_fold(rows_: object, folds: int, seed: int, c: float) -> tuple[np.ndarray, np.ndarray]:
        seen.append(seed)
        right = np.array([0.9 if r["label"] else 0.1 for r in rows], dtype=float)
        score = 1 - right if seed == 4 else right
        return score, score

    monkeypatch.setattr(tv, "out_of_fold", fake_out_of_fold)
    got = tv.repeated_cv(items, rows, folds=5, seeds=[3, 4, 5], c=1.0, margin=0.0)
    assert seen == [3, 4, 5]
    assert got["factcheck"] == {
        "each": [1.0, 0.0, 1.0],
        "mean": pytest.approx(2 / 3, abs=1e-4),
        "min": 0.0,
        "max": 1.0,
    }
    assert got["wice"] == {"each": [None, None, None], "mean": None, "min": None, "max": None}
