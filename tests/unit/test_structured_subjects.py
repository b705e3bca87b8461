"""Structured answers keep the subject of each value: a top-level JSON object's record field
names its subject as in an array element, and YAML records written with no fence or ``---``
are read as data, not prose (``claims.blocks``, ``claims.blocks.data``).

Texts are written for this test (no shared or dev case). The expected claim texts follow the
``"<subject>, <label>: <value>."`` form of ``claims.blocks.data.leaf_facts``.
"""

from __future__ import annotations

import pytest

from claims.blocks import _bare_yaml, layout


def _facts(text: str) -> list[str]:
    return [b.text for b in layout(text).blocks if b.kind == "fact"]


def test_a_top_level_object_is_named_by_its_record_field_as_an_array_element_is() -> None:
    record = '{"city": "Bergen", "population": 709000}'
    assert _facts(record) == ["Bergen, population: 709000."]
    assert _facts(f"[{record}]") == ["Bergen, population: 709000."]
    # a name field still wins over a record field; an object with neither keeps no subject
    assert _facts('{"country": "Norway", "name": "Oslo", "area": 454}') == [
        "Oslo, country: Norway.",
        "Oslo, area: 454.",
    ]
    assert _facts('{"population": 5000}') == ["Population: 5000."]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        (
            "Oslo:\n  population: 285,000\nBergen:\n  population: 709,000",
            ["Oslo, population: 285,000.", "Bergen, population: 709,000."],
        ),
        ("- city: Oslo\n  population: 285,000", ["Oslo, population: 285,000."]),
        (
            "- city: Oslo\n  population: 285,000\n- city: Bergen\n  population: 709,000",
            ["Oslo, population: 285,000.", "Bergen, population: 709,000."],
        ),
    ],
)
def test_bare_yaml_records_are_data(text: str, facts: list[str]) -> None:
    assert _facts(text) == facts


@pytest.mark.parametrize(
    "text",
    [
        "Note: Oslo is big.\nSummary: it has 709,000 inhabitants.",  # colons in prose: no nesting
        "Oslo: 709,000\nBergen: 285,000",  # flat "Label: value" lines stay Markdown lines
        "The answer:\n\nOslo is the capital. Bergen: a port.",
        "# Cities\nOslo:\n  population: 709,000",  # a Markdown heading is no YAML line
    ],
)
def test_prose_and_flat_label_lines_are_not_taken_for_yaml(text: str) -> None:

    assert _bare_yaml(text) is None  # the detector itself: layout may read these either way
