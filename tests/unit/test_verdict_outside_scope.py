"""An outside_scope verdict names why (claims.decompose.outside_scope_reason), not a fixed text."""

from __future__ import annotations

import numpy as np
import pytest

from claims.types import Claim, ClaimKind, ReferenceClaim, Verdict
from claims.verdict import judge


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Is the museum open on Mondays?", "question"),
        ("I could not find that in the documents.", "abstention"),
        ("I'm sorry for any inconvenience.", "abstention"),
    ],
)
def test_reason_names_the_kind(text: str, why: str) -> None:
    ref = ReferenceClaim(0, Claim("The museum is open on Mondays.", 0, 30))
    claim = Claim(text, 0, len(text), kind=ClaimKind.OUTSIDE_SCOPE)
    j = judge([claim], [ref], np.array([[0.5]], np.float32))[0]
    assert j.verdict is Verdict.OUTSIDE_SCOPE
    assert j.reason == f"not a factual claim ({why})"
