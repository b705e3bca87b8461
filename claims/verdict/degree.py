"""Check: quantifier and degree ("All employees" / "Some employees", "most voters" / "few
voters", "always open" / "sometimes open", "the most effective treatment" / "an effective
treatment").

Part of ``claims.verdict`` (see its docstring for the method). The quantifiers and their scales
are ``claims/data/quantifiers.tsv``; the word a quantifier applies to (its target) is read from
spaCy's parse (``claims.parses.parse``): the noun of a determiner ("most voters", "most of the
voters"), the verb or adjective of an adverb ("is always open" -> "open"). Two quantifiers are
compared only on the same scale and the same target. Strengths run from 1 (few, rarely) to 5
(all, always):

- 1 against 3 or more (few / many, most, all; rarely / often, usually, always) excludes each
  other: a conflict, like an antonym;
- a universal claim (5) against a reference that says 2-4 ("all" / "some", "always" /
  "usually"): the reference qualifies what the claim states flatly (qualification dropped);
- a claim of 4 against 2-3 ("most" / "some", "usually" / "sometimes") says more than the
  reference states: its quantifier is missing;
- a weaker claim ("some" / "all") is entailed: no finding.

Degree: a superlative of the claim ("the most effective", "the largest") is missing when the
reference states the same adjective without it ("an effective treatment", "a large city").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from claims.facets import content_tokens, token_match
from claims.facets.vocabulary import data_rows
from claims.parses import parse
from claims.verdict.slots import first_stem

#: quantifier -> (scale, strength)
QUANTIFIERS: dict[str, tuple[str, int]] = {
    word: (scale, int(strength)) for word, scale, strength in data_rows("quantifiers.tsv", 3)
}
_ANY_QUANTIFIER = re.compile(r"\b(?:" + "|".join(sorted(QUANTIFIERS, key=len, reverse=True)) + r")\b", re.I)
_SUPERLATIVE = re.compile(r"\b(?:most|least|\w{3,}est|best|worst)\b", re.I)
#: irregular superlatives and the base forms they grade
_IRREGULAR = {"best": ("good", "well"), "worst": ("bad", "badly")}
_COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "being", "'s", "’s"})


@dataclass(frozen=True)
class Quantifier:
    """A quantifier of a text: its surface words, scale, strength (1-5), the stem of its target
    and its character span."""

    word: str
    scale: str
    strength: int
    target: str
    start: int
    end: int
    #: stems of the verb the quantified noun is the subject of and of that verb's object ("Few
    #: residents own bicycles": ("own", "bicycl")); empty elsewhere
    context: tuple[str, ...] = ()
    #: the quantifier is denied ("not often", "not all voters", "does not run often"): "not
    #: often" says less than some strength rather than a strength, so the scale rules do not read it
    denied: bool = False


def _target(tok: Any, scale: str) -> Any | None:
    """The token the quantifier ``tok`` applies to, or None when the parse does not say."""
    if scale == "frequency":
        head = tok.head
        if head.lower_ in _COPULAS:
            return next((k for k in head.children if k.dep_ in ("acomp", "attr", "oprd")), None)
        return head if tok.dep_ == "advmod" else None
    if tok.dep_ in ("det", "amod", "predet") and tok.head.pos_ in ("NOUN", "PROPN"):
        return tok.head
    of = next((k for k in tok.children if k.dep_ == "prep" and k.lower_ == "of"), None)
    return next((k for k in of.children if k.dep_ == "pobj"), None) if of is not None else None


def context_of(target: Any) -> tuple[str, ...]:
    """The verb and object stems of a quantified subject (``Quantifier.context``)."""
    if target.dep_ not in ("nsubj", "nsubjpass") or target.head.pos_ not in ("VERB", "AUX"):
        return ()
    verb = target.head
    obj = next((k for k in verb.children if k.dep_ in ("dobj", "attr", "acomp")), None)
    return tuple(x for t in (verb, obj) if t is not None for x in content_tokens(t.text)[:1])


def _same_context(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two quantified subjects of the same statement: their verbs and objects match where both
    have them ("Most residents own cars" / "Few residents own bicycles" do not)."""
    return all(token_match(x, y) for x, y in zip(a, b, strict=False))


@lru_cache(maxsize=16384)
def quantifiers(text: str) -> tuple[Quantifier, ...]:
    """The quantifiers of ``text`` whose target the parse names (``_target``); empty without
    a parser.

    >>> [(q.word, q.strength, q.target) for q in quantifiers("Most of the voters supported it.")]
    [('Most', 4, 'voter')]
    """
    if not _ANY_QUANTIFIER.search(text) or (doc := parse(text)) is None:
        return ()
    out = []
    for tok in doc:
        key, start = tok.lower_, tok.idx
        if key == "few" and tok.i > 0 and doc[tok.i - 1].lower_ == "a":
            key, start = "a few", doc[tok.i - 1].idx
        if key not in QUANTIFIERS or tok.tag_ == "RBS":  # "the most effective" is a degree
            continue
        scale, strength = QUANTIFIERS[key]
        target = _target(tok, scale)
        stem = first_stem(target) if target is not None else None
        if stem is not None:
            end = tok.idx + len(tok.text)
            q = Quantifier(
                text[start:end], scale, strength, stem, start, end, context_of(target), _denied(tok)
            )
            out.append(q)
    return tuple(out)


def _denied(tok: Any) -> bool:
    """A "not" right before the quantifier ("not often", "not all") or a negation of the verb an
    adverb of frequency modifies ("does not run often")."""
    if tok.i > 0 and tok.doc[tok.i - 1].dep_ == "neg":
        return True
    head = tok.head if tok.dep_ == "advmod" else None
    return head is not None and any(k.dep_ == "neg" for k in head.children)


def compare_quantifiers(claim: str, reference: str) -> tuple[str, Quantifier, Quantifier] | None:
    """The first finding between the quantifiers of ``claim`` and ``reference`` on the same
    scale and target: ("conflict" | "qualified" | "missing", the claim's quantifier, the
    reference's); None without one (see the module docstring for the rules)."""
    scoped = compare_scopes(claim, reference)
    if scoped is not None:
        return scoped
    mine = quantifiers(claim)  # first: a claim without a quantifier needs no parse of the reference
    theirs = quantifiers(reference) if mine else ()
    if not theirs:
        return None
    for q in mine:
        for o in theirs:
            if o.scale != q.scale or not token_match(q.target, o.target) or o.strength == q.strength:
                continue
            if q.denied or o.denied:
                continue  # "not often" / "rarely": the polarity and opposite checks read it
            if not _same_context(q.context, o.context):
                continue
            if min(q.strength, o.strength) == 1 and max(q.strength, o.strength) >= 3:
                return "conflict", q, o
            if q.strength == 5 and o.strength >= 2:
                return "qualified", q, o
            if q.strength == 4 and o.strength in (2, 3):
                return "missing", q, o
    return None


def _graded(word: str) -> tuple[str, ...]:
    """The base forms a superlative grades ("largest" -> "large", "biggest" -> "big",
    "happiest" -> "happy")."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    stem = word[:-3]
    return (stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else stem, stem[:-1] + "y")


def _superlatives(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The superlatives of ``text``: (surface, the adjective forms it grades)."""
    if not _SUPERLATIVE.search(text) or (doc := parse(text)) is None:
        return []
    out: list[tuple[str, tuple[str, ...]]] = []
    for tok in doc:
        if tok.tag_ == "RBS" and tok.lower_ in ("most", "least") and tok.head.pos_ in ("ADJ", "ADV"):
            out.append((f"{tok.text} {tok.head.text}", (tok.head.lower_,)))
        elif tok.tag_ == "JJS" and tok.lower_ not in ("most", "least") and len(tok.text) > 4:
            out.append((tok.text, _graded(tok.lower_)))
    return out


def superlative_missing(claim: str, reference: str) -> str | None:
    """The claim's superlative ("the most effective") when ``reference`` states the adjective it
    grades ("effective") but not the superlative itself; None otherwise.

    >>> superlative_missing("It is the most effective drug.", "It is an effective drug.")
    'most effective'
    >>> superlative_missing("Oslo is the largest city.", "Oslo is the largest city.") is None
    True
    """
    sups = _superlatives(claim)
    if not sups:
        return None
    words = set(re.findall(r"[a-z]+", reference.lower()))
    for surface, forms in sups:
        low = surface.lower()
        if " " in low:  # "most effective": the adjective stated without "most" / "least"
            adj = low.split()[1]
            if adj in words and not re.search(rf"\b(?:most|least)\s+{re.escape(adj)}\b", reference, re.I):
                return surface
        elif low not in words and any(f in words for f in forms):
            return surface
    return None


_ONE_OF = re.compile(
    r"\b(?:one|among)\s+(?:of\s+)?the\s+((?:most|least)\s+[a-z]+|[a-z]+est|best|worst)\b", re.I
)


def _is_superlative(text: str, start: int) -> bool:
    """The word at ``start`` is a superlative: "most"/"least" or tagged JJS by spaCy ("the
    largest"; not "the protest organizers", "the forest trails")."""
    if text[start:].lower().startswith(("most ", "least ", "best", "worst")):
        return True
    doc = parse(text)
    return any(t.idx == start and t.tag_ == "JJS" for t in doc or ())


def one_of_dropped(claim: str, reference: str) -> tuple[str, int, int] | None:
    """The reference's "one of the largest" (its words and span) when the claim states the
    same superlative as the only one ("the largest"): the reference limits the claim.

    >>> one_of_dropped("Oslo is the largest city.", "Oslo is one of the largest cities.")
    ('one of the largest', 8, 26)
    >>> one_of_dropped("Oslo is one of the largest cities.", "Oslo is one of the largest cities.") is None
    True
    """
    m = _ONE_OF.search(reference)
    if m is None or not _is_superlative(reference, m.start(1)):
        return None
    if len(re.findall(rf"\bthe\s+{re.escape(m.group(1))}\b", reference, re.I)) > 1:
        return None  # "one of the largest cities in Europe and the largest in Norway"
    sup = re.escape(m.group(1).lower()).replace("\\ ", r"\s+")
    if re.search(rf"\bthe\s+{sup}\b", claim, re.I) and not re.search(
        rf"\b(?:one|among)\s+(?:of\s+)?the\s+{sup}\b", claim, re.I
    ):
        return m.group(0), m.start(), m.end()
    return None


_RANKS = {
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_RANKED = re.compile(
    r"\b(?<!of\s)the\s+(?:(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,2}(?:st|nd|rd|th))[\s-]+)?"
    r"((?:most|least)\s+[a-z]+|[a-z]{2,}est|best|worst)\b",
    re.I,
)


def _ranked(text: str) -> dict[str, tuple[int, int, int]]:
    """Superlative (lower case) -> (rank, start, end) of each "the [Nth] <superlative>" of
    ``text``: "the largest" is rank 1, "the second largest" rank 2 ("one of the largest" is no
    rank: ``one_of_dropped``)."""
    out: dict[str, tuple[int, int, int]] = {}
    for m in _RANKED.finditer(text):
        if re.search(r"\b(?:one|among)\s+(?:of\s+)?$", text[: m.start()], re.I) or not _is_superlative(
            text, m.start(2)
        ):
            continue
        word = (m.group(1) or "").lower()
        rank = _RANKS.get(word) or (int(re.match(r"\d+", word).group(0)) if word[:1].isdigit() else 1)  # type: ignore[union-attr]
        out.setdefault(re.sub(r"\s+", " ", m.group(2).lower()), (rank, m.start(), m.end()))
    return out


def superlative_rank(claim: str, reference: str) -> tuple[str, str, int, int] | None:
    """The claim's and the reference's words, and the reference's span, when both rank the
    same superlative differently ("the largest city" / "the second largest city"); None
    otherwise.

    >>> superlative_rank("Vossa is the largest city.", "Vossa is the second largest city.")
    ('the largest', 'the second largest', 9, 27)
    >>> superlative_rank("Vossa is the largest city.", "Vossa is one of the largest cities.") is None
    True
    """
    if not _SUPERLATIVE.search(claim):
        return None
    mine = _ranked(claim)
    if not mine:
        return None
    if not _SUPERLATIVE.search(reference):
        return _placed(claim, reference, mine)
    for sup, (rank, start, end) in _ranked(reference).items():
        if sup in mine and mine[sup][0] != rank:
            return claim[mine[sup][1] : mine[sup][2]], reference[start:end], start, end
    return None


#: a position in a ranking without a superlative: "ranked third", "ranks 2nd", "finished fourth"
_PLACED = re.compile(
    r"\b(?:rank(?:s|ed)?|placed|plac(?:es|ing)|finish(?:es|ed)|came|comes)\s+(?:at\s+|in\s+)?(?:No\.\s*)?"
    r"(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,2}(?:st|nd|rd|th))\b",
    re.I,
)


#: a first place, in any wording ("but first in tea exports", "the top producer")
_FIRST = re.compile(r"\b(?:first|1st|top|leading|number\s+one|No\.\s*1)\b", re.I)
#: a measure named right after a place ("ranks 12th among buildings by floor area")
_OTHER_MEASURE = re.compile(r"[^.;]{0,40}?\b(?:by|for|in\s+terms\s+of)\b", re.I)


def _placed(
    claim: str, reference: str, mine: dict[str, tuple[int, int, int]]
) -> tuple[str, str, int, int] | None:
    """The claim's first-ranked superlative ("the largest producer") against a lower place in a
    ranking that the reference states ("ranked third in peach production"): another rank. Both
    texts must be about one ranking (the caller compares the rest of their words).

    >>> claim = "Georgia is the largest producer."
    >>> _placed(claim, "Georgia ranked third in production.", _ranked(claim))
    ('the largest', 'ranked third', 8, 20)
    >>> city = "The city is the largest in the region."
    >>> _placed(city, "It ranked third for tourism.", _ranked(city)) is None
    True
    """
    first = [(s, e) for rank, s, e in mine.values() if rank == 1]
    places = list(_PLACED.finditer(reference))
    # a first place anywhere ("third in tea production but first in tea exports") may be the
    # claim's; a ranking by a stated measure ("ranks 12th by floor area") is another ranking
    if not first or not places or _FIRST.search(reference):
        return None
    m = places[0]
    if _OTHER_MEASURE.match(reference, m.end()):
        return None
    # the ranked noun ("the largest producer"): the reference ranks by it ("peach production"),
    # not by another measure ("The city ranked third for tourism" is no size)
    after = re.match(r"\s+([\w-]+)", claim[first[0][1] :])
    ranked = content_tokens(after.group(1)) if after else []
    if not ranked or not any(
        t[:5] == ranked[0][:5] or token_match(t, ranked[0]) for t in content_tokens(reference)
    ):
        return None
    s, e = first[0]
    return claim[s:e], reference[m.start() : m.end()], m.start(), m.end()


# ---------------------------------------------------------------- scope of a quantified subject

#: the determiners of a quantified subject and the form of the square of opposition they make
#: with an affirmed verb (A: all, E: none, I: some); a denied verb turns A into "all ... not"
#: (left unread: ambiguous) and I into O ("some ... not"); "not all" is O
_SCOPE_DETERMINERS = {
    "all": "A",
    "every": "A",
    "each": "A",
    "no": "E",
    "none": "E",
    "some": "I",
    "several": "I",
    "certain": "I",
}
_NEGATED_FORM = {"I": "O", "A": "A-neg", "E": "E-neg"}
#: (claim form, reference form) -> finding: contradictories (A/O, E/I) and contraries (A/E) are
#: conflicts; a claim the reference's form does not entail (E or I against O, O against I) is
#: missing; "all" against "some" is ``compare_quantifiers``' qualification
_SCOPE_FINDINGS = {
    ("A", "O"): "conflict",
    ("O", "A"): "conflict",
    ("E", "I"): "conflict",
    ("I", "E"): "conflict",
    ("A", "E"): "conflict",
    ("E", "A"): "conflict",
    ("E", "O"): "missing",
    ("I", "O"): "missing",
    ("O", "I"): "missing",
}


def scope_forms(text: str) -> list[tuple[str, Quantifier]]:
    """The quantified subjects of ``text``'s verbs as forms of the square of opposition
    (Aristotle's; ``_SCOPE_DETERMINERS``): "All birds can fly" A, "No birds can fly" and "None of
    the birds can fly" E, "Some birds can fly" I, "Some birds cannot fly" and "Not all birds can
    fly" O; each with its quantifier (target: the subject noun's stem; context: the verb and
    object, ``context_of``)."""
    if not re.search(r"\b(?:all|every|each|no|none|some|several|certain)\b", text, re.I):
        return []
    out = []
    for tok in parse(text) or ():
        word = tok.lower_
        if word not in _SCOPE_DETERMINERS:
            continue
        noun = tok.head if tok.dep_ in ("det", "predet") else None
        if word == "none" and tok.dep_ in ("nsubj", "nsubjpass"):
            of = next((k for k in tok.children if k.lower_ == "of"), None)
            noun = next((k for k in of.children if k.dep_ == "pobj"), None) if of is not None else None
            verb = tok.head
        else:
            verb = noun.head if noun is not None and noun.dep_ in ("nsubj", "nsubjpass") else None
        if noun is None or verb is None or verb.pos_ not in ("VERB", "AUX"):
            continue
        form, start = _SCOPE_DETERMINERS[word], tok.idx
        before = tok.doc[tok.i - 1] if tok.i > 0 else None
        if before is not None and before.lower_ == "not" and form == "A":
            form, start = "O", before.idx  # "not all birds"
        elif any(k.dep_ == "neg" and k.i > tok.i for k in verb.children):
            form = _NEGATED_FORM[form]
        stem = first_stem(noun)
        if stem is None:
            continue
        obj = next((k for k in verb.children if k.dep_ in ("dobj", "attr", "acomp")), None)
        context = tuple(x for t in (verb, obj) if t is not None for x in content_tokens(t.text)[:1])
        end = tok.idx + len(tok.text)
        out.append((form, Quantifier(text[start:end], "amount", 0, stem, start, end, context)))
    return out


def compare_scopes(claim: str, reference: str) -> tuple[str, Quantifier, Quantifier] | None:
    """("conflict" | "missing", the claim's quantifier, the reference's) for two quantified
    subjects of the same noun and verb whose forms (``scope_forms``) exclude each other or do not
    entail the claim's ("No birds can fly" against "Some birds cannot fly": missing; against
    "Some birds can fly": conflict); None otherwise."""
    mine = scope_forms(claim)
    theirs = scope_forms(reference) if mine else []
    for form, q in mine:
        for other, o in theirs:
            found = _SCOPE_FINDINGS.get((form, other))
            if found and token_match(q.target, o.target) and _same_context(q.context, o.context):
                return found, q, o
    return None
