"""Rewriting step: subject pronouns (he, she, it, they, its, ...) replaced by the subject they
refer back to, definite descriptions ("the bridge") bound to the one earlier name they can
describe (``claims/data/definite_descriptions.tsv``); a pronoun with no antecedent makes the
claim ``ambiguous``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from claims.decompose.antecedents import Antecedents, description_heads, sex_of
from claims.decompose.clauses import judges_statement
from claims.decompose.coordination import BE
from claims.decompose.inflect import possessive_form
from claims.decompose.mentions import core_mention, is_preconjunction, mention_text
from claims.decompose.tree import PRONOUN_POSS, PRONOUN_SUBJ, SUBJ, Piece, is_person, render
from claims.decompose.words import word_list
from claims.spacy_pipeline import entity_type


def _definite_description(subj: Any, piece: Piece, ante: Antecedents) -> Piece | None:
    """The piece with its subject "the [adjectives/nouns] <head>" bound to the name it points
    back to: "The bridge is long" -> "The Halvorsen Bridge is long"; with modifiers the name's
    words join them ("The suspension bridge carries four lanes" -> "The Halvorsen suspension
    bridge carries four lanes", so the claim keeps what the description says). None: not such a
    subject (plural, a name, a possessive, a clause or phrase after the head, a contrasting or
    superlative modifier such as "new", "other", "longest", "only", a copula naming it), or not
    exactly one earlier subject name fits (``Antecedents.described``)."""
    if subj.pos_ != "NOUN" or subj.tag_ != "NN":
        return None
    kids = list(subj.children)
    det = [c for c in kids if c.dep_ == "det"]
    mods = [c for c in kids if c.dep_ != "det"]
    if len(det) != 1 or det[0].lower_ != "the" or det[0].i != subj.left_edge.i:
        return None
    if any(c.dep_ not in {"amod", "compound"} or c.i > subj.i for c in mods):
        return None
    words = [t for t in subj.subtree if t.i != det[0].i]
    contrast = description_heads()[1]
    if any(t.pos_ == "PROPN" or t.lower_ in contrast or t.tag_ in {"JJS", "RBS"} for t in words):
        return None  # a name of its own, "the new bridge", "the longest bridge", "the only bridge"
    if subj.head.lemma_ == "be" and any(c.dep_ == "attr" for c in subj.head.children):
        return None  # "The longest bridge is the Hardanger Bridge" names the thing itself
    name = ante.described(subj.lower_)
    if name is None:
        return None
    name_words = name.split()
    if mods and name_words[-1].lower() != subj.lower_:
        return None  # "the chip company" after "Tessel Corp": no natural way to join them
    if mods:  # "the suspension bridge" -> "the Halvorsen suspension bridge": the modifiers stay
        lead = " ".join(name_words[:-1])
        repl = dict(piece.replace) | {det[0].i: lead if lead.lower().startswith("the ") else f"the {lead}"}
        tokens = piece.tokens
        name = render(subj.doc, Piece(frozenset(t.i for t in subj.subtree), replace=tuple(repl.items())))
    else:
        repl = dict(piece.replace) | {subj.i: name}
        tokens = piece.tokens - {det[0].i}
    ante.described_as[subj.doc[subj.left_edge.i : subj.i + 1].text.lower()] = name
    return replace(piece, tokens=tokens, replace=tuple(sorted(repl.items())))


def _piece_subject(doc: Any, piece: Piece) -> Any | None:
    """The subject of the piece's own clause: of its root or a coordinated verb, or of a
    temporal clause split off on its own."""
    for i in sorted(piece.tokens):
        t = doc[i]
        head = t.head
        top = head.dep_ in {"ROOT", "conj"} or (head.dep_ == "advcl" and head.head.i not in piece.tokens)
        if t.dep_ in SUBJ and head.i in piece.tokens and top:
            return t
    return None


#: pronouns that stand for a person, and the sex each names (``antecedents.sex_of``)
_PERSONAL = frozenset({"he", "she"})
_SEX = {"he": "m", "she": "f"}


def _against_rival(pronoun: Any, target: str | None) -> str | None:
    """The antecedent of ``pronoun`` given the earlier subject ``target`` and a fronted clause's
    subject (``_fronted_rival``: "Even though Kelmar Lake is deep, it freezes"): ``target`` when
    there is no rival or the rival is the same; else None, the pronoun left as written (which
    one is meant, the text does not say: the clause's object, an event or the weather may be
    meant too, "Although the government banned the book, it became a bestseller")."""
    rival = _fronted_rival(pronoun)
    if rival is None or (target and _same_mention(target, core_mention(rival))):
        return target
    return None


def _same_mention(a: str, b: str) -> bool:
    """Two mentions name one thing: equal but for case and a leading "the"."""

    def bare(m: str) -> str:
        low = m.lower()
        return low[4:] if low.startswith("the ") else low

    return bare(a) == bare(b)


def _fronted_rival(pronoun: Any) -> Any | None:
    """The subject of a fronted adverbial clause that a main clause's subject pronoun may stand
    for ("Even though Kelmar Lake is deep, it freezes in winter"; "Because Olaf Lund was younger,
    he became CEO"), or None. The pronoun may point at it or at the text's earlier subject, and
    a wrong pick invents a claim ("The Brenna mill freezes in winter"): ``resolve`` takes the
    clause's subject when no earlier one fits or the earlier one is the same, and leaves the
    pronoun as written otherwise (the claim is ambiguous). A rival: a subject of the pronoun's
    number that a person's pronoun may name (a person by spaCy or by a first name of the other
    sex not: ``antecedents.sex_of``), or, for "it", no first name of a person. No rival: a
    subject of another kind ("When the war ended, he returned"), or one that holds a pronoun of
    its own ("After his father died, he took over": "his" is the pronoun's referent); none for
    a pronoun whose verb has a clause of its own ("If the film has something to say, it's that
    ...": the pronoun stands for that clause)."""
    verb = pronoun.head
    if any(c.dep_ in ("ccomp", "csubj") for c in verb.children):
        return None  # "..., it's that it's possible ...": an "it" that stands for a clause
    for clause in verb.children:
        if clause.dep_ != "advcl" or clause.i > pronoun.i:
            continue
        subj = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is None or subj.pos_ not in ("NOUN", "PROPN"):
            continue
        if any(t.pos_ == "PRON" for t in subj.subtree):
            continue
        plural = subj.tag_ in ("NNS", "NNPS") or any(c.dep_ == "conj" for c in subj.children)
        low = pronoun.lower_
        if low not in ("he", "she", "it", "they"):
            return None  # "this" / "that" may stand for the clause itself
        if low == "they":
            if plural:
                return subj
            continue
        sex = sex_of(mention_text(subj))
        named = sex is not None or is_person(subj)  # the small model's PERSON misses names
        # a name the lists and the model miss ("Olaf Lund") may be a person; a place is none
        person = named or (subj.pos_ == "PROPN" and entity_type(subj) in ("", "PERSON"))
        if plural or (low in _PERSONAL and (not person or sex not in (None, _SEX[low]))):
            continue
        if low in _PERSONAL or sex is None:
            return subj
    return None


#: raising verbs (``claims/data/decompose_words.tsv``)
_RAISING = word_list("raising")


def _expletive(subj: Any) -> bool:
    """A pronoun subject that refers to nothing: "it is important to ...", "it seems that
    ...", "it was reported that ...", or one with its own relative clause."""
    verb = subj.head
    dummy_it = (
        subj.lower_ == "it"
        and any(c.dep_ in {"xcomp", "ccomp", "csubj"} for c in verb.children)
        and (
            verb.pos_ == "AUX"
            or verb.lower_ in _RAISING
            or any(c.dep_ in {"acomp", "attr", "auxpass"} for c in verb.children)
        )
    )
    return dummy_it or any(c.dep_ in {"relcl", "acl"} for c in subj.children)


def resolve(
    doc: Any, piece: Piece, ante: Antecedents
) -> tuple[Piece, bool, tuple[str, bool, Callable[[], bool], bool, Callable[[], str]] | None]:
    """Replace a subject pronoun (or a possessive pronoun in the subject) by its antecedent.

    Returns the piece, whether a pronoun stayed unresolved (ambiguous), and the subject
    mention this piece introduces with whether it holds a proper noun and whether it names a
    person (spaCy's PERSON entity), i.e. the next antecedent.
    """
    if piece.prefix:
        low = piece.prefix.lower()
        if low in PRONOUN_SUBJ:
            target = ante.pick(low)
            return (replace(piece, prefix=target), False, None) if target else (piece, True, None)
        if low in ante.described_as:
            return replace(piece, prefix=ante.described_as[low]), False, None
        return piece, False, None
    repl = dict(piece.replace)
    subj = _piece_subject(doc, piece)
    if subj is None:
        return piece, False, None
    if subj.pos_ == "PRON":
        ambiguous = False
        if judges_statement(subj):
            ambiguous = True
        elif subj.lower_ in PRONOUN_SUBJ and not _expletive(subj):
            target = (_people_before(subj) if subj.lower_ == "they" else None) or ante.pick(
                subj.lower_, copula=subj.head.lower_ in BE and not _explains(subj.head)
            )
            target = _against_rival(subj, target)
            if target:
                repl[subj.i] = target
            else:
                ambiguous = True
        return replace(piece, replace=tuple(sorted(repl.items()))), ambiguous, None
    described = _definite_description(subj, piece, ante)
    if described is not None:
        return described, False, None
    ambiguous = _resolve_possessives(subj, piece, ante, repl)
    mention = core_mention(subj)
    proper = any(doc[i].pos_ == "PROPN" for i in range(subj.left_edge.i, subj.right_edge.i + 1))
    person = partial(is_person, subj)
    owner = next((c for c in subj.children if c.dep_ == "poss" and c.pos_ == "PROPN"), None)
    if owner is not None and subj.pos_ != "PROPN":
        # "Nadia Kors's first role came ... when she was 17": she/he point at the owner
        ante.update(core_mention(owner), True, partial(is_person, owner))
        proper = False
    plural = _plural_subject(subj)
    if any(ch.lower_ in PRONOUN_POSS for ch in subj.children if ch.dep_ == "poss"):
        mention_out = None  # "its study" names nothing new worth pointing back to
    elif any(c.dep_ == "conj" for c in subj.children):
        # "they" = "Clijsters and Henin"; "Neither Clijsters nor Henin" names no "they"
        joined = all(c.lower_ == "and" for c in subj.children if c.dep_ == "cc")
        mention_out = mention_text(subj, conjuncts=True) if joined and not is_preconjunction(subj) else None
    else:
        mention_out = mention
    return (
        replace(piece, replace=tuple(sorted(repl.items()))),
        ambiguous,
        (mention_out, proper, person, plural, partial(entity_type, subj)) if mention_out else None,
    )


def _people_before(pronoun: Any) -> str | None:
    """Two or more people named together earlier in the pronoun's sentence, in any role: "they"
    points at them ("Google was founded by Larry Page and Sergey Brin while they were students"
    is no "Google were students"); None when the sentence names no such list. People are names
    whose first name or title tells a sex (``sex_of``) or that spaCy calls a person."""
    for tok in pronoun.doc[: pronoun.i]:
        if tok.pos_ != "PROPN" or tok.dep_ in ("compound", "flat", "conj"):
            continue
        members = [
            tok,
            *(k for k in tok.children if k.dep_ == "conj" and k.pos_ == "PROPN" and k.i < pronoun.i),
        ]
        if len(members) > 1 and all(sex_of(core_mention(m)) is not None or is_person(m) for m in members):
            return mention_text(tok, conjuncts=True)
    return None


#: words after "This is" that explain an event rather than describe a thing ("This is because
#: pressure falls", "This was due to ...", "This is why ...")
_EXPLAINING = word_list("explaining")


def _explains(verb: Any) -> bool:
    """The copula ``verb`` opens an explanation ("This is because ...", "That is why ..."): its
    "this"/"that" points at the event just told, which no noun names (left unresolved)."""
    nxt = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    return nxt is not None and nxt.lower_ in _EXPLAINING


def _plural_subject(subj: Any) -> bool:
    """A subject "they" may point back to: a common plural ("The Romans" with its article) or a
    list; a plural name alone is often one company ("Brenna Foods")."""
    return bool(
        subj.tag_ == "NNS"
        or (subj.tag_ == "NNPS" and any(c.dep_ == "det" for c in subj.children))
        or any(c.dep_ == "conj" for c in subj.children)
    )


def _resolve_possessives(subj: Any, piece: Any, ante: Any, repl: dict[int, str]) -> bool:
    """Bind the possessive pronouns on the subject ("its headquarters") to their antecedent in
    ``repl`` (token index -> text); True when one has no antecedent (the claim is ambiguous)."""
    ambiguous = False
    for c in subj.children:
        if c.dep_ == "poss" and c.lower_ in PRONOUN_POSS and c.i in piece.tokens:
            target = ante.pick(c.lower_)
            if target:
                repl[c.i] = possessive_form(target)
            else:
                ambiguous = True
    return ambiguous
