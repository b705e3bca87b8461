"""A result written as a score line ("Argentina 3–2 West Germany") orders its two sides as "A beat
B" does (``claims.verdict.results``): a claim with the winner and loser swapped is
``contradicted``, the claim's own way round is no conflict, and so is a score line that may
be another match (another year, competition or kind of win than the claim's, or several
scores). Sentences written for this test; the expected verdicts follow from the module's
definition (more goals, points or sets won)."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.types import Verdict
from claims.verdict.results import results

C = Verdict.CONTRADICTED


def _sides(text: str) -> list[tuple[str, str, str]]:
    return [(text[w[0] : w[1]], text[lo[0] : lo[1]], text[s[0] : s[1]]) for w, lo, s in results(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Orm United 2–0 Kelby Rovers", [("Orm United", "Kelby Rovers", "2–0")]),
        ("Kelby Rovers 0-2 Orm United", [("Orm United", "Kelby Rovers", "0-2")]),
        # sets: more sets won, whatever the games
        ("Final: Maria Lind 6–3, 3–6, 7–5 Anna Berg", [("Maria Lind", "Anna Berg", "6–3, 3–6, 7–5")]),
        # a draw, sets won alike, a shoot-out in brackets, a season, a time: no result
        ("Kelby Rovers 1–1 Orm United", []),
        ("Maria Lind 6–3, 3–6 Anna Berg", []),
        ("Kelby Rovers 1–1 (2–4 pen.) Orm United", []),
        ("The 1992–93 Cup Final", []),
        ("Kelby Rovers 12:00-14:00 Orm United", []),
        ("Melk 2–1 Tarvos (agg. 3–4)", []),
        ("Celtics 63–19 Lakers 62–20", []),
        ("In 1986 Argentina won 3–2 against West Germany", []),
    ],
)
def test_score_lines(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert _sides(text) == expected


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        ("Kelby Rovers beat Orm United in the cup.", "Cup, second round: Orm United 2–0 Kelby Rovers"),
        ("Anna Berg defeated Maria Lind in the final.", "Final: Maria Lind 6–3, 6–4 Anna Berg"),
        ("Maria Lind lost to Anna Berg in the final.", "Final: Maria Lind 6–3, 6–4 Anna Berg"),
        ("West Germany won the final against Argentina.", "Final, 29 June 1986: Argentina 3–2 West Germany"),
    ],
)
def test_winner_and_loser_swapped_is_contradicted(response: str, reference: str) -> None:
    (j,) = audit_texts(response, [reference]).judgements
    assert j.verdict is C, j.reason
    assert "stand the other way round" in j.reason


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        ("Orm United beat Kelby Rovers in the cup.", "Cup, second round: Orm United 2–0 Kelby Rovers"),
        ("Anna Berg lost to Maria Lind in the final.", "Final: Maria Lind 6–3, 6–4 Anna Berg"),
        # a draw decided on penalties orders no sides: no conflict either way
        ("Kelby Rovers beat Orm United in the cup.", "Kelby Rovers 1–1 (2–4 pen.) Orm United"),
        # several scores in one reference claim: legs and their aggregate, a record per side
        ("Tarvos beat Melk on aggregate.", "Second leg: Melk 2–1 Tarvos (Tarvos won 4–3 on aggregate)"),
        ("Frazier beat Ali in their first fight.", "Career records: Ali 56–5 Frazier 32–4"),
        # a score line of another year, competition or kind of result than the claim's
        ("Brazil beat Italy in the 1970 World Cup final.", "1982 World Cup: Italy 3–2 Brazil"),
        ("Ravensby beat Colter in the cup.", "League, 3 March: Colter 2–0 Ravensby"),
        ("India beat Australia by five wickets.", "Test series: Australia 2–1 India"),
        # the claim's way round stated too: no conflict
        (
            "Kelby Rovers beat Orm United.",
            "Orm United 3–2 Kelby Rovers (league). Kelby Rovers 4–0 Orm United (cup).",
        ),
    ],
)
def test_the_winner_as_written_is_no_conflict(response: str, reference: str) -> None:
    (j,) = audit_texts(response, [reference]).judgements
    assert j.verdict is not C, j.reason
