"""Clause split, the step's entry point ``split_sentence``: a parsed sentence into pieces, one
per coordinated verb phrase with the shared subject, auxiliaries, hedges and complements
carried over, plus the pieces of ``claims.decompose.coordination`` and
``claims.decompose.modifiers``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from claims.decompose.adverbials import TEMPORAL_MARKS, detach_adverbials
from claims.decompose.coordination import coordinated_pieces, respective_pieces
from claims.decompose.mentions import first_word
from claims.decompose.modifiers import detach_modifiers, modifier_pieces
from claims.decompose.tree import (
    Piece,
    after_nor,
    clause_heads,
    clause_tokens,
    is_proper,
    is_verb_conj,
    render,
    subject_of,
    subtree_ids,
)
from claims.decompose.words import word_list


def _shared_complements(v: Any) -> set[int]:
    """Tokens a bare passive participle shares with the participles coordinated after it: "The
    film was written and directed by Greta Gerwig" -> "The film was written by Greta Gerwig"
    (not "The film was written."), "Chen was born and raised in New York" -> "... born in New
    York". Only in a passive: an active verb may be intransitive ("He sang and played the
    guitar" is no "sang the guitar")."""
    if (
        not _passive(v)
        or _complements(v)
        or any(k.dep_ == "cc" and k.lower_ in ("but", "yet") for k in v.children)
    ):
        return set()
    c = next((k for k in v.children if is_verb_conj(k)), None)
    while c is not None and not _complements(c):
        c = next((k for k in c.children if is_verb_conj(k)), None)
    if c is None or any(
        k.dep_ in _OWN_CLAUSE_DEPS or (k.i < c.i and k.dep_ not in ("cc", "punct")) for k in c.children
    ):
        # "Jobs was ousted, but he returned in 1997", "was stolen and later recovered by police"
        return set()
    # only an agent and a place or time are shared: "arrested and charged with fraud" is no
    # "arrested with fraud", "captured and burned to the ground" no "captured to the ground"
    shared = [
        k for k in _complements(c) if k.dep_ == "agent" or (k.dep_ == "prep" and k.lower_ in _SHARED_PREPS)
    ]
    return {i for k in shared for i in subtree_ids(k)}


#: prepositions whose phrase a bare passive participle shares with the next ("born and raised in")
_SHARED_PREPS = frozenset({"in", "at", "on", "during"})


def _complements(v: Any) -> list[Any]:
    """The dependents after ``v`` other than conjuncts and punctuation."""
    return [k for k in v.children if k.i > v.i and k.dep_ not in ("cc", "conj", "punct")]


def _passive(v: Any) -> bool:
    """``v`` is a passive participle: it has a passive auxiliary, or is coordinated with one."""
    while True:
        if any(k.dep_ == "auxpass" for k in v.children):
            return True
        if v.dep_ != "conj" or v.tag_ not in ("VBN", "VBD"):
            return False
        v = v.head


def _shared_auxiliaries(v: Any) -> str:
    """The auxiliaries a coordinated verb shares with the verb before it, for a participle or
    bare verb without auxiliaries or subject of its own: "It was shown in May and given a
    release in June" -> "was", "will be closed in May and reopened in June" -> "will be",
    "will close and reopen" -> "will", "has won two titles and reached the final" -> "has".
    spaCy tags a regular "-ed" conjunct as past tense whichever it is: after a passive alone it
    shares nothing ("He was born in 1950 and died in 2010"), after a modal it shares the modal
    and a passive "be", after an active perfect the perfect; after "has been" nothing ("has been
    sued and lost in court" is active, "has been adopted and used on labels" passive). A
    negation is not shared ("was not shown and given a release" is ambiguous)."""
    if v.tag_ not in ("VBN", "VB", "VBD") or any(k.dep_ in _OWN_CLAUSE_DEPS for k in v.children):
        return ""
    head = v.head
    while head.dep_ == "conj" and not any(k.dep_ in ("aux", "auxpass") for k in head.children):
        head = head.head
    auxes = [k for k in head.children if k.dep_ in ("aux", "auxpass") and k.i < head.i]
    modal = [k for k in auxes if k.tag_ == "MD"]
    perfect = [k for k in auxes if k.lower_ in ("has", "have", "had")]
    passive = any(k.dep_ == "auxpass" for k in auxes)
    if v.tag_ == "VB":
        auxes = modal
    elif v.tag_ == "VBD" and modal:
        auxes = [k for k in auxes if k in modal or k.lower_ == "be"]
    elif v.tag_ == "VBD":
        # after "has been ..." a past form may be active ("has been sued and lost in court") or
        # passive ("has been adopted and used on labels"): nothing is shared
        auxes = [] if passive else perfect
    elif not passive and not perfect:
        return ""
    elif perfect and passive and not any(k.dep_ == "agent" for k in v.children):
        return ""  # "has been sued by Apple and lost in court": no agent, maybe active
    return " ".join(k.text for k in auxes)


#: adverbs between the subject and the first verb that qualify every verb of the subject
#: ("The suspect allegedly stole a car and fled" -> "The suspect allegedly fled")
_SHARED_HEDGES = word_list("shared_hedges")


def _shared_lead(root: Any, subj: Any, v: Any, *, sources_only: bool = False) -> tuple[str, str]:
    """What the root's coordinated verb ``v`` shares besides the subject: the lead-in set off
    before the subject ("According to Reuters,", "Unless treated,", "Until 2015,"), and hedging
    adverbs between the subject and the root ("allegedly"). A temporal clause ("When she was
    17,") is a claim of its own (``detach_adverbials``), not a lead-in; so is a lead-in without
    its comma. A time or place lead-in stays with the first verb when ``v`` sets its own ("In
    2010, Smith joined Google and later founded a startup in 2015"). ``sources_only``: only an
    "According to ..." lead-in (for a clause with a subject of its own)."""
    doc = root.doc
    own_setting = _own_setting(v)
    lead = [
        k
        for k in root.children
        if k.i < subj.left_edge.i
        and k.dep_ in ("prep", "advcl", "advmod", "npadvmod")
        and doc[k.right_edge.i + 1].text == ","
        and not any(m.dep_ in ("mark", "advmod") and m.lower_ in TEMPORAL_MARKS for m in k.children)
        and not (own_setting and k.dep_ != "advcl" and k.lower_ != "according")
        and (k.lower_ == "according" or not sources_only)
    ]
    text = " ".join(f"{doc[k.left_edge.i : k.right_edge.i + 1].text}," for k in lead)
    hedges = [
        k
        for k in root.children
        if k.dep_ == "advmod" and subj.i < k.i < root.i and k.lower_ in _SHARED_HEDGES
    ]
    return text, " ".join(k.text for k in hedges)


#: adverbs that give a coordinated verb a time of its own ("and later founded a startup")
_OWN_TIME = word_list("own_time")


def _own_setting(v: Any) -> bool:
    """``v`` has a time or place of its own: such an adverb, or a prepositional phrase of time or
    place or with a number (not a number in its object: "and had 300 employees")."""
    return any(
        (k.dep_ == "advmod" and k.lower_ in _OWN_TIME)
        or k.dep_ == "npadvmod"
        or (
            k.dep_ == "prep"
            and (k.lower_ in ("in", "on", "at", "during", "by") or any(t.like_num for t in k.subtree))
        )
        for k in v.children
        if k.dep_ not in ("nsubj", "nsubjpass")
    )


#: a verb with one of these children has its own clause: it shares no auxiliary
_OWN_CLAUSE_DEPS = frozenset({"aux", "auxpass", "nsubj", "nsubjpass", "expl"})


def _clause_pieces(doc: Any, v: Any, root: Any) -> list[Piece]:
    """The claims of one clause head ``v``: the clause itself (split per coordinated object),
    then its adverbial clauses, then its nouns' appositions and relative clauses."""
    root_subj = subject_of(root)
    toks = clause_tokens(v) | _shared_complements(v)
    own_subj = subject_of(v)
    prefix = ""
    if own_subj is None and v is not root and root_subj is not None:
        # carry the shared subject ("It was completed ... and [it] is 520 metres long")
        prefix_toks, _ = detach_modifiers(subtree_ids(root_subj), doc)
        subject = render(doc, Piece(frozenset(prefix_toks)))
        lead, hedges = _shared_lead(root, root_subj, v)
        if lead and not is_proper(doc, min(prefix_toks)):
            subject = subject[:1].lower() + subject[1:]
        prefix = " ".join(filter(None, (lead, subject, hedges, _shared_auxiliaries(v))))
    elif own_subj is not None and v is not root and root_subj is not None:
        # a source goes for every clause it leads ("According to the report, sales fell, but
        # profits rose": not the bare "Profits rose.")
        prefix = _shared_lead(root, root_subj, v, sources_only=True)[0]
    # subjects' appositions / participial clauses become claims of their own
    toks, mods = detach_modifiers(toks, doc)
    sentence_level = v is root and not prefix
    denial = next((m for _, m in mods if _denies_the_clause(m)), None) if sentence_level else None
    judged = _judging_noun(v) if sentence_level else None
    if judged is not None:
        # "Bats are blind, a common myth (that persists today)" -> "It is false that bats are blind"
        toks -= subtree_ids(judged) | {judged.left_edge.i - 1}
        prefix = "It is false that"
    elif denial is not None:
        # "X is visible from space, which is a common myth" -> "It is false that X is visible
        # from space" (not "Space is a common myth")
        mods = [(n, m) for n, m in mods if m is not denial]
        prefix = "It is false that"
    # temporal clauses ("when she was 17") and set-off participles ("..., marking her
    # debut in ...") become claims of their own
    toks, adverbials = detach_adverbials(v, toks, doc, root_subj)
    imperative = v is root and own_subj is None and v.tag_ == "VB" and v.i == first_word(doc)
    pieces = (
        respective_pieces(v, toks, prefix)
        or coordinated_pieces(v, toks, prefix, imperative)
        or [Piece(frozenset(toks), prefix=prefix, imperative=imperative)]
    )
    pieces = [
        replace(p, prefix=f"{p.prefix},") if p.prefix and _set_off_after_cc(v, p) else p for p in pieces
    ]
    return [_denied_by_nor(v, p) for p in pieces] + adverbials + modifier_pieces(doc, mods)


def _set_off_after_cc(v: Any, piece: Piece) -> bool:
    """The clause of ``v`` opens with a phrase set off by commas right after its conjunction
    ("and, two years later, became its captain"): the carried subject takes the opening comma
    ("He, two years later, became its captain", not "He two years later, became ...")."""
    doc = v.doc
    idx = sorted(i for i in piece.tokens if doc[i].text != ",")
    first = idx[0] if idx else 0
    if first < 2 or doc[first - 1].text != "," or doc[first - 2].dep_ != "cc":
        return False
    return any(doc[i].text == "," for i in range(first, v.i)) and all(
        i in piece.tokens for i in range(first, v.i)
    )


def _judging_noun(v: Any) -> Any | None:
    """A noun set off by a comma after the clause that judges it false: "Bats are blind, a common
    myth" (spaCy: a second ``attr``, or an apposition); None when there is none."""
    doc = v.doc
    for k in v.children:
        if (
            k.dep_ in ("attr", "appos", "npadvmod")
            and k.lower_ in _DENYING_WORDS
            and k.left_edge.i > v.i + 1
            and doc[k.left_edge.i - 1].text == ","
        ):
            return k
    return None


def _denies_the_clause(m: Any) -> bool:
    """``m`` is a relative clause "which is a (common) myth / false / not true" that ends the
    sentence: it judges the whole clause before it, not the noun it hangs on."""
    if m.dep_ != "relcl" or not any(k.lower_ == "which" and k.dep_ == "nsubj" for k in m.children):
        return False
    if m.right_edge.i < len(m.doc) - 2:
        return False
    return any(k.dep_ in ("attr", "acomp") and k.lower_ in _DENYING_WORDS for k in m.children)


def _denied_by_nor(v: Any, piece: Piece) -> Piece:
    """A clause after "nor" with its auxiliary before the subject denies: "The company did not
    acquire Slack, nor did it announce layoffs" -> "It did not announce layoffs" (not "Did it
    announce layoffs", the opposite claim)."""
    nor = v.dep_ == "conj" and after_nor(v)
    subj = subject_of(v)
    aux = next((k for k in v.children if k.dep_ == "aux" and subj is not None and k.i < subj.i), None)
    if not nor or aux is None or aux.i not in piece.tokens:
        return piece
    return replace(
        piece, tokens=piece.tokens - {aux.i}, replace=(*piece.replace, (v.i, f"{aux.lower_} not {v.text}"))
    )


#: demonstratives that, as a subject, point at a whole clause as often as at a noun
_CLAUSE_DEMONSTRATIVES = frozenset({"this", "that"})
#: predicates of a sentence-final "which" clause that deny the clause before it
_DENYING_WORDS = word_list("denying")
#: predicates that judge a statement, not a thing ("that is false", "this is not true")
_TRUTH_WORDS = _DENYING_WORDS | word_list("truth")


def _clause_reference(subj: Any | None) -> bool:
    """True when ``subj`` is a demonstrative pronoun subject ("this", "that") of a
    coordinated clause, which refers to the clause before it, not to a noun."""
    return subj is not None and subj.pos_ == "PRON" and subj.lower_ in _CLAUSE_DEMONSTRATIVES


def judges_statement(subj: Any) -> bool:
    """True when a demonstrative subject's predicate judges a statement ("That is false.",
    "This is a myth."): its antecedent is a clause, so no noun may replace it."""
    if subj.lower_ not in _CLAUSE_DEMONSTRATIVES:
        return False
    preds = [c for c in subj.head.children if c.dep_ in {"acomp", "attr"}]
    return any(p.lower_ in _TRUTH_WORDS for p in preds)


def split_sentence(doc: Any) -> list[Piece]:
    """Clauses of one parsed sentence (at least one piece covering the sentence)."""
    all_tokens = frozenset(t.i for t in doc if not t.is_space)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1:
        return [Piece(all_tokens)]
    heads = clause_heads(roots[0])
    if any(v is not roots[0] and _clause_reference(subject_of(v)) for v in heads):
        # "..., but that is false": the clause judges the clause before it; apart, neither
        # half says what the sentence says, so the sentence stays whole
        return [Piece(all_tokens)]
    pieces = [p for v in heads for p in _clause_pieces(doc, v, roots[0])]
    pieces = [p for p in pieces if any(not doc[i].is_punct for i in p.tokens)]
    # a bare subject ("The bridge.") is no claim: a piece without a verb and without a
    # prefix that supplies one is dropped when the sentence gives other claims
    with_verb = [p for p in pieces if p.prefix or any(doc[i].pos_ in {"VERB", "AUX"} for i in p.tokens)]
    if with_verb and len(with_verb) < len(pieces):
        kept = {i for p in with_verb for i in p.tokens}
        dropped = {i for p in pieces if p not in with_verb for i in p.tokens} - kept
        if any(doc[i].pos_ in {"NUM", "PROPN"} for i in dropped):
            # a verb misread as a noun ("The monitor refreshes at 144 Hz and costs $300":
            # "refreshes" NNS) would take its values with it: the sentence stays whole
            return [Piece(all_tokens)]
        pieces = with_verb
    return pieces or [Piece(all_tokens)]
