"""Two people of one surname in one role, however the two texts word the relation.

The kind: a claim names one person ("Ivar Lund designed the bridge") and the reference names
another person of the same surname in the same role, but words the relation another way: a
passive ("The bridge was designed by Nils Lund"), an agent noun with a possessor in apposition
("The bridge's designer, Nils Lund, ..."), or an agent noun with "of" in apposition ("Nils Lund,
the designer of the bridge, ..."). The passive's agent and the agent noun's apposition fill the
active's subject slot, so the two names are compared: the claim is never supported. Faithful
rewordings (the same person, or a nickname of the list ``claims/data/nicknames.tsv``) stay
supported. Rows written for this file (invented names, buildings and works).
"""

from __future__ import annotations

import pytest

from claims.types import Verdict
from tests.unit.verdict_rows import judge_claim

NOT_SUPPORTED = {Verdict.CONTRADICTED, Verdict.UNSUPPORTED}

ROWS = [
    # (response, reference, allowed verdicts)
    ("Ivar Lund designed the bridge.", "The bridge was designed by Nils Lund.", NOT_SUPPORTED),
    ("The bridge was designed by Ivar Lund.", "Nils Lund designed the bridge.", NOT_SUPPORTED),
    ("Sara Holm composed the anthem.", "The anthem was composed by Lena Holm.", NOT_SUPPORTED),
    ("Ivar Lund designed the bridge.", "The bridge's designer, Nils Lund, died in 1950.", NOT_SUPPORTED),
    (
        "Sara Holm composed the anthem.",
        "Lena Holm, the composer of the anthem, lived in Bergen.",
        NOT_SUPPORTED,
    ),
    ("Ivar Lund designed the bridge.", "The bridge was designed by Ivar Lund.", {Verdict.SUPPORTED}),
    ("The anthem was composed by Sara Holm.", "Sara Holm composed the anthem.", {Verdict.SUPPORTED}),
    ("Bob Lund designed the bridge.", "The bridge was designed by Robert Lund.", {Verdict.SUPPORTED}),
]


@pytest.mark.parametrize(("response", "reference", "allowed"), ROWS, ids=[r[0] + " / " + r[1] for r in ROWS])
def test_surname_in_role(response: str, reference: str, allowed: set[Verdict]) -> None:
    got, reason = judge_claim(response, [reference])
    assert got in allowed, f"{response!r} vs {reference!r} -> {got.value} ({reason})"
