"""Decomposition kinds: facts lost to scope or structure, apologies,
clause-level demonstratives, generic list lead-ins and JSON records without a subject.

Expected values come from the decomposition rules (quoted per test) and from FActScore's
definition of an atomic claim (Min et al. 2023: one piece of information, standing alone;
statements that say nothing verifiable are left out). The texts are our own.
"""

from __future__ import annotations

import pytest

from claims.blocks import segment
from claims.decompose import decompose
from claims.types import ClaimKind


def material(text: str) -> list[str]:
    return [c.text for c in decompose(text) if c.kind is ClaimKind.MATERIAL]


def outside(text: str) -> list[str]:
    return [c.text for c in decompose(text) if c.kind is ClaimKind.OUTSIDE_SCOPE]


# --- 1a: a courtesy or apology before a fact: the phrase is out of scope, the fact is kept ----


@pytest.mark.parametrize(
    ("text", "fact", "lead"),
    [
        ("Sorry, the gallery shuts at 6 pm on Sundays.", "The gallery shuts at 6 pm on Sundays.", "Sorry,"),
        ("My apologies, the ferry leaves at 9:15.", "The ferry leaves at 9:15.", "My apologies,"),
        (
            "Happy to help \u2014 the tower is 212 metres tall.",
            "The tower is 212 metres tall.",
            "Happy to help \u2014",
        ),
        ("Sure, the library holds 40,000 maps.", "The library holds 40,000 maps.", "Sure,"),
        ("Thanks for asking! The canal opened in 1832.", "The canal opened in 1832.", "Thanks for asking!"),
    ],
)
def test_a_leading_courtesy_is_stripped_and_the_fact_kept(text: str, fact: str, lead: str) -> None:
    # rule: "strip a leading courtesy/apology phrase ... and keep the rest"
    assert material(text) == [fact]
    assert outside(text) == [lead]


@pytest.mark.parametrize(
    "text",
    [
        "Sorry, I don't have information about the 2019 budget.",
        "Sure enough, the levee failed in 1927.",  # "Sure enough" is no courtesy
    ],
)
def test_a_courtesy_lead_is_not_split_off_when_the_rest_is_no_claim_or_no_lead(text: str) -> None:
    # the first is wholly an abstention (one outside claim); the second one material claim
    claims = decompose(text)
    assert len(claims) == 1


# --- 1b: a fenced JSON block states facts ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'Here is the record:\n```json\n{"name": "Skarv Tunnel", "length_m": 3100}\n```',
            ["Skarv Tunnel, length: 3100 m."],
        ),
        # no language tag, but the body parses as a JSON object
        ('Result:\n```\n{"title": "Mørke", "year": 1971}\n```', ["Mørke, year: 1971."]),
        (
            'The data:\n~~~json\n[{"name": "Ravn", "height": 44}, {"name": "Ulv", "height": 51}]\n~~~',
            ["Ravn, height: 44.", "Ulv, height: 51."],
        ),
    ],
)
def test_a_fenced_json_block_gives_one_claim_per_key_value(text: str, expected: list[str]) -> None:
    # rule: "a fenced block whose language is json (or whose content parses as a JSON
    # object/array) must be decomposed as JSON"
    assert material(text) == expected


def test_a_fenced_code_block_that_is_not_json_stays_outside_scope() -> None:
    text = "Run this:\n```python\nprint(1989)\n```"
    assert [(b.kind, b.reason) for b in segment(text)][-1] == ("outside", "code block")
    assert material(text) == []


# --- 1c: truncated or invalid JSON falls back instead of vanishing --------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"length": 1420, "opened": ', ["Length: 1420."]),
        ('{"span_m": 300, "deck": "steel", "opened": 19', ["Span m: 300.", "Deck: steel."]),
        ('[{"name": "Lyse", "depth": 422}, {"name": "Sog', ["Name: Lyse.", "Depth: 422."]),
    ],
)
def test_truncated_json_keeps_its_complete_key_values(text: str, expected: list[str]) -> None:
    # rule: "fall back ... rather than nothing"; only complete "key": value pairs are facts
    # (a number at the cut may itself be cut: "19" of "1989")
    assert material(text) == expected


def test_invalid_json_without_pairs_falls_back_to_sentences() -> None:
    text = "{The bridge opened in 1989 and spans 1,420 metres"
    assert material(text) != []


# --- 2: apologies of any phrasing are out of scope -------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I'm sorry, but I can't help with that. I apologise for any inconvenience.",
        "We apologize for the delay.",
        "Apologies for the confusion.",
        "I sincerely apologise.",
        "Sorry about that.",
    ],
)
def test_an_apology_only_answer_has_no_material_claim(text: str) -> None:
    # rule: "apologies of any phrasing are out of scope, so precision must be null"
    claims = decompose(text)
    assert claims
    assert all(c.kind is ClaimKind.OUTSIDE_SCOPE for c in claims)


# --- 3: a demonstrative subject that points at a clause --------------------------------------


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("Critics claim that the gallery is closed on Mondays, but that is false.", "Critics is false."),
        ("Some say the dam opened in 1960, but this is wrong.", "Some is wrong."),
        ("Guides state the spire is gilded, and that is not true.", "Guides is not true."),
    ],
)
def test_a_clause_demonstrative_is_not_replaced_by_a_noun(text: str, bad: str) -> None:
    # rule: "must not be rebuilt with another noun as subject; keep the sentence whole"
    claims = material(text)
    assert bad not in claims
    assert claims == [text]


@pytest.mark.parametrize(
    "text",
    [
        "The ferry sails daily. That is false.",
        "The museum has a cafe. This is a myth.",
    ],
)
def test_a_separate_statement_judgement_is_ambiguous_not_resolved(text: str) -> None:
    last = decompose(text)[-1]
    assert last.text.split()[0] in {"That", "This"}
    assert last.ambiguous


def test_a_demonstrative_that_names_a_thing_still_resolves() -> None:
    # "This is the longest ..." is about the bridge, not about a statement
    claims = material("The Sundby Bridge opened in 1975. This is the longest bridge in the county.")
    assert claims[-1] == "The Sundby Bridge is the longest bridge in the county."


# --- 4: a generic lead-in is not glued to its list items -------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Key facts:\n1. Opened in 1971.\n2. Length: 820 m.", ["Opened in 1971.", "Length: 820 m."]),
        ("Summary:\n- Built of granite\n- Restored in 2008", ["Built of granite.", "Restored in 2008."]),
        ("Here are the main details:\n* Seats 1,200\n* Roofed in 1994", ["Seats 1,200.", "Roofed in 1994."]),
        ("Details:\n- Architect: Ivar Lund", ["Architect: Ivar Lund."]),
    ],
)
def test_a_generic_lead_in_is_not_prepended(text: str, expected: list[str]) -> None:
    # rule: "a generic meta lead-in must not be prepended"
    assert material(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The station has:\n- two platforms\n- a ticket hall",
            ["The station has two platforms.", "The station has a ticket hall."],
        ),
        ("Opening hours:\n- Monday: closed", ["Opening hours, Monday: closed."]),
    ],
)
def test_a_lead_in_with_content_is_kept(text: str, expected: list[str]) -> None:
    # rule: "keep the lead-in only when it carries content"
    assert material(text) == expected


# --- 5: JSON records get their name-like field as subject -----------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"city": "Tromsø", "population": 77000}]', ["Tromsø, population: 77000."]),
        ('[{"id": "B-12", "load_t": 40}]', ["B-12, load: 40 t."]),
        ('[{"code": "SE", "area": 450295}]', ["SE, area: 450295."]),  # first string value
        (
            '{"stations": [{"title": "Vik", "lines": 3}]}',
            ["Vik, stations, lines: 3."],
        ),
    ],
)
def test_a_json_record_is_named_by_its_name_like_field(text: str, expected: list[str]) -> None:
    # rule: "use the object's name-like field (name, title, city, id, or the first string
    # value) as the subject"
    assert material(text) == expected


def test_a_lone_json_object_is_named_by_its_record_field_as_an_array_element_is() -> None:
    # the top-level record's "city" names the subject of its values, as in an array
    # (tests/data/decomposition_gold.jsonl, json row); a nested object's "city" is an attribute
    assert material('{"city": "Lindau", "population": 25000}') == ["Lindau, population: 25000."]
    assert material('{"port": {"city": "Lindau", "berths": 40}}') == [
        "Port, city: Lindau.",
        "Port, berths: 40.",
    ]
