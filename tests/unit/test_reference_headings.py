"""A reference's heading that states something is evidence; a response's heading is context.

Web pages cut into references carry facts in their headings ("## AIR TRAINING COMMAND (HQ:
Hamamatsu, Shizuoka)", the kind of WiCE's evidence lines). In a reference
(``decompose(text, role=Role.REFERENCE)``, as ``claims.audit.audit_texts`` reads every reference) a
heading that states something (``claims.blocks.context.heading_states``: a parenthetical, a
"Label: value", a sentence) is a claim with its span, as well as context for the blocks under
it; a title ("Ambleston War Memorial") or a section name ("History") stays context. In a
response every heading stays context (docs/DECOMPOSITION.md, "Markdown and data"). The texts
are written for this test; the embeddings are the real all-MiniLM-L6-v2, as in an audit.
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.blocks.context import heading_states
from claims.decompose import decompose, decompose_many
from claims.embed import default_embedder
from claims.types import Role, Verdict

#: a page whose only statement of the headquarters is its heading
PAGE = (
    "## AIR TRAINING COMMAND (HQ: Hamamatsu, Shizuoka)\n\n"
    "The command trains the pilots of the air force on T-4 jets.\n"
)
HEADING = "AIR TRAINING COMMAND (HQ: Hamamatsu, Shizuoka)"


@pytest.mark.parametrize(
    ("heading", "states"),
    [
        ("AIR TRAINING COMMAND (HQ: Hamamatsu, Shizuoka)", True),  # a parenthetical
        ("Founded: 1998", True),  # a "Label: value"
        ("The ferry was moved to Halden in 2016.", True),  # a sentence, by its stop
        ("A move to Naha in 2016 ended the squadron's stay", True),  # a sentence, by its length
        ("Ambleston War Memorial", False),  # a title
        ("History", False),  # a section name
        ("Key facts", False),  # an announcement
        ("Here is what the sources say about the Skarvik ferry:", False),  # a lead-in
        ("How long is the crossing?", False),  # a question
    ],
)
def test_a_heading_states_something_or_names_a_topic(heading: str, states: bool) -> None:
    assert heading_states(heading) is states


def test_a_reference_heading_that_states_something_is_a_claim_with_its_span() -> None:
    claims = decompose(PAGE, role=Role.REFERENCE)
    first = claims[0]
    assert first.text == HEADING + "."
    assert PAGE[first.start : first.end] == HEADING  # the span leaves out the "## " marks
    assert [c.text for c in claims[1:]] == ["The command trains the pilots of the air force on T-4 jets."]


def test_a_response_heading_stays_context() -> None:
    assert [c.text for c in decompose(PAGE)] == [
        "The command trains the pilots of the air force on T-4 jets."
    ]


def test_a_reference_heading_that_names_a_topic_stays_context() -> None:
    page = (
        "# Ambleston War Memorial\n\nThe memorial lists 32 names.\n\n## History\n\nIt was unveiled in 1921."
    )
    assert [c.text for c in decompose(page, role=Role.REFERENCE)] == [c.text for c in decompose(page)]


def test_both_readings_of_one_text_are_cached_apart() -> None:
    # one batch with the same text read both ways gives each its own claims
    response, reference = decompose_many([PAGE, PAGE], roles=[Role.RESPONSE, Role.REFERENCE])
    assert len(reference) == len(response) + 1
    assert decompose_many([PAGE, PAGE], roles=[Role.REFERENCE, Role.RESPONSE]) == [reference, response]
    with pytest.raises(ValueError, match="1 roles for 2 texts"):
        decompose_many([PAGE, PAGE], roles=[Role.REFERENCE])


def test_a_fact_only_in_a_reference_heading_supports_a_response_claim() -> None:
    claim = "The Air Training Command is headquartered in Hamamatsu."
    report = audit_texts(claim, [PAGE], embedder=default_embedder())
    (judgement,) = report.judgements
    assert judgement.verdict in (Verdict.SUPPORTED, Verdict.INFERRED), judgement.reason
    cited = judgement.evidence[0]
    assert (cited.reference, PAGE[cited.start : cited.end]) == (0, HEADING)


def test_a_response_heading_is_not_judged() -> None:
    report = audit_texts(PAGE, ["The command trains the pilots of the air force on T-4 jets."])
    assert [report.response_claims[j.response_index].text for j in report.judgements] == [
        "The command trains the pilots of the air force on T-4 jets."
    ]
