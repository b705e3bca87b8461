"""Agreement between two sets of verdicts: confusion matrix, Cohen's kappa, balanced accuracy.

Used to compare an audit with a second auditor and the auditor with human labels. Pure numpy
(no scikit-learn at run time); ``tests/unit/test_agreement.py`` checks the figures against
``sklearn.metrics``.

Claim types (``CLAIM_TYPES``) group claims by the facet that makes them checkable:
``date`` (a date or a year), ``number`` (any other quantity), ``negation`` (a negated claim),
``entity`` (a named entity), ``other``; the first that applies wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "AUDIT_LABELS",
    "CLAIM_TYPES",
    "Agreement",
    "agreement",
    "audit_label",
    "balanced_accuracy_score",
    "claim_type",
    "cohen_kappa_score",
    "confusion_matrix",
    "pair_spans",
]

CLAIM_TYPES: tuple[str, ...] = ("number", "date", "entity", "negation", "other")
#: Labels of a whole audit (the gold labels of ``run_label_eval.py``).
AUDIT_LABELS: tuple[str, ...] = ("support", "partial", "not_supported", "refute")
_MATERIAL = ("supported", "inferred", "contradicted", "qualification_dropped", "unsupported")


def confusion_matrix(gold: Sequence[str], predicted: Sequence[str], classes: Sequence[str]) -> np.ndarray:
    """Counts ``C[i, j]`` of items with gold ``classes[i]`` predicted ``classes[j]``, int64
    ``(k, k)``. Items whose gold or prediction is not in ``classes`` are not counted.

    Raises ``ValueError`` when the two sequences differ in length.

    >>> confusion_matrix(["a", "a", "b"], ["a", "b", "b"], ["a", "b"]).tolist()
    [[1, 1], [0, 1]]
    """
    if len(gold) != len(predicted):
        raise ValueError(f"gold has {len(gold)} items but predicted has {len(predicted)}")
    index = {c: i for i, c in enumerate(classes)}
    out = np.zeros((len(classes), len(classes)), dtype=np.int64)
    for g, p in zip(gold, predicted, strict=True):
        if g in index and p in index:
            out[index[g], index[p]] += 1
    return out


def cohen_kappa_score(confusion: np.ndarray) -> float | None:
    """Cohen's kappa of a confusion matrix: ``(p_o - p_e) / (1 - p_e)``, in [-1, 1], 1 is best.

    ``p_o`` is the observed agreement (trace / n), ``p_e`` the agreement expected by chance from
    the row and column marginals (Cohen 1960). None when undefined: no items, or ``p_e == 1``
    (both raters used one and the same class for everything).

    >>> cohen_kappa_score(np.array([[20, 5], [10, 15]]))
    0.4
    """
    c = np.asarray(confusion, dtype=np.float64)
    n = c.sum()
    if n == 0:
        return None
    p_o = np.trace(c) / n
    p_e = float((c.sum(axis=1) * c.sum(axis=0)).sum() / (n * n))
    if p_e >= 1.0 - 1e-12:
        return None
    return round(float((p_o - p_e) / (1.0 - p_e)), 12)


def balanced_accuracy_score(confusion: np.ndarray) -> float | None:
    """Mean recall over the gold classes that occur (rows with items), in [0, 1]; None without items.

    >>> balanced_accuracy_score(np.array([[3, 1], [0, 4]]))
    0.875
    """
    c = np.asarray(confusion, dtype=np.float64)
    support = c.sum(axis=1)
    rows = support > 0
    if not rows.any():
        return None
    return float(np.mean(np.diag(c)[rows] / support[rows]))


@dataclass(frozen=True, slots=True)
class Agreement:
    """Agreement of ``predicted`` with ``gold`` over ``n`` items.

    ``confusion[i][j]``: gold ``classes[i]``, predicted ``classes[j]``. ``accuracy`` is the
    observed agreement; ``kappa`` Cohen's kappa; ``balanced_accuracy`` the mean recall over the
    gold classes present; ``per_class[c]``: gold and predicted counts, precision, recall and the
    one-vs-rest kappa of ``c``. Undefined figures (zero denominators) are None.
    """

    n: int
    classes: tuple[str, ...]
    confusion: tuple[tuple[int, ...], ...]
    accuracy: float | None
    kappa: float | None
    balanced_accuracy: float | None
    per_class: dict[str, dict[str, float | int | None]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "classes": list(self.classes),
            "confusion": [list(r) for r in self.confusion],
            "accuracy": self.accuracy,
            "kappa": self.kappa,
            "balanced_accuracy": self.balanced_accuracy,
            "per_class": self.per_class,
        }


def _per_class(c: np.ndarray, k: int) -> dict[str, float | int | None]:
    gold, pred, tp = int(c[k].sum()), int(c[:, k].sum()), int(c[k, k])
    n = int(c.sum())
    one_vs_rest = np.array([[tp, gold - tp], [pred - tp, n - gold - pred + tp]])
    return {
        "gold": gold,
        "predicted": pred,
        "precision": tp / pred if pred else None,
        "recall": tp / gold if gold else None,
        "kappa": cohen_kappa_score(one_vs_rest),
    }


def agreement(
    gold: Sequence[str], predicted: Sequence[str], classes: Iterable[str] | None = None
) -> Agreement:
    """Every agreement figure of two label sequences (see ``Agreement``).

    ``classes`` default: the labels that occur, sorted. Items outside ``classes`` are ignored.

    >>> a = agreement(["x", "x", "y", "y"], ["x", "y", "y", "y"])
    >>> (a.n, a.accuracy, a.kappa, a.balanced_accuracy)
    (4, 0.75, 0.5, 0.75)
    """
    names = tuple(sorted(set(gold) | set(predicted))) if classes is None else tuple(classes)
    c = confusion_matrix(gold, predicted, names)
    n = int(c.sum())
    return Agreement(
        n=n,
        classes=names,
        confusion=tuple(tuple(int(x) for x in row) for row in c),
        accuracy=float(np.trace(c) / n) if n else None,
        kappa=cohen_kappa_score(c),
        balanced_accuracy=balanced_accuracy_score(c),
        per_class={name: _per_class(c, k) for k, name in enumerate(names)},
    )


def claim_type(text: str) -> str:
    """The claim type of ``text`` (``CLAIM_TYPES``; see the module docstring).

    >>> texts = ["It opened in 1998.", "It has 4 lanes.", "It is not open.", "Ada Lind won.", "It is big."]
    >>> [claim_type(t) for t in texts]
    ['date', 'number', 'negation', 'entity', 'other']
    """
    from claims.facets import extract, is_weak_entity  # dateparser loads lazily, once

    f = extract(text)
    if f.dates or any(q.slot == "year" for q in f.quantities):
        return "date"
    if f.quantities:
        return "number"
    if f.negated:
        return "negation"
    if any(not is_weak_entity(text, e) for e in f.entities):
        return "entity"
    return "other"


def audit_label(verdicts: Sequence[str | None]) -> str:
    """A whole audit's label from its response-claim verdicts (``run_label_eval.py``'s mapping):
    any ``contradicted`` → refute; every material claim supported/inferred → support; some →
    partial; otherwise (none, or no material claim) → not_supported.

    >>> audit_label(["supported", "unsupported"]), audit_label(["contradicted", "supported"])
    ('partial', 'refute')
    """
    material = [v for v in verdicts if v in _MATERIAL]
    if "contradicted" in material:
        return "refute"
    ok = [v for v in material if v in ("supported", "inferred")]
    if material and len(ok) == len(material):
        return "support"
    return "partial" if ok else "not_supported"


def pair_spans(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> list[tuple[int, int | None]]:
    """Pair each span of ``a`` with the span of ``b`` it overlaps most (ties: the earlier one);
    ``(i, None)`` when it overlaps none. Used to pair the claims of two audits of one text whose
    decompositions may differ.

    >>> pair_spans([(0, 10), (11, 20), (30, 31)], [(0, 9), (9, 20)])
    [(0, 0), (1, 1), (2, None)]
    """
    out: list[tuple[int, int | None]] = []
    for i, (s, e) in enumerate(a):
        best, best_len = None, 0
        for j, (t, u) in enumerate(b):
            overlap = min(e, u) - max(s, t)
            if overlap > best_len or (overlap == best_len == 0 and s == e == t == u):
                best, best_len = j, max(overlap, 0)
        out.append((i, best))
    return out
