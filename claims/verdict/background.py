"""Background claims: what a report tells about the people and things it names, not its news
(``is_background``).

A report tells its news in its main clauses and describes the people and things it names in
modifiers: "Dana Pirell, who founded the Kelby Rowing Club, announced her retirement on Monday"
reports the retirement; the founding is background, of any date. The report's dateline
("March 3, 2019") dates the news, not the background, so an inference that joins a dateline's
year with the event of a background claim ("Dana Pirell founded the Kelby Rowing Club in 2019")
is no inference (``claims.verdict.infer.infer_pairs``: only where the background claim, and no
claim of the news, states the claim's verb), and the learned decision may not make it one (the
finding "background" stands: ``claims.decision.STANDING_FINDINGS``).

Background: a claim decomposed from a relative clause or a clausal modifier of a noun in the
past ("who founded the club", "founded by Dana Pirell"), from a past participle that heads an
adverbial clause ("Born in Oslo, the novelist ...", "Having won the cup twice, the club ..."),
or with its main verb in the past perfect ("She had joined the paper as a copy clerk."). Not
background: a modifier in the present, a state as the report found it ("which employs 500
people", "who owns the club"); an appositive, a noun that tells no event of its own ("the
founder of the club"); and any claim that tells a time of its own, which the dateline anchors
("Storm Ada, which hit the coast on Tuesday, ...": ``_OWN_TIME``).

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

#: dependency labels (spaCy's English scheme, ClearNLP) of a clause that modifies a noun: a
#: relative clause ("who founded the club"), a clausal modifier ("founded by Dana Pirell")
_NOUN_CLAUSE = frozenset({"relcl", "acl"})
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
#: a time of the claim's own that the report's date anchors: a day name ("Tuesday", "on
#: Tuesday night"), a month and day without a year ("on February 28"), a time relative to the
#: report ("yesterday", "this week", "this year", "over the weekend", "two days ago", "by Monday")
_OWN_TIME = re.compile(
    rf"\b(?:{_DAYS}|yesterday|today|tonight|overnight|recently"
    rf"|{_MONTHS} \d{{1,2}}(?:st|nd|rd|th)?\b(?!,? \d{{4}})|\d{{1,2}}(?:st|nd|rd|th)? {_MONTHS}(?! \d{{4}})"
    r"|(?:this|last|earlier this|later this) (?:week|weekend|morning|afternoon|evening|month|year)"
    r"|(?:over|during) the weekend|last night|\w+ (?:days|weeks) ago)\b",
    re.I,
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


def _past_clause(tok: Any) -> bool:
    """A clause that tells a past event of a noun or of the subject: a relative clause or a
    clausal modifier whose verb is in the past (simple past, a past participle: "who founded the
    club", "founded by Dana Pirell"; not "who owns the club", "a firm making cars"), or an
    adverbial clause of a past participle without a subject or subordinator of its own ("Born
    in Oslo, ...", "having won the cup, ...")."""
    if tok.dep_ in _NOUN_CLAUSE:
        present = tok.tag_ in {"VBZ", "VBP", "VBG"} or any(
            k.dep_ in {"aux", "auxpass"} and k.tag_ in {"VBZ", "VBP"} for k in tok.children
        )
        return tok.tag_ in {"VBD", "VBN"} and not present
    return (
        tok.dep_ == "advcl"
        and tok.tag_ == "VBN"
        and not any(k.dep_ in {"nsubj", "nsubjpass", "mark"} for k in tok.children)
    )


@lru_cache(maxsize=256)
def _sentences(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(split_sentences(text))


def _from_past_clause(rc: ReferenceClaim, reference_texts: Sequence[str] | None) -> bool:
    """Whether the claim ``rc`` was decomposed from a past clause of its sentence
    (``_past_clause``): its locator (``rc.claim.start``, ``end``: characters of its reference
    document) is part of one sentence, and the words there depend on a word outside it through
    such a clause. False for a claim whose locator is its whole sentence, a claim of a
    coordinated clause, and any claim when the reference texts are not given."""
    if reference_texts is None or not 0 <= rc.reference < len(reference_texts):
        return False
    text = reference_texts[rc.reference]
    start, end = rc.claim.start, rc.claim.end
    sentence = next(((s, e) for s, e in _sentences(text) if s <= start and end <= e), None)
    if sentence is None or sentence == (start, end):
        return False
    s0 = sentence[0]
    doc = parse(text[s0 : sentence[1]])

    def inside(tok: Any) -> bool:
        return bool(start <= s0 + tok.idx < end)

    return any(_past_clause(t) for t in doc if inside(t) and (t.head.i == t.i or not inside(t.head)))


def is_background(rc: ReferenceClaim, reference_texts: Sequence[str] | None) -> bool:
    """Whether the reference claim ``rc`` tells background (module docstring): decomposed from a
    past clause of its sentence (``_from_past_clause``) or with its main verb in the past
    perfect (``_past_perfect``), and with no time of its own (``_OWN_TIME``). English parse
    (``claims.parses.parse``, cached); raises ``ParserUnavailable`` without it."""
    if _OWN_TIME.search(rc.claim.text):
        return False
    return _past_perfect(rc.claim.text) or _from_past_clause(rc, reference_texts)


def main_verb(claim: str) -> str | None:
    """The stem of the root verb of ``claim`` (``claims.facets.content_tokens``: "resigned" ->
    "resign"), or None for a root that is no verb or no content word ("is")."""
    root = next((t for t in parse(claim) if t.dep_ == "ROOT"), None)
    stems = content_tokens(root.text) if root is not None and root.pos_ == "VERB" else []
    return stems[0] if stems else None
