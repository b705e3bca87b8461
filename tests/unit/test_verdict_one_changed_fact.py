"""Verdicts of a response that changes one fact of the reference, one table row per kind of fault.

Each row's ``kind`` column starts with its group (1 competing candidates, 2 numbers bound to
years, 3 subjects and roles, 4 facet extraction, 5 decomposition): the response changes one fact
of the reference (or keeps it), so the verdict follows from the definitions in
``claims.verdict``'s module docstring. Cosines are the all-MiniLM-L6-v2 values measured with
``claims.embed.default_embedder()`` where noted ("measured"); otherwise ``HIGH`` (0.93, see
tests/unit/test_verdict.py) stands for "very close".
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.facets import extract
from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge, subject_head

S, C, U = Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.UNSUPPORTED
HIGH = 0.93


def _judge(response: str, refs: list[str], cos: list[float] | None = None):
    rcs = [ReferenceClaim(i, Claim(t, 0, len(t))) for i, t in enumerate(refs)]
    row = cos if cos is not None else [HIGH] * len(refs)
    return judge(
        [Claim(response, 0, len(response))], rcs, np.array([row], dtype=np.float32), reference_texts=refs
    )[0]


TRIAL = "In the diabetes trial, nausea was reported by 12% of patients on the drug."
OBESITY = "In a separate obesity study, 31% of participants reported nausea."

# (kind, response, references, cosines or None for HIGH, expected verdict)
TABLE = [
    # 1: a contradiction by the candidate that matches subject+slot best is not hidden by a
    #    looser support in another reference (cosines measured: 0.962, 0.781)
    (
        "1 other study states the value",
        "In the diabetes trial, 31% of patients on the drug reported nausea.",
        [TRIAL, OBESITY],
        [0.962, 0.781],
        C,
    ),
    (
        "1 same study alone still supports",
        "In the diabetes trial, 12% of patients on the drug reported nausea.",
        [TRIAL, OBESITY],
        [0.97, 0.75],
        S,
    ),
    # 2: a number belongs to the year (date) next to it in its clause
    (
        "2 numbers swapped between years",
        "The company had 450 employees in 2020 and 120 employees in 2023.",
        ["The company had 120 employees in 2020 and 450 employees in 2023."],
        None,
        C,
    ),
    (
        "2 same pairs in another order",
        "The company had 450 employees in 2023 and 120 employees in 2020.",
        ["The company had 120 employees in 2020 and 450 employees in 2023."],
        None,
        S,
    ),
    (
        "2 fronted year binds all numbers",
        "In 2020, the company had 120 employees.",
        ["In 2020, the company had 120 employees and 45 stores."],
        None,
        S,
    ),
    # 3: the subject head (and proper nouns) must be stated; another proper-noun head with
    #    everything else equal contradicts (cosine measured 0.696); another common noun is
    #    not support (measured 0.865); multiplicative verbs are numbers (2×, 3×)
    (
        "3 other proper-noun subject",
        "Lyon is the capital of France.",
        ["Paris is the capital of France."],
        [0.696],
        C,
    ),
    (
        "3 other head noun",
        "The museum in Tromsø was built in 1943.",
        ["The library in Tromsø was built in 1943."],
        [0.865],
        U,
    ),
    (
        "3 same head noun",
        "The library in Tromsø was built in 1943.",
        ["The library in Tromsø was built in 1943."],
        [1.0],
        S,
    ),
    ("3 tripled vs doubled", "Profits tripled in 2021.", ["Profits doubled in 2021."], None, C),
    ("3 doubled = two times", "Profits doubled in 2021.", ["In 2021, profits rose two times."], None, S),
    ("3 roles swapped", "Brazil beat Germany 7-1 in 2014.", ["Germany beat Brazil 7-1 in 2014."], [0.98], C),
    # 3/6: a symmetric relation or a plain list is no role swap; a passive is no swap
    ("3 symmetric relation", "Brazil played Germany in 2014.", ["Germany played Brazil in 2014."], [0.99], S),
    (
        "3 list order",
        "Germany and Brazil signed the pact.",
        ["Brazil and Germany signed the pact."],
        [1.0],
        S,
    ),
    # 4: facet extraction
    (
        "4 month-only date change",
        "The treaty was signed on 3 April 1921.",
        ["The treaty was signed on 3 March 1921."],
        None,
        C,
    ),
    ("4 negative temperature", "The temperature fell to 5 °C.", ["The temperature fell to -5 °C."], None, C),
    # 23 °F = -5 °C exactly ((23 - 32) * 5/9)
    ("4 °F vs °C same value", "The temperature fell to 23 °F.", ["The temperature fell to -5 °C."], None, S),
    # 50 °F = 10 °C, not -5 °C
    ("4 °F vs °C other value", "The temperature fell to 50 °F.", ["The temperature fell to -5 °C."], None, C),
    (
        "4 counted noun is the phrase head",
        "The bridge carries four motorway lanes.",
        ["The bridge carries four lanes of the E39 motorway."],
        None,
        S,
    ),
    (
        "4 points = percentage points",
        "Support rose by 1.1 points.",
        ["Support rose by 1.1 percentage points."],
        None,
        S,
    ),
    ("4 points differ", "Support rose by 2.1 points.", ["Support rose by 1.1 percentage points."], None, C),
    # 3 (kind found in the demo's consistent paraphrase): a reference that names the subject by a
    #   description ("the suspension bridge") still speaks of "The Halvorsen Bridge"; another
    #   name ("The Kestrel Bridge") does not
    (
        "3 named subject, described in the reference",
        "The Halvorsen Bridge carries four motorway lanes.",
        ["The suspension bridge carries four lanes of the E39 motorway."],
        None,
        S,
    ),
    (
        "3 named subject, other name in the reference",
        "The Orsen Bridge was completed in 1998.",
        ["The Kestrel Bridge was completed in 1998."],
        None,
        C,
    ),
]


@pytest.mark.parametrize(("kind", "response", "refs", "cos", "verdict"), TABLE, ids=[t[0] for t in TABLE])
def test_changed_fact_kinds(
    kind: str, response: str, refs: list[str], cos: list[float] | None, verdict: Verdict
) -> None:
    j = _judge(response, refs, cos)
    assert j.verdict is verdict, j.reason


# 4: extraction details (values from the definitions: °F -> °C is (F - 32) * 5/9; a
#    percentage point is its own unit, 1.1 pp stays 1.1, not 0.011)
FACETS = [
    ("year glued to CJK text", "该寺于1958年建成。", [("1958", 1958.0, "year")]),
    ("negative number", "The air was -5 °C at night.", [("-5 °C", -5.0, "temperature")]),
    ("fahrenheit in celsius", "It was 212 °F.", [("212 °F", 100.0, "temperature")]),
    ("percentage points", "Turnout rose 1.1 percentage points.", [("1.1 percentage points", 1.1, "pp")]),
    # a range's lower end is read in the unit of its upper end (claims.facets.quantities.with_intervals)
    ("range dash is not a minus", "between 3 - 5 people", [("3", 3.0, "n:people"), ("5", 5.0, "n:people")]),
    ("factor verb", "Sales halved.", [("halved", 0.5, "n:time")]),
]


@pytest.mark.parametrize(("kind", "text", "expected"), FACETS, ids=[t[0] for t in FACETS])
def test_changed_fact_facets(kind: str, text: str, expected: list[tuple[str, float, str]]) -> None:
    got = [(q.text, q.value, q.slot) for q in extract(text).quantities]
    assert [(t, pytest.approx(v), s) for t, v, s in expected] == got


def test_degree_unit_letter_is_not_an_entity() -> None:
    # 6: "no reference claim states '100 °F', 'F'" — the F of °F is a unit, not a name
    assert extract("It was 100 °F in the shade.").entities == []


def test_readable_reasons() -> None:
    # 6: role swaps and numbers bound to years read as such
    j = _judge("Brazil beat Germany 7-1 in 2014.", ["Germany beat Brazil 7-1 in 2014."], [0.98])
    assert j.reason.startswith("roles swapped: response has Brazil … Germany, reference has Germany … Brazil")
    j = _judge(
        "The company had 450 employees in 2020 and 120 employees in 2023.",
        ["The company had 120 employees in 2020 and 450 employees in 2023."],
    )
    assert j.change == "450 in 2020 → 120 in 2020"


SUBJECTS = [
    ("determiner phrase", "The museum in Tromsø was built in 1943.", "museum"),
    ("name + auxiliary", "Lyon is the capital of France.", "lyon"),
    ("pronoun", "He was born in 1950.", None),
    ("verb-first fragment", "Speaks Spanish fluently.", None),
]


@pytest.mark.parametrize(("kind", "text", "head"), SUBJECTS, ids=[t[0] for t in SUBJECTS])
def test_subject_head(kind: str, text: str, head: str | None) -> None:
    assert subject_head(text) == head


# 5: decomposition. Expected claims and spans follow from the definitions in
#    ``claims.decompose`` (a claim's span is the stretch of text it was built from).
def test_bare_subject_is_never_a_claim() -> None:
    from claims.decompose import decompose

    texts = [
        c.text
        for c in decompose("The bridge, designed by Marit Olsen, opened in 1998 and is 1,420 metres long.")
    ]
    assert "The bridge." not in texts
    assert "The bridge was designed by Marit Olsen." in texts


def test_each_conjunct_span_ends_at_its_own_conjunct() -> None:
    from claims.decompose import decompose

    text = "The bridge opened in 1998 and is 1,240 metres long."
    got = [(c.text, text[c.start : c.end]) for c in decompose(text)]
    assert got == [
        ("The bridge opened in 1998.", "The bridge opened in 1998"),
        ("The bridge is 1,240 metres long.", "is 1,240 metres long"),
    ]


SENTENCES = [
    # a day number with a dot before a month name ends no sentence (German/French dates)
    ("German date", "Die Brücke wurde am 12. Mai 1998 eröffnet. Sie ist lang.", 2),
    ("German date without year", "Die Brücke wurde am 12. Mai eröffnet.", 1),
    ("French date", "Le pont a ouvert le 3. juin.", 1),
    ("English month before a year", "It opened on 12. May 1998 at noon.", 1),
    # ... but an English month-word that opens a new sentence still does
    ("number ends a sentence", "He scored 12. May was a good month.", 2),
]


@pytest.mark.parametrize(("kind", "text", "n"), SENTENCES, ids=[t[0] for t in SENTENCES])
def test_sentence_split_after_day_number(kind: str, text: str, n: int) -> None:
    from claims.decompose import split_sentences

    assert len(split_sentences(text)) == n


def test_clause_misparsed_as_modifier_is_split_per_verb() -> None:
    # 5: "The bridge opened in 1998 and is 1,420 metres long" holds two claims even when the
    #    parser takes "opened ..." for a modifier of "The bridge" (spaCy en_core_web_sm does)
    from claims.decompose import decompose

    text = "The bridge, designed by Marit Olsen, opened in 1998 and is 1,420 metres long."
    got = [(c.text, text[c.start : c.end]) for c in decompose(text)]
    assert got == [
        ("The bridge was designed by Marit Olsen.", "designed by Marit Olsen"),
        ("The bridge opened in 1998.", "opened in 1998"),
        ("The bridge is 1,420 metres long.", "is 1,420 metres long"),
    ]
