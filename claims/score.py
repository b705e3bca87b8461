"""Audit scores and the claim edit script.

One function, ``score_audit``, computes every score into an ``AuditResult``; thin wrappers
return single scores. Only ``material`` claims enter any numerator or denominator
(``outside_scope`` claims are counted apart). A score whose denominator is zero is ``None``,
never NaN and never a default 0 or 1.

Definitions (n = material response claims, m = material reference claims):

claim_overlap
    Seed post: share of response claims whose best cosine against the reference claims is
    ``>= threshold``. ``#{i : max_j cos(i, j) >= t} / n``; [0, 1], best 1. ``None`` if n = 0.
    With m = 0 no response claim is matched: 0.0.
claim_similarity
    Seed post: mean over response claims of the best cosine, clipped to [0, 1]; best 1.
    ``None`` if n = 0 or m = 0 (the best cosine of an empty set is undefined).
claim_precision
    FActScore (Min et al. 2023): ``(supported + inferred) / n``; [0, 1], best 1.
claim_recall
    ``#{reference claims cited as support by a supported/inferred response claim} / m``;
    [0, 1], best 1.
claim_f1
    ``2 P R / (P + R)``; ``None`` if P or R is ``None``; 0.0 when P = R = 0 (the harmonic mean
    of two zeros; both denominators of P and R are non-zero there).
claim_edit_distance
    ``S + D + I`` (int >= 0, best 0): S = response claims aligned one-to-one (Hungarian,
    ``claims.match.align``) to a reference claim but contradicted or qualification_dropped;
    D = unsupported response claims (and substitutions left without a free reference claim);
    I = material reference claims neither covered by support nor used by a substitution.
    ``None`` if n + m = 0.
normalized_claim_edit_distance
    ``(S + D + I) / (K + S + D + I)`` with K = supported + inferred response claims; [0, 1],
    best 0; ``None`` if the denominator is 0.
levenshtein_similarity, normalized_levenshtein_distance
    See ``claims.levenshtein`` (closest reference, seed SDK options).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from claims.levenshtein import levenshtein
from claims.match import DEFAULT_THRESHOLD, align
from claims.types import (
    COUNT_NAMES,
    SUPPORTING,
    AuditResult,
    AuditScores,
    Claim,
    ClaimKind,
    EditOp,
    Judgement,
    MatchSummary,
    ReferenceClaim,
    Verdict,
)

__all__ = [
    "COUNT_NAMES",
    "MatchSummary",
    "match_summary",
    "claim_edit_script",
    "claim_f1",
    "claim_overlap",
    "claim_precision",
    "claim_recall",
    "claim_similarity",
    "score_audit",
]


def _material_rows(claims: Sequence[Claim]) -> list[int]:
    return [i for i, c in enumerate(claims) if c.kind is ClaimKind.MATERIAL]


def _material_cols(reference_claims: Sequence[ReferenceClaim]) -> list[int]:
    return [j for j, rc in enumerate(reference_claims) if rc.claim.kind is ClaimKind.MATERIAL]


def _best_cosines(similarity: np.ndarray, rows: list[int], cols: list[int]) -> np.ndarray | None:
    if not rows or not cols:
        return None
    sim = np.asarray(similarity, dtype=np.float64)[np.ix_(rows, cols)]
    best: np.ndarray = sim.max(axis=1)
    return best


def match_summary(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
    similarity: np.ndarray,
) -> MatchSummary:
    """The :class:`MatchSummary` of an audit from its cosine matrix and final judgements.

    Raises ``ValueError`` if ``similarity`` does not have shape
    ``(len(response_claims), len(reference_claims))``.

    >>> from claims.types import Claim, ReferenceClaim
    >>> r = [Claim("a", 0, 1), Claim("b", 2, 3)]
    >>> f = [ReferenceClaim(0, Claim("a", 0, 1)), ReferenceClaim(0, Claim("c", 2, 3))]
    >>> match_summary(r, f, [], np.array([[0.9, 0.1], [0.3, 0.5]])).best
    (0.9, 0.5)
    """
    sim = _checked(similarity, response_claims, reference_claims)
    cols = _material_cols(reference_claims)
    if cols and len(response_claims):
        best: tuple[float | None, ...] = tuple(float(b) for b in sim[:, cols].max(axis=1))
    else:
        best = (None,) * len(response_claims)
    return MatchSummary(best, _substitutions(response_claims, reference_claims, judgements, sim))


def _checked(
    similarity: np.ndarray, response_claims: Sequence[Claim], reference_claims: Sequence[ReferenceClaim]
) -> np.ndarray:
    sim = np.asarray(similarity, dtype=np.float64)
    if sim.shape != (len(response_claims), len(reference_claims)):
        raise ValueError(
            f"similarity has shape {sim.shape}, expected ({len(response_claims)}, {len(reference_claims)})"
        )
    return sim


def _summary_best(summary: MatchSummary, rows: list[int]) -> np.ndarray | None:
    """The best cosines of ``rows`` as ``_best_cosines`` gives them (float64, in row order)."""
    if not rows or summary.best[rows[0]] is None:
        return None
    return np.array([summary.best[i] for i in rows], dtype=np.float64)


def _overlap(best: np.ndarray | None, rows: list[int], threshold: float) -> float | None:
    if not rows:
        return None
    if best is None:
        return 0.0
    return float(np.count_nonzero(best >= threshold - 1e-9)) / len(rows)


def _similarity(best: np.ndarray | None) -> float | None:
    if best is None:
        return None
    return float(min(1.0, max(0.0, float(best.mean()))))


def claim_overlap(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> float | None:
    """Share of material response claims whose best cosine is ``>= threshold`` (seed post).

    Parameters
    ----------
    similarity : ndarray, shape (len(response_claims), len(reference_claims))
        Cosines in [-1, 1].

    Returns
    -------
    float in [0, 1] (best 1), or ``None`` when there is no material response claim.

    Examples
    --------
    >>> from claims.types import Claim, ReferenceClaim
    >>> r = [Claim("a", 0, 1), Claim("b", 2, 3)]
    >>> f = [ReferenceClaim(0, Claim("a", 0, 1))]
    >>> claim_overlap(r, f, np.array([[0.9], [0.3]]), threshold=0.75)  # 1 of 2 rows >= 0.75
    0.5
    """
    rows = _material_rows(response_claims)
    return _overlap(_best_cosines(similarity, rows, _material_cols(reference_claims)), rows, threshold)


def claim_similarity(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
) -> float | None:
    """Mean best cosine of the material response claims, clipped to [0, 1] (seed post).

    Returns ``None`` when there is no material response or reference claim.

    Examples
    --------
    >>> from claims.types import Claim, ReferenceClaim
    >>> r = [Claim("a", 0, 1), Claim("b", 2, 3)]
    >>> f = [ReferenceClaim(0, Claim("a", 0, 1))]
    >>> round(claim_similarity(r, f, np.array([[0.9], [0.3]])), 6)  # (0.9 + 0.3) / 2
    0.6
    """
    return _similarity(
        _best_cosines(similarity, _material_rows(response_claims), _material_cols(reference_claims))
    )


def _judged(judgements: Sequence[Judgement], response_claims: Sequence[Claim]) -> list[Judgement]:
    return [
        j
        for j in judgements
        if 0 <= j.response_index < len(response_claims)
        and response_claims[j.response_index].kind is ClaimKind.MATERIAL
        and j.verdict is not Verdict.OUTSIDE_SCOPE
    ]


def claim_precision(response_claims: Sequence[Claim], judgements: Sequence[Judgement]) -> float | None:
    """FActScore precision: ``(supported + inferred) / material response claims``.

    Returns a float in [0, 1] (best 1), or ``None`` when there is no material response claim.

    Examples
    --------
    >>> from claims.types import Claim, Judgement, Verdict
    >>> r = [Claim("a", 0, 1), Claim("b", 2, 3)]
    >>> claim_precision(r, [Judgement(0, Verdict.SUPPORTED), Judgement(1, Verdict.UNSUPPORTED)])
    0.5
    """
    n = len(_material_rows(response_claims))
    if n == 0:
        return None
    ok = sum(1 for j in _judged(judgements, response_claims) if j.verdict in SUPPORTING)
    return ok / n


def _covered(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
) -> frozenset[int]:
    cols = set(_material_cols(reference_claims))
    covered: set[int] = set()
    for j in _judged(judgements, response_claims):
        if j.verdict in SUPPORTING:
            covered.update(e.claim_index for e in j.evidence if e.claim_index in cols)
    return frozenset(covered)


def claim_recall(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
) -> float | None:
    """Share of material reference claims cited as support by a supported/inferred response claim.

    Returns a float in [0, 1] (best 1), or ``None`` when there is no material reference claim.

    Examples
    --------
    >>> from claims.types import Claim, Evidence, Judgement, ReferenceClaim, Verdict
    >>> r = [Claim("a", 0, 1)]
    >>> f = [ReferenceClaim(0, Claim("a", 0, 1)), ReferenceClaim(0, Claim("b", 2, 3))]
    >>> ev = (Evidence(0, 0, 0, 1, "a", 1.0),)
    >>> claim_recall(r, f, [Judgement(0, Verdict.SUPPORTED, ev)])  # 1 of 2 reference claims
    0.5
    """
    m = len(_material_cols(reference_claims))
    if m == 0:
        return None
    return len(_covered(response_claims, reference_claims, judgements)) / m


def claim_f1(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean ``2 P R / (P + R)``; ``None`` if either is ``None``; 0.0 if both are 0.

    >>> claim_f1(1.0, 0.5)  # 2 * 0.5 / 1.5
    0.6666666666666666
    """
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def _substitutions(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
    sim: np.ndarray,
) -> dict[int, int]:
    """The edit script's one-to-one pairing (response index -> reference index) of each
    contradicted / qualification_dropped response claim with a material reference claim not
    covered by support (Hungarian, ``claims.match.align``, on the cosines, the claim's own first
    evidence strongly preferred)."""
    cols = _material_cols(reference_claims)
    covered = _covered(response_claims, reference_claims, judgements)
    judged = sorted(_judged(judgements, response_claims), key=lambda j: j.response_index)
    subs = [j for j in judged if j.verdict in (Verdict.CONTRADICTED, Verdict.QUALIFICATION_DROPPED)]
    free = [c for c in cols if c not in covered]
    pairing: dict[int, int] = {}
    if subs and free:
        score = np.zeros((len(subs), len(free)), dtype=np.float64)
        for a, j in enumerate(subs):
            first = j.evidence[0].claim_index if j.evidence else -1
            for b, c in enumerate(free):
                s = sim[j.response_index, c] if sim.size else 0.0
                score[a, b] = s + (10.0 if c == first else 0.0)
        for a, b in align(score):
            pairing[subs[a].response_index] = free[b]
    return pairing


def claim_edit_script(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
    similarity: np.ndarray | MatchSummary,
) -> tuple[tuple[EditOp, ...], dict[str, int]]:
    """The ordered claim edit script turning the response's claims into the references'.

    Substitutions pair each contradicted / qualification_dropped response claim one-to-one
    with a reference claim (Hungarian alignment, ``claims.match.align``, on the cosines, with
    the claim's own first evidence strongly preferred); unsupported claims are deleted;
    material reference claims neither covered by support nor substituted are inserted.
    Operations come in response order, then the inserts in reference order.

    ``similarity``: the cosine matrix, or the audit's :class:`MatchSummary` (its pairing).

    Returns
    -------
    (ops, tally) where ``tally`` has keys ``kept``, ``substituted``, ``deleted``, ``inserted``.
    """
    if isinstance(similarity, MatchSummary):
        pairing = dict(similarity.substitutes)
    else:
        sim = np.asarray(similarity, dtype=np.float64)
        pairing = _substitutions(response_claims, reference_claims, judgements, sim)
    cols = _material_cols(reference_claims)
    covered = _covered(response_claims, reference_claims, judgements)
    judged = sorted(_judged(judgements, response_claims), key=lambda j: j.response_index)
    ops: list[EditOp] = []
    tally = {"kept": 0, "substituted": 0, "deleted": 0, "inserted": 0}
    for j in judged:
        i = j.response_index
        if j.verdict in SUPPORTING:
            tally["kept"] += 1
        elif i in pairing:
            tally["substituted"] += 1
            what = j.change or j.reason
            ops.append(EditOp("substitute", i, pairing[i], f"{j.verdict.value}: {what}"))
        else:
            tally["deleted"] += 1
            ops.append(EditOp("delete", i, None, f"{j.verdict.value}: {j.reason}".rstrip(": ")))
    used = set(pairing.values())
    for c in cols:
        if c not in covered and c not in used:
            tally["inserted"] += 1
            rc = reference_claims[c]
            ops.append(
                EditOp(
                    "insert",
                    None,
                    c,
                    f"reference {rc.reference} claim not covered by the response "
                    f"(chars {rc.claim.start}–{rc.claim.end})",
                )
            )
    return tuple(ops), tally


def score_audit(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    judgements: Sequence[Judgement],
    similarity: np.ndarray | MatchSummary,
    *,
    response_text: str,
    reference_texts: Sequence[str],
    threshold: float = DEFAULT_THRESHOLD,
    case_insensitive: bool = False,
    remove_punctuation: bool = False,
) -> AuditResult:
    """Every score, the counts and the edit script of one audit.

    Parameters
    ----------
    response_claims : sequence of Claim
        All response claims (outside_scope ones included; they are counted apart).
    reference_claims : sequence of ReferenceClaim
        The flat list of reference claims (indices match ``similarity``'s columns).
    judgements : sequence of Judgement
        ``claims.verdict.judge``'s output, one per response claim.
    similarity : ndarray, float, shape (len(response_claims), len(reference_claims)), or MatchSummary
        Cosines in [-1, 1], or what the scores read of them (:func:`match_summary`, stored by
        the match stage): the result is the same.
    response_text, reference_texts : str, sequence of str, keyword-only
        Raw texts for the Levenshtein scores.
    threshold : float, keyword-only
        Cosine threshold of claim_overlap.
    case_insensitive, remove_punctuation : bool, keyword-only
        Levenshtein options (seed SDK).

    Returns
    -------
    AuditResult
        Scores as defined in the module docstring (``None`` for a zero denominator), counts
        with keys ``COUNT_NAMES``, the edit script and the covered reference claim indices.

    Raises
    ------
    ValueError
        If ``similarity`` does not have shape ``(len(response_claims), len(reference_claims))``,
        or a summary does not have one best cosine per response claim.

    Examples
    --------
    >>> from claims.types import Claim, Evidence, Judgement, ReferenceClaim, Verdict
    >>> r = [Claim("a", 0, 1)]
    >>> f = [ReferenceClaim(0, Claim("a", 0, 1))]
    >>> j = [Judgement(0, Verdict.SUPPORTED, (Evidence(0, 0, 0, 1, "a", 1.0),))]
    >>> res = score_audit(r, f, j, np.array([[1.0]]), response_text="a", reference_texts=["a"])
    >>> (res.scores.claim_precision, res.scores.claim_recall, res.scores.claim_edit_distance)
    (1.0, 1.0, 0)
    """
    if isinstance(similarity, MatchSummary):
        summary = similarity
        if len(summary.best) != len(response_claims):
            raise ValueError(f"summary has {len(summary.best)} best cosines, expected {len(response_claims)}")
    else:
        summary = match_summary(response_claims, reference_claims, judgements, similarity)
    rows = _material_rows(response_claims)
    cols = _material_cols(reference_claims)
    judged = _judged(judgements, response_claims)
    counts = dict.fromkeys(COUNT_NAMES, 0)
    counts["response_claims"] = len(rows)
    counts["reference_claims"] = len(cols)
    counts["outside_scope"] = len(response_claims) - len(rows)
    for j in judged:
        counts[j.verdict.value] += 1

    precision = claim_precision(response_claims, judgements)
    recall = claim_recall(response_claims, reference_claims, judgements)
    ops, tally = claim_edit_script(response_claims, reference_claims, judgements, summary)
    best = _summary_best(summary, rows)
    distance = tally["substituted"] + tally["deleted"] + tally["inserted"]
    total = distance + tally["kept"]
    lev = levenshtein(
        response_text,
        reference_texts,
        case_insensitive=case_insensitive,
        remove_punctuation=remove_punctuation,
    )
    scores = AuditScores(
        claim_overlap=_overlap(best, rows, threshold),
        claim_similarity=_similarity(best),
        claim_precision=precision,
        claim_recall=recall,
        claim_f1=claim_f1(precision, recall),
        claim_edit_distance=distance if (rows or cols) else None,
        normalized_claim_edit_distance=(distance / total) if total else None,
        levenshtein_similarity=lev.similarity,
        normalized_levenshtein_distance=lev.normalized_distance,
    )
    return AuditResult(
        scores=scores,
        counts=counts,
        edit_script=ops,
        covered_reference=_covered(response_claims, reference_claims, judgements),
    )
