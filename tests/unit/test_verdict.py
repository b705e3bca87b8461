"""Verdicts per kind (claims.verdict.judge) on hand-made claims and cosines.

The cosines are set by hand (not computed by a model) so that each row tests the facet
logic alone: 0.93 stands for "MiniLM finds these two sentences very close" — the level at
which all-MiniLM-L6-v2 scores both a paraphrase (~0.96) and a wrong-year pair (~0.9).
"""

from __future__ import annotations

import numpy as np
import pytest

from claims.types import Claim, ClaimKind, ReferenceClaim, Verdict
from claims.verdict import judge

S, INF, C, Q, U, OUT = (
    Verdict.SUPPORTED,
    Verdict.INFERRED,
    Verdict.CONTRADICTED,
    Verdict.QUALIFICATION_DROPPED,
    Verdict.UNSUPPORTED,
    Verdict.OUTSIDE_SCOPE,
)

HIGH = 0.93  # see module docstring


def _refs(*texts: str, reference: int = 0) -> list[ReferenceClaim]:
    out, pos = [], 0
    for t in texts:
        out.append(ReferenceClaim(reference, Claim(t, pos, pos + len(t))))
        pos += len(t) + 1
    return out


def _judge(response: str, refs: list[ReferenceClaim], cos: float | list[float] = HIGH):
    row = [cos] * len(refs) if isinstance(cos, float) else cos
    return judge([Claim(response, 0, len(response))], refs, np.array([row], dtype=np.float32))[0]


#: rows whose cosine is the one all-MiniLM-L6-v2 gives (measured with claims.embed), not HIGH
MEASURED = {"list item not in reference": 0.63}

MARLOW = "In 2004, the 23-year-old cellist Ines Marlow won the Varga Prize in Vienna."

TABLE = [
    # --- supported: same facts, other wording / format
    ("paraphrase", "Ines Marlow won the Varga Prize in 2004.", [MARLOW], S),
    ("bare number = age", "Ines Marlow was 23 at the time.", [MARLOW], S),
    (
        "magnitude",
        "The reservoir holds 1,200 million cubic metres of water.",
        ["The reservoir holds 1.2 billion cubic metres of water."],
        S,
    ),
    ("date format", "The accord was signed on July 14, 1867.", ["The accord was signed on 14 July 1867."], S),
    (
        "time format",
        "The library closes at 8 pm on weekdays.",
        ["On weekdays the library closes at 20:00."],
        S,
    ),
    ("number word", "The Brisk Museum has 3 floors.", ["The Brisk Museum has three floors."], S),
    ("half = 0.5", "Half of its assets were bonds.", ["Bonds made up 0.5 of its assets."], S),
    (
        "year inside a date",
        "OB-17 received the designation in 2023.",
        ["On 3 March 2023 OB-17 received the designation."],
        S,
    ),
    # --- contradicted: same subject and slot, other value
    ("year", "Ines Marlow won the Varga Prize in 2001.", [MARLOW], C),
    ("age", "Ines Marlow was 21 years old when she won the Varga Prize.", [MARLOW], C),
    ("unit", "The Orsen Tower is 324 feet tall.", ["The Orsen Tower stands 324 metres tall."], C),
    ("day of date", "The accord was signed on 4 July 1867.", ["The accord was signed on 14 July 1867."], C),
    ("time", "The library closes at 9 pm on weekdays.", ["On weekdays the library closes at 20:00."], C),
    ("percent magnitude", "The fund's annual fee was 18%.", ["The fund's annual fee was 1.8%."], C),
    ("count", "The Brisk Museum has 4 floors.", ["The Brisk Museum has three floors."], C),
    (
        "negation dropped",
        "The Halvorsen Museum opens on Mondays.",
        ["The Halvorsen Museum does not open on Mondays."],
        C,
    ),
    (
        "negation added",
        "The Kestrel Bridge was not completed on schedule.",
        ["The Kestrel Bridge was completed on schedule in 1998."],
        C,
    ),
    (
        "swapped entity",
        "The jury was chaired by the composer Paul Reyes.",
        ["Ines Marlow was chosen by a jury chaired by the composer Teodor Halm."],
        C,
    ),
    (
        "comparative",
        "Sales of the Kite 14 were higher in 2020 than in 2019.",
        ["Sales of the Kite 14 were lower in 2020 than in 2019."],
        C,
    ),
    # --- qualification dropped
    (
        "planned -> done",
        "The Aster-2 trial enrolled 112 patients.",
        ["The Aster-2 trial planned to enrol 112 patients across four hospitals."],
        Q,
    ),
    (
        "reportedly -> fact",
        "The minister Ana Lind resigned in 2019.",
        ["The minister Ana Lind reportedly resigned in 2019."],
        Q,
    ),
    ("about -> exact", "The festival drew 40,000 visitors.", ["The festival drew about 40,000 visitors."], Q),
    ("may -> is", "The Velo drug reduces migraine pain.", ["The Velo drug may reduce migraine pain."], Q),
    # --- unsupported: nothing states it; same topic without the value is not support,
    # and a different subject with a different year is not a contradiction
    ("addition", "Ines Marlow later taught at the Prague Conservatory.", [MARLOW], U),
    (
        "value not stated",
        "The Orsen Tower cost 40 million dollars.",
        ["The Orsen Tower stands 324 metres tall."],
        U,
    ),
    ("other subject, other year", "OB-17 was withdrawn in 2021.", ["OB-71 was withdrawn in 2019."], U),
    ("unrelated", "The Kestrel Bridge crosses the river Aln and opened to traffic in 1998.", [MARLOW], U),
    # all-MiniLM-L6-v2 scores this pair 0.63 (measured); the row's cosine is set to that below
    ("list item not in reference", "The Alder Hotel has a rooftop bar.", ["The Alder Hotel has a pool."], U),
    (
        "partial date",
        "Justice Douglas was born on October 16, 1898.",
        ["Justice Douglas was born in 1898."],
        U,
    ),
]


#: failure kinds found on the factcheck dev set (false contradictions): each must NOT be contradicted
NOT_CONTRADICTED = [
    ("year of another event in a parenthesis", "Arsenal won the FA Cup in 2002.",
     ["Arsenal won the FA Cup ten times (since the formation of The Football League in 1888)."]),
    ("lifespan range is not a conflicting year", "William O. Douglas served on the Supreme Court from 1939.",
     ["William O. Douglas (1898–1980) served on the Supreme Court for 36 years."]),
    ("bound year", "Chilis were present in the cuisine of the Americas in 1490.",
     ["Chilis were present in the cuisine of the Americas before 1492."]),
    ("other relation, not a swapped entity", "Barack Obama's mother was from Kansas.",
     ["Barack Obama's mother lived in Jakarta."]),
    ("negation outside the matched words", "Abacus computing is faster than DNA computing for deep learning.",
     ["Reasoning is that Abacus is faster than DNA computing for Deep learning and "
      "ChatGPT does not provide facts."]),
    ("not until is a time, not a denial", "Potatoes did not arrive in Europe until the late 15th century.",
     ["Potatoes arrived in Europe in the late 15th century."]),
    ("date against the year of another event", "Georg Parrot was born on October 22, 1767.",
     ["Georg Parrot was born in Montbeliard, which became part of France in 1806."]),
    ("other subject, same slot", "OB-17 was withdrawn in 2021.", ["OB-71 was withdrawn in 2019."]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "response", "refs"), NOT_CONTRADICTED, ids=[t[0] for t in NOT_CONTRADICTED])
def test_not_contradicted(name: str, response: str, refs: list[str]) -> None:
    j = _judge(response, _refs(*refs))
    assert j.verdict is not C, j.reason


def test_season_range_supports_its_year() -> None:
    # "1992–93" is a season: a claim about 1993 is stated by it
    j = _judge("Arsenal won the FA Cup in 1993.", _refs("The 1992–93 FA Cup was won by Arsenal."))
    assert j.verdict is S, j.reason


@pytest.mark.parametrize(("name", "response", "refs", "verdict"), TABLE, ids=[t[0] for t in TABLE])
def test_verdict_table(name: str, response: str, refs: list[str], verdict: Verdict) -> None:
    j = _judge(response, _refs(*refs), MEASURED.get(name, HIGH))
    assert j.verdict is verdict, j.reason


def test_inferred_from_two_claims_lists_both() -> None:
    refs = _refs(
        "Tomas Brell made his stage debut in 2011.", "Tomas Brell's stage debut was in the play Salt Harbour."
    )
    j = _judge("Salt Harbour was staged in 2011.", refs, [0.55, 0.7])
    assert j.verdict is INF, j.reason
    assert {e.claim_index for e in j.evidence} == {0, 1}


def test_contradiction_reason_change_and_locator() -> None:
    refs = _refs("Ines Marlow won the Varga Prize in 2004.")
    j = _judge("Ines Marlow won the Varga Prize in 2001.", refs)
    assert j.verdict is C
    # "2004" sits at chars 35-39 of the reference claim, which starts at char 0 of the reference
    assert j.reason == "year 2001 ≠ 2004 (reference 0, chars 35–39)"
    assert j.change == "2001 → 2004"
    assert j.evidence[0].claim_index == 0 and j.evidence[0].similarity == pytest.approx(HIGH)


def test_contradiction_cites_the_same_subject_not_the_distractor() -> None:
    refs = _refs("The phase 2 study of OB-17 planned to enrol 76 patients.") + _refs(
        "Orrin's older compound OB-71 was withdrawn in 2019 after a study in 80 patients.", reference=1
    )
    j = _judge("The OB-17 phase 2 study enrolled 80 patients.", refs, [0.6, 0.7])
    assert j.verdict is C, j.reason
    assert j.evidence[0].reference == 0
    assert j.change == "80 → 76"


def test_supported_evidence_is_the_supporting_claim() -> None:
    refs = _refs("The Alder Hotel has a pool.", "The Alder Hotel has a gym.")
    j = _judge("The Alder Hotel has a gym.", refs, [0.8, 0.99])
    assert j.verdict is S
    assert [e.claim_index for e in j.evidence] == [1]


def test_outside_scope_and_no_reference_claims() -> None:
    claims = [
        Claim("What a lovely museum!", 0, 21, ClaimKind.OUTSIDE_SCOPE),
        Claim("It has 3 floors.", 22, 38),
    ]
    out = judge(claims, [], np.zeros((2, 0), np.float32))
    assert [j.verdict for j in out] == [OUT, U]


def test_shape_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="shape"):
        judge([Claim("a", 0, 1)], _refs("b"), np.zeros((2, 1), np.float32))


def test_locator_of_a_rewritten_reference_claim_uses_the_reference_text() -> None:
    # the decomposer resolved "She" -> "Ines Marlow"; the value "Teodor Halm" is found in the
    # reference text inside the claim's span: "She was chosen ... composer " is 45 characters
    doc = "She was chosen by a jury chaired by composer Teodor Halm."
    rc = ReferenceClaim(
        0, Claim("Ines Marlow was chosen by a jury chaired by composer Teodor Halm.", 0, len(doc))
    )
    resp = Claim("Ines Marlow was chosen by a jury chaired by composer Paul Reyes.", 0, 64)
    j = judge([resp], [rc], np.array([[HIGH]], np.float32), reference_texts=[doc])[0]
    assert j.verdict is C
    assert j.reason == "entity Paul Reyes ≠ Teodor Halm (reference 0, chars 45–56)"
    assert j.change == "Paul Reyes → Teodor Halm"
    # without the texts the claim's whole span is cited
    j2 = judge([resp], [rc], np.array([[HIGH]], np.float32))[0]
    assert j2.reason.endswith(f"(reference 0, chars 0–{len(doc)})")


def test_qualification_change_names_the_hedged_predicate() -> None:
    refs = _refs("The Aster-2 trial planned to enrol 112 patients across four hospitals.")
    j = _judge("The Aster-2 trial enrolled 112 patients.", refs)
    assert j.verdict is Q
    assert j.change == "enrolled → planned to enrol"
    # "planned to" is at chars 18-28 of the reference claim
    assert "chars 18–28" in j.reason


def test_year_stated_in_another_reference_claim_makes_it_inferred() -> None:
    # WiCE failure kind: the year is only in a title line; it is found by facet overlap even
    # though it is not among the nearest claims by cosine (cosines set low on purpose)
    refs = _refs(
        "Megadeth headlined the second Gigantour with Lamb of God.",
        *[f"Filler sentence number {k} about nothing." for k in range(10)],
        "Gigantour 2006 Announced: Megadeth confirmed.",
    )
    cos = [0.85] + [0.5] * 10 + [0.35]
    j = _judge("The second Gigantour in 2006 was headlined by Megadeth with Lamb of God.", refs, cos)
    assert j.verdict is INF, j.reason
    assert {e.claim_index for e in j.evidence} == {0, 11}


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("Salt Harbour, his second play, was staged in 2011.", U),
        ("His second play, Salt Harbour, was staged in 2011.", U),
        ("Salt Harbour was staged in 2011.", INF),
    ],
)
def test_an_inference_states_the_ordinal_that_orders_a_noun(claim: str, verdict: Verdict) -> None:
    """An ordinal is neither a value the inference asked for nor a content word: "his second
    play" followed from two claims that give the play and the year but no "second"
    (``infer._needed_facets``). Sentences written for this test."""
    refs = _refs(
        "Tomas Brell made his stage debut in 2011.", "Tomas Brell's stage debut was in the play Salt Harbour."
    )
    j = _judge(claim, refs, [0.55, 0.7])
    assert j.verdict is verdict, j.reason
