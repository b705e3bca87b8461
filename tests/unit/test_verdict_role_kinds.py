"""Kinds of fault in who does what: names (in lower case, opening the claim, rival names, short
forms), label-style claims, the subject of the evidence, objects, slots, argument and passive
swaps, on the demo, the shared cases and the Factcheck-GPT refutations, one table per kind.

Each table mixes rows that must flip with rows that must not; the rows use the cosine ``HIGH``
(0.93, tests/unit/verdict_rows.py) so that only the checks decide, and the expected verdicts follow
from the rule each table's comment names.
"""

from __future__ import annotations

import pytest

from claims.labels import label_sentence
from claims.types import Verdict
from claims.verdict.recase import recase
from tests.unit.verdict_rows import C, Row, S, U, check_row, judge_claim

# names written in lower case are names (claims.verdict.recase): a known name takes the
# reference's capitals; in a lower-case claim, the words in the slot of a reference's name
# ("in ...", "by ...") are a rival name when every other word is stated
LOWER_CASE_NAMES: list[Row] = [
    ("The opera house is in melbourne.", "The Opera House is in Sydney.", {C}),
    ("The opera house is in sydney.", "The Opera House is in Sydney.", {S}),
    ("The bridge was designed by rosa feld.", "The bridge was designed by Per Lunde.", {C}),
    ("The bridge was designed by per lunde.", "The bridge was designed by Per Lunde.", {S}),
    # the word is in the reference: no name slot to fill, no rival
    ("The museum is in the city centre.", "The museum is in the city centre.", {S}),
    # a name that modifies a common noun ("the E39 motorway") has no slot: "of traffic" is an
    # ordinary word, so the lanes are compared (not unsupported, 'Traffic' missing)
    ("The bridge carries six lanes of traffic.", "The bridge carries four lanes of the E39 motorway.", {C}),
    ("The bridge carries four lanes of traffic.", "The bridge carries four lanes of the E39 motorway.", {S}),
]


@pytest.mark.parametrize("row", LOWER_CASE_NAMES, ids=[r[0] for r in LOWER_CASE_NAMES])
def test_lower_case_names(row: Row) -> None:
    check_row(row)


# a claim written in lower case is judged as the same claim with its capitals
SAME_IN_LOWER_CASE = [
    ("The bridge was designed by Rosa Feld.", "The bridge was designed by Per Lunde."),
    ("The Opera House is in Melbourne.", "The Opera House is in Sydney."),
    ("Kestrel Robotics is based in Oslo.", "Kestrel Robotics is based in Oslo."),
    ("The museum is closed on Mondays.", "The Sandvik Museum is open every day."),
]


@pytest.mark.parametrize(("response", "reference"), SAME_IN_LOWER_CASE)
def test_lower_case_claim_judged_as_capitalised(response: str, reference: str) -> None:
    lower = response[0] + response[1:].lower()
    assert judge_claim(lower, [reference])[0] is judge_claim(response, [reference])[0]


def test_recase_changes_only_case_and_keeps_common_words() -> None:
    text = "The opera house is in melbourne."
    out = recase(text, ["The Opera House is in Sydney."])
    # "opera house" is the reference's name in lower case; "melbourne" fills the slot of "Sydney"
    assert out == "The Opera House is in Melbourne." and len(out) == len(text)
    # a capitalised claim is left as it is; a word the references write in lower case too stays
    assert recase("The Opera House is in Melbourne.", ["The Opera House is in Sydney."]).endswith(
        "Melbourne."
    )
    assert (
        recase("the museum opened.", ["The Museum of Art opened.", "The museum is big."])
        == "the museum opened."
    )


# label-style claims read as sentences (claims.labels, claims/data/label_predicates.tsv)
LABELS: list[Row] = [
    ("Founded: 2005.", "Kestrel Robotics was founded in 2011.", {C}),
    ("Founded: 2011.", "Kestrel Robotics was founded in 2011.", {S}),
    ("Kestrel Robotics, HQ: Bergen.", "Kestrel Robotics is headquartered in Oslo.", {C}),
    ("Kestrel Robotics, HQ: Oslo.", "Kestrel Robotics is headquartered in Oslo.", {S}),
    ("Kestrel Robotics: Founded: 2005.", "Kestrel Robotics was founded in 2011.", {C}),
]


@pytest.mark.parametrize("row", LABELS, ids=[r[0] for r in LABELS])
def test_label_claims(row: Row) -> None:
    check_row(row)


def test_label_sentence() -> None:
    assert label_sentence("HQ: Bergen.") == "headquartered in Bergen."
    assert label_sentence("Kestrel Robotics: HQ: Bergen.") == "Kestrel Robotics is headquartered in Bergen."
    assert label_sentence("Oslo, population: 700000.") == "Oslo has 700000 inhabitants."
    # an unknown label, a sentence with a colon: no label sentence
    assert label_sentence("Pro plan, price per month: $25.") is None
    assert label_sentence("Note: the bridge opened in 1981.") is None


# inference keeps the subject (claims.verdict.infer._about_subject); a subject swap is void when
# the references name the claim's subject elsewhere (claims.verdict.decide._distractor_free)
SUBJECT: list[Row] = [
    (
        "The Sandvik opened in 1981.",
        ["The museum opened in 1981", "The museum stands by the Sandvik fjord."],
        {U},
    ),
    ("The Sandvik opened in 1981.", ["The museum opened in 1981.", "Sandvik is a town near Bergen."], {U}),
    (
        "The Halvorsen Bridge has six lanes.",
        ["The Sandvik Bridge has six lanes.", "The Halvorsen Bridge opened in 1981."],
        {U},
    ),
    (
        "The Halvorsen Bridge has six lanes.",
        ["The Sandvik Bridge has six lanes.", "The Halvorsen Bridge has four lanes."],
        {C},
    ),
    ("Lyon is the capital of France.", ["Paris is the capital of France."], {C}),
]


@pytest.mark.parametrize("row", SUBJECT, ids=[f"{r[0]} / {r[1]}" for r in SUBJECT])
def test_subject_of_evidence(row: Row) -> None:
    check_row(row)


# the same subject and verb with another object is not support (clause_checks.object_swap_of),
# and at a high cosine a claim none of whose predicate words is stated only shares the topic
# (decide._supports); both are unsupported, not contradicted: the bridge may carry both.
# Kind: the shared case mixed_paragraph ("also carries a railway line"), own sentences here.
OBJECTS: list[Row] = [
    ("The Orre Bridge carries a railway line.", "The Orre Bridge carries two lanes of road traffic.", {U}),
    ("The Vesta Mill produces cotton yarn.", "The Vesta Mill produces woollen blankets.", {U}),
    ("The Orre Bridge carries a railway line.", "The Orre Bridge is 410 metres long.", {U}),
    # a value in the object is the value checks' to compare ("500 megawatts" / "MW")
    ("The Orre plant generates 500 megawatts.", "The Orre plant generates 500 MW of electricity.", {S}),
    # the object is stated (in another form, or with more words): support stays
    ("The Orre Bridge carries road traffic.", "The Orre Bridge carries two lanes of road traffic.", {S}),
    ("The Vesta Mill produces yarn.", "The Vesta Mill produces cotton yarn.", {S}),
    # a synonym of the verb with the same object is no object swap
    ("Tessel acquired Corvin Group.", "Tessel bought Corvin Group.", {S}),
]


@pytest.mark.parametrize("row", OBJECTS)
def test_objects(row: Row) -> None:
    check_row(row)


def test_object_swap_reason_names_both_objects() -> None:
    verdict, reason = judge_claim(
        "The Orre Bridge carries a railway line.", ["The Orre Bridge carries two lanes of road traffic."]
    )
    assert verdict is U
    assert "railway line" in reason and "road traffic" in reason


# a name of the claim that the reference states in another slot, while the claim's slot holds
# a name the claim lacks (roles._slot_swap): the reference names the subject, but the place is
# another ("... across the Halvorsen fjord" / "... across the Sandvik fjord")
SLOTS: list[Row] = [
    (
        "The Orre Bridge crosses the Vinje river near Dalby.",
        "The Orre Bridge crosses the Sola river near Dalby.",
        {C},
    ),
    (
        "The Orre Bridge crosses the Orre river near Dalby.",
        "The Orre Bridge crosses the Sola river near Dalby.",
        {C},
    ),
    (
        "The Orre Bridge crosses the Sola river near Dalby.",
        "The Orre Bridge crosses the Sola river near Dalby.",
        {S},
    ),
    # a list states the claim's name in a parallel slot after the other one: no swap
    (
        "The company has offices in Austin, Texas.",
        "The company has offices in Dallas, Texas, and Austin, Texas.",
        {S},
    ),
    (
        "The museum shows paintings by Munch from Norway.",
        "The museum shows paintings by Astrup from Norway and paintings by Munch from Norway.",
        {S},
    ),
]


@pytest.mark.parametrize("row", SLOTS)
def test_name_in_another_slot(row: Row) -> None:
    check_row(row)


# the claim's subject and object (or the sides of its comparison) traded around the same one-way
# relation is a role swap (roles.argument_swap, read from spaCy's parse): "Copper can displace
# iron" / "iron can displace copper" was supported at cosine 0.97. A symmetric verb
# (claims/data/symmetric_relations.tsv), a relation that is no verb with an object or comparison
# ("is the inverse of", "sits beside", "plus"), a change of voice, a denial on both sides, a
# chained comparison and the converse comparison ("less ... than" from the other side) are none
# (a word-order reading contradicts each of the last rows)
ARGUMENT_SWAPS: list[Row] = [
    (
        "Copper can displace iron from its salt solution.",
        "Iron can displace copper from its salt solution.",
        {C},
    ),
    ("Copper is more reactive than iron.", "Hence, iron is more reactive than copper.", {C}),
    ("Solar power overtook coal power.", "Coal power overtook solar power.", {C}),
    ("A horse is bigger than a dog.", "A dog is bigger than a horse.", {C}),
    ("Tea is less popular than coffee in the city.", "Coffee is less popular than tea in the city.", {C}),
    ("Copper is more reactive than iron.", "Copper is more reactive than iron.", {S}),
    ("Copper and iron are metals.", "Iron and copper are metals.", {S}),
    ("Iron reacts with copper.", "Copper reacts with iron.", {S}),
    ("Iron is similar to copper.", "Copper is similar to iron.", {S}),
    ("Iron is as hard as copper.", "Copper is as hard as iron.", {S}),
    ("Division is the inverse of multiplication.", "Multiplication is the inverse of division.", {S}),
    ("Force is proportional to acceleration.", "Acceleration is proportional to force.", {S}),
    ("The wolf resembles the dog.", "The dog resembles the wolf.", {S}),
    ("The liver sits beside the stomach.", "The stomach sits beside the liver.", {S}),
    ("Copper plus tin makes bronze.", "Tin plus copper makes bronze.", {S}),
    ("A horse is bigger than a dog.", "A dog is bigger than a cat, and a horse is bigger still.", {S, U}),
    ("Tea is more popular than coffee.", "Coffee is less popular than tea.", {S, U}),
    ("Copper displaces iron.", "Iron is displaced by copper.", {S, U}),
    ("Copper cannot displace iron.", "Iron cannot displace copper.", {S, U}),
    # a verb that is not one-way (claims/data/one_way_verbs.txt) allows both
    # directions, and a comparison with an antonym from the other side says the same
    ("The firefighter praised the police officer.", "The police officer praised the firefighter.", {S, U}),
    ("Insomnia can cause stress.", "Stress can cause insomnia.", {S, U}),
    ("The park adjoins the museum.", "The museum adjoins the park.", {S, U}),
    ("The Moon is smaller than the Earth.", "The Earth is larger than the Moon.", {S, U}),
    (
        "The bond market was less volatile than the stock market.",
        "The stock market was more volatile than the bond market.",
        {S, U},
    ),
]


@pytest.mark.parametrize("row", ARGUMENT_SWAPS, ids=[f"{r[0]} / {r[1]}" for r in ARGUMENT_SWAPS])
def test_argument_swaps(row: Row) -> None:
    check_row(row)


# a short form the claim spells out in parentheses ("natural language processing (NLP)") is
# stated by a reference that names the thing in full (claims.verdict.names.alias_stated); a
# short form without its phrase, or a phrase the reference lacks, still counts as missing
ALIASES: list[Row] = [
    ("Gold does not react with hydrochloric acid (HCl).", "Gold does not react with hydrochloric acid.", {S}),
    (
        "She works in natural language processing (NLP) at Stanford.",
        "She works in natural language processing at Stanford.",
        {S},
    ),
    ("Gold does not react with nitric acid (HNO3).", "Gold does not react with hydrochloric acid.", {U, C}),
    # a name in parentheses is no short form, and a short form must fit its phrase
    ("The company's CEO (Tim Cook) announced the phone.", "The company's CEO announced the phone.", {U}),
    ("Gold does not react with nitric acid (HCl).", "Gold does not react with nitric acid.", {U}),
    ("She works in NLP at Stanford.", "She works in computer vision at Stanford.", {U, C}),
]


@pytest.mark.parametrize("row", ALIASES)
def test_parenthesised_short_forms(row: Row) -> None:
    check_row(row)


# the plural of a noun ending in "e" keeps its stem ("genes" -> "gene", not "gen";
# claims.facets.vocabulary.stem_of): Factcheck-GPT "Genes are responsible for the production of
# proteins" / "A gene is a DNA sequence that encodes either RNA or a protein" (gold support) had
# "no reference claim about the same subject"; a sibilant plural still drops "-es"
PLURAL_STEMS: list[Row] = [
    ("Genes encode proteins.", "A gene encodes proteins.", {S}),
    ("The rules changed in 2020.", "The rule changed in 2020.", {S}),
    ("The taxes rose in 2020.", "The tax rose in 2020.", {S}),
    ("The genes were sequenced in 2020.", "The gems were sequenced in 2020.", {U}),
]


@pytest.mark.parametrize("row", PLURAL_STEMS)
def test_plural_stems(row: Row) -> None:
    check_row(row)


# A one-word name that opens the claim is a name when spaCy tags it so ("Google acquired ..."
# is not supported by "Microsoft acquired ...": a sentence-initial capital is no weak name)
OPENING_NAMES: list[Row] = [
    ("Google acquired LinkedIn in 2016.", "Microsoft acquired LinkedIn in 2016.", {C}),
    ("Germany won the 2014 World Cup.", "Argentina won the 2014 World Cup.", {C}),
    ("Germany won the 2014 World Cup.", "Germany won the 2014 World Cup.", {S}),
]


@pytest.mark.parametrize("row", OPENING_NAMES)
def test_opening_names(row: Row) -> None:
    check_row(row)


# another plain word in the claim word's place (claims.verdict.slots): unsupported, not support
SLOT_SWAPS: list[Row] = [
    ("The patient was treated with aspirin.", "The patient was treated with ibuprofen.", {U}),
    ("He was convicted of murder.", "He was convicted of manslaughter.", {U}),
    ("She won the silver medal in 2012.", "She won the gold medal in 2012.", {U}),
    ("He is the son of the founder.", "He is the grandson of the founder.", {U}),
    # more words in the reference, a described rival, an adjective (too many are synonyms): not
    # swapped
    ("He is a famous actor.", "He is a renowned actor.", {S}),
    ("It is a cheap hotel.", "It is an inexpensive hotel.", {S}),
    ("The patient was treated with aspirin.", "The patient was treated with aspirin and rest.", {S}),
    ("She won a medal in 2012.", "She won the gold medal in 2012.", {S}),
    ("The bridge carries four lanes of traffic.", "The bridge carries four lanes of the E39 motorway.", {S}),
]


@pytest.mark.parametrize("row", SLOT_SWAPS)
def test_slot_swaps(row: Row) -> None:
    check_row(row)


def test_place_and_time_fill_no_common_slot() -> None:
    # "in the evening" / "in the hotel" is not "another word in its place"
    from claims.facets import extract
    from claims.verdict.slots import slot_swap

    claim, ref = "The concert took place in the evening.", "The concert took place in the hotel."
    r = extract(claim)
    covered = {t for t in r.tokens if t in extract(ref).tokens}
    assert slot_swap(r, ref, 0, covered) is None
    treated = extract("The patient was treated with aspirin.")
    other = "The patient was treated with ibuprofen."
    found = slot_swap(treated, other, 0, {t for t in treated.tokens if t in extract(other).tokens})
    assert found is not None and (found.response_value, found.reference_value) == ("aspirin", "ibuprofen")


# a rival name in the same role contradicts at the cosine such short sentences have (0.59-0.68
# with all-MiniLM-L6-v2): the rival is the conflict, so the subject coverage leaves it out
# (claims.verdict.roles.subject_agrees); a name in another role does not
RIVAL_NAMES_AT_MODEST_COSINE: list[tuple[str, str, set[Verdict]]] = [
    ("The jury was chaired by Paul Reyes.", "The jury was chaired by Teodor Halm.", {C}),
    ("The Varga Prize was won by Ines Marlow.", "The Varga Prize was won by Anna Berg.", {C}),
    ("The museum is in Paris.", "The museum is in Rome.", {C}),
    ("The jury was chaired by Paul Reyes.", "The jury praised Teodor Halm.", {U}),
]


@pytest.mark.parametrize(
    "row", RIVAL_NAMES_AT_MODEST_COSINE, ids=[r[0] for r in RIVAL_NAMES_AT_MODEST_COSINE]
)
def test_rival_name_at_modest_cosine(row: tuple[str, str, set[Verdict]]) -> None:
    response, reference, allowed = row
    got, reason = judge_claim(response, [reference], cos=0.62)
    assert got in allowed, f"{response!r} vs {reference!r} -> {got.value} ({reason})"


# the acquirer and the acquired swapped in the passive, or with another verb of the same line of
# claims/data/one_way_verbs.txt ("bought" / "acquired"): it was supported (the parse read only
# active subjects and objects, and the other verb left a claim word unstated); the same
# direction in the passive agrees
PASSIVE_AND_SYNONYM_SWAPS: list[Row] = [
    (
        "Tessel was acquired by Corvin Group.",
        "Tessel, a Danish logistics company, bought Corvin Group for $40 million.",
        {C},
    ),
    ("Instagram bought Facebook in 2012.", "Facebook acquired Instagram in 2012 for $1 billion.", {C}),
    ("Microsoft was purchased by LinkedIn.", "Microsoft purchased LinkedIn in 2016.", {C}),
    ("Corvin Group was bought by Tessel.", "Tessel bought Corvin Group in 2019.", {S}),
    ("Facebook acquired Instagram in 2012.", "Facebook bought Instagram in 2012.", {S}),
]


@pytest.mark.parametrize("row", PASSIVE_AND_SYNONYM_SWAPS, ids=[r[0] for r in PASSIVE_AND_SYNONYM_SWAPS])
def test_passive_and_synonym_swaps(row: Row) -> None:
    check_row(row)


# a one-way verb that spaCy reads as a noun ("Copper displaces iron": a compound) still has its
# neighbours as subject and object (claims.verdict.one_way.one_way_roles; a Factcheck-GPT kind:
# the swapped reaction is not supported at cosine 0.99)
MISREAD_ONE_WAY: list[Row] = [
    ("Copper displaces iron from copper sulfate.", "Iron displaces copper from copper sulfate.", {C}),
    ("Iron displaces copper from copper sulfate.", "Iron displaces copper from copper sulfate.", {S}),
]


@pytest.mark.parametrize("row", MISREAD_ONE_WAY, ids=[r[0] for r in MISREAD_ONE_WAY])
def test_one_way_verb_read_as_a_noun(row: Row) -> None:
    check_row(row)
