"""Negation, denying frames and hedges.

Negation cues in English and German ("not", "never", "n't", "nicht", "kein-"; "not only",
"not until" and "no doubt" do not negate), negating phrases ("failed to", "no longer",
"denied"), sentence frames that deny their clause ("It is false that", "There is no evidence
that"), and hedges by label (planned, reportedly, may, about, limited, suggests) from the
pattern table ``HEDGES``.
"""

from __future__ import annotations

import re

NEGATIONS = frozenset({"not", "no", "never", "none", "nor", "neither", "without", "cannot", "n't", "nobody",
                       "nothing", "nowhere",
                       # German: nicht, nie(mals), nichts, kein- in every case ending
                       "nicht", "nie", "niemals", "nichts", "kein", "keine", "keinen", "keinem",
                       "keiner", "keines",
                       # Spanish, French, Italian, Portuguese: nunca, jamás, ne ... pas/jamais, non, não
                       "nunca", "jamás", "pas", "jamais", "non", "não", "nessun", "nessuno", "ningún",
                       "ninguna"})  # fmt: skip
_NEG_PHRASES = re.compile(
    r"\b(?:fail(?:s|ed)? to|no longer|refus(?:e|es|ed) to|den(?:y|ies|ied)|lack(?:s|ed)?|unable to"
    # "almost won", "nearly drowned": an outcome that did not happen ("nearly 500" is a number,
    # "almost destroyed the town" may still have destroyed most of it)
    r"|(?:almost|nearly)\s+(?:won|lost|died|drowned|collapsed|qualified|reached|finished|completed"
    r"|succeeded|failed|closed|went\s+bankrupt|became|made\s+it))\b",
    re.I,
)

#: hedge phrase regex -> label. Applies to the reference side (qualification_dropped).
HEDGES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.I), label)
    for p, label in [
        (
            r"\b(?:plan(?:s|ned|ning)?|aim(?:s|ed|ing)?|intend(?:s|ed|ing)?|expect(?:s|ed|ing)?|"
            r"schedul(?:e|es|ed)|propos(?:e|es|ed)|hop(?:e|es|ed)|seek(?:s)?|sought|want(?:s|ed)?|set|going|"
            r"tr(?:y|ies|ied)|attempt(?:s|ed)?|is|are|was|were|projected|designed|meant|"
            r"offer(?:s|ed)?|threaten(?:s|ed)?|forecasts?|predicted|poised|"
            r"in talks)\s+to\s+(?=[a-z])"
            r"|\b(?:proposed|projected|prospective|upcoming|planned|would)\b",
            "planned",
        ),
        (
            r"\b(?:reportedly|allegedly|purportedly|supposedly|rumou?red|is said to|are said to|was said to|"
            r"were said to|is believed to|are believed to|is thought to|claimed|claims|"
            r"according to (?:unnamed|anonymous|unidentified) sources|sources (?:say|said|claim))\b",
            "reportedly",
        ),
        (
            r"\b(?:(?-i:may)(?!\s+\d)|might|could|possibly|probably|likely|perhaps|potentially|unconfirmed)\b",
            "may",
        ),
        (
            r"\b(?:about|approximately|approx\.|around|roughly|nearly|almost|some|circa|c\.|up to|as many as|"
            r"an estimated|estimated|more than|over|fewer than|less than|under|at least|at most)"
            r"\s+(?=[\d$€£¥]|"
            r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|hundred|"
            r"a hundred|a thousand|dozen)\b)",
            "about",
        ),
        (
            r"\b(?:in (?:one|a single|some|certain|several|a few|parts of|part of)|partly|partially|in part|"
            r"mostly|mainly|largely|primarily|some of|pilot)\b",
            "limited",
        ),
        (
            r"\b(?:suggest(?:s|ed)?|indicat(?:e|es|ed)|preliminary|early results?|appear(?:s|ed)? to|"
            r"seem(?:s|ed)? to|tend(?:s|ed)? to)\b",
            "suggests",
        ),
    ]
]


#: sentence frames that deny the clause they introduce ("It is false that X", "There is no
#: evidence that X", "It is not true that X"); their words are the frame, not the claim's content
_NEGATION_FRAME = re.compile(
    r"\b(?:it\s+(?:is|was|'s)\s+(?:not\s+true|false|untrue|incorrect|wrong|a\s+myth|not\s+the\s+case)"
    r"|there\s+(?:is|was|are|were)\s+no\s+(?:evidence|proof|record|indication|sign)"
    r"|no\s+(?:evidence|proof|record)\s+(?:shows|suggests|indicates))\s+(?:that|of)\b",
    re.I,
)


def negation_frame(text: str) -> tuple[int, int] | None:
    """Span of a denying frame in ``text`` ("It is false that", "There is no evidence that"),
    or None."""
    m = _NEGATION_FRAME.search(text)
    return (m.start(), m.end()) if m else None


def negation_of(text: str) -> tuple[bool, str]:
    """Whether ``text`` is negated, and the cue. "not only", "not until" / "not ... until"
    (a time, not a denial), a bound ("no earlier than", "no more than") and "no doubt" do not
    negate; a denying frame ("It is false that") does."""
    frame = _NEGATION_FRAME.search(text)
    if frame:
        return True, frame.group(0)
    low = text.lower().replace("’", "'")
    for m in re.finditer(
        r"\b(?:not|never|no|none|nor|neither|without|cannot|nobody|nothing|nowhere"
        r"|nicht|nie|niemals|nichts|kein(?:e|en|em|er|es)?"
        # Spanish, French, Italian, Portuguese ("non-profit" is no denial)
        r"|nunca|jamás|jamais|pas|não|nessun[oa]?|ningun[oa]|ningún)\b|n't\b|\bnon\b(?!-)",
        low,
    ):
        after = low[m.end() : m.end() + 60]
        if _in_address(low, m.start(), m.end()):
            continue  # "docs.tessel.no/guide", "no.wikipedia.org": part of an address, no word
        if m.group(0) == "no" and re.match(r"\.\s*\d", after):
            continue  # "Decree no. 5", "Item No. 7": a number sign
        if m.group(0) in ("not", "n't") and re.match(r"\s*(?:only|just|merely)\b", after):
            continue
        if m.group(0) == "nicht" and re.match(r"\s*(?:nur|erst|bis)\b", after):
            continue  # "nicht nur" = "not only", "nicht erst/bis" = "not until"
        if m.group(0) in ("not", "n't", "never") and re.match(
            r"(?:\s+\S+){0,5}?\s+(?:until|till|before)\b", after
        ):
            continue
        if m.group(0) in ("no", "not") and re.match(
            r"\s*(?:earlier|sooner|later|more|less|fewer)\s+than\b", after
        ):
            continue  # a bound ("no earlier than 1990", "no more than 50"), not a denial
        if m.group(0) == "no" and re.match(r"\s*(?:doubt|longer)\b", after) and "longer" not in after[:8]:
            continue
        return True, text[m.start() : m.end()]
    m2 = _NEG_PHRASES.search(text)
    if m2:
        return True, m2.group(0)
    return False, ""


def _in_address(low: str, start: int, end: int) -> bool:
    """The word at ``low[start:end]`` is glued to an address or a file name: a dot, slash, "@" or
    underscore right before it, or a slash, "@", underscore or a dot followed by a letter or digit
    right after it ("tessel.no/guide", "no.wikipedia.org"); a sentence's final "no." is none."""
    before = low[start - 1] if start else " "
    after = low[end : end + 2]
    return before in "./@_" or after[:1] in ("/", "@", "_") or (after[:1] == "." and after[1:2].isalnum())


#: "is to" after a noun of function ("A recruiter's main responsibility is to screen candidates",
#: "The purpose of advertising is to build recognition"): a definition of what something does,
#: not a plan. Nouns of aim ("goal", "aim", "plan", "mission") keep their "is to" a plan.
_FUNCTION_IS_TO = re.compile(
    r"\b(?:responsibility|role|job|task|duty|function|purpose)"
    r"(?:\s+of\s+(?:[\w'’-]+\s+){0,5}?[\w'’-]+)?\s+(?:is|are|was|were)\s+to\s+$",
    re.I,
)


def find_hedges(text: str) -> list[tuple[str, str, int, int]]:
    out: list[tuple[str, str, int, int]] = []
    for pat, label in HEDGES:
        for m in pat.finditer(text):
            g = m.group(0)
            if (
                label == "planned"
                and _FUNCTION_IS_TO.search(text, 0, m.end())
                and not text[m.end() :].lower().startswith("be ")  # "jobs are to be cut"
            ):
                continue
            s0 = m.start() + len(g) - len(g.lstrip())
            out.append((label, g.strip(), s0, s0 + len(g.strip())))
    return out


def without_frame(text: str) -> str:
    """``text`` with a denying frame blanked out (its words are not the claim's content)."""
    span = negation_frame(text)
    return text if span is None else text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]
