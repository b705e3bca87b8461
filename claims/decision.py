"""The learned, calibrated decision: a probability of support for every material response claim.

The rule engine (``claims.verdict.judge``) finds exact faults: a value, date, entity, polarity or
role that conflicts with the evidence. Whether the evidence *entails* a claim it does not
contradict is not a rule: it is decided here by a logistic regression over semantic signals
(cosine of the claim with its best reference claims, word coverage of the claim by the evidence,
the rule verdict, value and negation agreement). The regression is trained with class-balanced
weights, so its score ``sigmoid(z)`` is the balanced odds of support and 0.5 is the threshold
that maximises balanced accuracy; its confidence is the same ``z`` under Platt scaling
(Platt 1999) fitted on out-of-fold values of the natural label mix, so it is calibrated.

The model is trained by ``tools/train_verdict.py`` on the human-labelled dev splits
(Factcheck-GPT stance pairs, Wang et al. 2023; WiCE, Kamoi et al. 2023), the shared audit cases
and synthetic perturbations (``claims.perturb``), and shipped as a small JSON file
(``claims/data/verdict_model.json``: feature names, scaler, coefficients, calibrator and the
decision thresholds). Inference is plain numpy: no scikit-learn at run time.

Decision, per material response claim with balanced score ``s`` and probability of support ``p``:

- a rule ``contradicted`` or ``qualification_dropped`` stands (exact rules stay rules); its
  confidence is the rule's precision measured on the labelled data; so does an ``unsupported``
  whose ``finding`` is in ``STANDING_FINDINGS`` (another object for the same action, a degree
  the reference does not grade, the same statement of a rival name, a negated gradable word
  against its opposite, a negated claim no reference claim denies), and a ``supported`` with
  the finding "counterpart" (the evidence states the claim in words the lexicon equates: a
  converse, "not closed" / "open", "not able" / "unable"; ``claims.verdict.counterparts``),
  whose confidence is then ``p``;
- otherwise the rule verdict (supported/inferred or unsupported) stands unless the score
  disagrees by more than ``rule_margin``: a rule support becomes ``unsupported`` when
  ``s < support_threshold - rule_margin``, a rule ``unsupported`` becomes ``supported`` when
  ``s >= support_threshold + rule_margin`` (the rules know value equivalences, such as "three"
  and 3 or 8 pm and 20:00, that the features see only in part);
- ``confidence`` is the calibrated probability that the verdict is right: ``p`` for a supporting
  verdict, ``1 - p`` for ``unsupported``. It lies in [0, 1]; ``outside_scope`` claims keep None.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from rapidfuzz import fuzz

from claims.decision_guards import (
    _date_stated,
    _digits,
    _identifiers_stated,
    _names_stated,
    _number_words_stated,
    _values_of_subject,
)
from claims.facets import (
    UNITS,
    Facets,
    TokenSet,
    content_tokens,
    extract,
    quantity_matches,
)
from claims.labels import embedding_text
from claims.types import Claim, ClaimKind, Evidence, Judgement, ReferenceClaim, Verdict

__all__ = [
    "FEATURE_NAMES",
    "STANDING_FINDINGS",
    "DecisionModel",
    "balanced_score",
    "decide",
    "feature_matrix",
    "load_model",
    "support_probability",
]

MODEL_PATH = Path(__file__).resolve().parent / "data" / "verdict_model.json"

#: Rule verdicts encoded one-hot (outside_scope claims are never scored).
RULE_VERDICTS = (
    Verdict.SUPPORTED,
    Verdict.INFERRED,
    Verdict.CONTRADICTED,
    Verdict.QUALIFICATION_DROPPED,
    Verdict.UNSUPPORTED,
)

#: The columns of ``feature_matrix``, in order; the model file names them too.
FEATURE_NAMES: tuple[str, ...] = (
    "cos1",  # best cosine with any reference claim
    "cos2",  # second best cosine
    "cos_margin",  # cos1 - cos2
    "cov_best",  # share of the claim's content words found in the best reference claim
    "cov_top3",  # ... in the three best reference claims together
    "cov_doc",  # ... anywhere in the references
    "missing_doc",  # content words found nowhere in the references (count, capped at 5)
    "has_value",  # the claim states a number or a date (claims.facets)
    "value_cov",  # share of its numbers and dates stated by one of the VALUE_TOP_K nearest reference
    # claims, compared as facets (units, scales, number words, time formats); 1 when it has none
    "value_cov_any",  # share of its numbers and dates found as above, or as digits anywhere in the
    # references (1 when it has none)
    "neg_mismatch",  # the claim and its best reference claim differ in negation
    "log_len",  # log(1 + number of content words)
    "fuzz_best",  # rapidfuzz token_set_ratio with the best reference claim, in [0, 1]
    "cos_x_cov",  # cos1 * cov_best
    "name_cov",  # share of the claim's capitalised names found in the references
    "ambiguous",  # an unresolved pronoun
    "cov_lex",  # best coverage of the claim's content words by any one reference claim
    "cos_lex",  # cosine with that (lexically best) reference claim
    "prec_best",  # share of the best reference claim's content words found in the claim
    "log_near",  # log(1 + number of reference claims with cosine >= NEAR_COSINE)
    "log_refs",  # log(1 + number of reference claims)
    *(f"rule_{v.value}" for v in RULE_VERDICTS),
)

TOP_K = 3
#: rule findings behind an ``unsupported`` verdict that stand like a conflict (``Judgement.finding``):
#: "object", the evidence states the claim's action on another object, which a high cosine does
#: not undo; "degree", the nearest reference states the claim's quantifier or superlative weaker
#: (``claims.verdict.degree``: "the most effective" / "an effective"), which the signals, all
#: about wording, do not see; "converse", the evidence states the claim's relation the other way
#: round ("Cancer causes smoking"), which the wording's cosine (0.99) does not see either
STANDING_FINDINGS = frozenset({"object", "degree", "rival", "converse", "gradable", "denial", "counterpart"})
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
#: how many nearest reference claims (by cosine) are searched for the claim's values
VALUE_TOP_K = 8
#: cosine at which a reference claim counts as "near" the claim (the calibrated support
#: threshold's plateau, docs/CALIBRATION.md)
NEAR_COSINE = 0.6
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nobody|nothing|neither|nor|without|false|longer)\b|n't\b", re.IGNORECASE
)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z\u00C0-\u024F'’-]+")


@dataclass(frozen=True, slots=True)
class DecisionModel:
    """A trained decision (see ``tools/train_verdict.py``); all arrays float64 of shape ``(d,)``.

    With ``z = coef · ((x - mean) / scale) + intercept``: the balanced score is ``1 / (1 + exp(-z))``
    (compared with ``support_threshold``) and the calibrated probability of support is
    ``1 / (1 + exp(calib_a * z + calib_b))`` (Platt scaling, sklearn's sign convention).
    """

    version: str
    feature_names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    calib_a: float
    calib_b: float
    support_threshold: float
    rule_margin: float
    rule_precision: dict[str, float]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DecisionModel:
        """Build from the JSON document written by ``tools/train_verdict.py``.

        Raises
        ------
        ValueError
            The file's feature names differ from ``FEATURE_NAMES`` (a model trained on other
            features must never be applied).
        """
        names = tuple(str(n) for n in d["feature_names"])
        if names != FEATURE_NAMES:
            raise ValueError(f"decision model features {names} differ from the code's {FEATURE_NAMES}")
        arr = {k: np.asarray(d[k], dtype=np.float64) for k in ("mean", "scale", "coef")}
        return cls(
            version=str(d["version"]),
            feature_names=names,
            mean=arr["mean"],
            scale=arr["scale"],
            coef=arr["coef"],
            intercept=float(d["intercept"]),
            calib_a=float(d["calib_a"]),
            calib_b=float(d["calib_b"]),
            support_threshold=float(d["support_threshold"]),
            rule_margin=float(d.get("rule_margin", 0.0)),
            rule_precision={str(k): float(v) for k, v in dict(d["rule_precision"]).items()},
        )


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> DecisionModel | None:
    """The shipped model (or the one at ``path``); None when no model file exists."""
    p = Path(path) if path else MODEL_PATH
    if not p.exists():
        return None
    return DecisionModel.from_dict(json.loads(p.read_text(encoding="utf-8")))


def _logit(x: np.ndarray, model: DecisionModel) -> np.ndarray:
    z: np.ndarray = ((x - model.mean) / model.scale) @ model.coef + model.intercept
    return z


def support_probability(x: np.ndarray, model: DecisionModel) -> np.ndarray:
    """Calibrated P(support) for each row of ``x`` (float64, shape ``(n, d)``) -> shape ``(n,)``."""
    z = _logit(x, model)
    p: np.ndarray = 1.0 / (1.0 + np.exp(np.clip(model.calib_a * z + model.calib_b, -50.0, 50.0)))
    return p


def balanced_score(x: np.ndarray, model: DecisionModel) -> np.ndarray:
    """Balanced odds of support, ``sigmoid(z)`` in [0, 1], for each row of ``x`` -> shape ``(n,)``."""
    s: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(_logit(x, model), -50.0, 50.0)))
    return s


# ---------------------------------------------------------------- features


@dataclass(frozen=True, slots=True)
class _RefIndex:
    """Per-audit precomputation over the reference claims and texts."""

    claim_tokens: list[list[str]]
    doc_tokens: list[str]
    doc_lower: str
    doc_numbers: frozenset[str]
    doc: str


def _index(reference_claims: Sequence[ReferenceClaim], reference_texts: Sequence[str] | None) -> _RefIndex:
    claim_tokens = [content_tokens(rc.claim.text) for rc in reference_claims]
    texts = list(reference_texts) if reference_texts else [rc.claim.text for rc in reference_claims]
    doc = "\n".join(texts)
    return _RefIndex(
        claim_tokens=claim_tokens,
        doc_tokens=sorted(set(content_tokens(doc))),
        doc_lower=doc.lower(),
        doc_numbers=frozenset(m.replace(",", "") for m in _NUMBER.findall(doc)),
        doc=doc,
    )


@lru_cache(maxsize=16384)
def _facets(text: str) -> Facets:
    return extract(text)


def _value_coverage(
    text: str, near: Sequence[str], doc_numbers: frozenset[str]
) -> tuple[float, float, float]:
    """(has_value, value_cov, value_cov_any) of a claim: its numbers and dates stated by one of the
    texts ``near`` (compared as facets), and stated there or written as digits in ``doc_numbers``."""
    f = _facets(text)
    values = len(f.quantities) + len(f.dates)
    if not values:
        return 0.0, 1.0, 1.0
    others = [_facets(t) for t in near]
    near_q = [any(quantity_matches(q, o) for g in others for o in g.quantities) for q in f.quantities]
    near_d = [any(_date_stated(d, e) for g in others for e in g.dates) for d in f.dates]
    texts = [q.text for q in f.quantities] + [d.text for d in f.dates]
    digits = [_digits(t) <= doc_numbers for t in texts]
    found = [a or b for a, b in zip(near_q + near_d, digits, strict=True)]
    return 1.0, sum(near_q + near_d) / values, sum(found) / values


def _coverage(tokens: Sequence[str], other: Iterable[str]) -> float:
    """Share of ``tokens`` that ``claims.facets.token_match`` some token of ``other`` (1 if none)."""
    if not tokens:
        return 1.0
    found = TokenSet(other)
    return sum(1 for t in tokens if t in found) / len(tokens)


def _missing(tokens: Sequence[str], doc_tokens: Iterable[str]) -> list[str]:
    """The ``tokens`` that match no token of ``doc_tokens``, in order."""
    found = TokenSet(doc_tokens)
    return [t for t in tokens if t not in found]


def _surface(text: str, token: str) -> str:
    """The word of ``text`` that the stemmed content token ``token`` came from (else ``token``)."""
    for m in re.finditer(r"[\w'’-]+", text):
        if token in content_tokens(m.group(0)):
            return m.group(0)
    return token


def _lexical_best(tokens: Sequence[str], claim_tokens: Sequence[Sequence[str]]) -> tuple[int, float]:
    """(index, coverage) of the reference claim that covers most of ``tokens`` (first on ties)."""
    best, best_cov = 0, -1.0
    for k, other in enumerate(claim_tokens):
        if other:
            cov = _coverage(tokens, other)
            if cov > best_cov:
                best, best_cov = k, cov
    return best, max(best_cov, 0.0)


def _rule_onehot(verdict: Verdict) -> list[float]:
    return [1.0 if verdict is v else 0.0 for v in RULE_VERDICTS]


def _claim_row(
    text: str,
    ambiguous: bool,
    sims: np.ndarray,
    judgement: Judgement,
    refs: Sequence[ReferenceClaim],
    idx: _RefIndex,
) -> list[float]:
    order = np.argsort(-sims)[:TOP_K] if sims.size else np.zeros(0, dtype=np.int64)
    cos1 = float(sims[order[0]]) if order.size else 0.0
    cos2 = float(sims[order[1]]) if order.size > 1 else 0.0
    tokens = content_tokens(text)
    best_tokens = idx.claim_tokens[int(order[0])] if order.size else []
    top_tokens = [t for j in order for t in idx.claim_tokens[int(j)]]
    best_text = refs[int(order[0])].claim.text if order.size else ""
    cov_best = _coverage(tokens, best_tokens)
    near = np.argsort(-sims)[:VALUE_TOP_K] if sims.size else np.zeros(0, dtype=np.int64)
    has_value, value_cov, value_cov_any = _value_coverage(
        text, [refs[int(k)].claim.text for k in near], idx.doc_numbers
    )
    names = [m.lower() for m in _NAME.findall(text) if m.lower() not in UNITS]  # "EUR" is a unit, not a name
    lex = _lexical_best(tokens, idx.claim_tokens)
    return [
        cos1,
        cos2,
        cos1 - cos2,
        cov_best,
        _coverage(tokens, top_tokens),
        _coverage(tokens, idx.doc_tokens) if len(idx.doc_tokens) < 20000 else _coverage(tokens, top_tokens),
        float(min(5, len(_missing(tokens, idx.doc_tokens)))),
        has_value,
        value_cov,
        value_cov_any,
        float(bool(_NEGATION.search(text)) != bool(_NEGATION.search(best_text))),
        math.log1p(len(tokens)),
        fuzz.token_set_ratio(text, best_text) / 100.0,
        cos1 * cov_best,
        (sum(n in idx.doc_lower for n in names) / len(names)) if names else 1.0,
        1.0 if ambiguous else 0.0,
        lex[1],
        float(sims[lex[0]]) if sims.size else 0.0,
        _coverage(best_tokens, tokens) if best_tokens else 0.0,
        math.log1p(int((sims >= NEAR_COSINE).sum())),
        math.log1p(sims.size),
        *_rule_onehot(judgement.verdict),
    ]


def feature_matrix(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    reference_texts: Sequence[str] | None = None,
) -> np.ndarray:
    """Features of every judgement's claim: float64 of shape ``(len(judgements), len(FEATURE_NAMES))``.

    ``similarity`` is the cosine matrix of response claims (rows) by reference claims (columns);
    ``judgements`` are the rule engine's (``claims.verdict.judge``), indexing ``response_claims``.
    Columns are described next to ``FEATURE_NAMES``.
    """
    return _features(
        response_claims, reference_claims, similarity, judgements, _index(reference_claims, reference_texts)
    )


def _features(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    idx: _RefIndex,
) -> np.ndarray:
    rows = []
    for j in judgements:
        c = response_claims[j.response_index]
        sims = similarity[j.response_index] if similarity.shape[1] else np.zeros(0, dtype=np.float32)
        rows.append(_claim_row(embedding_text(c.text), bool(c.ambiguous), sims, j, reference_claims, idx))
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(FEATURE_NAMES))


# ---------------------------------------------------------------- decision


def _best_evidence(
    j: Judgement, reference_claims: Sequence[ReferenceClaim], similarity: np.ndarray
) -> tuple[Evidence, ...]:
    if j.evidence or not reference_claims:
        return j.evidence
    k = int(np.argmax(similarity[j.response_index]))
    rc = reference_claims[k]
    sim = float(similarity[j.response_index, k])
    return (Evidence(rc.reference, k, rc.claim.start, rc.claim.end, rc.claim.text, sim),)


def _decided(
    j: Judgement,
    s: float,
    p: float,
    model: DecisionModel,
    missing: list[str],
    *,
    values_found: bool,
    verified: bool = False,
) -> Judgement:
    """One material judgement after the decision (rule conflicts stand); ``s`` balanced score,
    ``p`` calibrated P(support). A claim with a number or date found nowhere in the references
    (``values_found`` False: feature ``value_cov_any`` < 1), or with a name (places aside) or
    an address the references never give (``decision_guards._names_stated``,
    ``_identifiers_stated``), is never turned into support: an unstated value, name or address
    is not entailed, however close the wording. A rule support that is ``verified`` (every
    value of the claim stated as a facet, every content word in one reference claim:
    ``_verified``) stands: the model's doubt there is the wording of a value
    ("about 2.1 million" / "2,148,271"), which the rules compare exactly."""
    if j.verdict in (Verdict.CONTRADICTED, Verdict.QUALIFICATION_DROPPED):
        return replace(j, confidence=model.rule_precision.get(j.verdict.value, 0.5))
    if j.finding in STANDING_FINDINGS:
        supports = j.verdict in (Verdict.SUPPORTED, Verdict.INFERRED)
        return replace(j, confidence=round(p if supports else 1.0 - p, 4))
    rule_supports = j.verdict in (Verdict.SUPPORTED, Verdict.INFERRED)
    margin = model.rule_margin if rule_supports else -model.rule_margin
    if (s >= model.support_threshold - margin and (rule_supports or values_found)) or (
        rule_supports and verified
    ):
        verdict = j.verdict if j.verdict in (Verdict.SUPPORTED, Verdict.INFERRED) else Verdict.SUPPORTED
        reason = (
            j.reason
            if verdict is j.verdict
            else f"judged supported by the learned decision over the nearest reference claims{_p_support(p)}"
        )
        return replace(j, verdict=verdict, reason=reason, confidence=round(p, 4))
    if j.verdict is Verdict.UNSUPPORTED:
        return replace(j, confidence=round(1.0 - p, 4))
    what = f"'{missing[0]}' is not in the evidence" if missing else "the evidence does not entail it"
    reason = f"{what}{_p_support(p)}"
    return replace(j, verdict=Verdict.UNSUPPORTED, reason=reason, change=None, confidence=round(1.0 - p, 4))


def _p_support(p: float) -> str:
    return f" (P(support) = {p:.2f})"


def _near_texts(
    j: Judgement, reference_claims: Sequence[ReferenceClaim], similarity: np.ndarray
) -> list[str]:
    """The texts of the ``VALUE_TOP_K`` reference claims nearest the judgement's claim."""
    order = np.argsort(-similarity[j.response_index])[:VALUE_TOP_K]
    return [reference_claims[int(k)].claim.text for k in order]


def _verified(x: np.ndarray) -> np.ndarray:
    """Rows whose claim states a value, every value stated as a facet by a near reference claim
    (``value_cov`` = 1) and every content word found in one reference claim (``cov_lex`` = 1)."""
    col = FEATURE_NAMES.index
    return (x[:, col("has_value")] >= 1.0) & (x[:, col("value_cov")] >= 1.0) & (x[:, col("cov_lex")] >= 1.0)


def _guards_hold(
    j: Judgement,
    text: str,
    row: np.ndarray,
    idx: _RefIndex,
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
) -> bool:
    """``values_found`` of ``_decided`` for the judgement ``j`` of the claim ``text`` (``row`` its
    features): every value, count, name and address of the claim is stated
    (``claims.decision_guards``). Only a rule ``unsupported`` is read: elsewhere True."""
    if j.verdict is not Verdict.UNSUPPORTED:
        return True
    near = _near_texts(j, reference_claims, similarity)
    return (
        bool(row[FEATURE_NAMES.index("value_cov_any")] >= 1.0)
        and _number_words_stated(text, near)
        and _values_of_subject(text, near)
        and _names_stated(text, idx.doc, idx.doc_tokens)
        and _identifiers_stated(text, idx.doc)
    )


def decide(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    reference_texts: Sequence[str] | None = None,
    model: DecisionModel | None = None,
) -> list[Judgement]:
    """Apply the learned decision to the rule engine's judgements; same order and length.

    Each returned material judgement has ``confidence`` in [0, 1] (see module docstring);
    ``outside_scope`` judgements are returned unchanged. Without a model file the judgements are
    returned unchanged (confidence None).
    """
    model = model or load_model()
    material = [
        i
        for i, j in enumerate(judgements)
        if j.verdict is not Verdict.OUTSIDE_SCOPE
        and response_claims[j.response_index].kind is ClaimKind.MATERIAL
    ]
    if model is None or not material or not reference_claims:
        return list(judgements)
    chosen = [judgements[i] for i in material]
    idx = _index(reference_claims, reference_texts)
    x = _features(response_claims, reference_claims, similarity, chosen, idx)
    out = list(judgements)
    found = [
        _guards_hold(j, response_claims[j.response_index].text, x[row], idx, reference_claims, similarity)
        for row, j in enumerate(chosen)
    ]
    verified = _verified(x)
    scores = zip(material, balanced_score(x, model), support_probability(x, model), found, strict=True)
    for row, (i, s, p, values_found) in enumerate(scores):
        j = out[i]
        text = response_claims[j.response_index].text
        missing = _missing(content_tokens(text), idx.doc_tokens)[:1]
        missing = [_surface(text, t) for t in missing]  # only the first is quoted
        decided = _decided(
            j,
            float(s),
            float(p),
            model,
            missing,
            values_found=bool(values_found),
            verified=bool(verified[row]),
        )
        if decided.verdict in (Verdict.SUPPORTED, Verdict.INFERRED):
            decided = replace(decided, evidence=_best_evidence(decided, reference_claims, similarity))
        out[i] = decided
    return out
