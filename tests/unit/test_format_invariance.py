"""The same facts get the same verdicts in any format (prose, bullets under a heading, a numbered
list with bold labels, a Markdown table, JSON, YAML), and a wrong value in an item, a cell or a
field is ``contradicted``.

The fact sets are written for this test. Expected verdicts follow claims.verdict's definitions:
every response fact is stated by the reference with the same value (``supported``, or
``inferred`` where two reference claims state it together), and the one changed value conflicts
with the reference's value in the same slot (``contradicted``). The embeddings are the real
all-MiniLM-L6-v2 (``claims.embed.default_embedder``), as in an audit.
"""

from __future__ import annotations

from typing import Any

import pytest

from claims.audit import audit_texts
from claims.embed import default_embedder
from claims.types import ClaimKind, Verdict

REFERENCE = {
    "lighthouse": (
        "The Varnes lighthouse was lit in 1872. It stands 38 metres tall. "
        "Its light reaches 19 nautical miles."
    ),
    "museum": (
        "Holm Museum opened in 1921. It has 14 rooms and about 2,300 objects. It charges 90 kroner for entry."
    ),
}
FACTS = {
    "lighthouse": (
        "the Varnes lighthouse",
        [("Lit", "in 1872"), ("Height", "38 metres"), ("Range", "19 nautical miles")],
    ),
    "museum": ("Holm Museum", [("Opened", "in 1921"), ("Rooms", "14 rooms"), ("Entry fee", "90 kroner")]),
}
#: the one changed value per set (right, wrong)
WRONG = {"lighthouse": ("38 metres", "48 metres"), "museum": ("90 kroner", "120 kroner")}


def render(fmt: str, subject: str, facts: list[tuple[str, str]]) -> str:
    title = subject[:1].upper() + subject[1:]
    if fmt == "bullets":
        return f"## {title}\n\n" + "\n".join(f"- {k}: {v}" for k, v in facts)
    if fmt == "numbered_bold":
        return f"Here is what the sources say about {subject}:\n\n" + "\n".join(
            f"{n}. **{k}:** {v}" for n, (k, v) in enumerate(facts, 1)
        )
    if fmt == "table":
        return f"{title} at a glance:\n\n| Fact | Value |\n|---|---|\n" + "\n".join(
            f"| {k} | {v} |" for k, v in facts
        )
    if fmt == "json":
        body = ",\n".join(f'  "{k.lower().replace(" ", "_")}": "{v}"' for k, v in facts)
        return f'{{\n  "name": "{title}",\n{body}\n}}'
    if fmt == "yaml":
        return (
            f"```yaml\nname: {title}\n"
            + "\n".join(f"{k.lower().replace(' ', '_')}: {v}" for k, v in facts)
            + "\n```"
        )
    raise ValueError(fmt)


FORMATS = ["bullets", "numbered_bold", "table", "json", "yaml"]


@pytest.fixture(scope="module")
def embedder() -> Any:
    return default_embedder()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("topic", sorted(FACTS))
def test_right_values_are_supported_in_every_format(topic: str, fmt: str, embedder: Any) -> None:
    subject, facts = FACTS[topic]
    report = audit_texts(render(fmt, subject, facts), [REFERENCE[topic]], embedder=embedder)
    verdicts = [
        j.verdict
        for j, c in zip(report.judgements, report.response_claims, strict=True)
        if c.kind is ClaimKind.MATERIAL
    ]
    assert len(verdicts) == len(facts)
    assert set(verdicts) <= {Verdict.SUPPORTED, Verdict.INFERRED}, [
        (c.text, j.reason) for c, j in zip(report.response_claims, report.judgements, strict=True)
    ]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("topic", sorted(FACTS))
def test_a_wrong_value_is_contradicted_in_every_format(topic: str, fmt: str, embedder: Any) -> None:
    subject, facts = FACTS[topic]
    right, wrong = WRONG[topic]
    changed = [(k, wrong if v == right else v) for k, v in facts]
    report = audit_texts(render(fmt, subject, changed), [REFERENCE[topic]], embedder=embedder)
    by_claim = {c.text: j.verdict for c, j in zip(report.response_claims, report.judgements, strict=True)}
    hit = [v for text, v in by_claim.items() if wrong.split()[0] in text]
    assert hit == [Verdict.CONTRADICTED], by_claim
    assert sum(v is Verdict.CONTRADICTED for v in by_claim.values()) == 1, by_claim
