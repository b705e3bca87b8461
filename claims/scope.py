"""Which sentences are no factual claim: questions, greetings, courtesy, interface pointers,
abstentions, exclamations, advice, opinions, code and citations (``outside_scope``).

FActScore (Min et al. 2023) likewise leaves out sentences that state nothing verifiable. One
entry point, :func:`outside_scope_reason`, gives the reason as a stable string; the word lists
are regular expressions here and ``claims/data/factual_superlatives.tsv``.
"""

from __future__ import annotations

import re

from claims.facets.vocabulary import STOPWORDS, data_lines

__all__ = ["outside_scope_reason", "is_outside_scope"]

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")

# --- outside-scope cues -------------------------------------------------------------------
_OPINION_PHRASE = re.compile(
    r"\b(?:I|we)\s+(?:think|believe|feel|guess|suppose|love|like|hope|recommend|suggest|would say)\b"
    r"|\bin my (?:opinion|view|experience)\b|\bpersonally\b|\bhonestly\b|\bfrankly\b|\bimo\b"
    r"|\byou (?:should|must|might want to|may want to|could try|can try|need to|ought to)\b"
    r"|\b(?:make sure|be sure|don't forget|do not forget|feel free|let me know|hope this helps)\b"
    r"|\b(?:is|are|was|were) (?:a )?must[- ]see\b",
    re.IGNORECASE,
)
# Evaluative words count only in lower case ("the best laptop", not "Best Picture").
_OPINION_WORD = re.compile(
    r"\b(?:best|worst|beautiful|wonderful|amazing|awesome|fantastic|lovely|gorgeous|stunning|"
    r"breathtaking|delightful|terrible|horrible|awful|magnificent|spectacular|incredible|"
    r"impressive|charming|delicious|boring|ugly|nicest|coolest|favourite|favorite|greatest)\b"
)
#: evaluative words used to state a fact (``claims/data/factual_superlatives.tsv``), by kind
_FACTUAL_USES: dict[str, frozenset[str]] = {
    kind: frozenset(words.split())
    for kind, words in (line.split("\t", 1) for _, line in data_lines("factual_superlatives.tsv"))
}
#: the evaluative words a reported ranking states as a fact
_SUPERLATIVES = frozenset({"best", "worst", "greatest", "favourite", "favorite"})
_FIRST_PERSON = frozenset({"i", "we", "my", "our", "me", "us"})
#: where a clause starts, for a reporting verb before the evaluative word
_CLAUSE_BREAK = re.compile(r"[,;:()]|\b(?:and|but|or|which|who|that|while|whereas)\b", re.IGNORECASE)


def _evaluates(s: str) -> bool:
    """``s`` judges something with an evaluative word (``_OPINION_WORD``) of the writer's own:
    not "is ranked as one of the best restaurants" (a reported ranking), "Manuel's best friend"
    (a compound naming a thing) or "finding the best combination" (a task), the uses listed in
    ``claims/data/factual_superlatives.tsv``."""
    for m in _OPINION_WORD.finditer(s):
        after = re.match(r"[\s-]*([a-z]+)", s[m.end() : m.end() + 24])
        if after and f"{m.group(0)}+{after.group(1)}" in _FACTUAL_USES["compound"]:
            continue
        before = re.findall(r"[a-z]+", _CLAUSE_BREAK.split(s[max(0, m.start() - 80) : m.start()])[-1].lower())
        if (
            m.group(0) in _SUPERLATIVES
            and any(w in _FACTUAL_USES["reported"] for w in before)
            and not any(w in _FIRST_PERSON for w in before)
        ):
            continue
        if before[-2:-1] and before[-1] in ("the", "a") and before[-2] in _FACTUAL_USES["task"]:
            continue
        return True
    return False


_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|dear|greetings|thanks|thank you|sure|of course|certainly|absolutely|"
    r"great question|good question|good luck|cheers|you're welcome|welcome|sorry|okay|ok|yes|no|"
    r"hallo|guten tag|danke|bitte|hola|gracias|buenos días|bonjour|merci|salut|ciao|grazie|"
    r"olá|obrigad[oa]|hej|tack|你好|谢谢|こんにちは|ありがとう)\b"
    r"[\s,.!。！]*$|^\s*(?:hi|hello|hey|thanks|thank you|great question|good question|sorry)\b",
    re.IGNORECASE,
)
#: the assistant speaking about itself or the exchange ("Happy to help", "Here is a summary")
_COURTESY = re.compile(
    r"^\s*(?:I'?m |I am |we're |we are )?(?:happy|glad|pleased|delighted) to (?:help|assist|answer|explain)\b"
    r"|^\s*(?:I'?d|I would|we'?d) be (?:happy|glad|pleased) to\b"
    r"|^\s*(?:here(?:'s| is| are)|below (?:is|are)) (?:a |an |the |my |some )?(?:short |brief |quick )?"
    r"(?:summary|overview|answer|breakdown|list|rundown|comparison|explanation|details|what I found)\b"
    r"|^\s*(?:I )?hope (?:this|that|it) helps\b|\bis there anything else\b|\banything else I can\b"
    r"|^\s*let me (?:know|explain|check|summari[sz]e|break)\b|^\s*(?:thanks|thank you) for (?:asking|your)\b",
    re.IGNORECASE,
)
#: pointers at the user interface, not at the world ("book with the button below")
_INTERFACE = re.compile(
    r"\b(?:you|click|tap|press|scroll)\b.{0,60}?\b(?:button|link|menu|tab|sidebar|dropdown|icon|"
    r"chat window|settings page)\b"
    r"|\b(?:see|visit|follow|use|open) the (?:link|button|menu|tab|sidebar)\b"
    r"|\b(?:button|link|form|menu) (?:below|above)\b|\b(?:below|above) this (?:message|answer|reply)\b",
    re.IGNORECASE,
)
#: apologies, refusals and abstentions ("I could not find that in the documents")
_ABSTAIN = re.compile(
    r"\bI (?:could not|couldn't|cannot|can't|can not|was unable to|am unable to|am not able to|"
    r"wasn't able to|was not able to|don't|do not|did not|didn't) (?:find|locate|see|access|answer|"
    r"confirm|verify|determine|provide|have|know|help)\b"
    r"|\b(?:the|these|those|your|provided) (?:documents?|sources?|context|references?|texts?|passages?|"
    r"materials?|information)(?: provided| given| you shared)? (?:do|does|did) ?(?:not|n't) "
    r"(?:mention|contain|say|specify|include|provide|state|cover|give)\b"
    r"|\b(?:no|not enough) information (?:about|on|regarding|in)\b|^\s*(?:I'?m|I am) (?:sorry|afraid)\b"
    r"|^\s*(?:unfortunately|sorry),? I\b|\bas an AI\b|\bI'?m (?:just )?an AI\b"
    r"|\b(?:I|we)\s+(?:\w+\s+)?apologi[sz]e\b|^\s*(?:(?:my|our|sincere|many)\s+)*apologies\b"
    r"|\b(?:sorry|apologies) (?:for|about) (?:the|any|that|this|my|our)\b",
    re.IGNORECASE,
)
_ADVICE = re.compile(
    r"\byou (?:should|must|might want to|may want to|could try|can try|need to|ought to)\b"
    r"|\b(?:make sure|be sure|don't forget|do not forget|feel free)\b",
    re.IGNORECASE,
)
_EXCLAMATION_START = re.compile(r"^\s*(?:what a|what an|how|wow|oh|ah|so)\b", re.IGNORECASE)


#: a footnote definition or a sources line: a citation, no claim
_CITATION_LINE = re.compile(r"\[\^[\w-]{1,20}\]:|(?:sources?|references?|citations?)\s*:", re.IGNORECASE)


def outside_scope_reason(text: str, *, imperative: bool = False) -> str | None:
    """Why ``text`` is not a factual claim, or ``None`` when it is one.

    Reasons (stable strings): ``"empty"``, ``"code"`` (a code block, inline code),
    ``"citation"`` (a footnote definition, a "Sources:" line), ``"question"``, ``"greeting"``, ``"courtesy"``
    (the assistant about itself or the exchange), ``"interface"`` (buttons, links, menus),
    ``"abstention"`` (apologies, refusals, "the documents do not mention ..."),
    ``"exclamation"``, ``"advice"`` (imperatives, "you should"), ``"opinion"``. FActScore
    (Min et al. 2023) likewise leaves out sentences that state nothing verifiable.
    ``imperative`` is the parser's finding that the clause is a command (advice).

    Examples
    --------
    >>> outside_scope_reason("I could not find that in the documents.")
    'abstention'
    >>> outside_scope_reason("The bridge opened in 1998.") is None
    True
    """
    s = text.strip()
    checks: tuple[tuple[str, bool], ...] = (
        ("empty", not s),
        ("code", s.startswith(("```", "~~~")) or (len(s) > 1 and s[0] == "`" and s.rstrip(".:")[-1:] == "`")),
        ("citation", bool(_CITATION_LINE.match(s))),
        ("question", s.endswith(("?", "？")) or s.startswith("¿")),
        ("abstention", bool(_ABSTAIN.search(s))),
        ("greeting", bool(_GREETING.search(s))),
        ("courtesy", bool(_COURTESY.search(s))),
        ("interface", bool(_INTERFACE.search(s))),
        (
            "exclamation",
            (s.endswith("!") and bool(_EXCLAMATION_START.search(s) or not _NUMBER.search(s)))
            or (s.endswith("！") and bool(_EXCLAMATION_START.search(s))),
        ),
        ("advice", bool(_ADVICE.search(s)) or imperative),
        # a judgement that also states a value is checked for the value ("one of the best
        # ultrabooks, with 32 GB of RAM"): the opinion must not hide a wrong number
        ("opinion", (bool(_OPINION_PHRASE.search(s)) or _evaluates(s)) and not _states_value(s)),
    )
    return next((reason for reason, hit in checks if hit), None)


_NUMBER_WORD = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
    r"hundred|thousand|million|billion)\b",
    re.I,
)


def _states_value(s: str) -> bool:
    """``s`` holds a number that is not part of a name ("32 GB", "in 1925", "three studio
    albums"; not "the Kite 14")."""
    if _NUMBER_WORD.search(s):
        return True
    for m in _NUMBER.finditer(s):
        before = re.search(r"(\S+)\s*$", s[: m.start()])
        word = before.group(1) if before else ""
        if not word[:1].isupper() or word.lower() in STOPWORDS:
            return True
    return False


def is_outside_scope(text: str, *, imperative: bool = False) -> bool:
    """True for questions, opinions, advice, greetings, courtesy, interface pointers,
    abstentions and exclamations (not factual claims); see :func:`outside_scope_reason`."""
    return outside_scope_reason(text, imperative=imperative) is not None


# --- sentence splitting -------------------------------------------------------------------
