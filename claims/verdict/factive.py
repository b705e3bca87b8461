"""Whether a text asserts a verb's event: a verb under a non-implicative head ("was invited to
perform", "hoped to perform"; Karttunen 1971, "Implicative verbs", Language 47), in the
complement of a verb of saying or believing ("critics claimed that the choir performed"), in a
condition ("if the choir had performed") or under a modal ("would perform") states nothing of
the event. A denial in the claim ("The choir did not perform in Graz") contradicts only a
reference that asserts the event, so the polarity check reads the reference's verb through
``asserts``.

Read from spaCy's parse (``claims.parses.parse``): the verb's own auxiliaries, then its heads up
to the root of the sentence.
"""

from __future__ import annotations

from typing import Any

from claims.parses import parse
from claims.verdict.one_way import verb_key

__all__ = ["asserts"]


def _forms(base: str) -> set[str]:
    """The regular forms of a verb ("plan" -> planned, plans, planning; "try" -> tried, tries;
    "hope" -> hoped, hoping) and its key: what a head word is compared with (the stemmer keeps
    "planned" and "plan" apart)."""
    out = {base, base + "s", base + "es", base + "ing", verb_key(base)}
    if base.endswith("e"):
        out |= {base + "d", base[:-1] + "ing"}
    elif base.endswith("y") and base[-2:-1] not in tuple("aeiou"):
        out |= {base[:-1] + "ied", base[:-1] + "ies"}
    else:
        out |= {base + "ed", base + base[-1] + "ed", base + base[-1] + "ing"}
    return out


#: heads whose infinitive complement ("xcomp") is not implied to have happened: wants, plans,
#: attempts, invitations, requests, permissions, promises and refusals (implicatives such as
#: "managed to", "went on to", "began to" are absent: they assert their complement)
_NON_IMPLICATIVE = frozenset(
    f
    for w in (
        "hope", "want", "wish", "plan", "intend", "aim", "seek", "try", "attempt", "expect",
        "invite", "ask", "urge", "allow", "permit", "propose", "promise", "threaten", "refuse",
        "offer", "agree", "schedule", "prepare", "hope", "desire", "mean", "arrange", "encourage",
        "request", "require", "order", "advise", "need", "long",
    )
    for f in _forms(w)
)  # fmt: skip
#: heads whose clausal complement ("ccomp") is reported, believed or doubted, not asserted
_REPORTING = frozenset(
    f
    for w in (
        "claim", "say", "allege", "report", "believe", "think", "suggest", "argue", "deny",
        "rumour", "rumor", "suspect", "doubt", "assume", "guess", "imagine", "speculate", "insist",
        "hypothesize", "hypothesise", "propose", "estimate", "fear",
    )
    for f in _forms(w)
)  # fmt: skip
#: subordinators of a condition
_CONDITIONS = frozenset(["if", "unless", "whether"])
#: modal auxiliaries (and the future's) that leave the event unstated
_MODALS = frozenset(["would", "could", "might", "should", "may", "must", "will", "shall"])


def _unasserted_here(tok: Any) -> bool:
    if any(k.dep_ == "aux" and k.lower_ in _MODALS for k in tok.children):
        return True
    if tok.dep_ == "advcl" and any(k.dep_ == "mark" and k.lower_ in _CONDITIONS for k in tok.children):
        return True
    word = tok.head.lower_
    heads = {word, verb_key(word)}
    if tok.dep_ == "xcomp" and heads & _NON_IMPLICATIVE:
        return True
    return tok.dep_ in ("ccomp", "xcomp") and bool(heads & _REPORTING)


def asserts(text: str, verb: str) -> bool:
    """Whether ``text`` asserts an event of ``verb`` (a word; compared by stem): some verb of
    that stem in the parse stands in no non-implicative, reporting, conditional or modal context
    (module docstring), from itself up to its sentence's root. True when the text has no verb of
    that stem (nothing to read: the caller's other checks decide)."""
    doc = parse(text)
    key = verb_key(verb)
    found = [t for t in doc or () if t.pos_ in ("VERB", "AUX") and verb_key(t.lower_) == key]
    if not found:
        return True
    for tok in found:
        node, free = tok, True
        while True:
            if _unasserted_here(node):
                free = False
                break
            if node.head.i == node.i:
                break
            node = node.head
        if free:
            return True
    return False
