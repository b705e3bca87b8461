"""Roles and order read from spaCy's parse: the ordered relations between two nouns of a text
(``relations``) and their comparison (``order_conflict``, ``order_agrees``), for the check of
``claims.verdict.counterparts`` (see its docstring).

A relation: the parties of a verb with a converse of ``claims.lexicon`` (subject, and the
"from" / "to" / "against" party or the object: "A bought X from B", "A beat B"), subject and
object of a verb between two names (symmetric verbs of ``claims/data/symmetric_relations.tsv``
have none), "from A to B" (either word first; between nouns, or between values: two years are a
period, keyed "dir:period" whatever word they hang on), the operands of a formula
(``claims.verdict.operands``: "A divided by B", "A over B", "the ratio of A to B" are one key,
"subtract A from B" and "B minus A" another), the two sides of a "than" comparison (a denied
one, "A is no deeper than B" or "A is not as deep as B", the other way round), "A is the parent
of B", "A is above B", "A is north of B". Converse words name one relation read from its two
sides, so the key of a relation names the pair of words, and a word that is not the first of its
pair reads its sides reversed ("B sold X to A" is "A bought X from B").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from claims import lexicon
from claims.facets.vocabulary import data_rows, stem_of
from claims.parses import parse
from claims.verdict.operands import OPERATION_WORDS, operation
from claims.verdict.relation import Relation

__all__ = [
    "Relation",
    "relations",
    "Endpoint",
    "SYMMETRIC",
    "agent_patient",
    "same_noun",
    "comparison_agrees",
    "converse_keys",
    "endpoint_conflict",
    "endpoints",
    "converse_texts",
    "order_agrees",
    "order_conflict",
    "told_conversely",
]

#: verbs whose two sides can trade places (``claims/data/symmetric_relations.tsv``), as stems
SYMMETRIC = frozenset(
    stem_of(w)
    for kind, words in data_rows("symmetric_relations.tsv", 2)
    if kind == "verb"
    for w in words.split()
)


def noun_key(tok: Any) -> str:
    """A noun's key: its stem with the stems of its compound modifiers ("stock market")."""
    parts = [c for c in tok.children if c.dep_ == "compound" and c.lower_ not in OPERATION_WORDS] + [tok]
    return " ".join(stem_of(p.text.rstrip(".")) for p in sorted(parts, key=lambda t: t.i))


def _child(tok: Any, *deps: str) -> Any | None:
    return next((c for c in tok.children if c.dep_ in deps), None) if tok is not None else None


def _named(tok: Any | None) -> bool:
    return tok is not None and tok.pos_ == "PROPN"


def _nominal(tok: Any | None) -> bool:
    return tok is not None and tok.pos_ in ("NOUN", "PROPN") and not tok.like_num


def _surface(tok: Any) -> str:
    """A side's words as written: the noun with its compound modifiers ("FA Cup"), or a value
    with its numeric modifiers ("10 dollars")."""
    parts = [c for c in tok.children if c.dep_ in ("compound", "nummod") and c.lower_ not in OPERATION_WORDS]
    parts.append(tok)
    return " ".join(p.text for p in sorted(parts, key=lambda t: t.i))


def _canonical(word: str, converses: tuple[str, ...], prefix: str) -> list[tuple[str, bool, str]]:
    """(key, reversed) for ``word`` and each converse: the key names the pair in sorted order; a
    word that is not the first of its pair reads its sides reversed."""
    return [(f"{prefix}:{min(word, c)}|{max(word, c)}", word > c, c) for c in converses]


def span_of(tok: Any) -> tuple[int, int]:
    """The character span of a noun with its modifiers (its subtree)."""
    left, right = tok.left_edge, tok.right_edge
    return left.idx, right.idx + len(right.text)


def _add(
    out: list[Relation],
    key: str,
    a: Any,
    b: Any,
    reverse: bool,
    word: str,
    tok: Any = None,
    converse: str = "",
) -> None:
    operands = key.startswith("op:")  # "4 divided by 12": values are operands too

    def side(t: Any) -> bool:  # an operand the parser tagged otherwise: "mass divided by volume"
        return _nominal(t) or operands and t is not None and (_value(t) or t.is_alpha and not t.is_stop)

    if side(a) and side(b):
        x, y = (noun_key(t) if _nominal(t) else _value_key(t) for t in (a, b))
        if x != y:
            word_span = (tok.idx, tok.idx + len(tok.text)) if tok is not None else (0, 0)
            spans = (span_of(a), span_of(b), word_span)
            names = (_surface(b), _surface(a)) if reverse else (_surface(a), _surface(b))
            sides = (y, x) if reverse else (x, y)
            out.append(Relation(key, *sides, word, spans, converse, names, reverse))


def agent_patient(verb: Any) -> tuple[Any | None, Any | None]:
    """The agent and patient of a verb: subject and object, or in the passive the "by" phrase
    and the subject; a participle with no subject of its own takes its head verb's ("Argentina
    won the cup, defeating West Germany")."""
    agent = _child(verb, "agent")
    if agent is not None:
        return _child(agent, "pobj"), _child(verb, "nsubjpass")
    subj = _child(verb, "nsubj")
    if subj is None and verb.dep_ in ("advcl", "xcomp", "conj") and verb.head is not verb:
        subj = _child(verb.head, "nsubj")
    if subj is not None and subj.tag_ in ("WP", "WDT") and verb.dep_ == "relcl":
        # "Eisinga was an astronomer who built the planetarium": the noun the clause is about,
        # the subject of a copula for its complement
        subj = verb.head
        if subj.dep_ == "attr":
            subj = _child(subj.head, "nsubj") or subj
    return subj, _child(verb, "dobj")


#: verbs whose other party is their object ("A beat B", "A preceded B", "A employs B"), as
#: stems; the other verbs with a converse name their other party with "from", "to" or "against"
#: ("A bought X from B", "B lost to A"), and their object is the thing that changes hands or the
#: occasion ("won the final"), no party
_OBJECT_PARTY = frozenset(
    stem_of(w) for w in ("beat", "defeated", "preceded", "followed", "exceeds", "trails", "employs")
)
#: verbs of an outcome, whose object is the contest ("won the Cup"), never the other party
_OUTCOME = frozenset(stem_of(w) for w in ("win", "won", "wins", "lose", "lost", "loses"))
#: verb stem -> the converse forms of a lexicon row with that stem ("defeating" -> "lost")
_CONVERSE_STEMS: dict[str, tuple[str, ...]] = {}
for _w in sorted(lexicon.converse_words()):
    _CONVERSE_STEMS.setdefault(stem_of(_w), lexicon.converses(_w))


def _negated(verb: Any) -> bool:
    """The verb is denied ("did not beat"): a denied relation has no order ("A did not beat B" is
    not "B beat A")."""
    return any(c.dep_ == "neg" for c in verb.children)


def _verb_relations(tok: Any, out: list[Relation]) -> None:
    word = tok.lower_
    if _negated(tok):
        return
    agent, patient = agent_patient(tok)
    heads = [tok] + [c for c in tok.children if c.dep_ == "dobj"]  # "won the final against B"
    party_prep = next(
        (
            c
            for h in heads
            for c in h.children
            if c.dep_ in ("prep", "dative") and c.lower_ in ("from", "to", "against")
        ),
        None,
    )
    # the party of a preposition, or a dative noun ("Ann lent Bo the car")
    party = _child(party_prep, "pobj") or next(
        (c for c in tok.children if c.dep_ == "dative" and c.pos_ != "ADP"), None
    )
    conv = lexicon.converses(word) or _CONVERSE_STEMS.get(stem_of(word), ())
    if conv:
        other = patient if stem_of(word) in _OBJECT_PARTY else party
        if other is None and stem_of(word) not in _OUTCOME and _named(agent) and _named(patient):
            other = patient  # two names: "Acme bought Corvin" / "Corvin bought Acme"
        for key, rev, _ in _canonical(stem_of(word), tuple(stem_of(c) for c in conv), "v"):
            _add(out, key, agent, other, rev, word)
        if stem_of(word) in _OUTCOME and _named(agent) and _named(patient):
            # the verb's own order, no converse: "Arsenal won the FA Cup" / "FA Cup won Arsenal"
            _add(out, f"v:{stem_of(word)}", agent, patient, False, word)
    elif stem_of(word) not in SYMMETRIC and _named(agent) and _named(patient):
        _add(out, f"v:{stem_of(word)}", agent, patient, False, word)


def _to_of(frm: Any, doc: Any) -> Any | None:
    """The "to" (or "into") that ends the path that ``frm`` starts: under it or beside it, after
    it ("from Lyon to Paris") or before it ("moved to Paris from Lyon"), or right after its
    phrase; None when there is none."""
    ends = [*frm.children, *(c for c in frm.head.children if c is not frm)]
    after = next((c for c in ends if c.lower_ in ("to", "into") and c.i > frm.i), None)
    if after is not None:
        return after
    nxt = frm.right_edge.i + 1
    if nxt < len(doc) and doc[nxt].lower_ in ("to", "into"):
        return doc[nxt]
    return next((c for c in frm.head.children if c.lower_ in ("to", "into") and c.i < frm.i), None)


#: a year: "from 1990 to 1995" names a period, whatever the verb or noun it hangs on
YEAR = re.compile(r"^(?:1[0-9]|20)[0-9]{2}$")


def _value(tok: Any | None) -> bool:
    """``tok`` is a number ("1990") or a noun counted by one ("10 dollars", "5 %")."""
    return tok is not None and (
        tok.like_num or (tok.pos_ in ("NOUN", "SYM") and any(c.dep_ == "nummod" for c in tok.children))
    )


def _value_key(tok: Any) -> str:
    return " ".join(
        stem_of(t.text)
        for t in sorted([*(c for c in tok.children if c.dep_ == "nummod"), tok], key=lambda t: t.i)
    )


def _from_to(frm: Any, doc: Any, out: list[Relation]) -> None:
    """The path "from A to B" (either word first): between two nouns, keyed by the word it hangs
    on ("dir:move"); between two values, keyed alike, or "dir:period" between two years (a
    period read the other way round is the same period reversed, whatever its head)."""
    to = _to_of(frm, doc)
    a, b = _child(frm, "pobj"), _child(to, "pobj")
    if a is None or b is None:
        return
    head = _path_head(frm)
    if not (_value(a) and _value(b)):
        _add(out, f"dir:{head}", a, b, False, "from … to")
        if _round_trip(to):  # "flew from A to B and back": B to A holds too
            _add(out, f"dir:{head}", b, a, False, "from … to")
        return
    x, y = _value_key(a), _value_key(b)
    if x == y:
        return
    key = "dir:period" if YEAR.match(a.text) and YEAR.match(b.text) else f"dir:{head}"
    spans = (span_of(a), span_of(b), (0, 0))
    out.append(Relation(key, x, y, "from … to", spans, "", (_surface(a), _surface(b))))


#: nouns a path hangs on that belong to the verb's object or subject ("moved its headquarters
#: from A to B" is the path of "moved"): the dependencies climbed to the verb
_PATH_NOUN_DEPS = frozenset(["dobj", "nsubj", "nsubjpass", "attr", "pobj"])
#: words after the end of a path that take it back to its start: "and back", "returned"
_RETURN = frozenset(["back", "return", "returned", "returns", "returning", "round-trip"])


def _path_head(frm: Any) -> str:
    """The stem of the verb a path hangs on, climbing from a noun it modifies ("moved its
    headquarters from Munich" -> "move"; the parser attaches "from" to the noun or to the verb
    as it likes); the stem of the noun when no verb governs it ("the flight from A to B")."""
    head = frm.head
    while head.pos_ not in ("VERB", "AUX") and head.dep_ in _PATH_NOUN_DEPS and head.head is not head:
        head = head.head
    return stem_of(head.text if head.pos_ in ("VERB", "AUX") else frm.head.text)


def _round_trip(to: Any) -> bool:
    """The path that ends at ``to`` goes back to its start: "back" or a verb of return after it in
    its sentence ("flew from A to B and back", "... and returned"), or "round trip" in it."""
    sent = to.sent
    after = {t.lower_ for t in sent if t.i > to.i}
    return bool(after & _RETURN) or "round trip" in sent.text.lower()


#: prepositions that end a path at one side: its start or its end
_ENDS = {"from": "from", "to": "to", "into": "to"}


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One end of a path of a verb ("moved to Lyon"): the verb's stem ``verb``, the noun key
    ``noun`` and its words ``name``, ``side`` ("from" or "to") and the verb's subject key
    (``subject``, "" when it has none or a pronoun)."""

    verb: str
    noun: str
    name: str
    side: str
    subject: str


def endpoints(text: str) -> list[Endpoint]:
    """The ends of the paths of ``text``'s verbs: each noun (no number, no date) under "from",
    "to" or "into" whose path hangs on a verb (``_path_head``)."""
    out = []
    for tok in parse(text) or ():
        side = _ENDS.get(tok.lower_)
        noun = _child(tok, "pobj") if side and tok.dep_ == "prep" else None
        if side is None or noun is None or not _nominal(noun) or noun.ent_type_ in ("DATE", "TIME"):
            continue
        verb = tok.head
        while verb.pos_ not in ("VERB", "AUX") and verb.dep_ in _PATH_NOUN_DEPS and verb.head is not verb:
            verb = verb.head
        if verb.pos_ != "VERB" or _negated(verb):
            continue
        subj = _child(verb, "nsubj", "nsubjpass")
        key = noun_key(subj) if _nominal(subj) else ""
        out.append(Endpoint(stem_of(verb.text), noun_key(noun), _surface(noun), side, key))
    return out


def endpoint_conflict(claim: str, reference: str) -> tuple[Endpoint, Endpoint] | None:
    """The first end of a path of ``claim`` that ``reference`` states at the other end of the
    same verb's path ("moved to Lyon" / "moved from Lyon"; "moved to Paris" / "moved from Paris
    to Lyon") and nowhere at the claim's end, and the reference's end; None when none. Two
    subjects that are both nouns must be the same noun (``same_noun``)."""
    theirs = endpoints(reference)
    for m in endpoints(claim):
        alike = [
            t
            for t in theirs
            if t.verb == m.verb
            and same_noun(t.noun, m.noun)
            and (not t.subject or not m.subject or same_noun(t.subject, m.subject))
        ]
        other = [t for t in alike if t.side != m.side]
        if other and not any(t.side == m.side for t in alike):
            return m, other[0]
    return None


def converse_keys(text: str) -> dict[str, str]:
    """Relation key -> word for every verb of ``text`` with a converse in ``claims.lexicon``,
    whether or not the parse names both its parties ("Federer won the final": "v:lose|win" ->
    "won"): a word of one relation read from its two sides."""
    out: dict[str, str] = {}
    for tok in parse(text) or ():
        conv = lexicon.converses(tok.lower_) or _CONVERSE_STEMS.get(stem_of(tok.text), ())
        if tok.pos_ in ("VERB", "AUX") and conv:
            for key, _, _ in _canonical(stem_of(tok.text), tuple(stem_of(c) for c in conv), "v"):
                out[key] = tok.text
    return out


def relations(text: str) -> list[Relation]:
    """The ordered relations of ``text``'s parse (module docstring); [] when it has none."""
    doc = parse(text)
    out: list[Relation] = []
    for tok in doc or ():
        low = tok.lower_
        if (op := operation(tok)) is not None:
            _add(out, op[0], op[1], op[2], False, op[3])
        if tok.pos_ in ("VERB", "AUX") and low != "divided" and stem_of(low) != "subtract":
            _verb_relations(tok, out)
        if low == "from" and stem_of(tok.head.text) != "subtract":
            _from_to(tok, doc, out)
        if tok.tag_ in ("JJR", "RBR", "JJ", "RB"):
            _comparison(tok, out)
        if tok.pos_ in ("NOUN", "ADP", "ADV", "ADJ") and (conv := lexicon.converses(low)):
            of = tok if tok.pos_ == "ADP" else next((c for c in tok.children if c.lower_ == "of"), None)
            head = tok.head if tok.dep_ in ("attr", "prep", "acomp", "advmod") else None
            subj = _child(head, "nsubj") if head is not None else None
            prefix = "rel" if tok.pos_ == "NOUN" else "pos"
            for key, rev, c in _canonical(low, conv, prefix):
                _add(out, key, subj, _child(of, "pobj"), rev, low, tok, c)
    return out


#: the degree words of a periphrastic comparison ("more reactive than", "less deep than")
_DEGREES = ("more", "less")
#: the words of an amount compared ("more nurses than", "fewer nurses than") and their converses
_AMOUNTS = {"more": ("fewer", "less"), "fewer": ("more",), "less": ("more",)}
_DENY = frozenset({"not", "n't", "no", "never", "hardly", "scarcely", "barely"})


def _comparison(tok: Any, out: list[Relation]) -> None:
    """The two sides of a comparison at ``tok``: "A is deeper than B" (a comparative with
    "than"), and a denied one read the other way round, as the denial leaves it: "A is no deeper
    than B" and "A is not as deep as B" hold "B is deeper than A" or the two alike, never "A is
    deeper than B" (so they conflict with that and agree with its converse). An affirmed "as
    deep as" states no order."""
    than = _child(tok, "prep")
    low = tok.lower_
    comparative = tok.tag_ in ("JJR", "RBR")
    if low in _AMOUNTS and tok.dep_ == "amod" and tok.head.dep_ == "dobj":  # "A has more N than B"
        noun, verb = tok.head, tok.head.head
        than, near = _child(noun, "prep"), [*noun.children, *tok.children, *verb.children]
        # a number ("40 more nurses") is a quantity; a denial ("no fewer") or "may" orders nothing
        blocked = any(c.like_num or c.lower_ in _DENY or c.tag_ == "MD" for c in near)
        if than is None or than.lower_ != "than" or blocked:
            return
        for k, rev, c in _canonical(low, _AMOUNTS[low], "cmp"):
            key = f"{k}:{stem_of(verb.lower_)} {stem_of(noun.lower_)}"
            _add(out, key, _child(verb, "nsubj"), _child(than, "pobj"), rev, low, tok, c)
        return
    # "more deep than" is "deeper than"; "less deep than" is "deeper than" read the other way
    # round, and "no less deep than" the same as "deeper than" (a denied "less")
    by = next((c for c in tok.children if c.dep_ == "advmod" and c.lower_ in _DEGREES), None)
    degree = by.lower_ if by is not None else ""
    if by is not None and any(c.lower_ in ("no", "not", "n't") for c in by.children):
        degree = "more" if degree == "less" else "less"
    periphrastic = not comparative and bool(degree) and than is not None and than.lower_ == "than"
    if than is None or than.lower_ != ("than" if comparative or periphrastic else "as"):
        return
    head = tok.head if tok.dep_ in ("acomp", "advmod", "amod", "attr") else tok
    denied = _negated(tok) or _negated(head)
    if periphrastic:
        low = lexicon.comparative_form(low) or lexicon.regular_comparative(low)
        denied = denied != (degree == "less")
    elif not comparative:
        low = lexicon.comparative_form(low) if denied and _child(tok, "advmod") is not None else ""
        if not low:
            return
    subj = _child(head, "nsubj", "nsubjpass")
    conv = lexicon.converses(low) or lexicon.comparative_opposites(low)
    for key, rev, c in _canonical(low, conv, "cmp") or [(f"cmp:{low}", False, "")]:
        _add(out, key, subj, _child(than, "pobj"), rev != denied, low, tok, c if not denied else "")


def converse_texts(claim: str) -> list[tuple[str, Relation]]:
    """``claim`` reworded by each converse of its relations that name a converse word: the two
    sides exchanged and the word replaced ("A is deeper than B" -> "B is shallower than A", "A
    is the mother of B" -> "B is the child of A")."""
    out = []
    for rel in relations(claim):
        (s1, e1), (s2, e2), (s3, e3) = rel.spans
        if not rel.converse or not (e1 <= s3 <= e3 <= s2):
            continue
        a, b = claim[s1:e1], claim[s2:e2]
        text = claim[:s1] + b + claim[e1:s3] + rel.converse + claim[e3:s2] + a + claim[e2:]
        out.append((text, rel))
    return out


def same_noun(a: str, b: str) -> bool:
    """Two noun keys name one thing when the words of one are among the other's ("fa cup" /
    "1992–93 fa cup")."""
    x, y = set(a.split()), set(b.split())
    return x <= y or y <= x


def _holds(t: Relation, key: str, first: str, second: str) -> bool:
    return t.key == key and same_noun(t.first, first) and same_noun(t.second, second)


def order_agrees(claim: str, reference: str) -> bool:
    """``reference`` holds a relation of ``claim`` the claim's way round."""
    theirs = relations(reference)
    return any(_holds(t, m.key, m.first, m.second) for m in relations(claim) for t in theirs)


def comparison_agrees(claim: str, reference: str) -> bool:
    """``reference`` holds a comparison of ``claim`` ("cmp:" relations, denials read into their
    order) the claim's way round: "A is less deep than B" / "A is not as deep as B"."""
    theirs = [t for t in relations(reference) if t.key.startswith("cmp:")]
    return any(_holds(t, m.key, m.first, m.second) for m in relations(claim) for t in theirs)


def told_conversely(claim: str, reference: str) -> bool:
    """``reference`` holds a relation of ``claim`` the claim's way round but written from its
    other side: a converse word with the two sides exchanged ("A lies after B" / "B lies before
    A", "A is north of B" / "B is south of A"), or a denied comparison against the affirmed one
    the other way round ("A is no deeper than B" / "B is deeper than A")."""
    theirs = relations(reference)
    mine = relations(claim)
    return any(_holds(t, m.key, m.first, m.second) and t.reversed != m.reversed for m in mine for t in theirs)


def order_conflict(claim: str, reference: str) -> tuple[Relation, Relation] | None:
    """The first relation of ``claim`` that ``reference`` holds between the same two nouns the
    other way round, and the reference's relation; None when none does, or when the reference
    also holds it the claim's way. A noun is the same when the words of one key are among the
    other's (``same_noun``)."""
    mine, theirs = relations(claim), relations(reference)
    for m in mine:
        same = [t for t in theirs if _holds(t, m.key, m.first, m.second)]
        other = [t for t in theirs if _holds(t, m.key, m.second, m.first)]
        if other and not same:
            return m, other[0]
    return None
