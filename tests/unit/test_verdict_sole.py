"""A party said to act alone against a second party of the same verb (``claims.verdict.sole``).

The sentences are written for this test (invented names and firms, not from the dev sets): each
pair states one verb with one agent, and the expected verdict follows from the module's
definition: "alone" / "solely" / "by herself" / "on his own" / "single-handedly" against a
coordinated agent or a "with" phrase naming a person is a contradiction, either way round; a
claim without such a word, a denied verb, another verb or a "with" phrase naming no person is
not.
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.verdict.sole import parties, sole_conflict

CONFLICTS = [
    ("Mira Lund founded Talvo alone in 2009.", "Mira Lund and Jon Aas founded Talvo in 2009."),
    (
        "The studio was started solely by Oskar Brekke.",
        "Oskar Brekke and Siri Vang started the studio together.",
    ),
    # "solely" parsed on the passive's "by", not on the verb
    ("Lumio was founded solely by Ingrid Saltvik.", "Ingrid Saltvik and Jonas Lie founded Lumio in 2003."),
    ("Hedda Nyhus wrote the libretto by herself.", "Hedda Nyhus and Arne Bjerk wrote the libretto."),
    ("Tor Hagen restored the chapel on his own.", "Tor Hagen restored the chapel with Lise Moen."),
    ("Kari Dale single-handedly built the observatory.", "Kari Dale and Emil Foss built the observatory."),
    # the other way round: a second party where the reference says it acted alone
    ("Mira Lund founded Talvo with Jon Aas.", "Mira Lund founded Talvo alone."),
]

AGREE = [
    # no word of sole agency: one of two founders named is no conflict
    ("Mira Lund founded Talvo in 2009.", "Mira Lund and Jon Aas founded Talvo in 2009."),
    # both alone
    ("Mira Lund founded Talvo alone.", "Mira Lund founded Talvo alone in 2009."),
    # a "with" phrase naming no person is no second party
    ("Mira Lund founded Talvo with a bank loan.", "Mira Lund founded Talvo alone."),
    # another verb
    ("Mira Lund founded Talvo alone.", "Mira Lund and Jon Aas ran Talvo for ten years."),
    # a denied verb has no parties
    ("Mira Lund did not found Talvo alone.", "Mira Lund and Jon Aas founded Talvo."),
]


@pytest.mark.parametrize(("claim", "reference"), CONFLICTS)
def test_a_sole_party_against_a_second_party_is_a_conflict(claim: str, reference: str) -> None:
    assert sole_conflict(claim, reference) is not None


@pytest.mark.parametrize(("claim", "reference"), AGREE)
def test_no_conflict_without_sole_agency_on_the_same_verb(claim: str, reference: str) -> None:
    assert sole_conflict(claim, reference) is None


@pytest.mark.parametrize(("claim", "reference"), CONFLICTS)
def test_the_audit_contradicts_a_sole_party(claim: str, reference: str) -> None:
    report = audit_texts(claim, [reference])
    (judgement,) = report.judgements
    assert judgement.verdict.value == "contradicted", judgement.reason
    assert judgement.reason.startswith("sole agent:")


def test_the_audit_keeps_support_when_the_claim_names_one_of_two_founders() -> None:
    report = audit_texts(AGREE[0][0], [AGREE[0][1]])
    assert [j.verdict.value for j in report.judgements] == ["supported"]


def test_parties_reads_the_sole_words_and_the_second_parties() -> None:
    (alone,) = parties("Mira Lund founded Talvo alone in 2009.")
    assert (alone.name, alone.verb, alone.sole, alone.partners) == ("Mira Lund", "found", "alone", ())
    (pair,) = parties("Mira Lund and Jon Aas founded Talvo in 2009.")
    assert (pair.name, pair.sole, [name for _, name in pair.partners]) == ("Mira Lund", "", ["Jon Aas"])


# the whole kind of exclusivity: "only" on the party itself, and a copula with an agent noun
# ("the sole founder") read as its verb (``sole.agent_noun_verb``)
EXCLUSIVE = [
    ("Ragna Vik was the sole founder of Talvo.", "Ragna Vik and Olav Brekk founded Talvo."),
    ("Only Ragna Vik led the survey.", "Ragna Vik and Olav Brekk led the survey."),
    ("Ragna Vik was the only leader of the survey.", "Ragna Vik and Olav Brekk led the survey."),
    ("Only Olav Brekk signed the lease.", "Olav Brekk and Ragna Vik signed the lease."),
    ("Ragna Vik was the single creator of the atlas.", "Ragna Vik and Olav Brekk created the atlas."),
]

EXCLUSIVE_KEPT = [
    # faithful rewordings of acting alone keep their support
    ("Ragna Vik was the sole founder of Talvo.", "Ragna Vik founded Talvo alone."),
    ("Only Ragna Vik led the survey.", "Ragna Vik alone led the survey."),
    # "only" that scopes over something else than the party
    (
        "The Tverr bridge is the only bridge in Osen.",
        "The Tverr bridge and the Lia bridge are bridges in Osen.",
    ),
    ("Ragna Vik only led the survey once.", "Ragna Vik and Olav Brekk led the survey."),
]


@pytest.mark.parametrize(("claim", "reference"), EXCLUSIVE)
def test_exclusive_words_against_a_second_party_contradict(claim: str, reference: str) -> None:
    assert sole_conflict(claim, reference) is not None
    (judgement,) = audit_texts(claim, [reference]).judgements
    assert judgement.verdict.value == "contradicted", judgement.reason


@pytest.mark.parametrize(("claim", "reference"), EXCLUSIVE_KEPT)
def test_exclusive_words_without_a_second_party_do_not_fire(claim: str, reference: str) -> None:
    assert sole_conflict(claim, reference) is None


def test_agent_nouns_name_their_verbs() -> None:
    from claims.facets.vocabulary import stem_of
    from claims.verdict.sole import agent_noun_verb

    pairs = [("founder", "founded"), ("leader", "led"), ("creator", "created"), ("writer", "wrote")]
    assert all(agent_noun_verb(stem_of(n), stem_of(v)) for n, v in pairs)
    assert not agent_noun_verb(stem_of("bridge"), stem_of("bridged"))
    assert not agent_noun_verb(stem_of("member"), stem_of("led"))
