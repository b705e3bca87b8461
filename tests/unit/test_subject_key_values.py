"""Key-value claims with a subject ("Oslo, population: 291,000.": a table row, a list item under
its heading, a JSON record) are judged against the reference claims about their subject
(``claims.verdict.key_values``), and the structure gives each claim its subject: a bold line
over a list (``claims.blocks.markdown``), a JSON key that is a name (``claims.blocks.data``).

The texts are written for this test (no shared or dev case). Expected values follow the module
notes: the subject's own reference claim decides; a value stated of another subject is no
support; a name value contradicts only when one other name fills the slot.
"""

from __future__ import annotations

import json

from claims.blocks import layout
from claims.decompose import decompose
from claims.types import ReferenceClaim, Role
from claims.verdict.key_values import key_value_finding, subject_spans

CITIES = (
    "Oslo has a population of 709,000. Bergen has a population of 291,000. "
    "Storhorn rises to 1,987 metres. Kvitegg rises to 1,717 metres. "
    "Ravnsborg Arena holds 18,200 spectators. Solvang Stadium holds 25,000 spectators. "
    "Blue Hours is an album by Ferris Lane. Paper Kites is an album by Mona Vik."
)


def _refs(*texts: str) -> list[ReferenceClaim]:
    return [ReferenceClaim(i, c) for i, t in enumerate(texts) for c in decompose(t, role=Role.REFERENCE)]


def _finding(claim: str, *texts: str) -> tuple[bool, str] | None:
    found = key_value_finding(claim, _refs(*texts or (CITIES,)), with_subject=True)
    return None if found is None else (found.same, found.reference_value)


def test_subject_spans_match_the_name_words_in_any_case() -> None:
    assert subject_spans("Neptune planet", "Neptune has 16 moons.") == [(0, 7)]  # "planet": no name word
    assert subject_spans("the hotel", "The Grand Hotel has 40 rooms.") == [(10, 15)]
    assert subject_spans("Ness bridge", "The Halsa Bridge opened in 1992.") is None
    assert subject_spans("Berg", "Hedda Berg was born in Bergen.") == [(6, 10)]  # whole words only


def test_a_value_of_another_row_is_contradicted_by_the_subjects_own_value() -> None:
    assert _finding("Oslo, population: 291,000.") == (False, "709,000")
    assert _finding("Oslo, population: 709,000.") == (True, "709,000")
    assert _finding("Bergen, population: 290,000.") == (False, "291,000")


def test_a_dimension_label_compares_the_one_quantity_of_its_unit() -> None:
    # "height" names a length (claims/data/dimension_words.tsv); "rises to" holds no word of it
    assert _finding("Storhorn mountain, height: 1,717 metres.") == (False, "1,987 metres")
    assert _finding("Kvitegg, height: 1,717 metres.") == (True, "1,717 metres")


def test_a_swapped_value_finds_its_slot_in_the_other_subjects_statement() -> None:
    # "capacity" is no word of "holds ... spectators"; Solvang's "holds 25,000 spectators" shows the slot
    assert _finding("Ravnsborg Arena, capacity: 25,000.") == (False, "18,200")
    assert _finding("Blue Hours, artist: Mona Vik.") == (False, "Ferris Lane")
    # a value no reference states, under a label the reference does not word: left to the other steps
    assert _finding("Ravnsborg Arena, capacity: 30,000.") is None


def test_a_name_contradicts_only_when_one_other_name_fills_the_slot() -> None:
    one = "Clara Nyberg was born in Uppsala."
    two = "Clara Nyberg was born on a farm between Uppsala and Sala."
    assert _finding("Clara Nyberg, birthplace: Umeå.", one) == (False, "Uppsala")
    assert _finding("Clara Nyberg, birthplace: Umeå.", two) is None
    assert _finding("Clara Nyberg, birthplace: Sala.", two) == (True, "Sala")


def test_no_reference_claim_about_the_subject_leaves_it_to_the_other_steps() -> None:
    assert _finding("Trondheim, population: 212,000.") is None


def test_a_bold_line_over_a_list_names_its_subject() -> None:
    text = "**Oslo**\n\n1. **Population:** 709,000\n\n**Bergen**\n\n1. **Population:** 291,000"
    assert [(b.kind, b.text) for b in layout(text).blocks] == [
        ("heading", "Oslo"),
        ("fact", "Oslo, population: 709,000."),
        ("heading", "Bergen"),
        ("fact", "Bergen, population: 291,000."),
    ]
    # a bold sentence, or bold words inside a line, is no title
    assert layout("**The bridge opened in 1992.**\n\n- Length: 840 m").blocks[0].kind == "prose"
    assert layout("The **Oslo** figures\n\n- Population: 709,000").blocks[0].kind == "prose"


def test_a_json_key_that_is_a_name_keeps_its_capitals() -> None:
    text = json.dumps({"Clara Nyberg": {"born": 1954}, "skarvik_ferry": {"cars": 60}})
    assert [b.text for b in layout(text).blocks] == ["Clara Nyberg, born: 1954.", "Skarvik ferry, cars: 60."]


def test_a_participle_on_a_predicate_noun_is_about_the_subject() -> None:
    claims = [c.text for c in decompose("Northbound is an album by The Drifts, released in 2008.")]
    assert claims == ["Northbound is an album by The Drifts.", "Northbound was released in 2008."]
