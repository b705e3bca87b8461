"""Checks on who does what: same subject, head swap, role swap (also with a description; of
common nouns: argument swap), entity swap (also the opening agent: attribution).

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re

from claims.facets import (
    Facets,
    content_tokens,
    is_weak_entity,
    token_match,
)
from claims.facets.vocabulary import ANTONYMS, data_rows
from claims.parses import parse
from claims.verdict.findings import Conflict, Pair
from claims.verdict.names import entity_present, lower_words, name_keys
from claims.verdict.one_way import (
    ONE_WAY_STEMS,
    ONE_WAY_VERBS,
    noun_key,
    one_way_roles,
    span_of,
    verb_arguments,
    verb_key,
)
from claims.verdict.text import coverage_of, subject_head
from claims.verdict.thresholds import T


def subject_agrees(
    p: Pair, r: Facets, conflict_entity: str | None = None, *, counted_slot: bool = False
) -> bool:
    """Same subject: the claim's entities are in the reference claim — or some are, and the
    reference claim names no entity the claim lacks (a different subject such as OB-71 vs
    OB-17 is never the same subject) — and enough content words are shared. ``counted_slot``:
    the conflict is a count of the same noun ("six lanes" / "four lanes"), which is itself part
    of the predicate, so half of the predicate's words suffice ("carries ... lanes of traffic" /
    "carries ... lanes of the E39 motorway")."""
    missing = [e for e in p.entities_missing if e != conflict_entity and not _adjunct(r, e, p)]
    if missing and (not p.entities_present or p.entities_extra):
        return False
    # the predicate ("won", "enrolled", "long") must be the same: a year of another event is
    # not a conflicting year
    needed = T.coverage_predicate_counted if counted_slot else T.coverage_predicate
    if p.predicate_size and p.predicate_coverage < needed:
        return False
    if not p.predicate_size and p.cos < T.cosine_without_predicate:
        return False
    subject_coverage = p.subject_coverage
    if conflict_entity is not None:
        # the rival name is the conflict, not a lack of the subject: "The jury was chaired by
        # Paul Reyes" / "... by Teodor Halm" share all their other words
        own = set(content_tokens(conflict_entity))
        rest = [t for t in r.tokens if t not in own]
        if rest:
            subject_coverage = max(subject_coverage, sum(t in p.tokens_covered for t in rest) / len(rest))
    if not r.entities:
        return subject_coverage >= T.coverage_subject_without_names or p.cos >= T.cosine_subject_without_names
    return subject_coverage >= T.coverage_subject or (
        subject_coverage >= T.coverage_subject_partial and p.cos >= T.cosine_subject_partial
    )


#: prepositions of place and time: a name after one is where or when, not who
_ADJUNCT_PREPOSITIONS = frozenset({"in", "at", "on", "near", "during", "from", "to"})


def _adjunct(r: Facets, entity: str, p: Pair) -> bool:
    """The claim's name ``entity`` only says where or when ("The treaty was signed in Paris in
    1921"), and the reference claim is about the claim's subject (``head_covered``) and names
    nobody else: the detail it lacks does not make it another event, so "signed in 1922"
    still contradicts the year."""
    if not p.head_covered or p.entities_extra:
        return False
    starts = [s for e, s, _ in r.entities if e == entity]
    return bool(starts) and all(word_before(r.text, s) in _ADJUNCT_PREPOSITIONS for s in starts)


def word_before(text: str, pos: int) -> str:
    """The word right before ``pos``, articles skipped ("chaired by the X" -> "by")."""
    words = [w.lower() for w in re.findall(r"[\w'’-]+", text[:pos])]
    while words and words[-1] in ("the", "a", "an"):
        words.pop()
    return words[-1] if words else ""


def head_swap_of(p: Pair, r: Facets, c: Facets) -> Conflict | None:
    """Another proper noun as the subject head with everything else the same ("Lyon is the
    capital of France" vs "Paris is the capital of France"): an entity conflict. A changed
    common noun ("museum" vs "library") is only not support (see ``_supports``)."""
    if p.head_covered:
        return None
    rh, ch = subject_head(r.text), subject_head(c.text)
    if rh is None or ch is None:
        return None
    r_ent = next((e for e in r.entities if content_tokens(e[0])[:1] == [rh]), None)
    c_ent = next((e for e in c.entities if content_tokens(e[0])[:1] == [ch]), None)
    if r_ent is None or c_ent is None:
        return None
    r_rest = [t for t in r.tokens if t != rh]
    c_rest = [t for t in c.tokens if t != ch]
    if not r_rest or coverage_of(r_rest, c_rest)[0] < 1.0 or coverage_of(c_rest, r_rest)[0] < 1.0:
        return None
    return Conflict("entity", r_ent[0], c_ent[0], c_ent[1], c_ent[2])


#: relations whose two sides can be swapped (``claims/data/symmetric_relations.tsv``): all the
#: words, their stems for the content words between two names, and the verbs alone
_SYMMETRIC_ROWS = data_rows("symmetric_relations.tsv", 2)
_SYMMETRIC_WORDS = frozenset(w for _, words in _SYMMETRIC_ROWS for w in words.split())
_SYMMETRIC = frozenset(content_tokens(" ".join(_SYMMETRIC_WORDS)))
#: the verbs of the verb rows alone, as ``verb_arguments`` keys them (``converse_relation``), and
#: the prepositions of the word rows that make a relation symmetric ("sits beside",
#: "collaborated with"; not "won against")
_SYMMETRIC_VERB_KEYS = frozenset(
    verb_key(w) for kind, words in _SYMMETRIC_ROWS if kind.strip() == "verb" for w in words.split()
)
_SYMMETRIC_PREPS = (
    frozenset({"with", "between", "alongside", "near", "beside", "next", "opposite"}) & _SYMMETRIC_WORDS
)
#: the one-way verbs (``claims/data/one_way_verbs.txt``), keyed alike
_ONE_WAY_KEYS = frozenset(verb_key(w) for w in ONE_WAY_VERBS)
#: an equative comparison ("as tall as", "as widely used as") is symmetric too
_AS_AS = re.compile(r"\bas\s+(?:\w+\s+){1,2}?as\b", re.IGNORECASE)


_PASSIVE = frozenset({"by", "was", "were", "is", "are", "been", "being", "be"})
_ARTICLES = frozenset({"the", "a", "an"})


def _same_relation(between_r: str, between_c: str) -> bool:
    """The text between two entities in the claim and in the reference state the same
    relation, in the same voice: a relation word links them ("Brazil and Germany" has none),
    and no symmetric one ("Brazil played Germany" says the same as "Germany played Brazil");
    the reference's words include the claim's and start with the same relation word (it may
    add a description: "bought the software firm"); a passive ("was won by") keeps roles."""
    tr, tc = content_tokens(between_r), content_tokens(between_c)
    if not tr or not tc or tr[0] != tc[0] or not set(tr) <= set(tc) or set(tr) & _SYMMETRIC:
        return False
    wr, wc = lower_words(between_r) - _ARTICLES, lower_words(between_c) - _ARTICLES
    if wr & _SYMMETRIC_WORDS or _AS_AS.search(between_r):
        return False
    return wr <= wc and not (wc - wr) & _PASSIVE and not (wr & _PASSIVE) - wc


def role_swap(p: Pair, r: Facets, c: Facets) -> Conflict | None:
    """The same entities in another order with the same words around them ("Brazil beat
    Germany" vs "Germany beat Brazil"): the roles are swapped."""
    if p.entities_missing or p.missing or p.conflicts or len(r.entities) < 2:
        return None
    ents = r.entities
    c_words = lower_words(c.text)
    found = []
    for e, _, _ in ents:
        hit = next((x for x in c.entities if x[0].lower() == e.lower()), None)
        if hit is None or not entity_present(e, c_words, c.tokens, name_keys(c.text)):
            return None
        found.append(hit)
    if [x[1] for x in found] == sorted(x[1] for x in found):
        return None
    (_, r0s, r0e), (_, r1s, r1e) = sorted(ents[:2], key=lambda e: e[1])
    c_two = sorted(found[:2], key=lambda x: x[1])
    if not _same_relation(r.text[r0e:r1s], c.text[c_two[0][2] : c_two[1][1]]):
        return None
    ent_tokens = set(content_tokens(" ".join(e for e, _, _ in ents)))
    r_rest = [t for t in r.tokens if t not in ent_tokens]
    c_rest = [t for t in c.tokens if t not in ent_tokens]
    if not r_rest or coverage_of(r_rest, c_rest)[0] < 1.0:
        return None
    # the reference may describe the second party ("bought the software firm Corvin Group"):
    # its extra words must all lie between the two entities
    between_c = set(content_tokens(c.text[c_two[0][2] : c_two[1][1]]))
    _, r_in_c = coverage_of(c_rest, r_rest)
    if any(t not in r_in_c and t not in between_c for t in c_rest):
        return None
    order_r = " … ".join(e for e, _, _ in ents)
    order_c = " … ".join(x[0] for x in sorted(found, key=lambda x: x[1]))
    start, end = min(x[1] for x in found), max(x[2] for x in found)
    return Conflict("roles", order_r, order_c, start, end)


def argument_swap(p: Pair, r: Facets, c: Facets) -> Conflict | None:
    """Check: roles of common nouns. The claim's subject and object (or the two sides of its
    comparison) trade places in the reference claim around the same one-way relation ("Copper
    can displace iron" vs "iron can displace copper"; "Copper is more reactive than iron" vs
    "iron is more reactive than copper"): the roles are swapped, as ``role_swap`` finds for
    names. Read from spaCy's parse (``one_way_roles``): a comparison with "than", or a verb of
    ``claims/data/one_way_verbs.txt`` ("displaced", "acquired", "overtook") with its subject and
    direct object, or its agent and passive subject ("was acquired by"), the verbs of one line
    one relation; around any other verb both directions can be true ("The officer praised the
    firefighter" / "The firefighter praised the officer") and the swap is no conflict. Every
    content word of the claim but its one-way verb is stated and neither text is negated ("A
    cannot displace B" and "B cannot displace A" can both be true); a reference that states both
    directions swaps nothing."""
    # every content word stated, but for the verb itself: "bought" and "acquired" are one
    # relation (a line of one_way_verbs.txt)
    unstated = [t for t in r.tokens if t not in p.tokens_covered and t not in ONE_WAY_STEMS]
    if p.missing or p.conflicts or unstated or p.cos < T.entity_swap_cosine or r.negated or c.negated:
        return None
    theirs = one_way_roles(c.text)
    for relation, subject, obj, (rs, re_), (ro, roe) in one_way_roles(r.text):
        swapped = next((t for t in theirs if t[:3] == (relation, obj, subject)), None)
        if swapped is None or (relation, subject, obj) in {t[:3] for t in theirs}:
            continue
        (s_start, s_end), (o_start, o_end) = swapped[3], swapped[4]
        return Conflict(
            "roles",
            f"{r.text[rs:re_]} … {r.text[ro:roe]}",
            f"{c.text[s_start:s_end]} … {c.text[o_start:o_end]}",
            s_start,
            o_end,
        )
    return None


def converse_relation(p: Pair, r: Facets, c: Facets) -> Conflict | None:
    """Check: converse. The claim's subject and object trade places in the reference around the
    same verb, one neither one-way (``argument_swap``: a contradiction) nor symmetric
    (``claims/data/symmetric_relations.tsv``: the same statement): "Smoking causes cancer" /
    "Cancer causes smoking", "The mayor sued the newspaper" / "The newspaper sued the mayor".
    Both may be true, but the reference states only the other direction: a conflict of kind
    "converse" (the claim is unsupported). Every content word of the claim stated, neither text
    negated, and the reference does not state the claim's direction too (``verb_arguments``)."""
    if p.missing or p.conflicts or r.negated or c.negated or p.cos < T.entity_swap_cosine:
        return None
    if any(t not in p.tokens_covered for t in r.tokens):
        return None
    theirs = [(rel, noun_key(s), noun_key(o), s, o) for rel, s, o in verb_arguments(c.text)]
    for relation, subject, obj in verb_arguments(r.text):
        verb, *prep = relation.split()
        if verb in _ONE_WAY_KEYS or verb in _SYMMETRIC_VERB_KEYS or set(prep) & _SYMMETRIC_PREPS:
            continue  # one-way: a contradiction (``argument_swap``); "played", "sits beside": symmetric
        ours = (relation, noun_key(subject), noun_key(obj))
        swapped = next((t for t in theirs if t[:3] == (ours[0], ours[2], ours[1])), None)
        if swapped is None or ours[1] == ours[2] or ours in {t[:3] for t in theirs}:
            continue
        (rs, re_), (cs, ce) = (
            _outer(span_of(subject), span_of(obj)),
            _outer(span_of(swapped[3]), span_of(swapped[4])),
        )
        return Conflict("converse", r.text[rs:re_], c.text[cs:ce], cs, ce)
    return None


def _outer(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The span from the first of two spans to the end of the last (the passive puts the
    object first)."""
    return min(a[0], b[0]), max(a[1], b[1])


def is_converse(r: Facets, c: Facets) -> bool:
    """The reference states the claim's comparison from the other side: "A is more X than B" /
    "B is less X than A", "A is larger than B" / "B is smaller than A" (read from the parse,
    ``one_way_roles``; antonyms of ``claims.facets.ANTONYMS``)."""
    other = {"more": "less", "less": "more"}
    theirs = {t[:3] for t in one_way_roles(c.text)}
    for relation, subject, obj, _, _ in one_way_roles(r.text):
        kind, _, rest = relation.partition(":")
        degree, _, adjective = rest.partition(":")
        if kind != "c":
            continue
        converse = [f"c:{other[degree]}:{adjective}"] + [
            f"c:{degree}:{a}" for a in ANTONYMS.get(adjective, ())
        ]
        if any((k, obj, subject) in theirs for k in converse):
            return True
    return _swapped_than(r.text, c.text)


def _swapped_than(a: str, b: str) -> bool:
    """The two sides of a "than" comparison swapped between ``a`` and ``b``, read from the
    words ("Flying is safer than driving" / "Driving is more dangerous than flying": gerunds
    that the parse-based roles do not hold)."""
    sides = []
    for text in (a, b):
        before, than, after = text.lower().partition(" than ")
        first, last = content_tokens(before)[:1], content_tokens(after)[:1]
        if not than or not first or not last:
            return False
        sides.append((first[0], last[0]))
    (x1, y1), (x2, y2) = sides
    return token_match(x1, y2) and token_match(y1, x2)


def _may_name_same(a: str, b: str) -> bool:
    """Two names that may name one party: they share a word ("Varga" / "Lena Varga"), or one
    is written in capitals that are the initials of the other ("AP" / "Air Products")."""
    if set(content_tokens(a)) & set(content_tokens(b)):
        return True
    for short, long_ in ((a, b), (b, a)):
        initials = "".join(w[0] for w in re.findall(r"[\w'’-]+", long_) if w[:1].isupper())
        if short.isupper() and short.replace(".", "") == initials:
            return True
    return False


def _slot(text: str, start: int, end: int) -> tuple[str, list[str], list[str]]:
    """The slot of a name at ``text[start:end]``: the word before it (articles skipped) and the
    nearest content words before and after it."""
    return word_before(text, start), content_tokens(text[:start])[-1:], content_tokens(text[end:])[:1]


def _slot_swap(p: Pair, r: Facets, c: Facets) -> Conflict | None:
    """Check: a name in another slot. Every name of the claim is in the reference claim, but one
    that is not its subject stands in a slot (same word before it, same content words on both
    sides) that the reference fills with a name the claim lacks (``Pair.entities_extra``), while
    the reference states the claim's name only earlier and in other slots: "... across the
    Halvorsen Bridge fjord" vs "The Halvorsen suspension bridge ... across the Sandvik fjord".
    A list is no swap: "offices in Austin, Texas" vs "offices in Dallas, Texas, and Austin,
    Texas" states Austin after Dallas."""
    if p.entities_missing or len(r.entities) < 2:
        return None
    for ent, start, end in r.entities:
        mine = _slot(r.text, start, end)
        if not mine[1] or not mine[2]:
            continue  # the subject, or a name that ends the claim: roles and swaps above
        found = [m.span() for m in re.finditer(rf"\b{re.escape(ent)}\b", c.text, re.IGNORECASE)]
        if any(_same_slot(mine, _slot(c.text, s, e)) for s, e in found):
            continue
        for e, s, en in c.entities:
            if (
                e in p.entities_extra
                and _same_slot(mine, _slot(c.text, s, en))
                and all(x < s for x, _ in found)
            ):
                return Conflict("entity", ent, e, s, en)
    return None


def _same_slot(a: tuple[str, list[str], list[str]], b: tuple[str, list[str], list[str]]) -> bool:
    """Two slots (``_slot``) agree: same word before, content words matching on both sides."""
    return (
        a[0] == b[0] and bool(a[1] and b[1] and a[2] and b[2])
        and token_match(a[1][0], b[1][0]) and token_match(a[2][0], b[2][0])
    )  # fmt: skip


def entity_swap_of(p: Pair, r: Facets, c: Facets) -> Conflict | None:
    """A response entity replaced by another entity of the reference in the same role
    (``_slot_swap`` when the reference states the claim's name elsewhere)."""
    if not p.entities_missing:
        swap = _slot_swap(p, r, c)
        return swap if swap is not None and p.cos >= T.entity_swap_cosine else None
    if len(p.entities_missing) != 1:
        return None
    ent = p.entities_missing[0]
    r_ent = next((e for e in r.entities if e[0] == ent), None)
    if r_ent is None:
        return None
    r_words = lower_words(r.text)
    stems = r.tokens
    # a weak entity (an ordinary word opening the sentence: "Class and type ...") is no rival name
    extras = [
        e
        for e in c.entities
        if not entity_present(e[0], r_words, stems, name_keys(r.text)) and not is_weak_entity(c.text, e)
    ]
    if not extras:
        return None
    ent_tokens = set(content_tokens(ent))
    rest = [t for t in r.tokens if t not in ent_tokens]
    cov, _ = coverage_of(rest, c.tokens)
    before_r = [t for t in content_tokens(r.text[: r_ent[1]])][-1:]
    word_r = word_before(r.text, r_ent[1])
    for e, s, en in extras:
        before_c = [t for t in content_tokens(c.text[:s])][-1:]
        same_role = bool(before_r and before_c and token_match(before_r[0], before_c[0]))
        same_role = same_role and word_r == word_before(c.text, s)
        if same_role and cov >= T.entity_swap_coverage and p.cos >= T.entity_swap_cosine:
            return Conflict("entity", ent, e, s, en)
        # check: attribution. Both open their sentence (the agent) and every other word of the
        # claim is stated: "Olav Brandt proposed X" vs "Lena Varga proposed X"
        opening = not before_r and not before_c and not word_r and not word_before(c.text, s)
        if opening and cov >= 1.0 and p.cos >= T.entity_swap_cosine and not _may_name_same(ent, e):
            return Conflict("entity", ent, e, s, en)
    return None


def entity_role(text: str, start: int, end: int) -> str:
    """The role of the name at ``text[start:end]`` in its clause, from spaCy's parse: "agent"
    (the subject of an active verb, or the "by" phrase of a passive), "patient" (a direct
    object or a passive subject), else ""."""
    doc = parse(text)
    toks = [t for t in doc or () if start <= t.idx < end]
    head = next((t for t in toks if not start <= t.head.idx < end or t.head.i == t.i), None)
    if head is None:
        return ""
    if head.dep_ == "nsubj" or (head.dep_ == "pobj" and head.head.dep_ == "agent"):
        return "agent"
    return "patient" if head.dep_ in ("nsubjpass", "dobj") else ""
