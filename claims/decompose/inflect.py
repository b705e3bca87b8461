"""Word forms the rewriting needs: the simple past of an ``-ing`` form (irregular verbs from
``claims/data/gerund_past.tsv``), the possessive of a name, the indefinite article of a word,
the singular of a plural noun."""

from __future__ import annotations

import re

from claims.facets.vocabulary import data_lines


def singular_noun(word: str) -> str:
    """The singular of a regular plural noun ("capitals" -> "capital", "cities" -> "city")."""
    if re.search(r"[^aeiou]ies$", word):
        return word[:-3] + "y"
    if re.search(r"(?:ch|sh|ss|x)es$", word):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def indefinite_article(word: str) -> str:
    """ "a" or "an" before ``word``, by its spelling: "an actress", "a university", "an hour"."""
    low = word.lower()
    if low.startswith(_A_BEFORE_VOWEL):
        return "a"
    return "an" if low[:1] in "aeiou" or low.startswith(("hour", "honest", "honou", "heir")) else "a"


#: words spelt with a vowel that sound with a consonant ("a university", "a European")
_A_BEFORE_VOWEL = (
    "univers",
    "unique",
    "unit",
    "union",
    "uniform",
    "use",
    "usual",
    "euro",
    "one",
    "once",
    "ukrain",
)
#: past tense of the irregular verbs that head participial clauses most often
#: (``claims/data/gerund_past.tsv``)
_IRREGULAR_PAST: dict[str, str] = {
    gerund: past for gerund, _, past in (line.partition("\t") for _, line in data_lines("gerund_past.tsv"))
}


def past_tense(gerund: str) -> str:
    """Simple past of an ``-ing`` form ("marking" -> "marked", "stopping" -> "stopped",
    "producing" -> "produced", "studying" -> "studied"); irregular verbs from a table."""
    low = gerund.lower()
    if low in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[low]
    stem = low[:-3] if low.endswith("ing") else low
    if stem.endswith("e"):
        return stem + "d"
    if stem.endswith("y") and len(stem) > 1 and stem[-2] not in "aeiou":
        return stem[:-1] + "ied"
    return stem + "ed"


def possessive_form(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")
