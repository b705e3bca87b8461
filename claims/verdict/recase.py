"""Names written in lower case: "the opera house is in sydney" is judged as "... in Sydney".

A response may write names in lower case (typed chat, a model asked for lower case). The checks
find names by their capitals (``claims.facets.entities``), so without this step "sydney" would
be an ordinary word: "melbourne" against "Sydney" would be a missing word, not another name.
``recase`` gives the claim back its capitals, from the reference claims it is compared with:

1. a lower-case run of words that a reference writes as a name ("per lunde" / "Per Lunde") takes
   the reference's capitals, unless a reference also writes it in lower case ("museum"); a
   single word only in a claim written in lower case ("born" / "Born Georg Friedrich PARROT");
2. in a claim written in lower case (no capital after its first letter, or one that step 1
   recased), the run of content words after the word that introduces a reference's name
   ("in sydney" / "in Sydney", "by rosa feld" / "by Per Lunde") is capitalised when every other
   content word of the claim is in that reference claim: it fills the name's slot. Only a name
   that heads its noun phrase has a slot ("lanes of the E39 motorway": "of traffic" is no rival).

Only letters change case, so every span stays valid.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from claims.facets import MONTHS, STOPWORDS, UNITS, content_tokens, extract, is_weak_entity
from claims.verdict.roles import word_before
from claims.verdict.text import coverage_of

_WORD = r"[a-z][a-z'’-]*"
#: at most this many lower-case words fill a name's slot ("rosa feld")
_MAX_RUN = 3


@lru_cache(maxsize=4096)
def _names(reference: str, single_words: bool = True) -> tuple[tuple[str, str], ...]:
    """(name, the word that introduces it) of every strong name of a reference claim; names of
    two or more words only unless ``single_words`` (then no single word is parsed to tell
    whether it is a weak entity: ``is_weak_entity``)."""
    f = extract(reference)
    out = []
    for e in f.entities:
        if not single_words and " " not in e[0]:
            continue
        if not is_weak_entity(reference, e) and re.fullmatch(r"[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*", e[0]):
            out.append((e[0], word_before(reference, e[1])))
    return tuple(out)


def _capitalise(text: str, start: int, end: int) -> str:
    run = re.sub(r"\b[a-z]", lambda m: m.group(0).upper(), text[start:end])
    return text[:start] + run + text[end:]


def _known_names(text: str, references: Sequence[str], *, single_words: bool) -> str:
    """Step 1: lower-case runs that the references write as names take their capitals (names of
    one word only when ``single_words``)."""
    low_refs = " ".join(references)
    for ref in references:
        for name, _ in _names(ref, single_words):
            low = name.lower()
            if len(low) < 3 or low in STOPWORDS:
                continue
            # the substring tests spare the regex (most names are in neither text)
            if low in low_refs and _whole_word(low).search(low_refs):
                continue
            if low not in text:
                continue
            for m in reversed(list(_whole_word(low).finditer(text))):
                text = _capitalise(text, m.start(), m.end())
    return text


@lru_cache(maxsize=4096)
def _whole_word(phrase: str) -> re.Pattern[str]:
    """``phrase`` as a whole word or phrase (compiled once: the ``re`` module's own cache of 512
    patterns is shared with pysbd's hundreds, and names overflowed it)."""
    return re.compile(rf"\b{re.escape(phrase)}\b")


@lru_cache(maxsize=4096)
def _slot_pattern(word: str) -> re.Pattern[str]:
    """The lower-case words after ``word`` up to the clause's end (``_slot_run``), compiled once."""
    return re.compile(
        rf"\b{re.escape(word)}\s+(?:the\s+)?((?:{_WORD})(?:\s+{_WORD}){{0,{_MAX_RUN - 1}}})\s*(?:[.,;:!?]|$)"
    )


def _slot_run(text: str, word: str) -> tuple[int, int] | None:
    """The lower-case content words after ``word`` ("the" skipped) up to the clause's end."""
    m = _slot_pattern(word).search(text) if word in text else None
    if m is None:
        return None
    words = m.group(1).split()
    if any(w in STOPWORDS or w in UNITS or w in MONTHS for w in words):
        return None
    return m.start(1), m.end(1)


def _heads(reference: str) -> list[tuple[str, str]]:
    """The names of :func:`_names` that end their noun phrase ("in Sydney.", "by Per Lunde,"); a
    name that modifies a common noun ("the E39 motorway") fills no slot of its own."""
    out = []
    for name, word in _names(reference, True):
        at = reference.find(name)
        after = reference[at + len(name) :].lstrip() if at >= 0 else ""
        if not re.match(r"[a-z]", after):
            out.append((name, word))
    return out


def _rival_names(text: str, references: Sequence[str]) -> str:
    """Step 2: a lower-case run in the slot of a reference's name (module docstring)."""
    for ref in references:
        ref_tokens = content_tokens(ref)
        for _, word in _heads(ref):
            span = None if not word else _slot_run(text, word)
            if span is None:
                continue
            run = set(content_tokens(text[span[0] : span[1]]))
            if run & set(ref_tokens):
                continue
            rest = [t for t in content_tokens(text) if t not in run]
            if rest and coverage_of(rest, ref_tokens)[0] >= 1.0:
                return _capitalise(text, *span)
    return text


def recase(text: str, references: Sequence[str]) -> str:
    """``text`` with the capitals of the names it writes in lower case (module docstring). A
    claim that writes capitals after its first letter is recased only for names of two or more
    words ("per lunde"): its lower-case single words are ordinary words ("born", "approach")."""
    lower = not re.search(r"[A-Z]", text[1:])
    known = _known_names(text, references, single_words=lower)
    return _rival_names(known, references) if lower or known != text else known
