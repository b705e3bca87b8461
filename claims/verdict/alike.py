"""Whether a reference claim states a text alike: the stems, anchors and topic the opposite and
negation checks of ``claims.verdict.counterparts`` compare (stems from
``claims.facets.vocabulary.stem_of``, parses from ``claims.parses.parse``)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from claims import lexicon
from claims.decompose.coordination import BE
from claims.facets.vocabulary import stem_of
from claims.parses import parse

__all__ = [
    "ALIKE_SHARE",
    "FUNCTION_WORDS",
    "GRADED_TAGS",
    "TIME_LIMITS",
    "TOPIC_SHARE",
    "WORD",
    "anchors",
    "is_form_of",
    "other_occasion",
    "said_elsewhere",
    "said_of_subject",
    "stated_alike",
    "states_form",
    "states_word",
    "topic_stated",
    "words",
]

#: a word: letters, hyphenated parts kept together
WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
#: comparatives and superlatives: "the fastest animal" / "the slowest animal" of one subject
GRADED_TAGS = frozenset(["JJR", "JJS", "RBR", "RBS"])

#: words that say nothing of the occasion: articles and auxiliaries
FUNCTION_WORDS = frozenset(
    ["the", "a", "an", "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do"]
    + ["does", "did", "will", "would"]
)


def words(text: str) -> set[str]:
    """The stems of ``text``'s words, articles and auxiliaries apart (prepositions kept: "in the
    final" and "until the final" differ)."""
    return {stem_of(w) for w in WORD.findall(text.lower()) if w not in FUNCTION_WORDS}


#: words that limit a state in time: "unbeaten until the final" does not deny "beaten in it"
TIME_LIMITS = frozenset(["until", "till", "before", "after", "since", "prior"])


#: the least share of a counterpart's words (``words``) a reference claim states besides its
#: anchors (``anchors``): the rest may be said in other words ("the fastest animal with wings"
#: / "the fastest animal on the planet")
ALIKE_SHARE = 0.5
#: the least share of the nouns, names, numbers and verbs of an affirmation that a reference
#: claim states ("Honey does not spoil over time": "Honey spoils" states 2 of 3, no affirmation)
TOPIC_SHARE = 0.75


def anchors(text: str, other: str) -> set[str]:
    """The stems that tie the opposite word ``other`` to its subject in ``text``: the word, the
    word it modifies or depends on (not an auxiliary: "the fastest animal" -> "animal", "conducts
    electricity poorly" -> "conduct"), and the head of the sentence's subject; every stem of
    ``text`` (``words``) when the parse does not find the word."""
    doc = parse(text)
    tok = next((t for t in doc or () if t.lower_ == other.lower()), None)
    if tok is None:
        return words(text)
    out = {stem_of(tok.text)}
    if tok.head is not tok and tok.head.pos_ in ("NOUN", "PROPN", "VERB", "ADJ"):
        out.add(stem_of(tok.head.text))
    root = tok.sent.root
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is not None and subj.pos_ in ("NOUN", "PROPN"):
        out.add(stem_of(subj.text))
    return out - {stem_of(w) for w in FUNCTION_WORDS}


def stated_alike(text: str, ref: str, other: str, *, attributive: bool = False) -> bool:
    """``ref`` states the anchors of the opposite word ``other`` in ``text`` (``anchors``) and
    ``ALIKE_SHARE`` of its words (``words``), and nothing that could make it another occasion:
    no time limit the text lacks ("unknown to science until 1990"), no verb under the opposite
    word ``other`` that the text lacks ("succeeded in reaching the final" / "failed in the
    final"), and ``other`` not an attributive adjective of ``ref`` (another thing: "The new
    bridge replaced a narrow ferry crossing"; comparatives and superlatives apart). With
    ``attributive`` (``other`` replaced an adjective before its noun), every form of ``other``
    in ``ref`` must be one of the same noun, the subject's (``_same_noun``: "a bad cook" / "a
    good cook"; not "the older players" for "the young players"). Words of
    ``ref`` beyond those may say more of the same subject ("the fastest animal, reaching 390
    km/h"). Not stated either where ``ref`` says ``other`` of something else
    (``said_elsewhere``)."""
    mine, theirs = words(text), words(ref)
    if not anchors(text, other) <= theirs or (theirs - mine) & TIME_LIMITS:
        return False
    numbers = {
        t.lower_ for t in parse(ref) or () if t.like_num
    }  # "in 2010" is no other occasion of "in 2010"
    if len(mine & theirs) < ALIKE_SHARE * len(mine) or other_occasion(text, theirs | numbers):
        return False
    own = next((t for t in parse(text) or () if t.lower_ == other.lower()), None)
    for tok in parse(ref) or ():
        if attributive and is_form_of(tok.lower_, other.lower()) and not _same_noun(own, tok):
            return False  # "the young players" / "the older players": perhaps other players
        if tok.lower_ != other.lower():
            continue
        if tok.dep_ == "amod" and tok.tag_ not in GRADED_TAGS and not (attributive and _same_noun(own, tok)):
            return False  # said of another thing: "replaced a narrow ferry crossing"
        if any(t.pos_ == "VERB" and t is not tok and stem_of(t.text) not in mine for t in tok.subtree):
            return False
    return not said_elsewhere(text, other, ref, other)


#: dependencies of a noun that says what its subject is: after a copula, in apposition
_SUBJECT_NOUN_DEPS = frozenset(["attr", "appos"])


def _one_place(mine: Any, theirs: Any) -> bool:
    """Two nouns (spaCy tokens) are one noun in one place: the same stem, and both predicate
    nouns, both appositions, or the same dependent of words of the same stem ("hired a young
    coach" / "hired an old coach"; not "sacked their old coach"). For the object of a
    preposition that word is the preposition alone: "lies on" and "lying on" are one place, and
    so, unread, are "lives in" and "was born in"."""
    if stem_of(mine.text) != stem_of(theirs.text):
        return False
    if mine.dep_ != theirs.dep_:
        return False
    return mine.dep_ in _SUBJECT_NOUN_DEPS or stem_of(mine.head.text) == stem_of(theirs.head.text)


def _same_noun(own: Any | None, tok: Any) -> bool:
    """Both words are adjectives of one noun (by stem) that says what the subject is: a
    predicate noun in both or an apposition in both ("is a good cook" / "is a bad cook"; "Tom
    Vell, a rich farmer" / "Tom Vell, a poor farmer"). In any other place the adjective may
    pick out another thing of that noun ("the old bridge was closed" / "the new bridge was
    closed"; "removed the primary tumour")."""
    if own is None or own.dep_ != "amod" or tok.dep_ != "amod":
        return False
    return own.head.dep_ in _SUBJECT_NOUN_DEPS and _one_place(own.head, tok.head)


def said_elsewhere(text: str, word: str, ref: str, other: str) -> bool:
    """Every form of ``other`` in ``ref`` is said of something else than ``word`` in ``text``:
    of another subject ("Rents in Orm are expensive, while wages are low" for "Rents in Orm are
    high"); with another complement of one preposition, another verb after "to" or another
    calendar time than ``word`` ("excels at chess but is bad at cards" for "good at chess"; "sad
    to leave" for "glad to retire"; "was bad in 2001" for "is good now"); as an adjective of
    another noun ("has a new roof" for "is old"); or, for an adjective ``word``, as a word of
    another kind ("is well known" for "is sick"). False where ``ref`` holds no form of ``other``
    the parse finds, or ``text`` no ``word``."""
    own = next((t for t in parse(text) or () if t.lower_ == word.lower()), None)
    forms = [t for t in parse(ref) or () if is_form_of(t.lower_, other.lower())]
    if own is None or not forms:
        return False
    return all(
        _another_word(own, t) or _another_thing(own, t) or _another_subject(own, t) or _own_complement(own, t)
        for t in forms
    )


def _another_word(own: Any, tok: Any) -> bool:
    """An adjective of the text against a word of another kind ("sick" / "is well known")."""
    return bool(own.pos_ == "ADJ" and tok.pos_ in ("ADV", "ADP", "DET", "PRON", "CCONJ", "SCONJ", "PART"))


def _another_thing(own: Any, tok: Any) -> bool:
    """The reference's word is an adjective of the noun it stands before ("its new roof", "her
    old parents", "a bad year"), not of what the text says its word of. A noun after a copula or
    in apposition is its subject's ("Kelby is a poor town", "Tom Vell, a rich man"): no other
    thing. Where the text's word is itself an adjective of a noun, the two are one thing when
    their nouns are one in one place (``_one_place``: "the old bridge was closed" / "the new
    bridge was closed"; not "a new road", "a wider replacement", nor "sacked their old coach"
    for "hired a young coach"), and read alike when the text's is a comparative or a
    superlative ("the worst combination" / "an optimal object")."""
    if tok.dep_ != "amod" or tok.head is tok:
        return False
    noun = tok.head
    if own.dep_ == "amod" and own.tag_ not in GRADED_TAGS and own.head.i != own.i:
        return not _one_place(own.head, noun)  # "the old bridge" / "a new road"; "sacked their old coach"
    if tok.tag_ in GRADED_TAGS or noun.dep_ in ("attr", "appos"):
        return False
    if own.dep_ == "amod":
        return False  # two adjectives of nouns: "the worst combination" / "an optimal object"
    return stem_of(noun.text) not in (_subject_nouns(own) or frozenset())


#: dependencies of a predicate word on the verb of its clause
_PREDICATE_DEPS = frozenset(["acomp", "attr", "advmod", "xcomp", "oprd"])


def _clause_head(tok: Any) -> Any:
    """The verb of the clause ``tok`` is said in: itself for a verb, else the verb its predicate
    dependency hangs from ("is low": "is"), through the noun an adjective qualifies where that
    noun is the verb's subject, object or predicate noun, or "one of" them ("was a light
    smoker", "had a short career", "the old school opened", "is one of the bad cooks": "was",
    "had", "opened", "is")."""
    if tok.dep_ == "amod" and tok.head.i != tok.i:
        noun = tok.head
        while noun.dep_ == "pobj" and noun.head.lower_ == "of" and noun.head.head.lower_ in _PARTITIVES:
            noun = noun.head.head  # "one of the bad cooks": "one"
        if noun.dep_ in _ARGUMENT_DEPS and noun.head.i != noun.i:
            return _clause_head(noun.head)
    while tok.dep_ in _PREDICATE_DEPS and tok.head is not tok:
        tok = tok.head
    return tok


#: words before "of" that name part of a group ("one of the bad cooks"), not another thing
#: ("the capital of a small country")
_PARTITIVES = frozenset(
    ["one", "some", "many", "most", "all", "each", "any", "few", "none", "several", "two"]
)
#: dependencies of a noun on its clause's verb whose adjective is said in that clause
_ARGUMENT_DEPS = frozenset(["nsubj", "nsubjpass", "dobj", "attr", "oprd"])


def _subject_nouns(tok: Any) -> frozenset[str] | None:
    """The stems of the head noun of the subject of ``tok``'s clause and of its compounds (a
    conjoined verb without a subject takes its first conjunct's: "excels at chess but is bad at
    cards"), with the predicate noun of a copula whose subject ``tok`` qualifies; None where the
    subject is a pronoun or there is none."""
    head = _clause_head(tok)
    while head.dep_ == "conj" and head.head is not head and not _subject(head):
        head = head.head
    subj = _subject(head)
    if subj is None or subj.pos_ not in ("NOUN", "PROPN"):
        return None
    # the head noun and its compounds: "its puppy" is no "Orm dog", "The lake" is "The Orm lake";
    # a copula's predicate noun names the subject too when the opposite is the subject's
    # ("Nature's swiftest jet-setter is the peregrine falcon")
    nouns = [subj]
    if tok.dep_ == "amod" and tok.head.i == subj.i and head.lower_ in BE | {"'s"}:
        nouns += [c for c in head.children if c.dep_ == "attr" and c.pos_ in ("NOUN", "PROPN")]
    return frozenset(
        stem_of(t.text) for n in nouns for t in (n, *n.children) if t is n or t.dep_ == "compound"
    )


def _subject(head: Any) -> Any | None:
    return next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)


def _another_subject(own: Any, tok: Any) -> bool:
    """The opposite word ``tok`` of the reference is said of another subject than the word
    ``own`` of the text: their subjects' nouns differ, neither holding the other's, and the
    reference's subject names something the text never names ("while the Kesh lake is low" /
    "The Orm lake is low"; "The lake" and "The Orm lake" are one; "the majority of his scenes had
    been completed" is said of what "He had completed the majority of his scenes" names)."""
    mine, theirs = _subject_nouns(own), _subject_nouns(tok)
    if mine is None or theirs is None or mine <= theirs or theirs <= mine:
        return False
    named = {stem_of(t.lower_) for t in own.doc}
    return not theirs <= named


def _complements(tok: Any) -> dict[str, frozenset[str]]:
    """What ``tok`` is said with: the stems of the nouns under the objects of the prepositions of
    the word, of the noun it qualifies (not as a comparative or superlative) and of its clause's
    verb, by preposition ("bad at cards": {"at": {"card"}}; "in the nucleus of a cell":
    "nucleus" and "cell" under "in"), the verb after "to" ("sad to leave"), and its calendar
    times under "time" (a year, a month, a day of the week, "now", "today": "in 2001", "in
    May").
    A measure of the word ("300 metres deep") is an amount, not a complement; a season or a
    relative time ("late this summer") is not compared."""
    out: dict[str, set[str]] = {}
    head = _clause_head(tok)
    # "a good cook of fish": the noun's "of" (a superlative's "in the sky" is its scope, not read)
    noun = tok.head if tok.dep_ == "amod" and tok.tag_ not in GRADED_TAGS else tok
    for parent in {tok.i: tok, noun.i: noun, head.i: head}.values():
        for child in _segment(parent, tok):
            dated = [t for t in child.subtree if _calendar(t)]
            if child.dep_ in ("prep", "npadvmod", "advmod") and dated:
                out.setdefault("time", set()).update(stem_of(t.lower_) for t in dated)
            elif child.dep_ == "prep":
                objects = [c for c in child.children if c.dep_ == "pobj"]
                nouns = objects + [t for c in objects for t in c.subtree if t.pos_ in _NOUNS and t is not c]
                out.setdefault(child.lower_, set()).update(stem_of(t.lower_) for t in nouns)
            elif child.dep_ == "xcomp" and child.pos_ == "VERB":
                out.setdefault("to+verb", set()).add(
                    stem_of(child.lower_)
                )  # "glad to retire" / "sad to leave"
    return {k: frozenset(v) for k, v in out.items() if v}


_NOUNS = frozenset(["NOUN", "PROPN", "NUM"])
_CALENDAR = re.compile(
    r"(?:1[5-9]|20)\d\d|now|today|january|february|march|april|may|june|july|august|september|october"
    r"|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
)


def _calendar(t: Any) -> bool:
    """A word of a calendar time: a year, a month, a day of the week, "now", "today"; not the
    modal "may" nor a number that counts a measure ("1800 metres")."""
    return bool(_CALENDAR.fullmatch(t.lower_)) and t.pos_ not in ("AUX", "VERB") and t.dep_ != "nummod"


def _segment(parent: Any, tok: Any) -> list[Any]:
    """The children of ``parent`` in the stretch of its coordination that holds ``tok``: "was bad
    in 2011 but excellent in 2012" gives "bad" the words up to "but" only."""
    kids = list(parent.children)
    cuts = [k.i for k in kids if k.dep_ in ("cc", "conj") and k.i != tok.i]
    start = max((c for c in cuts if c < tok.i), default=-1)
    end = min((c for c in cuts if c > tok.i), default=len(tok.doc))
    return [k for k in kids if start < k.i < end]


def _own_complement(own: Any, tok: Any) -> bool:
    """The opposite word ``tok`` and the text's word ``own`` are said with different complements
    of one preposition or different times ("excels at chess but is bad at cards" for "good at
    chess"; "was bad in 2001" for "is good now"; "runs high in March" for "runs low in August").
    A complement or time only the reference gives adds to it ("open to the public", "rich from
    the sale of her paintings", "expensive today"): no other occasion; unless that time dates a
    past the text does not speak of, the text's verb in the present and the reference's in the
    past ("was poor in 1990" for "is rich"). An adjective before its noun in the present
    against one in the past is another occasion, dated or not ("was a poor farmer in his youth"
    for "is a rich farmer"), as is a state the reference puts in a former time the text does
    not ("Tom Marr, once a poor farmer, ...": ``_FORMER``)."""
    mine, theirs = _complements(own), _complements(tok)
    if any(k in mine and not mine[k] & v for k, v in theirs.items()):
        return True
    if _former(tok) and not _former(own):
        return True  # "Tom Marr, once a poor farmer, ..."
    if _tense(own) != "present" or _tense(tok) != "past":
        return False
    # an adjective before its noun in the past may be a former state ("once a poor farmer")
    return "time" in theirs and "time" not in mine or _attributive(own)


#: words that put a state in a former time ("once a poor farmer", "formerly a bad school")
_FORMER = frozenset(["once", "formerly", "previously", "originally", "former", "erstwhile", "onetime"])


def _former(tok: Any) -> bool:
    """``tok``, the noun it qualifies or its clause's verb has a word of ``_FORMER``."""
    head = _clause_head(tok)
    parents = {tok.i: tok, tok.head.i: tok.head, head.i: head}.values()
    return any(c.lower_ in _FORMER for p in parents for c in p.children)


def _attributive(tok: Any) -> bool:
    """An adjective before its noun, no comparative or superlative ("a good cook")."""
    return bool(tok.dep_ == "amod" and tok.tag_ not in GRADED_TAGS)


def _tense(tok: Any) -> str:
    """ "present" or "past" by the tag of the verb of ``tok``'s clause (``_clause_head``: "is",
    "has"; "was", "had"), or of its auxiliary; "" for any other."""
    head = _clause_head(tok)
    tags = [head.tag_, *(c.tag_ for c in head.children if c.dep_ in ("aux", "auxpass"))]
    if "VBD" in tags:
        return "past"
    return "present" if {"VBZ", "VBP"} & set(tags) and "MD" not in tags else ""


#: parts of speech of spaCy that carry no occasion of their own
_GRAMMAR = frozenset(["ADP", "DET", "CCONJ", "SCONJ", "PART", "PRON", "AUX", "PUNCT"])
#: entity types of spaCy that date or count an occasion ("on mondays", "twice")
_OCCASION_ENTITIES = frozenset(["DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY"])


def other_occasion(text: str, theirs: set[str]) -> bool:
    """A word of ``text`` that the reference's stems ``theirs`` lack makes it another occasion: a
    number, a name, a date or time, a word whose opposite the reference states ("in early trading" / "in late
    trading"), or a word of an adverbial phrase whose preposition the reference states with
    other words ("after a week" / "after two days")."""
    for tok in parse(text) or ():
        if (
            stem_of(tok.text) in theirs
            or tok.lower_ in FUNCTION_WORDS
            or not tok.is_alpha
            and not tok.like_num
        ):
            continue
        if tok.pos_ in _GRAMMAR:
            continue  # "of", "and", "its": no occasion of their own
        if tok.like_num or tok.pos_ in ("NUM", "PROPN") or tok.ent_type_ in _OCCASION_ENTITIES:
            return True
        if any(stem_of(o.word) in theirs for o in lexicon.opposites(tok.lower_)):
            return True
        prep = next((a for a in tok.ancestors if a.pos_ == "ADP"), None)
        if prep is not None and prep.head.pos_ in ("VERB", "AUX") and prep.lower_ in theirs:
            return True  # the same adverbial filled otherwise: "after a week" / "after two days"
    return False


def topic_stated(text: str, ref: str, share: float = TOPIC_SHARE) -> bool:
    """``ref`` states the head of the subject of ``text`` and ``share`` of its nouns, names,
    numbers and verbs (stems): an affirmation of what a denial is about ("Honey does not spoil
    over time" is about time too: "Honey spoils" is no affirmation of it)."""
    theirs = words(ref)
    doc = parse(text)
    topic = [stem_of(t.text) for t in doc or () if t.pos_ in ("NOUN", "PROPN", "NUM", "VERB")]
    topic = [t for t in topic if t not in FUNCTION_WORDS]
    subj = [
        stem_of(t.text) for t in doc or () if t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in ("NOUN", "PROPN")
    ]
    if subj and subj[0] not in theirs:
        return False
    return sum(t in theirs for t in topic) >= share * len(topic)


def states_word(text: str, word: str) -> bool:
    """``text`` holds ``word`` in some form (its stem among the stems of its words)."""
    return stem_of(word) in _stems(text)


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem_of(w) for w in WORD.findall(text))


def said_of_subject(text: str, ref: str, other: str) -> bool:
    """``ref`` says the word ``other`` of the subject of ``text`` (the head of its first nominal
    subject, a noun or name): a form of ``other`` (its stem) in ``ref`` modifies that noun ("The
    brightest quasar in the sky ...") or its clause has that noun as subject ("Quasars are
    among the brightest ..."). False when ``text`` has no such subject."""
    subj = next(
        (t for t in parse(text) or () if t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in ("NOUN", "PROPN")),
        None,
    )
    if subj is None:
        return False
    want = stem_of(subj.text)
    for tok in parse(ref) or ():
        if not is_form_of(tok.text, other):
            continue
        if stem_of(tok.head.text) == want:
            return True
        clause = next((a for a in [tok, *tok.ancestors] if a.pos_ in ("VERB", "AUX")), None)
        if clause is not None and any(
            c.dep_ in ("nsubj", "nsubjpass") and stem_of(c.text) == want for c in clause.children
        ):
            return True
    return False


@lru_cache(maxsize=1 << 16)
def is_form_of(token: str, word: str) -> bool:
    """``token`` is ``word`` in some form: the same stem (``stem_of``), or its comparative or
    superlative in -er / -est ("deeper", "larger", "bigger", "happiest" of "deep", "large",
    "big", "happy"; English spelling rules of the regular degrees)."""
    if stem_of(token) == stem_of(word):
        return True
    low, want = token.lower(), word.lower()
    for suffix in ("est", "er"):
        if low.endswith(suffix) and len(low) > len(suffix) + 2:
            base = low[: -len(suffix)]
            bases = {base, base + "e", base[:-1] + "y" if base.endswith("i") else base}
            if len(base) > 2 and base[-1] == base[-2]:
                bases.add(base[:-1])  # "bigger" -> "big"
            if want in bases:
                return True
    return False


def states_form(text: str, word: str) -> bool:
    """``text`` holds ``word`` in some form, its degrees included (``is_form_of``)."""
    return any(is_form_of(w, word) for w in WORD.findall(text))
