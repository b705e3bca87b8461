"""Decomposition scope: courtesy, interface talk, abstentions, opinions and meta lead-ins are
outside scope while facts (also those with evaluative words) stay material, and a yes/no question
answered by the next sentence states its answer.

Expected values come from the decomposition rules (docs/DECOMPOSITION.md: "has a pool, a gym and
a rooftop bar" -> three claims; "She was 23" -> "Ines Marlow was 23"), from
the shared cases (../shared/cases/audits.jsonl, the case named in each row) and from FActScore's
definition of an atomic claim (Min et al. 2023: one piece of information, standing alone).
"""

from __future__ import annotations

import pytest

from claims.decompose import decompose, is_outside_scope, outside_scope_reason
from claims.types import ClaimKind
from tests.unit.decompose_texts import material, outside


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        # case no_factual_claims: an exclamation and a question
        (
            "What a wonderful museum! Would you like to know more about it?",
            ["outside_scope", "outside_scope"],
        ),
        # case opinion_question_and_fact: only the fact is material
        (
            "Honestly, I think the Kite 14 is the best laptop for students. Does it come in green? "
            "The Kite 14 weighs 1.2 kg.",
            ["outside_scope", "outside_scope", "material"],
        ),
        # case mixed_paragraph: an evaluative sentence
        (
            "The Kestrel Bridge crosses the river Aln. It is a beautiful sight at dusk.",
            ["material", "outside_scope"],
        ),
        # advice and greetings
        (
            "Hello! You should visit the museum early. Book your tickets online.",
            ["outside_scope", "outside_scope", "outside_scope"],
        ),
    ],
)
def test_outside_scope_kinds(text: str, kinds: list[str]) -> None:
    assert [c.kind.value for c in decompose(text)] == kinds


@pytest.mark.parametrize(
    "text",
    ["Best Picture went to the film in 1998.", "The museum opens at 9 a.m.", "Speaks Spanish fluently."],
)
def test_facts_stay_material(text: str) -> None:
    # capitalised "Best" is a name, not an opinion; fragments without subject are still claims
    assert not is_outside_scope(text)
    assert [c.kind for c in decompose(text)] == [ClaimKind.MATERIAL]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # the uses of claims/data/factual_superlatives.tsv state facts (Factcheck-GPT dev claims
        # of this kind are gold "completely-support" against their evidence)
        ("Geranium is consistently ranked as one of the best restaurants in the world.", None),
        ("It was voted the greatest film of 1998 by the readers.", None),
        ("In the plot of the novel, Gregorio is Manuel's best friend.", None),
        ("The best-selling album of 1998 was Ray of Light.", None),
        ("Combinatorial optimisation involves finding the best combination of elements.", None),
        # the writer's own judgement stays an opinion, also next to one of those uses
        ("The Kite 14 is the best laptop for students.", "opinion"),
        ("The hotel, which critics ranked highly, has the best views in town.", "opinion"),
        ("The algorithm finds the best route and it is the best tool.", "opinion"),
        ("It is a beautiful sight at dusk.", "opinion"),
        # a judgement that also states a value is checked for the value (else "one
        # of the best ultrabooks ..., with 32 GB of RAM" hides a wrong number); a number in a name
        # ("the Kite 14") states no value
        ("The XPS 14 is one of the best ultrabooks, with 32 GB of RAM.", None),
        ("Arguably the greatest physicist of his era, Einstein published relativity in 1925.", None),
        ("Honestly, I think the Kite 14 is the best laptop for students.", "opinion"),
        # a naming verb is no ranking, nor is the writer's own rating
        ("A small café called Luna makes the best coffee in town.", "opinion"),
        ("I rated it the best pizza in town.", "opinion"),
        ("Arguably the greatest guitarist ever, Hendrix recorded three studio albums.", None),
    ],
)
def test_factual_uses_of_evaluative_words(text: str, reason: str | None) -> None:
    assert outside_scope_reason(text) == reason


# scope: courtesy, interface, abstention


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("Glad to help!", "courtesy"),
        ("I'd be happy to walk you through it.", "courtesy"),
        ("Hope this helps.", "courtesy"),
        ("Hello there", "greeting"),
        ("You can reserve a table with the button below this message.", "interface"),
        ("Tap the Share icon to send the file.", "interface"),
        ("I could not find the opening hours in the documents.", "abstention"),
        ("The sources don't mention a price.", "abstention"),
        ("Sorry, I cannot answer that from the provided text.", "abstention"),
        ("Is the pool heated?", "question"),
        ("You should arrive early.", "advice"),
        ("The pool is heated to 28 °C.", None),
        # interface words in a statement about the world are no interface pointer
        ("The car comes with a touchscreen menu.", None),
        ("The museum, with its solar panel roof, opened in 1990.", None),
        # a present "when" clause states a rule: no split, and no courtesy either
        ("Sinking sand becomes viscous when it is disturbed.", None),
        ("The bridge was closed for 3 days.", None),
    ],
)
def test_outside_scope_reasons(sentence: str, reason: str | None) -> None:
    assert outside_scope_reason(sentence) == reason


@pytest.mark.parametrize(
    "answer",
    [
        "I'm sorry, I could not find that in the documents.",
        "Thanks for asking! Unfortunately, I don't know the answer.",
        "The provided documents do not mention the ferry times. Hope this helps!",
    ],
)
def test_an_answer_that_only_abstains_has_no_material_claims(answer: str) -> None:
    # an answer that only abstains has no material claims (docs/DECOMPOSITION.md, "Steps")
    assert material(answer) == []
    assert outside(answer)


def test_a_meta_lead_in_is_outside_scope_and_the_rest_is_a_claim() -> None:
    text = "Here is a quick overview: the museum has 4 floors."
    assert material(text) == ["The museum has 4 floors."]
    assert outside(text) == ["Here is a quick overview:"]


# a yes/no question answered by the next sentence states the answer (claims.answers; a kind
# of the Factcheck-GPT refutations: "does Jupiter have a solid surface? No." must give a claim, or
# "Jupiter has a solid surface" meets no evidence); an unanswered question, a question of another
# kind and an answer that opens with neither word state nothing
ANSWERED = [
    (
        "With all that gas, does Jupiter have a solid surface? No. Jupiter is a gas giant.",
        "Jupiter does not have a solid surface.",
        "does Jupiter have a solid surface? No",
    ),
    (
        "Is the museum open on Mondays? Yes, from 10 am to 5 pm.",
        "The museum is open on Mondays.",
        "Is the museum open on Mondays? Yes",
    ),
    ("Q: Is the pool heated? A: Nope.", "The pool is not heated.", "Is the pool heated? A: Nope"),
    (
        "You may wonder – can the mayor veto the budget? As far as we know, no, she cannot.",
        "The mayor cannot veto the budget.",
        "can the mayor veto the budget? As far as we know, no",
    ),
]


@pytest.mark.parametrize(("text", "claim", "located"), ANSWERED, ids=[a[1] for a in ANSWERED])
def test_answered_question(text: str, claim: str, located: str) -> None:
    found = [c for c in decompose(text) if c.text == claim]
    assert len(found) == 1, material(text)
    assert found[0].kind is ClaimKind.MATERIAL
    assert text[found[0].start : found[0].end] == located


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Does Jupiter have a solid surface? We do not yet know.", "Jupiter does not have a solid surface."),
        ("Does Jupiter have a solid surface? We do not yet know.", "Jupiter does have a solid surface."),
        ("What is the surface of Jupiter made of? No one knows.", "The surface of Jupiter is not made of."),
        ("Does the museum open on Mondays? Nobody could tell us.", "The museum does not open on Mondays."),
        # "No" or "Yes" that opens a phrase, and an answer under a condition
        (
            "Is Earth the only planet with water? No other planet has water.",
            "Earth is not the only planet with water.",
        ),
        ("Are all snowflakes different? No two snowflakes are alike.", "All snowflakes are not different."),
        ("Is HDFC the largest bank? Yes Bank reported losses.", "HDFC is the largest bank."),
        (
            "Do you need a visa to visit Japan? No, if you hold an EU passport.",
            "You do not need a visa to visit Japan.",
        ),
        # a lead-in that limits the answer, a hedge after it
        (
            "Do travellers need a visa for Japan? For most EU citizens, no.",
            "Travellers do not need a visa for Japan.",
        ),
        ("Is coffee bad for you? No, it depends on how much you drink.", "Coffee is not bad for you."),
    ],
)
def test_question_without_yes_or_no_states_nothing(text: str, statement: str) -> None:
    assert statement not in material(text)
