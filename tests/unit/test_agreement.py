"""Agreement figures (claims.agreement) against scikit-learn's, and claim types / audit labels."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score as sk_balanced
from sklearn.metrics import cohen_kappa_score as sk_kappa
from sklearn.metrics import confusion_matrix as sk_confusion

from claims.agreement import (
    agreement,
    audit_label,
    balanced_accuracy_score,
    claim_type,
    cohen_kappa_score,
    confusion_matrix,
    pair_spans,
)

CASES = [
    # (gold, predicted): expected figures come from sklearn.metrics on the same lists
    (["a", "a", "b", "b", "c"], ["a", "b", "b", "b", "a"]),
    (["s", "s", "s", "u", "c", "c", "q"], ["s", "s", "u", "u", "c", "s", "q"]),
    (["x"] * 5 + ["y"] * 5, ["x"] * 4 + ["y"] * 6),
    (["x", "y", "x", "y"], ["y", "x", "y", "x"]),  # total disagreement: kappa -1
]


@pytest.mark.parametrize(("gold", "predicted"), CASES)
def test_figures_equal_sklearn(gold: list[str], predicted: list[str]) -> None:
    classes = sorted(set(gold) | set(predicted))
    c = confusion_matrix(gold, predicted, classes)
    assert c.tolist() == sk_confusion(gold, predicted, labels=classes).tolist()
    assert cohen_kappa_score(c) == pytest.approx(sk_kappa(gold, predicted))
    assert balanced_accuracy_score(c) == pytest.approx(sk_balanced(gold, predicted))
    a = agreement(gold, predicted)
    assert a.n == len(gold) and a.kappa == pytest.approx(sk_kappa(gold, predicted))
    assert a.accuracy == pytest.approx(np.mean([g == p for g, p in zip(gold, predicted, strict=True)]))


def test_undefined_figures_are_none_not_nan() -> None:
    assert cohen_kappa_score(np.zeros((3, 3))) is None  # no items
    assert cohen_kappa_score(np.array([[4, 0], [0, 0]])) is None  # one class for everything: p_e = 1
    assert balanced_accuracy_score(np.zeros((2, 2))) is None
    a = agreement([], [], ["a", "b"])
    assert (a.n, a.accuracy, a.kappa, a.balanced_accuracy) == (0, None, None, None)
    assert a.per_class["a"]["precision"] is None and a.per_class["a"]["recall"] is None


def test_per_class_one_vs_rest() -> None:
    a = agreement(["s", "s", "c", "c"], ["s", "c", "c", "c"], ["s", "c"])
    # c: gold 2, predicted 3, 2 right -> precision 2/3, recall 1
    assert a.per_class["c"] == {"gold": 2, "predicted": 3, "precision": 2 / 3, "recall": 1.0, "kappa": 0.5}


def test_lengths_must_match() -> None:
    with pytest.raises(ValueError, match="gold has 2 items but predicted has 1"):
        confusion_matrix(["a", "b"], ["a"], ["a", "b"])


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("The bridge opened on 12 May 1998.", "date"),
        ("The trial enrolled 640 adults.", "number"),
        ("The museum is not open on Mondays.", "negation"),
        ("The bridge was designed by Marit Olsen.", "entity"),
        ("The bridge is beautiful.", "other"),
    ],
)
def test_claim_type(text: str, kind: str) -> None:
    assert claim_type(text) == kind


@pytest.mark.parametrize(
    ("verdicts", "label"),
    [  # run_label_eval.py's predict(): contradicted wins, all supporting is support, some is partial
        (["supported", "inferred"], "support"),
        (["supported", "unsupported"], "partial"),
        (["unsupported", "qualification_dropped"], "not_supported"),
        (["supported", "contradicted"], "refute"),
        (["outside_scope"], "not_supported"),
        ([], "not_supported"),
    ],
)
def test_audit_label(verdicts: list[str], label: str) -> None:
    assert audit_label(verdicts) == label


def test_pair_spans_by_largest_overlap() -> None:
    assert pair_spans([(0, 10), (10, 30)], [(0, 12), (12, 30)]) == [(0, 0), (1, 1)]
    assert pair_spans([(0, 5)], []) == [(0, None)]
