"""Background claims: what a report tells about the people and things it names, not its news
(``is_background``).

A report tells its news in its main clauses and describes the people and things it names in
modifiers: "Dana Pirell, who founded the Kelby Rowing Club, announced her retirement on Monday"
reports the retirement; the founding is background, of any date. The report's dateline
("March 3, 2019") dates the news, not the background, so an inference that joins a dateline's
year with a background claim ("Dana Pirell founded the Kelby Rowing Club in 2019") is no
inference (``claims.verdict.infer.infer_pairs``), and the learned decision may not make it one
(the finding "background" stands: ``claims.decision.STANDING_FINDINGS``). Background: a claim
decomposed from a relative clause, a clausal modifier, an appositive or a past participle of a
noun, and a claim in the past perfect ("She had joined the paper as a copy clerk."), unless it
tells a time of its own that the dateline anchors ("Storm Ada, which hit the coast on Tuesday,
..."). A claim that states a state with a copula ("Mira Oyelaran was the chief executive of
Vessa Airlines in 2019") may take the report's date from an appositive or a relative clause,
which describe the subject as the report found it (``dated_state``).

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from claims.facets import content_tokens
from claims.parses import parse
from claims.sentences import split_sentences
from claims.types import ReferenceClaim

#: dependency labels (spaCy's English scheme, ClearNLP) of a modifier of a noun: a relative
#: clause ("who founded the club"), a clausal modifier ("founded by Dana Pirell"), an appositive
#: ("the founder of the club")
_NOUN_MODIFIER = frozenset({"relcl", "acl", "appos"})
#: a time told relative to the report's date, which its dateline anchors ("on Tuesday",
#: "yesterday", "this week"); a day name alone is no such time ("the Sunday Times")
_DEICTIC = re.compile(
    r"\b(?:(?:on|last|this|early|late) (?:mon|tues|wednes|thurs|fri|satur|sun)day|yesterday|today"
    r"|tonight|overnight|this (?:week|weekend|morning|afternoon|evening|month)"
    r"|last (?:night|week|weekend)|earlier (?:this|today))\b",
    re.I,
)
#: the forms of "be" that make a claim a copula
_COPULA = frozenset({"is", "was", "are", "were", "be", "been", "'s"})


def _past_participle(tok: Any) -> bool:
    """An adverbial clause of a past participle without a subject or a subordinator of its own:
    a perfect participle ("having founded the club in 2001, she ..."), an event before the
    main clause's, or a passive one ("Born in Oslo, the novelist ...", "Founded by Marta Oyelaran,
    the lab ..."), a description of the subject."""
    return (
        tok.dep_ == "advcl"
        and tok.tag_ == "VBN"
        and not any(k.dep_ in {"nsubj", "nsubjpass", "mark"} for k in tok.children)
    )


def _past_perfect(text: str) -> bool:
    """The main verb of ``text`` is in the past perfect ("She had joined the paper as a copy
    clerk."): an event before the time the report tells of. A reported clause in the past
    perfect ("announced on Monday that it had hired ...") is not the main verb."""
    root = next((t for t in parse(text) if t.dep_ == "ROOT"), None)
    return (
        root is not None
        and root.tag_ == "VBN"
        and any(k.dep_ == "aux" and k.lower_ == "had" for k in root.children)
    )


@lru_cache(maxsize=256)
def _sentences(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(split_sentences(text))


def _modifier(rc: ReferenceClaim, reference_texts: Sequence[str] | None) -> str | None:
    """The dependency label of the modifier the claim ``rc`` was decomposed from ("relcl",
    "acl", "appos", "advcl" for a past participle), or None: its locator (``rc.claim.start``,
    ``end``: characters of its reference document) is part of one sentence, and the words there
    depend, through a word outside the locator, as such a modifier. None for a claim whose
    locator is its whole sentence, a claim of a coordinated clause, and any claim when the
    reference texts are not given."""
    if reference_texts is None or not 0 <= rc.reference < len(reference_texts):
        return None
    text = reference_texts[rc.reference]
    start, end = rc.claim.start, rc.claim.end
    sentence = next(((s, e) for s, e in _sentences(text) if s <= start and end <= e), None)
    if sentence is None or sentence == (start, end):
        return None
    s0 = sentence[0]
    doc = parse(text[s0 : sentence[1]])

    def inside(tok: Any) -> bool:
        return bool(start <= s0 + tok.idx < end)

    roots = [t for t in doc if inside(t) and (t.head.i == t.i or not inside(t.head))]
    return next((t.dep_ for t in roots if t.dep_ in _NOUN_MODIFIER or _past_participle(t)), None)


def dated_state(claim: str) -> bool:
    """Whether ``claim`` states a state with a copula ("Mira Oyelaran was the chief executive of
    Vessa Airlines in 2019"), which an appositive or a relative clause of a dated report may date:
    they describe the subject as the report found it."""
    root = next((t for t in parse(claim) if t.dep_ == "ROOT"), None)
    return root is not None and bool(root.lower_ in _COPULA)


def is_background(rc: ReferenceClaim, reference_texts: Sequence[str] | None, claim: str = "") -> bool:
    """Whether the reference claim ``rc`` tells background (module docstring) for the response
    claim ``claim``: it was decomposed from a modifier of a noun (``_modifier``) or its main verb
    is in the past perfect (``_past_perfect``), it tells no time the dateline anchors
    (``_DEICTIC``), and it is no appositive or relative clause when ``claim`` states a state
    (``dated_state``). English parse (``claims.parses.parse``, cached); raises
    ``ParserUnavailable`` without it."""
    if _DEICTIC.search(rc.claim.text):
        return False
    kind = _modifier(rc, reference_texts) or ("perfect" if _past_perfect(rc.claim.text) else None)
    if kind in {"appos", "relcl"} and claim and dated_state(claim):
        return False
    return kind is not None


def main_verb(claim: str) -> str | None:
    """The stem of the root verb of ``claim`` (``claims.facets.content_tokens``: "resigned" ->
    "resign"), or None for a root that is no verb or no content word ("is")."""
    root = next((t for t in parse(claim) if t.dep_ == "ROOT"), None)
    stems = content_tokens(root.text) if root is not None and root.pos_ == "VERB" else []
    return stems[0] if stems else None
