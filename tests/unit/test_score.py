"""Scores and the claim edit script, on hand-made claims, judgements and cosine matrices.

Every expected number is derived in the comment next to it from the definitions in
``claims.score`` (seed post for overlap/similarity, FActScore for precision).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from claims.score import (
    claim_f1,
    claim_overlap,
    claim_precision,
    claim_recall,
    claim_similarity,
    match_summary,
    score_audit,
)
from claims.types import (
    AuditResult,
    Claim,
    ClaimKind,
    Evidence,
    Judgement,
    MatchSummary,
    ReferenceClaim,
    Verdict,
)

S, INF, C, Q, U, OUT = (
    Verdict.SUPPORTED,
    Verdict.INFERRED,
    Verdict.CONTRADICTED,
    Verdict.QUALIFICATION_DROPPED,
    Verdict.UNSUPPORTED,
    Verdict.OUTSIDE_SCOPE,
)


def _claims(n: int, outside: tuple[int, ...] = ()) -> list[Claim]:
    return [
        Claim(f"r{i}", 0, 2, ClaimKind.OUTSIDE_SCOPE if i in outside else ClaimKind.MATERIAL, position=i)
        for i in range(n)
    ]


def _refs(m: int) -> list[ReferenceClaim]:
    return [ReferenceClaim(0, Claim(f"f{j}", 0, 2, position=j)) for j in range(m)]


def _j(i: int, v: Verdict, *cols: int) -> Judgement:
    ev = tuple(Evidence(0, c, 0, 2, f"f{c}", 0.9) for c in cols)
    return Judgement(i, v, ev, "reason", "a → b" if v in (C, Q) else None)


def _score(
    resp: list[Claim], refs: list[ReferenceClaim], js: list[Judgement], sim: np.ndarray | MatchSummary
) -> AuditResult:
    return score_audit(resp, refs, js, sim, response_text="abc", reference_texts=["abd"], threshold=0.75)


# (name, n response, outside-scope rows, m reference, judgements, similarity, expected scores/counts)
CASES = [
    (
        # 2 supported of 2 -> precision 2/2; both references cited -> recall 2/2; nothing to edit
        "all supported",
        2,
        (),
        2,
        [_j(0, S, 0), _j(1, S, 1)],
        [[0.9, 0.1], [0.2, 0.8]],
        {
            "claim_precision": 1.0,
            "claim_recall": 1.0,
            "claim_f1": 1.0,
            "claim_edit_distance": 0,
            "normalized_claim_edit_distance": 0.0,
            "claim_overlap": 1.0,
            "claim_similarity": 0.85,
        },
    ),
    (
        # precision 1/2 (one unsupported); recall 1/2 (f1 never cited); F1 = 2*.5*.5/1 = .5;
        # edit: delete r1 + insert f1 = 2 over kept 1 + 2 = 3; overlap: best cosines 0.9, 0.5 -> 1/2
        "one unsupported, one missing",
        2,
        (),
        2,
        [_j(0, S, 0), _j(1, U, 0)],
        [[0.9, 0.1], [0.5, 0.3]],
        {
            "claim_precision": 0.5,
            "claim_recall": 0.5,
            "claim_f1": 0.5,
            "claim_edit_distance": 2,
            "normalized_claim_edit_distance": 2 / 3,
            "claim_overlap": 0.5,
            "claim_similarity": 0.7,
        },
    ),
    (
        # contradicted r0 aligned with its evidence f0: 1 substitution; f1 not covered: 1 insert
        # -> distance 2 over 0 kept + 1 + 0 + 1 = 2 -> 1.0; precision 0/1, recall 0/2, F1 0
        "contradiction",
        1,
        (),
        2,
        [_j(0, C, 0)],
        [[0.92, 0.3]],
        {
            "claim_precision": 0.0,
            "claim_recall": 0.0,
            "claim_f1": 0.0,
            "claim_edit_distance": 2,
            "normalized_claim_edit_distance": 1.0,
        },
    ),
    (
        # inferred from f0+f1 covers both -> recall 2/2; qualification_dropped r1 has no free
        # reference claim left -> counted as a delete; distance 1 over kept 1 + deleted 1 = 1/2
        "inferred plus dropped qualifier",
        2,
        (),
        2,
        [_j(0, INF, 0, 1), _j(1, Q, 0)],
        [[0.7, 0.7], [0.8, 0.1]],
        {
            "claim_precision": 0.5,
            "claim_recall": 1.0,
            "claim_edit_distance": 1,
            "normalized_claim_edit_distance": 0.5,
        },
    ),
    (
        # outside_scope row excluded from every denominator: precision 1/1, overlap 1/1 although
        # the outside-scope row's cosine (0.1) is below the threshold
        "outside scope excluded",
        2,
        (1,),
        1,
        [_j(0, S, 0), Judgement(1, OUT)],
        [[0.9], [0.1]],
        {"claim_precision": 1.0, "claim_recall": 1.0, "claim_overlap": 1.0, "claim_similarity": 0.9},
    ),
    (
        # no response claim: precision, overlap, similarity None; recall 0/1; F1 None (P None);
        # edit distance = 1 insert over 1
        "empty response",
        0,
        (),
        1,
        [],
        np.zeros((0, 1)),
        {
            "claim_precision": None,
            "claim_overlap": None,
            "claim_similarity": None,
            "claim_recall": 0.0,
            "claim_f1": None,
            "claim_edit_distance": 1,
            "normalized_claim_edit_distance": 1.0,
        },
    ),
    (
        # only outside-scope claims: same as empty for the denominators
        "no factual claims",
        1,
        (0,),
        1,
        [Judgement(0, OUT)],
        [[0.2]],
        {"claim_precision": None, "claim_overlap": None, "claim_f1": None},
    ),
    (
        # negative cosines: mean best cosine -0.3 clipped to 0.0
        "negative cosine clipped",
        1,
        (),
        1,
        [_j(0, U)],
        [[-0.3]],
        {"claim_similarity": 0.0, "claim_overlap": 0.0, "claim_precision": 0.0},
    ),
]


@pytest.mark.parametrize(
    ("name", "n", "outside", "m", "js", "sim", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_score_table(
    name: str,
    n: int,
    outside: tuple[int, ...],
    m: int,
    js: list[Judgement],
    sim: object,
    expected: dict[str, object],
) -> None:
    res = _score(_claims(n, outside), _refs(m), js, np.asarray(sim, dtype=np.float32).reshape(n, m))
    scores = res.scores.as_dict()
    for key, want in expected.items():
        got = scores[key]
        if want is None:
            assert got is None, key
        else:
            assert got == pytest.approx(want, abs=1e-6), key
    for value in scores.values():
        assert value is None or not (isinstance(value, float) and math.isnan(value))


def test_counts() -> None:
    # one of each material verdict plus one outside_scope
    resp = _claims(6, outside=(5,))
    js = [_j(0, S, 0), _j(1, INF, 0, 1), _j(2, C, 1), _j(3, Q, 2), _j(4, U), Judgement(5, OUT)]
    res = _score(resp, _refs(3), js, np.full((6, 3), 0.5, dtype=np.float32))
    assert res.counts == {
        "response_claims": 5,
        "reference_claims": 3,
        "supported": 1,
        "inferred": 1,
        "contradicted": 1,
        "qualification_dropped": 1,
        "unsupported": 1,
        "outside_scope": 1,
    }


def test_edit_script_order_and_reasons() -> None:
    resp = _claims(3)
    js = [_j(0, C, 1), _j(1, S, 0), _j(2, U)]
    res = _score(
        resp, _refs(3), js, np.array([[0.5, 0.9, 0.1], [0.9, 0.1, 0.1], [0.1, 0.1, 0.2]], np.float32)
    )
    ops = [(op.op, op.response_claim, op.reference_claim) for op in res.edit_script]
    # response order first (substitute r0 by its evidence f1, delete r2), then insert f2
    assert ops == [("substitute", 0, 1), ("delete", 2, None), ("insert", None, 2)]
    assert "a → b" in res.edit_script[0].reason
    assert res.scores.claim_edit_distance == 3
    assert res.covered_reference == frozenset({0})


def test_thin_wrappers_agree_with_score_audit() -> None:
    resp, refs = _claims(2), _refs(2)
    js = [_j(0, S, 0), _j(1, U)]
    sim = np.array([[0.8, 0.2], [0.6, 0.7]], np.float32)
    res = _score(resp, refs, js, sim)
    assert claim_precision(resp, js) == res.scores.claim_precision
    assert claim_recall(resp, refs, js) == res.scores.claim_recall
    assert claim_overlap(resp, refs, sim, threshold=0.75) == res.scores.claim_overlap
    assert claim_similarity(resp, refs, sim) == res.scores.claim_similarity
    assert claim_f1(res.scores.claim_precision, res.scores.claim_recall) == res.scores.claim_f1


def test_shape_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="shape"):
        _score(_claims(1), _refs(2), [], np.zeros((1, 1), np.float32))


def test_levenshtein_passes_through() -> None:
    # "abc" vs "abd": 1 substitution over 3 characters
    res = _score(_claims(0), _refs(0), [], np.zeros((0, 0), np.float32))
    assert res.scores.normalized_levenshtein_distance == pytest.approx(1 / 3)
    assert res.scores.levenshtein_similarity == pytest.approx(2 / 3)
    # nothing on either side: every claim score is None
    assert res.scores.claim_edit_distance is None
    assert res.scores.normalized_claim_edit_distance is None
    assert res.scores.claim_recall is None


def _random_audit(
    rng: np.random.Generator,
) -> tuple[list[Claim], list[ReferenceClaim], list[Judgement], np.ndarray]:
    n, m = int(rng.integers(0, 7)), int(rng.integers(0, 9))
    resp = _claims(n, outside=tuple(i for i in range(n) if rng.random() < 0.2))
    refs = [
        ReferenceClaim(
            0,
            Claim(
                f"f{j}",
                0,
                2,
                ClaimKind.OUTSIDE_SCOPE if rng.random() < 0.2 else ClaimKind.MATERIAL,
                position=j,
            ),
        )
        for j in range(m)
    ]
    verdicts = (S, INF, C, Q, U, OUT)
    js = [
        _j(
            i,
            verdicts[int(rng.integers(0, 6))],
            *(rng.choice(m, int(rng.integers(0, min(m, 2) + 1)), replace=False).tolist() if m else ()),
        )
        for i in range(n)
    ]
    sim = rng.uniform(-1, 1, (n, m)).astype(np.float32)
    return resp, refs, js, sim


def test_scores_from_the_match_summary_equal_scores_from_the_matrix() -> None:
    """What the match stage stores (``match_summary``) gives the matrix's result to the last bit:
    one best cosine per response claim (however many reference claims) and the edit script's
    pairing. 300 random audits with every verdict, outside-scope claims on both sides and empty
    sides; the substitutions are checked to occur."""
    rng = np.random.default_rng(7)
    substituted = 0
    for _ in range(300):
        resp, refs, js, sim = _random_audit(rng)
        summary = match_summary(resp, refs, js, sim)
        assert len(summary.best) == len(resp)
        from_matrix = _score(resp, refs, js, sim)
        assert _score(resp, refs, js, summary) == from_matrix
        substituted += sum(op.op == "substitute" for op in from_matrix.edit_script)
    assert substituted > 50
