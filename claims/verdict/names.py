"""Names in short and in full: acronyms, initialisms, entity presence.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from functools import lru_cache

from claims.facets import (
    squash_abbreviations,
    token_match,
)
from claims.facets.tokens import CACHED_CHARS
from claims.facets.vocabulary import STOPWORDS, data_lines

# ---------------------------------------------------------------- pair comparison


_NAME_JOINERS = frozenset({"of", "the", "and", "for", "&"})


def _initialism(name: str) -> str:
    """``"Democratic National Committee"`` -> ``"dnc"``: the initials of a name's capitalised
    words, a leading "The" left out (empty for a name of fewer than three such words)."""
    caps = [w for w in re.findall(r"[\w'’-]+", name) if w[:1].isupper()]
    if caps and caps[0] == "The":
        caps = caps[1:]
    return "".join(w[0] for w in caps).lower() if len(caps) >= 3 else ""


#: two-letter short forms are ambiguous ("AP": Associated Press, Air Products); only these
#: well-known ones are matched, with the two-word names they stand for
_SHORT_NAMES = {"us": "united states", "uk": "united kingdom", "un": "united nations", "eu": "european union"}


@lru_cache(maxsize=65536)
def name_keys(text: str) -> frozenset[str]:
    """How ``text`` can name an organisation in short: its acronyms (words of three or more
    capitals: "DNC", "WHO"; never the ordinary word "who") and the initialisms of its runs of
    three or more capitalised words ("Democratic National Committee" -> "dnc"), lower-cased."""
    text = squash_abbreviations(text)
    keys: set[str] = set()
    run: list[str] = []
    for m in re.finditer(r"[\w'’&-]+", text):
        w = m.group(0)
        if len(w) <= 8 and re.fullmatch(r"[A-Z]{3,}s?", w):
            keys.add(w.rstrip("s").lower() if w.endswith("s") and not w.isupper() else w.lower())
        if w[:1].isupper():
            run.append(w)
        elif run and w in _NAME_JOINERS:
            continue
        else:
            keys.add(_initialism(" ".join(run)))
            run = []
    keys.add(_initialism(" ".join(run)))
    keys.discard("")
    low = text.lower()
    for short, name in _SHORT_NAMES.items():
        if re.search(rf"\b{short.upper()}A?\b", text) or name in low:
            keys.update((short, name))
    return frozenset(keys)


def entity_key(entity: str) -> str:
    """The short form an entity is matched by: its own acronym ("NAHL") or its initialism."""
    e = squash_abbreviations(entity).strip()
    low = e.lower().removeprefix("the ")
    if re.fullmatch(r"[A-Z]{2}A?", e) and low[:2] in _SHORT_NAMES:
        return low[:2]  # "US", "USA"
    if low in _SHORT_NAMES.values():
        return low
    return e.lower() if re.fullmatch(r"[A-Z]{3,8}", e) else _initialism(e)


_POSSESSIVE = re.compile(r"['’]s?$")
_NAME_WORD = re.compile(r"[\w'’\-#+]+")


def lower_words(text: str) -> frozenset[str]:
    """The lower-case words of ``text`` (possessive "'s" dropped, abbreviations squashed); cached
    for claim-sized texts (``CACHED_CHARS``): a reference claim's text is read for every response
    claim it is compared with."""
    return _cached_lower_words(text) if len(text) <= CACHED_CHARS else scan_lower_words(text)


@lru_cache(maxsize=65536)
def _cached_lower_words(text: str) -> frozenset[str]:
    return scan_lower_words(text)


def scan_lower_words(text: str) -> frozenset[str]:
    text = squash_abbreviations(text)
    return frozenset(_POSSESSIVE.sub("", w.lower()) for w in _NAME_WORD.findall(text))


def entity_present(
    entity: str,
    words: frozenset[str] | set[str],
    stems: list[str],
    names: frozenset[str] = frozenset(),
    *,
    strict: bool = True,
) -> bool:
    """``entity`` is named among ``words`` / ``stems``, or in short: its acronym or initialism
    is one of ``names`` (``name_keys`` of the other text: "the DNC" names the Democratic
    National Committee and the other way round). ``strict`` (the other text names something
    itself): the words that tell the name apart must be stated, not only its designator."""
    key = entity_key(entity)
    if key and key in names:
        return True
    toks = [
        re.sub(r"['’]s?$", "", t.lower()) for t in re.findall(r"[\w'’\-#+]+", squash_abbreviations(entity))
    ]
    toks = [t for t in toks if t]
    if not toks:
        return True
    hit = sum(1 for t in toks if _stated(t, words, stems))
    # codes (OB-17) must match exactly
    if any(re.search(r"\d", t) for t in toks):
        return all(t in words for t in toks if re.search(r"\d", t))
    # the words that tell the name apart, designators ("Bridge", "Bank") left out: one must be
    # stated ("Halvorsen" names the Halvorsen Bridge, "Sandvik fjord" does not), of two the
    # last ("Olsen" names Marit Olsen, "Marit Larsen" does not)
    core = [t for t in toks if t not in name_heads()] or toks
    if strict and len(core) <= 2 and not _stated(core[-1], words, stems):
        return False
    return hit * 2 >= len(toks)


def _stated(t: str, words: frozenset[str] | set[str], stems: list[str]) -> bool:
    return t in words or any(token_match(t, s) for s in stems) or any(t == w.split("-")[0] for w in words)


@lru_cache(maxsize=1)
def name_heads() -> frozenset[str]:
    """Designator words of ``claims/data/name_heads.txt`` ("bridge", "bank", "university"), lower case."""
    return frozenset(w for _, line in data_lines("name_heads.txt") for w in line.split())


_ALIAS_PHRASE = re.compile(r"((?:[\w'’-]+\s+){0,4}[\w'’-]+)\s*\(\s*$")


def alias_stated(text: str, start: int, end: int, words: frozenset[str] | set[str], stems: list[str]) -> bool:
    """The name at ``text[start:end]`` is a short form the claim itself spells out, in
    parentheses after the phrase it stands for ("natural language processing (NLP)",
    "hydrochloric acid (HCl)"), and that phrase's content words are stated among ``words`` /
    ``stems``: the reference names the thing in full, which names it as well as the short form.
    The phrase is the words after the last stopword before the parenthesis, at most five."""
    short = text[start:end]
    if not re.match(r"\s*\)", text[end:]) or not _SHORT_FORM.fullmatch(short):
        return False
    m = _ALIAS_PHRASE.search(text[:start])
    if m is None:
        return False
    phrase = [w.lower() for w in re.findall(r"[\w'’-]+", m.group(1))]
    phrase = phrase[max((i + 1 for i, w in enumerate(phrase) if w in STOPWORDS), default=0) :]
    # the short form stands for the phrase: its initials ("NLP") or its first letter ("HCl")
    initials = "".join(w[0] for w in phrase)
    if not phrase or not (short.lower().startswith(initials) or short[0].lower() == phrase[0][0]):
        return False
    return all(_stated(w, words, stems) for w in phrase)


#: a short form: one word of at most eight letters and digits with two or more capitals
#: ("NLP", "HCl", "CO2"; not "Tim Cook", not "Paris")
_SHORT_FORM = re.compile(r"(?=(?:\w*[A-Z]){2})[A-Za-z0-9]{2,8}")
