"""Identifiers a claim states: web addresses, DOIs and e-mail addresses.

An identifier names one thing exactly, as a number does: "https://arxiv.org/abs/2012.15730" and
"https://arxiv.org/abs/2302.13971" read alike (cosine 0.98 with all-MiniLM-L6-v2), and the content
words leave their digits out, so neither the embedding nor the word checks tell them apart.
A cited address that the evidence does not give is the fabricated citation that LLM answers are
known for (Agrawal et al. 2024, "Do Language Models Know When They're Hallucinating References?").

``identifiers`` finds them; ``same_identifier`` compares two in the form that names the same
resource (case of the host, scheme, "www.", a trailing slash, ".pdf" and a version suffix of an
arXiv address left out; an arXiv DOI is its arXiv address).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Identifier", "identifiers", "same_identifier"]

#: a web address (with a scheme, "www.", or a host and a path: "arxiv.org/abs/2302.13971"), a DOI
#: ("10.1000/xyz123") or an e-mail address; the address runs to the next space, quote or bracket
_IDENTIFIER = re.compile(
    r"(?:\b(?:https?|ftp)://|\bwww\.|(?<![@\w.])(?:[a-z0-9-]+\.)+[a-z]{2,}/)[^\s<>\"'()\[\]{}]*"
    r"|\b10\.\d{4,9}/[^\s<>\"'()\[\]{}]+"
    r"|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    re.IGNORECASE,
)
#: punctuation that ends the sentence around an address, not the address
_TRAILING = ".,;:!?"


class Identifier(NamedTuple):
    """An identifier of a text: its surface and its character span ``[start, end)``."""

    text: str
    start: int
    end: int


def identifiers(text: str) -> list[Identifier]:
    """The web addresses, DOIs and e-mail addresses of ``text``, in order, each without the
    sentence's punctuation after it ("... is https://example.org/a." -> "https://example.org/a")."""
    out = []
    for m in _IDENTIFIER.finditer(text):
        surface = m.group(0).rstrip(_TRAILING)
        if surface:
            out.append(Identifier(surface, m.start(), m.start() + len(surface)))
    return out


def _key(identifier: str) -> str:
    """The form in which two spellings of one address compare equal (module docstring)."""
    key = identifier.lower()
    key = re.sub(r"^(?:https?|ftp)://", "", key)
    key = re.sub(r"^www\.", "", key)
    key = re.sub(r"^(?:dx\.)?doi\.org/", "", key)
    key = key.rstrip("/")
    key = re.sub(r"\.pdf$", "", key)
    key = re.sub(r"^arxiv\.org/(?:abs|pdf)/", "arxiv:", key)
    key = re.sub(r"^10\.48550/arxiv\.", "arxiv:", key)  # arXiv's DOI (DataCite prefix 10.48550)
    return re.sub(r"^(arxiv:[\d.]+)v\d+$", r"\1", key)


def same_identifier(a: str, b: str) -> bool:
    """``a`` and ``b`` name the same resource ("https://www.Example.org/a/" and
    "example.org/a"; "arxiv.org/pdf/2302.13971v1.pdf" and "https://arxiv.org/abs/2302.13971")."""
    return _key(a) == _key(b)
