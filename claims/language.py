"""Language of a text, offline: which decomposition a text gets.

The identifier is py3langid 0.4.0 (BSD-3-Clause; Lui & Baldwin 2012, "langid.py: an
off-the-shelf language identification tool"), a naive Bayes model over byte n-grams whose
weights ship inside the package (no download). Its probabilities on one short sentence are
low and spread (``"The Pro plan costs $25 per month."`` -> ``en`` 0.51), so the decision
is guarded:

1. a text without two words of three letters is English (nothing to tell apart; the parser
   copes with "OK." or "$25");
2. the identifier is limited to ``LANGUAGES`` (the languages of the EU, the largest of the
   world's written languages, and those pysbd segments), which sharpens it on short text;
3. a Latin-script text is English unless the identifier says another language with
   probability >= ``MIN_PROBABILITY`` (>= ``MIN_PROBABILITY_NO_FUNCTION_WORDS`` when no word
   is an English function word: "the", "is", "was", ...) *and* fewer than
   ``MAX_ENGLISH_FUNCTION_SHARE`` of its words are English function words;
4. a text mostly in another script (Han, kana, Hangul, Cyrillic, Arabic, ...) is never
   English: the identifier names it (``und`` if it cannot).

Deterministic: the model is fixed and the decision has no randomness.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache
from typing import Any

from claims.types import ModelUnavailable, passing_fault

__all__ = [
    "LANGUAGES",
    "MIN_PROBABILITY",
    "MIN_PROBABILITY_NO_FUNCTION_WORDS",
    "MAX_ENGLISH_FUNCTION_SHARE",
    "detect_language",
    "is_english",
]

#: ISO 639-1 codes the identifier chooses among.
LANGUAGES: tuple[str, ...] = tuple(
    [
        "en",
        "de",
        "fr",
        "es",
        "it",
        "pt",
        "nl",
        "sv",
        "da",
        "no",
        "fi",
        "pl",
        "cs",
        "sk",
        "hu",
        "ro",
        "hr",
        "sl",
        "et",
        "lv",
        "lt",
        "el",
        "bg",
        "ru",
        "uk",
        "tr",
        "ar",
        "he",
        "fa",
        "hi",
        "bn",
        "th",
        "vi",
        "id",
        "ms",
        "zh",
        "ja",
        "ko",
        "ca",
        "eu",
        "gl",
        "is",
        "ga",
    ]
)
#: Least identifier probability (0-1) for calling a Latin-script text non-English.
MIN_PROBABILITY = 0.6
#: Least probability when the text has no English function word at all.
MIN_PROBABILITY_NO_FUNCTION_WORDS = 0.4
#: Share of English function words (0-1) at or above which a Latin-script text is English.
MAX_ENGLISH_FUNCTION_SHARE = 0.2

_WORD = re.compile(r"[^\W\d_]{3,}")
_TOKEN = re.compile(r"[^\W\d_]+")
_ENGLISH_FUNCTION = frozenset(
    [
        "the",
        "is",
        "was",
        "are",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "of",
        "and",
        "with",
        "which",
        "that",
        "this",
        "these",
        "those",
        "it",
        "its",
        "for",
        "by",
        "from",
        "on",
        "to",
        "not",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "should",
        "who",
        "whom",
        "whose",
        "their",
        "there",
    ]
)

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _identifier() -> Any:
    """py3langid's identifier, restricted to ``LANGUAGES``; loaded once per process (a failed
    load is not kept: the next call tries again).

    Raises ``ModelUnavailable`` (cause chained) when the package or its model file cannot be
    loaded or lacks one of ``LANGUAGES``: a broken install, which the decomposition must not
    take for odd input; a memory error or a task's time limit as they are
    (``claims.types.passing_fault``)."""
    try:
        import py3langid.langid as langid

        ident = langid.LanguageIdentifier.from_modelpath(
            langid.MODEL_DIR / langid.MODEL_FILE, norm_probs=True
        )
        ident.set_languages(list(LANGUAGES))
    except Exception as exc:  # the packaged file is fixed: any other error is the install's
        if passing_fault(exc):
            raise
        raise ModelUnavailable(f"py3langid's language model could not be loaded: {exc!r}") from exc
    return ident


def _latin_share(text: str) -> float:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 1.0
    latin = sum("LATIN" in unicodedata.name(ch, "") for ch in letters)
    return latin / len(letters)


def _english_function_share(text: str) -> float:
    words = [w.lower() for w in _TOKEN.findall(text)]
    if not words:
        return 0.0
    return sum(w in _ENGLISH_FUNCTION for w in words) / len(words)


@lru_cache(maxsize=4096)
def detect_language(text: str) -> str:
    """ISO 639-1 code of ``text``'s language (``"en"``, ``"de"``, ``"zh"``, ...).

    Parameters
    ----------
    text : str
        Any text; markup does no harm (it has no letters of its own).

    Returns
    -------
    str
        One of ``LANGUAGES``, or ``"und"`` for a text in a non-Latin script the identifier
        cannot place. Short Latin-script text and uncertain calls give ``"en"`` (see the
        module notes for the rule).

    Examples
    --------
    >>> detect_language("Die Brücke wurde 1998 eröffnet.")
    'de'
    >>> detect_language("The Pro plan costs $25 per month.")
    'en'
    """
    latin = _latin_share(text)
    if latin >= 0.5 and len(_WORD.findall(text)) < 2:
        return "en"
    with _lock:
        lang, prob = _identifier().classify(text)
    lang = str(lang)
    if latin < 0.5:
        return lang if lang != "en" else "und"
    share = _english_function_share(text)
    if lang == "en" or share >= MAX_ENGLISH_FUNCTION_SHARE:
        return "en"
    if prob >= MIN_PROBABILITY or (prob >= MIN_PROBABILITY_NO_FUNCTION_WORDS and share == 0):
        return lang
    return "en"


def is_english(text: str) -> bool:
    """True when :func:`detect_language` calls ``text`` English."""
    return detect_language(text) == "en"
