"""Compare two runs of one suite item by item and claim by claim (pure: no database, no HTTP).

Items are matched by their id. For every item in both runs:

- score deltas (new − base) of ``SCORES``, with their distribution over the items;
- whether its verdict mix got worse: the share of contradicted claims, or of problem claims
  (contradicted + qualification_dropped + unsupported), among its material response claims rose;
- its response claims paired across the two runs: equal text first (case and spaces ignored),
  then the most similar remaining texts (``rapidfuzz`` ratio, optimal assignment) with a ratio of
  at least ``pair_min_similarity``; a pair whose verdict differs is a *changed claim* (both texts,
  both verdicts, reasons and best evidence), an unpaired new claim is *new*, an unpaired base claim
  *vanished*.

``Gate`` holds the limits a comparison may not cross (in percentage points or items), for a CLI
exit status or a quality-drop webhook; ``check_gate`` lists the crossed ones. One limit is the
run's own and needs no baseline: ``check_unscored`` lists it when too many of the run's items
were never scored (input lines rejected, audits failed).

Examples
--------
>>> a = ItemClaim(0, "The bridge opened in 1998.", "supported", "", "It opened in 1998.")
>>> b = ItemClaim(0, "The bridge opened in 1989.", "contradicted", "year 1989 ≠ 1998", "It opened in 1998.")
>>> base = [ItemOutcome("q1", "A", "done", {}, {"response_claims": 1, "supported": 1}, (a,))]
>>> new = [ItemOutcome("q1", "B", "done", {}, {"response_claims": 1, "contradicted": 1}, (b,))]
>>> diff = diff_runs(base, new)
>>> [(c.item_id, c.before.verdict, c.after.verdict) for c in diff.changed_claims]
[('q1', 'supported', 'contradicted')]
>>> check_gate(diff, Gate(problem_share_rise=None, worse_items_share=None))
['contradicted share rose by 100.0 points (limit 2.0)']
>>> len(check_gate(diff, Gate()))  # the default gate: the problem share and the worse items too
3
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from rapidfuzz import fuzz
from scipy.optimize import linear_sum_assignment

__all__ = [
    "SCORES",
    "PROBLEM_VERDICTS",
    "ItemClaim",
    "ItemOutcome",
    "ClaimChange",
    "ItemChange",
    "RunDiff",
    "Gate",
    "diff_runs",
    "pair_claims",
    "check_gate",
    "check_unscored",
    "LIMIT_RANGES",
    "limit_in_range",
]

#: Scores whose per-item deltas are compared.
SCORES: tuple[str, ...] = ("claim_precision", "claim_recall", "claim_f1", "claim_overlap")
#: Verdicts that count as a problem of the response.
PROBLEM_VERDICTS: tuple[str, ...] = ("contradicted", "qualification_dropped", "unsupported")
#: Default lowest rapidfuzz ratio (0-1) for two different claim texts to be the same claim.
PAIR_MIN_SIMILARITY = 0.6


@dataclass(frozen=True, slots=True)
class ItemClaim:
    """One response claim of an item: position, text, verdict, reason and best evidence text (or None)."""

    position: int
    text: str
    verdict: str
    reason: str
    evidence: str | None


@dataclass(frozen=True, slots=True)
class ItemOutcome:
    """One item of a run: id, audit id, audit status, scores (None: not scored), verdict counts
    (keys of the verdicts and ``response_claims``, the material ones) and response claims."""

    item_id: str
    audit_id: str | None
    status: str
    scores: Mapping[str, float | None]
    counts: Mapping[str, int]
    claims: tuple[ItemClaim, ...] = ()


@dataclass(frozen=True, slots=True)
class ClaimChange:
    """A claim of an item in one run or both (``before`` None: new claim; ``after`` None: vanished)."""

    item_id: str
    before: ItemClaim | None
    after: ItemClaim | None
    similarity: float | None = None


@dataclass(frozen=True, slots=True)
class ItemChange:
    """An item whose verdict mix got worse: shares (0-1, None with no material claim) before and after."""

    item_id: str
    before: Mapping[str, float | None]
    after: Mapping[str, float | None]


@dataclass(frozen=True, slots=True)
class RunDiff:
    """The comparison of a base run with a new run (see the module docstring).

    ``score_deltas[name]``: n (items with both scores), mean, median, min, max, p10, p90 of
    new − base (None when n is 0), improved / worsened / unchanged counts.
    ``shares[name]``: {"before", "after", "delta_points"} of the verdict shares over all
    material response claims of the items in both runs (None on zero claims).
    """

    items_compared: int
    items_added: tuple[str, ...]
    items_removed: tuple[str, ...]
    status_changed: tuple[tuple[str, str, str], ...]
    score_deltas: Mapping[str, Mapping[str, float | int | None]]
    shares: Mapping[str, Mapping[str, float | None]]
    worse_items: tuple[ItemChange, ...]
    changed_claims: tuple[ClaimChange, ...]
    new_claims: tuple[ClaimChange, ...]
    vanished_claims: tuple[ClaimChange, ...]


@dataclass(frozen=True, slots=True)
class Gate:
    """Limits of a comparison; None switches a limit off. Shares and scores in percentage points.

    The defaults (contradicted share +2.0, problem share +2.0 points, 2.0 % of the items worse)
    fail every measured night of the dev sets with one changed number, year or name in 20 % or
    10 % of the answers and pass identical reruns (docs/GATE.md, ``tools/gate_measure.py``).

    contradicted_share_rise  the contradicted share may rise by at most this many points
    problem_share_rise       the problem share (contradicted + qualification_dropped + unsupported)
    f1_drop                  the mean claim_f1 delta may fall by at most this many points
    precision_drop           the mean claim_precision delta likewise
    worse_items              at most this many items may get a worse verdict mix
    worse_items_share        at most this per cent of the compared items may get a worse mix
    unscored_items_share     at most this per cent of the run's own items may be unscored (a
                             rejected input line or a failed audit); checked with or without a
                             baseline (``check_unscored``)
    """

    contradicted_share_rise: float | None = 2.0
    problem_share_rise: float | None = 2.0
    f1_drop: float | None = None
    precision_drop: float | None = None
    worse_items: int | None = None
    worse_items_share: float | None = 2.0
    unscored_items_share: float | None = 2.0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, *, check_range: bool = True) -> Gate:
        """A gate from a JSON object (missing keys keep their defaults); ValueError names a bad key.

        Every limit is a finite number ≥ 0 or null; with ``check_range`` (what a caller gives)
        also within ``LIMIT_RANGES``: a share or score limit in per cent or points at most 100,
        ``worse_items`` a whole number. A gate stored before the ranges were checked is read with
        ``check_range=False`` (a share limit over 100 then never crosses, as it never did)."""
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in (data or {}).items():
            if key not in known:
                raise ValueError(f"gate.{key}: unknown limit (known: {', '.join(sorted(known))})")
            ok = value is None or (
                isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
            )
            if not ok or (value is not None and value < 0):
                raise ValueError(
                    f"gate.{key}: must be a finite number ≥ 0{_range_note(key)} or null, got {value!r}"
                )
            if check_range and value is not None:
                limit_in_range(key, value)
            values[key] = value
        return cls(**values)

    def to_dict(self) -> dict[str, float | int | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: The range of each limit of a ``Gate`` a caller may give: ``(lowest, highest, what it is)``;
#: a highest of None is no upper bound. Shares are per cent of items or material claims and
#: scores are points of a 0-1 score times 100, so no rise, drop or share exceeds 100.
LIMIT_RANGES: dict[str, tuple[float, float | None, str]] = {
    "contradicted_share_rise": (0.0, 100.0, "percentage points"),
    "problem_share_rise": (0.0, 100.0, "percentage points"),
    "f1_drop": (0.0, 100.0, "points (claim_f1 x 100)"),
    "precision_drop": (0.0, 100.0, "points (claim_precision x 100)"),
    "worse_items": (0.0, None, "items"),
    "worse_items_share": (0.0, 100.0, "per cent of the compared items"),
    "unscored_items_share": (0.0, 100.0, "per cent of the run's items"),
}


def _range_note(key: str) -> str:
    """ ", at most 100 (per cent of the run's items)" / ", a whole number (items)" for ``key``'s
    range in ``LIMIT_RANGES``; "" for a key without one."""
    if key not in LIMIT_RANGES:
        return ""
    _, high, unit = LIMIT_RANGES[key]
    return f", a whole number ({unit})" if high is None else f", at most {high:g} ({unit})"


def limit_in_range(key: str, value: float) -> None:
    """Raise ``ValueError`` naming ``gate.<key>`` when ``value`` is outside ``LIMIT_RANGES[key]``
    (``worse_items`` must also be a whole number); a key without a range passes.

    >>> limit_in_range("unscored_items_share", 2.0)
    >>> limit_in_range("unscored_items_share", 500)
    Traceback (most recent call last):
    ...
    ValueError: gate.unscored_items_share: must be between 0 and 100 (per cent of the run's items), got 500
    """
    if key not in LIMIT_RANGES:
        return
    low, high, unit = LIMIT_RANGES[key]
    if high is None:
        if value < low or value != int(value):
            raise ValueError(f"gate.{key}: must be a whole number ≥ {low:g} ({unit}), got {value!r}")
    elif not low <= value <= high:
        raise ValueError(f"gate.{key}: must be between {low:g} and {high:g} ({unit}), got {value!r}")


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def pair_claims(
    before: Sequence[ItemClaim],
    after: Sequence[ItemClaim],
    *,
    pair_min_similarity: float = PAIR_MIN_SIMILARITY,
) -> tuple[list[tuple[int, int, float]], list[int], list[int]]:
    """Pair two claim lists: ``(pairs (i, j, similarity 0-1), unpaired i, unpaired j)``.

    Equal normalised texts pair first, in order; the rest by optimal assignment on the rapidfuzz
    ratio, keeping pairs with similarity ≥ ``pair_min_similarity``.
    """
    free_a, free_b = list(range(len(before))), list(range(len(after)))
    pairs: list[tuple[int, int, float]] = []
    for i in list(free_a):
        j = next((j for j in free_b if _norm(after[j].text) == _norm(before[i].text)), None)
        if j is not None:
            pairs.append((i, j, 1.0))
            free_a.remove(i)
            free_b.remove(j)
    if free_a and free_b:
        sim = np.array(
            [[fuzz.ratio(_norm(before[i].text), _norm(after[j].text)) / 100 for j in free_b] for i in free_a]
        )
        rows, cols = linear_sum_assignment(-sim)
        taken = [(free_a[r], free_b[c], float(sim[r, c])) for r, c in zip(rows, cols, strict=True)]
        taken = [p for p in taken if p[2] >= pair_min_similarity]
        pairs += taken
        free_a = [i for i in free_a if i not in {p[0] for p in taken}]
        free_b = [j for j in free_b if j not in {p[1] for p in taken}]
    return sorted(pairs), free_a, free_b


def _shares(counts: Mapping[str, int]) -> dict[str, float | None]:
    material = int(counts.get("response_claims", 0))
    contradicted = int(counts.get("contradicted", 0))
    problem = sum(int(counts.get(v, 0)) for v in PROBLEM_VERDICTS)
    return {
        "contradicted": contradicted / material if material else None,
        "problem": problem / material if material else None,
    }


def _rose(before: float | None, after: float | None) -> bool:
    return after is not None and after - (before or 0.0) > 1e-12


def _distribution(deltas: list[float]) -> dict[str, float | int | None]:
    arr = np.asarray(deltas, dtype=np.float64)
    stats: dict[str, float | int | None] = {"n": len(deltas)}
    for name, fn in (("mean", np.mean), ("median", np.median), ("min", np.min), ("max", np.max)):
        stats[name] = float(fn(arr)) if len(arr) else None
    for q in (10, 90):
        stats[f"p{q}"] = float(np.percentile(arr, q)) if len(arr) else None
    improved, worsened = int((arr > 1e-12).sum()), int((arr < -1e-12).sum())
    stats.update(improved=improved, worsened=worsened, unchanged=len(deltas) - improved - worsened)
    return stats


def _total_shares(items: Sequence[ItemOutcome]) -> dict[str, float | None]:
    totals: dict[str, int] = {}
    for item in items:
        for key, value in item.counts.items():
            totals[key] = totals.get(key, 0) + int(value)
    return _shares(totals)


def diff_runs(
    base: Sequence[ItemOutcome],
    new: Sequence[ItemOutcome],
    *,
    pair_min_similarity: float = PAIR_MIN_SIMILARITY,
) -> RunDiff:
    """Compare ``new`` with ``base`` (see the module docstring); items matched by ``item_id``."""
    by_id = {item.item_id: item for item in base}
    new_ids = {item.item_id for item in new}
    both = [(by_id[item.item_id], item) for item in new if item.item_id in by_id]
    deltas: dict[str, list[float]] = {name: [] for name in SCORES}
    worse, changed, added, vanished, status_changed = [], [], [], [], []
    for a, b in both:
        if a.status != b.status:
            status_changed.append((a.item_id, a.status, b.status))
        for name in SCORES:
            va, vb = a.scores.get(name), b.scores.get(name)
            if va is not None and vb is not None:
                deltas[name].append(float(vb) - float(va))
        sa, sb = _shares(a.counts), _shares(b.counts)
        if _rose(sa["contradicted"], sb["contradicted"]) or _rose(sa["problem"], sb["problem"]):
            worse.append(ItemChange(a.item_id, sa, sb))
        pairs, gone, came = pair_claims(a.claims, b.claims, pair_min_similarity=pair_min_similarity)
        for i, j, sim in pairs:
            if a.claims[i].verdict != b.claims[j].verdict:
                changed.append(ClaimChange(a.item_id, a.claims[i], b.claims[j], sim))
        vanished += [ClaimChange(a.item_id, a.claims[i], None) for i in gone]
        added += [ClaimChange(a.item_id, None, b.claims[j]) for j in came]
    before, after = _total_shares([p[0] for p in both]), _total_shares([p[1] for p in both])
    shares = {
        name: {
            "before": before[name],
            "after": after[name],
            "delta_points": None
            if before[name] is None or after[name] is None
            else 100 * (after[name] - before[name]),  # type: ignore[operator]
        }
        for name in before
    }
    return RunDiff(
        items_compared=len(both),
        items_added=tuple(item.item_id for item in new if item.item_id not in by_id),
        items_removed=tuple(item.item_id for item in base if item.item_id not in new_ids),
        status_changed=tuple(status_changed),
        score_deltas={name: _distribution(values) for name, values in deltas.items()},
        shares=shares,
        worse_items=tuple(worse),
        changed_claims=tuple(changed),
        new_claims=tuple(added),
        vanished_claims=tuple(vanished),
    )


def check_gate(diff: RunDiff, gate: Gate) -> list[str]:
    """The limits of ``gate`` that ``diff`` crossed, as readable messages (empty: the gate holds).

    A comparison in which no item of the new run matches an item of the base run (their ids
    differ: the input changed, or lines were numbered differently) compares nothing, so it
    crosses the gate: a gate that holds must have compared something."""
    crossed: list[str] = []
    if diff.items_compared == 0 and diff.items_removed:
        crossed.append(
            f"no item matches an item of the baseline ({len(diff.items_added)} new, "
            f"{len(diff.items_removed)} gone): nothing was compared"
        )
    for name, limit in (("contradicted", gate.contradicted_share_rise), ("problem", gate.problem_share_rise)):
        rise = diff.shares[name]["delta_points"]
        if limit is not None and rise is not None and rise > limit:
            crossed.append(f"{name} share rose by {rise:.1f} points (limit {limit})")
    for score, limit in (("claim_f1", gate.f1_drop), ("claim_precision", gate.precision_drop)):
        mean = diff.score_deltas[score]["mean"]
        if limit is not None and mean is not None and -100 * float(mean) > limit:
            crossed.append(f"mean {score} fell by {-100 * float(mean):.1f} points (limit {limit})")
    if gate.worse_items is not None and len(diff.worse_items) > gate.worse_items:
        crossed.append(f"{len(diff.worse_items)} items got a worse verdict mix (limit {gate.worse_items})")
    share = 100 * len(diff.worse_items) / diff.items_compared if diff.items_compared else None
    if gate.worse_items_share is not None and share is not None and share > gate.worse_items_share:
        crossed.append(f"{share:.1f}% of the items got a worse verdict mix (limit {gate.worse_items_share}%)")
    return crossed


def check_unscored(items: int, rejected: int, failed: int, gate: Gate) -> list[str]:
    """The run's own limit of ``gate`` that it crossed, as a readable message (empty: it holds).

    ``items``: the run's items, rejected input lines included (``summary["items"]``, >= 0);
    ``rejected``, ``failed``: how many of them were rejected or ended ``failed``. Unscored items
    are a share of ``items`` in per cent, compared with ``gate.unscored_items_share``; a run of
    no items scored nothing and crosses it. A run that scored 1 of 9 lines has compared almost
    nothing, whatever its comparison with a baseline says.

    >>> check_unscored(9, 8, 0, Gate())
    ['8 of 9 items were not scored (8 rejected, 0 failed): 88.9% (limit 2.0%)']
    >>> check_unscored(100, 1, 1, Gate())
    []
    """
    limit = gate.unscored_items_share
    if limit is None:
        return []
    if items <= 0:
        return ["the run has no items: nothing was scored"]
    unscored = rejected + failed
    if 100 * unscored / items <= limit:
        return []
    return [
        f"{unscored} of {items} items were not scored ({rejected} rejected, {failed} failed): "
        f"{100 * unscored / items:.1f}% (limit {limit}%)"
    ]
