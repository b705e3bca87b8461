"""Checks on the clause that carries the claim: polarity (denying frames; absence is not
denial), predicate (another verb between the same participants) and object (the same verb
with another object).

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache

from claims import lexicon
from claims.facets import (
    ANTONYMS,
    Facets,
    TokenSet,
    content_tokens,
    extract,
    negation_frame,
    token_match,
)
from claims.facets.vocabulary import data_lines
from claims.parses import parse
from claims.verdict.denials import denial_stated, topic_tokens
from claims.verdict.factive import asserts
from claims.verdict.findings import Conflict, Finding, FindingKind, Stance, conflict_finding
from claims.verdict.text import TOPIC_POS, clause_spans, coverage_of, tagged_tokens, verb_adjunct_tokens
from claims.verdict.thresholds import T


def _negation_clause(r_tokens: Sequence[str], c: Facets) -> tuple[int, int, float, Facets]:
    """The clause of ``c`` that covers most of the claim's tokens (the shortest at equal
    coverage): its span, that coverage and its facets."""
    n_s, n_e, n_cov = max(
        ((a, b, coverage_of(r_tokens, content_tokens(c.text[a:b]))[0]) for a, b in clause_spans(c.text)),
        key=lambda t: (t[2], -(t[1] - t[0])),
    )
    return n_s, n_e, n_cov, (extract(c.text[n_s:n_e]) if (n_s, n_e) != (0, len(c.text)) else c)


def _cue_is_local(r_tokens: Sequence[str], n_text: str, cue: str) -> bool:
    """The negation cue (a whole word) sits among the words the claim shares with the clause,
    or is the word right before the first of them ("No survivors were found": the cue denies
    the noun it determines; "Notably survivors ..." holds no cue). A determiner cue ("no",
    "without") denies only the word after it, which must be the claim's: "The bill passed
    without opposition" does not deny "The bill passed"."""
    low, cue = n_text.lower().replace("’", "'"), cue.replace("’", "'")
    # "n't" is part of its word ("didn't")
    before = "" if cue == "n't" else r"(?<![\w'’-])"
    cue_m = re.search(rf"{before}{re.escape(cue.lower())}(?![\w'’-])", low) if cue else None
    words = list(re.finditer(r"[\w'’-]+", low))
    hits = [
        k
        for k, m in enumerate(words)
        if any(token_match(t, x) for t in r_tokens for x in content_tokens(m.group(0)))
    ]
    if not hits or cue_m is None:
        return False
    frame = negation_frame(n_text)
    if frame is not None and frame[1] <= words[hits[0]].start():
        return True  # "There is no evidence that X": the frame denies the whole clause after it
    # "no longer" denies its verb, as "not" does ("is no longer the CEO")
    no_longer = cue.lower() == "no" and re.match(r"\s+longer\b", low[cue_m.end() :]) is not None
    if cue.lower() in _DETERMINER_CUES and not no_longer and not _scope_stated(r_tokens, low[cue_m.end() :]):
        return False  # "passed without opposition" denies the opposition, not the passing
    cue_at = cue_m.start()
    if words[hits[0]].start() <= cue_at <= words[hits[-1]].start():
        return True
    before_hit = words[hits[0] - 1] if hits[0] > 0 else None
    return (
        before_hit is not None
        and before_hit.start() <= cue_at < before_hit.end()
        and before_hit.group(0).endswith(cue.lower())
    )


#: cues that deny only the noun phrase after them ("no survivors", "without opposition")
_DETERMINER_CUES = frozenset({"no", "without"})


def _scope_stated(r_tokens: Sequence[str], after: str) -> bool:
    """The first content word after a determiner cue (what it denies) is one of the claim's."""
    scope = content_tokens(after)[:1]
    return bool(scope) and any(token_match(scope[0], t) for t in r_tokens)


def _denied_in_words(r: Facets, c: Facets) -> bool:
    """``c`` denies a word of the claim lexically: its antonym ("not allowed" / "prohibited",
    ``claims.facets.ANTONYMS``) or the word with a negative prefix ("never identified" /
    "unidentified"), while the word itself is absent."""
    for w in r.words:
        if w in c.words or len(w) < 4:
            continue
        if any(p + w in c.words for p in ("un", "non", "in", "im")):
            return True
        # the antonym in any form ("prohibited" / "Prohibition of alcohol")
        stems = [t for a in ANTONYMS.get(w, frozenset()) for t in content_tokens(a)]
        if any(token_match(s, t) for s in stems for t in c.tokens):
            return True
    return False


def reference_denies(r: Facets, c: Facets) -> bool:
    """The reference claim ``c`` holds a denial: a negation cue, or a word of the claim ``r``
    denied by an antonym or a negative prefix (``Pair.reference_negated``)."""
    return c.negated or _denied_in_words(r, c)


def check_polarity(r: Facets, c: Facets, r_tokens: Sequence[str]) -> tuple[Finding, ...]:
    """Check: polarity. A flip is a ``POLARITY`` conflict (its ``coverage`` that of a flat
    denial, ``_flat_denial_core``); a negated claim whose denial the reference does not state,
    or an affirmed claim whose words a clause denies without a flip, is ``POLARITY``
    unstated (``Pair.polarity_mismatch``).

    A flip needs the clause of ``c`` that covers the claim to be about the claim and little else
    (``POLARITY_BACK_COVERAGE`` of its words are the claim's, ``COVERAGE_POLARITY`` of the
    claim's words in it), the negation cue among the shared words, and every word the claim
    is about (its nouns, names, adjectives) stated there: a denial contradicts only a statement
    of the same predicate. "Harwick does not offer mortgages" against "Harwick offers car
    loans" is no flip (absence is not denial), but a negated claim is then not supported
    either when the reference claim holds no denial at all (``polarity_mismatch``); nor is an
    affirmed claim supported by a clause that denies its words without a flip (the clause says
    more than the claim)."""
    n_s, n_e, n_cov, neg_clause = _negation_clause(r_tokens, c)
    if r.negated and _denied_in_words(r, c):
        return ()
    # a negated claim needs a denial of its own topic somewhere in the reference claim (one in
    # another clause than the best-covering one still may state it: "While X, by itself, will
    # not react ..."); a denial of something else states nothing of it: "There is no overall
    # charge to a water molecule" / "Hydrogen atoms in water molecules do not have a positive
    # charge"
    unstated = Finding(FindingKind.POLARITY, Stance.UNSTATED, r.negation_cue)
    mismatch = (unstated,) if r.negated and not denial_stated(r, r_tokens, c) else ()
    if r.negated and neg_clause.negated:
        return mismatch
    if r.negated == neg_clause.negated:
        return ()
    if neg_clause.negated and _NO_LONGER.search(c.text[n_s:n_e]) and not _present_tense(r.text):
        return ()  # "Ana Ruiz was the CEO" / "... is no longer the CEO": the past is not denied
    if _negated_antonym(r, c, c.text[n_s:n_e]):
        # a double negation agrees: "did not decrease" / "increased", "It is false that it
        # is closed" / "it is open" (``claims/data/antonyms.tsv``)
        return ()
    if r.negated and not neg_clause.negated and not asserts(c.text, _main_verb(r.text)):
        # the reference does not assert the event it names ("was invited to perform", "claimed
        # that it performed", "if it had performed"): a denial of it is no flip
        return mismatch
    back, _ = coverage_of(neg_clause.tokens, r.tokens)
    local = not neg_clause.negated or _cue_is_local(r_tokens, c.text[n_s:n_e], neg_clause.negation_cue)
    flat = _flat_denial_core(r, r_tokens, c, neg_clause)
    denial_coverage = 0.0
    if flat is not None:
        # a flat denial, with no word the claim lacks, denies the claim's verb whatever its
        # agent or extent: "Honey does not spoil" / "Honey spoils over time"
        n_cov, _ = coverage_of(flat, content_tokens(c.text[n_s:n_e]))
        denial_coverage = n_cov
    topic_cov, _ = coverage_of(topic_tokens(r, flat or r_tokens), neg_clause.tokens)
    denial = local and n_cov >= T.coverage_polarity and topic_cov >= 1.0
    if not (denial and back >= T.polarity_back_coverage):
        # a clause that denies the claim's words among more of its own ("Copper cannot displace
        # iron from its salt solution as iron is more reactive ...") is no flip, but no support;
        # nor is a denial of all the claim's topic words but those of its verb's adjuncts
        # ("The bridge was not damaged by the flood" / "The bridge was damaged by the storm")
        core_topic_cov, _ = coverage_of(
            topic_tokens(r, _denied_core(r, r_tokens, neg_clause)), neg_clause.tokens
        )
        denied = neg_clause.negated and local and core_topic_cov >= 1.0 and (denial or n_cov >= 0.5)
        return mismatch or ((unstated,) if denied else ())
    n_text = c.text[n_s:n_e]
    cue = neg_clause.negation_cue if neg_clause.negated else r.negation_cue
    where = n_text.lower().find(cue.lower()) if neg_clause.negated else -1
    st = n_s + where if where >= 0 else n_s
    flip = Conflict(
        "negation",
        r.negation_cue or "affirmed",
        neg_clause.negation_cue or "affirmed",
        st,
        st + (len(cue) if where >= 0 else n_e - n_s),
    )
    return (*mismatch, conflict_finding(FindingKind.POLARITY, flip, coverage=denial_coverage))


def _denied_core(r: Facets, r_tokens: Sequence[str], neg_clause: Facets) -> list[str]:
    """The claim's tokens without those of its verb's adjuncts (``text.verb_adjunct_tokens``:
    "over time", "by the storm", "in open jars") when ``neg_clause`` denies and the claim
    affirms (what a denial must state for no support); all of ``r_tokens`` otherwise."""
    if r.negated or not neg_clause.negated:
        return list(r_tokens)
    extra = verb_adjunct_tokens(r.text, r_tokens)
    return [t for t in r_tokens if t not in extra]


#: the adjuncts a flat denial covers: a passive's agent ("damaged by the storm") and an extent
#: ("spoils over time"); others may narrow the scope ("approved for adults", "closed during
#: the pandemic", "testified before the grand jury") and are still needed
_FLAT_PREPS = frozenset({"over"})
#: a denial or claim under a modal is advice, possibility or future, not a flat statement
#: ("should not take", "will be damaged")
_MODALS = re.compile(r"\b(?:may|might|could|should|would|must|can|cannot|shall|ought|will|wo)\b", re.I)


def _flat_denial_core(r: Facets, r_tokens: Sequence[str], c: Facets, neg_clause: Facets) -> list[str] | None:
    """The claim's tokens without its agent and extent (``_FLAT_PREPS``) when the reference claim
    ``c`` is a flat denial of the affirmed claim: every content word of ``c`` is the claim's (no
    frame, condition or other scope: "It is a myth that ...", "If stored properly, ..."), no
    modal or future on either side ("may not", "should not", "will be"), the same tense; None
    otherwise or when the claim has no such adjunct."""
    if r.negated or not neg_clause.negated or _MODALS.search(c.text) or _MODALS.search(r.text):
        return None
    if coverage_of(content_tokens(c.text), r.tokens)[0] < 1.0 or _present_tense(r.text) != _present_tense(
        c.text
    ):
        return None
    extra = verb_adjunct_tokens(r.text, r_tokens, preps=_FLAT_PREPS)
    return [t for t in r_tokens if t not in extra] if extra else None


_NO_LONGER = re.compile(r"\bno\s+longer\b", re.IGNORECASE)


def _present_tense(text: str) -> bool:
    """The claim's main verb is in the present ("is", "makes")."""
    doc = parse(text)
    root = next((t for t in doc if t.dep_ == "ROOT"), None) if doc is not None else None
    return (
        root is None
        or root.tag_ in ("VBZ", "VBP")
        or any(k.dep_ in ("aux", "auxpass") and k.tag_ in ("VBZ", "VBP") for k in root.children)
    )


def _negated_antonym(r: Facets, c: Facets, clause: str = "") -> bool:
    """A word of the claim has its antonym, and not itself, in any form among the words of ``c``
    (``claims.facets.ANTONYMS``): with opposite polarity the two state the same thing. The
    opposites of the whole lexicon (``claims.lexicon.opposites``: "not well" / "poorly", "not
    often" / "rarely") count only between the claim and the clause of ``c`` that covers it
    (``clause``; all of ``c`` when empty) stating the same words but for the pair: a claim is not
    read against an opposite said of something else ("does not open on Mondays" / "closes at 5
    pm")."""
    c_stems = content_tokens(c.text)

    def stated(word: str, stems: Sequence[str] = c_stems) -> bool:  # in any form ("decreased")
        mine = content_tokens(word)
        return bool(mine) and any(token_match(mine[0], t) for t in stems)

    if any(not stated(w) and any(stated(a) for a in ANTONYMS.get(w, ())) for w in r.words):
        return True
    return _lexicon_opposite_in_place(r, content_tokens(clause or c.text))


def _lexicon_opposite_in_place(r: Facets, theirs: Sequence[str]) -> bool:
    """A word of the claim stands in ``theirs`` (the content tokens of one clause) as one of its
    opposites of ``claims.lexicon``, and every other content word of either is the other's
    (``token_match``): the two say the same but for the pair."""
    mine = content_tokens(r.text)
    for w in r.words:
        own = content_tokens(w)
        if not own or any(token_match(own[0], t) for t in theirs):
            continue
        for o in lexicon.opposites(w.lower()):
            other = content_tokens(o.word)
            if not other or not any(token_match(other[0], t) for t in theirs):
                continue
            rest_r = [t for t in mine if not token_match(t, own[0])]
            rest_c = [t for t in theirs if not token_match(t, other[0])]
            if all(any(token_match(x, y) for y in rest_c) for x in rest_r) and all(
                any(token_match(y, x) for x in rest_r) for y in rest_c
            ):
                return True
    return False


def _load_synonym_groups() -> tuple[frozenset[str], ...]:
    """Verb groups of ``claims/data/predicate_synonyms.txt`` as sets of stems."""
    return tuple(frozenset(content_tokens(line)) for _, line in data_lines("predicate_synonyms.txt"))


@lru_cache(maxsize=1)
def _synonym_members() -> tuple[TokenSet, dict[str, frozenset[int]]]:
    """(every member stem of the synonym groups, member -> indices of its groups)."""
    groups: dict[str, set[int]] = {}
    for i, group in enumerate(_load_synonym_groups()):
        for member in group:
            groups.setdefault(member, set()).add(i)
    return TokenSet(groups), {m: frozenset(ids) for m, ids in groups.items()}


@lru_cache(maxsize=1 << 14)
def _synonym_groups_of(stem: str) -> frozenset[int]:
    """Indices of the groups of ``claims/data/predicate_synonyms.txt`` with a member that
    ``stem`` matches (``token_match``; the members it can match found by ``TokenSet.matches``)."""
    members, groups = _synonym_members()
    return frozenset().union(*(groups[m] for m in members.matches(stem)))


@lru_cache(maxsize=1 << 16)
def same_predicate(a: str, b: str) -> bool:
    """Two verb stems state the same predicate: they match (``token_match``) or share a group
    of ``claims/data/predicate_synonyms.txt`` ("bought" / "acquired")."""
    if token_match(a, b) or a.rstrip("e") == b.rstrip("e"):  # "taking" (tak) / "take"
        return True
    return not _synonym_groups_of(a).isdisjoint(_synonym_groups_of(b))


class PredicateSet:
    """Verb stems to test with ``same_predicate`` in a few look-ups: ``t in PredicateSet(other)``
    equals ``any(same_predicate(t, o) for o in other)`` (a ``TokenSet`` for ``token_match``, the
    stems without a final "e", and the union of their synonym groups)."""

    __slots__ = ("_groups", "_other", "_tokens", "_trimmed")

    def __init__(self, other: Iterable[str]) -> None:
        self._other = list(other)
        self._tokens = TokenSet(self._other)
        self._trimmed = {o.rstrip("e") for o in self._other}
        self._groups: frozenset[int] | None = None  # made when first needed

    def __contains__(self, t: object) -> bool:
        if not isinstance(t, str):
            return False
        if t in self._tokens or t.rstrip("e") in self._trimmed:
            return True
        mine = _synonym_groups_of(t)
        if not mine:
            return False
        if self._groups is None:
            self._groups = frozenset().union(*(_synonym_groups_of(o) for o in self._other))
        return not mine.isdisjoint(self._groups)


def predicate_swap_of(
    r: Facets, c: Facets, r_tokens: Sequence[str], covered: AbstractSet[str], clause: tuple[int, int]
) -> Conflict | None:
    """Check: predicate. Every content word of the claim is stated by ``c`` except its verb(s),
    and ``c`` puts a verb the claim lacks, no synonym of it, between the same participants:
    another action ("the Shipyard sued the welder" vs "the Shipyard hired the welder"). The
    conflict names both verbs; it makes the claim unsupported (not contradicted: both actions
    can be true). The clause of ``c`` that covers the claim (``clause``, a span) must state all
    the claim's other words, and the other verb must stand between a word the claim has
    before its verb and one it has after it, at most ``PREDICATE_SWAP_MAX_GAP`` content words
    from them. Needs spaCy's tags."""
    missing = [t for t in r_tokens if t not in covered]
    if not 1 <= len(missing) <= T.predicate_swap_max_verbs or (r.negated and _denied_in_words(r, c)):
        return None  # "not allowed" / "prohibited" is the same predicate denied
    r_tags = tagged_tokens(r.text)
    if not r_tags or any(dict(r_tags).get(t) != "VERB" for t in missing):
        return None
    cs, ce = clause
    text = c.text[cs:ce]
    if coverage_of([t for t in r_tokens if t not in missing], content_tokens(text))[0] < 1.0:
        return None
    at = next(i for i, (t, _) in enumerate(r_tags) if t == missing[0])
    left, right = [t for t, _ in r_tags[:at]], [t for t, _ in r_tags[at + 1 :] if t not in missing]
    tags = tagged_tokens(text)
    if any(same_predicate(v, t) for v in missing for t, _ in tags):
        return None  # the claim's verb is there in another form ("taking" / "take")
    for i, (verb, pos) in enumerate(tags):
        if pos != "VERB" or any(token_match(verb, x) or verb.rstrip("e") == x.rstrip("e") for x in r.tokens):
            continue
        if any(same_predicate(v, verb) for v in missing) or not _between(tags, i, left, right):
            continue
        m = next(iter(_words_with_stems(text, {verb})), None)
        start, end = (cs + m.start(), cs + m.end()) if m else (cs, ce)
        mine = next((w.group(0) for w in _words_with_stems(r.text, {missing[0]})), "")
        return Conflict("predicate", mine or missing[0], c.text[start:end], start, end)
    return None


def _between(tags: Sequence[tuple[str, str]], i: int, left: Sequence[str], right: Sequence[str]) -> bool:
    """The token at ``i`` stands right after a token matching one of ``left`` and right
    before one matching ``right`` (at most ``PREDICATE_SWAP_MAX_GAP`` content words apart)."""
    toks = [t for t, _ in tags]
    lefts = [j for j in range(i) if any(token_match(toks[j], x) for x in left)]
    rights = [j for j in range(i + 1, len(toks)) if any(token_match(toks[j], x) for x in right)]
    return bool(lefts and rights) and (i - max(lefts) - 1) + (min(rights) - i - 1) <= T.predicate_swap_max_gap


@lru_cache(maxsize=65536)
def _verb_object(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """(verb, words before it, object) of a clause whose root is a verb with a direct object:
    the verb's content token, the content tokens of the nouns, names and adjectives before it,
    and those of the nouns and names of its direct object ("The bridge carries a railway line"
    -> ("carry", ("bridge",), ("railway", "line"))); None otherwise. Cached."""
    doc = parse(text[:1000])
    root = next((t for t in doc if t.dep_ == "ROOT"), None) if doc is not None else None
    if root is None or root.pos_ != "VERB":
        return None
    obj = next((c for c in root.children if c.dep_ == "dobj"), None)
    verb = content_tokens(root.text)
    if obj is None or not verb:
        return None
    before = tuple(t for tok in doc[: root.i] if tok.pos_ in TOPIC_POS for t in content_tokens(tok.text))
    words = tuple(t for tok in obj.subtree if tok.pos_ in {"NOUN", "PROPN"} for t in content_tokens(tok.text))
    return verb[0], before, words


def object_swap_of(
    r: Facets, c: Facets, covered: AbstractSet[str], clause: tuple[int, int]
) -> Conflict | None:
    """Check: object. The claim's words before its root verb are stated by ``c`` (``covered``),
    the root verb of the clause of ``c`` that covers the claim is the claim's (or a synonym,
    ``same_predicate``) with a direct object of its own, and none of the nouns of the claim's
    direct object is stated: the same action on another object ("The Kestrel Bridge carries a
    railway line" vs "The Kestrel Bridge carries two lanes of road traffic"). The conflict names
    both objects; it makes the claim unsupported (not contradicted: the bridge can carry both).
    A claim with a number or date is left to the value checks ("500 megawatts" / "500 MW"). A
    paraphrased object ("cars" / "vehicles", "films" / "movies") is caught too: the reason names
    both, and an LLM judge (``judge = auto``) may overturn it. Needs spaCy (None without it)."""
    if r.quantities or r.dates:
        return None  # "generates 500 megawatts" / "500 MW": values are compared as facets
    mine = _verb_object(r.text)
    if mine is None or not mine[1] or not mine[2]:
        return None
    verb, before, objects = mine
    if any(t not in covered for t in before) or any(t in covered for t in objects):
        return None  # decided by the claim's own parse: the reference clause is parsed only now
    cs, ce = clause
    text = c.text[cs:ce]
    theirs = _verb_object(text)
    if theirs is None or not theirs[2] or not same_predicate(verb, theirs[0]):
        return None
    spans = _words_with_stems(text, set(theirs[2]))
    start, end = (cs + spans[0].start(), cs + spans[-1].end()) if spans else (cs, ce)
    surface = " ".join(m.group(0) for m in _words_with_stems(r.text, set(objects)))
    return Conflict("object", surface or " ".join(objects), c.text[start:end], start, end)


def _words_with_stems(text: str, stems: set[str]) -> list[re.Match[str]]:
    """The words of ``text`` whose first content token is one of ``stems``, in order."""
    return [
        m for m in re.finditer(r"[\w'’-]+", text) if (toks := content_tokens(m.group(0))) and toks[0] in stems
    ]


def _main_verb(text: str) -> str:
    """The word of the root of ``text``'s parse ("" when there is none)."""
    doc = parse(text)
    root = next((t for t in doc or () if t.head.i == t.i), None)
    return root.text if root is not None else ""
