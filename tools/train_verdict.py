#!/usr/bin/env python3
"""Train the learned verdict decision (``claims.decision``) reproducibly and report it cross-validated.

Usage:
    python tools/train_verdict.py [--shared ../shared] [--folds 5] [--seed 0] [--cache DIR]
                                  [--out claims/data/verdict_model.json]
                                  [--report docs/verdict_training.json] [--limit N]
                                  [--repeats 5]

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
Every figure in the report but ``in_sample`` is out-of-fold; the shipped model is then fitted on
all rows. The
report's ``repeated_cv`` gives each dev set's balanced accuracy for ``--repeats`` fold seeds
(``--seed`` onwards) and their mean, the headline figure (one fold assignment moves it by up to
0.015); ``in_sample`` gives the final model on the rows it was fitted on.
The decision threshold is the training share of positives: with calibrated probabilities this
is the threshold that maximises balanced accuracy (the metric of ``run_label_eval.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import io
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

from claims.decision import FEATURE_NAMES, STANDING_FINDINGS  # noqa: E402
from claims.decision_features import feature_matrix as claim_features  # noqa: E402
from claims.decompose import decompose  # noqa: E402
from claims.embed import default_embedder, text_key  # noqa: E402
from claims.labels import embedding_text  # noqa: E402
from claims.match import DEFAULT_THRESHOLD, cosine_matrix  # noqa: E402
from claims.perturb import FAULT_KINDS, perturb  # noqa: E402
from claims.types import ClaimKind, ReferenceClaim, Role, Verdict  # noqa: E402
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
    for i, line in enumerate(
        (shared / "data/factcheck_gpt/stance_dev.jsonl").read_text().splitlines()[:limit]
    ):
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
        passage = [x for x in wice[k]["evidence"] if x.strip()]
        at = passage.index(s) if s in passage else 0
        refs = passage[max(0, at - 4) : at + 5]  # a retrieval-sized passage around the sentence
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


@dataclass
class EngineRun:
    """What the rule engine made of one audit (cached between training runs)."""

    response_claims: list[Any]
    reference_claims: list[ReferenceClaim]
    similarity: np.ndarray
    judgements: list[Any]
    references: list[str]


def run_engine(item: Item, embedder: DiskCachedEmbedder) -> EngineRun:
    """Decompose, embed, match and judge one audit with the rule engine (no learned decision)."""
    refs = [r for r in item.references if r.strip()] or ["(empty)"]
    response_claims = decompose(item.response)
    reference_claims = [
        ReferenceClaim(i, c) for i, t in enumerate(refs) for c in decompose(t, role=Role.REFERENCE)
    ]
    texts = [c.text for c in response_claims] + [rc.claim.text for rc in reference_claims]
    vectors = embedder.embed([embedding_text(t) for t in texts])
    n = len(response_claims)
    similarity = cosine_matrix(vectors[:n], vectors[n:])
    judgements = judge(response_claims, reference_claims, similarity, threshold=DEFAULT_THRESHOLD,
                       reference_texts=refs)  # fmt: skip
    return EngineRun(response_claims, reference_claims, similarity, list(judgements), refs)


def item_rows(item: Item, run: EngineRun) -> list[dict[str, Any]]:
    """One row per material response claim: features (``claims.decision``), rule verdict, label."""
    material = [j for j in run.judgements if run.response_claims[j.response_index].kind is ClaimKind.MATERIAL
                and j.verdict is not Verdict.OUTSIDE_SCOPE]  # fmt: skip
    if not material or not run.reference_claims:
        return []
    x = claim_features(run.response_claims, run.reference_claims, run.similarity, material,
                       reference_texts=run.references)  # fmt: skip
    rows = []
    for j, feats in zip(material, x, strict=True):
        text = run.response_claims[j.response_index].text
        rows.append({"item": item.ident, "dataset": item.dataset, "group": item.group, "gold": item.gold,
                     "text": text, "rule": j.verdict.value, "finding": j.finding, "x": feats.tolist(),
                     "n_claims": len(material),
                     "label": claim_label(item, text, len(material))})  # fmt: skip
    return rows


def claim_label(item: Item, text: str, n_claims: int) -> int | None:
    """1 supported, 0 not supported, None unknown (see module docstring)."""
    if item.gold == "rules":
        text = text.lower()
        allowed = [set(r["verdict"]) for r in item.rules if r["response_claim_contains"].lower() in text]
        if not allowed:
            return None
        ok = {"supported", "inferred"}
        return 1 if all(a <= ok for a in allowed) else 0 if all(not (a & ok) for a in allowed) else None
    if item.gold == "support":
        return 1
    if item.gold == "partial":
        return 0 if n_claims == 1 else None
    return 0


#: claims/ files that are the learned decision itself, not the rule engine it reads
NOT_ENGINE = frozenset({"decision.py", "decision_features.py", "perturb.py", "verdict_model.json"})


class _RunUnpickler(pickle.Unpickler):
    """Reads ``EngineRun`` as this module's class whichever script wrote the cache (the class is
    pickled under the writer's ``__main__``: train_verdict.py, ablate.py or select_verdict.py)."""

    def find_class(self, module: str, name: str) -> Any:
        if name == "EngineRun":
            return EngineRun
        return super().find_class(module, name)


def engine_runs(items: Sequence[Item], cache: Path | None) -> list[EngineRun]:
    """The rule engine on every item; cached under ``cache`` by the engine's own source files."""
    sources = sorted(
        p for p in (ROOT / "claims").rglob("*")
        if p.is_file() and p.suffix in (".py", ".txt", ".json") and p.name not in NOT_ENGINE
    )  # fmt: skip
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources))
    digest.update(json.dumps([(it.ident, it.response, it.references) for it in items]).encode())
    path = cache / f"engine-{digest.hexdigest()[:16]}.pkl" if cache else None
    if path and path.exists():
        return list(_RunUnpickler(io.BytesIO(path.read_bytes())).load())
    embedder = DiskCachedEmbedder(cache / "embeddings.pkl" if cache else None)
    runs, started = [], time.monotonic()
    for k, item in enumerate(items):
        runs.append(run_engine(item, embedder))
        if k % 250 == 0:
            print(f"  {k}/{len(items)} audits, {time.monotonic() - started:.0f} s", file=sys.stderr)
    embedder.save()
    if path:
        path.write_bytes(pickle.dumps(runs))
    return runs


def build_rows(items: Sequence[Item], cache: Path | None) -> list[dict[str, Any]]:
    return [
        row
        for item, run in zip(items, engine_runs(items, cache), strict=True)
        for row in item_rows(item, run)
    ]


# ---------------------------------------------------------------- fitting


def group_splits(
    rows: Sequence[dict[str, Any]], folds: int, seed: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Out-of-fold splits over ALL rows, grouped by claim text, stratified by gold label."""
    from sklearn.model_selection import StratifiedGroupKFold

    groups = [r["group"] for r in rows]
    strata = [f"{r['dataset']}:{r['gold']}" for r in rows]
    skf = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    return [(tr, te) for tr, te in skf.split(np.zeros(len(rows)), strata, groups)]


#: L2 strength of the logistic regression (inverse); chosen among 0.05 and 0.5 on out-of-fold
#: balanced accuracy (docs/CALIBRATION.md); strong regularisation keeps the weights stable
C_REGULARISATION = 0.05
#: the balanced score at which a claim is supported (equal class weights => 0.5 is Bayes-optimal
#: for balanced accuracy)
SUPPORT_THRESHOLD = 0.5
#: candidate margins by which the score must disagree with a rule verdict to overturn it
RULE_MARGINS = (0.0, 0.1, 0.2, 0.3, 0.4)
#: margins whose mean figure is within this of the best count as ties, and the largest of them
#: (the one that trusts the rules most) is taken: about half the standard error of a balanced
#: accuracy over ~1,700 audits
MARGIN_TOLERANCE = 0.005
#: feature columns the shipped decision leaves out (chosen by tools/select_verdict.py, docs/CALIBRATION.md)
DROPPED_FEATURES: tuple[str, ...] = ("neg_mismatch", "log_len", "log_refs")


@dataclass(frozen=True)
class Fitted:
    """A fitted decision: standardised logistic regression (balanced score) + Platt scaling."""

    pipeline: Any
    calib_a: float
    calib_b: float

    def scores(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(balanced score sigmoid(z), natural P(support) by Platt scaling of z) per row."""
        z = self.pipeline.decision_function(x)
        return 1 / (1 + np.exp(-z)), 1 / (1 + np.exp(self.calib_a * z + self.calib_b))


def balanced_weights(datasets: Sequence[str], y: np.ndarray) -> np.ndarray:
    """Sample weights giving each (data set, label) cell half of its data set's total weight."""
    from collections import Counter

    cells, sizes = Counter(zip(datasets, y.tolist(), strict=True)), Counter(datasets)
    return np.asarray([sizes[d] / (2 * cells[(d, int(v))]) for d, v in zip(datasets, y, strict=True)])


def fit(
    x: np.ndarray,
    y: np.ndarray,
    groups: Sequence[str],
    datasets: Sequence[str],
    seed: int,
    c: float | None = None,
) -> Fitted:
    """Logistic regression (L2 strength ``c``, default ``C_REGULARISATION``) with class-balanced
    weights per data set, then Platt scaling (Platt 1999) of its decision values, fitted
    unweighted on grouped inner out-of-fold values."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    def base() -> Any:
        return make_pipeline(StandardScaler(), LogisticRegression(C=c or C_REGULARISATION, max_iter=5000))

    w = balanced_weights(datasets, y)
    inner = GroupKFold(n_splits=5, shuffle=True, random_state=seed)
    z = cross_val_predict(base(), x, y, groups=groups, cv=inner, method="decision_function",
                          params={"logisticregression__sample_weight": w})  # fmt: skip
    platt = LogisticRegression(C=1e6, max_iter=5000).fit(z.reshape(-1, 1), y)
    final = base().fit(x, y, logisticregression__sample_weight=w)
    return Fitted(final, calib_a=-float(platt.coef_[0, 0]), calib_b=-float(platt.intercept_[0]))


def labelled(
    rows: Sequence[dict[str, Any]], idx: np.ndarray
) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """Features, labels, groups and data sets of the labelled rows among ``idx``."""
    keep = [i for i in idx if rows[i]["label"] is not None]
    x = np.asarray([rows[i]["x"] for i in keep], dtype=np.float64)
    y = np.asarray([rows[i]["label"] for i in keep], dtype=np.int64)
    return x, y, [rows[i]["group"] for i in keep], [rows[i]["dataset"] for i in keep]


def out_of_fold(
    rows: Sequence[dict[str, Any]], folds: int, seed: int, c: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(balanced score, natural P(support)) for every row, from a model that never saw its group."""
    s, p = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
    for train, test in group_splits(rows, folds, seed):
        x, y, groups, datasets = labelled(rows, train)
        model = fit(x, y, groups, datasets, seed, c)
        s[test], p[test] = model.scores(np.asarray([rows[i]["x"] for i in test], dtype=np.float64))
    return s, p


def kept_columns(drop: Sequence[str]) -> list[int]:
    """Indices of ``FEATURE_NAMES`` not in ``drop``. Raises ValueError for an unknown name."""
    unknown = sorted(set(drop) - set(FEATURE_NAMES))
    if unknown:
        raise ValueError(f"unknown feature names: {unknown}")
    return [i for i, n in enumerate(FEATURE_NAMES) if n not in drop]


def without_features(rows: Sequence[dict[str, Any]], drop: Sequence[str]) -> list[dict[str, Any]]:
    """The rows with the feature columns named in ``drop`` removed from ``x``."""
    keep = kept_columns(drop)
    return [r | {"x": [r["x"][i] for i in keep]} for r in rows]


def export(
    model: Fitted, rule_precision: dict[str, float], n_rows: int, drop: Sequence[str] = ()
) -> dict[str, Any]:
    """The model file (``claims.decision.DecisionModel.from_dict``) of a model fitted on the
    columns of ``FEATURE_NAMES`` not in ``drop``: a dropped column gets mean 0, scale 1 and
    weight 0, so that it is read and ignored."""
    scaler, lr = model.pipeline[0], model.pipeline[-1]
    import sklearn

    mean, scale, coef = (
        np.zeros(len(FEATURE_NAMES)),
        np.ones(len(FEATURE_NAMES)),
        np.zeros(len(FEATURE_NAMES)),
    )
    keep = kept_columns(drop)
    mean[keep], scale[keep], coef[keep] = scaler.mean_, scaler.scale_, lr.coef_[0]
    return {
        "version": MODEL_VERSION,
        "trained_with": f"scikit-learn {sklearn.__version__}, tools/train_verdict.py, {n_rows} labelled rows",
        "feature_names": list(FEATURE_NAMES),
        "dropped_features": list(drop),
        "C": model.pipeline[-1].C,
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "coef": coef.tolist(),
        "intercept": float(lr.intercept_[0]),
        "calib_a": model.calib_a,
        "calib_b": model.calib_b,
        "support_threshold": SUPPORT_THRESHOLD,
        "rule_precision": rule_precision,
    }


# ---------------------------------------------------------------- evaluation (out-of-fold)

CONFLICTS = {Verdict.CONTRADICTED.value, Verdict.QUALIFICATION_DROPPED.value}


def claim_verdicts(
    rows: Sequence[dict[str, Any]], score: np.ndarray, p: np.ndarray, prec: dict[str, float], margin: float
) -> list[tuple[str, float]]:
    """(verdict, confidence) per row, as ``claims.decision.decide`` gives them: the verdict from the
    balanced ``score``, the confidence from the calibrated ``p`` (pass ``p=score`` to rank by the
    balanced score instead)."""
    out = []
    for r, si, pi in zip(rows, score, p, strict=True):
        m = margin if r["rule"] in ("supported", "inferred") else -margin
        if r["rule"] in CONFLICTS:
            out.append((r["rule"], prec.get(r["rule"], 0.5)))
        elif r.get("finding") in STANDING_FINDINGS:  # stands, whichever way it points ("counterpart")
            stands = "supported" if r["rule"] in ("supported", "inferred") else "unsupported"
            out.append((stands, float(pi if stands == "supported" else 1 - pi)))
        elif si >= SUPPORT_THRESHOLD - m:
            out.append(("supported", float(pi)))
        else:
            out.append(("unsupported", float(1 - pi)))
    return out


def audit_predictions(
    rows: Sequence[dict[str, Any]], verdicts: Sequence[tuple[str, float]]
) -> dict[str, tuple[str, float]]:
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


def dataset_report(
    items: Sequence[Item],
    preds: dict[str, tuple[str, float]],
    dataset: str,
    balanced_preds: dict[str, tuple[str, float]],
) -> dict[str, Any]:
    chosen = [it for it in items if it.dataset == dataset]
    scored = [(it.gold, *preds.get(it.ident, ("not_supported", 1.0))) for it in chosen]
    pairs = [(g, p) for g, p, _ in scored]
    tp = sum(g == p == "refute" for g, p in pairs)
    pred_ref, gold_ref = sum(p == "refute" for _, p in pairs), sum(g == "refute" for g, _ in pairs)
    return {
        "audits": len(chosen),
        "balanced_accuracy": _round(balanced_accuracy(pairs)),
        "refute_precision": _round(tp / pred_ref) if pred_ref else None,
        "refute_recall": _round(tp / gold_ref) if gold_ref else None,
        "selective_balanced_accuracy_by_coverage": selective_curve(scored),
        "selective_balanced_accuracy_by_coverage_balanced_confidence": selective_curve(
            [(it.gold, *balanced_preds.get(it.ident, ("not_supported", 1.0))) for it in chosen]
        ),
    }


def selective_curve(scored: Sequence[tuple[str, str, float]]) -> dict[str, float | None]:
    """Balanced accuracy of the most confident share of audits, for shares 0.1 ... 1.0."""
    ranked = sorted(scored, key=lambda s: -s[2])
    curve = {}
    for c in np.arange(0.1, 1.01, 0.1):
        top = ranked[: max(1, round(c * len(ranked)))]
        curve[f"{c:.1f}"] = _round(balanced_accuracy([(g, p) for g, p, _ in top]))
    return curve


def cascade_table(
    items: Sequence[Item], rows: Sequence[dict[str, Any]], verdicts: Sequence[tuple[str, float]]
) -> dict[str, Any]:
    """For bands [0, h] of ``judge: auto``: the share of dev claims sent to the LLM judge, the
    accuracy of the labelled claims kept offline, and the balanced accuracy of the factcheck / WiCE
    audits none of whose claims is sent."""
    out = {}
    for h in (0.6, 0.7, 0.75, 0.8, 0.9):
        sent = {r["item"] for r, (v, c) in zip(rows, verdicts, strict=True) if v not in CONFLICTS and c <= h}
        dev = [(r, v) for r, v in zip(rows, verdicts, strict=True) if r["dataset"] in ("factcheck", "wice")]
        share = sum(1 for r, (v, c) in dev if v not in CONFLICTS and c <= h) / max(1, len(dev))
        preds = audit_predictions([r for r, _ in dev], [v for _, v in dev])
        kept = {k: v for k, v in preds.items() if k not in sent}
        kept_rows = [(r, v) for r, (v, c) in dev if r["label"] is not None and (v in CONFLICTS or c > h)]
        right = [(v == "supported") == bool(r["label"]) for r, v in kept_rows]
        out[f"0-{h}"] = {
            "share_sent": _round(share),
            "claim_accuracy_kept": _round(sum(right) / max(1, len(right))),
        } | {
            d: _round(balanced_accuracy(_pairs(items, kept, d, only_present=True)))
            for d in ("factcheck", "wice")
        }
    return out


def expected_calibration_error(conf: np.ndarray, correct: np.ndarray, bins: int = 10) -> float:
    """ECE (Guo et al. 2017): over equal-width confidence bins, |accuracy - confidence| weighted by size."""
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


def choose_margin(items: Sequence[Item], rows: Sequence[dict[str, Any]], score: np.ndarray) -> dict[str, Any]:
    """The rule margin (one scalar, among RULE_MARGINS) with the best mean of three out-of-fold
    figures: balanced accuracy on each dev set, and the share of shared-case claims on the right
    side of support (the crisp faults that the rules are built for); ties within
    MARGIN_TOLERANCE go to the larger margin. Returns it with the grid."""
    prec, grid = rule_precision(rows), {}
    for m in RULE_MARGINS:
        verdicts = claim_verdicts(rows, score, score, prec, m)
        preds = audit_predictions(rows, verdicts)
        figures = [balanced_accuracy(_pairs(items, preds, d)) or 0.0 for d in ("factcheck", "wice")]
        figures.append(_cases_correct(rows, verdicts))
        grid[str(m)] = dict(zip(("factcheck", "wice", "cases_correct"), map(_round, figures), strict=True))
        grid[str(m)]["mean"] = _round(sum(figures) / 3)
    top = max(grid[str(m)]["mean"] or 0.0 for m in RULE_MARGINS)
    best = max(m for m in RULE_MARGINS if (grid[str(m)]["mean"] or 0.0) >= top - MARGIN_TOLERANCE)
    return {"rule_margin": best, "grid": grid}


def in_sample(
    items: Sequence[Item], rows: Sequence[dict[str, Any]], model: Fitted, margin: float
) -> dict[str, float | None]:
    """Balanced accuracy on each dev set of ``model`` scoring the rows it was fitted on (the
    in-sample figure, to set against the out-of-fold one)."""
    score, _ = model.scores(np.asarray([r["x"] for r in rows], dtype=np.float64))
    verdicts = claim_verdicts(rows, score, score, rule_precision(rows), margin)
    preds = audit_predictions(rows, verdicts)
    return {d: _round(balanced_accuracy(_pairs(items, preds, d))) for d in ("factcheck", "wice")}


def _pairs(
    items: Sequence[Item], preds: dict[str, tuple[str, float]], dataset: str, *, only_present: bool = False
) -> list[tuple[str, str]]:
    chosen = [it for it in items if it.dataset == dataset and (not only_present or it.ident in preds)]
    return [(it.gold, preds.get(it.ident, ("not_supported", 1.0))[0]) for it in chosen]


def _cases_correct(rows: Sequence[dict[str, Any]], verdicts: Sequence[tuple[str, float]]) -> float:
    """Share of the labelled shared-case claims whose verdict is on the right side of support."""
    hits = [(v == "supported") == bool(r["label"]) for r, (v, _) in zip(rows, verdicts, strict=True)
            if r["dataset"] == "cases" and r["label"] is not None]  # fmt: skip
    return sum(hits) / len(hits) if hits else 0.0


def repeated_cv(
    items: Sequence[Item],
    rows: Sequence[dict[str, Any]],
    folds: int,
    seeds: Sequence[int],
    c: float,
    margin: float,
) -> dict[str, Any]:
    """Out-of-fold balanced accuracy on each dev set for every fold seed of ``seeds`` (the same
    grouped, stratified folds as ``out_of_fold``, drawn again), at the rule margin ``margin``:
    {"seeds": [...], "factcheck": {"each", "mean", "min", "max"}, "wice": {...}} (a data set
    with no balanced accuracy, no labels of one side, gives None). The seed also draws the inner
    folds of the Platt scaling (``fit``). One fold assignment moves the figures by up to 0.015
    (docs/CALIBRATION.md); their mean is the headline."""
    each: dict[str, list[float | None]] = {"factcheck": [], "wice": []}
    for seed in seeds:
        score, _ = out_of_fold(rows, folds, seed, c)
        preds = audit_predictions(rows, claim_verdicts(rows, score, score, rule_precision(rows), margin))
        for d in each:
            each[d].append(balanced_accuracy(_pairs(items, preds, d)))
    out: dict[str, Any] = {"seeds": list(seeds)}
    for d, found in each.items():
        values = [v for v in found if v is not None]
        if not values:
            out[d] = {"each": found, "mean": None, "min": None, "max": None}
            continue
        out[d] = {"each": [_round(v) for v in found], "mean": _round(float(np.mean(values))),
                  "min": _round(min(values)), "max": _round(max(values))}  # fmt: skip
    return out


def report(
    items: Sequence[Item], rows: Sequence[dict[str, Any]], score: np.ndarray, p: np.ndarray, margin: float
) -> dict[str, Any]:
    prec = rule_precision(rows)
    verdicts = claim_verdicts(rows, score, p, prec, margin)
    preds = audit_predictions(rows, verdicts)
    balanced = audit_predictions(rows, claim_verdicts(rows, score, score, prec, margin))
    lab = [i for i, r in enumerate(rows) if r["label"] is not None and r["dataset"] != "synthetic"]
    conf = np.asarray([verdicts[i][1] for i in lab])
    correct = np.asarray(
        [(verdicts[i][0] == "supported") == bool(rows[i]["label"]) for i in lab], dtype=float
    )
    from sklearn.metrics import roc_auc_score

    y = np.asarray([rows[i]["label"] for i in lab])
    return {
        "support_threshold": SUPPORT_THRESHOLD,
        "claim_rows": len(rows),
        "labelled_dev_rows": len(lab),
        "claim_auc": _round(roc_auc_score(y, p[lab])),
        "claim_auc_by_dataset": {
            d: _round(
                roc_auc_score(
                    [rows[i]["label"] for i in lab if rows[i]["dataset"] == d],
                    [p[i] for i in lab if rows[i]["dataset"] == d],
                )
            )
            for d in ("factcheck", "wice")
        },  # fmt: skip
        "expected_calibration_error": _round(expected_calibration_error(conf, correct)),
        "rule_precision": prec,
        "cascade": cascade_table(items, rows, verdicts),
        "datasets": {
            d: dataset_report(items, preds, d, balanced) for d in ("factcheck", "wice", "cases", "synthetic")
        },
    }


# ---------------------------------------------------------------- main


def data_arguments(description: str | None) -> argparse.ArgumentParser:
    """A parser with the options of the data, folds and engine cache (shared by tools/ablate.py)."""
    ap = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--synthetic", type=int, default=300, help="synthetic positive/negative pairs of each")
    ap.add_argument("--limit", type=int, help="first N items of each dev set (smoke runs)")
    ap.add_argument("--cache", type=Path, help="folder for embeddings and engine rows between runs")
    return ap


def main() -> int:
    ap = data_arguments(__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "claims/data/verdict_model.json")
    ap.add_argument("--report", type=Path, default=ROOT / "docs/verdict_training.json")
    ap.add_argument("--drop", nargs="*", default=list(DROPPED_FEATURES), help="feature columns left out")
    ap.add_argument("--C", dest="c", type=float, default=C_REGULARISATION, help="L2 strength (inverse)")
    ap.add_argument("--repeats", type=int, default=5, help="fold seeds of the repeated cross-validation")
    args = ap.parse_args()
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    np.random.seed(args.seed)
    items = load_items(args.shared, args.limit, args.synthetic, args.seed)
    rows = without_features(build_rows(items, args.cache), args.drop)
    score, p = out_of_fold(rows, args.folds, args.seed, args.c)
    choice = choose_margin(items, rows, score)
    rep = report(items, rows, score, p, choice["rule_margin"])
    rep["rule_margin"] = choice
    x, y, groups, datasets = labelled(rows, np.arange(len(rows)))
    model = fit(x, y, groups, datasets, args.seed, args.c)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    exported = export(model, rep["rule_precision"], len(y), args.drop) | {
        "rule_margin": choice["rule_margin"]
    }
    args.out.write_text(json.dumps(exported, indent=1) + "\n")
    rep["cross_validation"] = (
        f"StratifiedGroupKFold({args.folds}), seed {args.seed}; all figures out-of-fold but in_sample"
    )
    rep["in_sample"] = in_sample(items, rows, model, choice["rule_margin"])
    seeds = range(args.seed, args.seed + args.repeats)
    rep["repeated_cv"] = repeated_cv(items, rows, args.folds, seeds, args.c, choice["rule_margin"])
    rep["model"] = {"C": args.c, "dropped_features": list(args.drop)}
    args.report.write_text(json.dumps(rep, indent=1) + "\n")
    fc, wi = rep["datasets"]["factcheck"], rep["datasets"]["wice"]
    print(json.dumps(rep, indent=1))
    print(
        f"cv factcheck_ba={fc['balanced_accuracy']} wice_ba={wi['balanced_accuracy']} "
        f"refute_p={fc['refute_precision']} refute_r={fc['refute_recall']} "
        f"ece={rep['expected_calibration_error']}"
    )
    rcv, ins = rep["repeated_cv"], rep["in_sample"]
    print(
        f"repeated cv ({len(rcv['seeds'])} fold seeds, mean) factcheck_ba={rcv['factcheck']['mean']} "
        f"wice_ba={rcv['wice']['mean']}; in sample factcheck_ba={ins['factcheck']} wice_ba={ins['wice']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
