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

The features are ``claims.decision_features``'s (``FEATURE_NAMES``).

Decision, per material response claim with balanced score ``s`` and probability of support ``p``:

- a rule ``contradicted`` or ``qualification_dropped`` stands (exact rules stay rules); its
  confidence is the rule's precision measured on the labelled data; so does an ``unsupported``
  whose ``finding`` is in ``STANDING_FINDINGS`` (another object for the same action, a degree
  the reference does not grade, the same statement of a rival name, a converse relation, a
  negated gradable word against its opposite, a negated claim no reference claim denies), and
  a ``supported`` with
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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from claims.decision_features import (
    FEATURE_NAMES,
    VALUE_TOP_K,
    ReferenceIndex,
    indexed_features,
    missing_tokens,
    reference_index,
    surface_word,
)
from claims.decision_guards import (
    dates_stated,
    identifiers_stated,
    names_stated,
    number_words_stated,
    ordinals_stated,
    values_of_subject,
)
from claims.facets import content_tokens
from claims.types import Claim, ClaimKind, Evidence, Judgement, ReferenceClaim, Verdict

__all__ = [
    "FEATURE_NAMES",
    "STANDING_FINDINGS",
    "DecisionModel",
    "balanced_score",
    "decide",
    "decide_one",
    "decided_verdict",
    "decision_inputs",
    "load_model",
    "support_probability",
]

MODEL_PATH = Path(__file__).resolve().parent / "data" / "verdict_model.json"

#: rule findings behind an ``unsupported`` verdict that stand like a conflict (``Judgement.finding``):
#: "object", the evidence states the claim's action on another object, which a high cosine does
#: not undo; "degree", the nearest reference states the claim's quantifier or superlative weaker
#: (``claims.verdict.degree``: "the most effective" / "an effective"), which the signals, all
#: about wording, do not see; "converse", the evidence states the claim's relation the other way
#: round ("Cancer causes smoking"), which the wording's cosine (0.99) does not see either;
#: "key_value", a subjectless "Label: value" claim whose value the slot of the label's
#: predicate holds (``claims.verdict.key_values``), which the cosine of a subjectless text
#: with a sentence underrates; "verbatim", a claim a reference claim states word for word
#: (``claims.verdict.text.stated_verbatim``), entailed by identity; "opposite", a reference
#: claim the verdict leans on, or one about the claim's subject, states an opposite of a claim's
#: word and not the word (``claims.verdict.counterparts``), which the wording's cosine does not see
STANDING_FINDINGS = frozenset(
    {
        "object",
        "degree",
        "rival",
        "converse",
        "gradable",
        "denial",
        "counterpart",
        "key_value",
        "verbatim",
        "opposite",
    }
)


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
    an address the references never give (``decision_guards.names_stated``,
    ``identifiers_stated``), is never turned into support: an unstated value, name or address
    is not entailed, however close the wording. A rule support that is ``verified`` (every
    value of the claim stated as a facet, every content word in one reference claim:
    ``_verified``) stands: the model's doubt there is the wording of a value
    ("about 2.1 million" / "2,148,271"), which the rules compare exactly."""
    if j.verdict in (Verdict.CONTRADICTED, Verdict.QUALIFICATION_DROPPED):
        return replace(j, confidence=model.rule_precision.get(j.verdict.value, 0.5))
    if j.finding in STANDING_FINDINGS:
        supports = j.verdict in (Verdict.SUPPORTED, Verdict.INFERRED)
        return replace(j, confidence=round(p if supports else 1.0 - p, 4))
    verdict = decided_verdict(
        j.verdict, j.finding, s, model.support_threshold, model.rule_margin, values_found=values_found,
        verified=verified,
    )  # fmt: skip
    if verdict is not Verdict.UNSUPPORTED:
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


def decided_verdict(
    rule: Verdict,
    finding: str | None,
    s: float,
    support_threshold: float,
    rule_margin: float,
    *,
    values_found: bool,
    verified: bool,
    standing: frozenset[str] = STANDING_FINDINGS,
) -> Verdict:
    """The verdict of ``decide`` for one material claim (module docstring): the rule verdict
    ``rule`` with its ``finding``, the balanced score ``s`` in [0, 1], the model's threshold and
    rule margin, and the guards (``values_found``: the claim's values, names and dates are
    stated; ``verified``: a rule support whose values and words one reference claim states).
    A rule conflict, or a finding in ``standing``, keeps the rule verdict; otherwise the result
    is ``rule`` (supported/inferred), ``SUPPORTED`` or ``UNSUPPORTED``."""
    if rule in (Verdict.CONTRADICTED, Verdict.QUALIFICATION_DROPPED) or finding in standing:
        return rule
    rule_supports = rule in (Verdict.SUPPORTED, Verdict.INFERRED)
    margin = rule_margin if rule_supports else -rule_margin
    if (s >= support_threshold - margin and (rule_supports or values_found)) or (rule_supports and verified):
        return rule if rule_supports else Verdict.SUPPORTED
    return Verdict.UNSUPPORTED


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
    idx: ReferenceIndex,
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
) -> bool:
    """``values_found`` of ``_decided`` for the judgement ``j`` of the claim ``text`` (``row`` its
    features): every value, count, ordinal word, name, address and date of the claim is stated
    (``claims.decision_guards``). Only a rule ``unsupported`` is read: elsewhere True."""
    if j.verdict is not Verdict.UNSUPPORTED:
        return True
    near = _near_texts(j, reference_claims, similarity)
    return (
        bool(row[FEATURE_NAMES.index("value_cov_any")] >= 1.0)
        and number_words_stated(text, near)
        and ordinals_stated(text, near)
        and values_of_subject(text, near)
        and names_stated(text, idx.doc, idx.doc_tokens)
        and identifiers_stated(text, idx.doc)
        and dates_stated(text, [rc.claim.text for rc in reference_claims])
    )


def decision_inputs(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    material: Sequence[int],
    idx: ReferenceIndex,
) -> tuple[np.ndarray, list[bool], np.ndarray]:
    """What ``decide`` reads of the judgements at positions ``material`` (the material ones):
    the feature rows (float64 ``(len(material), len(FEATURE_NAMES))``), the guards'
    ``values_found`` per row and ``verified`` per row (bool ``(len(material),)``). A model is
    then applied by ``decided_verdict`` (``tools/select_verdict.py`` replays these per model)."""
    chosen = [judgements[i] for i in material]
    x = indexed_features(response_claims, reference_claims, similarity, chosen, idx)
    found = [
        _guards_hold(j, response_claims[j.response_index].text, x[row], idx, reference_claims, similarity)
        for row, j in enumerate(chosen)
    ]
    return x, found, _verified(x)


def decide(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    judgements: Sequence[Judgement],
    *,
    reference_texts: Sequence[str] | None = None,
    model: DecisionModel | None = None,
    index: ReferenceIndex | None = None,
) -> list[Judgement]:
    """Apply the learned decision to the rule engine's judgements; same order and length.

    Each returned material judgement has ``confidence`` in [0, 1] (see module docstring);
    ``outside_scope`` judgements are returned unchanged. Without a model file the judgements are
    returned unchanged (confidence None). ``index``: the references' ``ReferenceIndex`` when the
    caller has built it (``claims.decision_features.reference_index``), else built here.
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
    idx = index if index is not None else reference_index(reference_claims, reference_texts)
    x, found, verified = decision_inputs(
        response_claims, reference_claims, similarity, judgements, material, idx
    )
    out = list(judgements)
    scores = zip(material, balanced_score(x, model), support_probability(x, model), found, strict=True)
    for row, (i, s, p, values_found) in enumerate(scores):
        j = out[i]
        text = response_claims[j.response_index].text
        missing = missing_tokens(content_tokens(text), idx.doc_tokens)[:1]
        missing = [surface_word(text, t) for t in missing]  # only the first is quoted
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


def decide_one(
    claim: Claim,
    judgement: Judgement,
    reference_claims: Sequence[ReferenceClaim],
    row: np.ndarray,
    reference_texts: Sequence[str] | None = None,
) -> Judgement:
    """``decide`` for one text outside the audit's claims: ``claim`` with its rule ``judgement``
    and its cosines ``row`` (shape ``(len(reference_claims),)``); the decided judgement keeps
    ``judgement.response_index``."""
    one = replace(judgement, response_index=0)
    similarity = np.asarray(row, dtype=np.float64).reshape(1, -1)
    got = decide([claim], reference_claims, similarity, [one], reference_texts=reference_texts)[0]
    return replace(got, response_index=judgement.response_index)
