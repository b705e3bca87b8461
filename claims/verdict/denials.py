"""Denial scope: which words a negated claim denies, and whether a reference claim's denying
clause states a denial of the same things.

Part of ``claims.verdict`` (see its docstring for the method); read by the polarity check
(``clause_checks.check_polarity``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from claims.facets import Facets, content_tokens, extract
from claims.parses import parse
from claims.verdict.text import clause_spans, coverage_of
from claims.verdict.thresholds import T

__all__ = ["TOPIC_POS", "denial_stated", "denied_words", "tagged_tokens", "topic_tokens"]


@lru_cache(maxsize=65536)
def tagged_tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(content token, spaCy coarse part of speech) for every content word of ``text``, in order;
    cached."""
    doc = parse(text[:1000])
    if doc is None:
        return ()
    return tuple((t, tok.pos_) for tok in doc for t in content_tokens(tok.text))


#: parts of speech of the words a statement is about (its participants and properties)
TOPIC_POS = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})


def topic_tokens(f: Facets, tokens: Sequence[str]) -> list[str]:
    """The tokens among ``tokens`` that name what the claim is about: nouns, names, adjectives
    (spaCy's tags); all of ``tokens`` when the parse tags no content word."""
    tags = tagged_tokens(f.text)
    if not tags:
        return list(tokens)
    pos = {t: p for t, p in tags}
    return [t for t in tokens if pos.get(t, "NOUN") in TOPIC_POS]


#: an insertion inside a sentence, no clause boundary for a denial: "(a deep glacial basin)",
#: "[E6]", " — a Lyon design from 1988 — "
_INSERTION = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\]|\s[–—-]\s[^–—]*?\s[–—-](?=\s))")


def denial_stated(r: Facets, r_tokens: Sequence[str], c: Facets) -> bool:
    """Some denying clause of ``c`` (``clause_spans``, insertions in brackets or dashes left
    out) states ``COVERAGE_POLARITY`` (0.75) of the words the claim's denial is about: the
    nouns, names and adjectives (``topic_tokens``) of the clause of ``r`` that holds its
    negation cue (``denied_words``). A denying clause without a noun subject of its own ("does
    not freeze", "it was not tested") is read with up to two clauses before it, where its
    subject is. A denial states a denial only of the same things ("Gold does not react with
    hydrochloric acid (HCl)" / "Gold does not react with hydrochloric acid": 3 of 4; "There is
    no overall charge to a water molecule" / "Hydrogen atoms in water molecules do not have a
    positive charge": 3 of 6); the share is the one a flip needs of the claim's words."""
    topic = topic_tokens(r, denied_words(r, r_tokens))
    if not topic:
        return True  # the cue denies no content word of the claim ("of all faiths and none")
    if not c.negated:
        return False
    text = _INSERTION.sub("", c.text)
    spans = clause_spans(text)
    for k, (a, b) in enumerate(spans):
        clause = c if text == c.text and (a, b) == (0, len(text)) else extract(text[a:b])
        if not clause.negated:
            continue
        words = list(clause.tokens)
        if not _own_subject(text[a:b]):
            words += [t for s, e in spans[max(0, k - 2) : k] for t in content_tokens(text[s:e])]
        if coverage_of(topic, words)[0] >= T.coverage_polarity:
            return True
    return False


def _own_subject(text: str) -> bool:
    """The clause has a noun or name as its subject, or an expletive "there" (spaCy's parse)."""
    return any(
        t.dep_ == "expl" or (t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in ("NOUN", "PROPN"))
        for t in parse(text)
    )


def denied_words(r: Facets, r_tokens: Sequence[str]) -> list[str]:
    """The tokens of ``r_tokens`` in the clause of ``r`` (``clause_spans``) that holds the
    negation cue (all of them when the cue is not found as a word): a denial in a clause
    denies that clause ("... said the search wasn't inclusive enough, and that the flag may go
    back to the drawing board")."""
    if not r.negation_cue:
        return list(r_tokens)
    before = "" if r.negation_cue.replace("’", "'") == "n't" else r"(?<![\w'’])"  # "n't" ends its word
    cue = re.search(rf"{before}{re.escape(r.negation_cue)}(?![\w'’])", r.text, re.I)
    if cue is None:
        return list(r_tokens)
    a, b = next(((a, b) for a, b in clause_spans(r.text) if a <= cue.start() < b), (0, len(r.text)))
    own = set(content_tokens(r.text[a:b]))
    return [t for t in r_tokens if t in own]
