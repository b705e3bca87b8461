"""Answered yes/no questions: "Does Jupiter have a solid surface? No." states "Jupiter does not
have a solid surface."

Question-and-answer pages (FAQs, help centres, quiz sites) are a common kind of retrieved
passage. A question alone states nothing (``claims.decompose`` keeps it as an outside-scope
claim), so without this the answer's "No." was lost and a claim the passage denies met no
evidence at all. A polar question is a clause that opens with an auxiliary ("does", "is",
"can", ...), after an optional lead-in ending in a comma or dash ("With all that gas, does
...?"); its answer is the next sentence when that sentence opens with "Yes" or "No" set off by a
punctuation mark (after "A:", or a lead-in that only says how sure the writer is: "From what we
know so far, no, it doesn't."); "No other planet ...", "Yes Bank ...", a lead-in that limits the
answer ("For most EU citizens, no") and a condition or hedge after it ("No, if you hold an EU
passport", "No, it depends") are no answer. The statement is
the question's subject (from spaCy's parse: the subtree of the auxiliary's subject), the
auxiliary, "not" for a "No", and the rest of the question.
"""

from __future__ import annotations

import re

from claims.parses import parse

__all__ = ["answered_question"]

_AUXILIARIES = "does|do|did|is|are|was|were|can|could|has|have|had|will|would|should|may|might|must"
#: the question clause: an auxiliary at the start or after a lead-in ending in a comma or a dash
_QUESTION = re.compile(
    rf"(?:^|[,;:–—]\s*|\s-\s*)(?P<aux>{_AUXILIARIES})\s+(?P<rest>[^?,;:]+?)\s*\?\s*$", re.IGNORECASE
)
#: the answer: "Yes"/"No" first (after "A:"), or after a lead-in that only says how sure the
#: writer is ("As far as we know, no"); a lead-in that limits the answer ("For most EU citizens,
#: no", "Generally, no") and an answer that is hedged after it ("No, it depends", "No, if ...")
#: are no answer
_ANSWER = re.compile(
    r"^\s*(?:A\s*[:.]\s*)?"
    r"(?:(?:as\s+far\s+as|from\s+what)\s+(?:we|i|anyone|scientists|researchers)\s+(?:know|can\s+tell)"
    r"(?:\s+(?:so\s+far|today|now))?\s*,\s*|(?:in\s+short|simply\s+put|the\s+short\s+answer\s+is)\s*,?\s*)?"
    r"(?P<answer>yes|yeah|yep|no|nope)\s*"
    r"(?:[.!;]|,(?!\s*(?:if|unless|only|but|except|it\s+depends|not\s+(?:always|necessarily|quite|exactly))\b)|$)",
    re.I,
)
_NEGATED = {"can": "cannot", "will": "will not", "shall": "shall not"}


def answered_question(question: str, answer: str) -> tuple[str, int, int] | None:
    """The statement of a yes/no ``question`` answered by the sentence ``answer``, where the
    question clause starts in ``question`` and where the answer word ends in ``answer``; None
    when ``question`` is no polar question, ``answer`` opens with neither "yes" nor "no", or the
    question's subject cannot be read.

    Parameters
    ----------
    question : str
        One sentence ending in "?".
    answer : str
        The sentence after it.

    Returns
    -------
    (str, int, int) or None
        The statement (capitalised, ending in "."), the character offset of the question
        clause's auxiliary in ``question`` and the offset just past "yes"/"no" in ``answer``.

    Examples
    --------
    >>> answered_question("Does Jupiter have a solid surface?", "No.")
    ('Jupiter does not have a solid surface.', 0, 2)
    >>> answered_question("With all that gas, is copper more reactive than iron?", "Yes, it is.")
    ('Copper is more reactive than iron.', 19, 3)
    >>> answered_question("Can the mayor veto the budget?", "As far as we know, no, she cannot.")
    ('The mayor cannot veto the budget.', 0, 21)
    >>> answered_question("Does Jupiter have a solid surface?", "We do not yet know.") is None
    True
    >>> answered_question("What is the surface of Jupiter?", "No.") is None
    True
    >>> answered_question("Is Earth the only planet with water?", "No other planet has water.") is None
    True
    >>> answered_question("Do I need a visa?", "No, if you hold an EU passport.") is None
    True
    >>> answered_question("Do I need a visa?", "For most EU citizens, no.") is None
    True
    >>> answered_question("Q: Is the pool heated?", "A: Nope.")[0]
    'The pool is not heated.'

    """
    q, a = _QUESTION.search(question), _ANSWER.match(answer)
    if q is None or a is None:
        return None
    aux, rest = q.group("aux"), q.group("rest")
    split = _subject_end(f"{aux} {rest}?", len(aux) + 1)
    if split is None:
        return None
    subject, predicate = rest[:split].strip(), rest[split:].strip()
    if not subject or not predicate:
        return None
    verb = aux.lower()
    if a.group("answer").lower() in ("no", "nope"):
        verb = _NEGATED.get(verb, f"{verb} not")
    statement = f"{subject} {verb} {predicate}."
    return statement[:1].upper() + statement[1:], q.start("aux"), a.end("answer")


def _subject_end(clause: str, offset: int) -> int | None:
    """Where the subject of the question ``clause`` ends, counted from ``offset`` (the first
    character after the auxiliary): the end of the subtree of the auxiliary's subject in
    spaCy's parse; None when the parse has none."""
    doc = parse(clause)
    if doc is None:
        return None
    subject = next(
        (
            t
            for t in doc
            if t.dep_ in ("nsubj", "nsubjpass", "expl") and t.idx >= offset and t.head.dep_ == "ROOT"
        ),
        None,
    )
    if subject is None:
        return None
    last = subject.right_edge
    return int(last.idx + len(last.text)) - offset
