"""Kinds of fault on the demo and the shared cases, one table per
kind; each mixes rows that must flip with rows that must not.

Rule-level rows (``claims.verdict.judge``) use the cosine ``HIGH`` (0.93, as in
tests/unit/test_verdict_checks.py) so that only the checks decide; the expected verdicts follow
from the rule each table's comment names. The decision rows (``claims.decision.decide``) use a
hand-made model whose score is a function of the cosine only, so that the guard under test is the
only thing that can change the verdict.
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.decision import FEATURE_NAMES, DecisionModel, decide
from claims.facets import extract, quantity_matches
from claims.labels import label_sentence
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.lexical import negative_form
from claims.verdict.recase import recase

C, S, U, INF = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.INFERRED
HIGH = 0.93
Row = tuple[str, str | list[str], set[Verdict]]


def _judge(response: str, refs: list[str], cos: float = HIGH) -> tuple[Verdict, str]:
    rcs = [ReferenceClaim(i, Claim(t, 0, len(t))) for i, t in enumerate(refs)]
    sim = np.full((1, len(refs)), cos, dtype=np.float32)
    j = judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=refs)[0]
    return j.verdict, j.reason


def _check(row: Row) -> None:
    response, reference, allowed = row
    refs = reference if isinstance(reference, list) else [reference]
    got, reason = _judge(response, refs)
    assert got in allowed, f"{response!r} vs {refs!r} -> {got.value} ({reason})"


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

# a value conflict needs the claim's predicate words in the reference claim; when the values count
# the same noun, half of them suffice (thresholds.coverage_predicate_counted 0.5): with 0.67
# "carries ... lanes of traffic" against "carries ... lanes of the E39 motorway across the Sandvik
# fjord" was no conflict (demo 02)
SAME_PREDICATE_TWO_OF_THREE: list[Row] = [
    (
        "The Halvorsen Bridge carries six lanes of traffic.",
        "The Halvorsen Bridge carries four lanes of the E39 motorway across the Sandvik fjord.",
        {C},
    ),
    # one of three is another predicate: another year of another event is no conflict
    ("The Halvorsen Bridge was repainted in 2004.", "The Halvorsen Bridge opened to traffic in 1998.", {U}),
]


@pytest.mark.parametrize("row", SAME_PREDICATE_TWO_OF_THREE, ids=[r[0] for r in SAME_PREDICATE_TWO_OF_THREE])
def test_same_predicate_two_of_three(row: Row) -> None:
    _check(row)


@pytest.mark.parametrize("row", LOWER_CASE_NAMES, ids=[r[0] for r in LOWER_CASE_NAMES])
def test_lower_case_names(row: Row) -> None:
    _check(row)


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
    assert _judge(lower, [reference])[0] is _judge(response, [reference])[0]


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


# ordinals and scores are one slot each (claims.verdict.compare._ordinal_rival: the nearest content
# words beside the ordinal; claims.facets.scores: "7-0" is one value in the slot "score")
ORDINALS_AND_SCORES: list[Row] = [
    ("Norway finished first in the medal table.", "Norway finished second in the medal table.", {C}),
    ("Norway came 2nd in the medal table.", "Norway finished first in the medal table.", {C}),
    # the same ordinal: no conflict (the verbs differ, so no support either)
    ("Norway came 1st in the medal table.", "Norway finished first in the medal table.", {S, U}),
    ("Brann won the final 7-0.", "Brann won the final 7-1.", {C}),
    ("Brann beat Molde 3-2 in the final.", "Brann beat Molde 3–1 in the final.", {C}),
    ("The final ended 2-2.", "The final ended 2–1 to Brann.", {C}),
    ("Brann won the final 2-1.", "Brann won the final 2–1.", {S}),
    # a range of hours is no score, even next to a score word
    ("The final lasted 4-6 hours.", "The final lasted between 4 and 6 hours.", {S, U}),
]


@pytest.mark.parametrize("row", ORDINALS_AND_SCORES, ids=[r[0] for r in ORDINALS_AND_SCORES])
def test_ordinals_and_scores(row: Row) -> None:
    _check(row)


def test_score_facet() -> None:
    (q,) = extract("Brann won the final 7-1.").quantities
    assert (q.slot, q.text, q.value) == ("score", "7-1", 7001.0)  # score_value: 7 * 1000 + 1
    assert [q.slot for q in extract("The game starts at 19:30.").quantities] == ["time"]
    assert all(q.slot != "score" for q in extract("The trip takes 4-6 hours.").quantities)  # no score word
    assert [q.text for q in extract("The 1998-99 season was won by Brann.").quantities] == ["1998-99"]


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
    _check(row)


def test_label_sentence() -> None:
    assert label_sentence("HQ: Bergen.") == "headquartered in Bergen."
    assert label_sentence("Kestrel Robotics: HQ: Bergen.") == "Kestrel Robotics is headquartered in Bergen."
    assert label_sentence("Oslo, population: 700000.") == "Oslo has 700000 inhabitants."
    # an unknown label, a sentence with a colon: no label sentence
    assert label_sentence("Pro plan, price per month: $25.") is None
    assert label_sentence("Note: the bridge opened in 1981.") is None


# a value in a compound sentence is compared in its own clause (decomposition splits it)
COMPOUND: list[Row] = [
    ("The bridge has six lanes.", "The bridge opened in 1981 and has four lanes.", {C}),
    ("The bridge has four lanes.", "The bridge opened in 1981 and has four lanes.", {S}),
]


@pytest.mark.parametrize("row", COMPOUND, ids=[r[0] for r in COMPOUND])
def test_compound_sentence_values(row: Row) -> None:
    _check(row)


# rounding (claims.facets.rounding): a value with a magnitude word states what it rounds; an
# approximation too far from a stated point value conflicts like a point
ROUNDING: list[Row] = [
    ("The city has about 2.1 million inhabitants.", "The city has 2,148,271 inhabitants.", {S}),
    ("The city has 2.1 million inhabitants.", "The city has 2,148,271 inhabitants.", {S}),
    ("The city has 2.1 million inhabitants.", "The city has 2,348,271 inhabitants.", {C}),
    ("The city has 2.1 million inhabitants.", "The city has 3.4 million inhabitants.", {C}),
    ("The city has about 3.4 million inhabitants.", "The city has 2,148,271 inhabitants.", {C}),
    ("The city has 2,148,271 inhabitants.", "The city has about 3.4 million inhabitants.", {C}),
    # a bound is no approximation: never a conflict with a value inside it, which states it
    # (60 staff are more than 40: not unsupported), and a value past it conflicts
    ("The museum has more than 40 staff.", "The museum has 60 staff.", {S}),
    ("The museum has more than 40 staff.", "The museum has 38 staff.", {C}),
    ("The project cost over $10 million.", "The project cost $9.8 million.", {C}),
    ("The trial enrolled fewer than 500 patients.", "The trial enrolled 542 patients.", {C}),
]


@pytest.mark.parametrize("row", ROUNDING, ids=[r[0] for r in ROUNDING])
def test_rounding(row: Row) -> None:
    _check(row)


def test_rounds_to_is_half_a_step() -> None:
    (a,) = extract("2.1 million people").quantities
    (b,) = extract("2,149,999 people").quantities
    (c,) = extract("2,150,001 people").quantities
    assert quantity_matches(a, b) and not quantity_matches(a, c)  # step 100,000: 2.05 M to 2.15 M


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
    _check(row)


def _cosine_model() -> DecisionModel:
    """P(support) = sigmoid(10 * (cos1 - 0.7)); threshold 0.5; no margin."""
    d = len(FEATURE_NAMES)
    coef = np.zeros(d)
    coef[FEATURE_NAMES.index("cos1")] = 10.0
    return DecisionModel("test", FEATURE_NAMES, np.zeros(d), np.ones(d), coef, -7.0, -1.0, 0.0, 0.5, 0.0,
                         {"contradicted": 0.9, "qualification_dropped": 0.8})  # fmt: skip


def _decide(response: str, refs: list[str], cos: float, rule: Verdict) -> Verdict:
    rcs = [ReferenceClaim(0, Claim(t, 0, len(t), position=i)) for i, t in enumerate(refs)]
    sim = np.full((1, len(refs)), cos, dtype=np.float32)
    out = decide([Claim(response, 0, len(response))], rcs, sim, [Judgement(0, rule)], model=_cosine_model())
    return out[0].verdict


def test_verified_rule_support_stands() -> None:
    # every value stated as a facet and every word in one reference claim: the rule support stands
    # at a cosine (0.6) where the model alone says no (sigmoid(-1) < 0.5)
    refs = ["The city has 2,148,271 inhabitants."]
    assert _decide("The city has about 2.1 million inhabitants.", refs, 0.6, S) is S
    # a word the reference lacks: the model decides
    assert _decide("The coastal city has about 2.1 million inhabitants.", refs, 0.6, S) is U


def test_model_support_needs_the_value_of_the_named_subject() -> None:
    refs = ["The Sandvik Bridge has six lanes.", "The Halvorsen Bridge opened in 1981."]
    assert _decide("The Halvorsen Bridge has six lanes.", refs, 0.9, U) is U
    assert _decide("The Sandvik Bridge has six lanes.", refs, 0.9, U) is S


# the same subject and verb with another object is not support (clause_checks._object_swap),
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
    _check(row)


def test_object_swap_reason_names_both_objects() -> None:
    verdict, reason = _judge(
        "The Orre Bridge carries a railway line.", ["The Orre Bridge carries two lanes of road traffic."]
    )
    assert verdict is U
    assert "railway line" in reason and "road traffic" in reason


def test_object_swap_stands_against_the_model() -> None:
    # the rule's object finding stands like a conflict (claims.decision.STANDING_FINDINGS): at
    # cosine 0.9 the cosine-only model says support (sigmoid(2) > 0.5), the verdict stays
    response, refs = (
        "The Orre Bridge carries a railway line.",
        ["The Orre Bridge carries two lanes of road traffic."],
    )
    rcs = [ReferenceClaim(0, Claim(refs[0], 0, len(refs[0])))]
    sim = np.full((1, 1), 0.9, dtype=np.float32)
    rules = judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=refs)
    assert rules[0].finding == "object"
    out = decide([Claim(response, 0, len(response))], rcs, sim, rules, model=_cosine_model())
    assert out[0].verdict is U and out[0].confidence is not None
    # without the finding the same unsupported verdict is overturned by the model
    plain = [Judgement(0, U)]
    assert decide([Claim(response, 0, len(response))], rcs, sim, plain, model=_cosine_model())[0].verdict is S


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
    _check(row)


# one value in units of two systems (facets.rounding.converts_to): within 5 %
# (CONVERSION_TOLERANCE: "300 m (1,000 ft)", "3 miles" / "5 km"); 300 m = 984.25 ft,
# 100 km = 62.14 miles, 5 km = 3.11 miles, 5 kg = 11.02 lb (exact factors in facets.vocabulary)
CONVERSIONS: list[Row] = [
    ("The tower is 300 metres tall.", "The tower is 984 feet tall.", {S}),
    ("The tower is 300 metres tall.", "The tower is 1,000 feet tall.", {S}),
    ("The race is 100 km long.", "The race is 62 miles long.", {S}),
    ("The crate weighs 5 kg.", "The crate weighs 11 lb.", {S}),
    ("The trail is 3 miles long.", "The trail is 5 km long.", {S}),
    # another value: 1,100 ft is 335 m; 300 feet is not 300 metres
    ("The tower is 300 metres tall.", "The tower is 1,100 feet tall.", {C}),
    ("The tower is 300 metres tall.", "The tower is 300 feet tall.", {C}),
    # one unit under two names is compared exactly: $45 is not USD 46
    ("The ticket costs $45.", "The ticket costs USD 46.", {C}),
    ("The ticket costs $45.", "The ticket costs USD 45.", {S}),
    # no slack for small integers, units of one system, durations or temperatures:
    # 1 mile = 1.61 km, 1 m = 3.28 ft, 10 lb = 4.54 kg, 1 hour = 60 minutes, 5.1 km = 5,100 m,
    # 1 °F = -17.2 °C
    ("The trail is 1 mile long.", "The trail is 2 km long.", {C}),
    ("The rope is 1 m long.", "The rope is 5 ft long.", {C}),
    ("The crate weighs 10 lb.", "The crate weighs 5 kg.", {C}),
    ("The meeting lasted 1 hour.", "The meeting lasted 89 minutes.", {C}),
    ("The route is 5.1 km long.", "The route is 5,000 m long.", {C}),
    ("It was 1 °F in Oslo.", "It was -10 °C in Oslo.", {C}),
]


@pytest.mark.parametrize("row", CONVERSIONS)
def test_unit_conversions(row: Row) -> None:
    _check(row)


# a denial by determiner ("No survivors were found") flips the claim it shares every word with:
# the cue right before the first shared word counts as among them (clause_checks._cue_is_local)
DETERMINER_NEGATION: list[Row] = [
    ("Survivors were found in the wreck.", "No survivors were found in the wreck.", {C}),
    ("No survivors were found in the wreck.", "Survivors were found in the wreck.", {C}),
    ("No survivors were found in the wreck.", "No survivors were found in the wreck.", {S}),
    # the cue must be a word of its own: "Notably" holds no "No"
    (
        "Survivors were found in the wreck.",
        "Notably survivors were found in the wreck with no injuries.",
        {S, U},
    ),
    # a count against a denial: the value is not stated, no flip is called on it
    ("Three survivors were found in the wreck.", "No survivors were found in the wreck.", {U, C}),
]


@pytest.mark.parametrize("row", DETERMINER_NEGATION)
def test_determiner_negation(row: Row) -> None:
    _check(row)


# ---- kinds of the Factcheck-GPT refutations: each row a kind, not a case

# the claim's subject and object (or the sides of its comparison) traded around the same one-way
# relation is a role swap (roles._argument_swap, read from spaCy's parse): "Copper can displace
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
    _check(row)


# a clause that denies the claim's words among more words of its own is no flip (too little of
# it is the claim's), but it is no support either (clause_checks._polarity): "Copper cannot
# displace iron from its salt solution as iron is more reactive ..." supported "Copper can
# displace iron from its salt solution"
DENIAL_IN_A_LONGER_CLAUSE: list[Row] = [
    (
        "Copper can displace iron from its salt solution.",
        "Copper cannot displace iron from its salt solution as iron is more reactive than copper"
        " according to the reactivity series of metals.",
        {U},
    ),
    (
        "Copper can displace iron from its salt solution.",
        "Copper cannot displace iron from its salt solution.",
        {C},
    ),
    (
        "Copper can displace silver from its salt solution.",
        "Copper can displace silver from its salt solution as copper is more reactive than silver"
        " according to the reactivity series of metals.",
        {S},
    ),
]


@pytest.mark.parametrize("row", DENIAL_IN_A_LONGER_CLAUSE, ids=[r[1][:50] for r in DENIAL_IN_A_LONGER_CLAUSE])
def test_denial_in_a_longer_clause(row: Row) -> None:
    _check(row)


def test_denial_in_a_longer_clause_reason_names_the_denial() -> None:
    row = DENIAL_IN_A_LONGER_CLAUSE[0]
    _, reason = _judge(row[0], [str(row[1])])
    assert "denies its words" in reason


# units named with their system ("265 metric tons (261 long tons)" was read as counts of "metric"
# and "long"), knots and nautical miles: the vocabulary's unit table (claims/facets/vocabulary.py)
UNIT_NAMES: list[Row] = [
    (
        "The submarine had a displacement of 662 tons when surfaced.",
        "The submarine displaced 265 metric tons when surfaced.",
        {C},
    ),
    (
        "The submarine had a displacement of 265 tons when surfaced.",
        "The submarine displaced 265 metric tons when surfaced.",
        {S},
    ),
    # 261 long tons = 265.2 t: one value in two systems (rounding.CONVERSION_TOLERANCE)
    (
        "The submarine displaced 265 tonnes when surfaced.",
        "The submarine displaced 261 long tons when surfaced.",
        {S},
    ),
    ("The ferry sails at 30 knots.", "The ferry sails at 12 knots.", {C}),
    ("The ferry sails at 9 knots.", "The ferry sails at 17 km/h.", {S}),
    # a capital inside a word is no name: "20 kN" read "N" as an entity and contradicted the
    # sentence itself ("entity N ≠ N")
    ("The engine produces 20 kN of thrust.", "The engine produces 20 kN of thrust.", {S}),
    # ... but one lower-case letter before the capital belongs to the name (iPhone/iPad)
    ("The update came to iPhone users first.", "The update came to iPad users first.", {C}),
    ("The reef lies 12 nautical miles offshore.", "The reef lies 22 km offshore.", {S}),
]


@pytest.mark.parametrize("row", UNIT_NAMES, ids=[f"{r[0]} / {r[1]}" for r in UNIT_NAMES])
def test_unit_names(row: Row) -> None:
    _check(row)


def test_distributive_one_is_no_count() -> None:
    """ "from one generation to the next" counts nothing (number_words._DISTRIBUTIVE): the claim's
    "one" was a value no reference stated; "one metre to the left" still counts."""
    assert extract("Traits pass from one generation to the next.").quantities == []
    assert extract("Cells signal from one cell to another.").quantities == []
    assert [q.text for q in extract("It moved one metre to the left.").quantities] == ["one metre"]
    # not after "from": a count ("one kilometre to the next village" is kept)
    assert [q.text for q in extract("It is one kilometre to the next village.").quantities] == [
        "one kilometre"
    ]


# a word denied by a negative prefix is an antonym flip between adjectives (verdict.lexical,
# claims/data/negative_prefixes.tsv): "renewable" / "non-renewable" and "safe" / "unsafe" were
# supported at cosine 0.9+. Look-alikes (claims/data/not_denials.txt), a double negation, a word
# that is no adjective ("told" / "untold", "known" / "unknown") and a time limit ("unbeaten until
# the final") are no flip
NEGATIVE_PREFIXES: list[Row] = [
    ("The appointment is renewable.", "The appointment is non-renewable.", {C}),
    ("The appointment is non-renewable.", "The appointment is renewable.", {C}),
    ("The bridge is safe.", "The bridge is unsafe.", {C}),
    ("The bridge is unsafe.", "The bridge is safe.", {C}),
    ("The permit is valid.", "The permit is invalid.", {C}),
    ("It is possible to land on Jupiter.", "It is impossible to land on Jupiter.", {C}),
    ("It is a native species.", "It is a non-native species.", {C}),
    ("The bridge is safe.", "The bridge is safe.", {S}),
    ("The gas is flammable.", "The gas is inflammable.", {S}),
    ("The bridge is safe.", "The bridge is not unsafe.", {S, U}),
    ("The team was beaten in the final.", "The team was unbeaten until the final.", {S, U}),
    ("The species was known to science.", "The species was unknown to science until 1990.", {S, U}),
    ("The nations formed an alliance.", "The nations formed an informal alliance.", {S, U}),
    ("Critics praised the film.", "Uncritical viewers praised the film.", {S, U}),
    # "in-" and "im-" deny only listed words, and the two adjectives must
    # describe the same noun
    ("The workshop was formative.", "The workshop was informative.", {S, U}),
    ("The families were migrant.", "The families were immigrant.", {S, U}),
    ("The new bridge is safe.", "The new bridge replaced the unsafe old crossing.", {S, U}),
]


@pytest.mark.parametrize("row", NEGATIVE_PREFIXES, ids=[f"{r[0]} / {r[1]}" for r in NEGATIVE_PREFIXES])
def test_negative_prefixes(row: Row) -> None:
    _check(row)


@pytest.mark.parametrize(
    ("word", "text", "expected"),
    [
        ("renewable", "a non-renewable term", "non-renewable"),
        ("non-renewable", "a renewable term", "renewable"),  # the claim's word is the negative form
        ("likely", "It is unlikely.", "unlikely"),
        ("agree", "They disagree.", "disagree"),  # "dis-" only on its listed words
        ("safe", "both safe and unsafe", None),  # the word itself is stated
        ("famous", "He is infamous.", None),  # a listed look-alike
        ("less", "unless it rains", None),
        ("credit", "an incredible story", None),  # "credible" is not a form of "credit"
        ("tent", "with intent", None),  # "in-" denies only its listed words
        ("formative", "an informative talk", None),
        ("renewal", "a non-renewable term", None),  # another word, not another form
    ],
)
def test_negative_form(word: str, text: str, expected: str | None) -> None:
    assert negative_form(word, text) == expected


# a determiner cue ("no", "without") denies only the word after it (clause_checks._cue_is_local):
# "The bill passed without opposition in the Senate" does not contradict "The bill passed in the
# Senate"; "No survivors were found" still denies "Survivors were found"
DETERMINER_CUES: list[Row] = [
    ("The bill passed in the Senate.", "The bill passed without opposition in the Senate.", {S, U}),
    ("The bill passed in the Senate.", "The bill passed with no opposition in the Senate.", {S, U}),
    ("Survivors were found in the wreck.", "No survivors were found in the wreck.", {C}),
    ("The bill passed with opposition.", "The bill passed without opposition.", {C}),
    ("The museum charges a fee.", "The museum charges no fee.", {C}),
]


@pytest.mark.parametrize("row", DETERMINER_CUES, ids=[f"{r[0]} / {r[1]}" for r in DETERMINER_CUES])
def test_determiner_cues(row: Row) -> None:
    _check(row)


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
    _check(row)


# "a pair of" counts two (claims.facets.number_words._pair_words): Factcheck-GPT's "the merging of
# two supermassive black holes" against "a pair of merging ... binary black holes" (gold support)
# lacked the value 'two'; another count against the pair conflicts
PAIRS: list[Row] = [
    ("The merging of two black holes produces light.", "A pair of black holes merging produces light.", {S}),
    ("The team has two coaches.", "The team has a pair of coaches.", {S}),
    ("The team has three coaches.", "The team has a pair of coaches.", {C}),
    # "a couple of" is vague: no value, so the claim's count stays unstated
    ("The team has two coaches.", "The team has a couple of coaches.", {U}),
    # a pair of jeans is one thing
    ("She bought two jeans.", "She bought a pair of jeans.", {U}),
]


@pytest.mark.parametrize("row", PAIRS)
def test_a_pair_counts_two(row: Row) -> None:
    _check(row)


# "is to" after a noun of function defines what something does; it is no plan
# (claims.facets.polarity._FUNCTION_IS_TO; Factcheck-GPT "Recruiters are responsible for
# screening candidates" / "An HR recruiter's primary responsibility is to ... screen ...", gold
# support, was qualification_dropped); nouns of aim and plain "is to" stay plans
Q = Verdict.QUALIFICATION_DROPPED
FUNCTION_IS_TO: list[Row] = [
    (
        "Recruiters are responsible for screening candidates.",
        "A recruiter's primary responsibility is to attract, screen, and select qualified candidates.",
        {S},
    ),
    ("The kidneys filter blood.", "The role of the kidneys is to filter blood.", {S}),
    ("The company doubled its revenue.", "The company's goal is to double its revenue.", {Q}),
    ("The bridge opened in 2025.", "The bridge is to open in 2025.", {Q}),
    # "are to be cut" is a plan whatever the noun ("jobs are to be cut")
    ("1,000 jobs were cut in 2025.", "1,000 jobs are to be cut in 2025.", {Q}),
]


@pytest.mark.parametrize("row", FUNCTION_IS_TO)
def test_is_to_after_a_noun_of_function(row: Row) -> None:
    _check(row)


# the plural of a noun ending in "e" keeps its stem ("genes" -> "gene", not "gen";
# claims.facets.vocabulary._stem): Factcheck-GPT "Genes are responsible for the production of
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
    _check(row)


# "in talks to" is a plan the response must keep; "former" and "current"
# exclude each other (claims/data/antonyms.tsv). "will" stays no hedge: a dated reference's
# "will air from March 4th" may have happened since (tests/unit/test_verdict_evidence_kinds.py)
PLANS_AND_ROLES: list[Row] = [
    ("Disney acquired the studio.", "Disney is in talks to acquire the studio.", {Q}),
    (
        "The device shuts down when the battery is low.",
        "The device will shut down when the battery is low.",
        {S},
    ),
    ("Jack Dorsey is the current CEO of Block.", "Jack Dorsey is the former CEO of Block.", {C}),
]


@pytest.mark.parametrize("row", PLANS_AND_ROLES)
def test_plans_and_former_roles(row: Row) -> None:
    _check(row)


# frequencies are units ("120 Hz" against "60 Hz" is no bare number "120" and no name "Hz"),
# and a count before a capitalised modifier counts the noun
# after it ("two Michelin stars" against "one Michelin star" does not lack 'two')
UNITS_AND_COUNTS: list[Row] = [
    ("The display refreshes at 120 Hz.", "The display refreshes at 60 Hz.", {C}),
    ("The CPU runs at 3.2 GHz.", "The CPU runs at 3,200 MHz.", {S}),
    ("The restaurant has two Michelin stars.", "The restaurant has one Michelin star.", {C}),
    ("He won five Grand Slam titles.", "He won five Grand Slam titles.", {S}),
    # a year before a name counts nothing
    ("The 2008 Olympic games were held in Beijing.", "The 2008 Olympic games were held in Beijing.", {S}),
]


@pytest.mark.parametrize("row", UNITS_AND_COUNTS)
def test_frequency_units_and_counts_before_names(row: Row) -> None:
    _check(row)


# quantifiers and degree (claims.verdict.degree, claims/data/quantifiers.tsv): none
# is `supported` on the same words. Few/rarely exclude many/most/often/usually (a conflict); a
# universal claim against a weaker quantifier drops the reference's qualification; "most" against
# "some" and a superlative the reference does not grade are missing. A weaker claim is entailed,
# and quantifiers of different words are not compared. Factcheck-GPT: "Compressed air is the most
# common ... gas mixture" against a passage that calls it common (gold: irrelevant).
QUANTIFIERS_AND_DEGREE: list[Row] = [
    ("Most voters supported the plan.", "Few voters supported the plan.", {C}),
    ("He rarely walks to work.", "He usually walks to work.", {C}),
    ("All employees received a bonus.", "Some employees received a bonus.", {Q}),
    ("The museum is always open on Mondays.", "The museum is sometimes open on Mondays.", {Q}),
    ("The team always wins at home.", "The team usually wins at home.", {Q}),
    ("Most of the voters supported the plan.", "Some voters supported the plan.", {U}),
    (
        "The drug is the most effective treatment for migraines.",
        "The drug is an effective treatment for migraines.",
        {U},
    ),
    ("Oslo is the largest city in Norway.", "Oslo is a large city in Norway.", {U}),
    # "one of the largest" limits "the largest" (a qualification), not the other way round
    ("Oslo is the largest city in Norway.", "Oslo is one of the largest cities in Norway.", {Q}),
    ("The drug is the most effective treatment.", "The drug is among the most effective treatments.", {Q}),
    ("Oslo is one of the largest cities in Norway.", "Oslo is the largest city in Norway.", {S}),
    # entailed or stated: no finding
    ("Some employees received a bonus.", "All employees received a bonus.", {S}),
    ("He sometimes walks to work.", "He always walks to work.", {S}),
    ("Oslo is the largest city in Norway.", "Oslo is the largest city in Norway.", {S}),
    ("The drug is the most effective treatment.", "The drug is the most effective treatment.", {S}),
    # another word quantified: not compared ("most voters" / "few members ... voted")
    (
        "Most voters supported the plan.",
        "Most voters supported the plan, though few members of the council did.",
        {S},
    ),
]


@pytest.mark.parametrize("row", QUANTIFIERS_AND_DEGREE, ids=[r[0] for r in QUANTIFIERS_AND_DEGREE])
def test_quantifiers_and_degree(row: Row) -> None:
    _check(row)


def test_claim_without_quantifier_leaves_the_reference_unparsed() -> None:
    # a claim with no quantifier word has no quantifier finding whatever the reference says, so
    # the reference's clause is not parsed for one (52 of the 146 single parses of
    # the bench workload's 300 audits); the reverse still compares
    from claims import parses
    from claims.verdict.degree import compare_quantifiers, quantifiers

    reference = "Most residents of the Varga valley own two cars."
    parses.clear()
    quantifiers.cache_clear()  # its own cache would answer without a parse
    assert compare_quantifiers("Residents of the Varga valley own two cars.", reference) is None
    assert parses._get(reference) is None
    found = compare_quantifiers("Few residents of the Varga valley own two cars.", reference)
    assert found is not None and found[0] == "conflict"
    assert parses._get(reference) is not None


def test_degree_gap_stands_against_the_model() -> None:
    # like the object finding: at cosine 0.9 the cosine-only model says support, the gap stands
    response, ref = "The drug is the most effective treatment.", "The drug is an effective treatment."
    rcs = [ReferenceClaim(0, Claim(ref, 0, len(ref)))]
    sim = np.full((1, 1), 0.9, dtype=np.float32)
    rules = judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=[ref])
    assert rules[0].finding == "degree" and "most effective" in rules[0].reason
    out = decide([Claim(response, 0, len(response))], rcs, sim, rules, model=_cosine_model())
    assert out[0].verdict is U


# kinds, each with rows that must not flip.
# A one-word name that opens the claim is a name when spaCy tags it so ("Google acquired ..."
# is not supported by "Microsoft acquired ...": a sentence-initial capital is no weak name)
OPENING_NAMES: list[Row] = [
    ("Google acquired LinkedIn in 2016.", "Microsoft acquired LinkedIn in 2016.", {C}),
    ("Germany won the 2014 World Cup.", "Argentina won the 2014 World Cup.", {C}),
    ("Germany won the 2014 World Cup.", "Germany won the 2014 World Cup.", {S}),
]


@pytest.mark.parametrize("row", OPENING_NAMES)
def test_opening_names(row: Row) -> None:
    _check(row)


# "didn't" denies like "did not", and a past form states the words of its base ("won" / "did not
# win", "voted" / "did not vote": claims/data/irregular_verbs.tsv and the dropped "e")
NEGATED_FORMS: list[Row] = [
    ("The senator voted for the bill.", "The senator didn't vote for the bill.", {C}),
    ("He won the election.", "He did not win the election.", {C}),
    ("The company filed for bankruptcy.", "The company did not file for bankruptcy.", {C}),
    ("He won the election.", "He won the election in 2010.", {S}),
    ("The senator voted for the bill.", "The senator did vote for the bill.", {S}),
]


@pytest.mark.parametrize("row", NEGATED_FORMS)
def test_negated_forms(row: Row) -> None:
    _check(row)


# counts of a name in the plural ("three Nobel Prizes") and bare numbers after "<noun> of"
# ("a capacity of 50,000") have a slot, so another value there conflicts; a place the reference
# does not name ("signed in Paris") does not make the claim another event
VALUE_SLOTS: list[Row] = [
    ("Marie Curie won three Nobel Prizes.", "Marie Curie won two Nobel Prizes.", {C}),
    ("The stadium has a capacity of 50,000.", "The stadium has a capacity of 5,000.", {C}),
    ("The treaty was signed in Paris in 1921.", "The treaty was signed in 1922.", {C}),
    ("The stadium has a capacity of 50,000.", "The stadium has a capacity of 50,000 seats.", {S}),
    ("The treaty was signed in Paris in 1921.", "The treaty was signed in 1921.", {U}),
]


@pytest.mark.parametrize("row", VALUE_SLOTS)
def test_value_slots(row: Row) -> None:
    _check(row)


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
    _check(row)


# a role or state given as current that the reference says has ended ("the former CEO", "was
# CEO until 2019"; claims.verdict.lexical.ended_state): the stale fact was supported
ENDED_STATES: list[Row] = [
    ("Smith is the CEO of Acme.", "Smith, the former CEO of Acme, now runs a charity.", {C}),
    ("Smith is the CEO of Acme.", "Smith was CEO of Acme until 2019.", {C}),
    ("He is married to Anna.", "He was married to Anna until their divorce in 2010.", {C}),
    ("Smith leads Acme.", "Smith led Acme until 2019.", {C}),
    # the claim in the past, or the state still holding: no conflict
    ("Smith was the CEO of Acme.", "Smith, the former CEO of Acme, now runs a charity.", {S}),
    ("Smith is the CEO of Acme.", "Smith has been CEO of Acme since 2019.", {S}),
]


@pytest.mark.parametrize("row", ENDED_STATES)
def test_ended_states(row: Row) -> None:
    _check(row)


# events that did not (or not yet) happen, and sources that are only reported:
# none is supported. "nearly won" denies the win ("nearly 500" is a number); "offered to",
# "forecast to" are plans; "stopped producing" ends "still produces"; "There is no evidence
# that X" denies X; "according to unnamed sources" reports
EVENTS_NOT_HAPPENED: list[Row] = [
    ("The team won the championship.", "The team almost won the championship but lost in overtime.", {C}),
    ("The team won the championship.", "The team nearly won the championship.", {C}),
    ("The CEO resigned.", "The CEO offered to resign.", {Q}),
    ("The economy grew by 2%.", "The economy is forecast to grow by 2%.", {Q}),
    ("The company still produces typewriters.", "The company stopped producing typewriters in 1995.", {C}),
    ("The vaccine causes autism.", "There is no evidence that the vaccine causes autism.", {C}),
    ("The CEO resigned.", "According to unnamed sources, the CEO resigned.", {Q}),
    ("Nearly 500 people attended.", "Nearly 500 people attended.", {S}),
    ("The team won the championship.", "The team won the championship in overtime.", {S}),
]


@pytest.mark.parametrize("row", EVENTS_NOT_HAPPENED)
def test_events_that_did_not_happen(row: Row) -> None:
    _check(row)


# comparatives and outcomes told with other words (claims/data/antonyms.tsv); "lost
# to" / "defeated" is not listed: between two parties it is the converse as often as the opposite
OTHER_WORD_ANTONYMS: list[Row] = [
    ("The new model is cheaper than the old one.", "The new model is more expensive than the old one.", {C}),
    ("The drug is safer than aspirin.", "The drug is more dangerous than aspirin.", {C}),
    ("The currency weakened against the dollar.", "The currency strengthened against the dollar.", {C}),
    ("Inflation slowed in March.", "Inflation accelerated in March.", {C}),
    ("The bill was vetoed by the governor.", "The bill was signed by the governor.", {C}),
    ("Federer lost to Nadal in the final.", "Nadal defeated Federer in the final.", {S}),
]


@pytest.mark.parametrize("row", OTHER_WORD_ANTONYMS)
def test_antonyms_in_other_words(row: Row) -> None:
    _check(row)


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


# controls of the checks: each row is a false contradiction (or a false
# support) of a simpler rule
FLIP_CONTROLS: list[Row] = [
    ("Smith is the CEO of Acme.", "Smith succeeded the former CEO of Acme in 2020.", {S, U}),
    ("The bank is open.", "The bank was open until noon on Saturday.", {S, U}),
    ("Smith is the CEO of Acme.", "Smith was CEO of Acme until 2019 and again since 2021.", {S, U}),
    ("Smith is president.", "Smith was vice president until 2016.", {S, U}),
    ("He won over 20 medals.", "He won 18 gold medals and 7 silver medals.", {S, U}),
    ("Most residents own cars.", "Few residents own bicycles, but most own cars.", {S, U}),
    ("Flying is safer than driving.", "Driving is more dangerous than flying.", {S, U}),
    ("He is the organizer.", "He is one of the protest organizers.", {S, U}),
    ("The rate rose in 2020.", "The rat population rose in 2020.", {U}),
]


@pytest.mark.parametrize("row", FLIP_CONTROLS)
def test_flip_controls(row: Row) -> None:
    _check(row)


# false contradictions on correct answers and false supports on stale ones
CORRECT_AND_STALE: list[Row] = [
    # "not ... until" began then; stopping a narrower product ends nothing the claim says
    ("The drug is available in the US.", "The drug was not available in the US until 2019.", {S, U}),
    ("Apple produces the iPhone.", "Apple stopped producing the iPhone mini in 2023.", {S, U}),
    # leaving a role ends it
    ("Jeff Bezos is the CEO of Amazon.", "Jeff Bezos stepped down as CEO of Amazon in 2021.", {C}),
    # units as words and symbols (claims.facets.vocabulary: power, energy, voltage)
    ("The charger delivers up to 15 watts.", "The charger delivers up to 15 W.", {S}),
    ("The adapter outputs 20 volts.", "The adapter outputs 20 V.", {S}),
    ("The charger delivers 15 watts.", "The charger delivers 25 W.", {C}),
    # a "not" that agrees with a negative word (claims/data/antonyms.tsv)
    ("Ibuprofen is not recommended during pregnancy.", "Ibuprofen should be avoided during pregnancy.", {S}),
    ("Ibuprofen is recommended during pregnancy.", "Ibuprofen should be avoided during pregnancy.", {C}),
]


@pytest.mark.parametrize("row", CORRECT_AND_STALE)
def test_correct_and_stale_answers(row: Row) -> None:
    _check(row)


# ------------------------------------------------------------- numbers, names, offices, ranks

# "The <noun> of X is N": the subject's noun is the number's slot, as in "a <noun> of N"
# (claims.facets.number_slots._of_slot), so another number is a conflict (not unsupported: a bare
# number had no slot); another subject's number or a person's age stays apart
COPULA_SLOTS: list[Row] = [
    ("The population of Vossa is 3.4 million.", "The population of Vossa is 3.1 million.", {C}),
    ("Vossa's population is 3.4 million.", "The population of Vossa is 3.1 million.", {C}),
    ("The capacity of the stadium is 52,000.", "The capacity of the stadium is 50,000.", {C}),
    ("The median age in Vossa is 41.", "The median age in Vossa is 38.", {C}),
    ("The population of Vossa is 3.1 million.", "The population of Vossa is 3.1 million.", {S}),
    ("The population of Vossa is 3.4 million.", "The area of Vossa is 3.1 million hectares.", {U}),
]


@pytest.mark.parametrize("row", COPULA_SLOTS, ids=[r[0] for r in COPULA_SLOTS])
def test_copula_subject_is_the_slot(row: Row) -> None:
    _check(row)


# a rival name in the same role contradicts at the cosine such short sentences have (0.59-0.68
# with all-MiniLM-L6-v2): the rival is the conflict, so the subject coverage leaves it out
# (claims.verdict.roles._subject_agrees); a name in another role does not
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
    got, reason = _judge(response, [reference], cos=0.62)
    assert got in allowed, f"{response!r} vs {reference!r} -> {got.value} ({reason})"


# "no longer" in the reference denies a present claim ("no" is no determiner of
# "longer"); a claim in the past is not denied
NO_LONGER_IN_THE_REFERENCE: list[Row] = [
    ("Ana Ruiz is the CEO of Tenda.", "Ana Ruiz is no longer the CEO of Tenda.", {C}),
    ("Alto still manufactures bicycles.", "Alto no longer manufactures bicycles.", {C}),
    ("Ana Ruiz was the CEO of Tenda.", "Ana Ruiz is no longer the CEO of Tenda.", {S, U, INF}),
    ("Alto manufactured bicycles.", "Alto no longer manufactures bicycles.", {S, U, INF}),
]


@pytest.mark.parametrize("row", NO_LONGER_IN_THE_REFERENCE, ids=[r[0] for r in NO_LONGER_IN_THE_REFERENCE])
def test_no_longer_in_the_reference(row: Row) -> None:
    _check(row)


# a month-first date with an ordinal suffix ("June 1st, 2019"): the "1s" of it was read as a name
# that no reference states (claims.facets.entities), and "st" as a content word
ORDINAL_DATES: list[Row] = [
    ("The store opened on June 1st, 2019.", "The store opened on 1 June 2019.", {S}),
    ("The accord was signed on March 14th, 2023.", "The accord was signed on 14 March 2023.", {S}),
    ("The store opened on March 23rd, 2019.", "The store opened on 22 March 2019.", {C}),
]


@pytest.mark.parametrize("row", ORDINAL_DATES, ids=[r[0] for r in ORDINAL_DATES])
def test_ordinal_dates(row: Row) -> None:
    _check(row)


# antonyms never judged supported (claims/data/antonyms.tsv, section "results, durations, ...");
# another rank of the same superlative conflicts (claims.verdict.degree.superlative_rank), while
# "one of the largest" still only limits "the largest"
ANTONYMS_AND_RANKS: list[Row] = [
    ("The company reported a loss of $5 million.", "The company reported a profit of $5 million.", {C}),
    ("The exhibition is temporary.", "The exhibition is permanent.", {C}),
    ("The lake is shallow.", "The lake is deep.", {C}),
    ("The pilot survived the crash.", "The pilot died in the crash.", {C}),
    ("The court upheld the ruling.", "The court overturned the ruling.", {C}),
    ("The company reported a profit of $5 million.", "The company reported a profit of $5 million.", {S}),
    ("Vossa is the largest city in Norland.", "Vossa is the second largest city in Norland.", {C}),
    ("Vossa is the second-largest city in Norland.", "Vossa is the largest city in Norland.", {C}),
    ("Vossa is the second-largest city in Norland.", "Vossa is the second largest city in Norland.", {S}),
    (
        "Vossa is the largest city in Norland.",
        "Vossa is one of the largest cities in Norland.",
        {Verdict.QUALIFICATION_DROPPED},
    ),
]


@pytest.mark.parametrize("row", ANTONYMS_AND_RANKS, ids=[r[0] for r in ANTONYMS_AND_RANKS])
def test_antonyms_and_ranks(row: Row) -> None:
    _check(row)


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
    _check(row)


# a count of people against a count of "people" (claims/data/person_nouns.txt), nanometres and
# micrograms (claims.facets.vocabulary.UNITS), and verbs of one predicate group
# (claims/data/predicate_synonyms.txt): each was unsupported ("no reference claim states
# '12,000'", "'3'", "another action: 'appointed', not 'became'")
COUNTS_UNITS_AND_PREDICATES: list[Row] = [
    ("The company has 12,000 employees.", "The company employs 12,000 people.", {S}),
    ("The company has 12,000 employees.", "The company employs 15,000 people.", {C}),
    ("The chip uses a 3-nanometre process.", "The chip uses a 3 nm process.", {S}),
    ("The chip uses a 5-nanometre process.", "The chip uses a 3 nm process.", {C}),
    ("The tablet contains 50 mg of the drug.", "The tablet contains 50 µg of the drug.", {C}),
    ("Marie Holm became a judge in 1985.", "Marie Holm was appointed a judge in 1983.", {C}),
    ("Apple introduced the iPhone in 2007.", "Apple launched the iPhone in 2007.", {S}),
    (
        "The Orvik Shipyard sued the welder Jana Pruss.",
        "The Orvik Shipyard hired the welder Jana Pruss.",
        {U, C},
    ),
]


@pytest.mark.parametrize("row", COUNTS_UNITS_AND_PREDICATES, ids=[r[0] for r in COUNTS_UNITS_AND_PREDICATES])
def test_counts_units_and_predicates(row: Row) -> None:
    _check(row)


# German: number words (claims/data/number_words_de.tsv), counted capitalised nouns, and a
# decimal comma before a unit (each was supported or unsupported: "vier" / "drei" were no values,
# "4 Etagen" had no slot, "2,1 Kilometer" was read as 2 and 1 km)
GERMAN_VALUES: list[Row] = [
    ("Das Museum hat vier Etagen.", "Das Museum hat drei Etagen.", {C}),
    ("Das Museum hat 4 Etagen.", "Das Museum hat 3 Etagen.", {C}),
    ("Das Museum hat drei Etagen.", "Das Museum hat drei Etagen.", {S}),
    ("Die Brücke ist 2,1 Kilometer lang.", "Die Brücke ist 1,2 Kilometer lang.", {C}),
    ("Die Brücke ist 1,2 Kilometer lang.", "Die Brücke ist 1200 Meter lang.", {S}),
]


@pytest.mark.parametrize("row", GERMAN_VALUES, ids=[r[0] for r in GERMAN_VALUES])
def test_german_values(row: Row) -> None:
    _check(row)


# shares in words against rounded percentages, approximations, and durations told in two units
# (claims.facets.rounding.rounds_to, claims.facets.quantities._joined_durations): "two thirds" /
# "67%" and "2.5 hours" / "2 hours 30 minutes" were contradicted, "approximately 1,200" unsupported
SHARES_AND_DURATIONS: list[Row] = [
    ("Two thirds of the members voted yes.", "67% of the members voted yes.", {S}),
    ("Nearly a third of the members voted yes.", "32% of the members voted yes.", {S}),
    ("One third of the members voted yes.", "60% of the members voted yes.", {C}),
    ("The flight takes 2.5 hours.", "The flight takes 2 hours 30 minutes.", {S}),
    ("The flight takes 3.5 hours.", "The flight takes 2 hours 30 minutes.", {C}),
    ("The river is approximately 1,200 km long.", "The river is 1,187 km long.", {S}),
]


@pytest.mark.parametrize("row", SHARES_AND_DURATIONS, ids=[r[0] for r in SHARES_AND_DURATIONS])
def test_shares_and_durations(row: Row) -> None:
    _check(row)


# distractors: a reference claim that states the claim of a rival name ("Senator Ortiz
# introduced the bill") vetoes an inference that another claim completes with the claim's name,
# and its "rival" finding stands against the learned decision (claims.verdict.decide
# ._rival_statement); a code name's rival ("OB-17" for "OB-71") with the claim's value blocks the
# model's support (claims.decision_guards._rival_name). Each was inferred or supported.
def test_rival_statement_is_no_inference_and_stands() -> None:
    refs = ["Senator Ortiz introduced the bill.", "Senator Hale co-sponsored the bill."]
    rcs = [ReferenceClaim(0, Claim(t, 0, len(t), position=i)) for i, t in enumerate(refs)]
    sim = np.array([[0.85, 0.75]], dtype=np.float32)
    claim = Claim("Senator Hale introduced the bill.", 0, 33)
    ruled = judge([claim], rcs, sim, reference_texts=refs)
    assert ruled[0].verdict is U and ruled[0].finding == "rival", ruled[0].reason
    assert "Senator Ortiz" in ruled[0].reason
    decided = decide([claim], rcs, sim, ruled, model=_cosine_model())
    assert decided[0].verdict is U  # the model alone says support at 0.85 (test_verified_rule_support_stands)
    # the same statement of the claim's own name is support
    assert _judge("Senator Ortiz introduced the bill.", refs)[0] is S


def test_model_support_needs_no_rival_code_name() -> None:
    refs = [
        "The phase 2 study of OB-17 enrolled 76 patients.",
        "OB-71 was withdrawn in 2019 after a study in 80 patients.",
    ]
    assert _decide("The OB-71 trial enrolled 76 patients.", refs, 0.9, U) is U
    assert _decide("The OB-17 study enrolled 76 patients.", refs, 0.9, U) is S


# bounds against bounds (none supported or unsupported): two bounds of the
# same slot from opposite sides with no value in common conflict (claims.facets.opposite_bounds),
# also on a bare number ("over 18"), and the claim's bound words ("exceeds") are the compared
# relation, no predicate the reference lacks; a tighter bound from the same side states a looser
# one ("more than 600" states "over 500"), never the other way; bounds that overlap do not conflict
BOUNDS: list[Row] = [
    # bounds of a bare number name groups, and both may hold ("Tickets are sold
    # to fans over 18" / "... under 18" is no contradiction): not stated
    ("The film is rated for viewers over 18.", "The film is rated for viewers under 18.", {U}),
    ("Tickets are sold to fans over 18.", "Tickets are sold to fans under 18.", {U}),
    ("The film is rated for viewers over 18.", "The film is rated for viewers over 18.", {S}),
    (
        "The engine temperature exceeds 80 degrees Celsius.",
        "The engine temperature is below 80 degrees Celsius.",
        {C},
    ),
    (
        "The engine temperature exceeds 80 degrees Celsius.",
        "The engine temperature is above 90 degrees Celsius.",
        {S},
    ),
    ("The tank holds more than 12 litres.", "The tank holds up to 10 litres.", {C}),
    ("The tank holds more than 8 litres.", "The tank holds up to 10 litres.", {U}),
    ("The company has fewer than 50 employees.", "The company has more than 200 employees.", {C}),
    ("Over 500 people attended the event.", "More than 600 people attended the event.", {S, INF}),
    ("Over 700 people attended the event.", "More than 600 people attended the event.", {U}),
    ("Under 40 people attended the meeting.", "Fewer than 30 people attended the meeting.", {S, INF}),
    ("Under 30 people attended the meeting.", "Fewer than 40 people attended the meeting.", {U}),
    # a bound of another scope or subject is not stated, never a conflict (neither
    # is contradicted); bounds from opposite sides that share a value state nothing of each
    # other ("at least 18" / "at most 18" is no comparative flip)
    (
        "The company employs over 10,000 people.",
        "The company employs fewer than 5,000 people in Europe.",
        {U},
    ),
    (
        "The speed limit is under 30 mph in school zones.",
        "Drivers going over 30 mph in school zones are fined.",
        {U},
    ),
    ("At least 18 members voted.", "At most 18 members voted.", {U}),
    # the claim's scope narrower than the reference's (not contradicted)
    ("The company employs under 500 people in Europe.", "The company employs over 500 people.", {U}),
    # "no fewer than" is "at least" (not "fewer than", an upper bound)
    ("Fifteen people were killed.", "No fewer than 20 people were killed.", {C}),
    ("Twenty-five people were killed.", "No fewer than 20 people were killed.", {U}),
]


@pytest.mark.parametrize("row", BOUNDS, ids=[r[0] for r in BOUNDS])
def test_bounds_against_bounds(row: Row) -> None:
    _check(row)


def test_opposite_bounds_share_no_value() -> None:
    from claims.facets import Quantity, opposite_bounds

    def q(text: str) -> Quantity:
        return extract(text).quantities[0]

    assert opposite_bounds(q("It holds over 18 litres."), q("It holds under 18 litres."))
    assert opposite_bounds(q("It holds at least 10 litres."), q("It holds fewer than 10 litres."))
    # both admit 18 / 15
    assert not opposite_bounds(q("It holds at least 18 litres."), q("It holds at most 18 litres."))
    assert not opposite_bounds(q("It holds over 10 litres."), q("It holds under 20 litres."))
    # other slots never conflict
    assert not opposite_bounds(q("It weighs over 18 kg."), q("It holds under 18 litres."))


# the office a title names (claims.verdict.offices, claims/data/office_modifiers.tsv;
# a kind of the Factcheck-GPT refutations: "sworn in as president" / "sworn in as vice president" is
# not supported, nor is the reverse): another office ("vice", "deputy", "lieutenant") is a flip,
# a qualification of the reference's office that the claim drops ("acting", "interim", "co-")
# drops a qualification, one the claim adds is missing; a text naming both forms, two
# qualifications of one office, a word that is no title, and an office said now against one said
# then ("until 2016", test_flip_controls) are no finding
OFFICES: list[Row] = [
    ("Lopez is the president of the firm.", "Lopez is the vice president of the firm.", {C}),
    ("Lopez is the vice president of the firm.", "Lopez is the president of the firm.", {C}),
    ("Maria Lopez was the deputy mayor of Oslo.", "Maria Lopez was the mayor of Oslo.", {C}),
    ("Lopez is the vice president of the firm.", "Lopez is the vice president of the firm.", {S}),
    ("Maria Lopez is the CEO of the company.", "Maria Lopez is the acting CEO of the company.", {Q}),
    ("Steve Wozniak is the founder of Apple.", "Steve Wozniak is a co-founder of Apple.", {Q}),
    ("Maria Lopez is the acting CEO of the company.", "Maria Lopez is the CEO of the company.", {U}),
    (
        "Joe Biden was sworn in as president in 2021.",
        "Joe Biden was sworn in as president and Kamala Harris as vice president in 2021.",
        {S},
    ),
    ("Her career began in 1990.", "Her acting career began in 1990.", {S}),
    # the title said of another holder, scope or time: the claim's office is
    # not stated (neither contradicted nor supported)
    ("Smith is the president of the club.", "Smith's wife is the vice president of the club.", {U}),
    (
        "Mark Smith is the chairman of Acme.",
        "Mark Smith is the deputy chairman of Acme's audit committee.",
        {U},
    ),
    (
        "The manager reports to the president.",
        "The manager reports to the vice president of operations.",
        {U},
    ),
    ("Alvarez is the mayor of Springfield.", "Alvarez was deputy mayor of Springfield.", {U}),
    # ranks of one office: the first against a qualified one is another office; a bare title
    # is stated by the first ("a head coach is a coach")
    ("Lee is the head coach of the team.", "Lee is the assistant coach of the team.", {C}),
    ("Anna Roberts is the chief justice.", "Anna Roberts is an associate justice.", {C}),
    ("Lee is the coach of the team.", "Lee is the head coach of the team.", {S}),
]


@pytest.mark.parametrize("row", OFFICES, ids=[r[0] for r in OFFICES])
def test_offices(row: Row) -> None:
    _check(row)


# a first rank against a lower place in the same ranking (claims.verdict.degree._placed; session
# 14, Factcheck-GPT: "Georgia is the largest producer of peaches" against "ranked third in peach
# production" was supported): the noun the superlative ranks must be the reference's measure, so
# another measure ("for tourism") or no ranked noun is no finding
PLACES: list[Row] = [
    (
        "Georgia is the largest producer of peaches in the United States.",
        "Georgia ranked third in United States peach production in 2012.",
        {C},
    ),
    ("Bergen is the largest city in the region.", "Bergen ranks second among the cities of the region.", {C}),
    ("The city is the largest in the region.", "The city ranked third in the region for tourism.", {S, U}),
    ("Georgia is a major producer of peaches.", "Georgia ranked third in peach production.", {S, INF, U}),
    # a first place anywhere, a stated other measure, a count ("placed 5
    # orders"), and a reference that states the superlative itself are no other rank
    (
        "Kenya is the largest exporter of tea.",
        "Kenya ranks third in tea production but first in tea exports.",
        {S, U},
    ),
    (
        "The tower is the tallest building in the world.",
        "The tower ranks 12th among buildings by floor area.",
        {S, U},
    ),
    ("Amazon is the largest online retailer.", "The largest online retailer placed 5 orders.", {S, U}),
    (
        "Johnson was the fastest qualifier.",
        "Johnson, the fastest qualifier, finished second in the final.",
        {S, U},
    ),
]


@pytest.mark.parametrize("row", PLACES, ids=[r[0] for r in PLACES])
def test_first_rank_against_a_lower_place(row: Row) -> None:
    _check(row)


# "no one" and "nobody" are negations, not a count of one and a word the reference lacks (session
# 14: "No one was killed" against "Two firefighters were killed" was unsupported, "one" missing)
NOBODY: list[Row] = [
    ("No one was killed in the fire.", "Two firefighters were killed in the fire.", {C}),
    ("Nobody was injured in the crash.", "Three people were injured in the crash.", {C}),
    ("Nobody was injured in the crash.", "No one was injured in the crash.", {S}),
    # a count of the subject against a subject that counts nobody (not unsupported):
    # a conflict, when a noun after "No" is the counted noun and the verb is the claim's
    ("One person was killed in the fire.", "No one was killed in the fire.", {C}),
    ("Three passengers were injured in the crash.", "Nobody was injured in the crash.", {C}),
    ("Three passengers were injured in the crash.", "No passengers were injured in the crash.", {C}),
    ("Two firefighters were injured in the fire.", "No residents were injured in the fire.", {U}),
    ("Five students passed the exam.", "No student failed the exam.", {U}),
    ("Two people died in the fire.", "No one else died in the fire.", {U}),
    # "No other" presupposes the one, and the rest of the clause must be one
    # statement (another object, time or reason says something else)
    ("One player scored twice in the final.", "No other player scored twice in the final.", {U}),
    ("One patient developed a rash.", "No patients developed a fever.", {U}),
    ("Two employees were fired.", "No employees were fired last year.", {U}),
]


@pytest.mark.parametrize("row", NOBODY, ids=[r[0] for r in NOBODY])
def test_nobody_is_a_negation(row: Row) -> None:
    _check(row)


# a one-way verb that spaCy reads as a noun ("Copper displaces iron": a compound) still has its
# neighbours as subject and object (claims.verdict.one_way._one_way_roles; a Factcheck-GPT kind:
# the swapped reaction is not supported at cosine 0.99)
MISREAD_ONE_WAY: list[Row] = [
    ("Copper displaces iron from copper sulfate.", "Iron displaces copper from copper sulfate.", {C}),
    ("Iron displaces copper from copper sulfate.", "Iron displaces copper from copper sulfate.", {S}),
]


@pytest.mark.parametrize("row", MISREAD_ONE_WAY, ids=[r[0] for r in MISREAD_ONE_WAY])
def test_one_way_verb_read_as_a_noun(row: Row) -> None:
    _check(row)
