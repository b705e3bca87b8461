"""Clause split, adverbial clauses: a temporal clause ("when she won the prize") or a participle
("founded in 1901, the firm ...") becomes a piece of its own, its subject carried from the
main clause, and the main clause keeps a short anchor of it."""

from __future__ import annotations

from typing import Any

from claims.decompose.inflect import past_tense
from claims.decompose.modifiers import detach_modifiers
from claims.decompose.tree import (
    CLAUSE_END,
    Piece,
    clause_tokens,
    is_proper,
    np_text,
    render,
    subject_of,
    subtree_ids,
    trimmable,
)

#: subordinators of a temporal clause that holds a fact of its own ("when she was 17");
#: conditional and causal clauses ("if", "because") stay with their main clause, whose
#: truth depends on them
TEMPORAL_MARKS = frozenset({"when", "while", "after", "before", "as", "since", "until", "once", "whenever"})


def _set_off(tok: Any, doc: Any) -> bool:
    """The clause of ``tok`` stands between commas (or the sentence edges)."""
    left, right = tok.left_edge.i - 1, tok.right_edge.i + 1
    left_ok = left < 0 or doc[left].text in {",", "-", "\u2013", "\u2014", "("}
    right_ok = right >= len(doc) or doc[right].text in CLAUSE_END
    return left_ok and right_ok


def _is_past(verb: Any) -> bool:
    return bool(
        verb.tag_ == "VBD" or any(c.dep_ in {"aux", "auxpass"} and c.tag_ == "VBD" for c in verb.children)
    )


def _participle_piece(part: Any, toks: set[int], subj: Any, past: bool) -> Piece:
    """A participial clause as a claim about the main clause's subject: "marking her debut"
    -> "<subject> marked her debut"; "built in 1990" -> "<subject> was built in 1990"; a
    perfect participle in the past perfect: "having founded the club" -> "<subject> had founded
    the club", "having been elected" -> "<subject> had been elected"."""
    plural = subj.tag_ in {"NNS", "NNPS"} or subj.lower_ in {"they", "we"}
    having = next((k for k in part.children if k.lower_ == "having" and k.dep_ == "aux"), None)
    if part.tag_ == "VBN" and having is not None:
        neg = next((k for k in part.children if k.dep_ == "neg" and k.i == having.i - 1), None)
        if neg is not None:  # "not having seen the film" -> "<subject> had not seen the film"
            return _subject_piece(part, toks, subj, ((neg.i, "had"), (having.i, neg.lower_)))
        return _subject_piece(part, toks, subj, ((having.i, "had"),))
    if part.tag_ == "VBN":
        word = f"{'were' if plural else 'was'} {part.text.lower()}"
    elif past:
        word = past_tense(part.text)
    else:
        word = f"{'are' if plural else 'is'} {part.text.lower()}"
    return _subject_piece(part, toks, subj, ((part.i, word),))


def _subject_piece(part: Any, toks: set[int], subj: Any, words: tuple[tuple[int, str], ...]) -> Piece:
    """The clause ``toks`` of ``part`` with ``subj`` before it and ``words`` (token index, its
    new word) in place of those tokens."""
    doc = part.doc
    subject = subj.text if subj.pos_ == "PRON" else np_text(subj)
    toks = {i for i in toks if not (trimmable(doc[i]) and (i == min(toks) or i == max(toks)))}
    return Piece(frozenset(toks), prefix=subject, replace=words)


def _temporal_pieces(verb: Any, clause: Any, mark: Any, sub: set[int], root_subj: Any | None) -> list[Piece]:
    """The claims of a past temporal clause (``sub``: its tokens; ``mark``: "when", ...)."""
    doc = verb.doc
    # the words before the subordinator measure the interval ("two years after", "shortly
    # before"): they go with it, and the clause's own event is what follows it
    inner = {i for i in sub if i > mark.i}
    inner, nested = detach_adverbials(clause, inner, doc, root_subj)
    inner = {i for i in inner if not (trimmable(doc[i]) and (i == min(inner) or i == max(inner)))}
    if _is_state(clause):
        # a state holds at the time of the main event: "she was 17" -> "<she> was 17 when
        # <X's first role came>"; the main clause stands without it
        return [Piece(frozenset(inner), suffix=f"{mark.lower_} {_core(verb, doc, root_subj)}"), *nested]
    # an event in a temporal clause is a fact of its own ("when she won the Varga Prize" ->
    # "<she> won the Varga Prize"); the main clause keeps it, whole, as its anchor ("X was
    # 21 when she won the Varga Prize")
    return [Piece(frozenset(inner)), *nested]


def _participle_pieces(verb: Any, part: Any, sub: set[int], root_subj: Any, past: bool) -> list[Piece]:
    """The claims of a set-off participial clause ``part`` (``sub``: its tokens)."""
    doc = verb.doc
    finite_conj = _finite_conj(part)
    if not (part.tag_ == "VBN" and finite_conj and part.i > verb.i):
        return [_participle_piece(part, sub, root_subj, past)]
    # "closed in 1968, reopened in 1994 and now serves ...": a misparsed coordination of
    # finite verbs, one claim per verb with the subject
    subject = np_text(root_subj) if root_subj.pos_ != "PRON" else root_subj.text
    out = []
    for head in [part, *finite_conj]:
        own = (clause_tokens(head) if head is part else subtree_ids(head)) & sub
        own -= {i for i in own if trimmable(doc[i]) and (i == min(own) or i == max(own))}
        out.append(Piece(frozenset(own), prefix=subject))
    return out


def _finite_conj(verb: Any) -> list[Any]:
    return [k for k in verb.children if k.dep_ == "conj" and k.tag_ in {"VBD", "VBZ", "VBP"}]


def _marks(clause: Any) -> list[Any]:
    """The subordinators and fronted adverbs of ``clause``; an adverb before a subordinator
    measures its interval ("shortly after", "long before") and is none."""
    marks = [c for c in clause.children if c.dep_ in {"mark", "advmod"} and c.i < clause.i]
    return [
        c for c in marks if not (c.dep_ == "advmod" and any(m.dep_ == "mark" and m.i > c.i for m in marks))
    ]


def detach_adverbials(
    verb: Any, toks: set[int], doc: Any, root_subj: Any | None
) -> tuple[set[int], list[Piece]]:
    """Take temporal clauses with their own subject and comma-set participial clauses out of
    ``verb``'s clause (``toks``); return the rest and one piece per clause taken.

    FActScore (Min et al. 2023) splits "X came in 2006 when she was 17, marking her debut"
    into "X came in 2006", "She was 17", "X marked her debut"; conditional and causal
    clauses stay (the main clause is not a fact without them).
    """
    pieces: list[Piece] = []
    past = _is_past(verb)
    for a in verb.children:
        if a.dep_ != "advcl" or a.i not in toks:
            continue
        sub = subtree_ids(a) & toks
        marks = _marks(a)
        # only a past clause is one event ("when he won the 1932 Grand Prix"); a present one
        # states a rule or a condition ("when it is disturbed", "once an animal is slaughtered")
        temporal = (
            len(marks) == 1
            and marks[0].lower_ in TEMPORAL_MARKS
            and subject_of(a) is not None
            and _is_past(a)
            and past
        )
        if temporal and a.pos_ in {"VERB", "AUX"}:
            if _is_state(a):
                toks = toks - sub
            pieces.extend(_temporal_pieces(verb, a, marks[0], sub, root_subj))
        elif (
            not marks
            and a.tag_ in {"VBG", "VBN"}
            and subject_of(a) is None
            and root_subj is not None
            and _set_off(a, doc)
            # "Using X, developers ...": a means; "appeared in a film about X, titled Y": a
            # trailing past participle describes the noun before it, not the subject
            and ((a.i < verb.i) == (a.tag_ == "VBN") or _finite_conj(a))
            # an -ing clause after a present verb has no simple form we can build ("Linux is
            # supported ..., making it ..."): it stays with its clause
            and (a.tag_ == "VBN" or past)
        ):
            toks = toks - sub
            pieces.extend(_participle_pieces(verb, a, sub, root_subj, past))
    edge = {i for i in toks if doc[i].text == "," and (i + 1 not in toks or i - 1 not in toks)}
    return toks - edge, pieces


_COPULA = frozenset({"be", "is", "was", "were", "are", "am", "been", "being", "'s", "'re"})
_CORE_DEPS = frozenset(
    {"nsubj", "nsubjpass", "aux", "auxpass", "neg", "dobj", "attr", "acomp", "prt", "dative"}
)


def _is_state(verb: Any) -> bool:
    """A copular clause with a complement ("she was 17", "he was mayor")."""
    return bool(
        verb.lower_ in _COPULA and any(c.dep_ in {"attr", "acomp", "npadvmod"} for c in verb.children)
    )


def _core(verb: Any, doc: Any, shared_subj: Any | None = None) -> str:
    """The verb with its subject, auxiliaries and objects, without adjuncts: the event a
    temporal clause is anchored to ("Nadia Kors's first major stage role came"). A coordinated
    verb without a subject of its own takes ``shared_subj`` ("He moved to Paris and opened a
    bakery when he was 20": "he opened a bakery", not "opened a bakery")."""
    keep = {verb.i}
    if verb.dep_ == "conj" and shared_subj is not None and subject_of(verb) is None:
        keep |= detach_modifiers(subtree_ids(shared_subj), doc)[0]
    for c in verb.children:
        if c.dep_ in _CORE_DEPS:
            sub = subtree_ids(c)
            if c.dep_ in {"nsubj", "nsubjpass"}:
                sub, _ = detach_modifiers(sub, doc)
            keep |= sub
    out = render(doc, Piece(frozenset(keep)))
    first = doc[min(keep)]
    return out if is_proper(doc, first.i) else out[:1].lower() + out[1:]
