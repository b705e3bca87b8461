"""Levenshtein scores (seed SDK metric) — every expected number says where it comes from."""

from __future__ import annotations

import pytest

from claims.levenshtein import (
    levenshtein,
    levenshtein_similarity,
    normalized_levenshtein_distance,
    preprocess,
)

FOX = "The quick brown fox jumps over the lazy dog."
SHUFFLED = "The dog lazy the over jumps fox brown quick."


@pytest.mark.parametrize(
    ("a", "b", "opts", "distance", "length"),
    [
        # seed SDK page: both options on, distance 32 over 43 characters ("." removed)
        (SHUFFLED, FOX, {"case_insensitive": True, "remove_punctuation": True}, 32, 43),
        # classic textbook pair: kitten -> sitting is 3 edits (k->s, e->i, +g), max length 7
        ("kitten", "sitting", {}, 3, 7),
        # case only differs: 1 substitution without the option, 0 with it
        ("Dog", "dog", {}, 1, 3),
        ("Dog", "dog", {"case_insensitive": True}, 0, 3),
        # punctuation removed without inserting a space: "a,b" -> "ab" equals "ab"
        ("a,b", "ab", {"remove_punctuation": True}, 0, 2),
        # one side empty: distance = length of the other
        ("", "abc", {}, 3, 3),
    ],
)
def test_distance_table(a: str, b: str, opts: dict[str, bool], distance: int, length: int) -> None:
    r = levenshtein(a, [b], **opts)
    assert (r.distance, r.length) == (distance, length)
    assert r.normalized_distance == pytest.approx(distance / length)
    assert r.similarity == pytest.approx(1 - distance / length)


def test_seed_value_is_the_normalized_distance() -> None:
    # the seed SDK prints 0.7442 as its "score": that is 32/43, the distance; similarity 11/43
    opts = {"case_insensitive": True, "remove_punctuation": True}
    assert round(normalized_levenshtein_distance(SHUFFLED, FOX, **opts) or -1, 4) == 0.7442
    assert round(levenshtein_similarity(SHUFFLED, FOX, **opts) or -1, 4) == 0.2558


def test_both_empty_is_none_not_nan() -> None:
    r = levenshtein("", [""])
    assert r == levenshtein("", [])
    assert r.similarity is None and r.normalized_distance is None and r.distance is None


def test_closest_reference_is_reported() -> None:
    # "abc" vs "xyz" is 3/3; vs "abd" 1/3: the closest (index 1) wins
    r = levenshtein("abc", ["xyz", "abd"])
    assert r.reference == 1
    assert r.distance == 1


def test_preprocess_full_width_punctuation() -> None:
    # 。 and ！ are Unicode punctuation (category Po)
    assert preprocess("总部位于苏州！。", remove_punctuation=True) == "总部位于苏州"
