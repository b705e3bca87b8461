"""The same facts written as a record of "Label: value" lines, a CSV or TSV table, or prose get
the same verdicts, because each format keeps its subject.

* A record whose line names it ("Name: Storebælt Bridge", "Person:", "Title:" or "Company:" on
  the first line) is the subject of its other lines, as a JSON object's name field is
  (``claims.blocks.context.names_record``).
* A CSV or TSV text reads as the same table in Markdown (``claims.blocks.delimited``): one
  claim per data cell about the row's subject, its span the cell; prose with commas stays
  prose.
* A temporal clause measured by its interval ("Two years after the museum opened") gives the
  event of the clause alone ("The museum opened."), never "Two years the museum opened.".

Texts written for this test (no dev example). Expected verdicts are the product's
definitions (docs/DECOMPOSITION.md, step 1: a key-value claim with a subject is judged by
subject, predicate and value; a value the reference states otherwise is contradicted).
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.blocks import layout
from claims.decompose import decompose
from claims.types import Verdict

S, C = Verdict.SUPPORTED, Verdict.CONTRADICTED

BRIDGES = (
    "The Storebælt Bridge was built in 1998. It is 6.8 km long. "
    "The Øresund Bridge was built in 2000. It is 7.8 km long."
)
CITIES = (
    "Bergen has a population of 285,000 and was founded in 1070. "
    "Trondheim has a population of 212,000 and was founded in 997."
)


def _verdicts(response: str, reference: str) -> list[tuple[str, Verdict]]:
    report = audit_texts(response, [reference])
    return [(report.response_claims[j.response_index].text, j.verdict) for j in report.judgements]


# --- records of "Label: value" lines -------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "reference", "expected"),
    [
        # the other bridge's year and length: contradicted, not supported by the other row
        ("Name: Storebælt Bridge\nBuilt: 2000\nLength: 7.8 km", BRIDGES, [C, C]),
        ("Name: Storebælt Bridge\nBuilt: 1998\nLength: 6.8 km", BRIDGES, [S, S]),
        ("Name: Storebælt Bridge\nBuilt: 1991\nLength: 6.8 km", BRIDGES, [C, S]),
        (
            "Person: Clara Nyberg\nBorn: 1957\nBirthplace: Bergen",
            "Clara Nyberg was born in 1954 in Bergen. Ada Lunde was born in 1957 in Oslo.",
            [C, S],
        ),
        (
            "Person: Clara Nyberg\nBorn: 1954\nBirthplace: Bergen",
            "Clara Nyberg was born in 1954 in Bergen. Ada Lunde was born in 1957 in Oslo.",
            [S, S],
        ),
        (
            "Title: Harbour Lights\nReleased: 2013\nDirector: Ines Marlow",
            "Harbour Lights is a film by Ines Marlow released in 2011. Cold Water was released in 2013.",
            [C, S],
        ),
        (
            "Company: Kestrel Robotics\nFounded: 2009\nEmployees: 340",
            "Kestrel Robotics was founded in 2011 and employs 340 people. Tessel Corp was founded in 2009.",
            [C, S],
        ),
        # a Markdown list of the same lines
        (
            "- Name: Holm Museum\n- Opened: 1992\n- Entry: 120 kroner",
            "The Holm Museum opened in 1990. Entry to the Holm Museum costs 120 kroner. "
            "The Vik Museum opened in 1992.",
            [C, S],
        ),
    ],
)
def test_a_record_line_that_names_it_is_the_subject_of_the_others(
    response: str, reference: str, expected: list[Verdict]
) -> None:
    got = _verdicts(response, reference)
    assert [v for _, v in got] == expected, got
    name = response.splitlines()[0].split(":", 1)[1].strip()
    assert all(text.startswith(name + ", ") for text, _ in got), got


@pytest.mark.parametrize(
    ("record", "prose"),
    [
        ("Name: Storebælt Bridge\nBuilt: 1991", "The Storebælt Bridge was built in 1991."),
        ("Name: Storebælt Bridge\nBuilt: 1998", "The Storebælt Bridge was built in 1998."),
        ("Name: Øresund Bridge\nLength: 6.8 km", "The Øresund Bridge is 6.8 km long."),
    ],
)
def test_a_record_gets_the_verdict_of_its_prose(record: str, prose: str) -> None:
    assert [v for _, v in _verdicts(record, BRIDGES)] == [v for _, v in _verdicts(prose, BRIDGES)]


@pytest.mark.parametrize(
    "record",
    [
        "Architect: Ove Arup\nBuilt: 1991",  # a role is an attribute, not the subject
        "Population: 8,400\nFounded: 1901",  # no name at all: no invented subject
        "Location: Denmark\nBuilt: 1998",  # a predicate label (label_predicates.tsv)
        "Name: Storebælt Bridge\nTitle: Chief Engineer",  # a title further down is an attribute
    ],
)
def test_a_record_with_no_naming_line_keeps_its_lines_as_they_are(record: str) -> None:
    blocks = layout(record).blocks
    facts = [b.text for b in blocks if b.kind == "fact"]
    first_label = record.split(":", 1)[0]
    if first_label == "Name":
        assert facts == ["Storebælt Bridge, title: Chief Engineer."]
    else:
        assert facts == [f"{ln}." for ln in record.splitlines()]


# --- CSV and TSV ---------------------------------------------------------------------------

CSV = "name,built,length\nStorebælt Bridge,1991,6.8 km\nØresund Bridge,2000,7.8 km"
MARKDOWN = (
    "| name | built | length |\n|---|---|---|\n| Storebælt Bridge | 1991 | 6.8 km |\n"
    "| Øresund Bridge | 2000 | 7.8 km |"
)


@pytest.mark.parametrize(
    "text",
    [
        CSV,
        CSV.replace(",", "\t"),
        CSV.replace(",", ";"),
        "name, built, length\nStorebælt Bridge, 1991, 6.8 km\nØresund Bridge, 2000, 7.8 km",
        '"name","built","length"\n"Storebælt Bridge","1991","6.8 km"\n"Øresund Bridge","2000","7.8 km"',
        "```csv\n" + CSV + "\n```",
    ],
)
def test_a_delimited_table_decomposes_as_the_markdown_table(text: str) -> None:
    want = [c.text for c in decompose(MARKDOWN)]
    claims = decompose(text)
    assert [c.text for c in claims] == want
    # each claim's span is its cell in the text as written
    cells = ["1991", "6.8 km", "2000", "7.8 km"]
    assert [text[c.start : c.end] for c in claims] == cells


@pytest.mark.parametrize(
    ("response", "reference", "expected"),
    [
        (CSV, BRIDGES, [C, S, S, S]),
        (
            "name\tbuilt\tlength\nStorebælt Bridge\t2000\t6.8 km\nØresund Bridge\t1998\t7.8 km",
            BRIDGES,
            [C, S, C, S],
        ),
        ("city,population,founded\nBergen,285000,1070\nTrondheim,212000,997", CITIES, [S, S, S, S]),
        ("city,population,founded\nBergen,212000,1070\nTrondheim,285000,997", CITIES, [C, S, C, S]),
    ],
)
def test_a_wrong_cell_of_a_delimited_table_is_contradicted(
    response: str, reference: str, expected: list[Verdict]
) -> None:
    got = _verdicts(response, reference)
    assert [v for _, v in got] == expected, got


def test_a_delimited_table_gets_the_verdicts_of_its_markdown_table() -> None:
    assert _verdicts(CSV, BRIDGES) == _verdicts(MARKDOWN, BRIDGES)


@pytest.mark.parametrize(
    "text",
    [
        "I visited Oslo, Bergen and Tromsø\nThen I went home, tired",
        "Oslo, Bergen\nTromsø, Alta",
        "Dear Anna, thanks\nBest wishes, Tom",
        "The bridge, built in 1998, is long.\nThe tunnel, built in 2000, is longer.",
        "Yes, it opened in 1998\nNo, it did not close in 2000",
        "Storgata 1, Oslo\nKarl Johans gate 2, Oslo",
        "Bergen, Norway",
    ],
)
def test_prose_with_commas_is_never_a_table(text: str) -> None:
    assert not [b for b in layout(text).blocks if b.kind == "fact"]


# --- temporal clauses with an interval -------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "event"),
    [
        ("Two years after the museum opened, it won a prize.", "The museum opened."),
        ("Three months before the bridge opened, it was tested.", "The bridge opened."),
        ("A decade after the war ended, the town rebuilt the church.", "The war ended."),
        ("Shortly after the ferry left, the storm began.", "The ferry left."),
        ("The museum won a prize two years after it opened.", "The museum opened."),
    ],
)
def test_an_interval_before_a_temporal_clause_stays_with_its_conjunction(sentence: str, event: str) -> None:
    texts = [c.text for c in decompose(sentence)]
    assert event in texts, texts
    assert sentence in texts, texts  # the main clause keeps the clause, whole, as its anchor
    assert not any(t.startswith(("Two years the", "Three months the", "A decade the")) for t in texts)


def test_a_later_event_reads_as_a_full_sentence() -> None:
    texts = [c.text for c in decompose("The museum opened in 1990. Two years later it won a prize.")]
    assert texts == ["The museum opened in 1990.", "Two years later the museum won a prize."]
