"""Denial scope: which words a negated claim denies, and whether a reference claim's denying
clause states a denial of the same things.

Part of ``claims.verdict`` (see its docstring for the method); read by the polarity check
(``clause_checks.check_polarity``). Every function here parses with spaCy and raises
``claims.parses.ParserUnavailable`` when its English pipeline is not installed."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from claims.facets import Facets, content_tokens, extract
from claims.parses import parse
from claims.verdict.text import TOPIC_POS, clause_spans, coverage_of, tagged_tokens
from claims.verdict.thresholds import T

__all__ = ["denial_stated", "denied_words", "topic_tokens"]


def topic_tokens(f: Facets, tokens: Sequence[str]) -> list[str]:
    """The tokens among ``tokens`` (content tokens of ``f.text``) that name what the claim is
    about: those spaCy tags as a noun, name, adjective or number (``text.TOPIC_POS``), and
    those the parse leaves untagged (read as nouns); all of ``tokens`` when the parse tags no
    content word. Order kept."""
    tags = tagged_tokens(f.text)
    if not tags:
        return list(tokens)
    pos = {t: p for t, p in tags}
    return [t for t in tokens if pos.get(t, "NOUN") in TOPIC_POS]


#: an insertion inside a sentence, no clause boundary for a denial: "(a deep glacial basin)",
#: "[E6]", " — a Lyon design from 1988 — "
_INSERTION = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\]|\s[–—-]\s[^–—]*?\s[–—-](?=\s))")


def denial_stated(r: Facets, r_tokens: Sequence[str], c: Facets) -> bool:
    """Whether the reference claim ``c`` states a denial of what the negated response claim
    ``r`` denies.

    Parameters
    ----------
    r : Facets
        The response claim (``claims.facets.extract``).
    r_tokens : sequence of str
        Its content tokens as the pair check reads them (``Context.r_tokens``).
    c : Facets
        The reference claim.

    Returns
    -------
    bool
        True when some denying clause of ``c`` states ``COVERAGE_POLARITY`` (0.75, the share a
        flip needs of the claim's words) of the topic words (``topic_tokens``) of the clause of
        ``r`` that holds its negation cue (``denied_words``), or when that clause has no topic
        word ("of all faiths and none"); False otherwise, and always when ``c`` is not negated.

    The clauses of ``c`` are its ``clause_spans`` read without insertions in brackets or dashes;
    a denying insertion ("The Ferran vaccine (not approved for children) is ...") is a clause
    read with the words before it in its own clause. A denying clause without a noun subject of
    its own ("does not freeze", "it was not tested") is read with the clauses before it, up to
    two, back to the nearest that has a subject of its own: "The Brom bridge carries cars, and
    the Kell tunnel is older; it does not carry trains" denies trains of the tunnel, not of the
    bridge. A denial states a denial only of the same things ("Gold does not react with
    hydrochloric acid (HCl)" for "Gold does not react with hydrochloric acid": 3 of 4 topic
    words; "There is no overall charge to a water molecule" for "Hydrogen atoms in water
    molecules do not have a positive charge": 3 of 6)."""
    topic = topic_tokens(r, denied_words(r, r_tokens))
    if not topic:
        return True  # the cue denies no content word of the claim ("of all faiths and none")
    if not c.negated:
        return False
    return any(coverage_of(topic, words)[0] >= T.coverage_polarity for words in _denying_clauses(c))


def _denying_clauses(c: Facets) -> Iterator[list[str]]:
    """The content tokens of each denying clause of ``c``, with its subject's clause (see
    ``denial_stated``): the clauses of the text without insertions, then each denying insertion."""
    text = _INSERTION.sub("", c.text)
    spans = clause_spans(text)
    for k, (a, b) in enumerate(spans):
        clause = c if text == c.text and (a, b) == (0, len(text)) else extract(text[a:b])
        if not clause.negated:
            continue
        words = list(clause.tokens)
        if not _own_subject(text[a:b]):
            for s, e in reversed(spans[max(0, k - 2) : k]):
                words += content_tokens(text[s:e])
                if _own_subject(text[s:e]):
                    break
        yield words
    starts = [s for s, _ in clause_spans(c.text)] if text != c.text else []
    for m in _INSERTION.finditer(c.text):
        inner = m.group().strip().strip("()[]–—-").strip()
        if not inner or not extract(inner).negated:
            continue
        a = max((s for s in starts if s <= m.start()), default=0)
        yield content_tokens(inner) + content_tokens(_INSERTION.sub("", c.text[a : m.start()]))


def _own_subject(text: str) -> bool:
    """The clause has a noun or name as its subject, or an expletive "there" (spaCy's parse)."""
    return any(
        t.dep_ == "expl" or (t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in ("NOUN", "PROPN"))
        for t in parse(text)
    )


def denied_words(r: Facets, r_tokens: Sequence[str]) -> list[str]:
    """The tokens of ``r_tokens`` (content tokens of ``r.text``) in the clause of ``r``
    (``clause_spans``) that holds its negation cue, order kept; all of them when ``r`` has no
    cue or the cue is not found as a word. A denial in a clause denies that clause ("... said
    the search wasn't inclusive enough, and that the flag may go back to the drawing board")."""
    if not r.negation_cue:
        return list(r_tokens)
    before = "" if r.negation_cue.replace("’", "'") == "n't" else r"(?<![\w'’])"  # "n't" ends its word
    cue = re.search(rf"{before}{re.escape(r.negation_cue)}(?![\w'’])", r.text, re.I)
    if cue is None:
        return list(r_tokens)
    a, b = next(((a, b) for a, b in clause_spans(r.text) if a <= cue.start() < b), (0, len(r.text)))
    own = set(content_tokens(r.text[a:b]))
    return [t for t in r_tokens if t in own]
