"""Decomposition of document structure: a table gives one claim per cell with its headers, list
items keep their lead-in, a JSON answer gives one claim per key and value, headings are context
and code blocks outside scope; plain prose is one block.

Expected values come from FActScore's definition of an atomic claim (Min et al. 2023: one piece
of information, standing alone). The texts are our own.
"""

from __future__ import annotations

import pytest

from claims.blocks import segment
from claims.decompose import decompose
from claims.types import ClaimKind

# document structure: tables, lists, JSON, headings, code

TABLE = "| Tier | Seats | Price |\n|---|---|---|\n| Team | 10 | $40 |\n| Business | 50 | $180 |"


def test_a_table_gives_one_claim_per_cell_with_its_headers() -> None:
    claims = decompose(TABLE)
    assert [c.text for c in claims] == [
        "Team tier, seats: 10.",
        "Team tier, price: $40.",
        "Business tier, seats: 50.",
        "Business tier, price: $180.",
    ]
    # each span is the cell itself
    assert [TABLE[c.start : c.end] for c in claims] == ["10", "$40", "50", "$180"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a lead-in the items continue
        (
            "The flat has:\n- two bedrooms\n- a balcony",
            ["The flat has two bedrooms.", "The flat has a balcony."],
        ),
        ("Trains stop at:\n1. Lund\n2. Malmö", ["Trains stop at Lund.", "Trains stop at Malmö."]),
        # a label lead-in is context for each item
        (
            "Opening hours:\n- Monday 9-17\n- Friday 9-15",
            ["Opening hours: Monday 9-17.", "Opening hours: Friday 9-15."],
        ),
    ],
)
def test_list_items_keep_their_lead_in(text: str, expected: list[str]) -> None:
    claims = decompose(text)
    assert [c.text for c in claims if c.kind is ClaimKind.MATERIAL] == expected
    # the span stays on the item, not on the lead-in
    assert all(
        text[c.start : c.end] in text.splitlines()[-1] or "\n" not in text[c.start : c.end] for c in claims
    )


def test_a_json_answer_gives_one_claim_per_key_value() -> None:
    text = '{"title": "Night Ferry", "year": 2010, "runtime_min": 104, "cast": ["Ana Lo", "Per Vik"]}'
    claims = decompose(text)
    assert [c.text for c in claims] == [
        "Night Ferry, year: 2010.",
        "Night Ferry, runtime: 104 min.",  # the key's unit goes to its number
        "Night Ferry, cast: Ana Lo.",
        "Night Ferry, cast: Per Vik.",
    ]
    assert text[claims[0].start : claims[0].end] == '"year": 2010'
    assert text[claims[3].start : claims[3].end] == '"Per Vik"'


def test_headings_are_context_and_code_blocks_outside_scope() -> None:
    text = "## Aldhaven Library\nIt opened in 1931.\n```sql\nSELECT 1;\n```"
    claims = decompose(text)
    assert [(c.text, c.kind) for c in claims] == [
        ("Aldhaven Library opened in 1931.", ClaimKind.MATERIAL),
        ("```sql\nSELECT 1;\n```", ClaimKind.OUTSIDE_SCOPE),
    ]


def test_a_text_of_headings_only_states_them() -> None:
    # a heading is context for a body; with no body (one evidence line cut out of a page)
    # it is the text's statement
    # (its span is the heading's words: the "###" marks are markup)
    text = "### Best Lead Actress - 2011"
    assert [(c.kind, text[c.start : c.end]) for c in decompose(text)] == [(ClaimKind.MATERIAL, text[4:])]


def test_segment_leaves_plain_prose_whole() -> None:
    text = "The Kestrel Bridge opened in 1998. It is 520 metres long."
    assert [(b.kind, b.start, b.end) for b in segment(text)] == [("prose", 0, len(text))]
