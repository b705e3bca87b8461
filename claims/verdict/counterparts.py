"""Check: opposites, negation, roles and order against the lexicon (``claims.lexicon``) and the
parse. Decides before the other verdict steps of ``decide.judge_one``; what it finds stands
(the learned decision keeps a rule ``contradicted``: ``claims.decision``).

Two findings:

* **counterpart stated** (``counterpart``): the claim with one word replaced by its opposite
  (``claims.lexicon.opposites``: "slowly" -> "rapidly"), or with its negation removed ("did not
  serve" -> "did serve"), is ``supported`` by a reference claim that does not state the claim's
  own word (nor holds a negation, for the negation): the reference says the opposite of the same
  predicate of the same subject -> ``contradicted``, the reason naming the two words. A negated
  claim whose opposite is stated agrees when the pair is complementary ("is not closed" / "is
  open" -> ``supported``) and stays unsupported when it is gradable ("is not hot" / "is cold");
  "not X" and a negative-prefix "un-X" agree ("is not able" / "is unable").
* **order** (``order_conflict``): a relation between two nouns read from the parse (the two
  parties of a verb with a converse, "A bought X from B" / "B sold X to A"; subject and object
  of a verb between two names; "from A to B"; the operands of "A divided by B", "the ratio of A
  to B", "subtract A from B"; the two sides of a "than" comparison; "A is the parent of B"; "A
  is above B") whose reference holds the same relation with the two nouns the other way round
  -> ``contradicted``. Converse words are one relation read from its two sides ("A is larger
  than B" = "B is smaller than A"), so a converse rewording agrees. Symmetric verbs
  (``claims/data/symmetric_relations.tsv``) have no order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from claims import lexicon
from claims.facets.vocabulary import _data_rows, _stem
from claims.parses import parse
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from claims.verdict.reasons import _evidence

__all__ = [
    "Relation",
    "relations",
    "order_conflict",
    "order_agrees",
    "counterpart_texts",
    "decide_counterparts",
]

#: verbs whose two sides can trade places (``claims/data/symmetric_relations.tsv``), as stems
_SYMMETRIC = frozenset(
    _stem(w)
    for kind, words in _data_rows("symmetric_relations.tsv", 2)
    if kind == "verb"
    for w in words.split()
)
#: bounds and degrees: the quantity and degree checks read them ("at least 18" / "at most 18")
_DEGREE_WORDS = frozenset(["most", "least", "more", "less", "fewer", "greater"])
_NEG = re.compile(r"\b(?:(?<=\w)n't|not)\b\s*", re.IGNORECASE)
_NEG_CONTRACTED = re.compile(r"\b(\w+)n't\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Relation:
    """One ordered relation of a text: ``key`` (what relates: "v:buy|sell", "dir:fly",
    "op:divide", "cmp:larger|smaller", "rel:child|parent", "pos:above|below"), ``first`` and
    ``second`` (the noun keys of its two sides, in the relation's canonical order), and the words
    that name it (``word``)."""

    key: str
    first: str
    second: str
    word: str
    #: the character spans in the text of the side written first, the side written second and
    #: the relation word, and the converse word ("" when none): what ``converse_text`` rewrites
    spans: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0), (0, 0))
    converse: str = ""


def _noun_key(tok: Any) -> str:
    """A noun's key: its stem with the stems of its compound modifiers ("stock market")."""
    parts = [c for c in tok.children if c.dep_ == "compound"] + [tok]
    return " ".join(_stem(p.text) for p in sorted(parts, key=lambda t: t.i))


def _child(tok: Any, *deps: str) -> Any | None:
    return next((c for c in tok.children if c.dep_ in deps), None) if tok is not None else None


def _named(tok: Any | None) -> bool:
    return tok is not None and tok.pos_ == "PROPN"


def _nominal(tok: Any | None) -> bool:
    return tok is not None and tok.pos_ in ("NOUN", "PROPN") and not tok.like_num


def _canonical(word: str, converses: tuple[str, ...], prefix: str) -> list[tuple[str, bool, str]]:
    """(key, reversed) for ``word`` and each converse: the key names the pair in sorted order; a
    word that is not the first of its pair reads its sides reversed."""
    return [(f"{prefix}:{min(word, c)}|{max(word, c)}", word > c, c) for c in converses]


def _span(tok: Any) -> tuple[int, int]:
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
    if _nominal(a) and _nominal(b):
        x, y = _noun_key(a), _noun_key(b)
        if x != y:
            word_span = (tok.idx, tok.idx + len(tok.text)) if tok is not None else (0, 0)
            spans = (_span(a), _span(b), word_span)
            out.append(Relation(key, *((y, x) if reverse else (x, y)), word, spans, converse))


def _agent_patient(verb: Any) -> tuple[Any | None, Any | None]:
    """The agent and patient of a verb: subject and object, or in the passive the "by" phrase
    and the subject."""
    agent = _child(verb, "agent")
    if agent is not None:
        return _child(agent, "pobj"), _child(verb, "nsubjpass")
    return _child(verb, "nsubj"), _child(verb, "dobj")


def _verb_relations(tok: Any, out: list[Relation]) -> None:
    word = tok.lower_
    agent, patient = _agent_patient(tok)
    party_prep = next(
        (c for c in tok.children if c.dep_ in ("prep", "dative") and c.lower_ in ("from", "to", "against")),
        None,
    )
    party = _child(party_prep, "pobj")
    conv = lexicon.converses(word)
    if conv:
        other = (
            party
            if party is not None and word not in ("beat", "defeated", "preceded", "followed")
            else patient
        )
        if other is None:
            other = party
        for key, rev, _ in _canonical(word, conv, "v"):
            _add(out, key, agent, other, rev, word)
    elif _stem(word) not in _SYMMETRIC and _named(agent) and _named(patient):
        _add(out, f"v:{_stem(word)}", agent, patient, False, word)


def relations(text: str) -> list[Relation]:
    """The ordered relations of ``text``'s parse (module docstring); [] when it has none."""
    doc = parse(text)
    out: list[Relation] = []
    for tok in doc or ():
        low = tok.lower_
        if tok.pos_ in ("VERB", "AUX") and low not in ("divided", "subtracted"):
            _verb_relations(tok, out)
        if low == "from" and (a := _child(tok, "pobj")) is not None:
            to = next((c for c in tok.head.children if c.lower_ in ("to", "into") and c.i > tok.i), None)
            if (
                to is None
                and tok.right_edge.i + 1 < len(doc)
                and doc[tok.right_edge.i + 1].lower_ in ("to", "into")
            ):
                to = doc[tok.right_edge.i + 1]
            if to is not None and tok.head.lower_ not in ("subtract", "subtracted"):
                _add(out, f"dir:{_stem(tok.head.text)}", a, _child(to, "pobj"), False, "from … to")
        if low == "divided" and (by := _child(tok, "agent", "prep")) is not None:
            a = tok.head if tok.dep_ in ("acl", "amod") else _child(tok, "nsubjpass", "nsubj")
            _add(out, "op:divide", a, _child(by, "pobj"), False, "divided by")
        if low == "ratio":
            of = next((c for c in tok.children if c.lower_ == "of"), None)
            a = _child(of, "pobj")
            to = next((c for c in tok.children if c.lower_ == "to"), None) or _child(a, "prep")
            _add(out, "op:ratio", a, _child(to, "pobj"), False, "ratio of … to")
        if low in ("subtract", "subtracted"):
            frm = next((c for c in tok.children if c.lower_ == "from"), None)
            _add(
                out,
                "op:subtract",
                _child(tok, "dobj", "nsubjpass"),
                _child(frm, "pobj"),
                False,
                "subtract … from",
            )
        if tok.tag_ in ("JJR", "RBR") and (than := _child(tok, "prep")) is not None and than.lower_ == "than":
            head = tok.head if tok.dep_ in ("acomp", "advmod", "amod", "attr") else tok
            subj = _child(head, "nsubj", "nsubjpass")
            conv = lexicon.converses(low) or tuple(
                o.word for o in lexicon.opposites(low) if o.kind == "comparative"
            )
            for key, rev, c in _canonical(low, conv, "cmp") or [(f"cmp:{low}", False, "")]:
                _add(out, key, subj, _child(than, "pobj"), rev, low, tok, c)
        if tok.pos_ in ("NOUN", "ADP") and (conv := lexicon.converses(low)):
            of = next((c for c in tok.children if c.lower_ == "of"), None) if tok.pos_ == "NOUN" else tok
            head = tok.head if tok.dep_ in ("attr", "prep", "acomp") else None
            subj = _child(head, "nsubj") if head is not None else None
            prefix = "rel" if tok.pos_ == "NOUN" else "pos"
            for key, rev, c in _canonical(low, conv, prefix):
                _add(out, key, subj, _child(of, "pobj"), rev, low, tok, c)
    return out


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


def order_agrees(claim: str, reference: str) -> bool:
    """``reference`` holds a relation of ``claim`` the claim's way round."""
    theirs = {(t.key, t.first, t.second) for t in relations(reference)}
    return any((m.key, m.first, m.second) in theirs for m in relations(claim))


def order_conflict(claim: str, reference: str) -> tuple[Relation, Relation] | None:
    """The first relation of ``claim`` that ``reference`` holds between the same two nouns the
    other way round, and the reference's relation; None when none does, or when the reference
    also holds it the claim's way."""
    mine, theirs = relations(claim), relations(reference)
    for m in mine:
        same = [t for t in theirs if t.key == m.key and (t.first, t.second) == (m.first, m.second)]
        other = [t for t in theirs if t.key == m.key and (t.first, t.second) == (m.second, m.first)]
        if other and not same:
            return m, other[0]
    return None


# ---------------------------------------------------------------- counterparts


@dataclass(frozen=True, slots=True)
class Counterpart:
    """A text that states what ``claim`` denies or the opposite of it: ``text``, the kind
    ("opposite", "negation", "negated opposite", "negative prefix"), the claim's word
    (``word``) and the word put in its place (``other``); ``agrees``: when the reference
    states ``text``, it states the claim (a complementary opposite under negation, "not X" /
    "un-X") rather than contradicting it."""

    text: str
    kind: str
    word: str
    other: str
    agrees: bool


_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def _prefixed_forms(word: str) -> list[str]:
    from claims.verdict.lexical import _unprefixed

    forms = [p + word for p in ("un", "in", "im", "il", "ir", "non", "non-", "dis")]
    return [f for f in forms if _unprefixed(f) == word]


def _opposites(word: str) -> list[lexicon.Opposite]:
    """The lexicon's opposites of ``word`` and its negative-prefix forms ("able" / "unable",
    ``claims/data/negative_prefixes.tsv``: complementary)."""
    from claims.verdict.lexical import _unprefixed

    found = list(lexicon.opposites(word))
    bare = _unprefixed(word)
    forms = [bare] if bare else _prefixed_forms(word)
    return found + [lexicon.Opposite(f, "adj", "complementary", "prefix") for f in forms]


def counterpart_texts(claim: str) -> list[Counterpart]:
    """The counterparts of ``claim`` (module docstring), at most one for each word."""
    out: list[Counterpart] = []
    neg = _NEG.search(claim)
    negated = neg is not None and not _NEG_CONTRACTED.search(claim)
    words = list(_WORD.finditer(claim))
    comparison = " than " in claim
    attributive = {t.idx for t in parse(claim) or () if t.dep_ == "amod"}
    for m in words:
        w = m.group(0).lower()
        if w in ("not", "no") or w in _DEGREE_WORDS or comparison or m.start() in attributive:
            continue  # degrees, comparisons and attributive adjectives are other checks'

        for o in _opposites(w):
            text = claim[: m.start()] + o.word + claim[m.end() :]
            if not negated:
                out.append(Counterpart(text, "opposite", m.group(0), o.word, False))
            else:
                assert neg is not None
                plain = _remove(text, neg)
                agrees = o.kind == "complementary"
                out.append(Counterpart(plain, "negated opposite", f"not {m.group(0)}", o.word, agrees))
        if negated and neg is not None:
            for form in _prefixed_forms(w):
                text = _remove(claim[: m.start()] + form + claim[m.end() :], neg)
                out.append(Counterpart(text, "negative prefix", f"not {m.group(0)}", form, True))
    if negated and neg is not None:
        out.append(Counterpart(_remove(claim, neg), "negation", neg.group(0).strip(), "affirmed", False))
    return out


_AUXILIARY = frozenset(
    ["be", "been", "being", "have", "has", "had", "do", "does", "did", "ever", "yet", "always"]
)


def _denied_word(claim: str) -> str:
    """The first word after the claim's negation that is no auxiliary ("did not serve" ->
    "serve"); "" when none."""
    neg = _NEG.search(claim)
    words = _WORD.findall(claim[neg.end() :]) if neg else []
    return next((w for w in words if w.lower() not in _AUXILIARY), "")


def _remove(text: str, neg: re.Match[str]) -> str:
    """``text`` without the negation ``neg`` found in the unedited claim (offsets before any edit
    that lies after it hold; an edit before it shifted it: searched again)."""
    again = _NEG.search(text)
    return text[: again.start()] + text[again.end() :] if again else text


_NEGATION_WORDS = re.compile(r"\b(?:not|never|no|none|neither|nor)\b|n't\b", re.IGNORECASE)


#: words that say nothing of the occasion: articles and auxiliaries
_FUNCTION = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
    ]
)


def _words(text: str) -> set[str]:
    """The stems of ``text``'s words, articles and auxiliaries apart (prepositions kept: "in the
    final" and "until the final" differ)."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _FUNCTION}


def _same_words(text: str, ref: str) -> bool:
    """``text`` and ``ref`` have the same words (``_words``): the reference states the
    counterpart and nothing besides that could make it another occasion ("rose in early
    trading" / "fell in late trading", "failed in the final" / "succeeded in reaching the
    final")."""
    return _words(text) == _words(ref)


def _states_word(text: str, word: str) -> bool:
    """``text`` holds ``word`` in some form (its stem among the stems of its words)."""
    stem = _stem(word)
    return any(_stem(w) == stem for w in _WORD.findall(text))


def _agreeing(
    index: int,
    text: str,
    current: Judgement,
    judge_text: Callable[[str], Judgement],
    where: Callable[[int], str],
) -> Judgement | None:
    """A support by a counterpart that says the same ("not able" / "unable", "not closed" /
    "open") over a contradiction the other checks read from those very words."""
    for cp in counterpart_texts(text):
        if cp.agrees and cp.other in (current.change or "") + current.reason:
            got = judge_text(cp.text)
            if got.verdict is Verdict.SUPPORTED and got.evidence:
                j = got.evidence[0].claim_index
                reason = f"stated by {where(j)} as '{cp.other}' ('{cp.word}' says the same)"
                return Judgement(index, Verdict.SUPPORTED, got.evidence, reason, finding="counterpart")
    return None


def decide_counterparts(
    index: int,
    claim: Claim,
    current: Judgement,
    top: list[int],
    reference_claims: Sequence[ReferenceClaim],
    judge_text: Callable[[str], Judgement],
    where: Callable[[int], str],
) -> Judgement | None:
    """The verdict the two findings of the module docstring give ``claim`` (already judged
    ``current``), or None when neither applies. ``top``: the candidate reference claims;
    ``judge_text``: judges a text against the same references with the same cosines; ``where``:
    a reference claim's locator text."""
    text = claim.text
    if current.verdict is Verdict.CONTRADICTED:
        # the other checks' finding stands, unless it reads "not X" against "un-X" as a flip
        return _agreeing(index, text, current, judge_text, where)
    agree = [j for j in top if order_agrees(text, reference_claims[j].claim.text)]
    for j in top:
        found = order_conflict(text, reference_claims[j].claim.text) if not agree else None
        if found is not None:
            mine, theirs = found
            reason = (
                f"roles swapped: '{mine.first}' and '{mine.second}' ('{mine.word}') stand the other "
                f"way round in {where(j)} ('{theirs.word}')"
            )
            return Judgement(index, Verdict.CONTRADICTED, (_evidence(reference_claims, j, 0.0),), reason)
    candidates = " ".join(reference_claims[j].claim.text for j in top)
    if current.verdict is not Verdict.SUPPORTED:
        for other, rel in converse_texts(text):
            if not _states_word(candidates, rel.converse):
                continue
            got = judge_text(other)
            if got.verdict is Verdict.SUPPORTED and got.evidence:
                j = got.evidence[0].claim_index
                reason = f"stated by {where(j)} from the other side ('{rel.converse}' for '{rel.word}')"
                return Judgement(index, Verdict.SUPPORTED, got.evidence, reason, finding="counterpart")
    conversed = {
        r.word
        for r in relations(text)
        if any(r.key == t.key for j in top for t in relations(reference_claims[j].claim.text))
    }
    for cp in counterpart_texts(text):
        if cp.word.lower() in conversed:
            continue  # one relation read from its two sides: the order check's
        if cp.kind == "negation":
            if all(_NEGATION_WORDS.search(reference_claims[j].claim.text) for j in top):
                continue
        elif not _states_word(candidates, cp.other):
            continue
        got = judge_text(cp.text)
        if got.verdict is not Verdict.SUPPORTED or not got.evidence:
            continue
        j = got.evidence[0].claim_index
        ref = reference_claims[j].claim.text
        if cp.agrees:
            if current.verdict is Verdict.SUPPORTED:
                return None
            reason = f"stated by {where(j)} as '{cp.other}' ('{cp.word}' says the same)"
            return Judgement(index, Verdict.SUPPORTED, got.evidence, reason, finding="counterpart")
        if cp.kind == "negation" and (_NEGATION_WORDS.search(ref) or not _words(cp.text) <= _words(ref)):
            continue
        if cp.kind == "negated opposite":
            # gradable opposites under negation: "not hot" neither states nor denies "cold"
            if current.verdict is not Verdict.SUPPORTED:
                continue
            reason = f"'{cp.word}' does not state '{cp.other}' ({where(j)}): both may be false"
            return Judgement(index, Verdict.UNSUPPORTED, (), reason, finding="gradable")
        if cp.kind != "negation" and (_states_word(ref, cp.word) or not _same_words(cp.text, ref)):
            continue
        if cp.kind == "negation":
            reason = f"'{cp.word}' denies what {where(j)} affirms"
        else:
            reason = f"'{cp.word}' where {where(j)} states its opposite '{cp.other}'"
        return Judgement(index, Verdict.CONTRADICTED, got.evidence, reason, f"{cp.word} → {cp.other}")
    return None
