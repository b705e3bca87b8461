"""A key-value answer that names no subject (a single JSON or YAML object with no name field, a
bold-label or "Label: value" list with no heading or lead-in) is judged by predicate and value
(``claims.verdict.key_values``): a reference claim that states the label's predicate with the
same value supports it, one with another point value contradicts it, as the same facts in prose
with their subject are judged.

The fact sets are written for this test (none of them is a shared or dev case). Expected
verdicts follow claims.verdict's definitions: the value the reference states in the label's
slot is the same (``supported``) or another point value (``contradicted``). The embeddings are
the real all-MiniLM-L6-v2 (``claims.embed.default_embedder``), as in an audit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from claims.audit import audit_texts
from claims.embed import default_embedder
from claims.labels import label_parts
from claims.types import ClaimKind, ReferenceClaim, Verdict
from claims.verdict.key_values import key_value_finding

REFERENCE = {
    "library": (
        "Orvik is a town in Norway with a population of 8,400. Its public library opened in 1936 and "
        "was designed by Edda Fjell. The library employs 23 people and lends 61,000 books a year."
    ),
    "bridge": (
        "The Lysa bridge was completed in 1983. It is 640 metres long and was built by Norsk Stal. "
        "The bridge carries 9,500 vehicles a day."
    ),
}
#: (label, right value, wrong value); the key-value claims name no subject
FACTS = {
    "library": [
        ("Population", "8,400", "4,800"),
        ("Opened", "1936", "1963"),
        ("Architect", "Edda Fjell", "Sigrun Lie"),
        ("Employees", "23", "32"),
        ("Books lent per year", "61,000", "16,000"),
    ],
    "bridge": [
        ("Completed", "1983", "1938"),
        ("Length", "640 metres", "460 metres"),
        ("Builder", "Norsk Stal", "Vik Verft"),
        ("Vehicles per day", "9,500", "5,900"),
    ],
}
FORMATS = ["json", "yaml", "bold_list", "bold_lines", "label_list"]


def render(fmt: str, facts: list[tuple[str, str]]) -> str:
    if fmt == "json":
        return json.dumps({k.lower().replace(" ", "_"): v for k, v in facts}, indent=2)
    if fmt == "yaml":
        return "---\n" + "".join(f"{k.lower().replace(' ', '_')}: {v}\n" for k, v in facts)
    if fmt == "bold_list":
        return "\n".join(f"{n}. **{k}:** {v}" for n, (k, v) in enumerate(facts, 1))
    if fmt == "bold_lines":
        return "\n".join(f"**{k}:** {v}  " for k, v in facts)
    if fmt == "label_list":
        return "\n".join(f"- {k}: {v}" for k, v in facts)
    raise ValueError(fmt)


@pytest.fixture(scope="module")
def embedder() -> Any:
    return default_embedder()


def _verdicts(response: str, reference: str, embedder: Any) -> list[tuple[str, Verdict]]:
    report = audit_texts(response, [reference], embedder=embedder)
    return [
        (c.text, j.verdict)
        for c, j in zip(report.response_claims, report.judgements, strict=True)
        if c.kind is ClaimKind.MATERIAL
    ]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("topic", sorted(FACTS))
def test_subjectless_right_values_are_supported(topic: str, fmt: str, embedder: Any) -> None:
    facts = [(k, right) for k, right, _ in FACTS[topic]]
    got = _verdicts(render(fmt, facts), REFERENCE[topic], embedder)
    assert len(got) == len(facts), got
    assert all(v in (Verdict.SUPPORTED, Verdict.INFERRED) for _, v in got), got


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("topic", sorted(FACTS))
def test_subjectless_wrong_value_is_contradicted(topic: str, fmt: str, embedder: Any) -> None:
    for n, (_, _, wrong) in enumerate(FACTS[topic]):
        facts = [(k, wrong if m == n else right) for m, (k, right, _) in enumerate(FACTS[topic])]
        got = _verdicts(render(fmt, facts), REFERENCE[topic], embedder)
        assert [v for t, v in got if wrong in t] == [Verdict.CONTRADICTED], (wrong, got)
        assert all(v in (Verdict.SUPPORTED, Verdict.INFERRED) for t, v in got if wrong not in t), got


def _refs(*texts: str) -> list[ReferenceClaim]:
    from claims.decompose import decompose
    from claims.types import Role

    return [ReferenceClaim(i, c) for i, t in enumerate(texts) for c in decompose(t, role=Role.REFERENCE)]


def test_the_slot_the_label_names_is_compared_not_the_nearest_number() -> None:
    refs = _refs("Orvik has 8,400 households and a population of 19,000.")
    found = key_value_finding("Population: 8,400.", refs)
    assert found is not None and not found.same and found.reference_value == "19,000"


def test_a_bound_the_value_lies_within_is_no_contradiction() -> None:
    # "up to 420": 240 passengers is within the stated maximum (claims.facets Quantity.bound)
    assert key_value_finding("Passengers: 240.", _refs("The ferry carries up to 420 passengers.")) is None


def test_a_claim_with_a_subject_or_no_label_is_left_to_the_other_steps() -> None:
    refs = _refs("The Lysa bridge was completed in 1983.")
    assert key_value_finding("Lysa bridge, completed: 1938.", refs) is None
    assert key_value_finding("The bridge was completed in 1938.", refs) is None


def test_the_reason_names_only_the_label_and_the_two_values(embedder: Any) -> None:
    report = audit_texts('{"architect": "Sigrun Lie"}', [REFERENCE["library"]], embedder=embedder)
    (j,) = report.judgements
    assert j.verdict is Verdict.CONTRADICTED
    assert j.reason.startswith("architect Sigrun Lie ≠ Edda Fjell (reference 0, chars")
    assert report.response_claims[0].text == "Architect: Sigrun Lie."  # the text names no subject


def test_label_parts_reads_subject_label_and_value() -> None:
    assert label_parts("Kestrel Robotics, founded: 2005.") == ("Kestrel Robotics", "founded", "2005")
    assert label_parts("Population: 8,400.") == ("", "Population", "8,400")
    assert label_parts("The bridge opened in 1983.") is None
