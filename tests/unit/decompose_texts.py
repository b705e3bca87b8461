"""Helpers for the decomposition tests of tests/unit/test_decompose_*.py: the texts of the claims
``claims.decompose.decompose`` gives for a text, all of them or those of one kind."""

from __future__ import annotations

from claims.decompose import decompose
from claims.types import ClaimKind


def texts(text: str) -> list[str]:
    """The texts of every claim of ``text``, in order."""
    return [c.text for c in decompose(text)]


def material(text: str) -> list[str]:
    """The texts of the material claims of ``text`` (``ClaimKind.MATERIAL``), in order."""
    return [c.text for c in decompose(text) if c.kind is ClaimKind.MATERIAL]


def outside(text: str) -> list[str]:
    """The texts of the claims of ``text`` outside scope (``ClaimKind.OUTSIDE_SCOPE``), in order."""
    return [c.text for c in decompose(text) if c.kind is ClaimKind.OUTSIDE_SCOPE]
