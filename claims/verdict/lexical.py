"""Check: antonym, comparative and negative prefix ("closed" / "open", "more" / "less",
"unsafe" / "safe", "non-renewable" / "renewable").

Part of ``claims.verdict`` (see its docstring for the method). Antonym pairs are
``claims/data/antonyms.tsv`` (``claims.facets.ANTONYMS``); the negative prefixes and the words
they apply to are ``claims/data/negative_prefixes.tsv``, look-alikes that deny nothing
("inflammable", "invaluable") ``claims/data/not_denials.txt``. A negative form is a flip only
between adjectives that describe the same noun (spaCy's parse: "He told the story" / "the untold
story", "known" / "unknown until 1990", "the bridge is safe" / "the unsafe old crossing" are none)
and not under a time limit ("unbeaten until the final").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from claims.facets import (
    ANTONYMS,
    DateFacet,
    Facets,
    Quantity,
    antonym_kind,
    content_tokens,
    extract,
    quantity_matches,
    token_match,
    values_equal,
)
from claims.facets.vocabulary import WORDNET_ANTONYMS, data_lines, data_rows, stem_of
from claims.parses import parse
from claims.verdict.findings import Conflict
from claims.verdict.text import coverage_of, named_alike

#: (prefix, the bare words it denies; empty: any word of 4+ letters)
_PREFIXES: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (prefix, () if endings == "*" else tuple(endings.split()))
    for prefix, endings in data_rows("negative_prefixes.tsv", 2)
)
_NOT_DENIALS = frozenset(w for _, line in data_lines("not_denials.txt") for w in line.split())
#: a time limit: "unbeaten until the final" does not deny "beaten in the final"
_TIME_LIMIT = re.compile(r"\b(?:until|till|before|prior to)\b", re.IGNORECASE)
_WORDS = re.compile(r"[a-z]+(?:-[a-z]+)*")


def unprefixed(word: str) -> str | None:
    """The bare word when ``word`` is a negative form ("unsafe" -> "safe", "non-renewable" ->
    "renewable"); None when it is none (or a listed look-alike)."""
    if word in _NOT_DENIALS:
        return None
    for prefix, endings in _PREFIXES:
        if not word.startswith(prefix):
            continue
        bare = word[len(prefix) :].lstrip("-")
        if not endings and len(bare) >= 4 or bare in endings:
            return bare
    return None


def negative_form(word: str, text: str) -> str | None:
    """The word of ``text`` that denies ``word`` by a negative prefix, or that ``word`` denies
    when it is the negative form ("unsafe" in "The bridge is unsafe" for "safe"; "safe" for
    "unsafe"); None when ``text`` states ``word`` itself in any form, or has no such word.

    >>> negative_form("renewable", "The term is non-renewable.")
    'non-renewable'
    >>> negative_form("safe", "The bridge is safe, not unsafe.") is None
    True
    """
    word = word.lower()
    if len(word) < 4 or not word.replace("-", "").isalpha():
        return None
    roots, words = _words_of(text)
    root = stem_of(word)
    if root in roots:
        return None
    bare = unprefixed(word)
    bare_root = stem_of(bare) if bare is not None else None
    return next((w for w, w_root, w_bare_root in words if root == w_bare_root or w_root == bare_root), None)


@lru_cache(maxsize=16384)
def _words_of(text: str) -> tuple[frozenset[str], tuple[tuple[str, str, str | None], ...]]:
    """The roots of the words of ``text``, and each word with its root and, when it is a
    negative form, the root of its bare word (``unprefixed``)."""
    words = _WORDS.findall(text.lower())
    out = tuple((w, stem_of(w), stem_of(b) if (b := unprefixed(w)) is not None else None) for w in words)
    return frozenset(r for _, r, _ in out), out


def _has_stem(tokens: list[str], word: str) -> bool:
    """One of ``tokens`` is ``word`` in another form ("close" / "closed")."""
    stems = content_tokens(word)
    return bool(stems) and any(token_match(stems[0], t) for t in tokens)


def _described(text: str, word: str) -> str | None:
    """The stem of the noun that the adjective ``word`` (its last part when hyphenated)
    describes in spaCy's parse of ``text``: the noun it modifies ("the unsafe crossing") or the
    subject of its copula ("the bridge is unsafe"); None when ``word`` is no such adjective."""
    doc, last = parse(text), word.lower().rsplit("-", 1)[-1]
    for t in doc or ():
        if t.lower_ != last or t.pos_ != "ADJ":
            continue
        if t.dep_ == "amod" and t.head.pos_ in ("NOUN", "PROPN"):
            return stem_of(t.head.lower_)
        subject = next((k for k in t.head.children if k.dep_ in ("nsubj", "nsubjpass")), None)
        if t.dep_ in ("acomp", "attr", "oprd") and subject is not None:
            return stem_of(subject.lower_)
    return None


def _denial(word: str, claim: str, clause: str) -> str | None:
    """``negative_form`` of the claim's ``word`` in ``clause``, when both are adjectives that
    describe the same noun ("The new bridge is safe" is not denied by "replaced the unsafe old
    crossing") and the clause sets no time limit."""
    hit = negative_form(word, clause)
    if hit is None or _TIME_LIMIT.search(clause):
        return None
    noun = _described(claim, word)
    return hit if noun is not None and noun == _described(clause, hit) else None


#: the words of a bound before a number ("at least 18", "more than 500", "fewer than 5,000")
_BOUND = re.compile(
    r"\b(?:at\s+(?P<a>least|most)|(?:no\s+)?(?P<b>more|less|fewer|greater|lower|higher)\s+than)\s+[$€£]?\d",
    re.I,
)


def _wordnet_flip(word: str, r: Facets, clause: str, clause_facets: Facets) -> str | None:
    """WordNet's antonym of the claim's ``word`` in ``clause`` (``WORDNET_ANTONYMS``: "succeeded"
    / "failed", "abundant" / "scarce"), when the two say it of the same thing: adjectives that
    describe the same noun, one of them as a predicate ("Water is scarce" / "abundant water";
    two attributive ones pick out two things: "the secondary tumour" / "the primary tumour"),
    verbs of the same agent or patient and of no other one (``_same_event``). None when the
    claim states the antonym itself in any form, or when the two state different values ("Water
    freezes at 0 °C" / "Water boils at 100 °C": two states, each with its value)."""
    antonyms = WORDNET_ANTONYMS.get(word)
    if not antonyms or r.quantities and clause_facets.quantities and not _shared_value(r, clause_facets):
        return None
    for hit, parts in sorted(antonyms.items()):
        if hit not in clause_facets.words or hit in r.words or _has_stem(r.tokens, hit):
            continue
        if "adj" in parts and _same_noun(r.text, word, clause, hit):
            return hit
        if "verb" in parts and _same_event(_verb_roles(r.text, word), _verb_roles(clause, hit)):
            return hit
    return None


def _other_occasion(claim: str, word: str, clause: str, hit: str) -> bool:
    """The two verbs may both be true: each says when, where or how in words or values the
    other text lacks ("The rash disappeared after a week" / "appeared after two days"), or one
    says what succeeded or failed with a verb the other text lacks ("failed in the final" /
    "succeeded in reaching the final"). Read from the prepositional phrases and verbal
    complements on each verb (``_circumstances``): a word against all words of the other text,
    a number or date against its numbers and dates ("on 5 May 1990" / "on May 5th, 1990" is one
    occasion). One side's circumstance alone is no other occasion: the other may state it
    otherwise ("closed on Mondays" / "open every day"). Words the parse hangs elsewhere count
    too when each text has one the other lacks ("gained support among young voters" / "lost
    support among older voters")."""
    ours, theirs = _circumstances(claim, word), _circumstances(clause, hit)
    if ours.verbs - theirs.all_words or theirs.verbs - ours.all_words:
        return True
    if ours.unmatched(theirs) and theirs.unmatched(ours):
        return True
    own, other = ours.all_words - {stem_of(word.lower())}, theirs.all_words - {stem_of(hit.lower())}
    return bool(own - other) and bool(other - own)


#: parts of speech of the words that say when, where or how
_CONTENT_POS = frozenset({"NOUN", "PROPN", "ADJ", "VERB", "ADV"})
#: prepositions whose phrase, when it holds a number or date, gives the size or span of a change
#: ("rose by 5 %", "fell to $3 million", "from $10", "from 2008 to 2010"): no occasion
_EXTENT_PREPS = frozenset({"by", "to", "from"})


@dataclass(frozen=True)
class _Circumstances:
    """What one text says around one verb (``_circumstances``): the stems of the words of its
    prepositional phrases and complements (numbers and dates apart), their numbers and dates,
    the complements' verbs; and the stems of all the text's words (numbers and dates apart) and
    its facets (all its numbers and dates)."""

    words: frozenset[str]
    values: tuple[Quantity | DateFacet, ...]
    verbs: frozenset[str]
    all_words: frozenset[str]
    facets: Facets

    def unmatched(self, other: _Circumstances) -> bool:
        """A word of these circumstances that ``other``'s text lacks, or a value it does not state."""
        if self.words - other.all_words:
            return True
        return any(not _value_stated(v, other.facets) for v in self.values)


def _value_stated(value: Quantity | DateFacet, facets: Facets) -> bool:
    if isinstance(value, Quantity):
        return any(quantity_matches(value, o) for o in facets.quantities)
    return any(_same_day(d, value) for d in facets.dates)


def _same_day(a: DateFacet, b: DateFacet) -> bool:
    """Two dates agree in every part both give, and give one ("May 5th" / "5 May 1990")."""
    parts = [(x, y) for x, y in ((a.year, b.year), (a.month, b.month), (a.day, b.day)) if None not in (x, y)]
    return bool(parts) and all(x == y for x, y in parts)


def _circumstances(text: str, verb: str) -> _Circumstances:
    """The circumstances of the first verb ``verb`` in spaCy's parse of ``text`` (its
    prepositional phrases and verbal complements, "succeeded in reaching", "failed to win";
    phrases of ``_EXTENT_PREPS`` with a number left out); none when ``verb`` is no verb there
    ("was closed" read as an adjective)."""
    facets = extract(text)
    values: list[Quantity | DateFacet] = [*facets.quantities, *facets.dates]
    doc = list(parse(text) or ())
    in_value = {t.i for t in doc if any(v.start <= t.idx < v.end for v in values)}

    def stems(tokens: Any) -> frozenset[str]:
        return frozenset(stem_of(t.lower_) for t in tokens if t.pos_ in _CONTENT_POS and t.i not in in_value)

    tok = next((t for t in doc if t.lower_ == verb and t.pos_ in ("VERB", "AUX")), None)
    phrases = [
        k
        for k in (tok.children if tok is not None else ())
        if k.dep_ in ("prep", "xcomp")
        and not (k.lower_ in _EXTENT_PREPS and any(x.i in in_value for x in k.subtree))
    ]
    spans = [(k.left_edge.idx, k.right_edge.idx + len(k.right_edge)) for k in phrases]
    verbs = [k for k in phrases if k.dep_ == "xcomp"]
    verbs += [v for k in phrases if k.dep_ == "prep" for v in k.children if v.dep_ == "pcomp"]
    return _Circumstances(
        stems(x for k in phrases for x in k.subtree),
        tuple(v for v in values if any(s <= v.start < e for s, e in spans)),
        frozenset(stem_of(v.lower_) for v in verbs if v.pos_ in ("VERB", "AUX")),
        stems(doc),
        facets,
    )


def _same_noun(claim: str, word: str, clause: str, hit: str) -> bool:
    """The adjectives ``word`` and ``hit`` describe nouns of one stem, one of them as a predicate."""
    ours, theirs = _described_as(claim, word), _described_as(clause, hit)
    return ours is not None and theirs is not None and ours[0] == theirs[0] and (ours[1] or theirs[1])


def _shared_value(a: Facets, b: Facets) -> bool:
    return any(values_equal(q.value, o.value) for q in a.quantities for o in b.quantities)


def _described_as(text: str, word: str) -> tuple[str, bool] | None:
    """(stem of the noun that the adjective ``word`` describes, as a predicate): ``_described``
    with whether it is the predicate ("the bridge is safe") rather than a modifier."""
    noun = _described(text, word)
    if noun is None:
        return None
    doc = parse(text)
    predicate = any(t.lower_ == word.lower() and t.dep_ in ("acomp", "attr", "oprd") for t in doc or ())
    return noun, predicate


_Roles = tuple[str | None, str | None]


def _same_event(ours: _Roles | None, theirs: _Roles | None) -> bool:
    """Two verbs' (agent, patient) share one of them and differ in neither where both are known
    ("The Senate rejected the bill" / "The bill was accepted by the Senate")."""
    if ours is None or theirs is None:
        return False
    pairs = list(zip(ours, theirs, strict=True))
    if any(a is not None and b is not None and a != b for a, b in pairs):
        return False
    return any(a is not None and a == b for a, b in pairs)


def _verb_roles(text: str, verb: str) -> _Roles | None:
    """(stem of the agent, stem of the patient) of the first verb ``verb`` in spaCy's parse of
    ``text``, each None when unsaid: the subject and object of an active verb, the "by" phrase
    and subject of a passive one; a conjoined verb takes its head's subject ("was tried and
    acquitted"). None when ``verb`` is no verb there or has no subject."""
    for t in parse(text) or ():
        if t.lower_ != verb or t.pos_ not in ("VERB", "AUX"):
            continue
        head = t
        while head.dep_ == "conj" and not any(k.dep_ in ("nsubj", "nsubjpass") for k in head.children):
            head = head.head
        subject = next((k for k in head.children if k.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is None:
            return None
        if subject.dep_ == "nsubjpass" or any(k.dep_ == "auxpass" for k in t.children):
            by = next((k for k in t.children if k.dep_ == "agent"), None)
            agent = next((k for k in by.children if k.dep_ == "pobj"), None) if by is not None else None
            return (stem_of(agent.lower_) if agent is not None else None), stem_of(subject.lower_)
        obj = next((k for k in t.children if k.dep_ == "dobj"), None)
        return stem_of(subject.lower_), (stem_of(obj.lower_) if obj is not None else None)
    return None


def _sides_swapped(claim: str, word: str, clause: str, hit: str) -> bool:
    """The two verbs tell one event from its two sides: each one's agent is another word of the
    other ("Acme bought the factory from the company" / "The company sold the factory to Acme",
    "... was sold by the company"); the same agent in either voice is one side ("The Senate
    rejected the bill" / "The bill was accepted by the Senate": a flip)."""
    ours, theirs = _verb_roles(claim, word), _verb_roles(clause, hit)
    if ours is None or theirs is None or ours[0] is None or theirs[0] is None or ours[0] == theirs[0]:
        return False
    if ours[1] is not None and theirs[1] is not None and ours[1] != theirs[1]:
        return False  # another thing changed hands: "bought the rival" / "sold the company"
    return ours[0] in _words_of(clause)[0] and theirs[0] in _words_of(claim)[0]


def _is_verb(text: str, word: str) -> bool:
    """``word`` is a verb (or auxiliary) somewhere in spaCy's parse of ``text``."""
    return any(t.lower_ == word.lower() and t.pos_ in ("VERB", "AUX") for t in parse(text) or ())


def _other_agents(claim: str, word: str, clause: str, hit: str) -> bool:
    """The two verbs have two different agents ("Federer won the final" / "Nadal lost the final
    to Federer": one match, two players; "The company bought the rival from Acme" / "Acme sold
    the company to the rival": two sales): no flip between them (``_verb_roles``)."""
    ours, theirs = _verb_roles(claim, word), _verb_roles(clause, hit)
    if ours is None or theirs is None:
        return False
    return None not in (ours[0], theirs[0]) and ours[0] != theirs[0]


def _in_bound(word: str, text: str) -> bool:
    """``word`` is the comparative of a bound on a number in ``text`` ("at least 18")."""
    return any(
        word.lower() in ((m.group("a") or "").lower(), (m.group("b") or "").lower())
        for m in _BOUND.finditer(text)
    )


def antonym_flip(
    r: Facets, clause: str, clause_facets: Facets, start: int, r_tokens: Sequence[str]
) -> tuple[Conflict, float] | None:
    """Check: antonym, comparative and negative prefix. A word of the claim ``r`` whose antonym
    (``claims.facets.ANTONYMS``) or negative form (``_denial``), and not the word itself, is in
    ``clause`` (the reference's covering clause, at ``start`` in its claim) is a flip: the
    conflict (span in the reference claim) and how much of the claim's other words
    (``r_tokens``) the clause covers. Two words of two occasions (``_other_occasion``) or of
    two agents (``_other_agents``) are no flip; two such verbs are another action: a conflict
    of kind "predicate" (the claim is not supported). None
    without either, or when the two differ in negation ("not allowed" / "prohibited" agree)."""
    words = clause_facets.words
    hyphenated = [w for w, _, bare in _words_of(r.text)[1] if bare is not None and "-" in w]
    other_action: tuple[Conflict, float] | None = None
    for w in [*r.words, *hyphenated]:
        if _in_bound(w, r.text):
            continue  # "at least 18" / "at most 18": bounds, compared as values (quantity_checks)
        ants, denial = ANTONYMS.get(w, frozenset()), _denial(w, r.text, clause)
        wordnet = _wordnet_flip(w, r, clause, clause_facets) if w not in words and denial is None else None
        if (not ants or w in words) and denial is None and wordnet is None:
            continue
        if r.negated != clause_facets.negated:
            return None
        # the antonym in any form in the claim ("close" for "closed") is no flip
        hit = (
            denial
            or next((a for a in ants if a in words and a not in r.words and not _has_stem(r.tokens, a)), None)
            or wordnet
        )
        if not hit or not named_alike(clause, hit, r.text, w) or _sides_swapped(r.text, w, clause, hit):
            continue
        m = re.search(rf"\b{re.escape(hit)}\b", clause, re.I)
        st = start + (m.start() if m else 0)
        stem = content_tokens(w)[0] if content_tokens(w) else w
        covered, _ = coverage_of([t for t in r_tokens if not token_match(t, stem)], content_tokens(clause))
        if _other_agents(r.text, w, clause, hit) or _other_occasion(r.text, w, clause, hit):
            if _is_verb(r.text, w):  # two adjectives of two things are no action ("scarce in the north")
                other_action = other_action or (Conflict("predicate", w, hit, st, st + len(hit)), covered)
            continue
        label = "comparative" if antonym_kind(w, hit) == "comparative" else "antonym"
        return Conflict(label, w, hit, st, st + len(hit)), covered
    return other_action


#: words that mark a role or state as past ("the former CEO")
_FORMER = frozenset({"former", "ex", "previous", "erstwhile", "onetime", "one-time", "then"})
#: verbs that end what their gerund or object names ("stopped producing typewriters")
_ENDING_VERBS = frozenset({"stopped", "ceased", "discontinued", "quit", "halted"})
#: verbs of leaving a role ("stepped down as CEO")
_LEAVING_VERBS = frozenset({"stepped", "resigned", "retired"})
_ENDED_MARKS = re.compile(
    r"\b(?:" + "|".join(sorted(_FORMER | _ENDING_VERBS | _LEAVING_VERBS | {"until", "till"})) + r")\b", re.I
)
_PAST_MARKS = re.compile(r"\b(?:former(?:ly)?|ex-|once|previous(?:ly)?|used to|no longer|until|till)\b", re.I)
#: a reference that says the state came back or still holds ("and again since 2021")
_RESUMED = re.compile(r"\b(?:again|still|resumed|returned|rejoined|re-?elected|re-?appointed|since)\b", re.I)
#: what "until" may end at: a year, a date or an event that ends a state ("until 2019", "until
#: their divorce"), not a time of day ("until noon")
_ENDPOINT = re.compile(
    r"\b(?:1\d{3}|20\d{2}|death|divorce|retirement|resignation|closure|merger|acquisition|dissolution)\b",
    re.I,
)


def _predicate_head(doc: Any) -> Any | None:
    """The word a present-tense claim says of its subject: the noun or adjective after "is"
    ("is the CEO"), else the present verb itself ("leads"); None for other tenses."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.tag_ not in ("VBZ", "VBP") or any(k.dep_ == "neg" for k in root.children):
        return None
    if root.lower_ in ("is", "are"):
        return next((k for k in root.children if k.dep_ in ("attr", "acomp")), None)
    return root


def _modifiers(tok: Any) -> frozenset[str]:
    """The stems of the words that narrow ``tok`` ("vice" in "vice president"), past-marking
    words ("former") left out."""
    return frozenset(
        x
        for k in tok.children
        if k.dep_ in ("amod", "compound") and k.lower_ not in _FORMER
        for x in content_tokens(k.text)
    )


def _same_role(head: Any, other: Any) -> bool:
    """``other`` names the claim's predicate ``head``: the same stem and the same modifiers
    ("president" is not "vice president")."""
    stems = content_tokens(other.text)
    return (
        bool(stems)
        and token_match(content_tokens(head.text)[0], stems[0])
        and _modifiers(head) == _modifiers(other)
    )


def _same_object(head: Any, done: Any) -> bool:
    """The claim's object and the ended action's are the same where both have one ("produces
    the iPhone" / "stopped producing the iPhone mini" are not)."""
    mine = next((k for k in head.children if k.dep_ == "dobj"), None)
    theirs = next((k for k in done.children if k.dep_ == "dobj"), None)
    return mine is None or theirs is None or _same_role(mine, theirs)


def _ended_by(head: Any, t: Any, reference: str) -> tuple[str, int, int] | None:
    """The reference's words around ``t`` that end the claim's state, with their span."""
    if (
        t.lower_ in _FORMER
        and t.dep_ == "amod"
        and t.head.dep_ in ("attr", "appos")
        and _same_role(head, t.head)
    ):
        # "Smith, the former CEO" / "Smith is the former CEO" (not "succeeded the former CEO")
        return f"{t.text} {t.head.text}", t.idx, t.head.idx + len(t.head.text)
    if t.lower_ in _ENDING_VERBS:
        done = next((k for k in t.children if k.dep_ in ("xcomp", "dobj") and content_tokens(k.text)), None)
        if done is not None and _same_role(head, done) and _same_object(head, done):
            return f"{t.text} {done.text}", t.idx, done.idx + len(done.text)
    if t.lower_ in _LEAVING_VERBS and t.head.dep_ in ("ROOT", "conj"):
        # "stepped down as CEO", "resigned as CEO", "retired as chairman"
        as_ = next((k for k in t.children if k.dep_ == "prep" and k.lower_ == "as"), None)
        role = next((k for k in as_.children if k.dep_ == "pobj"), None) if as_ is not None else None
        if role is not None and _same_role(head, role):
            return reference[t.idx : role.idx + len(role.text)], t.idx, role.idx + len(role.text)
    if t.lower_ in ("until", "till") and _ENDPOINT.search(
        reference, t.idx, t.right_edge.idx + len(t.right_edge.text)
    ):
        said = t.head if t.head.tag_ == "VBD" else t.head.head
        denied = any(
            k.dep_ == "neg" for w in (said, t.head) for k in w.children
        )  # "not ... until": it began then
        if said.tag_ == "VBD" and not denied and any(_same_role(head, k) for k in (said, *said.children)):
            end = t.right_edge.idx + len(t.right_edge.text)
            return reference[said.idx : end], said.idx, end
    return None


def ended_state(claim: str, reference: str) -> tuple[str, str, int, int] | None:
    """A state the claim gives as current ("Smith is the CEO of Acme", "Smith leads Acme") that
    the reference says has ended: "the former CEO" said of the subject, the same predicate in the
    past "until" a year, a date or an ending event ("was CEO of Acme until 2019", "was married
    to Anna until their divorce"), or stopped ("stopped producing typewriters"). Never when the
    reference says the state came back or still holds ("again", "still", "since", "rejoined").
    Returns (the claim's word, the reference's words, their span in ``reference``); None
    otherwise."""
    if _PAST_MARKS.search(claim) or not _ENDED_MARKS.search(reference) or _RESUMED.search(reference):
        return None
    mine, theirs = parse(claim), parse(reference)
    head = _predicate_head(mine) if mine is not None else None
    if head is None or not content_tokens(head.text) or theirs is None:
        return None
    for t in theirs:
        found = _ended_by(head, t, reference)
        if found is not None:
            return (head.text, *found)
    return None
