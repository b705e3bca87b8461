"""Decomposition of pronouns and definite descriptions: a pronoun takes its antecedent (he/she by
the sex of the name, claims/data/first_names.tsv), has none and is ambiguous, or is an expletive
"it"; reference texts resolve theirs too; "the bridge" after a named bridge is that bridge.

Expected values come from the decomposition rules (docs/DECOMPOSITION.md: "has a pool, a gym and
a rooftop bar" -> three claims; "She was 23" -> "Ines Marlow was 23"), from
the shared cases (../shared/cases/audits.jsonl, the case named in each row) and from FActScore's
definition of an atomic claim (Min et al. 2023: one piece of information, standing alone).
"""

from __future__ import annotations

import pytest

from claims.decompose import decompose
from tests.unit.decompose_texts import material, texts


@pytest.mark.parametrize(
    ("text", "needle", "antecedent"),
    [
        # case pronoun_resolution
        ("Ines Marlow won the Varga Prize in 2004. She was 23 at the time.", "23", "Ines Marlow"),
        # case mixed_paragraph: "It" -> the last subject entity, also in a split coordination
        (
            "The Kestrel Bridge crosses the river Aln. It was completed in 1998 and is 520 metres long.",
            "520",
            "Kestrel Bridge",
        ),
        (
            "The Kestrel Bridge crosses the river Aln. It was completed in 1998 and is 520 metres long.",
            "1998",
            "Kestrel Bridge",
        ),
        # case distractor_passage: a possessive pronoun in the subject
        (
            "Orrin Biologics' compound OB-17 received a designation in 2023, "
            "and its phase 2 study enrolled 80 patients.",
            "80",
            "OB-17",
        ),
        # "it" never refers to a person (spaCy PERSON entity), even
        # when the person is the last subject named (not "Marit Olsen will be widened")
        (
            "The suspension bridge is 1,420 metres long. It was designed by the engineer Marit Olsen. "
            "Marit Olsen was born in Bergen. It will be widened in 2030.",
            "2030",
            "The suspension bridge",
        ),
    ],
)
def test_pronouns_resolved_to_antecedent(text: str, needle: str, antecedent: str) -> None:
    hits = [c for c in decompose(text) if needle in c.text]
    assert hits, texts(text)
    assert all(antecedent in c.text and not c.ambiguous for c in hits), hits


def test_pronoun_without_antecedent_is_ambiguous() -> None:
    # docs/DECOMPOSITION.md, pronouns: with no antecedent the claim is ambiguous
    (claim,) = decompose("She was 23 at the time.")
    assert claim.ambiguous is True


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # he / she follow the sex a title or first name says (claims/data/first_names.tsv, the
        # 1990 US Census lists), not the last named subject whatever its name
        # ("Ada Lovelace designed the Analytical Engine", a contradiction the response never made)
        (
            "Ada Lovelace worked with Charles Babbage. He designed the Analytical Engine.",
            ["Ada Lovelace worked with Charles Babbage.", "Charles Babbage designed the Analytical Engine."],
        ),
        (
            "Ada Lovelace worked with Charles Babbage. She wrote the first program.",
            ["Ada Lovelace worked with Charles Babbage.", "Ada Lovelace wrote the first program."],
        ),
        (
            "Marie Curie married Pierre Curie in 1895. He was a physicist.",
            ["Marie Curie married Pierre Curie in 1895.", "Pierre Curie was a physicist."],
        ),
        # a thing as the last named subject: the person named since
        (
            "The Kestrel Bridge was designed by Ines Marlow. She won a prize for it.",
            ["The Kestrel Bridge was designed by Ines Marlow.", "Ines Marlow won a prize for it."],
        ),
        # a subject whose sex the list cannot tell (Barack, Elon: absent), with a person of the
        # pronoun's sex named since: ambiguous, the pronoun stays (not "Elon Musk was born
        # in 1963"); a company is never "he" (not "Microsoft replaced Steve Ballmer")
        (
            "Barack Obama met Joe Biden. He praised the plan.",
            ["Barack Obama met Joe Biden.", "He praised the plan."],
        ),
        (
            "Elon Musk hired Linda Yaccarino as CEO of X in 2023. She was born in 1963.",
            ["Elon Musk hired Linda Yaccarino as CEO of X in 2023.", "She was born in 1963."],
        ),
        (
            "Microsoft named Satya Nadella CEO. He replaced Steve Ballmer.",
            ["Microsoft named Satya Nadella CEO.", "He replaced Steve Ballmer."],
        ),
        # no one else named: the subject, as before
        (
            "Jordan Smith met Ada Hall. He left early.",
            ["Jordan Smith met Ada Hall.", "Jordan Smith left early."],
        ),
        # no person of the pronoun's sex: the pronoun stays (ambiguous), never the other person
        ("Ada Hall met Mary Stone. He left early.", ["Ada Hall met Mary Stone.", "He left early."]),
    ],
)
def test_he_and_she_follow_the_sex_of_the_name(text: str, claims: list[str]) -> None:
    assert [c.text for c in decompose(text)] == claims


@pytest.mark.parametrize(
    ("text", "ambiguous"),
    [
        ("It is important to choose a model that fits the data.", False),  # expletive "it"
        ("It seems that the bridge is old.", False),
        ("It struggled to identify a source.", True),  # referential "it", no antecedent
    ],
)
def test_expletive_it_is_not_ambiguous(text: str, ambiguous: bool) -> None:
    assert [c.ambiguous for c in decompose(text)] == [ambiguous]


# reference-side pronouns


@pytest.mark.parametrize(
    ("reference", "resolved"),
    [
        (
            "Brenna Foods was founded in 1962. Its headquarters are in Tromsø.",
            "Brenna Foods' headquarters are in Tromsø.",
        ),
        ("The Lumo app launched in 2020. It has 2 million users.", "The Lumo app has 2 million users."),
    ],
)
def test_reference_pronouns_resolve_on_the_reference_path(reference: str, resolved: str) -> None:
    import numpy as np

    from claims.audit import audit_texts

    class FlatEmbedder:  # the test is about decomposition, not embeddings
        dim = 4
        model_name = "flat"

        def embed(self, texts: list[str]) -> np.ndarray:
            return np.ones((len(texts), 4), dtype=np.float32) / 2

    report = audit_texts("Anything.", [reference], embedder=FlatEmbedder())
    assert resolved in [rc.claim.text for rc in report.reference_claims]


# definite descriptions
# FActScore's atomic claims stand alone (Min et al. 2023): "The bridge" after a named bridge is
# that bridge. The subject "the [modifiers] <head>" takes the newest name ending in <head>
# (or a designator listed for it in claims/data/definite_descriptions.tsv); modifiers stay.


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The Orre Bridge opened in 1998. The bridge is 410 metres long.",
            ["The Orre Bridge opened in 1998.", "The Orre Bridge is 410 metres long."],
        ),
        (
            "The Orre Bridge opened in 1998. The suspension bridge carries two lanes.",
            ["The Orre Bridge opened in 1998.", "The Orre suspension bridge carries two lanes."],
        ),
        # the subject carried over to a coordinated verb is bound too
        (
            "The Orre Bridge opened in 1998. The bridge is long and carries two lanes.",
            [
                "The Orre Bridge opened in 1998.",
                "The Orre Bridge is long.",
                "The Orre Bridge carries two lanes.",
            ],
        ),
        (
            "Tessel Corp makes chips. The company was founded in 1990.",
            ["Tessel Corp makes chips.", "Tessel Corp was founded in 1990."],
        ),
        # a contrasting modifier sets it apart; no name with that head; a plural; a phrase after
        # the head: left alone
        (
            "The old Orre Bridge closed in 1997. The new bridge opened in 1998.",
            ["The old Orre Bridge closed in 1997.", "The new bridge opened in 1998."],
        ),
        (
            "The Orre Bridge opened in 1998. The museum opened in 2001.",
            ["The Orre Bridge opened in 1998.", "The museum opened in 2001."],
        ),
        (
            "The Orre Bridge opened in 1998. The bridges are long.",
            ["The Orre Bridge opened in 1998.", "The bridges are long."],
        ),
        (
            "The Orre Bridge opened in 1998. The bridge over the river is long.",
            ["The Orre Bridge opened in 1998.", "The bridge over the river is long."],
        ),
        # a person is no hall; two companies named: which one is meant is unknown; a
        # superlative or "only", and a copula naming the thing, pick it out themselves
        (
            "Ada Hall won the prize in 1990. The hall was built in 1900.",
            ["Ada Hall won the prize in 1990.", "The hall was built in 1900."],
        ),
        (
            "Tessel Corp makes chips. Corvin Group makes boards. The company was founded in 1990.",
            ["Tessel Corp makes chips.", "Corvin Group makes boards.", "The company was founded in 1990."],
        ),
        (
            "The Orre Bridge opened in 1998. The longest bridge is the Hardanger Bridge.",
            ["The Orre Bridge opened in 1998.", "The longest bridge is the Hardanger Bridge."],
        ),
        (
            "The Orre Bridge opened in 1998. The only bridge is closed.",
            ["The Orre Bridge opened in 1998.", "The only bridge is closed."],
        ),
        # "the company" / "the firm" after a one-word name of an organisation (it was left
        # unresolved: the name's last word is no designator); a person, or two such names, no
        (
            "Tenda was founded in 2001. The company has 450 employees.",
            ["Tenda was founded in 2001.", "Tenda has 450 employees."],
        ),
        (
            "Nvidia makes chips. The firm was founded by Jensen Huang.",
            ["Nvidia makes chips.", "Nvidia was founded by Jensen Huang."],
        ),
        (
            "Marie Curie won a prize. The company was founded in 1900.",
            ["Marie Curie won a prize.", "The company was founded in 1900."],
        ),
        (
            "Tenda makes bikes. Alto makes cars. The company was founded in 1990.",
            ["Tenda makes bikes.", "Alto makes cars.", "The company was founded in 1990."],
        ),
    ],
)
def test_definite_description_takes_the_name(text: str, expected: list[str]) -> None:
    assert material(text) == expected
