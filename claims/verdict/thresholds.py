"""Every numeric threshold of the verdict rules, in one frozen dataclass.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Thresholds:
    """Every numeric threshold of the verdict rules, in one place: cosines are all-MiniLM-L6-v2
    cosines in [-1, 1], coverages are shares of a claim's content words in [0, 1], counts are
    claims or words. The support constants were calibrated on the dev sets (module docstring);
    ``THRESHOLDS`` holds the values in use."""

    #: candidates examined per response claim (by relevance).
    top_k: int = 8
    #: further candidates taken because they state one of the claim's numbers or dates.
    facet_candidates: int = 4
    #: weight of rapidfuzz's token-set ratio (0-1) added to the cosine to rank candidates.
    lexical_weight: float = 0.5
    #: cosine at which a reference claim with clean facets supports a response claim (at the
    #: default threshold; it moves with ``threshold - DEFAULT_THRESHOLD``).
    support_cosine: float = 0.60
    #: ... with at least this share of the claim's content words covered.
    support_min_coverage: float = 0.55
    #: a higher cosine at which less of the content words must be covered.
    support_cosine_high: float = 0.665
    support_min_coverage_high_cos: float = 0.3
    #: share of the claim's content words that supports at any cosine >= min_cos_support.
    coverage_support: float = 0.75
    #: ... when the reference claim states every number and date of the claim (at least one).
    coverage_support_facts: float = 0.6
    #: lowest cosine for any support.
    min_cos_support: float = 0.45
    #: share of the claim's non-value content words a reference claim must cover to be about
    #: the same subject (needed for a contradiction); more without names in the claim, or
    #: less at a high cosine.
    coverage_subject: float = 0.6
    coverage_subject_without_names: float = 0.7
    cosine_subject_without_names: float = 0.75
    coverage_subject_partial: float = 0.5
    cosine_subject_partial: float = 0.7
    #: cosine that makes the same subject when the claim has no predicate words of its own.
    cosine_without_predicate: float = 0.8
    #: share of the claim's non-entity content words (its predicate) a reference claim must
    #: cover before a different value in it counts as a conflict.
    coverage_predicate: float = 0.67
    #: ... when the conflict is a count of the same noun ("six lanes" / "four lanes"): the
    #: counted noun is a predicate word the conflict itself matched.
    coverage_predicate_counted: float = 0.5
    #: coverage needed to call a polarity (negation) or comparative flip.
    coverage_polarity: float = 0.75
    #: share of the negation clause's words that must be the claim's for a polarity flip.
    polarity_back_coverage: float = 0.6
    #: lowest cosine for a polarity or comparative flip, and how much it ranks below a value
    #: conflict of the same relevance.
    flip_min_cosine: float = 0.5
    flip_rank_penalty: float = 0.1
    #: how much more of the claim's words a contradicting candidate must cover than the best
    #: supporting one to win over it (a looser support in another reference hid a
    #: contradiction of the same subject and slot).
    subject_margin: float = 0.15
    #: coverage of the claim's other words, and cosine, for another entity in the same role to
    #: contradict it.
    entity_swap_coverage: float = 0.6
    entity_swap_cosine: float = 0.6
    #: union coverage needed for ``inferred``; the lowest cosine of a claim joining it (a
    #: dateline joins at any cosine); the most claims joined.
    coverage_inferred: float = 0.75
    inferred_min_cosine: float = 0.3
    inferred_max_claims: int = 3
    #: greedy set-cover gain of a facet and of a content word when choosing inferred claims.
    inferred_facet_gain: float = 2.0
    inferred_word_gain: float = 0.5
    #: most verbs a predicate swap may leave unstated, and content words allowed between the
    #: other verb and the participants around it (a description such as "the software firm").
    predicate_swap_max_verbs: int = 2
    predicate_swap_max_gap: int = 2
    #: relative distance at which a value lies on a range's end (floating error).
    range_tolerance: float = 1e-6


#: the thresholds in use.
THRESHOLDS = Thresholds()
T = THRESHOLDS
#: read-only aliases of ``THRESHOLDS`` fields, for importers and the docstrings that name them.
TOP_K = T.top_k
SUPPORT_COSINE = T.support_cosine
SUPPORT_MIN_COVERAGE = T.support_min_coverage
SUPPORT_COSINE_HIGH = T.support_cosine_high
SUPPORT_MIN_COVERAGE_HIGH_COS = T.support_min_coverage_high_cos
COVERAGE_SUPPORT = T.coverage_support
COVERAGE_SUPPORT_FACTS = T.coverage_support_facts
MIN_COS_SUPPORT = T.min_cos_support
COVERAGE_SUBJECT = T.coverage_subject
COVERAGE_PREDICATE = T.coverage_predicate
COVERAGE_POLARITY = T.coverage_polarity
SUBJECT_MARGIN = T.subject_margin
COVERAGE_INFERRED = T.coverage_inferred
