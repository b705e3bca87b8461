"""Character-level Levenshtein scores between a response and its references (seed SDK metric).

Definitions (Levenshtein 1966; the seed SDK's ``levenshtein`` metric):

* ``distance(a, b)`` — the minimum number of single-character insertions, deletions and
  substitutions turning ``a`` into ``b`` (rapidfuzz ``Levenshtein.distance``, unit weights);
* ``normalized_levenshtein_distance = distance / max(len(a), len(b))`` in [0, 1], best 0;
* ``levenshtein_similarity = 1 - normalized_levenshtein_distance`` in [0, 1], best 1.

Both strings empty gives ``None`` for both (zero denominator). The seed SDK page prints
``0.7442`` as the "score" of the shuffled quick-brown-fox pair with both options on: that value
is the normalized *distance* (32 / 43); the similarity it defines is ``0.2558``. We return both.

Several references: the response is compared with each reference on its own and the closest
one (smallest normalized distance) is reported. Comparing against the concatenation would
measure mostly the length difference (a response is usually much shorter than all its
sources together), while the closest reference reduces to the seed's pairwise definition
when there is one reference.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

__all__ = [
    "LevenshteinResult",
    "levenshtein",
    "levenshtein_similarity",
    "normalized_levenshtein_distance",
    "preprocess",
]


@dataclass(frozen=True, slots=True)
class LevenshteinResult:
    """Levenshtein scores of a response against its closest reference.

    ``distance`` is the edit count (int, >= 0); ``length`` the denominator
    ``max(len(a), len(b))`` after preprocessing; ``reference`` the 0-based index of the closest
    reference. All fields are ``None`` when both preprocessed strings are empty.
    """

    distance: int | None
    length: int | None
    normalized_distance: float | None
    similarity: float | None
    reference: int | None


def preprocess(text: str, *, case_insensitive: bool = False, remove_punctuation: bool = False) -> str:
    """Apply the seed SDK's options.

    ``case_insensitive`` lower-cases (``str.casefold``); ``remove_punctuation`` deletes every
    character of a Unicode punctuation category (``P*``: ``.,;:!?'"()-`` and the full-width
    marks ``。！？``) without inserting a space.

    Examples
    --------
    >>> preprocess("The lazy dog.", case_insensitive=True, remove_punctuation=True)
    'the lazy dog'
    """
    if remove_punctuation:
        text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))
    if case_insensitive:
        text = text.casefold()
    return text


def _pair(a: str, b: str) -> tuple[int, int] | None:
    length = max(len(a), len(b))
    if length == 0:
        return None
    return int(Levenshtein.distance(a, b)), length


def levenshtein(
    response: str,
    references: str | Sequence[str],
    *,
    case_insensitive: bool = False,
    remove_punctuation: bool = False,
) -> LevenshteinResult:
    """Levenshtein distance and similarity of ``response`` to its closest reference.

    Parameters
    ----------
    response : str
        The text under audit.
    references : str or sequence of str
        One reference text or several (the closest one is reported).
    case_insensitive, remove_punctuation : bool, keyword-only
        Preprocessing options of the seed SDK (see ``preprocess``).

    Returns
    -------
    LevenshteinResult
        ``normalized_distance = distance / max(len)`` in [0, 1] (best 0) and
        ``similarity = 1 - normalized_distance`` in [0, 1] (best 1); ``None`` fields when
        every pair is empty on both sides or there are no references.

    Examples
    --------
    Seed SDK example (both options on): distance 32 over 43 characters.

    >>> r = levenshtein("The dog lazy the over jumps fox brown quick.",
    ...                 ["The quick brown fox jumps over the lazy dog."],
    ...                 case_insensitive=True, remove_punctuation=True)
    >>> (r.distance, r.length, round(r.normalized_distance, 4), round(r.similarity, 4))
    (32, 43, 0.7442, 0.2558)
    """
    refs = [references] if isinstance(references, str) else list(references)
    a = preprocess(response, case_insensitive=case_insensitive, remove_punctuation=remove_punctuation)
    best: tuple[float, int, int, int] | None = None
    for k, ref in enumerate(refs):
        b = preprocess(ref, case_insensitive=case_insensitive, remove_punctuation=remove_punctuation)
        pair = _pair(a, b)
        if pair is None:
            continue
        dist, length = pair
        norm = dist / length
        if best is None or norm < best[0]:
            best = (norm, dist, length, k)
    if best is None:
        return LevenshteinResult(None, None, None, None, None)
    norm, dist, length, k = best
    norm = min(1.0, max(0.0, norm))
    return LevenshteinResult(dist, length, norm, 1.0 - norm, k)


def normalized_levenshtein_distance(
    response: str,
    references: str | Sequence[str],
    *,
    case_insensitive: bool = False,
    remove_punctuation: bool = False,
) -> float | None:
    """``distance / max(len)`` to the closest reference, in [0, 1], best 0; ``None`` if undefined.

    >>> normalized_levenshtein_distance("kitten", "sitting")  # 3 edits / 7 characters
    0.42857142857142855
    """
    return levenshtein(
        response, references, case_insensitive=case_insensitive, remove_punctuation=remove_punctuation
    ).normalized_distance


def levenshtein_similarity(
    response: str,
    references: str | Sequence[str],
    *,
    case_insensitive: bool = False,
    remove_punctuation: bool = False,
) -> float | None:
    """``1 - distance / max(len)`` to the closest reference, in [0, 1], best 1; ``None`` if undefined.

    >>> round(levenshtein_similarity("kitten", "sitting"), 4)  # 1 - 3/7
    0.5714
    """
    return levenshtein(
        response, references, case_insensitive=case_insensitive, remove_punctuation=remove_punctuation
    ).similarity
