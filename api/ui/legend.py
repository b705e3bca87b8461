"""How verdicts look on the pages, and what each score means (shown on hover).

Colours are the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), told apart by
readers with any common colour-vision deficiency; every verdict also has its own underline
pattern and symbol, and its name is written out in the claim list and the legend, so colour
is never the only cue.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PENDING", "SCORE_DEFINITIONS", "VERDICT_STYLES", "VerdictStyle", "style_of"]


@dataclass(frozen=True, slots=True)
class VerdictStyle:
    """``name`` (the API's verdict value), a readable ``label``, a one-character ``symbol``, the
    underline ``colour`` (CSS hex), the underline ``pattern``, a ``meaning``, and ``ink``: the
    text colour of its labels (``colour`` darkened where it is too light for text on white).
    ``ui.css`` holds the same values (``--c-*``, ``--u-*``, ``.v-*``)."""

    name: str
    label: str
    symbol: str
    colour: str
    pattern: str
    meaning: str
    ink: str = ""

    def __post_init__(self) -> None:
        if not self.ink:
            object.__setattr__(self, "ink", self.colour)


VERDICT_STYLES: dict[str, VerdictStyle] = {
    s.name: s
    for s in (
        VerdictStyle("supported", "supported", "✓", "#009E73", "solid", "one reference claim states it"),
        VerdictStyle(
            "inferred",
            "inferred",
            "⇒",
            "#0072B2",
            "dashed",
            "two or more reference claims together entail it",
        ),
        VerdictStyle(
            "contradicted",
            "contradicted",
            "✗",
            "#D55E00",
            "double",
            "a reference gives another value (number, date, unit, entity, negation, ...)",
        ),
        VerdictStyle(
            "qualification_dropped",
            "qualification dropped",
            "!",
            "#E69F00",
            "dotted",
            "the reference hedges or limits what the claim states flatly",
            "#A86F00",
        ),
        VerdictStyle(
            "unsupported",
            "unsupported",
            "?",
            "#CC79A7",
            "dashdot",
            "nothing in the references says it",
            "#A8437E",
        ),
        VerdictStyle(
            "outside_scope",
            "outside scope",
            "○",
            "#8C8C8C",
            "thin",
            "not a factual claim (question, greeting, opinion, ...): not scored",
            "#6D6D6D",
        ),
    )
}

#: Style of a response claim that has no verdict yet (the audit is still running).
PENDING = VerdictStyle("pending", "pending", "…", "#8C8C8C", "thin", "no verdict yet", "#6D6D6D")


def style_of(verdict: str | None, kind: str) -> VerdictStyle:
    """The style of a response claim: grey ``outside_scope`` for that kind whatever the verdict."""
    if kind == "outside_scope":
        return VERDICT_STYLES["outside_scope"]
    if verdict is None:
        return PENDING
    return VERDICT_STYLES.get(verdict, PENDING)


#: One-line definitions of the scores (from ``claims.score`` and ``claims.levenshtein``);
#: n = material response claims, m = material reference claims.
SCORE_DEFINITIONS: dict[str, str] = {
    "claim_precision": "(supported + inferred) / n: share of the response's claims that the references "
    "support (FActScore). 0–1, best 1; null when n = 0.",
    "claim_recall": "Share of the m reference claims cited as support by a supported or inferred response "
    "claim. 0–1, best 1; null when m = 0.",
    "claim_f1": "2PR / (P + R), harmonic mean of claim precision and recall. 0–1, best 1; null when either "
    "is null.",
    "claim_overlap": "Share of response claims whose best cosine against the reference claims is at least "
    "the threshold. 0–1, best 1; null when n = 0.",
    "claim_similarity": "Mean over response claims of the best cosine against the reference claims, "
    "clipped to 0–1; best 1. Null when n = 0 or m = 0.",
    "claim_edit_distance": "Substitutions + deletions + insertions turning the response's claims into the "
    "references' (see the edit script). Integer ≥ 0, best 0.",
    "normalized_claim_edit_distance": "Edit distance / (kept + edits). 0–1, best 0; null when nothing "
    "to compare.",
    "levenshtein_similarity": "1 − character edit distance / longer length, against the closest reference. "
    "0–1, best 1.",
    "normalized_levenshtein_distance": "Character edit distance / longer length, against the closest "
    "reference. 0–1, best 0.",
}
