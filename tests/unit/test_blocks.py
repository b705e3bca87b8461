"""Block parsing (claims.blocks): one test group per block kind, spans into the original text.

The example texts are written for these tests (a lighthouse, a museum, two ferries); expected
claim texts follow the rules in the claims.blocks module notes.
"""

from __future__ import annotations

import pytest

from claims.blocks import layout, segment
from claims.decompose import decompose
from claims.types import ClaimKind


def kinds(text: str) -> list[tuple[str, str]]:
    return [(b.kind, text[b.start : b.end]) for b in segment(text)]


def material(text: str) -> list[str]:
    return [c.text for c in decompose(text) if c.kind is ClaimKind.MATERIAL]


# --- paragraph ------------------------------------------------------------------------------------


def test_paragraphs_are_prose_blocks_with_their_spans() -> None:
    text = "The Varnes lighthouse was lit in 1872.\n\nIt stands 38 metres tall."
    assert kinds(text) == [
        ("prose", "The Varnes lighthouse was lit in 1872."),
        ("prose", "It stands 38 metres tall."),
    ]


def test_an_indented_paragraph_and_a_line_over_dashes_stay_prose() -> None:
    # indented code and setext headings are switched off: pasted text trips them
    text = "    The Varnes lighthouse was lit in 1872.\nIt stands 38 metres tall.\n---"
    assert [b.kind for b in segment(text)] == ["prose"]


def test_a_year_opening_a_line_is_no_list_marker() -> None:
    text = "1872. The Varnes lighthouse was lit."
    assert kinds(text) == [("prose", text)]


# --- heading and lead-in ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "topic"),
    [
        ("Here is what the sources say about the Varnes lighthouse:", "the Varnes lighthouse"),
        ("The Varnes lighthouse at a glance:", "The Varnes lighthouse"),
        ("Key facts about Holm Museum:", "Holm Museum"),
        ("Quick facts:", ""),
    ],
)
def test_a_lead_in_is_context_naming_its_subject(lead: str, topic: str) -> None:
    text = f"{lead}\n\n- Height: 38 metres"
    blocks = segment(text)
    assert (blocks[0].kind, blocks[0].text, text[blocks[0].start : blocks[0].end]) == ("heading", topic, lead)
    assert all(c.text != lead for c in decompose(text))


def test_a_heading_names_the_subject_of_the_items_under_it() -> None:
    text = "# Holm Museum\n\n## History\n\n- Opened: 1921\n\n# Varnes lighthouse\n\n- Height: 38 metres"
    assert material(text) == ["Holm Museum, opened: 1921.", "Varnes lighthouse, height: 38 metres."]


# --- list items ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item",
    ["- Height: 38 metres", "1. **Height:** 38 metres", "* __Height__: 38 metres", "- *Height:* 38 metres"],
)
def test_label_value_items_are_key_value_claims_about_the_heading(item: str) -> None:
    text = f"## Varnes lighthouse\n\n{item}\n- Lit: in 1872"
    claims = [c for c in decompose(text) if c.kind is ClaimKind.MATERIAL]
    assert [c.text for c in claims] == [
        "Varnes lighthouse, height: 38 metres.",
        "Varnes lighthouse, lit: in 1872.",
    ]
    # the locator is the item as written, markup and all
    assert text[claims[0].start : claims[0].end] == item.split(" ", 1)[1]


def test_items_that_continue_a_lead_in_stay_sentences() -> None:
    assert material("The museum holds:\n- 40 paintings\n- a printing press") == [
        "The museum holds 40 paintings.",
        "The museum holds a printing press.",
    ]


def test_a_nested_list_takes_its_parent_item_as_subject() -> None:
    text = "- Varnes lighthouse\n  - Height: 38 metres\n- Holm Museum\n  - Opened: 1921"
    assert material(text) == ["Varnes lighthouse, height: 38 metres.", "Holm Museum, opened: 1921."]


def test_a_note_label_is_no_attribute() -> None:
    assert material("- Note: the lighthouse was automated in 1987.") == [
        "The lighthouse was automated in 1987."
    ]


# --- tables -------------------------------------------------------------------------------------------


def test_an_attribute_table_takes_its_subject_from_the_lead_in() -> None:
    text = (
        "The Varnes lighthouse in numbers:\n\n"
        "| Attribute | Value |\n|---|---|\n| Height | 38 metres |\n| **Lit** | in 1872 |"
    )
    claims = [c for c in decompose(text) if c.kind is ClaimKind.MATERIAL]
    assert [c.text for c in claims] == [
        "The Varnes lighthouse, height: 38 metres.",
        "The Varnes lighthouse, lit: in 1872.",
    ]
    assert [text[c.start : c.end] for c in claims] == ["38 metres", "in 1872"]


def test_an_entity_table_takes_its_subject_from_the_row_header() -> None:
    text = (
        "| Ferry | Cars | Crossing |\n|---|---|---|\n| Tind | 40 | 25 minutes |\n| Vaga | 55 | 30 minutes |"
    )
    assert material(text) == [
        "Tind ferry, cars: 40.",
        "Tind ferry, crossing: 25 minutes.",
        "Vaga ferry, cars: 55.",
        "Vaga ferry, crossing: 30 minutes.",
    ]


def test_a_comparison_table_takes_its_subjects_from_the_column_headers() -> None:
    text = "| Feature | Tind | Vaga |\n|---|---|---|\n| Cars | 40 | 55 |"
    assert material(text) == ["Tind, cars: 40.", "Vaga, cars: 55."]


# --- JSON and YAML --------------------------------------------------------------------------------------


def test_json_after_a_lead_in_takes_the_lead_in_as_subject_when_it_has_no_name() -> None:
    text = 'Key facts about Holm Museum:\n```json\n{"opened": 1921, "rooms": 14}\n```'
    claims = [c for c in decompose(text) if c.kind is ClaimKind.MATERIAL]
    assert [c.text for c in claims] == ["Holm Museum, opened: 1921.", "Holm Museum, rooms: 14."]
    assert text[claims[1].start : claims[1].end] == '"rooms": 14'


def test_a_yaml_block_gives_one_claim_per_leaf() -> None:
    text = "```yaml\nname: Varnes lighthouse\nheight_m: 38\nkeepers:\n  - Ola Brenn\n```"
    claims = [c for c in decompose(text) if c.kind is ClaimKind.MATERIAL]
    assert [c.text for c in claims] == [
        "Varnes lighthouse, height: 38 m.",
        "Varnes lighthouse, keepers: Ola Brenn.",
    ]
    assert text[claims[1].start : claims[1].end] == "Ola Brenn"  # an array item: the item


def test_a_yaml_document_is_data() -> None:
    text = "---\nname: Holm Museum\nopened: 1921\n"
    assert material(text) == ["Holm Museum, opened: 1921."]


# --- code, citations, emphasis, links --------------------------------------------------------------------


def test_code_blocks_and_inline_code_items_are_outside_scope() -> None:
    text = "The lighthouse log:\n\n```\nlit 1872\n```\n\n- `varnes --status`"
    claims = decompose(text)
    assert {c.kind for c in claims} == {ClaimKind.OUTSIDE_SCOPE}
    assert [b.reason for b in segment(text) if b.kind == "outside"] == ["code block", "inline code"]


def test_citations_emphasis_and_links_leave_the_claim_text_but_not_the_span() -> None:
    text = (
        "The **Varnes lighthouse** was lit in [1872](https://example.org/varnes)[^1].\n\n"
        "[^1]: Harbour records."
    )
    claims = decompose(text)
    material_claims = [c for c in claims if c.kind is ClaimKind.MATERIAL]
    assert [c.text for c in material_claims] == ["The Varnes lighthouse was lit in 1872."]
    assert text[material_claims[0].start : material_claims[0].end].startswith("The **Varnes")
    assert [c.kind for c in claims][-1] is ClaimKind.OUTSIDE_SCOPE


def test_the_plain_copy_keeps_every_offset() -> None:
    text = "## Holm *Museum*\n\n- **Opened:** 1921 [2]\n"
    found = layout(text)
    assert len(found.plain) == len(text)
    assert "*" not in found.plain and "#" not in found.plain


def test_a_named_object_under_a_key_is_named_by_its_name_field() -> None:
    text = '{"tower": {"name": "Varnes lighthouse", "lit": 1872}}'
    assert material(text) == ["Varnes lighthouse, lit: 1872."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"name": "Varnes lighthouse", "height_m": 38}', "Varnes lighthouse, height: 38 m."),
        ('{"name": "Holm Museum", "founded_year": 1921}', "Holm Museum, founded year: 1921."),
    ],
)
def test_a_unit_at_the_end_of_a_key_goes_to_its_number(text: str, expected: str) -> None:
    assert material(text) == [expected]


@pytest.mark.parametrize(
    "line",
    ["- Kirkby | Last updated: 2 hours ago", "- Tel: +47 55 00 00 00 Fax: +47 55 00 00 01"],
)
def test_page_furniture_is_no_key_value_claim(line: str) -> None:
    # a label with a pipe, or a value that holds another "label:", is no attribute of the heading
    assert [b.kind for b in segment(f"# Holm Museum\n\n{line}")] == ["heading", "item"]


def test_a_text_the_parser_gives_up_on_stays_prose() -> None:
    # lists nested past markdown-it's limit drop their text; the whole text is then prose
    text = "- " * 30 + "The lighthouse was lit in 1872."
    assert [(b.kind, b.start, b.end) for b in segment(text)] == [("prose", 0, len(text.rstrip()))]


def test_an_item_of_several_sentences_is_split_like_a_paragraph() -> None:
    # a numbered passage pasted as evidence: each sentence is a claim, not the whole item
    text = "1. The Varnes lighthouse was lit in 1872. Its keeper lived on the island until 1987."
    assert material(text) == [
        "The Varnes lighthouse was lit in 1872.",
        "The Varnes lighthouse's keeper lived on the island until 1987.",
    ]
