"""A fronted adverbial clause ("Before the canal was dug, the town traded by road") that the small
parser reads as the sentence's main clause, with the real subject as its apposition or object and
the real main verb as a participle on it (``claims.parse_repairs``): the decomposition must give
the sentence's own claims, never a claim that joins the clause's subject to the main verb ("The
canal was traded by road.") or equates the two subjects ("The canal is the town.").

Expected claims: the main clause with its time clause, and the clause's event on its own, as
the decomposition gives for the sentences the parser reads right (the last rows; FActScore, Min et
al. 2023: each claim one piece of information that stands alone). The sentences are written for
this test.
"""

from __future__ import annotations

import pytest

from claims.decompose import decompose


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # misread before the repair: "The canal was traded by road.", "The canal is the town."
        (
            "Before the canal was dug, the town traded by road.",
            ["Before the canal was dug, the town traded by road.", "The canal was dug."],
        ),
        # misread: "The war was traded by sea.", "The war is the port."
        (
            "Long before the war began, the port traded by sea.",
            ["Long before the war began, the port traded by sea.", "The war began."],
        ),
        # misread: "The railway was traded by river.", "The railway is the village."
        (
            "Before the railway came, the village traded by river.",
            ["Before the railway came, the village traded by river.", "The railway came."],
        ),
        # the object reading ("opened ... the town"): "Before the bridge opened." alone
        (
            "Before the bridge opened, the town traded by road.",
            ["Before the bridge opened, the town traded by road.", "The bridge opened."],
        ),
        # read right by the parser, unchanged by the repair
        (
            "After the dam was finished, the valley flooded.",
            ["After the dam was finished, the valley flooded.", "The dam was finished."],
        ),
        (
            "Once the vote was counted, the mayor resigned.",
            ["Once the vote was counted, the mayor resigned.", "The vote was counted."],
        ),
        # no subordinating conjunction: a prepositional phrase, nothing to mend
        ("Before the storm, the boats traded by sea.", ["Before the storm, the boats traded by sea."]),
    ],
)
def test_a_fronted_clause_keeps_its_own_subject(text: str, claims: list[str]) -> None:
    assert [c.text for c in decompose(text)] == claims


def test_the_clause_subject_is_never_made_the_main_subject() -> None:
    got = [c.text for c in decompose("Before the tunnel was bored, the island traded by ferry.")]
    assert not any(t.startswith("The tunnel was traded") or t == "The tunnel is the island." for t in got), (
        got
    )
