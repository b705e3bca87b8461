"""Named entities: capitalised word sequences and codes ("Corvin Group", ``OB-17``, ``Kite
14``, "U.S."), without a leading stopword-like word (``claims/data/entity_stopwords.txt``),
a month or a unit; ``is_weak_entity`` flags a single capitalised word that opens a sentence.
"""

from __future__ import annotations

import re

from claims.facets.vocabulary import ENTITY_STOP, MONTHS, UNITS

_ENTITY_RE = re.compile(
    # a name starts a word, one lower-case letter before its capital included ("iPhone",
    # "eBay", "mRNA"); the N of "20 kN" alone is no name
    r"(?<![\w'’])(?:[a-z](?=[A-Z]))?(?:[A-Z](?:\.[A-Z])+\.?|[A-Z][\w'’\-]*[#+]*\d*|[A-Z]{2,}[\w\-]*)(?:\s+(?:of|de|del|da|van|von|der|di|la|le|the|&)?\s*"
    r"(?:[A-Z]\.(?=\s+[A-Z])|[A-Z][\w'’\-]*[#+]*|\d+[A-Za-z]?(?![A-Za-z\d,.]|[-–]\d))){0,5}"
)


def find_entities(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for m in _ENTITY_RE.finditer(text):
        s, e = m.start(), m.end()
        surface = m.group(0)
        if text[max(0, s - 1) : s] == "°":
            continue  # the F of "100 °F" is a unit
        toks = surface.split()
        # drop leading stopword-like capitalised words ("The", "In", ...)
        while toks and (toks[0].strip("'’") in ENTITY_STOP or toks[0].lower() in MONTHS or toks[0].isdigit()):
            s = text.index(toks[0], s) + len(toks[0])
            toks = toks[1:]
            while s < e and text[s].isspace():
                s += 1
        while toks and toks[-1].lower() in (
            "of",
            "de",
            "the",
            "and",
            "&",
            "van",
            "von",
            "der",
            "la",
            "le",
            "di",
        ):
            toks = toks[:-1]
        if not toks:
            continue
        toks[-1] = re.sub(r"['’]s?$", "", toks[-1])
        surface = " ".join(t for t in toks if t)
        if (
            not surface
            or surface.lower() in UNITS
            or surface.lower().rstrip(".") in MONTHS
            or re.fullmatch(r"\d+", surface)
        ):
            continue
        out.append((surface, s, s + len(surface)))
    return out


def squash_abbreviations(text: str) -> str:
    """``"U.S."`` -> ``"US"``, ``"U.K"`` -> ``"UK"`` (dotted capitals joined), for matching."""
    return re.sub(r"\b((?:[A-Z]\.){1,}[A-Z])\.?", lambda m: m.group(1).replace(".", ""), text)


def is_weak_entity(text: str, entity: tuple[str, int, int]) -> bool:
    """A single capitalised word that opens a sentence ("Half", "Speaks") may be an ordinary
    word: such an entity is not required for support and never swapped, unless spaCy's parse
    tags it a proper noun ("Google acquired ...")."""
    surface, start, _ = entity
    if " " in surface or re.search(r"\d|[#+]|[A-Z].*[A-Z]", surface):
        return False
    before = text[:start].rstrip()
    if not (before == "" or before.endswith((".", "!", "?", ":", ";", "\n", '"', "(", "-", "•", "*"))):
        return False
    return not _tagged_name(text, start)


def _tagged_name(text: str, start: int) -> bool:
    """spaCy tags the word at ``start`` a proper noun ("Google acquired LinkedIn": a name,
    where "Half of the voters" and "Speaks French" are ordinary words)."""
    from claims.parses import parse  # the parser depends on the facets' vocabulary

    doc = parse(text)
    tok = next((t for t in doc or () if t.idx == start), None)
    return tok is not None and tok.pos_ == "PROPN"
