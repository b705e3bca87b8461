#!/usr/bin/env python3
"""Model selection for the learned decision: out-of-fold balanced accuracy on both dev sets,
subject to the contrast suite's false-support rates.

Usage:
    python tools/select_verdict.py [--shared ../shared] [--folds 5] [--seed 0] --cache DIR
                                   [--contrast FILE.pkl] [--json OUT.json] [--limit N]

Data and folds are ``tools/train_verdict.py``'s (rows cached under ``--cache``). The contrast
suite's edits (``tools/contrast_suite.py``: edits of the supported dev claims and their
originals) are audited once through the product's pipeline (``tools/inprocess_batch.py``);
what ``claims.decision.decide`` reads of each audit is recorded (``claims.decision
.decision_inputs``: feature rows, guards, rule verdicts and findings) and kept in
``--contrast`` (keyed by the digest of ``claims/`` without the model file). A candidate decision
is then replayed on every edit with ``claims.decision.decided_verdict`` and read as the suite
reads it (``claims.agreement.audit_label``).

An edit takes the fold of its source claim: it is scored by the fold model that did not train on
that claim (the group of its Factcheck-GPT / WiCE / case item), so no candidate is judged on
edits of claims it was fitted on.

Candidates (``candidates``): feature families left out (``ablate.FAMILIES``), the L2 strength C,
the rule margin (``train_verdict.RULE_MARGINS``) and the standing findings (with and without
"rival"). For each: out-of-fold balanced accuracy on Factcheck-GPT and WiCE (the decision
without the run-time guards, as ``train_verdict.py`` reports it) and, per contrast kind, the
number of edits that come out ``supported`` (over all edits of the kind, a fixed denominator)
and the invariance kinds' share kept.

Selection: a candidate is admissible when no contrast kind has more ``supported`` edits than
the shipped configuration (``train_verdict.C_REGULARISATION``, ``DROPPED_FEATURES``, margin 0,
``claims.decision.STANDING_FINDINGS``) replayed the same way, and neither dev figure is lower
than that configuration's; the admissible candidate with the best mean of the two figures is
chosen, ties within ``TIE`` going to the fewer features, then the stronger regularisation.
Prints one line per candidate and the choice; ``--json`` writes them all.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import ablate  # noqa: E402
import train_verdict as tv  # noqa: E402

from claims.agreement import audit_label  # noqa: E402
from claims.decision import STANDING_FINDINGS, decided_verdict  # noqa: E402
from claims.types import Verdict  # noqa: E402

#: mean figures within this of the best are ties (about a quarter of the standard error of a
#: balanced accuracy over ~1,000 audits)
TIE = 0.002
CS = [0.01, 0.05, 0.2, 1.0]
#: feature families whose removal is tried, alone and together (the rest are measured by ablate.py)
DROPPABLE = ("ambiguity", "size", "fuzzy", "negation", "values")
AS_VERDICT = {"refute": "contradicted", "support": "supported", "partial": "partial",
              "not_supported": "unsupported"}  # fmt: skip


# ---------------------------------------------------------------- contrast edits, recorded once


def engine_digest() -> str:
    """Digest of ``claims/`` (code, word lists, data) without the model file."""
    sources = sorted(
        p for p in (ROOT / "claims").rglob("*")
        if p.is_file() and p.suffix in (".py", ".txt", ".json") and p.name != "verdict_model.json"
    )  # fmt: skip
    return hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()[:16]


def record_contrast(shared: Path, limit: int | None) -> list[dict[str, Any]]:
    """Every contrast-suite item (original or edit) with what ``decide`` read of its audit:
    ``decided`` (verdict per judgement after the shipped decision), ``material`` (positions),
    ``rule``, ``finding``, ``x``, ``found``, ``verified`` (per material claim), and ``verdict``
    (the suite's reading of the audit's document)."""
    import contrast_suite as cs

    import claims.audit
    import claims.decision as decision
    from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder
    from claims.runtime import load_offline_models

    seen: dict[str, Any] = {}
    inputs, decide = decision.decision_inputs, decision.decide

    def recording_inputs(response_claims: Any, reference_claims: Any, similarity: Any, judgements: Any,
                         material: Any, idx: Any) -> Any:  # fmt: skip
        got = inputs(response_claims, reference_claims, similarity, judgements, material, idx)
        seen["inputs"] = (list(material), [judgements[i] for i in material], got)
        return got

    def recording_decide(*args: Any, **kwargs: Any) -> Any:
        out = decide(*args, **kwargs)
        seen["decided"] = [j.verdict.value for j in out]
        return out

    decision.decision_inputs = recording_inputs  # type: ignore[assignment]
    claims.audit.decide = recording_decide  # type: ignore[assignment]
    run_line = cs.batch.run_line
    records: list[dict[str, Any]] = []

    def recording_line(item: dict[str, Any], embedder: Any) -> dict[str, Any]:
        seen.clear()
        doc = run_line(item, embedder)
        material, judged, (x, found, verified) = seen.get("inputs", ([], [], (np.zeros((0, 0)), [], [])))
        records.append({
            "id": item["id"], "kind": item["kind"], "decided": seen.get("decided", []), "material": material,
            "rule": [j.verdict.value for j in judged], "finding": [j.finding for j in judged],
            "x": np.asarray(x, dtype=np.float64), "found": [bool(f) for f in found],
            "verified": [bool(v) for v in verified], "verdict": cs.verdict(doc),
        })  # fmt: skip
        return doc

    cs.batch.run_line = recording_line
    pairs = cs.load_pairs(
        shared / "data/factcheck_gpt/stance_dev.jsonl", shared / "data/wice/claims_dev.jsonl",
        shared / "cases/audits.jsonl", limit,
    )  # fmt: skip
    load_offline_models()
    items, _ = cs.build_items(pairs)
    cs.run(items, CachedEmbedder(default_embedder(), InMemoryEmbeddingCache()))
    return records


def contrast_records(shared: Path, path: Path | None, limit: int | None) -> list[dict[str, Any]]:
    """``record_contrast``, cached in ``path`` while the engine's digest holds."""
    digest = engine_digest()
    if path and path.exists():
        got = pickle.loads(path.read_bytes())
        if got["digest"] == digest and got["limit"] == limit:
            return list(got["records"])
    records = record_contrast(shared, limit)
    if path:
        path.write_bytes(pickle.dumps({"digest": digest, "limit": limit, "records": records}))
    return records


def source_groups(shared: Path, items: Sequence[tv.Item]) -> dict[str, str]:
    """Contrast pair id -> the group of its training item: "factcheck-<line>" is item "fc-<line>",
    "wice-<line>" item "wice-<line>", "cases-<line>" the case of that line of audits.jsonl."""
    out = {f"factcheck-{it.ident[3:]}": it.group for it in items if it.dataset == "factcheck"}
    out |= {it.ident: it.group for it in items if it.dataset == "wice"}
    for i, line in enumerate((shared / "cases/audits.jsonl").read_text().splitlines()):
        if line.strip():
            out[f"cases-{i}"] = json.loads(line)["id"]
    return out


# ---------------------------------------------------------------- candidates


@dataclass(frozen=True)
class Candidate:
    """A decision to measure: feature columns left out, L2 strength, standing findings."""

    drop: tuple[str, ...] = ()
    c: float = tv.C_REGULARISATION
    standing: frozenset[str] = field(default=STANDING_FINDINGS)

    def name(self) -> str:
        fams = [f for f, cols in ablate.FAMILIES.items() if set(cols) <= set(self.drop)]
        gone = sorted(STANDING_FINDINGS - self.standing)
        return f"C={self.c} -features:{','.join(fams) or '-'} -standing:{','.join(gone) or '-'}"


#: the standing findings tried (``claims.decision.STANDING_FINDINGS``, and without "rival")
STANDINGS = (STANDING_FINDINGS, STANDING_FINDINGS - {"rival"})


def candidates(cs: Sequence[float] = CS, max_drop: int = 2) -> list[Candidate]:
    """The fits of the grid: no family, or up to ``max_drop`` of ``DROPPABLE`` left out, x ``cs``;
    each is measured with every ``STANDINGS`` and rule margin."""
    from itertools import combinations

    sets = [()] + [s for k in range(1, max_drop + 1) for s in combinations(DROPPABLE, k)]
    out = []
    for fams in sets:
        drop = tuple(n for f in fams for n in ablate.FAMILIES[f])
        out.extend(Candidate(drop, c) for c in cs)
    return out


def fold_models(rows: Sequence[dict[str, Any]], cand: Candidate, folds: int, seed: int) -> tuple[
        list[tuple[np.ndarray, np.ndarray]], list[Any], np.ndarray]:  # fmt: skip
    """(splits, one fitted model per fold, out-of-fold balanced score per row)."""
    splits = tv.group_splits(rows, folds, seed)
    sub = tv.without_features(rows, cand.drop)
    score, models = np.full(len(rows), np.nan), []
    for train, test in splits:
        x, y, groups, datasets = tv.labelled(sub, train)
        model = tv.fit(x, y, groups, datasets, seed, cand.c)
        score[test] = model.scores(np.asarray([sub[i]["x"] for i in test], dtype=np.float64))[0]
        models.append(model)
    return splits, models, score


def dev_figures(items: Sequence[tv.Item], rows: Sequence[dict[str, Any]], score: np.ndarray, margin: float,
                standing: frozenset[str]) -> dict[str, float | None]:  # fmt: skip
    """Out-of-fold balanced accuracy per dev set (``train_verdict.claim_verdicts``, with
    ``standing`` as the standing findings)."""
    gone = STANDING_FINDINGS - standing
    view = [r | {"finding": None} if r.get("finding") in gone else r for r in rows]
    preds = tv.audit_predictions(view, tv.claim_verdicts(view, score, score, tv.rule_precision(rows), margin))
    return {d: tv._round(tv.balanced_accuracy(tv._pairs(items, preds, d))) for d in ("factcheck", "wice")}


def record_scores(records: Sequence[dict[str, Any]], fold_of: Sequence[int], models: Sequence[Any],
                  cand: Candidate) -> list[np.ndarray]:  # fmt: skip
    """The balanced score of every recorded material claim by the model of its record's fold."""
    keep = tv.kept_columns(cand.drop)
    out: list[np.ndarray] = [np.zeros(0)] * len(records)
    for k, model in enumerate(models):
        mine = [i for i, f in enumerate(fold_of) if f == k and records[i]["material"]]
        if not mine:
            continue
        x = np.concatenate([records[i]["x"][:, keep] for i in mine])
        s, at = model.scores(x)[0], 0
        for i in mine:
            n = len(records[i]["material"])
            out[i], at = s[at : at + n], at + n
    return out


def replay(records: Sequence[dict[str, Any]], scores: Sequence[np.ndarray], standing: frozenset[str],
           margin: float) -> list[str]:  # fmt: skip
    """The suite's verdict of every recorded audit with the balanced ``scores`` of its material
    claims (``record_scores``), ``margin`` and ``standing`` findings."""
    out = []
    for rec, s in zip(records, scores, strict=True):
        if not rec["material"] or rec["verdict"] == "failed":
            out.append(rec["verdict"])
            continue
        final = list(rec["decided"])
        for row, pos in enumerate(rec["material"]):
            final[pos] = decided_verdict(
                Verdict(rec["rule"][row]), rec["finding"][row], float(s[row]), tv.SUPPORT_THRESHOLD, margin,
                values_found=rec["found"][row], verified=rec["verified"][row], standing=standing,
            ).value  # fmt: skip
        out.append(AS_VERDICT[audit_label(final)])
    return out


def contrast_figures(records: Sequence[dict[str, Any]], verdicts: Sequence[str]) -> dict[str, Any]:
    """Per kind: edits, ``supported`` count (contrast kinds) or share kept (invariance kinds)."""
    import contrast_suite as cs

    kinds = cs.edits.KINDS
    original = {r["id"]: v for r, v in zip(records, verdicts, strict=True) if r["kind"] == "original"}
    out: dict[str, Any] = {}
    for r, v in zip(records, verdicts, strict=True):
        if r["kind"] == "original":
            continue
        fresh = {"family": kinds[r["kind"]].family, "edits": 0, "supported": 0, "kept": 0, "stated": 0,
                 "stated_supported": 0}  # fmt: skip
        e = out.setdefault(r["kind"], fresh)
        e["edits"] += 1
        e["supported"] += v == "supported"
        e["kept"] += v == original.get(r["id"])
        if original.get(r["id"]) == "supported":
            e["stated"] += 1
            e["stated_supported"] += v == "supported"
    return out


def measure(items: Sequence[tv.Item], rows: Sequence[dict[str, Any]], records: Sequence[dict[str, Any]],
            groups: dict[str, str], cand: Candidate, folds: int, seed: int,
            standings: Sequence[frozenset[str]] = ()) -> dict[tuple[frozenset[str], float], Any]:  # fmt: skip
    """Every figure of the candidate per (standing findings, rule margin): the fold models are
    fitted once (the standing findings change the decision, not the fit); ``standings``
    defaults to the candidate's own."""
    splits, models, score = fold_models(rows, cand, folds, seed)
    fold_of_group = {rows[i]["group"]: k for k, (_, test) in enumerate(splits) for i in test}
    fold_of = [fold_of_group.get(groups.get(r["id"], ""), 0) for r in records]
    scores = record_scores(records, fold_of, models, cand)
    out = {}
    for standing in standings or (cand.standing,):
        for margin in tv.RULE_MARGINS:
            out[(standing, margin)] = dev_figures(items, rows, score, margin, standing) | {
                "contrast": contrast_figures(records, replay(records, scores, standing, margin))
            }
    return out


def admissible(fig: dict[str, Any], base: dict[str, Any]) -> bool:
    """No contrast kind with more supported edits, no dev figure lower, than ``base``."""
    more = any(
        e["family"] == "contrast" and e["supported"] > base["contrast"][k]["supported"]
        for k, e in fig["contrast"].items()
    )
    lower = any((fig[d] or 0) < (base[d] or 0) for d in ("factcheck", "wice"))
    return not more and not lower


def choose(table: list[dict[str, Any]], base: dict[str, Any]) -> dict[str, Any] | None:
    """The admissible entry with the best mean dev figure; ties within ``TIE``: fewer features,
    then smaller C, then larger margin."""
    ok = [t for t in table if admissible(t["figures"], base)]
    if not ok:
        return None
    mean = lambda t: ((t["figures"]["factcheck"] or 0) + (t["figures"]["wice"] or 0)) / 2  # noqa: E731
    top = max(mean(t) for t in ok)
    tied = [t for t in ok if mean(t) >= top - TIE]
    return min(tied, key=lambda t: (-len(t["drop"]), t["C"], -t["margin"], -mean(t)))


def main() -> int:
    ap = tv.data_arguments(__doc__)
    ap.add_argument("--contrast", type=Path, help="pickle of the recorded contrast edits (made if missing)")
    ap.add_argument("--json", type=Path, help="write every candidate's figures here")
    ap.add_argument("--record-only", action="store_true", help="record the contrast edits and stop")
    ap.add_argument("--cs", type=float, nargs="+", default=CS, help="L2 strengths (inverse) tried")
    ap.add_argument("--max-drop", type=int, default=2, help="most DROPPABLE families left out together")
    args = ap.parse_args()
    np.random.seed(args.seed)
    # without --contrast the constraint is not measured: the grid is reported, nothing is chosen
    records = contrast_records(args.shared, args.contrast, args.limit) if args.contrast else []
    if args.record_only:
        return 0
    items = tv.load_items(args.shared, args.limit, args.synthetic, args.seed)
    rows = tv.build_rows(items, args.cache)
    groups = source_groups(args.shared, items)
    shipped = Candidate(tv.DROPPED_FEATURES, tv.C_REGULARISATION, STANDING_FINDINGS)
    base = measure(items, rows, records, groups, shipped, args.folds, args.seed)[(STANDING_FINDINGS, 0.0)]
    agree = np.mean([r["verdict"] == v for r, v in zip(records, replay_shipped(records), strict=True)] or [0])
    table = []
    for fit_cand in candidates(args.cs, args.max_drop):
        got = measure(items, rows, records, groups, fit_cand, args.folds, args.seed, STANDINGS)
        for (standing, margin), fig in got.items():
            cand = Candidate(fit_cand.drop, fit_cand.c, standing)
            entry = {"name": cand.name(), "drop": list(cand.drop), "C": cand.c, "margin": float(margin),
                     "standing": sorted(cand.standing), "figures": fig}  # fmt: skip
            table.append(entry)
            sup = " ".join(
                f"{k}={e['supported']}" for k, e in fig["contrast"].items() if e["family"] == "contrast"
            )
            print(f"{entry['name']} margin={margin} fc={fig['factcheck']} wice={fig['wice']} "
                  f"ok={admissible(fig, base)} {sup}", flush=True)  # fmt: skip
    best = choose(table, base) if records else None
    out = {
        "baseline": base,
        "replay_agreement_shipped_model": float(agree),
        "chosen": best,
        "candidates": table,
    }
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    print("baseline", base["factcheck"], base["wice"], "replay agreement", round(float(agree), 4))
    print("chosen", None if best is None else (best["name"], best["margin"], best["figures"]["factcheck"],
                                               best["figures"]["wice"]))  # fmt: skip
    return 0


def replay_shipped(records: Sequence[dict[str, Any]]) -> list[str]:
    """The recorded audits replayed with the shipped model file (must give the suite's verdicts:
    a check of the recording)."""
    from claims.decision import balanced_score, load_model

    model = load_model()
    assert model is not None
    scores = [balanced_score(r["x"], model) if r["material"] else np.zeros(0) for r in records]
    return replay(records, scores, STANDING_FINDINGS, model.rule_margin)


if __name__ == "__main__":
    sys.exit(main())
