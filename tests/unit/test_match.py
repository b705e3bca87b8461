"""Cosine matrices, best matches and the one-to-one alignment (claims.match)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from claims.match import DEFAULT_THRESHOLD, align, best_matches, cosine_matrix


def test_cosine_known_values() -> None:
    # cos(0°) = 1, cos(90°) = 0, cos(180°) = -1, cos(45°) = 1/sqrt(2)
    a = np.array([[1.0, 0.0]])
    b = np.array([[2.0, 0.0], [0.0, 3.0], [-1.0, 0.0], [1.0, 1.0]])
    np.testing.assert_allclose(cosine_matrix(a, b), [[1.0, 0.0, -1.0, 1 / np.sqrt(2)]], atol=1e-6)


def test_cosine_shapes_and_dtype() -> None:
    sim = cosine_matrix(np.ones((3, 5)), np.ones((2, 5)))
    assert sim.shape == (3, 2) and sim.dtype == np.float32
    assert cosine_matrix(np.ones((0, 5)), np.ones((2, 5))).shape == (0, 2)
    assert cosine_matrix(np.ones((2, 5)), np.ones((0, 5))).shape == (2, 0)


def test_zero_vector_gives_zero_not_nan() -> None:
    sim = cosine_matrix(np.zeros((1, 3)), np.ones((1, 3)))
    assert sim.tolist() == [[0.0]]


@pytest.mark.parametrize(("a", "b"), [(np.ones((2, 3)), np.ones((2, 4))), (np.ones(3), np.ones((2, 3)))])
def test_cosine_rejects_bad_shapes(a: np.ndarray, b: np.ndarray) -> None:
    with pytest.raises(ValueError):
        cosine_matrix(a, b)


finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False, width=32)


@settings(max_examples=50, deadline=None)
@given(arrays(np.float32, (4, 6), elements=finite), arrays(np.float32, (3, 6), elements=finite))
def test_cosine_properties(a: np.ndarray, b: np.ndarray) -> None:
    sim = cosine_matrix(a, b)
    assert np.all(sim >= -1.0) and np.all(sim <= 1.0)
    np.testing.assert_allclose(sim, cosine_matrix(b, a).T, atol=1e-5)  # symmetric
    np.testing.assert_allclose(cosine_matrix(a * 3.0, b), sim, atol=1e-4)  # scale-invariant


def test_align_is_one_to_one_and_maximal() -> None:
    # greedy would take (0, 0) = 0.9 and leave 0.1 for row 1; the optimum is 0.8 + 0.8 = 1.6
    sim = np.array([[0.9, 0.8], [0.8, 0.1]])
    assert align(sim) == [(0, 1), (1, 0)]


def test_align_rectangular_and_threshold() -> None:
    sim = np.array([[0.2, 0.95, 0.1], [0.3, 0.2, 0.4]])
    assert align(sim) == [(0, 1), (1, 2)]
    assert align(sim, min_similarity=0.5) == [(0, 1)]
    assert align(np.zeros((0, 3))) == []


def test_best_matches() -> None:
    sim = np.array([[0.2, 0.95], [0.7, 0.1]], dtype=np.float32)
    assert [(j, round(s, 2)) for j, s in best_matches(sim)] == [(1, 0.95), (0, 0.7)]
    assert best_matches(np.zeros((2, 0))) == [(-1, -1.0), (-1, -1.0)]


def test_default_threshold_in_range() -> None:
    assert 0.0 < DEFAULT_THRESHOLD < 1.0


@pytest.mark.parametrize("value", [1.4364241e-22, 3e-30, 1e30])
def test_cosine_of_tiny_and_huge_rows_is_exact(value: float) -> None:
    # found by hypothesis (2026-11-30): rows of 1.4e-22 have subnormal float32 squares, and their
    # cosine with a row of ones came out 0.9908 (0.9982 for three times the row); rows of 1e30 overflow
    a = np.full((2, 6), value, dtype=np.float32)
    b = np.ones((1, 6), dtype=np.float32)
    assert cosine_matrix(a, b) == pytest.approx(np.ones((2, 1)), abs=1e-6)
    assert cosine_matrix(a * np.float32(3.0), -b) == pytest.approx(-np.ones((2, 1)), abs=1e-6)
