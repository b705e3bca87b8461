"""Identifiers a claim states: web addresses, DOIs, arXiv numbers and e-mail addresses.

An identifier names one thing exactly, as a number does: "https://arxiv.org/abs/2012.15730" and
"https://arxiv.org/abs/2302.13971" read alike (cosine 0.98 with all-MiniLM-L6-v2), and the content
words leave their digits out, so neither the embedding nor the word checks tell them apart.
A cited address that the evidence does not give is the fabricated citation that LLM answers are
known for (Agrawal et al. 2024, "Do Language Models Know When They're Hallucinating References?").

``identifiers`` finds them; ``same_identifier`` compares two as the resource they name, and
``mentioned`` finds one in a text that may write it in another form ("tessel.no" for
"https://tessel.no", "arXiv:2302.13971" for "https://arxiv.org/abs/2302.13971").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

__all__ = ["Identifier", "identifiers", "mentioned", "same_identifier"]

#: a character of an address: not a space, quote, bracket or Markdown emphasis
_CHAR = r"[^\s<>\"'`*()\[\]{}“”‘’…]"
#: an address's characters, with balanced parentheses ("wiki/Mercury_(planet)"; the ")" that
#: closes a Markdown link "[text](https://...)" is not the address's)
_RUN = rf"(?:{_CHAR}|\({_CHAR}*\))"
#: top-level domains read in an address written without a scheme or "www." ("arxiv.org/abs/..."):
#: generic ones only, so that "Node.js/Express" or "St.Louis/Kansas" is no address
_GENERIC_TLDS = "com|org|net|edu|gov|mil|int|info|io|ai|dev|app"
_IDENTIFIER = re.compile(
    # a web address with a scheme or "www."
    rf"(?:\b(?:https?|ftp)://|\bwww\.){_RUN}+"
    # a host with a generic top-level domain and a path
    rf"|(?<![@\w.-])(?:[a-z0-9-]+\.)+(?:{_GENERIC_TLDS})/{_RUN}*"
    # a DOI: "10." with a 4-9 digit registrant, a suffix with a digit ("10.2500/kWh" is a price)
    rf"|\b10\.\d{{4,9}}/(?=\S*\d){_RUN}+"
    # an arXiv number ("arXiv:2302.13971", "arXiv 1706.03762v2")
    r"|\barxiv:?\s?\d{4}\.\d{4,5}(?:v\d+)?"
    # an e-mail address, its domain ending in letters ("react@18.2.0" is a version); it starts
    # where its run of name characters starts (tried at every word boundary inside a long run,
    # the match took time quadratic in the run's length)
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b",
    re.IGNORECASE,
)
#: what ends the sentence around an address, not the address
_TRAILING = ".,;:!?_~"


class Identifier(NamedTuple):
    """An identifier of a text: its surface and its character span ``[start, end)``."""

    text: str
    start: int
    end: int


def identifiers(text: str) -> list[Identifier]:
    """The web addresses, DOIs, arXiv numbers and e-mail addresses of ``text``, in order, each
    without the sentence's punctuation or Markdown around it ("... is **https://example.org/a**."
    -> "https://example.org/a")."""
    return list(_identifiers(text))


@lru_cache(maxsize=4096)
def _identifiers(text: str) -> tuple[Identifier, ...]:
    """``identifiers``, cached: a reference text is searched for every address of every claim."""
    low = text.lower()
    if "/" not in text and "@" not in text and "www." not in low and "arxiv" not in low:
        return ()  # every address form holds one of these (most texts none)
    out = []
    for m in _IDENTIFIER.finditer(text):
        surface = m.group(0).rstrip(_TRAILING)
        if surface:
            out.append(Identifier(surface, m.start(), m.start() + len(surface)))
    return tuple(out)


def _key(identifier: str) -> str:
    """The form in which two spellings of one resource compare equal: the scheme, "www.", a
    default port, a trailing slash, a "#fragment" and a ".git" ending left out, the host (not the
    path, which may be case-sensitive) in lower case; an arXiv address, its DOI (DataCite prefix
    10.48550) and its number all read "arxiv:<number>" without a version."""
    key = re.sub(r"^(?:(?:https?|ftp)://)?(?:www\.)?", "", identifier.strip(), flags=re.I)
    key = key.split("#", 1)[0]
    host, slash, path = key.partition("/")
    host = re.sub(r":(?:80|443)$", "", host.lower())
    key = (host + slash + path).rstrip("/")
    key = re.sub(r"\.git$", "", key)
    key = re.sub(r"^(?:dx\.)?doi\.org/", "", key, flags=re.I)
    key = re.sub(r"^10\.48550/arxiv\.", "arxiv:", key, flags=re.I)
    key = re.sub(r"^arxiv\.org/(?:abs|pdf)/", "arxiv:", key)
    key = re.sub(r"^arxiv:?\s?", "arxiv:", key, flags=re.I)
    if key.startswith("arxiv:"):
        key = re.sub(r"v\d+$", "", re.sub(r"\.pdf$", "", key)).lower()
    elif key.startswith("10."):
        key = key.lower()  # DOIs are case-insensitive (DOI Handbook, 2.4)
    elif "@" in key:
        key = key.lower()
    return key


def same_identifier(a: str, b: str) -> bool:
    """``a`` and ``b`` name the same resource ("https://www.Example.org/a/" and "example.org/a";
    "arxiv.org/pdf/2302.13971v1.pdf" and "https://arxiv.org/abs/2302.13971")."""
    return _key(a) == _key(b)


def mentioned(identifier: str, text: str) -> bool:
    """``text`` names the resource of ``identifier``: one of its identifiers is the same
    (``same_identifier``), or it writes the address without its scheme ("tessel.no" for
    "https://tessel.no") or an arXiv number bare ("(2302.13971v2)"); a longer host, path or
    e-mail address that contains it ("example.org.uk", "example.org/a-b", "press@example.org")
    does not."""
    if any(same_identifier(identifier, o.text) for o in _identifiers(text)):
        return True
    key = _key(identifier)
    arxiv = key.startswith("arxiv:")
    bare = re.escape(key.removeprefix("arxiv:")) + (r"(?:v\d+)?" if arxiv else "")
    return bool(key) and re.search(rf"(?<![\w.@/-]){bare}(?![\w/@-]|\.\w)", text, re.I) is not None
