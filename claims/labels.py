"""Label-style claims read as sentences: "HQ: Bergen" is "headquartered in Bergen.", "Kestrel
Robotics: Founded: 2005." is "Kestrel Robotics was founded in 2005.".

A list item, a table cell or a JSON value gives a claim of the form ``[subject, ]label: value``
(``claims.blocks``). Its label is an attribute that a reference states as a predicate ("is
headquartered in Oslo"), so the verdict compares attribute and value only once the label is
read as that predicate: the labels and their predicates are ``claims/data/label_predicates.tsv``.
``label_sentence`` gives the sentence (None for any other claim, or an unknown label);
``embedding_text`` is the text a claim is embedded and judged by (the sentence when there is
one), used alike by the in-memory audit, the workers and the verdict, so that the cosine and the
checks see the same statement. The claim's own text and span are unchanged.
"""

from __future__ import annotations

import re
from functools import lru_cache

from claims.facets.vocabulary import data_lines

_LABEL_RE = re.compile(
    r"^(?:(?P<subject>[^:]{1,80}?)\s*(?:,|:)\s+)?(?P<label>[A-Za-z][A-Za-z .'’-]{0,30}?)\s*:\s+"
    r"(?P<value>[^:]{1,120}?)\s*\.?\s*$"
)
_LEADING_VERB = re.compile(r"^(?:is|are|was|were|has|have|had)\s+", re.I)


def _load() -> dict[str, str]:
    out = {}
    for n, line in data_lines("label_predicates.tsv"):
        label, sep, phrase = line.partition("\t")
        if not sep or not phrase.strip():
            raise ValueError(f"claims/data/label_predicates.tsv:{n}: expected label<TAB>phrase")
        out[label.strip().lower()] = phrase.strip()
    return out


LABEL_PREDICATES = _load()


def _phrase(label: str) -> str | None:
    key = label.strip().lower().rstrip(".")
    return LABEL_PREDICATES.get(key) or LABEL_PREDICATES.get(key.rstrip("s"))


def predicate_phrase(label: str) -> str | None:
    """The predicate phrase of ``label`` in ``claims/data/label_predicates.tsv`` ("Architect" ->
    "was designed by", "Population" -> "has {v} inhabitants"); None for a label not listed."""
    return _phrase(label)


def count_synonyms(label: str) -> list[str]:
    """The one-word labels that share the counted-noun phrase ``has {v} <noun>`` of ``label`` in
    ``claims/data/label_predicates.tsv`` ("inhabitants" -> ["population", "inhabitants",
    "residents"]): names of the same counted slot. Empty for a label with no such phrase."""
    phrase = _phrase(label)
    if phrase is None or not re.fullmatch(r"has \{v\} \w+", phrase):
        return []
    return [k for k, v in LABEL_PREDICATES.items() if v == phrase and " " not in k]


def label_parts(text: str) -> tuple[str, str, str] | None:
    """``(subject, label, value)`` of a label-style claim ("Kestrel Robotics, founded: 2005." ->
    ``("Kestrel Robotics", "founded", "2005")``; ``subject`` is ``""`` for "Population: 8,400.");
    None for any other text."""
    m = _LABEL_RE.match(text.strip())
    if m is None:
        return None
    return (m.group("subject") or "").strip(), m.group("label").strip(), m.group("value").strip()


@lru_cache(maxsize=65536)
def label_sentence(text: str) -> str | None:
    """The sentence a label-style claim states (module docstring); None for any other text."""
    m = _LABEL_RE.match(text.strip())
    if m is None:
        return None
    phrase = _phrase(m.group("label"))
    if phrase is None:
        return None
    value = m.group("value").strip()
    body = phrase.replace("{v}", value) if "{v}" in phrase else f"{phrase} {value}"
    subject = (m.group("subject") or "").strip()
    if subject:
        return f"{subject} {body}."
    # no subject: the phrase alone, in lower case (a capital "Founded" would read as a name)
    return f"{_LEADING_VERB.sub('', body)}."


def embedding_text(text: str) -> str:
    """The text a claim is embedded and judged by: its label sentence, else itself."""
    return label_sentence(text) or text
