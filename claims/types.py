"""Value types of the claim engine.

Everything here is immutable and free of I/O: the spine (``db``, ``workers``, ``api``)
stores and transports these values, the engine computes them.

Terms follow FActScore (Min et al. 2023): an *atomic claim* is a short statement that
carries one piece of information and stands alone (pronouns resolved). A *locator* is the
character span ``[start, end)`` of the claim's evidence in the original text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum


class ModelUnavailable(RuntimeError):
    """A pinned model or data package the offline engine needs (spaCy's pipeline, the language
    identifier's model) could not be loaded: a broken install. Raised instead of decomposing or
    judging without it, which would score audits differently and say nothing; the cause is
    chained."""


def passing_fault(exc: BaseException) -> bool:
    """Whether ``exc`` is the moment's fault, not the input's nor the install's: out of memory,
    or a task's time limit (Celery's ``SoftTimeLimitExceeded`` and ``TimeLimitExceeded``, named
    here so that the engine does not depend on Celery). Those are raised as they are, for the
    caller's own handling (a stage over its time limit runs once more): never taken for odd
    input (a sentence-level fallback), nor, while loading a local model, for a broken install
    (``ModelUnavailable``). A library's own error raised from such a fault (its ``__cause__`` or
    ``__context__``) counts as the fault."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:  # also when a library wrapped it
        seen.add(id(cause))
        names = {cls.__name__ for cls in type(cause).__mro__}
        if isinstance(cause, MemoryError) or names & {"SoftTimeLimitExceeded", "TimeLimitExceeded"}:
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def odd_input(exc: BaseException) -> bool:
    """Whether ``exc`` may be taken for odd input, where the engine falls back instead of failing
    (sentence-level claims, a line kept whole, a warm-up skipped): neither a broken install
    (``ImportError``, ``ModelUnavailable``) nor the moment's fault (``passing_fault``), which
    are raised as they are."""
    return not isinstance(exc, ImportError | ModelUnavailable) and not passing_fault(exc)


class Role(StrEnum):
    """Which side of an audit a document or claim belongs to."""

    RESPONSE = "response"
    REFERENCE = "reference"


class ClaimKind(StrEnum):
    """``material`` claims are checkable facts; ``outside_scope`` ones (questions, opinions,
    advice, greetings) are kept for display but excluded from every denominator."""

    MATERIAL = "material"
    OUTSIDE_SCOPE = "outside_scope"


class Verdict(StrEnum):
    """Verdict of one response claim against the references.

    supported              one reference claim entails it
    inferred               two or more reference claims together entail it
    contradicted           same subject and slot, different value (number, date, unit,
                           entity, negation, comparative)
    qualification_dropped  the reference hedges or limits what the claim states flatly
    unsupported            nothing in the references says it
    outside_scope          not a factual claim
    """

    SUPPORTED = "supported"
    INFERRED = "inferred"
    CONTRADICTED = "contradicted"
    QUALIFICATION_DROPPED = "qualification_dropped"
    UNSUPPORTED = "unsupported"
    OUTSIDE_SCOPE = "outside_scope"


class AuditStatus(StrEnum):
    """Where an audit is in the service: queued, one of the four stages while it runs, then
    done, failed or rejected (terminal). The engine never sets it; it is defined here, beside
    ``Verdict`` and ``Role``, so that ``db``, ``service``, ``workers``, ``api``, ``cli`` and the
    Python client share one vocabulary."""

    QUEUED = "queued"
    DECOMPOSING = "decomposing"
    EMBEDDING = "embedding"
    MATCHING = "matching"
    SCORING = "scoring"
    DONE = "done"
    FAILED = "failed"
    REJECTED = "rejected"


#: Verdicts that count as support for precision (FActScore) and recall.
SUPPORTING: frozenset[Verdict] = frozenset({Verdict.SUPPORTED, Verdict.INFERRED})


@dataclass(frozen=True, slots=True)
class Claim:
    """One atomic claim decomposed from a document.

    Attributes
    ----------
    text : str
        The self-contained claim (pronouns replaced by their antecedent where resolved).
    start, end : int
        Character span ``[start, end)`` in the original document text (Python ``str``
        indices, i.e. code points). ``0 <= start <= end <= len(document)``.
    kind : ClaimKind
        ``material`` or ``outside_scope``.
    position : int
        0-based order of the claim within its document (after deduplication).
    duplicates : int
        How many further identical or near-identical claims in the same document were
        merged into this one (0 = unique).
    ambiguous : bool
        True when a pronoun could not be resolved to an antecedent.
    """

    text: str
    start: int
    end: int
    kind: ClaimKind = ClaimKind.MATERIAL
    position: int = 0
    duplicates: int = 0
    ambiguous: bool = False


@dataclass(frozen=True, slots=True)
class ReferenceClaim:
    """A reference claim together with the index of the reference document it came from."""

    reference: int  # 0-based index into the audit's list of references
    claim: Claim


@dataclass(frozen=True, slots=True)
class Evidence:
    """A locator: a reference claim cited as evidence for (or against) a response claim.

    ``reference`` is the 0-based reference index; ``claim_index`` the index into the flat
    list of reference claims passed to the engine; ``start``/``end`` the character span in
    that reference text; ``similarity`` the cosine similarity in [-1, 1].
    """

    reference: int
    claim_index: int
    start: int
    end: int
    text: str
    similarity: float


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict of one response claim, with its evidence (best first) and a reason.

    ``response_index`` indexes the list of response claims passed to the engine.
    ``reason`` is readable, e.g. ``"year 2001 ≠ 2004 (reference 0, chars 3–7)"``.
    ``change`` is what a substitution must change, e.g. ``"2001 → 2004"`` (None unless the
    verdict is contradicted or qualification_dropped).
    ``confidence`` is the calibrated probability in [0, 1] that ``verdict`` is right, set by
    ``claims.decision.decide``; None when no calibrated decision gave one (the rules alone, or
    a verdict an LLM judge changed).
    """

    response_index: int
    verdict: Verdict
    evidence: tuple[Evidence, ...] = ()
    reason: str = ""
    change: str | None = None
    #: calibrated probability in [0, 1] that the verdict is right (``claims.decision``);
    #: None for outside_scope claims and before the decision runs
    confidence: float | None = None
    #: the kind of rule finding that made an ``unsupported`` verdict: "object" (the reference
    #: states the claim's verb with another object, ``claims.verdict.clause_checks.object_swap_of``),
    #: "slot" (another word in its place), "converse" (the claim's relation the other way round,
    #: ``claims.verdict.roles.converse_relation``), "degree", "rival", "gradable" (a negated
    #: gradable word against its opposite: "not hot" / "cold", ``claims.verdict.counterparts``),
    #: "denial" (a negated claim that no reference claim denies: absence is no denial);
    #: for a ``supported`` verdict, "counterpart" (stated in words the lexicon equates: a
    #: converse, "not closed" / "open"), "key_value" or "verbatim" (a reference claim states it
    #: word for word); None otherwise. Those of
    #: ``claims.decision.STANDING_FINDINGS`` the learned decision may not overturn
    finding: str | None = None


@dataclass(frozen=True, slots=True)
class EditOp:
    """One operation of the claim edit script (see ``claims.score``)."""

    op: str  # "insert" | "delete" | "substitute"
    response_claim: int | None  # index into response claims (None for insert)
    reference_claim: int | None  # index into reference claims (None for delete)
    reason: str


@dataclass(frozen=True, slots=True)
class AuditScores:
    """All scores of one audit. A score whose denominator is zero is ``None``.

    Ranges: every ``*_similarity``, ``*_overlap``, precision, recall, F1 and normalized
    distance is in [0, 1] (claim_similarity is a mean cosine and is clipped to [0, 1]);
    ``claim_edit_distance`` is a non-negative integer.
    """

    claim_overlap: float | None
    claim_similarity: float | None
    claim_precision: float | None
    claim_recall: float | None
    claim_f1: float | None
    claim_edit_distance: int | None
    normalized_claim_edit_distance: float | None
    levenshtein_similarity: float | None
    normalized_levenshtein_distance: float | None

    def as_dict(self) -> dict[str, float | int | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class AuditResult:
    """Everything the score stage produces for one audit."""

    scores: AuditScores
    counts: dict[str, int]
    edit_script: tuple[EditOp, ...] = ()
    covered_reference: frozenset[int] = field(default_factory=frozenset)


#: Score names in display order (the fields of :class:`AuditScores`).
SCORE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(AuditScores))

#: Count names in display order: material claims per role, then one per verdict.
COUNT_NAMES: tuple[str, ...] = ("response_claims", "reference_claims", *(v.value for v in Verdict))


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """All that the scores read of an audit's cosine matrix, taken from it once where the matrix
    is computed (``claims.score.match_summary``; the match stage stores it with the verdicts and
    ``claims.score.score_audit`` reads it instead of the matrix). Its size grows with the
    response claims, not with the reference claims.

    Attributes
    ----------
    best : tuple of float or None, one per response claim (in order)
        The claim's best cosine, in [-1, 1], over the material reference claims (the float32
        matrix value as a float); None for every claim when there is no material reference claim.
    substitutes : mapping int -> int
        The edit script's substitutions: response claim index -> reference claim index (flat
        list), the one-to-one pairing of ``claims.score.claim_edit_script``.
    """

    best: tuple[float | None, ...]
    substitutes: Mapping[int, int]
