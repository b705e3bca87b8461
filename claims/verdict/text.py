"""Words, clauses and the subject of a claim: coverage of content words, clause windows, subject head.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from claims.facets import (
    TokenSet,
    content_tokens,
    extract,
    token_match,
)
from claims.facets.vocabulary import MONTHS
from claims.parses import parse
from claims.types import ClaimKind, ReferenceClaim
from claims.verdict.findings import CLAUSE_SPLIT


def coverage_of(tokens: Sequence[str], other: Sequence[str]) -> tuple[float, set[str]]:
    if not tokens:
        return 1.0, set()
    index = TokenSet(other)
    covered = {t for t in tokens if t in index}
    return sum(1 for t in tokens if t in covered) / len(tokens), covered


def clause_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos = 0
    for m in CLAUSE_SPLIT.finditer(text):
        if m.start() > pos:
            spans.append((pos, m.start()))
        pos = m.end()
    if pos < len(text):
        spans.append((pos, len(text)))
    return spans or [(0, len(text))]


def best_clause(r_tokens: Sequence[str], text: str) -> tuple[int, int, float]:
    """Clause of ``text`` covering most of the response tokens; extended leftwards over
    clauses that add coverage (subject in the first clause, predicate in the second)."""
    spans = clause_spans(text)
    best = (0, len(text), -1.0)
    for a in range(len(spans)):
        for b in range(a, min(len(spans), a + 3)):
            s, e = spans[a][0], spans[b][1]
            cov, _ = coverage_of(r_tokens, content_tokens(text[s:e]))
            # prefer short windows at equal coverage
            if cov > best[2] + 1e-9:
                best = (s, e, cov)
    return best


def widen(text: str, start: int, end: int) -> tuple[int, int]:
    """Extend a clause window over neighbouring clauses that carry (almost) no content words of
    their own, e.g. a fronted "In 2004," or a trailing "in 1998"."""
    spans = clause_spans(text)
    for a, b in spans:
        if (
            b <= start
            and len(content_tokens(text[a:b])) <= 1
            and all(len(content_tokens(text[x:y])) <= 1 for x, y in spans if b <= x < start)
        ):
            start = min(start, a)
            break
    for a, b in spans:
        if a >= end and len(content_tokens(text[a:b])) <= 1:
            end = max(end, b)
        elif a >= end:
            break
    return start, end


_FRONTED = re.compile(
    r"^\s*(?:in|on|at|during|after|before|by|since|from|for|under|according to|as of|with|when|while)"
    r"\b[^,]{0,80},\s*",
    re.I,
)


@lru_cache(maxsize=65536)
def subject_head(text: str) -> str | None:
    """The claim's subject head as a content token: the first content word that is not a
    value, after a fronted phrase ("In the diabetes trial, 31% of patients ..." -> "patient";
    "The museum in Tromsø was built" -> "museum"; "Lyon is the capital" -> "lyon"), the noun
    when that word is an adjective ("The busy centre works" -> "centre", see
    ``subject_modifier``). None when the sentence opens with a pronoun or has no content word
    before its first number. Cached."""
    return subject_of(text)[0]


def subject_modifier(text: str) -> str | None:
    """The adjective ``subject_head`` skipped ("The busy centre works" -> "busy"), else None."""
    return subject_of(text)[1]


@lru_cache(maxsize=65536)
def subject_of(text: str) -> tuple[str | None, str | None]:
    body = _FRONTED.sub("", text, count=1)
    first = re.match(r"\s*([\w'’-]+)\s+([\w'’-]+)", body)
    if first is None or first.group(1).lower() in _PRONOUNS:
        return None, None
    # only a noun phrase in subject position: it opens with a determiner ("The museum ...")
    # or its one word is followed by an auxiliary ("Lyon is ..."); a verb-first fragment
    # ("Speaks Spanish fluently") has no subject
    if first.group(1).lower() not in _DETERMINERS and first.group(2).lower() not in _AUX:
        return None, None
    for t in content_tokens(body):
        if re.search(r"\d", t):
            continue
        noun = _noun_head(body, t)
        return noun, (t if noun != t else None)
    return None, None


def _noun_head(body: str, first: str) -> str:
    """The noun ``first`` (the subject's first content word) modifies when it is an adjective:
    the last noun of the run of adjectives and nouns it opens (spaCy's part-of-speech tags).
    "The busy centre works ..." -> "centre". A noun stays ("The oxygen atom" -> "oxygen": the
    modifier picks out the subject), and so do capitalised words ("The Halvorsen Bridge")."""
    doc = parse(body[:300])
    if doc is None:
        return first
    toks = list(doc)
    at = next((i for i, t in enumerate(toks) if content_tokens(t.text)[:1] == [first]), None)
    if at is None or toks[at].text[:1].isupper():
        return first
    if not (toks[at].pos_ == "ADJ" or toks[at].dep_ == "amod"):
        return first
    last = None
    for t in toks[at + 1 :]:
        if t.pos_ not in ("ADJ", "NOUN") or t.text[:1].isupper():
            break
        if t.pos_ == "NOUN":
            last = t
    head = content_tokens(last.text) if last is not None else []
    return head[0] if head else first


def other_modifier(text: str, head: str, modifier: str) -> bool:
    """``text`` modifies ``head`` with another adjective or noun than ``modifier`` (spaCy's
    parse): "The old bridge" for the claim's "new bridge" is a different subject; "The bridge"
    has no modifier."""
    doc = parse(text[:300])
    if doc is None:
        return False
    for tok in doc:
        if content_tokens(tok.text)[:1] != [head]:
            continue
        for mod in tok.lefts:
            if (
                mod.dep_ in ("amod", "compound")
                and mod.is_alpha
                and mod.lower_ != modifier
                and not token_match(modifier, mod.lower_)
            ):
                return True
    return False


@lru_cache(maxsize=65536)
def subject_heads(text: str) -> tuple[str, ...]:
    """Every word that can name the claim's subject: ``subject_head(text)`` and, when the subject
    is a capitalised name, the further words of that name ("The Halvorsen Bridge carries ..." ->
    ("halvorsen", "bridge")), so that a reference claim about "the suspension bridge" still
    speaks of the same subject. Empty when there is no subject head. Cached."""
    head = subject_head(text)
    if head is None:
        return ()
    body = _FRONTED.sub("", text, count=1)
    words = re.findall(r"[\w'’-]+", body)
    if words and words[0].lower() in _DETERMINERS:
        words = words[1:]
    heads = [head]
    if words and words[0][:1].isupper():
        for w in words[1:4]:
            if not w[:1].isupper():
                break
            heads.extend(t for t in content_tokens(w) if t not in heads)
    return tuple(heads)


def named_subject(text: str) -> bool:
    """The subject is a name of two or more capitalised words ("The Kestrel Bridge ...")."""
    if subject_head(text) is None:
        return False
    words = re.findall(r"[\w'’-]+", _FRONTED.sub("", text, count=1))
    if words and words[0].lower() in _DETERMINERS:
        words = words[1:]
    return len(words) >= 2 and words[0][:1].isupper() and words[1][:1].isupper()


def head_word(text: str) -> str:
    """The surface word of ``subject_head(text)`` (for reasons)."""
    head = subject_head(text) or ""
    body = _FRONTED.sub("", text, count=1)
    return next((w for w in re.findall(r"[\w'’-]+", body) if content_tokens(w)[:1] == [head]), head)


_DETERMINERS = frozenset({"the", "a", "an"})
_AUX = frozenset(["is", "was", "are", "were", "has", "had", "have", "will", "would", "can", "could", "may"])
_PRONOUNS = frozenset(
    [
        "he",
        "she",
        "it",
        "they",
        "we",
        "i",
        "you",
        "his",
        "her",
        "its",
        "their",
        "our",
        "this",
        "that",
        "these",
        "those",
        "there",
        "which",
        "who",
    ]
)


def verb_adjunct_tokens(
    text: str, tokens: Sequence[str], preps: frozenset[str] | None = None
) -> frozenset[str]:
    """The tokens among ``tokens`` that only say in what manner or circumstance the main verb of
    ``text`` holds: the words of a prepositional phrase on it ("Honey spoils over time", "causes
    rashes in mice") or of a passive's agent ("was damaged by the storm"), unless the phrase
    holds a number, a month or a name ("in 2019", "in Paris": another time or place may be
    another event). ``preps``: the prepositions whose phrases count (None: all). Empty without
    the parser or when the root is no verb.

    >>> sorted(verb_adjunct_tokens("Honey spoils over time.", ["honey", "spoil", "time"]))
    ['time']
    >>> sorted(verb_adjunct_tokens("Honey spoils in 2019.", ["honey", "spoil"]))
    []
    """
    doc = parse(text[:1000])
    root = next((t for t in doc or () if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("VERB", "AUX"):
        return frozenset()
    words: set[str] = set()
    for prep in root.children:
        if not (prep.dep_ == "agent" or prep.dep_ == "prep" and (preps is None or prep.lower_ in preps)):
            continue
        phrase = list(prep.subtree)
        if any(t.like_num or t.pos_ in ("PROPN", "NUM") or t.lower_ in MONTHS for t in phrase):
            continue
        words.update(w for t in phrase for w in content_tokens(t.text))
    return frozenset(t for t in tokens if t in words)


#: the parts of speech of a content word (spaCy's universal tags)
CONTENT_POS = frozenset({"ADJ", "ADV", "VERB", "NOUN"})


def content_word(text: str, word: str) -> bool:
    """``word`` (case-insensitive) is a content word of ``text`` by its first token's part of
    speech in the parse (``CONTENT_POS``); True when the text does not hold it as a token or has
    no parse. A preposition's opposite ("sued it for libel" / "against") is not the claim's
    predicate."""
    tok = next((t for t in parse(text) or () if t.text.lower() == word.lower()), None)
    return tok is None or tok.pos_ in CONTENT_POS


def _verbatim_key(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(" .;:!")


def stated_verbatim(text: str, reference_claims: Sequence[ReferenceClaim]) -> int | None:
    """The index of the first material reference claim with the same text as ``text`` (case,
    runs of white space and a final stop ignored), or None. Such a claim is entailed by
    identity; no facet check may contradict it (an audit of a text against itself is all
    ``supported``)."""
    key = _verbatim_key(text)
    for j, rc in enumerate(reference_claims):
        if rc.claim.kind is ClaimKind.MATERIAL and _verbatim_key(rc.claim.text) == key:
            return j
    return None


@lru_cache(maxsize=65536)
def tagged_tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(content token, spaCy coarse part of speech) for every content word of ``text`` (its first
    1,000 characters), in order; cached. Raises ``claims.parses.ParserUnavailable`` when spaCy's
    English pipeline is not installed."""
    return tuple((t, tok.pos_) for tok in parse(text[:1000]) for t in content_tokens(tok.text))


#: parts of speech of the words a statement is about (its participants and properties)
TOPIC_POS = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})


def as_name_only(text: str, word: str) -> bool:
    """Every occurrence of ``word`` (whole word, case-insensitive) in ``text`` is part of a
    multi-word proper name or of a measure, so ``text`` does not use it as a common word. A
    name by spaCy's parse (``claims.parses.parse``): a proper noun compounded with another ("the
    High Court", "Hot Springs Park", "the Dead Sea", "Rich Hill"), not an adjective before a
    name ("Expensive London rents") and nothing in a line in title case ("CBSN Live Streaming
    Free", where the parser calls every word a name). A measure: after a quantity with a unit of
    measure (``claims.facets.extract``: "300 metres deep", "20 years old", "300 ft. high"; not a
    count, "2 passengers dead"). False when ``text`` does not hold ``word``."""
    found = list(re.finditer(rf"\b{re.escape(word)}\b", text, re.IGNORECASE))
    if not found:
        return False
    names = _name_words(text)
    return all(m.start() in names or _measured(text, m) for m in found)


def named_alike(text: str, word: str, other_text: str, other: str) -> bool:
    """``word`` in ``text`` and ``other`` in ``other_text`` are both common words or both parts of
    names (``as_name_only``): an opposite is compared only then ("Hot Springs" / "Cold Springs"
    are two names; "the High Court" is no pole of "high fees")."""
    return as_name_only(text, word) == as_name_only(other_text, other)


@lru_cache(maxsize=8192)
def _name_words(text: str) -> frozenset[int]:
    """Start offsets of the words of ``text`` that are part of a multi-word proper name
    (``as_name_only``); cached."""
    out = set()
    for tok in parse(text) or ():
        if (
            tok.pos_ != "PROPN"
            or not tok.text[:1].isupper()
            or tok.is_sent_start
            or _title_case(text, tok.idx)
        ):
            continue  # a capital at a sentence start is no sign of a name: "Dangerous Kelby Road has ..."
        joined = tok.dep_ == "compound" and tok.head.pos_ == "PROPN"
        if joined or any(c.dep_ == "compound" and c.pos_ == "PROPN" for c in tok.children):
            out.add(tok.idx)
    return frozenset(out)


def _title_case(text: str, at: int) -> bool:
    """The line holding offset ``at`` is a headline in title case (three words or more, three
    quarters of them capitalised: "CBSN Live Streaming Free"): its parse tells no name."""
    start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
    line = re.findall(r"[^\W\d_][\w'-]*", text[start : end if end >= 0 else len(text)])
    return len(line) >= 3 and sum(w[0].isupper() for w in line) >= 0.75 * len(line)


def _measured(text: str, m: re.Match[str]) -> bool:
    """The word follows a quantity with a unit of measure ("300 metres deep", "20 years old",
    "300 ft. high"): a slot other than a count ("n:...") or a year, only spaces, a hyphen or the
    unit's full stop between, in the same sentence."""
    return any(
        q.unit and q.slot and not q.slot.startswith("n:") and q.slot != "year"
        and (m.end() <= q.end or re.fullmatch(r"\.?[ \t-]*", text[q.end : m.start()]) is not None)
        and not ("." in text[q.end : m.start()] and m.group(0)[:1].isupper())  # a new sentence
        for q in extract(text).quantities if q.start < m.start()
    )  # fmt: skip
