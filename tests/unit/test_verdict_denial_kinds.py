"""Kinds of fault in polarity and tense: denials by determiner, clause or prefix, antonyms,
plans and hedges, ended states, events that did not happen and "nobody", on the demo, the shared
cases and the Factcheck-GPT refutations, one table per kind.

Each table mixes rows that must flip with rows that must not; the rows use the cosine ``HIGH``
(0.93, tests/unit/verdict_rows.py) so that only the checks decide, and the expected verdicts follow
from the rule each table's comment names.
"""

from __future__ import annotations

import pytest

from claims.verdict.lexical import negative_form
from tests.unit.verdict_rows import INF, C, Q, Row, S, U, check_row, judge_claim

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
    check_row(row)


# a clause that denies the claim's words among more words of its own is no flip (too little of
# it is the claim's), but it is no support either (clause_checks.check_polarity): "Copper cannot
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
    check_row(row)


def test_denial_in_a_longer_clause_reason_names_the_denial() -> None:
    row = DENIAL_IN_A_LONGER_CLAUSE[0]
    _, reason = judge_claim(row[0], [str(row[1])])
    assert "denies its words" in reason


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
    check_row(row)


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
    check_row(row)


# "is to" after a noun of function defines what something does; it is no plan
# (claims.facets.polarity._FUNCTION_IS_TO; Factcheck-GPT "Recruiters are responsible for
# screening candidates" / "An HR recruiter's primary responsibility is to ... screen ...", gold
# support, was qualification_dropped); nouns of aim and plain "is to" stay plans
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
    check_row(row)


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
    check_row(row)


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
    check_row(row)


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
    check_row(row)


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
    check_row(row)


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
    check_row(row)


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
    check_row(row)


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
    check_row(row)


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
    check_row(row)


# "no one" and "nobody" are negations, not a count of one and a word the reference lacks
# ("No one was killed" against "Two firefighters were killed" was unsupported, "one" missing)
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
    check_row(row)
