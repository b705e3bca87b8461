#!/usr/bin/env python3
"""Out-of-fold effect of each check of the verdict engine: remove it, refit, measure.

Usage:
    python tools/ablate.py [--shared ../shared] [--folds 5] [--seed 0] [--cache DIR]
                           [--json FILE] [--only NAME ...] [--limit N]

Data and method are ``tools/train_verdict.py``'s: the rule engine runs once on every Factcheck-GPT
and WiCE dev item, every shared audit case and the synthetic pairs (cached under ``--cache`` by the
engine's source files); the learned decision is then refitted with grouped cross-validation
(``StratifiedGroupKFold``, grouped by claim text) for the full engine and for each ablation, and
every figure is out of fold. The format cases (``<shared>/cases/formats.jsonl``) are scored by
the same fold models but never trained on.

Two kinds of ablation, one row each:

- ``feature:<family>``: the decision's feature columns that one signal family produces
  (``FAMILIES``, over ``claims.decision_features.FEATURE_NAMES``) are removed before fitting.
- ``finding:<name>``: a rule finding of ``claims.verdict`` (a rule ``contradicted`` /
  ``qualification_dropped``, or an ``unsupported`` / ``supported`` finding in
  ``claims.decision.STANDING_FINDINGS``) is switched off: its claims are decided by the learned
  score as if the rule had found nothing (rule verdict ``unsupported``, no finding; the one-hot
  rule columns say so too), and the decision is refitted.

The rule margin is chosen once, on the full engine (``train_verdict.choose_margin``), and kept.

Figures per row (out of fold; ``delta`` = ablation minus the full engine, so a check pays when
removing it lowers the figures, and a check whose removal raises them or changes nothing is a
candidate for removal):

- ``factcheck_ba``, ``wice_ba``: audit-level balanced accuracy (``run_label_eval.py``'s mapping:
  support against the rest) on the dev sets;
- ``cases_claims``: share of the shared cases' labelled claims on the right side of support;
- ``cases_pass``, ``formats_pass``: cases whose per-claim verdict rules and verdict counts
  (contradicted, unsupported, supported, inferred, qualification_dropped) all hold, counted over
  material claims only: an approximation of ``run_cases.py``, which sees every claim.

The decision here omits the run-time guards of ``claims.decision`` (as ``train_verdict.py``'s
report does); the shipped engine's figures come from ``run_label_eval.py``.
Prints one line per row and ends with the full engine's line.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from claims.decision import FEATURE_NAMES, STANDING_FINDINGS  # noqa: E402
from claims.decision_features import RULE_VERDICTS  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
import train_verdict as tv  # noqa: E402

#: Feature families: the columns each signal of ``claims.decision_features`` produces.
FAMILIES: dict[str, tuple[str, ...]] = {
    "cosine": ("cos1", "cos2", "cos_margin", "log_near"),
    "coverage": (
        "cov_best", "cov_top3", "cov_doc", "missing_doc", "cos_x_cov", "cov_lex", "cos_lex", "prec_best",
    ),
    "values": ("has_value", "value_cov", "value_cov_any"),
    "negation": ("neg_mismatch",),
    "fuzzy": ("fuzz_best",),
    "names": ("name_cov",),
    "ambiguity": ("ambiguous",),
    "size": ("log_len", "log_refs"),
    "rule": tuple(f"rule_{v.value}" for v in RULE_VERDICTS),
}  # fmt: skip
COUNTED = ("contradicted", "unsupported", "supported", "inferred", "qualification_dropped")
Row = dict[str, Any]


def format_items(shared: Path) -> list[Any]:
    """The format cases as train_verdict ``Item``s (dataset "formats", gold "rules")."""
    items = []
    for line in (shared / "cases/formats.jsonl").read_text().splitlines():
        c = json.loads(line)
        items.append(tv.Item(c["id"], "formats", c["id"], c["response"], c["references"], "rules",
                             c["expect"].get("verdicts", [])))  # fmt: skip
    return items


def expectations(shared: Path) -> dict[str, dict[str, Any]]:
    """Case id -> its ``expect`` block, over audits.jsonl and formats.jsonl."""
    out = {}
    for name in ("audits", "formats"):
        for line in (shared / f"cases/{name}.jsonl").read_text().splitlines():
            c = json.loads(line)
            out[c["id"]] = c["expect"]
    return out


def without_columns(rows: Sequence[Row], names: Sequence[str]) -> list[Row]:
    keep = [i for i, n in enumerate(FEATURE_NAMES) if n not in names]
    return [r | {"x": [r["x"][i] for i in keep]} for r in rows]


def without_finding(rows: Sequence[Row], finding: str) -> list[Row]:
    """Rows as if the rule finding ``finding`` had not fired (see the module docstring)."""
    first = FEATURE_NAMES.index(f"rule_{RULE_VERDICTS[0].value}")
    one_hot = [1.0 if v.value == "unsupported" else 0.0 for v in RULE_VERDICTS]
    out = []
    for r in rows:
        if r.get("finding") == finding and (r["rule"] in tv.CONFLICTS or finding in STANDING_FINDINGS):
            x = list(r["x"])
            x[first : first + len(one_hot)] = one_hot
            r = r | {"rule": "unsupported", "finding": None, "x": x}
        out.append(r)
    return out


def out_of_fold(rows: Sequence[Row], folds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``train_verdict.out_of_fold``, except that format rows are never trained on: their scores
    are the mean over the fold models."""
    trainable = [i for i, r in enumerate(rows) if r["dataset"] != "formats"]
    fmt = [i for i, r in enumerate(rows) if r["dataset"] == "formats"]
    s, p = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
    s[fmt], p[fmt] = 0.0, 0.0
    sub = [rows[i] for i in trainable]
    fmt_x = np.asarray([rows[i]["x"] for i in fmt], dtype=np.float64)
    for train, test in tv.group_splits(sub, folds, seed):
        x, y, groups, datasets = tv.labelled(sub, train)
        model = tv.fit(x, y, groups, datasets, seed)
        idx = [trainable[i] for i in test]
        s[idx], p[idx] = model.scores(np.asarray([rows[i]["x"] for i in idx], dtype=np.float64))
        if fmt:
            fs, fp = model.scores(fmt_x)
            s[fmt], p[fmt] = s[fmt] + fs / folds, p[fmt] + fp / folds
    return s, p


def case_passes(rows: Sequence[Row], verdicts: Sequence[tuple[str, float]], expect: dict[str, dict[str, Any]],
                dataset: str) -> tuple[int, int]:  # fmt: skip
    """(passed, total) cases of ``dataset`` under per-claim verdict rules and verdict counts."""
    by_case: dict[str, list[tuple[str, str]]] = {}
    for r, (v, _) in zip(rows, verdicts, strict=True):
        if r["dataset"] == dataset:
            final = "inferred" if v == "supported" and r["rule"] == "inferred" else v
            by_case.setdefault(r["item"], []).append((r["text"].lower(), final))
    passed = 0
    for case, claims in by_case.items():
        exp, counts = expect[case], Counter(v for _, v in claims)
        ok = all(
            (lo is None or counts[name] >= lo) and (hi is None or counts[name] <= hi)
            for name, (lo, hi) in exp.get("counts", {}).items() if name in COUNTED
        )  # fmt: skip
        for rule in exp.get("verdicts", []):
            hits = [v for t, v in claims if rule["response_claim_contains"].lower() in t]
            ok = ok and bool(hits) and all(v in rule["verdict"] for v in hits)
        passed += ok
    return passed, len(by_case)


def figures(items: Sequence[Any], rows: Sequence[Row], expect: dict[str, dict[str, Any]], margin: float,
            folds: int, seed: int) -> dict[str, Any]:  # fmt: skip
    """Out-of-fold figures of one variant of the rows."""
    score, p = out_of_fold(rows, folds, seed)
    verdicts = tv.claim_verdicts(rows, score, p, tv.rule_precision(rows), margin)
    preds = tv.audit_predictions(rows, verdicts)
    out: dict[str, Any] = {
        f"{d}_ba": tv._round(tv.balanced_accuracy(tv._pairs(items, preds, d))) for d in ("factcheck", "wice")
    }
    out["cases_claims"] = tv._round(tv._cases_correct(rows, verdicts))
    for d, name in (("cases", "cases_pass"), ("formats", "formats_pass")):
        passed, total = case_passes(rows, verdicts, expect, d)
        out[name] = f"{passed}/{total}"
    return out


def variants(rows: Sequence[Row]) -> dict[str, Callable[[], list[Row]]]:
    """Name -> rows of that ablation (features by family, then each rule finding seen)."""
    out: dict[str, Callable[[], list[Row]]] = {
        f"feature:{fam}": partial(without_columns, rows, cols) for fam, cols in FAMILIES.items()
    }
    findings = Counter(
        r["finding"] for r in rows
        if r.get("finding") and (r["rule"] in tv.CONFLICTS or r["finding"] in STANDING_FINDINGS)
    )  # fmt: skip
    for name, _ in findings.most_common():
        out[f"finding:{name}"] = partial(without_finding, rows, name)
    return out


def delta(base: dict[str, Any], other: dict[str, Any]) -> dict[str, float | int]:
    out: dict[str, float | int] = {}
    for k, v in other.items():
        if isinstance(v, str):
            out[k] = int(v.split("/")[0]) - int(base[k].split("/")[0])
        elif v is not None and base[k] is not None:
            out[k] = round(v - base[k], 4)
    return out


def main() -> int:
    ap = tv.data_arguments(__doc__)
    ap.add_argument("--only", nargs="*", help="run only these ablations (names as printed)")
    ap.add_argument("--json", type=Path, help="write every row's figures here")
    args = ap.parse_args()
    np.random.seed(args.seed)
    # the training items first, as train_verdict.py builds them (so both share the engine cache)
    train_items = tv.load_items(args.shared, args.limit, args.synthetic, args.seed)
    items = train_items + format_items(args.shared)
    rows = tv.build_rows(train_items, args.cache) + tv.build_rows(items[len(train_items) :], args.cache)
    expect = expectations(args.shared)
    trainable = [r for r in rows if r["dataset"] != "formats"]
    margin = tv.choose_margin(items, trainable, out_of_fold(trainable, args.folds, args.seed)[0])[
        "rule_margin"
    ]
    base = figures(items, rows, expect, margin, args.folds, args.seed)
    table: dict[str, Any] = {"full": base, "rule_margin": margin, "ablations": {}}
    for name, make in variants(rows).items():
        if args.only and name not in args.only:
            continue
        fig = figures(items, make(), expect, margin, args.folds, args.seed)
        table["ablations"][name] = {"figures": fig, "delta": delta(base, fig)}
        print(name, " ".join(f"{k}={v:+}" for k, v in table["ablations"][name]["delta"].items()), flush=True)
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n")
    print("full", " ".join(f"{k}={v}" for k, v in base.items()), f"rule_margin={margin}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
