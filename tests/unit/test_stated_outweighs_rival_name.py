"""A reference claim that states the claim outweighs a rival name in another one's slot.

The kind: the value-slot check finds a reference claim that fills a name's slot of the claim
with another name ("Tromsø lies north of Oslo" for "Oslo lies north of Rome"), while another
reference claim states the claim itself, every name of it in place, in other words ("Oslo is
located north of Rome"). The slot evidently holds the claim's name too: the claim is supported,
not contradicted. Without such a statement the rival name still contradicts. Rows written for
this file (invented people, real places).
"""

from __future__ import annotations

import pytest

from claims.types import Verdict
from tests.unit.verdict_rows import judge_claim

ROWS = [
    # (response, references, allowed verdicts)
    (
        "Lyon lies south of Paris.",
        ["Marseille lies south of Lyon.", "Lyon is located south of Paris."],
        {Verdict.SUPPORTED},
    ),
    (
        "Eva Strand trained Mats Ek.",
        ["Lise Dahl trained Eva Strand.", "Eva Strand was the trainer of Mats Ek."],
        {Verdict.SUPPORTED},
    ),
    (
        "Ivar Lund designed the bridge.",
        ["The bridge was designed by Nils Lund.", "Ivar Lund designed many houses."],
        {Verdict.CONTRADICTED, Verdict.UNSUPPORTED},
    ),
    (
        "Eva Strand trained Mats Ek.",
        ["Eva Strand trained Lise Dahl.", "Mats Ek won the title."],
        {Verdict.CONTRADICTED, Verdict.UNSUPPORTED},
    ),
]


@pytest.mark.parametrize(
    ("response", "references", "allowed"), ROWS, ids=[r[0] + " / " + r[1][0] for r in ROWS]
)
def test_stated_claim_outweighs_rival(response: str, references: list[str], allowed: set[Verdict]) -> None:
    got, reason = judge_claim(response, references)
    assert got in allowed, f"{response!r} vs {references!r} -> {got.value} ({reason})"
