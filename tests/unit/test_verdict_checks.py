"""Verdict checks by kind (claims.verdict.judge), one table per kind, rows of varied wording.

Every expected verdict follows from the rule the check's docstring states in ``claims.verdict``
(named in each table's comment). The cosines are ``HIGH`` (0.93: "very close", as in
tests/unit/test_verdict.py) unless a row says otherwise, so that only the checks decide; the
shared audit cases hold one real-embedding input per kind, these rows hold the kind itself.
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.facets.vocabulary import stem_of
from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge, same_predicate

C, S, U, INF = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.INFERRED
HIGH = 0.93


def _verdict(response: str, refs: list[str], cos: float = HIGH) -> Verdict:
    rcs = [ReferenceClaim(i, Claim(t, 0, len(t))) for i, t in enumerate(refs)]
    sim = np.full((1, len(refs)), cos, dtype=np.float32)
    return judge([Claim(response, 0, len(response))], rcs, sim, reference_texts=refs)[0].verdict


def _check(rows: list[tuple[str, str, str, set[Verdict]]]) -> None:
    for kind, response, reference, allowed in rows:
        got = _verdict(response, [reference])
        assert got in allowed, f"{kind}: {response!r} vs {reference!r} -> {got.value}"


# antonyms (claims/data/antonyms.tsv, kind "state"): the opposite state of the same subject
# is the comparative/antonym flip of ``compare_facets`` -> contradicted; the same word is support.
ANTONYM_STATE = [
    (
        "open/closed",
        "The west gate of Morrow Park is closed on holidays.",
        "The west gate of Morrow Park is open on holidays.",
        {C},
    ),
    (
        "closed/open",
        "The Salt Museum café is open in winter.",
        "The Salt Museum café is closed in winter.",
        {C},
    ),
    (
        "available/unavailable",
        "The Brill ferry service is unavailable at night.",
        "The Brill ferry service is available at night.",
        {C},
    ),
    ("active/inactive", "The old Harlan mine is inactive.", "The old Harlan mine is active.", {C}),
    # an event verb of another year is another event, not the opposite state
    (
        "opened/closed, other years",
        "The Hollin museum closed in 2005.",
        "The Hollin museum opened in 1998.",
        {U},
    ),
    (
        "same state",
        "The west gate of Morrow Park is open on holidays.",
        "The west gate of Morrow Park is open on holidays.",
        {S},
    ),
]


@pytest.mark.parametrize("row", ANTONYM_STATE, ids=[r[0] for r in ANTONYM_STATE])
def test_antonym_state(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])


# predicate (``predicate_swap_of``): every word stated but the verb, another verb in the
# reference -> unsupported (both actions can be true, so never contradicted by this check);
# a synonym of claims/data/predicate_synonyms.txt is the same predicate -> supported.
PREDICATE_SWAP = [
    (
        "fined/praised",
        "In 2018 the Dalby Council fined the builder Omar Sayed.",
        "In 2018 the Dalby Council praised the builder Omar Sayed.",
        {U},
    ),
    (
        "sued/employed",
        "The Nord Bank sued the trader Ivo Lenk.",
        "The Nord Bank employed the trader Ivo Lenk.",
        {U},
    ),
    (
        "criticised/honoured",
        "The Pell Institute criticised the author Mara Quist.",
        "The Pell Institute honoured the author Mara Quist.",
        {U},
    ),
    (
        "synonym acquired/bought",
        "The Rask Group acquired the startup Lumen Labs.",
        "The Rask Group bought the startup Lumen Labs.",
        {S},
    ),
    # one verb in two forms ("taking" / "take") is the same predicate
    (
        "same verb, other form",
        "The Lund renovation is taking place in 2019.",
        "The Lund renovation will take place in 2019.",
        {S, INF},
    ),
    ("same verb", "The Nord Bank sued the trader Ivo Lenk.", "The Nord Bank sued the trader Ivo Lenk.", {S}),
]


@pytest.mark.parametrize("row", PREDICATE_SWAP, ids=[r[0] for r in PREDICATE_SWAP])
def test_predicate_swap(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])


def test_same_predicate_reads_the_synonym_groups() -> None:
    # claims/data/predicate_synonyms.txt: "bought acquired purchased ..." is one group; the
    # arguments are stems ("bought" is "buy", claims/data/irregular_verbs.tsv)
    assert same_predicate(stem_of("bought"), "acquir")
    assert same_predicate("founded", "establish")
    assert not same_predicate("sued", "hired")


# polarity (``check_polarity``): a denying frame, "no longer" and "never" negate the claim; the
# reference states the same nouns affirmatively -> contradicted.
NEGATION = [
    (
        "it is false that",
        "It is false that the Orla dam was built of granite.",
        "The Orla dam was built of granite.",
        {C},
    ),
    (
        "there is no evidence that",
        "There is no evidence that the Vesk bridge was painted red.",
        "The Vesk bridge was painted red.",
        {C},
    ),
    (
        "it is not true that",
        "It is not true that the Brann choir performed in Oslo.",
        "The Brann choir performed in Oslo.",
        {C},
    ),
    (
        "no longer",
        "The Tolla ferry no longer stops at Rinde harbour.",
        "The Tolla ferry stops at Rinde harbour.",
        {C},
    ),
    (
        "both denied",
        "It is false that the Orla dam was built of granite.",
        "It is false that the Orla dam was built of granite.",
        {S},
    ),
]


@pytest.mark.parametrize("row", NEGATION, ids=[r[0] for r in NEGATION])
def test_negation_frames(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])


# absence is not denial (``check_polarity``): a negated claim contradicts only a reference that
# affirms the same nouns; a reference about other things leaves it unsupported, never
# supported (a negated claim needs a negated reference).
ABSENCE = [
    (
        "other products",
        "The Morna library does not lend e-books.",
        "The Morna library lends printed books and films.",
        {U},
    ),
    (
        "other facilities",
        "The Calder hotel has no swimming pool.",
        "The Calder hotel has a gym and a sauna.",
        {U},
    ),
    ("other patients", "The Vint clinic does not treat children.", "The Vint clinic treats adults.", {U}),
    # a lexical denial in the reference agrees with the claim's negation
    (
        "antonym denies",
        "Tobacco is not allowed in the Vell park.",
        "Tobacco is prohibited in the Vell park.",
        {S},
    ),
    (
        "negative prefix denies",
        "The painter of the Orn portrait was never identified.",
        "The painter of the Orn portrait was unidentified.",
        {S},
    ),
    (
        "same object affirmed",
        "The Morna library does not lend e-books.",
        "The Morna library lends e-books.",
        {C},
    ),
]


@pytest.mark.parametrize("row", ABSENCE, ids=[r[0] for r in ABSENCE])
def test_absence_is_not_denial(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])


# attribution (``entity_swap_of``, opening agent): another named agent opens the reference with
# every other word of the claim -> contradicted; names that may be one party are not swapped.
ATTRIBUTION = [
    ("designed", "Ida Holm designed the new harbour plan.", "Per Aune designed the new harbour plan.", {C}),
    (
        "founded",
        "Tove Berg founded the Lund reading club.",
        "Karl Moe founded the Lund reading club.",
        {C, U},
    ),
    (
        "surname of the same person",
        "Varga proposed moving the fair to June.",
        "Lena Varga proposed moving the fair to June.",
        {S},
    ),
]


@pytest.mark.parametrize("row", ATTRIBUTION, ids=[r[0] for r in ATTRIBUTION])
def test_attribution_swap(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])


def test_attribution_to_the_opponent_is_never_inferred() -> None:
    # the proposal is Varga's; Brandt only voted against it: the two claims together must not
    # make "Brandt proposed" inferred (``entity_swap_of`` finds the agent swapped first)
    refs = ["Ada Lind proposed a new bus route to Vell.", "Jon Sten voted against the proposal."]
    assert _verdict("Jon Sten proposed a new bus route to Vell.", refs) in {C, U}


# roles (``role_swap`` / ``_same_relation``): the same two parties in the other order around
# the same relation word, the reference adding a description of a party -> contradicted; a
# passive or a symmetric relation keeps the roles.
ROLES = [
    (
        "acquired, described party",
        "Malden Foods acquired Vero Dairy in 2015.",
        "Vero Dairy acquired the regional producer Malden Foods in 2015.",
        {C},
    ),
    (
        "beat, described party",
        "Halsey beat Norcross in the final.",
        "Norcross beat the defending champion Halsey in the final.",
        {C},
    ),
    (
        "passive keeps roles",
        "Malden Foods acquired Vero Dairy in 2015.",
        "Vero Dairy was acquired by the regional producer Malden Foods in 2015.",
        {S, U, INF},
    ),
    (
        "symmetric relation",
        "Halsey played Norcross in the final.",
        "Norcross played the defending champion Halsey in the final.",
        {S, U, INF},
    ),
]


@pytest.mark.parametrize("row", ROLES, ids=[r[0] for r in ROLES])
def test_role_swap_with_description(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])


# range membership (``range_relation``): a value, a range end or a reached maximum outside
# the range or bound the reference states (same slot) -> contradicted; inside -> never
# contradicted (and not supported: the range does not state the point).
RANGES = [
    (
        "maximum above a range",
        "The Arno pump runs at up to 90 °C.",
        "The Arno pump runs between 10 °C and 60 °C.",
        {C},
    ),
    (
        "point above a range",
        "The Bex battery lasts 12 hours.",
        "The Bex battery lasts between 6 and 9 hours.",
        {C},
    ),
    ("point above a maximum", "The Cole lift carries 900 kg.", "The Cole lift carries up to 600 kg.", {C}),
    (
        "point below a minimum",
        "The Dorr hall seats 40 people.",
        "The Dorr hall seats at least 120 people.",
        {C},
    ),
    ("point inside a dash range", "The Dane course takes 3 weeks.", "The Dane course takes 2–4 weeks.", {U}),
    (
        "point under a maximum",
        "The Erl kettle heats water to 80 °C.",
        "The Erl kettle heats water to up to 95 °C.",
        {U},
    ),
    (
        "point inside, °F range",
        "The Fyn oven bakes at 200 °C.",
        "The Fyn oven bakes between 350 and 450 °F.",
        {U},
    ),
    (
        "point outside, °F range",
        "The Fyn oven bakes at 300 °C.",
        "The Fyn oven bakes between 350 and 450 °F.",
        {C},
    ),
]


@pytest.mark.parametrize("row", RANGES, ids=[r[0] for r in RANGES])
def test_range_membership(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])


# value slots in verdicts (claims.facets): the same amount written another way is support,
# another amount in the same slot is a contradiction.
VALUES = [
    ("grouped vs abbreviated, same", "The Orm canal cost $85M.", "The Orm canal cost USD 85,000,000.", {S}),
    ("grouped vs abbreviated, wrong", "The Orm canal cost $58M.", "The Orm canal cost USD 85,000,000.", {C}),
    (
        "words vs European grouping",
        "The Lys dam cost 4.5 million euros.",
        "The Lys dam cost EUR 4.500.000.",
        {S},
    ),
    ("European grouping, wrong", "The Lys dam cost EUR 5.400.000.", "The Lys dam cost EUR 4.500.000.", {C}),
    (
        "one in five = 20 %",
        "20% of the Tarm pupils walk to school.",
        "One in five Tarm pupils walk to school.",
        {S},
    ),
    (
        "three out of ten vs 40 %",
        "40% of the Tarm pupils walk to school.",
        "Three out of ten Tarm pupils walk to school.",
        {C},
    ),
    (
        "age: at vs aged",
        "Ines Roth joined the Vey orchestra at 19.",
        "Ines Roth joined the Vey orchestra aged 19.",
        {S},
    ),
    (
        "age: years of age vs -year-old",
        "Ines Roth joined the Vey orchestra as a 19-year-old.",
        "Ines Roth was 19 years of age when she joined the Vey orchestra.",
        {S, INF},
    ),
    (
        "ordinal digits vs words",
        "Ola Berg finished 3rd in the Vik race.",
        "Ola Berg finished third in the Vik race.",
        {S},
    ),
    (
        "emphasis ignored",
        "The Vorn lake holds **3 million** cubic metres.",
        "The Vorn lake holds 3 million cubic metres.",
        {S},
    ),
]


@pytest.mark.parametrize("row", VALUES, ids=[r[0] for r in VALUES])
def test_value_slots_in_verdicts(row: tuple[str, str, str, set[Verdict]]) -> None:
    _check([row])
