#!/usr/bin/env python3
"""Train the learned verdict decision (``claims.decision``) reproducibly and report it cross-validated.

Usage:
    python tools/train_verdict.py [--shared ../shared] [--folds 5] [--seed 0] [--cache DIR]
                                  [--out claims/data/verdict_model.json]
                                  [--report docs/verdict_training.json] [--limit N]

Data (claim-level rows; every response claim of an audit is one row):
- Factcheck-GPT stance dev pairs (Wang et al. 2023) and WiCE dev claims (Kamoi et al. 2023) from
  ``<shared>/data``: a claim of a ``support`` audit is a positive; every claim of a
  ``not_supported``/``refute`` audit, and the claim of a one-claim ``partial`` audit, a negative;
  claims of multi-claim ``partial`` audits are left out (which part is unsupported is unknown).
- The shared audit cases (``<shared>/cases/audits.jsonl``): claims named by a case's verdict rules,
  positive when only supported/inferred are allowed, negative when none of them is.
- Synthetic pairs (``claims.perturb``): WiCE evidence sentences against their own passage
  (positive), and with a planted fault (negative), ``--synthetic`` of each.

Cross-validation: ``StratifiedGroupKFold`` (``--folds``), grouped by claim text (Factcheck-GPT
repeats a claim over several evidence passages), so no claim is in a training and a test fold.
Every figure in the report is out-of-fold; the shipped model is then fitted on all rows.
The decision threshold is the training share of positives: with calibrated probabilities this
is the threshold that maximises balanced accuracy (the metric of ``run_label_eval.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from claims.decision import FEATURE_NAMES, RULE_VERDICTS  # noqa: E402
from claims.decision import feature_matrix as claim_features  # noqa: E402
from claims.decompose import decompose  # noqa: E402
from claims.embed import default_embedder, text_key  # noqa: E402
from claims.match import DEFAULT_THRESHOLD, cosine_matrix  # noqa: E402
from claims.perturb import FAULT_KINDS, perturb  # noqa: E402
from claims.types import ClaimKind, ReferenceClaim, Verdict  # noqa: E402
from claims.verdict import judge  # noqa: E402

MODEL_VERSION = "decision-lr-1"
GOLD = {
    "completely-support": "support", "partially-support": "partial", "irrelevant": "not_supported",
    "refute": "refute", "supported": "support", "partially_supported": "partial",
}  # fmt: skip


@dataclass
class Item:
    """One audit to run: its texts, gold label and (for cases) per-claim rules."""

    ident: str
    dataset: str
    group: str
    response: str
    references: list[str]
    gold: str
    rules: list[dict[str, Any]] = field(default_factory=list)


# ---------------------------------------------------------------- data


def load_items(shared: Path, limit: int | None, n_synthetic: int, seed: int) -> list[Item]:
    items: list[Item] = []
    for i, line in enumerate((shared / "data/factcheck_gpt/stance_dev.jsonl").read_text().splitlines()[:limit]):
        r = json.loads(line)
        items.append(Item(f"fc-{i}", "factcheck", r["claim"], r["claim"], [r["evidence"]], GOLD[r["stance"]]))
    wice = [json.loads(x) for x in (shared / "data/wice/claims_dev.jsonl").read_text().splitlines()[:limit]]
    for i, r in enumerate(wice):
        gold = GOLD.get(r["label"], "not_supported")
        items.append(Item(f"wice-{i}", "wice", r["claim"], r["claim"], r["evidence"], gold))
    for line in (shared / "cases/audits.jsonl").read_text().splitlines():
        c = json.loads(line)
        rules = c.get("expect", {}).get("verdicts", [])
        if rules and c.get("expect", {}).get("status", "done") == "done":
            items.append(Item(c["id"], "cases", c["id"], c["response"], c["references"], "rules", rules))
    return items + synthetic_items(wice, n_synthetic, seed)


def synthetic_items(wice: Sequence[dict[str, Any]], n: int, seed: int) -> list[Item]:
    """Sentences of WiCE passages against their passage: kept (positive) or faulted (negative)."""
    rng = random.Random(seed)
    sentences = [(k, s) for k, r in enumerate(wice) for s in r["evidence"] if 40 <= len(s) <= 240]
    rng.shuffle(sentences)
    pool = [s for _, s in sentences[:500]]
    out: list[Item] = []
    for k, s in sentences:
        if len(out) >= 2 * n:
            break
        refs = [x for x in wice[k]["evidence"] if x.strip()]
        fault = perturb(s, rng.choice(FAULT_KINDS), rng, pool=pool)
        if fault is None:
            continue
        group = f"synthetic-{k}"
        out.append(Item(f"syn-pos-{len(out)}", "synthetic", group, s, refs, "support"))
        out.append(Item(f"syn-neg-{len(out)}", "synthetic", group, fault.text, refs, "refute"))
    return out


# ---------------------------------------------------------------- engine runs


class DiskCachedEmbedder:
    """The default embedder behind a pickle cache of text -> vector (training runs only)."""

    def __init__(self, path: Path | None) -> None:
        self.inner = default_embedder()
        self.path = path
        self.store: dict[str, np.ndarray] = {}
        if path and path.exists():
            self.store = pickle.loads(path.read_bytes())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        missing = sorted({t for t in texts if text_key(t) not in self.store})
        if missing:
            for t, v in zip(missing, self.inner.embed(missing), strict=True):
                self.store[text_key(t)] = v
        if not texts:
            return np.zeros((0, self.inner.dim), dtype=np.float32)
        return np.stack([self.store[text_key(t)] for t in texts])

    def save(self) -> None:
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_bytes(pickle.dumps(self.store))


def run_item(item: Item, embedder: DiskCachedEmbedder) -> list[dict[str, Any]]:
    """The rule engine on one audit -> one row per material response claim (features + label)."""
    refs = [r for r in item.references if r.strip()] or ["(empty)"]
    response_claims = decompose(item.response)
    reference_claims = [ReferenceClaim(i, c) for i, t in enumerate(refs) for c in decompose(t)]
    vectors = embedder.embed([c.text for c in response_claims] + [rc.claim.text for rc in reference_claims])
    n = len(response_claims)
    similarity = cosine_matrix(vectors[:n], vectors[n:])
    judgements = judge(response_claims, reference_claims, similarity, threshold=DEFAULT_THRESHOLD,
                       reference_texts=refs)  # fmt: skip
    material = [j for j in judgements if response_claims[j.response_index].kind is ClaimKind.MATERIAL
                and j.verdict is not Verdict.OUTSIDE_SCOPE]  # fmt: skip
    if not material or not reference_claims:
        return []
    x = claim_features(response_claims, reference_claims, similarity, material, reference_texts=refs)
    rows = []
    for j, feats in zip(material, x, strict=True):
        text = response_claims[j.response_index].text
        rows.append({"item": item.ident, "dataset": item.dataset, "group": item.group, "gold": item.gold,
                     "text": text, "rule": j.verdict.value, "x": feats.tolist(), "n_claims": len(material),
                     "label": claim_label(item, text, len(material))})  # fmt: skip
    return rows


def claim_label(item: Item, text: str, n_claims: int) -> int | None:
    """1 supported, 0 not supported, None unknown (see module docstring)."""
    if item.gold == "rules":
        allowed = [set(r["verdict"]) for r in item.rules if r["response_claim_contains"].lower() in text.lower()]
        if not allowed:
            return None
        ok = {"supported", "inferred"}
        return 1 if all(a <= ok for a in allowed) else 0 if all(not (a & ok) for a in allowed) else None
    if item.gold == "support":
        return 1
    if item.gold == "partial":
        return 0 if n_claims == 1 else None
    return 0


def build_rows(items: Sequence[Item], cache: Path | None) -> list[dict[str, Any]]:
    code = hashlib.sha256(b"".join(p.read_bytes() for p in sorted((ROOT / "claims").glob("*.py")))).hexdigest()
    rows_path = cache / f"rows-{code[:16]}-{len(items)}.json" if cache else None
    if rows_path and rows_path.exists():
        return list(json.loads(rows_path.read_text()))
    embedder = DiskCachedEmbedder(cache / "embeddings.pkl" if cache else None)
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    for k, item in enumerate(items):
        rows.extend(run_item(item, embedder))
        if k % 250 == 0:
            print(f"  {k}/{len(items)} audits, {time.monotonic() - started:.0f} s", file=sys.stderr)
    embedder.save()
    if rows_path:
        rows_path.write_text(json.dumps(rows))
    return rows


# ---------------------------------------------------------------- fitting


def group_splits(rows: Sequence[dict[str, Any]], folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Out-of-fold splits over ALL rows, grouped by claim text, stratified by gold label."""
    from sklearn.model_selection import StratifiedGroupKFold

    groups = [r["group"] for r in rows]
    strata = [f"{r['dataset']}:{r['gold']}" for r in rows]
    skf = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    return [(tr, te) for tr, te in skf.split(np.zeros(len(rows)), strata, groups)]


def fit(x: np.ndarray, y: np.ndarray, groups: Sequence[str], seed: int) -> Any:
    """Standardised logistic regression, Platt-calibrated on grouped inner folds (one final fit)."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    inner = list(GroupKFold(n_splits=5, shuffle=True, random_state=seed).split(x, y, groups))
    base = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=5000, random_state=seed))
    return CalibratedClassifierCV(base, method="sigmoid", cv=inner, ensemble=False).fit(x, y)


def labelled(rows: Sequence[dict[str, Any]], idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str]]:
    keep = [i for i in idx if rows[i]["label"] is not None]
    x = np.asarray([rows[i]["x"] for i in keep], dtype=np.float64)
    y = np.asarray([rows[i]["label"] for i in keep], dtype=np.int64)
    return x, y, [rows[i]["group"] for i in keep]


def out_of_fold(rows: Sequence[dict[str, Any]], folds: int, seed: int) -> tuple[np.ndarray, list[float]]:
    """P(support) for every row from a model that never saw its group; and each fold's threshold."""
    p = np.full(len(rows), np.nan)
    thresholds = []
    for train, test in group_splits(rows, folds, seed):
        x, y, groups = labelled(rows, train)
        model = fit(x, y, groups, seed)
        p[test] = model.predict_proba(np.asarray([rows[i]["x"] for i in test], dtype=np.float64))[:, 1]
        thresholds.append(float(y.mean()))
    return p, thresholds


def export(model: Any, threshold: float, rule_precision: dict[str, float], n_rows: int) -> dict[str, Any]:
    cc = model.calibrated_classifiers_[0]
    scaler, lr = cc.estimator[0], cc.estimator[-1]
    calib = cc.calibrators[0]
    import sklearn

    return {
        "version": MODEL_VERSION,
        "trained_with": f"scikit-learn {sklearn.__version__}, tools/train_verdict.py, {n_rows} labelled rows",
        "feature_names": list(FEATURE_NAMES),
        "mean": scaler.mean_.tolist(),
        "scale": scaler.scale_.tolist(),
        "coef": lr.coef_[0].tolist(),
        "intercept": float(lr.intercept_[0]),
        "calib_a": float(calib.a_),
        "calib_b": float(calib.b_),
        "support_threshold": round(threshold, 4),
        "rule_precision": rule_precision,
    }


# ---------------------------------------------------------------- evaluation (out-of-fold)

CONFLICTS = {Verdict.CONTRADICTED.value, Verdict.QUALIFICATION_DROPPED.value}


def claim_verdicts(rows: Sequence[dict[str, Any]], p: np.ndarray, t: float, prec: dict[str, float]) -> list[tuple[str, float]]:
    """(verdict, confidence) per row, as ``claims.decision.decide`` would give them."""
    out = []
    for r, pi in zip(rows, p, strict=True):
        if r["rule"] in CONFLICTS:
            out.append((r["rule"], prec.get(r["rule"], 0.5)))
        elif pi >= t:
            out.append(("supported", float(pi)))
        else:
            out.append(("unsupported", float(1 - pi)))
    return out


def audit_predictions(rows: Sequence[dict[str, Any]], verdicts: Sequence[tuple[str, float]]) -> dict[str, tuple[str, float]]:
    """Per audit: run_label_eval.py's mapping of claim verdicts, and the audit's confidence."""
    by_item: dict[str, list[tuple[str, float]]] = {}
    for r, v in zip(rows, verdicts, strict=True):
        by_item.setdefault(r["item"], []).append(v)
    out = {}
    for item, vs in by_item.items():
        names = [v for v, _ in vs]
        ok = [c for v, c in vs if v == "supported"]
        if "contradicted" in names:
            out[item] = ("refute", max(c for v, c in vs if v == "contradicted"))
        elif len(ok) == len(vs):
            out[item] = ("support", min(ok))
        else:
            out[item] = ("partial" if ok else "not_supported", max(c for v, c in vs if v != "supported"))
    return out


def balanced_accuracy(pairs: Sequence[tuple[str, str]]) -> float | None:
    pos = [p == "support" for g, p in pairs if g == "support"]
    neg = [p != "support" for g, p in pairs if g != "support"]
    return None if not pos or not neg else (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def dataset_report(items: Sequence[Item], preds: dict[str, tuple[str, float]], dataset: str) -> dict[str, Any]:
    chosen = [it for it in items if it.dataset == dataset]
    scored = [(it.gold, *preds.get(it.ident, ("not_supported", 1.0))) for it in chosen]
    pairs = [(g, p) for g, p, _ in scored]
    tp = sum(g == p == "refute" for g, p in pairs)
    pred_ref, gold_ref = sum(p == "refute" for _, p in pairs), sum(g == "refute" for g, _ in pairs)
    ranked = sorted(scored, key=lambda s: -s[2])
    curve = {f"{c:.1f}": _round(balanced_accuracy([(g, p) for g, p, _ in ranked[: max(1, round(c * len(ranked)))]]))
             for c in np.arange(0.1, 1.01, 0.1)}  # fmt: skip
    return {
        "audits": len(chosen),
        "balanced_accuracy": _round(balanced_accuracy(pairs)),
        "refute_precision": _round(tp / pred_ref) if pred_ref else None,
        "refute_recall": _round(tp / gold_ref) if gold_ref else None,
        "selective_balanced_accuracy_by_coverage": curve,
    }


def expected_calibration_error(conf: np.ndarray, correct: np.ndarray, bins: int = 10) -> float:
    """ECE (Guo et al. 2017): sum over equal-width confidence bins of |accuracy - confidence| weighted by size."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.digitize(conf, edges[1:-1]), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        m = which == b
        if m.any():
            total += m.mean() * abs(correct[m].mean() - conf[m].mean())
    return float(total)


def _round(v: float | None) -> float | None:
    return None if v is None else round(float(v), 4)


def rule_precision(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Share of claims with each rule conflict whose label is 'not supported' (Laplace-smoothed)."""
    out = {}
    for v in CONFLICTS:
        labels = [r["label"] for r in rows if r["rule"] == v and r["label"] is not None]
        out[v] = round((sum(1 for y in labels if y == 0) + 1) / (len(labels) + 2), 4)
    return out


def report(items: Sequence[Item], rows: Sequence[dict[str, Any]], p: np.ndarray, t: float) -> dict[str, Any]:
    prec = rule_precision(rows)
    verdicts = claim_verdicts(rows, p, t, prec)
    preds = audit_predictions(rows, verdicts)
    lab = [i for i, r in enumerate(rows) if r["label"] is not None and r["dataset"] != "synthetic"]
    conf = np.asarray([verdicts[i][1] for i in lab])
    correct = np.asarray([(verdicts[i][0] == "supported") == bool(rows[i]["label"]) for i in lab], dtype=float)
    from sklearn.metrics import roc_auc_score

    y = np.asarray([rows[i]["label"] for i in lab])
    return {
        "support_threshold": round(t, 4),
        "claim_rows": len(rows),
        "labelled_dev_rows": len(lab),
        "claim_auc": _round(roc_auc_score(y, p[lab])),
        "expected_calibration_error": _round(expected_calibration_error(conf, correct)),
        "rule_precision": prec,
        "datasets": {d: dataset_report(items, preds, d) for d in ("factcheck", "wice", "cases", "synthetic")},
    }


# ---------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--synthetic", type=int, default=300, help="synthetic positive/negative pairs of each")
    ap.add_argument("--limit", type=int, help="first N items of each dev set (smoke runs)")
    ap.add_argument("--cache", type=Path, help="folder for embeddings and engine rows between runs")
    ap.add_argument("--out", type=Path, default=ROOT / "claims/data/verdict_model.json")
    ap.add_argument("--report", type=Path, default=ROOT / "docs/verdict_training.json")
    args = ap.parse_args()
    np.random.seed(args.seed)
    items = load_items(args.shared, args.limit, args.synthetic, args.seed)
    rows = build_rows(items, args.cache)
    p, fold_t = out_of_fold(rows, args.folds, args.seed)
    rep = report(items, rows, p, float(np.mean(fold_t)))
    x, y, groups = labelled(rows, np.arange(len(rows)))
    model = fit(x, y, groups, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(export(model, float(y.mean()), rep["rule_precision"], len(y)), indent=1) + "\n")
    rep["cross_validation"] = f"StratifiedGroupKFold({args.folds}), seed {args.seed}; all figures out-of-fold"
    args.report.write_text(json.dumps(rep, indent=1) + "\n")
    fc, wi = rep["datasets"]["factcheck"], rep["datasets"]["wice"]
    print(json.dumps(rep, indent=1))
    print(f"cv factcheck_ba={fc['balanced_accuracy']} wice_ba={wi['balanced_accuracy']} "
          f"refute_p={fc['refute_precision']} refute_r={fc['refute_recall']} ece={rep['expected_calibration_error']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
